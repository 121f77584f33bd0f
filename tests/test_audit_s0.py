"""Audit of S0 (《点烧闷拉够级规则明细》, variant ``dianshaomenla``): the corners of each clause.

These complete tests/test_rules_s0.py and tests/test_between_s0.py where a clause had a corner
no test built: thresholds exactly at the boundary, a 闷 by a teammate or with two 3s left,
接风 past seats out of play, 扛贡 with mixed jokers, both opposites declaring 宣点, and so on.
Every situation is built through the public API (``Hand.position``, ``Match(deal=…)``,
``settle``).  Seats 0-5 are in order of play; the opposite of s is s+3; teams are even vs odd.
"""

from __future__ import annotations

import pytest

from gouji_rules import HandResult, Match, settle
from gouji_rules.errors import IllegalAction
from gouji_rules.game.actions import Declare
from gouji_rules.game.cards import BJ, SJ, counts_of, parse_set
from gouji_rules.play.engine import BURN, FOLLOW, LEAD, HandSetup, Point
from gouji_rules.play.observe import UNKNOWN
from gouji_rules.play.outcome import Outcome, can_outcome, verify_outcome
from gouji_rules.rules import KangScope

from .conftest import S0, act, events, legal, pass_until_lead, pos

LOW = "5"
OUT = "9"
ALL_OPEN = [True] * 6


def debts_of(**kw: object) -> list[tuple[str, int, int, int, bool]]:
    s = settle(S0, HandResult(**kw))  # type: ignore[arg-type]
    return [(d.kind, d.giver, d.receiver, d.count, d.returned) for d in s.debts]


# -- 开头: 挂 / 贴, 够级 thresholds --------------------------------------------------------------

S0_GOUJI = [
    ("2", True),  # 2×1 (the S0 extract lacks its 第三节; dianshaomenla.yaml gouji.thresholds)
    ("AA", True),
    ("A", False),
    ("KK", True),
    ("K", False),
    ("QQQ", True),
    ("QQ", False),
    ("JJJJ", True),
    ("JJJ", False),
    ("TTTTT", True),
    ("TTTT", False),
    ("9999999", False),
    ("TTTT2", True),  # “挂了2则增加了牌的数量”: four 10 and a 2 are five 10
    ("JJJ2", True),
    ("QQ2", True),
    ("K+SJ", True),
]


@pytest.mark.parametrize(("cards", "gouji"), S0_GOUJI)
def test_s0_opening_gouji_thresholds_at_the_boundary(cards: str, gouji: bool) -> None:
    """“如果一套牌挂了2则增加了牌的数量但并不增加它的大小”: an attached 2 counts toward the 够级 size;
    one card short of the size is an ordinary set that the next seat may answer."""
    assert S0.rules.is_gouji(parse_set(cards)) == gouji
    h = pos(S0, [cards + "55", "BJBJBJBJBJBJ", LOW, "BJBJBJBJBJBJ", LOW, LOW])
    act(h, cards)
    if gouji:
        assert h.mode == BURN or (h.turn, h.mode) == (3, FOLLOW)
        assert h.turn != 1 or h.mode == BURN  # the next seat may only burn it
    else:
        assert (h.turn, h.mode) == (1, FOLLOW)


@pytest.mark.parametrize("cards", ["TTTT2", "QQ2", "K+SJ", "2"])
def test_s0_sec4_attached_gouji_sets_are_not_pure(cards: str) -> None:
    """四、开点 “不含有2、王的够级牌称为纯够级牌”: 够级 by an attached 2 or 王, or a set of 2s, is not pure."""
    assert S0.rules.is_gouji(parse_set(cards))
    assert not S0.rules.is_pure_gouji(parse_set(cards))


def test_s0_opening_gua_two_on_a_gouji_answer_counts_as_the_rank() -> None:
    """“3个K挂2个2=5个K”: an opposite may answer five Q with KKK22 (five K) but not with KK222 is five K
    too; four K and a 2 is five K, never a set of 2s."""
    h = pos(S0, ["55", LOW, LOW, "KKK22", LOW, LOW], table="QQQQQ", owner=0)
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert "KKK22" in legal(h)
    act(h, "KKK22")
    assert h.table == parse_set("KKK22")
    assert h.table.rank == parse_set("K").rank


# -- 开头: 闷 and 接风 corners -----------------------------------------------------------------


def test_s0_sec6_men_by_a_teammate_counts() -> None:
    """六 “他之前的那一套牌如果让人要了，则该人被闷”: whoever takes it, a teammate too."""
    h = pos(S0, ["553", "66", "77", "8", "9", "T"])
    act(h, "55", "pass", "77")
    e = events(h, "men")[-1]
    assert (e.seat, e.other) == (0, 2)
    assert not h.active[0]


def test_s0_sec6_men_tribute_to_a_teammate_is_not_waived() -> None:
    """八 “点烧闷贡必须进，拉贡如果是同帮的话可以免贡”: a 闷 by a teammate still owes him 闷贡."""
    assert not S0.rules.may_waive("men", 0, 2)
    assert S0.rules.may_waive("place", 0, 2)
    d = debts_of(places=[6, 1, 2, 3, 4, 5], opened=ALL_OPEN, men=[(0, 2)])
    assert ("men", 0, 2, 1, False) in d


def test_s0_sec6_men_with_two_threes_left() -> None:
    """六 “当有一人出牌出到只剩一张3时”: a seat left with 33 (a spare 3 nobody bought) is 闷 the same way."""
    h = pos(S0, ["5533", "66", "7", "8", "9", "T"])
    act(h, "55", "66")
    assert [e.seat for e in events(h, "men")] == [0]
    assert not h.active[0]


def test_s0_sec6_no_men_when_the_set_stands() -> None:
    """六: only a set that is taken 闷s; if nobody takes it, the seat leads its 3 and goes out."""
    h = pos(S0, ["553", "44", "44", "44", "44", "44"])
    act(h, "55")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (0, LEAD)
    assert legal(h) == {"3"}
    act(h, "3")
    assert not events(h, "men")
    assert events(h, "finish")[0].seat == 0


def test_s0_sec6_men_in_free_for_all() -> None:
    """六 has no exception after two players are out: a 闷 in 四人乱缠 still places the seat last."""
    h = pos(S0, ["553", OUT, "66", "7", OUT, "8"], out=[1, 4])
    assert h.ffa
    act(h, "55", "66")
    assert [(e.seat, e.other) for e in events(h, "men")] == [(0, 2)]
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert h.places[0] == 6


def test_s0_opening_jiefeng_passes_over_a_seat_already_out() -> None:
    """“由走的人下家直接出牌”: when that 下家 is already out, the next seat still in play leads."""
    h = pos(S0, ["3", OUT, "55", "66", "77", "88"], out=[1])
    act(h, "3")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (2, LEAD)
    e = events(h, "jiefeng")[-1]
    assert (e.seat, e.other) == (2, 0)


def test_s0_sec6_men_victim_cannot_kaofeng() -> None:
    """六 “被闷者由于被闷的瞬间已经被判定名次，所以不能靠风”: seat 1, 闷 earlier, is the 下家 of the
    seat that goes out, and is passed over."""
    h = pos(S0, ["663", "553", "4", "4", "4", "4"], leader=1)
    act(h, "55", "pass", "pass", "pass", "pass", "66")  # seat 0 takes seat 1's set before its last 3
    assert [e.seat for e in events(h, "men")] == [1]
    pass_until_lead(h)
    assert (h.turn, h.mode) == (0, LEAD)
    act(h, "3")  # seat 0 goes out
    pass_until_lead(h)
    assert (h.turn, h.mode) == (2, LEAD)


def test_s0_opening_jiefeng_not_when_the_last_set_is_taken() -> None:
    """接风 is “若在场所有人都不要”: when someone takes the last 3, he leads, not the 下家."""
    h = pos(S0, ["3", "55", "45", "66", "77", "88"])
    act(h, "3", "pass", "4")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (2, LEAD) or h.is_over
    assert not events(h, "jiefeng")


# -- 四、开点 ----------------------------------------------------------------------------------


def test_s0_sec4_answer_that_stands_opens_the_answerer() -> None:
    """四 “当纯够级牌站住时，下一张打出4则为开点”: the opposite's pure answer that stands opens him."""
    h = pos(S0, ["QQQ55", LOW, LOW, "KKK44", LOW, LOW])
    act(h, "QQQ")
    while h.turn != 3:
        act(h, "pass")
    act(h, "KKK")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (3, LEAD)
    act(h, "44")
    assert [e.seat for e in events(h, "open_point")] == [3]
    assert h.point[0] != Point.OPEN


def test_s0_sec4_a_taken_pure_set_does_not_open() -> None:
    """四 “站住（管不了）”: a pure 够级 set that the opposite takes did not stand."""
    h = pos(S0, ["QQQ4455", LOW, LOW, "KKK", LOW, "66"])
    act(h, "QQQ")
    while h.turn != 3:
        act(h, "pass")
    act(h, "KKK")
    assert h.point[0] != Point.PENDING
    assert not events(h, "open_point")


def test_s0_sec4_a_single_4_opens() -> None:
    """四 “下一张打出4则为开点”: one 4 is enough."""
    h = pos(S0, ["QQQ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, "QQQ")
    pass_until_lead(h)
    act(h, "4")
    assert [e.seat for e in events(h, "open_point")] == [0]


# -- 五、烧牌 ----------------------------------------------------------------------------------


def test_s0_sec5_successful_burn_owes_burn_tribute_next_hand() -> None:
    """五 “…并且最后走了则称为烧牌成功” and 八 “当一个人的够级牌被别人烧牌成功，则下一局游戏被烧者进一张
    烧贡给烧人者”: the burn's record reaches the settlement."""
    h = pos(S0, ["QQQ55", "KKK3", LOW, LOW, LOW, LOW])
    act(h, "QQQ", "burn KKK")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (1, LEAD)
    act(h, "3")
    assert events(h, "burn_success")[-1].seat == 1
    assert (1, 0) in h.burns
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    s = settle(S0, HandResult(places=h.places, opened=[p == Point.OPEN for p in h.point], burns=h.burns))
    assert ("burn", 0, 1, 1, False) in [(d.kind, d.giver, d.receiver, d.count, d.returned) for d in s.debts]


def test_s0_sec5_burn_tribute_from_a_teammate_is_not_waived() -> None:
    """五 “烧牌可以烧队友” and 八 “点烧闷贡必须进”: a burned teammate pays the 烧贡."""
    assert not S0.rules.may_waive("burn", 0, 2)
    d = debts_of(places=[3, 4, 1, 2, 5, 6], opened=ALL_OPEN, burns=[(2, 0)])
    assert ("burn", 0, 2, 1, False) in d


def test_s0_sec5_burner_without_a_joker_to_lead_is_zhashao() -> None:
    """五 “即便是王不够烧牌所需的数量也可以烧牌，但如果没能每一套都挂王则烧牌失败，称为诈烧”: a burner who
    must lead a set with no 王 left fails at once, and leaves play."""
    h = pos(S0, ["QQQ5", "KK+SJ663", "7", "8", "9", "T"])
    act(h, "QQQ", "burn KK+SJ")
    pass_until_lead(h)
    assert events(h, "burn_fail")[-1].seat == 1
    assert not h.active[1]


# -- 七、买3买4 --------------------------------------------------------------------------------


def test_s0_sec7_deck_has_six_threes_and_six_fours() -> None:
    """七 “由于本套牌中只有6个3,6个4”: four packs with ten 3s and ten 4s taken out."""
    deck = S0.rules.deck
    ranks = [c >> 2 for c in deck]
    assert ranks.count(0) == 6 and ranks.count(1) == 6
    assert len(deck) == 216 - 20
    assert sum(S0.rules.hand_sizes) == len(deck)


def test_s0_sec7_buyer_pays_the_2_to_the_opposite_from_a_real_deal() -> None:
    """七 “没有3,4的人需要向多余3,4的人上交1张2来买一张3” through ``Match(deal=…)``: seat 0 lacks
    a 3, its opposite has two."""
    fill = "3 4 5 6"
    hands = ["4 5 2 6", fill, fill, "3 3 4 5", fill, fill]
    m = Match(S0, seed=1, hands=1, deal=hands, leader=0)
    while m.phase != "play":
        legal_now = m.legal_actions()
        m.apply(legal_now[-1] if str(m.phase) != "buy4" else legal_now[0])
    buys = [(e.seat, e.other) for e in m.events if e.type == "buy3"]
    assert buys == [(0, 3)]
    assert m.hands_now[0][0] == 1 and m.hands_now[3][0] == 1
    assert m.hands_now[3][parse_set("2").rank] == 1 and m.hands_now[0][parse_set("2").rank] == 0


# -- 八、进贡: 扛贡 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("jokers", "scope"),
    [
        ("SJ SJ SJ SJ", KangScope.SELF),
        ("SJ SJ SJ SJ SJ", KangScope.SELF),
        ("SJ SJ SJ BJ", KangScope.NONE),
        ("SJ SJ BJ BJ", KangScope.NONE),
        ("BJ BJ BJ", KangScope.NONE),
        ("BJ BJ BJ BJ", KangScope.TEAM),
        ("BJ BJ BJ BJ SJ SJ SJ SJ", KangScope.TEAM),
    ],
)
def test_s0_sec8_kang_four_of_one_kind(jokers: str, scope: KangScope) -> None:
    """八 “若手里有4个以上的小王或者大王可以扛贡 … 四小扛自己，四大扛全场”: four of one kind
    (docs/rules.md §22 reads 「小王或者大王」 as one kind, as S4 第十四条(七) says)."""
    hand = counts_of("5 6 " + jokers)
    assert hand[SJ] + hand[BJ] == len(jokers.split())
    assert S0.rules.kang(hand) == scope


# -- 八、进贡: 宣点 -----------------------------------------------------------------------------


def test_s0_sec8_xuandian_both_opposites_declare() -> None:
    """四 “宣点即出牌前宣称本局游戏对门不开点” and 八's stakes: when both opposites declare against each
    other and one opens, each declaration is settled: the one who did not open pays 2 + 2."""
    d = debts_of(
        places=[1, 2, 3, 4, 5, 6],
        opened=[True, True, True, False, True, True],
        declarations=[("xuandian", 0), ("xuandian", 3)],
    )
    point = [x for x in d if x[0] == "point"]
    assert point == [("point", 3, 0, 2, False), ("point", 3, 0, 2, False)]


def test_s0_sec8_xuandian_declarer_not_opened_target_opened() -> None:
    """八 “若本局游戏被宣点的人开点了，则下一局游戏宣点者给被宣点者进2张点贡”: whatever the declarer did."""
    d = debts_of(
        places=[1, 2, 3, 4, 5, 6], opened=[False, True, True, True, True, True], declarations=[("xuandian", 0)]
    )
    assert [x for x in d if x[0] == "point"] == [("point", 0, 3, 2, False)]


def test_s0_sec4_xuandian_is_only_between_opposites() -> None:
    """四 “摸完牌后，互为对门的两个人进行宣点和和点”: the declaration's ``other`` is the opposite."""
    fill = "3 4 5 6"
    m = Match(S0, seed=3, hands=1, deal=[fill] * 6, leader=0)
    seen = []
    while m.phase != "play":
        acts = m.legal_actions()
        pick = next((a for a in acts if isinstance(a, Declare) and a.kind == "xuandian"), None)
        if str(m.phase) == "xuandian" and pick is not None and m.turn == 1:
            m.apply(pick)
            seen.append(1)
            continue
        m.apply(next((a for a in acts if str(a) == "pass"), acts[0]))
    assert seen == [1]
    e = [e for e in m.events if e.type == "xuandian"]
    assert [(x.seat, x.other) for x in e] == [(1, 4)]


# -- 十、冲点 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "ok"),
    [
        ("3 4 TTTTT JJJJ QQQ", True),
        ("3 4 KK AA QQQ", True),  # A is not “大于A”
        ("3 4 TTTTT JJJJ QQ", False),  # two pure sets
        ("3 4 TTTTT JJJJ QQQ 2", False),  # a 2 is above A
        ("3 4 TTTTT JJJJ QQQ SJ", False),
        ("3 4 TTTT JJJ QQ KK", False),  # one pure set
    ],
)
def test_s0_sec10_chongdian_eligibility_at_the_boundary(hand: str, ok: bool) -> None:
    """十 “如果此时一名游戏者手中没有大于A的牌，并且有至少3套纯够级牌，则可以选择冲点”"""
    assert S0.rules.chongdian_eligible(counts_of(hand)) == ok


# -- the opening: 名次 and 计分 ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "scores", "winner"),
    [
        ([1, 2, 3, 4, 5, 6], (2 + 0 - 1, 1 + 0 - 2), 0),
        ([1, 2, 6, 5, 4, 3], (2 - 2 + 0, 1 - 1 + 0), None),  # 0 vs 0: “相等则平”
        ([2, 1, 4, 3, 6, 5], (1 + 0 - 2, 2 + 0 - 1), 1),
        ([1, 4, 2, 5, 3, 6], (3, -3), 0),  # 串三户 is not doubled in S0
    ],
)
def test_s0_opening_team_scores_and_draw(places: list[int], scores: tuple[int, int], winner: int | None) -> None:
    """“同一队分数相加和另一队比较，哪个队分数高哪个队赢，相等则平。”"""
    s = settle(S0, HandResult(places=places, opened=ALL_OPEN))
    assert s.scores == scores
    assert s.winner == winner


def test_s0_opening_next_hand_lake_leads_after_a_men() -> None:
    """“下一局游戏拉客先摸牌出牌”: the 拉客 by 闷 leads the next hand."""
    s = settle(S0, HandResult(places=[6, 1, 2, 3, 4, 5], opened=ALL_OPEN, men=[(0, 1)]))
    assert s.next_leader == 0


def test_s0_sec6_men_ranks_below_burn_and_setup_places() -> None:
    """六 “如果有多人被闷则按顺序记录名次”: with one seat already placed before play (冲点 四客), two
    闷 victims take 拉客 and 小拉 in order."""
    setup = HandSetup(placed={5: 4}, opened=frozenset({5}))
    h = pos(S0, ["553", "663", "77", "88", "99", ""], setup=setup)
    act(h, "55", "66", "77")
    assert [e.seat for e in events(h, "men")] == [0, 1]
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert h.places[0] == 6 and h.places[1] == 5 and h.places[5] == 4


# -- the opening: 会五 --------------------------------------------------------------------------


def test_s0_opening_huiwu_position_nobody_answers_lake_leads() -> None:
    """“然后开始出牌时把3人所有5出掉问另一方有没有人要，若没人要，则拉客继续出牌，这叫做“会五””: a position
    started with ``HandSetup(huiwu_team=0)`` puts the 5s of seats 0, 2, 4 out as one set and asks
    seats 1, 3, 5 only; nobody answers, and the 拉客 (seat 0, the leader) leads."""
    h = pos(S0, ["557", "668", "59", "666T", "5J", "Q"], setup=HandSetup(huiwu_team=0))
    e = events(h, "huiwu")[-1]
    assert (e.seat, str(e.cards), e.value) == (0, "5555", 1)
    assert str(h.table) == "5555" and h.owner == 0
    asked = []
    while h.mode != LEAD:
        assert h.mode == FOLLOW
        asked.append(h.turn)
        act(h, "pass")
    assert asked == [1, 3, 5]
    assert (h.turn, h.mode) == (0, LEAD)
    assert sum(map(sum, h.hands)) == len("7 668 9 666T J Q".replace(" ", ""))


def test_s0_opening_huiwu_position_the_other_side_answers() -> None:
    """会五 “问另一方有没有人要”: seat 3 takes the four 5s with four 6s and the round goes on from there."""
    h = pos(S0, ["557", "668", "59", "6666T", "5J", "Q"], setup=HandSetup(huiwu_team=0))
    act(h, "pass")
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert "6666" in legal(h)
    act(h, "6666")
    assert h.owner == 3
    pass_until_lead(h)
    assert (h.turn, h.mode) == (3, LEAD)


# -- a club's entry: a burn succeeds only by going out ------------------------------------------


@pytest.mark.parametrize(
    ("places", "men", "ok"),
    [
        ([6, 2, 3, 4, 5, 1], [], False),  # the burner is the seat left in play
        ([5, 2, 3, 4, 1, 6], [], True),
        ([5, 6, 3, 4, 1, 2], [(1, 2)], False),  # seat 1 闷 is 拉客; seat 0 at 5 is the one left
        ([4, 6, 3, 5, 1, 2], [(1, 2)], True),
    ],
)
def test_s0_sec5_entered_burn_needs_the_burner_out(places: list[int], men: list[tuple[int, int]], ok: bool) -> None:
    """五 “…并且最后走了则称为烧牌成功”: a result entered with a successful burn by the seat that never
    went out (the last one left in play) is refused, naming the rule."""
    o = Outcome(places=places, burns=[(0, 1)], men=men)
    assert can_outcome(S0.rules, o) == ok
    if not ok:
        with pytest.raises(IllegalAction) as info:
            verify_outcome(S0.rules, o)
        assert info.value.rule == "burn_went_out"


def test_s0_opening_a_seat_out_still_sees_no_other_hand() -> None:
    """“每个人看每个人自己的牌，即便走了也不能看对面人与自己队友的牌”: seat 0 has gone out; its observation
    shows no other seat's cards nor their number."""
    h = pos(S0, ["3", "55", "66", "77", "88", "99"])
    act(h, "3")
    assert not h.active[0]
    pass_until_lead(h)
    o = h.observation(0)
    assert o.cards_left == (0, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)
    assert not any(o.shown)
    assert o.hand == tuple(h.hands[0])


def test_s0_sec4_no_opening_once_two_are_out() -> None:
    """四、开点 with the opening's “走（出完牌）2个人后不存在够级”: with 够级 gone there is no 纯够级牌 to stand,
    so nobody opens any more (dianshaomenla ``open_point.deadline_out: 2``, docs/rules.md §13): every seat
    still in play that has not opened is closed, and QQQ standing then 44 opens nothing."""
    h = pos(S0, ["QQQ4455", OUT, "6", "7", OUT, "8"], out=[1, 4])
    assert h.ffa
    assert {e.seat for e in events(h, "point_closed")} == {0, 2, 3, 5}
    act(h, "QQQ")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (0, LEAD)
    act(h, "44")
    assert not events(h, "open_point")
    assert h.point[0] == Point.CLOSED
