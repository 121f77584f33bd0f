"""Audit of S4 (《够级规则》 = 《够级大纲》, variant ``dagang``): the corners of each article.

These complete tests/test_rules_s4.py and tests/test_between_s4.py where an article had a corner
no test built: the price the opposite's team takes (第九条, 第十条), thresholds with an attached 2,
a plain set against a 小花 set, several 清, burn failures in order, 只记正分 with both teams at
zero, and so on.  Every situation is built through the public API (``Hand.position``,
``Match(deal=…)``, ``settle``).  Seats 0-5 are in order of play; the opposite of s is s+3.
"""

from __future__ import annotations

import pytest

from gouji_rules import Hand, HandResult, Match, settle
from gouji_rules.game.actions import Action, Choose
from gouji_rules.game.cards import FOUR, SJ, THREE, TWO, parse_set
from gouji_rules.play.engine import BURN, FOLLOW, KOU_MODE, LEAD, Point
from gouji_rules.variant import Variant

from .conftest import S0, S4, act, events, illegal, legal, pass_until_lead, pos

FILL = "3 4 5 6"
LOW = "5"
OUT = "9"


def buy_match(variant: Variant, hands: list[str], want4: bool = True) -> Match:
    """A one-hand match of ``hands`` led by seat 0, run to its first lead (every 买4 taken if ``want4``)."""
    m = Match(variant, seed=1, hands=1, deal=hands, leader=0)

    def pick(acts: list[Action]) -> Action:
        return next((a for a in acts if isinstance(a, Choose) and a.what == "buy4" and want4), acts[-1])

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


# -- 第四条(三) 挂花, 死牌 -----------------------------------------------------------------------


def test_s4_art4_3_plain_set_does_not_beat_a_small_joker_set() -> None:
    """第四条(三) “小花挂牌时，须由大花挂高于小花所挂牌一点以上的牌方能灭之”: three A do not beat KK+小花;
    a 小花 set beats a plain set of a lower rank like any higher set."""
    h = pos(S4, ["55", LOW, LOW, "AAAQQ+SJ", LOW, LOW], table="KK+SJ", owner=0)
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert legal(h) == {"pass"}
    illegal(h, "AAA", "beat")
    h = pos(S4, ["55", LOW, LOW, "AAAQQ+SJ", LOW, LOW], table="KKK", owner=0)
    assert legal(h) == {"AAA", "AA+SJ", "pass"}
    illegal(h, "QQ+SJ", "beat")  # the 小花 does not lift two Q above K


def test_s4_art4_3_big_joker_on_the_lowest_rank_is_dead() -> None:
    """第四条(三) “大花挂任何牌时，发牌均为死牌”: 5+大花 too; the opposite concedes it (扣牌)."""
    h = pos(S4, ["55", LOW, LOW, "66+BJ", LOW, LOW], table="5+BJ", owner=0)
    assert (h.turn, h.mode) == (3, KOU_MODE)
    assert legal(h) == {"kou"}


def test_s4_art11_dead_set_in_free_for_all_is_still_conceded() -> None:
    """第十一条 “四人乱缠，也应按顺序发牌，按规定报牌和扣牌”: a 大花 set in 四人乱缠 is still 扣牌 by the
    opposite."""
    h = pos(S4, ["K+BJ5", OUT, "55", "66", OUT, "88"], out=[1, 4])
    assert h.ffa
    act(h, "K+BJ")
    assert (h.turn, h.mode) == (3, KOU_MODE)
    act(h, "kou")
    assert (h.turn, h.mode) == (0, LEAD)


# -- 第五条 够级牌, 第八条 开点 -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "gouji", "pure"),
    [
        ("TTTT2", True, False),
        ("JJJ2", True, False),
        ("TTTT", False, False),
        ("TTTTT", True, True),
        ("22", True, True),
        ("A2", True, False),
    ],
)
def test_s4_art5_art8_attached_two_counts_toward_gouji_but_not_pure(cards: str, gouji: bool, pure: bool) -> None:
    """第四条(三) “钱贴牌时…视为该牌中的普通一员” (so TTTT2 is five 10, 够级 by 第五条) and 第八条 “（三）贴2的
    够级牌不开点”; 第五条 calls 「两张2」 itself 纯够级."""
    cs = parse_set(cards)
    assert S4.rules.is_gouji(cs) == gouji
    assert S4.rules.is_pure_gouji(cs) == pure


def test_s4_art8_attached_two_set_that_stands_does_not_open() -> None:
    """第八条 “（三）贴2的够级牌不开点”: TTTT2 stands, then 44 is led: no 开点, and the point is given up
    (“没开点先发4者视为自动放弃开点”; QQQ still held, so this is no 自然点)."""
    h = pos(S4, ["TTTT2QQQ44", LOW, LOW, "9", LOW, LOW])
    act(h, "TTTT2")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (0, LEAD)
    act(h, "44")
    assert not events(h, "open_point", "natural_point")
    assert h.point[0] == Point.CLOSED


# -- 第十三条 接风 -------------------------------------------------------------------------------


def test_s4_art13_jiefeng_offered_to_the_next_seat_in_play() -> None:
    """第十三条 “持牌人对上家的底牌可暂不上牌而申请由自己重新发牌”: when the seat after the one going out is
    already out, the next seat in play is the one whose 上家 played the last set."""
    h = pos(S4, ["3", OUT, "55", "66", "77", "88"], out=[1])
    act(h, "3")
    assert (h.turn, h.mode) == (2, FOLLOW)
    assert "jiefeng" in legal(h)


# -- 第十五条 清 ---------------------------------------------------------------------------------


def test_s4_art15_first_qing_is_daluo_second_erluo() -> None:
    """第十五条 “如持牌者被清，应当时亮牌（俗称为先清为落）”: of two 清, the first is 大落 and the second 二落,
    though both play on."""
    h = pos(S4, ["553", "663", "77", "88", "9", "T"])
    act(h, "55", "66", "77")
    assert [(e.seat, e.other) for e in events(h, "men")] == [(0, 1), (1, 2)]
    assert h.active[0] and h.active[1]
    while not h.is_over:
        acts = sorted(legal(h))
        act(h, acts[0] if h.mode == LEAD else ("kou" if "kou" in acts else "pass"))
    assert h.places[0] == 6 and h.places[1] == 5


# -- 第十九条 计分 -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "scores", "sweep"),
    [
        ([1, 2, 3, 4, 5, 6], (4 + 0 - 2, 0), None),  # 2 + 0 - 4 = -2 is recorded as 0
        ([1, 2, 6, 5, 4, 3], (0, 0), None),  # 4 - 4 + 0 = 0 and 2 - 2 + 0 = 0
        ([2, 1, 3, 6, 4, 5], (2, 0), None),  # team 1: 4 - 4 - 2 < 0
        ([1, 4, 2, 5, 3, 6], (12, 0), 0),  # 串三户: 6 doubled
        ([5, 3, 6, 1, 4, 2], (0, 12), 1),
    ],
)
def test_s4_art19_team_sum_positive_only_and_sweep_doubled(
    places: list[int], scores: tuple[int, int], sweep: int | None
) -> None:
    """第十九条 “每局中联邦3人得分之和(相抵之后)按照“只记正分，不记负分”的原则记为该方积分 … 串三户记分翻番，
    即获胜一方积12分”"""
    s = settle(S4, HandResult(places=places, opened=[True] * 6))
    assert s.scores == scores
    assert s.sweep == sweep


# -- 第六条 烧牌: the order of burners -----------------------------------------------------------

OPEN = {s: "open" for s in range(6)}


def test_s4_art6_burners_of_one_side_in_order_of_play() -> None:
    """第六条 “若烧牌者均为一方，则按发牌顺序进行”: seats 1 and 5 (one side) may burn seat 0's QQQ; seat 1 is
    asked first, then seat 5, and only then the opposite answers."""
    h = pos(S4, ["QQQ55", "KKK+SJ", "6", "7", "8", "AAA+SJ"], point=OPEN)
    act(h, "QQQ")
    asked = []
    while h.mode == BURN:
        asked.append(h.turn)
        act(h, "pass")
    assert asked == [1, 5]
    assert (h.turn, h.mode) == (3, FOLLOW)


def test_s4_art6_leaders_side_burns_before_the_other_side() -> None:
    """第六条 “如声明烧牌者有2人以上，且分属不同的一方，则发够级牌者的联邦可先于其他人烧牌”: seats 2 and 4 (the
    leader's side) before seats 1 and 5, each side in order of play; S0 has no such priority."""
    hands = ["QQQ55", "KKK+SJ", "KKK+SJ", "7", "AAA+SJ", "AAA+SJ"]
    for variant, order in ((S4, [2, 4, 1, 5]), (S0, [1, 2, 4, 5])):
        h = pos(variant, hands, point=OPEN)
        act(h, "QQQ")
        asked = []
        while h.mode == BURN:
            asked.append(h.turn)
            act(h, "pass")
        assert asked == order, variant.name


@pytest.mark.parametrize("single", ["SJ", "BJ", "2", "A", "5+SJ"])
def test_s4_art8_single_or_joker_set_never_opens(single: str) -> None:
    """第八条 “（一）有大、小花的牌不开点；（二）单张不开点”"""
    assert not S4.rules.is_pure_gouji(parse_set(single))


# -- 第二十二条 打点: what “活” means -------------------------------------------------------------


def test_s4_art22_1_dadian_lived_reading_is_a_variant_option() -> None:
    """第二十二条(一) “头科产生前，其够级牌一次未活，即未用够级方式取得过发牌权，则头科的对头称为“不开点””.
    Seat 3's KK+小花 won the lead (a 够级 set, but not pure: 第八条 “有大、小花的牌不开点”).  dagang reads “活”
    with 第八条's test (``open_point.dadian_lived: pure_stood``): seat 3 is closed when seat 0 goes out 头科.
    The literal reading (``gouji_won``) spares it: it may still open before 二科 with a pure set and 4s."""
    hands = ["K", "66", "77", "KK+SJ QQQ 44 8", "99", "TT"]
    for lived, closed in (("pure_stood", {0, 3}), ("gouji_won", {0})):
        v = S4.replace(open_point={"dadian_lived": lived})
        h = pos(v, hands, leader=3, point={1: "open", 2: "open", 4: "open", 5: "open"})
        act(h, "KK+SJ")
        pass_until_lead(h)
        assert (h.turn, h.mode) == (3, LEAD)
        act(h, "8")
        while h.turn != 0:
            act(h, "pass")
        act(h, "K")  # seat 0 goes out: 头科
        assert events(h, "finish")[0].seat == 0
        assert {e.seat for e in events(h, "point_closed")} == closed, lived
    assert S4.open_point.dadian_lived == "pure_stood"


# -- the deck: four packs, 36 cards each -----------------------------------------------------------


def test_s4_art21_four_packs_36_cards_each() -> None:
    """第二十一条 “在摸取的36张牌中” (and 第二条 “从洗好的4付牌中”): four whole packs, 216 cards, 36 to each
    seat; every rank 16 times, each joker 4 times."""
    rules = S4.rules
    assert len(rules.deck) == 216 and list(rules.hand_sizes) == [36] * 6
    ranks = [c >> 2 for c in rules.deck]
    assert all(ranks.count(r) == 16 for r in range(13))
    assert ranks.count(SJ) == 4 and ranks.count(SJ + 1) == 4
    h = Hand.deal(S4, seed=11)
    assert [sum(x) for x in h.hands] == [36] * 6


def test_s4_art2_teams_alternate_and_opposites_sit_across() -> None:
    """第二条前 “联邦组成后，间隔相坐，各自的够级对象自然确定。如①③⑤为一方联邦，②④⑥为另一方联邦”: seats 0 2 4
    against 1 3 5, and the 对头 of each seat is three seats on (the one a 够级 set is bound to)."""
    s = settle(S4, HandResult(places=[1, 4, 2, 5, 3, 6], opened=[True] * 6))
    assert s.sweep == 0 and s.scores == (12, 0)
    for owner in range(6):
        hands = ["5"] * 6
        hands[owner] = "QQQ5"
        h = pos(S4, hands, leader=owner)
        act(h, "QQQ")
        assert (h.turn, h.mode) == ((owner + 3) % 6, FOLLOW)
