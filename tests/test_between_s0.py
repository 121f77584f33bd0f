"""Rule tests for S0 (《点烧闷拉够级规则明细》, variant ``dianshaomenla``) between hands and over a match.

Sections 四 (宣点/和点), 七 (买3买4), 八 (进贡, 扛贡), 十 (冲点), and the opening's 计分, 串三户,
下一局 and 会五.  Each test is named after the clause it checks and quotes it.  ``settle()`` tests
use hand-made ``HandResult``s; ``Match`` tests deal rigged hands (``rig_deal``), or leave rigged
debts for the next hand (``rig_debts``), and answer each decision with ``apply()`` (``drive``).
Seats 0-5 are in order of play; the opposite of s is s+3; teams are even vs odd seats.
"""

from __future__ import annotations

from typing import Any

import pytest

from gouji_rules.errors import PositionError
from gouji_rules.game.actions import PASS, Choose, Declare, Head, Play
from gouji_rules.game.cards import FOUR, SJ, TWO, counts_of, parse_set
from gouji_rules.play.match import HEAD_FOREVER, Match
from gouji_rules.rules.settlement import Debt, HandResult, settle
from gouji_rules.variant import Variant

from .test_match import S0, at_play, drive, ev, rig_deal, rig_debts

FILL = "3 4 5 6"
ORDER = [1, 2, 3, 4, 5, 6]
ALL_OPEN = [True] * 6
NONE_OPEN = [False] * 6
CHONG = "3 4 TTTTT JJJJ QQQ"  # nothing above A and three pure 够级 sets


def debts(places: list[int] = ORDER, opened: list[bool] = ALL_OPEN, **kw: Any) -> list[Any]:
    s = settle(S0, HandResult(places=places, opened=opened, **kw))
    return [(d.kind, d.giver, d.receiver, d.count, d.returned) for d in s.debts]


def point(places: list[int] = ORDER, opened: list[bool] = ALL_OPEN, **kw: Any) -> list[Any]:
    return [d for d in debts(places, opened, **kw) if d[0] == "point"]


def start(monkeypatch: pytest.MonkeyPatch, hands: list[str], picks: Any = None, variant: Variant = S0) -> Match:
    """A one-hand match of the rigged deal (seat 0 draws and leads), stopped at the first lead."""
    rig_deal(monkeypatch, hands, first=[0])
    m = Match(variant, 1, 1)
    drive(m, picks, until=at_play)
    assert m.hand is not None
    return m


def second(monkeypatch: pytest.MonkeyPatch, owed: list[Debt], hands: list[str], picks: Any = None) -> Match:
    """A match whose first hand (neutral cards) leaves ``owed``; stopped at the second hand's first lead."""
    rig_debts(monkeypatch, owed)
    rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
    m = Match(S0, 1, 2)
    drive(m, until=lambda m: len(m.summaries) == 1)
    drive(m, picks, until=at_play)
    assert m.hand is not None and len(m.summaries) == 1
    return m


def start_hand(m: Match, s: int) -> list[int]:
    assert m.hand is not None
    return list(m.hand.initial[s])


# -- 计分, 串三户 -------------------------------------------------------------------------------


def test_s0_scoring_plus2_plus1_zero_minus1_minus2_draw_when_equal() -> None:
    """“头客可记作+2分，2客记作+1分，三客四客记作0分，小拉记作-1分，大拉记作-2分，同一队分数相加和另一队比较，
    哪个队分数高哪个队赢，相等则平。”"""
    s = settle(S0, HandResult(ORDER, ALL_OPEN))  # team 0: 2 + 0 - 1; team 1: 1 + 0 - 2
    assert (s.scores, s.winner) == ((1, -1), 0)
    s = settle(S0, HandResult([1, 2, 4, 3, 6, 5], ALL_OPEN))  # 2 + 0 - 2 against 1 + 0 - 1
    assert (s.scores, s.winner) == ((0, 0), None)
    s = settle(S0, HandResult([2, 1, 4, 3, 6, 5], ALL_OPEN))  # negative sums count
    assert (s.scores, s.winner) == ((-1, 1), 1)


def test_s0_chuan_san_hu_is_named_not_doubled() -> None:
    """“如果同一队3个人分别走头，二，三客则称为“串三户”。” (S0 gives it no extra score)"""
    s = settle(S0, HandResult([1, 4, 2, 5, 3, 6], ALL_OPEN))
    assert (s.sweep, s.scores) == (0, (3, -3))


def test_s0_sweep_pays_the_usual_la_tribute() -> None:
    """S0 has no separate 串三户 tribute: 拉贡 as usual (“大拉进给头客2张拉贡，二拉进给二客1张拉贡”)"""
    assert debts([1, 4, 2, 5, 3, 6]) == [("place", 5, 0, 2, False), ("place", 3, 2, 1, False)]


# -- 八、进贡: 点, 烧, 闷, 拉 ---------------------------------------------------------------------


def test_s0_sec8_one_opened_other_pays_one_point_tribute() -> None:
    """八、进贡 点贡 “对门2人，若有一方开点，一方不开点，则不开点一方在下一局摸完牌后进给对门一张点贡”"""
    assert point(opened=[True, True, True, True, True, False]) == [("point", 5, 2, 1, False)]


def test_s0_sec8_both_opened_nobody_pays() -> None:
    """八、进贡 点贡 “若对门2人都开点则不需要进贡”"""
    assert point(opened=ALL_OPEN) == []


def test_s0_sec8_neither_opened_nobody_pays() -> None:
    """八、进贡 点贡 “若对门两人都不开点也都不需要进贡。”"""
    assert point(opened=NONE_OPEN) == []


def test_s0_sec8_xuandian_right_declarer_opened_takes_two() -> None:
    """八、进贡 “若对门2人有一方宣点，若本局游戏被宣点的一方没开点，而宣点的一方开点了，则下一局游戏被宣点者进2张点贡给宣点者”"""
    opened = [True, True, True, False, True, True]
    assert point(opened=opened, declarations=[("xuandian", 0)]) == [("point", 3, 0, 2, False)]


def test_s0_sec8_xuandian_neither_opened_nobody_pays() -> None:
    """八、进贡 “若本局游戏被宣点的人没开点，而宣点的人也没开点，则都不进贡”"""
    assert point(opened=NONE_OPEN, declarations=[("xuandian", 0)]) == []


def test_s0_sec8_xuandian_declared_opened_declarer_pays_two() -> None:
    """八、进贡 “若本局游戏被宣点的人开点了，则下一局游戏宣点者给被宣点者进2张点贡。”"""
    opened = [False, True, True, True, True, True]
    assert point(opened=opened, declarations=[("xuandian", 0)]) == [("point", 0, 3, 2, False)]
    assert point(opened=ALL_OPEN, declarations=[("xuandian", 0)]) == [("point", 0, 3, 2, False)]


def test_s0_sec8_burn_tribute_one_to_the_burner() -> None:
    """八、进贡 烧贡 “当一个人的够级牌被别人烧牌成功，则下一局游戏被烧者进一张烧贡给烧人者。”"""
    assert [d for d in debts(burns=[(4, 2)]) if d[0] == "burn"] == [("burn", 2, 4, 1, False)]


def test_s0_sec8_men_tribute_one_to_who_beat_him() -> None:
    """八、进贡 闷贡 “下一局游戏被闷者需要进给闷他的人一张闷贡。”"""
    assert [d for d in debts(men=[(1, 3)]) if d[0] == "men"] == [("men", 1, 3, 1, False)]


def test_s0_sec8_la_tribute_two_to_first_one_to_second() -> None:
    """八、进贡 拉贡 “下一局游戏大拉进给头客2张拉贡，二拉进给二客1张拉贡。”"""
    assert debts([4, 6, 1, 2, 5, 3]) == [("place", 1, 2, 2, False), ("place", 4, 3, 1, False)]


def test_s0_sec8_order_dian_shao_men_la_nothing_returned() -> None:
    """八、进贡 “进贡按照“点”、“烧”、“闷”、“拉”的顺序进贡。” (S0 has no 还贡)"""
    got = debts(opened=[True, True, True, True, True, False], burns=[(4, 2)], men=[(1, 3)])
    assert [d[0] for d in got] == ["point", "burn", "men", "place", "place"]
    assert not any(d[4] for d in got)


def test_s0_next_hand_lake_leads() -> None:
    """“下一局游戏拉客先摸牌出牌。”"""
    assert settle(S0, HandResult([3, 2, 6, 4, 1, 5], ALL_OPEN)).next_leader == 2
    seed = 0  # found by search: hand 0 has no 串三户
    m = Match(S0, seed, 2)
    drive(m, until=lambda m: len(m.summaries) == 2)
    assert m.summaries[0].places == [6, 3, 1, 4, 5, 2]
    assert m.summaries[0].sweep is None
    assert m.summaries[1].leader == 0


def test_s0_huiwu_after_sweep() -> None:
    """“被串三户的一方…然后开始出牌时把3人所有5出掉问另一方有没有人要，若没人要，则拉客继续出牌，这叫做“会五”。”"""
    seed = 3  # found by search: hand 0 is a 串三户 of team 1 (seats 1 3 5)
    m = Match(S0, seed, 2)
    drive(m, until=lambda m: len(m.summaries) == 2)
    first, nxt = m.summaries
    assert first.places == [4, 2, 5, 3, 6, 1] and first.sweep == 1
    assert nxt.leader == 4  # the swept side's 拉客
    dealt = nxt.record["deal"]
    fives = sum(counts_of(dealt[s])[parse_set("5").rank] for s in (0, 2, 4))
    events = nxt.record["events"]
    assert events[1] == {"type": "huiwu", "seat": 4, "cards": "5" * fives, "value": 1}
    assert nxt.record["setup"]["huiwu_team"] == 0


def test_s0_swept_side_decides_who_is_la_ke() -> None:
    """“被串三户的一方下一局游戏开始之前决定谁是拉客（正常情况下）”"""
    seed = 3  # as above: seats 0 2 4 were swept, seat 4 is 拉客
    m = Match(S0, seed, 2)
    drive(m, until=lambda m: m.phase == "choose_last")
    assert m.turn == 4
    assert set(map(str, m.legal_actions())) == {"last0", "last2", "pass"}
    m.apply(Choose("last0"), 4)
    first = m.summaries[0]
    assert first.places == [4, 2, 5, 3, 6, 1]
    assert next((d.giver, d.receiver, d.count) for d in first.debts if d.kind == "place") == (0, 5, 2)
    assert m.turn == 0  # the chosen 拉客 draws and leads: the first to decide in the next hand


# -- 四、开点: 宣点、和点 ---------------------------------------------------------------------------------


def test_s0_sec4_both_hedian_count_as_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """四、开点 “若对门2人都选择和点则视为本局游戏互相开点”"""
    m = start(monkeypatch, [FILL] * 6, {("xuandian", 1): Declare("hedian"), ("xuandian", 4): Declare("hedian")})
    assert ev(m, "hedian") == [("hedian", 1, None, 4, 0)]
    assert m.hand is not None
    assert m.hand.setup.opened == {1, 4}
    assert m.hand.point[1] == m.hand.point[4] == 2  # POINT_OPEN


def test_s0_sec4_one_side_refuses_hedian_play_as_usual(monkeypatch: pytest.MonkeyPatch) -> None:
    """四、开点 “若有一方不同意和点则游戏正常进行。”"""
    m = start(monkeypatch, [FILL] * 6, {("xuandian", 1): Declare("hedian")})
    assert ev(m, "hedian") == []
    assert m.hand is not None and m.hand.setup.opened == frozenset()


def test_s0_sec4_xuandian_before_play_settled_after_the_hand() -> None:
    """四、开点 “宣点即出牌前宣称本局游戏对门不开点。” with the stakes of 八、进贡"""
    m = Match(S0, 5, 1)
    drive(m, {("xuandian", s): Declare("xuandian") for s in (0, 1)})
    rec = m.summaries[0].record
    assert [e for e in rec["pre_play"] if e["type"] == "xuandian"] == [
        {"type": "xuandian", "seat": 0, "other": 3},
        {"type": "xuandian", "seat": 1, "other": 4},
    ]
    opened = [p == "open" for p in rec["opened"]]
    point_debts = [(d["giver"], d["receiver"], d["count"]) for d in rec["debts_next"] if d["kind"] == "point"]
    for s in (0, 1):
        o = s + 3
        if opened[o]:
            expected = [(s, o, 2)]
        elif opened[s]:
            expected = [(o, s, 2)]
        else:
            expected = []
        assert [d for d in point_debts if {d[0], d[1]} == {s, o}] == expected


def test_s0_sec10_phase_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 (last paragraph) “特别说明一下，在摸牌结束出牌开始之间的环节有很多，我们明确一下顺序：
    “摸牌”→“扛贡”→“宣点、和点”→“买3买4”→“进贡”→“冲点”→“正常游戏”。”"""
    owed = [Debt("place", 5, 0, 1), Debt("place", 1, 2, 1)]
    hands = ["4 5", "3 4 2 2", FILL, "33 4 5", CHONG, "3 4 SJ SJ SJ SJ"]
    m = second(monkeypatch, owed, hands, {("xuandian", 2): Declare("xuandian"), "chongdian": Choose("chongdian")})
    kinds = [e.type for e in m.events if e.type in ("deal", "kang", "xuandian", "buy3", "tribute", "chongdian")]
    assert kinds == ["deal", "kang", "xuandian", "buy3", "tribute", "chongdian"]


# -- 七、买3买4 -------------------------------------------------------------------------------------


def test_s0_sec7_buy_with_a_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """七、买3买4 “没有3,4的人需要向多余3,4的人上交1张2来买一张3或一张4。”"""
    m = start(monkeypatch, ["5 2 2", FILL, FILL, "33 44 5", FILL, FILL], {"buy4": Choose("buy4")})
    assert ev(m, "buy3", "buy4") == [("buy3", 0, "3", 3, TWO + 1), ("buy4", 0, "4", 3, TWO + 1)]
    assert start_hand(m, 0) == counts_of("3 4 5")
    assert start_hand(m, 3) == counts_of("3 4 5 2 2")


def test_s0_sec7_three_is_a_must_four_may_be_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """七、买3买4 “3每个人必须有一张，4可以选择不买”"""
    rig_deal(monkeypatch, ["5 2 2", FILL, FILL, "33 44 5", FILL, FILL], first=[0])
    m = Match(S0, 1, 1)
    asked = drive(m, until=at_play)
    assert ("buy4", 0) in asked and ("buy3", 0) not in asked  # buying the 3 is no decision
    assert ev(m, "buy3", "buy4") == [("buy3", 0, "3", 3, TWO + 1)]


def test_s0_sec7_three_must_be_bought_from_opposite_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """七、买3买4 “同理如果队友有多余3,4也必须先向对门买，如果对门没有多余则可以由队友赠送”"""
    m = start(monkeypatch, ["4 5 2", FILL, "33 4 5", "33 4 5", FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 3, TWO + 1)]
    m = start(monkeypatch, ["4 5 2", FILL, "33 4 5", FILL, FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 2, 0)]  # the teammate gives it
    assert start_hand(m, 0) == counts_of("3 4 5 2")


def test_s0_sec7_seller_serves_opposite_before_teammate(monkeypatch: pytest.MonkeyPatch) -> None:
    """七、买3买4 “多余的3,4可以免费赠送（也可以卖）给没有3,4的队友，但如果对门缺3,4则必须先卖给对门。”"""
    # seat 0 has a spare 3; its teammate 2 and its opposite 3 both lack one; seat 2 comes first in order
    m = start(monkeypatch, ["33 4 5", "33 4 5", "4 5 2", "4 5 2", "3 4 5", "3 4 5"])
    assert ("buy3", 3, "3", 0, TWO + 1) in ev(m, "buy3")


def test_s0_sec7_pay_with_a_joker_or_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """七、买3买4 “如果没有2则用王买，如果2,王都没有，则多余3,4的人直接白送。”"""
    m = start(monkeypatch, ["4 5 SJ", FILL, FILL, "33 4 5", FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 3, SJ + 1)]
    m = start(monkeypatch, ["4 5 A", FILL, FILL, "33 4 5", FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 3, 0)]
    assert start_hand(m, 0) == counts_of("3 4 5 A")  # “2以下的牌不参与买三买四”


def test_s0_sec7_kept_cards_not_paid_as_tribute(monkeypatch: pytest.MonkeyPatch) -> None:
    """七、买3买4 “通过买3买4得到2或王的人不还给买3买4的人任何牌，并且不能拿来进贡，这叫做“吃了不吐”原则。”"""
    m = second(monkeypatch, [Debt("place", 3, 1, 1)], ["4 5 2", FILL, FILL, "33 4 5", FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 3, TWO + 1)]
    assert ev(m, "tribute") == []  # seat 3's only 2 was bought in
    assert start_hand(m, 3) == counts_of("3 4 5 2")


# -- 八、进贡 (paying) ------------------------------------------------------------------------------


def test_s0_sec8_tribute_is_the_largest_card_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “进贡进的牌一定是当前手牌最大的牌” … “所有进贡的牌全部明置。”"""
    m = second(monkeypatch, [Debt("place", 5, 0, 2)], [FILL, FILL, FILL, FILL, FILL, "3 4 A 2 2 SJ"])
    assert ev(m, "tribute") == [("tribute", 5, "SJ", 0, 4), ("tribute", 5, "2", 0, 4)]
    shown = [e for e in m.events if e.type == "tribute"]
    assert all(e.cards is not None for e in shown)


def test_s0_sec8_tribute_received_is_not_paid_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “但吃了的贡就是点数最大也不能进，遵循“吃了不吐”原则。”"""
    owed = [Debt("burn", 1, 0, 1), Debt("place", 0, 3, 1)]
    m = second(monkeypatch, owed, ["3 4 2 SJ", "3 4 BJ", FILL, FILL, FILL, FILL])
    assert ev(m, "tribute") == [("tribute", 1, "BJ", 0, 2), ("tribute", 0, "SJ", 3, 4)]
    assert start_hand(m, 0) == counts_of("3 4 2 BJ")


def test_s0_sec8_nothing_of_two_or_above_left_nothing_paid(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “2以下的牌不参与买三买四也不参与进贡，如果没有2以及以上的牌则剩余的贡不需要进”"""
    m = second(monkeypatch, [Debt("place", 5, 0, 2)], [FILL, FILL, FILL, FILL, FILL, "3 4 A A 2"])
    assert ev(m, "tribute") == [("tribute", 5, "2", 0, 4)]
    assert start_hand(m, 5) == counts_of("3 4 A A")


def test_s0_sec8_same_team_place_tribute_may_be_waived(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “点烧闷贡必须进，拉贡如果是同帮的话可以免贡。”"""
    owed = [Debt("burn", 2, 0, 1), Debt("men", 4, 0, 1), Debt("place", 4, 0, 1)]
    hands = [FILL, FILL, "3 4 2", FILL, "3 4 2 2", FILL]
    rig_debts(monkeypatch, owed)
    rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
    m = Match(S0, 1, 2)
    drive(m, until=lambda m: len(m.summaries) == 1)
    asked = drive(m, {("waive", 0): Choose("waive")}, until=at_play)
    assert asked.count(("waive", 0)) == 1  # only the 拉贡 could be waived
    assert ev(m, "waive") == [("waive", 0, None, 4, 0)]
    assert ev(m, "tribute") == [("tribute", 2, "2", 0, 2), ("tribute", 4, "2", 0, 3)]


def test_s0_sec8_four_small_jokers_exempt_self(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “摸牌结束后若手里有4个以上的小王或者大王可以“扛贡”，即本局个人不进贡” — “四小扛自己”"""
    owed = [Debt("place", 1, 0, 2), Debt("place", 3, 2, 1)]
    m = second(monkeypatch, owed, [FILL, "3 4 SJ SJ SJ SJ SJ", FILL, "3 4 2", FILL, FILL])
    assert ev(m, "kang") == [("kang", 1, None, -1, 1)]
    assert ev(m, "tribute") == [("tribute", 3, "2", 2, 4)]
    m = second(monkeypatch, owed, [FILL, "3 4 BJ BJ BJ BJ", FILL, "3 4 2", FILL, FILL])
    assert ev(m, "kang")[0][1] == 1  # 4 大王 exempt oneself (and, below, the team)


def test_s0_sec8_four_big_jokers_exempt_team(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “若摸到4个大王则本局所有队友所有贡全部清零。这叫做“四小扛自己，四大扛全场”。”"""
    owed = [Debt("point", 1, 4, 1), Debt("place", 3, 0, 2), Debt("burn", 0, 5, 1)]
    m = second(monkeypatch, owed, ["3 4 2", "3 4 2", FILL, "3 4 2 2", FILL, "3 4 BJ BJ BJ BJ"])
    assert ev(m, "kang") == [("kang", 5, None, -1, 2)]
    assert ev(m, "tribute") == [("tribute", 0, "2", 5, 2)]


def test_s0_sec8_three_small_jokers_do_not_exempt(monkeypatch: pytest.MonkeyPatch) -> None:
    """八、进贡 “4个以上的小王” (three are not enough)"""
    m = second(monkeypatch, [Debt("place", 1, 0, 1)], [FILL, "3 4 SJ SJ SJ", FILL, FILL, FILL, FILL])
    assert ev(m, "kang") == []
    assert ev(m, "tribute") == [("tribute", 1, "SJ", 0, 4)]


# -- 十、冲点 ------------------------------------------------------------------------------------


def test_s0_sec10_chongdian_only_with_nothing_above_a_and_three_pure_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “当买3买4和进贡进行完毕后，如果此时一名游戏者手中没有大于A的牌，并且有至少3套纯够级牌，则可以选择冲点”"""
    hands = [CHONG, CHONG + " 2", "3 4 TTTTT JJJJ", "3 4 AA KK QQQ", CHONG + " SJ", FILL]
    rig_deal(monkeypatch, hands, first=[0])
    m = Match(S0, 1, 1)
    asked = drive(m, until=at_play)
    assert [a for a in asked if a[0] == "chongdian"] == [("chongdian", 0), ("chongdian", 3)]


def test_s0_sec10_chongdian_after_buying_and_tribute(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “当买3买4和进贡进行完毕后” (a 2 paid as tribute makes the payer eligible)"""
    m = second(monkeypatch, [Debt("place", 0, 3, 1)], [CHONG + " 2", FILL, FILL, FILL, FILL, FILL])
    assert ev(m, "tribute") == [("tribute", 0, "2", 3, 4)]
    assert [e.seat for e in m.all_events if e.type == "chongdian"] == []  # declined by default
    m = second(
        monkeypatch,
        [Debt("place", 0, 3, 1)],
        [CHONG + " 2", FILL, FILL, FILL, FILL, FILL],
        {"chongdian": Choose("chongdian")},
    )
    assert ev(m, "chongdian") == [("chongdian", 0, None, 3, 1)]


def test_s0_sec10_chongdian_success_fourth_and_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “冲点者将3套够级牌依次打出，每打一套够级牌则询问冲点者对门是否要，3套够级牌若有一套站住则冲点成功，
    直接扔掉手牌，被视为四客并且开点”"""
    picks = {"chongdian": Choose("chongdian"), "chong_set": Play(parse_set("QQQ")), "chong_answer": PASS}
    m = start(monkeypatch, [CHONG, FILL, FILL, "3 4 KKK", FILL, FILL], picks)
    assert ev(m, "chongdian") == [("chongdian", 0, None, 3, 1)]
    assert m.hand is not None
    assert sum(m.hand.initial[0]) == 0
    assert m.discards == counts_of(CHONG)
    assert m.hand.setup.placed == {0: 4}
    assert 0 in m.hand.setup.opened
    drive(m)
    assert m.summaries[0].places[0] == 4


FAILED_CHONGDIAN = [CHONG, FILL, FILL, "3 44 5 QQQQQ KKKK AAA", FILL, FILL]
"""Seat 0 rushes the point; its opposite beats all three sets."""


def _failed_chongdian_picks() -> dict[Any, Any]:
    """Seat 0 plays TTTTT, JJJJ, QQQ; seat 3 answers QQQQQ, KKKK, AAA."""
    sets = iter(["TTTTT", "JJJJ", "QQQ"])
    answers = iter(["QQQQQ", "KKKK", "AAA"])
    return {
        ("chongdian", 0): Choose("chongdian"),
        "chong_set": lambda legal: Play(parse_set(next(sets))),
        "chong_answer": lambda legal: Play(parse_set(next(answers))),
    }


def test_s0_sec10_chongdian_failure_fourth_not_opened_opposite_opened_drops_fours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """十、冲点 “若3套够级牌都被对门打掉则冲点失败，被视为四客并且没开点，对门被视为开点并且扔掉4继续游戏。”"""
    m = start(monkeypatch, FAILED_CHONGDIAN, _failed_chongdian_picks())
    assert ev(m, "chongdian") == [("chongdian", 0, None, 3, 2)]
    assert m.hand is not None
    assert m.hand.setup.placed == {0: 4}
    assert 0 in m.hand.setup.closed and 0 not in m.hand.setup.opened
    assert 3 in m.hand.setup.opened
    assert start_hand(m, 3) == counts_of("3 5")  # its answers and its 4s are gone
    assert m.discards[FOUR] == 3


def test_s0_sec10_chongdian_failure_drops_the_fours_only_where_the_variant_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """十、冲点 「对门被视为开点并且扔掉4继续游戏」 is ``chongdian.fail_drops_fours``; a town that keeps the 4s says false."""
    keeps = S0.replace(chongdian={"fail_drops_fours": False})
    m = start(monkeypatch, FAILED_CHONGDIAN, _failed_chongdian_picks(), keeps)
    assert ev(m, "chongdian") == [("chongdian", 0, None, 3, 2)]
    assert m.hand is not None and 3 in m.hand.setup.opened
    assert start_hand(m, 3) == counts_of("3 44 5")
    assert m.discards[FOUR] == 1  # the 冲点 player's own 4 only


def test_s0_sec10_two_chongdian_fourth_and_xiaola(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “若有2名角色冲点则冲点成功者为四客，失败者为小拉”"""
    answers = iter(["QQQQQ", "KKKK", "AAA"])
    picks = {
        ("chongdian", 0): Choose("chongdian"),
        ("chongdian", 1): Choose("chongdian"),
        ("chong_answer", 3): lambda legal: Play(parse_set(next(answers))),
        ("chong_answer", 4): PASS,
    }
    m = start(monkeypatch, [CHONG, CHONG, FILL, "3 4 QQQQQ KKKK AAA", "3 4 5", FILL], picks)
    assert ev(m, "chongdian") == [("chongdian", 0, None, 3, 2), ("chongdian", 1, None, 4, 1)]
    assert m.hand is not None
    assert m.hand.setup.placed == {1: 4, 0: 5}


def test_s0_sec10_two_chongdian_both_succeed_last_hands_better_is_fourth(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “若都成功或都失败则按照上一局名次，名次高的为四客，名次低的为小拉。”"""
    rig_deal(monkeypatch, [FILL] * 6, [CHONG, CHONG, FILL, FILL, FILL, FILL], first=[0, 0])
    m = Match(S0, 1, 2)
    drive(m, until=lambda m: len(m.summaries) == 1)
    last = m.summaries[0].places
    drive(m, {"chongdian": Choose("chongdian"), "chong_answer": PASS}, until=at_play)
    assert [e[4] for e in ev(m, "chongdian")] == [1, 1]
    better, worse = (0, 1) if last[0] < last[1] else (1, 0)
    assert m.hand is not None
    assert m.hand.setup.placed == {better: 4, worse: 5}


def test_s0_sec10_chongdian_placings_are_one_rule_for_the_table_and_club_entry() -> None:
    """十、冲点: the phase (last places known) and a hand entered at a table (not known) ask one rule."""
    rules = S0.rules
    assert rules.chongdian_placings([(2, False)]) == [{2: 4}]
    assert rules.chongdian_placings([(0, False), (1, True)]) == [{1: 4, 0: 5}]
    last = [6, 1, 2, 3, 4, 5]
    assert rules.chongdian_placings([(0, True), (1, True)], last) == [{1: 4, 0: 5}]
    assert rules.chongdian_placings([(0, False), (1, False)], [0] * 6) == [{0: 4, 1: 5}]
    either = rules.chongdian_placings([(0, True), (1, True)])
    assert sorted(map(sorted, (p.items() for p in either))) == [[(0, 4), (1, 5)], [(0, 5), (1, 4)]]


def test_s0_sec10_three_chongdian_redeal(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “若3人或3人以上冲点则重新洗牌摸牌，贡数不变。”"""
    rig_debts(monkeypatch, [Debt("place", 4, 3, 1)])
    three = [CHONG, CHONG, CHONG, FILL, "3 4 2", FILL]
    calls = rig_deal(monkeypatch, [FILL] * 6, three, [FILL, FILL, FILL, FILL, "3 4 2", FILL], first=[0, 0, 0])
    m = Match(S0, 1, 2)
    drive(m, until=lambda m: len(m.summaries) == 1)
    drive(m, {"chongdian": Choose("chongdian")}, until=at_play)
    assert len(calls) == 3  # hand 1, hand 2, hand 2 again
    assert [e.value for e in m.all_events if e.type == "redeal"] == [2]
    # the same tribute, paid again from the new deal
    assert [(e.type, e.seat, e.other) for e in m.all_events if e.type in ("tribute", "redeal")] == [
        ("tribute", 4, 3),
        ("redeal", -1, -1),
        ("tribute", 4, 3),
    ]
    assert start_hand(m, 3) == counts_of("3 4 5 6 2")
    assert [e for e in m.all_events if e.type == "chongdian"] == []


def test_s0_sec10_with_head_after_success_may_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “冲点者的对门在冲点结束后可以选择“有头”或者“无头”” … “选择有头则在对门冲点成功的情况下也可以开点”;
    “同时别人的够级牌他不能要”"""
    picks = {"chongdian": Choose("chongdian"), "chong_answer": PASS, ("head", 3): Head(True)}
    m = start(monkeypatch, [CHONG, FILL, FILL, "3 4 KKK", FILL, FILL], picks)
    assert m.hand is not None
    assert m.hand.setup.head_rights == {3: HEAD_FOREVER}
    assert 3 not in m.hand.setup.closed and not m.hand.no_head[3]
    assert ev(m, "with_head") == [("with_head", 3, None, 0, 0)]


def test_s0_sec10_with_head_rights_last_the_hand_unless_the_variant_counts_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """十、冲点 「若选择有头则，该人在本局游戏中的存在够级」: the whole hand (``chongdian.opposite_rights: null``);
    a town that gives a number of 够死级 sets, as after 革命, says how many."""
    picks = {"chongdian": Choose("chongdian"), "chong_answer": PASS, ("head", 3): Head(True)}
    counted = S0.replace(chongdian={"opposite_rights": 2})
    m = start(monkeypatch, [CHONG, FILL, FILL, "3 4 KKK", FILL, FILL], picks, counted)
    assert m.hand is not None
    assert m.hand.setup.head_rights == {3: 2}


def test_s0_sec10_no_head_after_success_cannot_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 “如果选择无头，则该人在本局游戏中不存在够级，任何人的任何牌他都可以随时打，但他的牌别人也可以随时打。”
    … “但选择无头若对门冲点成功则不能开点。”"""
    picks = {"chongdian": Choose("chongdian"), "chong_answer": PASS, ("head", 3): Head(False)}
    m = start(monkeypatch, [CHONG, FILL, FILL, "3 4 KKK", FILL, FILL], picks)
    assert m.hand is not None
    assert m.hand.no_head[3]
    assert 3 in m.hand.setup.closed
    assert m.hand.point[3] == 3  # POINT_CLOSED


def test_s0_sec10_no_head_keeps_the_point_where_the_variant_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """十、冲点 「选择无头若对门冲点成功则不能开点」 is ``chongdian.no_head_closes``; false leaves the point as it was."""
    picks = {"chongdian": Choose("chongdian"), "chong_answer": PASS, ("head", 3): Head(False)}
    lenient = S0.replace(chongdian={"no_head_closes": False})
    m = start(monkeypatch, [CHONG, FILL, FILL, "3 4 KKK", FILL, FILL], picks, lenient)
    assert m.hand is not None
    assert m.hand.no_head[3]
    assert 3 not in m.hand.setup.closed and m.hand.point[3] != 3


def test_s0_sec10_chongdian_tie_reads_the_places_a_match_starts_from() -> None:
    """十、冲点 “若都成功或都失败则按照上一局名次，名次高的为四客，名次低的为小拉”: a match started with
    ``last_places`` (a hand played before it) breaks the tie by them, and the 拉客 leads (opening
    “下一局游戏拉客先摸牌出牌”)."""
    last = [5, 2, 1, 3, 4, 6]  # seat 1 placed above seat 0; seat 5 was 拉客
    for places, better, worse in ((last, 1, 0), ([2, 5, 1, 3, 4, 6], 0, 1)):
        m = Match(S0, 1, 1, deal=[CHONG, CHONG, FILL, FILL, FILL, FILL], last_places=places)
        drive(m, {"chongdian": Choose("chongdian"), "chong_answer": PASS}, until=at_play)
        assert [e[4] for e in ev(m, "chongdian")] == [1, 1]  # both succeeded
        assert m.hand is not None and m.hand.setup.placed == {better: 4, worse: 5}
        assert ev(m, "deal")[0][1] == 5
        copied = m.copy().hand  # a copy replays from the same start
        assert copied is not None and copied.setup.placed == m.hand.setup.placed


def test_s0_sec8_lagong_of_a_match_started_from_last_places() -> None:
    """八、进贡 拉贡 “下一局游戏大拉进给头客2张拉贡，二拉进给二客1张拉贡”: the places a match starts from owe
    their 拉贡 in its first hand; debts given outright replace them."""
    m = Match(S0, 4, 1, last_places=[3, 6, 1, 4, 2, 5])
    drive(m, until=at_play)
    paid = [(e[1], e[3]) for e in ev(m, "tribute")]
    assert paid.count((1, 2)) == 2 and paid.count((5, 4)) == 1  # 大拉 seat 1 to 头客 seat 2; 小拉 5 to 二客 4
    m = Match(S0, 4, 1, last_places=[3, 6, 1, 4, 2, 5], debts=[])
    drive(m, until=at_play)
    assert ev(m, "tribute") == []


def test_match_last_places_must_place_each_seat_once() -> None:
    with pytest.raises(PositionError):
        Match(S0, 1, 1, last_places=[1, 1, 2, 3, 4, 5])
