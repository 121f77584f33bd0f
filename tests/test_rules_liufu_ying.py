"""Rule tests for ``liufu_ying`` (六副带鹰), the rules of ZXM 《够级规则》 as RLG (lamb-cn/rlcard_gouji)
states and codes them: its design doc ``delegated-bouncing-wilkes.md`` and ``judger.py`` / ``round.py`` /
``buy_phase.py``.  Each test is named after the RLG rule it checks and quotes it; each rule is a variant
key, and the test also shows the other reading (the 够级大纲's, or the option's other value).
"""

from __future__ import annotations

import pytest

from gouji_rules import dsl
from gouji_rules.game.actions import Choose
from gouji_rules.game.cards import SJ, parse_set
from gouji_rules.play.engine import FOLLOW, LEAD, Hand
from gouji_rules.play.match import Match

from .conftest import S4, act, events, illegal, legal, pos
from .test_match import at_play, drive, ev

LY = dsl.load_shipped("liufu_ying")
SHA21 = dsl.load_shipped("sha21")


def test_rlg_fours_go_out_all_at_once_in_one_set() -> None:
    """RLG 4 的约束: 「玩家持有的所有 4 必须一次出完（core_count == 持有4的总数）」 (``sets.whole: ["4"]``)."""
    h = pos(LY, ["4445", "6", "7", "8", "9", "T"])
    fours = {a for a in legal(h) if a.startswith("4")}
    assert fours == {"444"}
    e = illegal(h, "44", "whole")
    assert "all 3 of them" in e.message
    act(h, "444")
    assert events(h, "play")[-1].cards == parse_set("444")
    # the 够级大纲 lets a seat play some of its 4s
    h = pos(S4, ["4445", "6", "7", "8", "9", "T"])
    assert {a for a in legal(h) if a.startswith("4")} == {"4", "44", "444"}


def test_rlg_fours_answer_only_as_every_four_held() -> None:
    """「玩家持有的所有 4 必须一次出完」 also when answering: two 4s do not answer a single 3."""
    h = pos(LY, ["44", "4", "6", "7", "8", "9"], table="3", owner=5)
    assert (h.turn, h.mode) == (0, FOLLOW)
    assert not [a for a in legal(h) if a.startswith("4")]  # seat 0 holds two 4s: not one
    act(h, "pass")
    assert [a for a in legal(h) if a.startswith("4")] == ["4"]  # seat 1 holds one 4: all of them
    assert "44" in legal(pos(S4, ["44", "4", "6", "7", "8", "9"], table="33", owner=5))  # the 够级大纲: any two


def test_rlg_yield_turns_into_a_pass_once_someone_plays() -> None:
    """RLG round.proceed (设计文档 6.4): 「任何人出新牌（PLAYED）后：所有 YIELDED 玩家自动变 PASSED」
    (``play.yield_lapses``).  Seat 3 yields on its opposite's 6; seat 4 plays after it: seat 3 has passed."""
    hands = ["5", "5", "5", "77", "88", "99"]
    h = pos(LY, hands, table="6", owner=0, passed=[1, 2])
    assert (h.turn, "yield" in legal(h)) == (3, True)
    act(h, "yield", "8")
    assert h.passed[3]
    lapse = events(h, "pass")[-1]
    assert (lapse.seat, lapse.other) == (3, 4)
    assert _asked_after(h, "9") == [0, 2, 4]  # seat 3 is not asked again (seat 2 is: his opposite's set)
    # the 够级大纲: the yielder stays in the round and is asked again
    h = pos(S4, hands, table="6", owner=0, passed=[1, 2])
    act(h, "yield", "8")
    assert not h.passed[3] and not [e for e in events(h, "pass") if e.seat == 3]
    assert _asked_after(h, "9") == [0, 2, 3, 4]


def _asked_after(h: Hand, play: str) -> list[int]:
    """``play`` by the seat to act, then every seat asked passes: who was asked, in order."""
    act(h, play)
    asked = []
    while h.mode != LEAD:
        asked.append(h.turn)
        act(h, "pass")
    return asked


def test_rlg_yield_then_own_play_is_not_lapsed_later() -> None:
    """A yielder who decides himself (the two after him passed, he plays) is not turned into a passer by
    later plays: only a 让牌 still waiting lapses."""
    h = pos(LY, ["5", "5", "5", "77", "88", "99"], table="6", owner=0, passed=[1, 2])
    act(h, "yield", "pass", "pass", "7")
    assert not h.passed[3] and h.owner == 3


def test_rlg_joker_only_set_ranked_by_its_lowest_joker() -> None:
    """RLG parse_play 规则 2 「只有王/鹰：core_rank 取其中最小的王/鹰」 and can_beat 「核心 rank 必须严格更大」: two
    鹰 do not beat one 鹰, three 大王 do not either (``sets.kill_joker_only: lowest_joker``); ``kill`` (sha21,
    the 4PL / TS 二杀一) lets the kill ways alone decide."""
    beats = LY.rules.beat.beats
    for b, t in (("YY", "Y"), ("BJBJBJ", "Y"), ("SJSJ", "SJ"), ("SJ+Y", "SJ+BJ")):
        assert not beats(parse_set(b), parse_set(t)), (b, t)
    for b, t in (("BJ", "SJ"), ("Y", "BJ"), ("BJ+Y", "SJ+BJ"), ("YY", "BJBJ"), ("AA+Y", "KK+BJ")):
        assert beats(parse_set(b), parse_set(t)), (b, t)
    h = pos(LY, ["5", "6", "7", "YYBJBJBJ", "8", "9"], table="Y", owner=0)
    assert (h.turn, legal(h)) == (3, {"pass"})
    kill = LY.replace(sets={"kill_joker_only": "kill"})
    assert kill.rules.beat.beats(parse_set("YY"), parse_set("Y"))
    assert SHA21.sets.kill_joker_only == "kill"
    h = pos(kill, ["5", "6", "7", "YYBJBJBJ", "8", "9"], table="Y", owner=0)
    assert {"YY", "BJBJBJ"} <= legal(h)


@pytest.mark.parametrize(
    ("hand", "paid"),
    [("4 5", 0), ("4 5 SJ", SJ + 1)],
    ids=["nothing_to_pay_free", "no_two_pays_a_small_joker"],
)
def test_rlg_buy3_from_the_opposite_team_at_the_opposites_price_and_free(hand: str, paid: int) -> None:
    """RLG _trade: 「卖家是非联邦 → 买家按以下顺序付出 1 张牌：优先付 1 张 2；无 2 → 付 1 张小王；无小王 → 付 1 张
    大王；无王无 2 → 直接拿（免费）」 (``buy.price_opposite_team: null``, ``buy.free: true``).  Seat 0 has no 3;
    its opposite and team have none to spare; seat 5 (the opposite's team) sells."""
    fill = "3 5 6 7"
    deal = [hand, fill, fill, fill, fill, "33 5"]
    m = Match(LY, 1, 1, deal=deal, leader=0)
    drive(m, {"buy4": Choose("buy4")}, until=at_play)
    bought = ev(m, "buy3")
    assert [(e[1], e[3], e[4]) for e in bought] == [(0, 5, paid)]  # value: the rank paid + 1, 0 for nothing
    assert m.hand is not None and m.hand.initial[0][0] == 1 and 0 not in m.hand.setup.placed
    # the 够级大纲 (第九条: 「可以用2向对头的联邦买一张3」): no 2, no 3 bought, 大落
    m = Match(S4, 1, 1, deal=deal, leader=0)
    drive(m, until=at_play)
    assert ev(m, "buy3") == [] and m.hand is not None and m.hand.setup.placed == {0: 6}
