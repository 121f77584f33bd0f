"""Issue 31 item 4: the layers import downward only, type imports included.

The order is written once, in :mod:`gouji_rules.parts.layers`; this test reads it and the import
graph :mod:`test_import_cycles` builds (every import, ``if TYPE_CHECKING:`` ones too).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from gouji_rules.parts.layers import LAYERS, layer_of

_spec = importlib.util.spec_from_file_location("_import_cycles", Path(__file__).with_name("test_import_cycles.py"))
assert _spec is not None and _spec.loader is not None
_cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cycles)
import_graph = _cycles.import_graph


def _short(module: str) -> str:
    return module.removeprefix("gouji_rules.")


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a module to one in a higher layer, as ``a (layer) -> b (layer)``."""
    out = []
    for a, deps in sorted(graph.items()):
        if a == "gouji_rules":  # the public API, above every layer
            continue
        for b in sorted(deps):
            la, lb = layer_of(_short(a)), layer_of(_short(b))
            if lb > la:
                out.append(f"{_short(a)} ({LAYERS[la][0]}) -> {_short(b)} ({LAYERS[lb][0]})")
    return out


def test_every_module_has_a_layer() -> None:
    """A new module is placed in the table before it can pass: no module is outside the order."""
    missing = []
    for module in import_graph():
        if module != "gouji_rules":
            try:
                layer_of(_short(module))
            except KeyError:
                missing.append(_short(module))
    assert missing == []


def test_no_import_runs_up_a_layer() -> None:
    assert upward(import_graph()) == []


def test_the_check_sees_an_upward_type_import() -> None:
    """The check is not empty by mistake: a type-only import from the engine's words to a phase, or
    from a phase to the engine, is caught."""
    graph = {"gouji_rules.game.legal": {"gouji_rules.play.match"}, "gouji_rules.play.match": set()}
    assert upward(graph) == ["game.legal (game) -> play.match (play)"]
    assert layer_of("phases.buy") == layer_of("phases") > layer_of("game.hand_setup")
    assert layer_of("parts.catalogue") > layer_of("parts")  # the longest name decides
    assert layer_of("variant") > layer_of("rules") > layer_of("parts.sections")  # variant.rules compiles
