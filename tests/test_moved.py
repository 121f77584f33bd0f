"""Issue 31 item 4: the flat modules moved into folders by layer; every old path still imports.

``gouji_rules.engine``, ``gouji_rules.cards`` … are shims: each warns ``DeprecationWarning`` once
and is the moved module itself (so code, monkeypatches and pickles naming the old path keep
working).  Nothing in the package imports a shim, and none is compiled.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from gouji_rules.parts.layers import MOVED

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("_import_cycles", Path(__file__).with_name("test_import_cycles.py"))
assert _spec is not None and _spec.loader is not None
_cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cycles)

PROBE = """
import importlib, json, sys, warnings
out = {}
for old, new in json.loads(sys.argv[1]).items():
    with warnings.catch_warnings(record=True) as first:
        warnings.simplefilter("always")
        shim = importlib.import_module("gouji_rules." + old)
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        importlib.import_module("gouji_rules." + old)
    out[old] = [
        [str(w.message) for w in first if w.category is DeprecationWarning],
        len(again),
        shim is importlib.import_module("gouji_rules." + new),
        getattr(sys.modules["gouji_rules"], old) is shim,
    ]
print(json.dumps(out))
"""


def test_every_old_path_warns_once_and_is_the_moved_module() -> None:
    run = subprocess.run([sys.executable, "-c", PROBE, json.dumps(MOVED)], capture_output=True, text=True, check=True)
    got = json.loads(run.stdout)
    for old, new in MOVED.items():
        assert got[old] == [[f"gouji_rules.{old} moved to gouji_rules.{new}; import it from there"], 0, True, True]


def test_nothing_in_the_package_imports_an_old_path() -> None:
    graph = _cycles.import_graph()
    shims = {f"gouji_rules.{old}" for old in MOVED}
    assert {a: sorted(deps & shims) for a, deps in graph.items() if deps & shims and a not in shims} == {}
    for old, new in MOVED.items():  # a shim imports its module (and that module's folder), nothing else
        assert graph[f"gouji_rules.{old}"] == {f"gouji_rules.{new}", f"gouji_rules.{new.split('.')[0]}"}


def test_no_shim_is_compiled() -> None:
    """setup.py's CORE names the moved modules by their folders, never an old path."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    core = next(n for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "CORE")
    ns: dict[str, list[str]] = {}
    exec(compile(ast.Module(body=[core], type_ignores=[]), "setup.py", "exec"), ns)
    assert "game/cards" in ns["CORE"] and "play/engine" in ns["CORE"]
    assert not set(ns["CORE"]) & set(MOVED)


def test_a_pickle_naming_an_old_path_still_loads() -> None:
    from gouji_rules.game.cards import CardSet
    from gouji_rules.game.seats import opposite

    with pytest.warns(DeprecationWarning):
        assert pickle.loads(b"cgouji_rules.seats\nopposite\n.") is opposite
        assert pickle.loads(b"cgouji_rules.cards\nCardSet\n.") is CardSet
