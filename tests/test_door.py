"""Issue 10 item 1: ``Rules`` is the only door.  The hand engine, the match and every phase,
settlement, the agents and the statistics never read a Variant's sections or hooks; they are
handed Rules (a Variant given to them is compiled first) and ask it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.errors import IllegalAction
from gouji_rules.parts.layers import MOVED
from gouji_rules.play.engine import Hand
from gouji_rules.play.match import Match
from gouji_rules.rules import Rules
from gouji_rules.variant import SECTIONS

PKG = Path(__file__).resolve().parent.parent / "gouji_rules"
RULES_LAYER = {
    "variant.py",
    *(f"rules/{m}.py" for m in ("__init__", "base", "sets", "play", "burn", "points", "declare", "tribute", "scoring")),
    "rules/beat.py",
    "rules/tributes.py",
    "rules/declarations.py",
    "parts/registry.py",
    "catalog.py",
    "parts/options.py",
}
"""The variant layer: it compiles a Variant's sections into Rules (and the registered classes it builds)."""
ENGINE_LAYER = sorted(
    p
    for folder in ("", "game/", "play/", "rules/", "parts/", "phases/")
    for p in PKG.glob(f"{folder}*.py")
    if str(p.relative_to(PKG)) not in RULES_LAYER
    and not p.name.startswith(("cli", "__init__"))
    and not (folder == "" and p.stem in MOVED)
    and not (folder == "parts/" and p.stem in ("catalogue", "sections", "layers"))
)
"""Every other module of the package (the CLI, dsl/, tournament/ and compare/ aside): the engine, the match
and its phases, settlement, agents, statistics, and any module added later.  (``__init__`` re-exports Variant
as public API; the old flat paths are shims; ``parts/`` holds the catalogue and sections of a variant file.)"""
SECTION_NAMES = {key for key, _ in SECTIONS}


def _runtime_imports(tree: ast.Module) -> list[ast.ImportFrom]:
    """``from … import`` statements outside ``if TYPE_CHECKING:`` blocks."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and id(n) not in skip]


@pytest.mark.parametrize("path", ENGINE_LAYER, ids=lambda p: str(p.relative_to(PKG)))
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


@pytest.mark.parametrize("path", ENGINE_LAYER, ids=lambda p: str(p.relative_to(PKG)))
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
        assert "variant" not in obj.__getstate__()  # type: ignore[operator]  # pure and compiled alike
    assert Hand.deal(v.rules, 1).record() == h.record()  # handed Rules or a Variant: the same hand


# -- the predicates result entry and record checks ask (one answer with the engine) ------------

S0 = dianshaomenla()
S4 = dagang()


def test_s4_art6_burner_must_have_opened_engine_and_predicate_agree() -> None:
    """S4 第六条: 没有开点的不能烧牌.  The engine offers seat 2 the burn only when Rules says it may."""
    hands = ["KK 33", "5 33", "AA 33", "6 33", "7 33", "8 33"]
    for opened in (True, False):
        h = Hand.position(S4, hands, table="KK", owner=0, point={2: "open" if opened else "none"})
        offered = h.turn == 2 and h.mode.label == "burn"
        assert offered == S4.rules.can_burn(2, 0, opened=opened) == opened
    with pytest.raises(IllegalAction) as e:
        S4.rules.verify_burn(2, 0, opened=False)
    assert (e.value.rule, e.value.clause) == ("burn_open_point", "S4 第六条")


def test_s0_burn_needs_no_point_but_not_after_a_pass() -> None:
    """S0 五、烧牌: no 开点 needed to burn; 过牌之后则不能烧牌.  A teammate may be burned in both texts."""
    r = S0.rules
    assert r.can_burn(2, 0, opened=False) and r.can_burn(1, 0) and S4.rules.can_burn(2, 0)
    assert not r.can_burn(1, 0, passed=True)
    assert not r.can_burn(3, 0) and not S4.rules.can_burn(3, 0)  # the opposite answers, never burns


def test_places_forced_by_men_burn_fail_geming_chongdian() -> None:
    """S0 六、闷与被闷: 被闷直接判为拉客 (S4 第十五条 清 plays on); 诈烧 goes below; S4 第二十一条 革命 四科 (三科
    when both teammates take 头科 and 二科); S0 十、冲点: 四客, of two the worse 小拉."""
    assert S0.rules.bottom_severity("men") == 1 and S4.rules.bottom_severity("men") is None
    assert S0.rules.bottom_severity("burn_fail") == 2 > 1
    assert (S4.rules.geming_final_place(False), S4.rules.geming_final_place(True)) == (4, 3)
    assert S0.rules.chongdian_places(1) == (4,) and S0.rules.chongdian_places(2) == (4, 5)
    assert S0.rules.chongdian_outcome(1, False) == (frozenset({4}), frozenset({1}))


def test_declarations_and_waivers_by_the_rules() -> None:
    """S0 四、开点 has 宣点/和点 and no 明点/预点; S4 第二十二条(三) the reverse.  S0 八、进贡 waives only 拉贡."""
    assert S0.rules.can_declare("xuandian") and not S0.rules.can_declare("mingdian")
    assert S4.rules.can_declare("yudian") and not S4.rules.can_declare("xuandian")
    with pytest.raises(IllegalAction, match="has no mingdian"):
        S0.rules.verify_declaration("mingdian")
    assert S0.rules.may_waive("place", 0, 2) and not S0.rules.may_waive("point", 0, 2)
    assert not S4.rules.may_waive("place", 0, 1)  # not a teammate
