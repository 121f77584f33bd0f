"""Issue 24 item 3: one description per hook (``gouji_rules/parts/hooks.py``), held to what the engine does.

Each hook's ``Rules`` method hands the expression exactly the names its ``HookSpec`` lists; each
``HookSpec.expression`` gives the 够级大纲's own answer to every question the method asks; the
parameters it ``decides`` are what ``validate`` and ``explain`` call dead; docs/variants.md's list
of hooks is the one the table prints.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.catalog import dagang
from gouji_rules.dsl import load_text
from gouji_rules.dsl.overrides import decided, partly
from gouji_rules.game.cards import NRANKS, CardSet, parse_set
from gouji_rules.parts.hooks import BEAT_CONTEXT, HOOKS, markdown
from gouji_rules.rules import Rules
from gouji_rules.rules.beat import set_context

DOC = Path(__file__).resolve().parents[2] / "docs" / "variants.md"
CHONGDIAN_ON = "chongdian:\n  enabled: true\n"
"""dagang has no 冲点; with it on, its parameters are the defaults the expression writes out"""


def _hands() -> list[list[int]]:
    """Hands by rank count: every mix of 0–4 2s, 小王, 大王 and 鹰 over a few plain hands."""
    plain = [[0] * NRANKS, [2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 6, 0, 0, 0, 0], [1] * 12 + [0] * 4]
    out = []
    for base in plain:
        for twos, sj, bj, y in itertools.product(range(4), range(5), range(5), range(3)):
            h = list(base)
            h[12], h[13], h[14], h[15] = twos, sj, bj, y
            out.append(h)
    return out


def _sets() -> list[CardSet]:
    texts = ["3", "33333", "TTTTT", "TTTTTT", "JJJJ", "KKK", "AAA", "AA", "22", "2222", "Q", "QQQ2", "KK2 SJ"]
    texts += ["TT BJ", "SJ", "SJ SJ", "BJ", "BJ BJ", "Y", "5555 SJ BJ", "AAAA2", "222 Y", "77 2 2"]
    return [parse_set(t) for t in texts]


def _asks(rules: Rules) -> dict[str, list[Any]]:
    """Every question each hook's method is asked here, by hook, as a call returning the answer."""
    hands = _hands()
    kept = [0] * NRANKS
    return {
        "is_gouji": [lambda cs=cs: rules.is_gouji(cs) for cs in _sets()],
        "is_pure_gouji": [lambda cs=cs: rules.is_pure_gouji(cs) for cs in _sets()],
        "may_answer": [lambda k=k: rules.may_answer(*k) for k in itertools.product((False, True), repeat=5)],
        "team_score": [lambda p=p: rules.team_scores(p) for p in itertools.permutations(range(1, 7))],
        "sweep_multiplier": [lambda s=s: rules.sweep_multiplier(s) for s in (False, True)],
        "kang_self": [lambda h=h: rules.kang(h) for h in hands],
        "kang_team": [lambda h=h: rules.kang(h) for h in hands],
        "geming_eligible": [lambda h=h: rules.geming_eligible(h) for h in hands],
        "chongdian_eligible": [lambda h=h: rules.chongdian_eligible(h) for h in hands],
        "tribute_card": [lambda h=h: rules.tribute_rank(h, kept) for h in hands],
    }


def _with_hooks(hooks: dict[str, str]) -> Rules:
    lines = "".join(f'  {k}: "{v}"\n' for k, v in hooks.items())
    return load_text(f"extends: dagang\nname: hooked\n{CHONGDIAN_ON}hooks:\n{lines}", "<test>").rules


def test_docs_list_of_hooks_is_the_table() -> None:
    page = DOC.read_text(encoding="utf-8")
    start = page.index("<!-- generated from gouji_rules/parts/hooks.py: python -m gouji_rules.parts.hooks -->\n\n")
    start = page.index("\n\n", start) + 2
    end = page.index("<!-- end of the generated list -->")
    assert page[start:end] == markdown() + "\n"


@pytest.mark.parametrize("name", [n for n in HOOKS if n != "beats"])
def test_each_method_hands_its_hook_exactly_the_listed_names(name: str) -> None:
    """The ``asked_by`` method runs the hook, and the context it builds has the spec's names."""
    seen: list[frozenset[str]] = []
    spec = HOOKS[name]
    base = load_text(f"extends: dagang\nname: rec\n{CHONGDIAN_ON}", "<test>")

    def record(ctx: dict[str, Any]) -> Any:
        seen.append(frozenset(ctx))
        return {"bool": False, "int": 1, "rank": -1}[spec.result]

    rules = base.replace(hooks={name: record}).rules
    for ask in _asks(rules)[name]:
        ask()
    assert seen and set(seen) == {frozenset(spec.names)}
    assert callable(getattr(Rules, spec.asked_by))


def test_beats_context_is_the_sets_with_the_table_twin_and_default() -> None:
    """``HookBeat.beats`` builds its context from ``beat.set_context`` of both sets and ``default``."""
    cs = parse_set("KK2 SJ")
    assert {**set_context(cs), **set_context(cs, "table_"), "default": False}.keys() == BEAT_CONTEXT.keys()


@pytest.mark.parametrize("name", [n for n in HOOKS if n != "beats"])
def test_each_expression_gives_dagangs_own_answers(name: str) -> None:
    """``HookSpec.expression`` is dagang's default: every answer of the method agrees with the parameters."""
    plain = load_text(f"extends: dagang\nname: plain\n{CHONGDIAN_ON}", "<test>").rules
    hooked = _with_hooks({name: HOOKS[name].expression})
    answers: Callable[[Rules], list[Any]] = lambda r: [ask() for ask in _asks(r)[name]]  # noqa: E731
    assert answers(hooked) == answers(plain)
    assert len(set(map(repr, answers(plain)))) > 1  # the questions tell the answers apart


def test_beats_expression_gives_cover() -> None:
    """dagang's ``cover`` and the ``beats`` expression agree on every pair of these sets."""
    plain = dagang().rules
    hooked = _with_hooks({"beats": HOOKS["beats"].expression})
    pairs = list(itertools.product(_sets(), repeat=2))
    assert [hooked.beat.beats(b, t) for b, t in pairs] == [plain.beat.beats(b, t) for b, t in pairs]
    assert any(plain.beat.beats(b, t) for b, t in pairs) and not all(plain.beat.beats(b, t) for b, t in pairs)


def test_decided_parameters_come_from_the_table() -> None:
    """``validate``'s dead parameters and ``explain``'s 'decided by an expression' are the spec's ``decides``."""
    hooks = {name: object() for name in HOOKS}
    assert set(decided(hooks)) == {f for s in HOOKS.values() for f in s.decides}
    assert set(partly(hooks)) == {"kang.small", "chongdian.sets"}
    assert decided({"is_gouji": object()})["gouji.joker_sets"] == ("is_gouji", False)
