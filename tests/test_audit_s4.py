"""Audit of S4 (《够级规则》 = 《够级大纲》, variant ``dagang``): the corners of each article.

These complete tests/test_rules_s4.py and tests/test_between_s4.py where an article had a corner
no test built: the price the opposite's team takes (第九条, 第十条), thresholds with an attached 2,
a plain set against a 小花 set, several 清, burn failures in order, 只记正分 with both teams at
zero, and so on.  Every situation is built through the public API (``Hand.position``,
``Match(deal=…)``, ``settle``).  Seats 0-5 are in order of play; the opposite of s is s+3.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gouji_rules import HandResult, Match, settle
from gouji_rules.actions import Action, Choose
from gouji_rules.cards import FOUR, SJ, THREE, TWO, parse_set

from .conftest import S0, S4

FILL = "3 4 5 6"


def buy_match(variant: object, hands: list[str], want4: bool = True) -> Match:
    """A one-hand match of ``hands`` led by seat 0, run to its first lead (every 买4 taken if ``want4``)."""
    m = Match(variant, seed=1, hands=1, deal=hands, leader=0)  # type: ignore[arg-type]
    pick: Callable[[list[Action]], Action] = lambda acts: next(
        (a for a in acts if isinstance(a, Choose) and a.what == "buy4" and want4), acts[-1]
    )
    while m.phase != "play":
        acts = list(m.legal_actions())
        assert str(acts[-1]) == "pass" or len(acts) == 1 or m.phase == "buy4"
        m.apply(pick(acts))
    return m


def bought(m: Match, kind: str) -> list[tuple[int, int, int]]:
    """(buyer, seller, rank paid or -1) of each buy event."""
    return [(e.seat, e.other, e.value - 1) for e in m.events if e.type == kind]


# -- 第九条 买三, 第十条 买四: the price by seller ------------------------------------------------


def test_s4_art9_buy3_from_the_opposite_team_only_with_a_two() -> None:
    """第九条 “如果联邦无法给3，可以用2向对头的联邦买一张3”: a 小花 buys from the opposite (“用一张2或王
    向对家买3”) but not from the opposite's team; with no 3 the seat is 大落 (“牌中没有3者，算做大落”)."""
    m = buy_match(S4, ["4 5 SJ 6", FILL, FILL, FILL, FILL, "3 3 3 4"])
    assert bought(m, "buy3") == []
    assert m.hand is not None and m.hand.setup.placed == {0: 6}
    m = buy_match(S4, ["4 5 2 SJ", FILL, FILL, FILL, FILL, "3 3 3 4"])
    assert bought(m, "buy3") == [(0, 5, TWO)]
    m = buy_match(S4, ["4 5 SJ 6", FILL, FILL, "3 3 4 5", FILL, FILL])
    assert bought(m, "buy3") == [(0, 3, SJ)]


def test_s4_art10_buy4_from_the_opposite_team_only_with_a_two() -> None:
    """第十条 “可以用钱（无钱时用大、小花）向对头买1张4 … 如果联邦无法给4，可以用2向对头的联邦买一张4”"""
    m = buy_match(S4, ["3 5 SJ 6", FILL, FILL, FILL, FILL, "3 4 4 4"])
    assert bought(m, "buy4") == []
    assert m.hand is not None and 0 in m.hand.setup.closed  # “牌中没有4者，算做没有开点”
    m = buy_match(S4, ["3 5 2 6", FILL, FILL, FILL, FILL, "3 4 4 4"])
    assert bought(m, "buy4") == [(0, 5, TWO)]
    m = buy_match(S4, ["3 5 SJ 6", FILL, FILL, "3 4 4 5", FILL, FILL])
    assert bought(m, "buy4") == [(0, 3, SJ)]


def test_s4_art9_team_gives_without_a_price() -> None:
    """第九条 “则可向自己联邦要一张3”: the team gives; the buyer keeps his 2."""
    m = buy_match(S4, ["4 5 2 6", FILL, "3 3 4 5", FILL, FILL, FILL])
    assert bought(m, "buy3") == [(0, 2, -1)]
    assert m.hands_now[0][TWO] == 1 and m.hands_now[0][THREE] == 1


def test_s4_art9_nothing_to_pay_the_opposite_no_free_card() -> None:
    """第九条 “要用一张2或王向对家买3”: S4 has no free card (S0's 直接白送); a buyer with neither a 2 nor a
    王 gets no 3 from the opposite, and is 大落."""
    m = buy_match(S4, ["4 5 A 6", FILL, FILL, "3 3 4 5", FILL, FILL])
    assert bought(m, "buy3") == []
    assert m.hand is not None and m.hand.setup.placed == {0: 6}


def test_s0_sec7_any_seller_takes_a_joker_or_gives_free() -> None:
    """S0 七 “没有3,4的人需要向多余3,4的人上交1张2 … 如果没有2则用王买，如果2,王都没有，则多余3,4的人直接
    白送”: the same price from every seller, the opposite's team too (the other reading of 第九条)."""
    m = buy_match(S0, ["4 5 SJ 6", FILL, FILL, FILL, FILL, "3 3 4 5"])
    assert bought(m, "buy3") == [(0, 5, SJ)]
    m = buy_match(S0, ["4 5 A 6", FILL, FILL, FILL, FILL, "3 3 4 5"])
    assert bought(m, "buy3") == [(0, 5, -1)]
    assert m.hands_now[0][THREE] == 1 and m.hands_now[0][FOUR] == 1


def test_s4_art9_buy_payment_predicate_names_each_reading() -> None:
    """``Rules.buy_payment``: the one place the price is decided (dagang vs dianshaomenla)."""
    hand = [0] * 16
    hand[SJ] = 1
    assert S4.rules.buy_payment("opposite", hand) == SJ
    assert S4.rules.buy_payment("opposite_team", hand) is None
    assert S4.rules.buy_payment("team", hand) == -1
    assert S0.rules.buy_payment("opposite_team", hand) == SJ
    empty = [0] * 16
    assert S4.rules.buy_payment("opposite", empty) is None
    assert S0.rules.buy_payment("opposite", empty) == -1
