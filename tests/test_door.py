"""Issue 10 item 1: ``Rules`` is the only door.  The hand engine, the match and every phase,
settlement, the agents and the statistics never read a Variant's sections or hooks; they are
handed Rules (a Variant given to them is compiled first) and ask it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gouji_rules.engine import Hand
from gouji_rules.match import Match
from gouji_rules.rules import Rules
from gouji_rules.variant import SECTIONS, dagang

PKG = Path(__file__).resolve().parent.parent / "gouji_rules"
ENGINE_LAYER = sorted(
    [PKG / n for n in ("engine.py", "match.py", "settle.py", "legal.py", "agents.py", "sim.py", "bench.py")]
    + list((PKG / "phases").glob("*.py"))
)
SECTION_NAMES = {key for key, _ in SECTIONS}


def _runtime_imports(tree: ast.Module) -> list[ast.ImportFrom]:
    """``from … import`` statements outside ``if TYPE_CHECKING:`` blocks."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and id(n) not in skip]


@pytest.mark.parametrize("path", ENGINE_LAYER, ids=lambda p: p.name)
def test_engine_layer_never_reads_variant_sections_or_hooks(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = node.value
            base_name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
            if node.attr in SECTION_NAMES and base_name in ("variant", "v"):
                bad.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
            if node.attr == "hooks":
                bad.append(f"{path.name}:{node.lineno} {ast.unparse(node)} (hooks are dispatched by Rules)")
    assert bad == []


@pytest.mark.parametrize("path", ENGINE_LAYER, ids=lambda p: p.name)
def test_engine_layer_imports_variant_only_for_types(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = [f"{path.name}:{n.lineno}" for n in _runtime_imports(tree) if (n.module or "").endswith("variant")]
    assert bad == []


def test_hand_and_match_hold_rules_not_a_variant() -> None:
    v = dagang()
    h = Hand.deal(v, 1)
    m = Match(v, 1, 1)
    for obj in (h, m):
        assert isinstance(obj.rules, Rules)
        assert "variant" not in vars(obj)
    assert Hand.deal(v.rules, 1).record() == h.record()  # handed Rules or a Variant: the same hand
