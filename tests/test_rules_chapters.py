"""Issue 31 item 4: ``Rules`` is split by chapter of the texts, one short module each.

The chapters are one single-inheritance chain (mypyc compiles native classes so; a mixin it does
not), each module cites its chapter, and the round state the engine hands the rules declares only
values: whether a 够级 set binds is the rules' own answer, so no base method is left as a stub.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import gouji_rules.rules as rules_pkg
from gouji_rules.catalog import dagang
from gouji_rules.rules import HandState, Rules

FOLDER = Path(rules_pkg.__file__).parent
CHAPTERS = ["base", "sets", "play", "burn", "points", "declare", "tribute", "scoring"]


def test_rules_is_one_chain_of_chapters() -> None:
    chain = [c.__module__.rsplit(".", 1)[-1] for c in Rules.__mro__ if c.__module__.startswith("gouji_rules.rules")]
    assert chain == ["rules", *reversed(CHAPTERS), "beat"]  # beat.RankTables: the tables a strategy reads
    assert all(len(c.__bases__) == 1 for c in Rules.__mro__[:-1])


def test_each_chapter_is_short_and_cites_its_chapter() -> None:
    for name in CHAPTERS:
        path = FOLDER / f"{name}.py"
        text = path.read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        assert len(text.splitlines()) < 300, path
        assert "S4" in doc or "S0" in doc, path


def test_every_question_is_still_asked_of_rules() -> None:
    """The split moved methods, it dropped none: 79 public ones as before, and ``bound``."""
    public = {n for n, _ in inspect.getmembers(Rules) if not n.startswith("_")}
    assert len({n for n in public if callable(getattr(Rules, n))}) >= 80
    assert {"can_burn", "is_gouji", "yield_problem", "team_scores", "debts", "kang", "bound"} <= public


def test_hand_state_declares_values_only() -> None:
    """No stub to override: the engine's Hand extends HandState for its fields, the rules answer."""
    own = {n for n, v in vars(HandState).items() if callable(v) and not n.startswith("__")}
    assert own == set()
    from gouji_rules.play.engine import Hand

    hand = Hand.deal(dagang(), seed=3)
    checked = 0
    for owner in range(6):
        for cs in hand.rules.pure_choices(hand.hands[owner]):
            assert hand.bound(owner, cs) == hand.rules.bound(hand, owner, cs) is True
            checked += 1
    assert checked > 0
