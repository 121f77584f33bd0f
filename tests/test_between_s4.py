"""Rule tests for S4 (《够级规则》, the 够级大纲; variant ``dagang``) between hands and over a match.

Articles 第二、三、九(买三)、十(买四)、十四–十九、二十一、二十二条.  Each test is named after the
clause it checks and quotes it.  ``settle()`` tests use hand-made ``HandResult``s; ``Match`` tests
deal rigged hands (``rig_deal``), or leave rigged debts for the next hand (``rig_debts``), and
answer each decision with ``apply()`` (``drive``).  Seats 0-5 are in order of play; the opposite
of s is s+3; teams are even vs odd seats.
"""

from __future__ import annotations

from typing import Any

import pytest

import gouji_rules.play.match as match_mod
from gouji_rules.game.actions import AGREE, PASS, REFUSE, Choose, Declare, Give, Head, Play
from gouji_rules.game.cards import FOUR, SJ, THREE, TWO, card, counts_of, parse_set
from gouji_rules.play.engine import Hand, HandSetup
from gouji_rules.play.match import Match, play_match
from gouji_rules.rules.settlement import Debt, HandResult, settle
from gouji_rules.variant import Variant

from .test_match import S4, at_play, drive, ev, rig_deal, rig_debts

# the first leader is the rigged deal's first drawer (上班 is tested on its own)
R4 = S4.replace(match={"first_leader": "random"})
FILL = "3 4 5 6"  # a neutral hand: a 3, a 4, nothing to pay tribute with
ORDER = [1, 2, 3, 4, 5, 6]  # seat s took place s+1
NONE_OPEN = [False] * 6
ALL_OPEN = [True] * 6


def result(places: list[int] = ORDER, opened: list[bool] = ALL_OPEN, **kw: Any) -> HandResult:
    return HandResult(places=places, opened=opened, **kw)


def debts(places: list[int] = ORDER, opened: list[bool] = ALL_OPEN, variant: Any = S4, **kw: Any) -> list[Any]:
    return [
        (d.kind, d.giver, d.receiver, d.count, d.returned) for d in settle(variant, result(places, opened, **kw)).debts
    ]


def hand2(m: Match) -> bool:
    """Stop at the first lead of the second hand."""
    return len(m.summaries) == 1 and m.phase == "play"


def test_s4_art4_1_wrong_choice_between_hands_takes_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """第四条(一) 错牌不出, between hands: the seat asked loses its choice; PASS (the default) is taken and a
    ``wrong_play`` event recorded.  Under ``refuse`` the forfeit raises and the decision stays."""
    from gouji_rules.errors import IllegalAction

    rig_deal(monkeypatch, [FILL] * 6)
    m = Match(S4, 1, 1)
    assert m.phase == "yudian"
    seat = m.turn
    m.forfeit(seat, "answered out of turn")
    assert ("wrong_play", seat, None, -1, 0) in ev(m, "wrong_play")
    assert m.phase == "yudian" and m.turn == (seat + 1) % 6 and ev(m, "yudian") == []
    refuse = Match(S4.replace(play={"wrong_play": "refuse"}), 1, 1)
    with pytest.raises(IllegalAction) as info:
        refuse.forfeit()
    assert info.value.rule == "wrong_play" and refuse.phase == "yudian" and refuse.decisions == 0


# -- 第十九条 计分 -------------------------------------------------------------------------------


def test_s4_art14_scored_game_usually_pays_no_tribute() -> None:
    """第十四条 “采取积分制一般不再进贡” against 第十九条 “采取积分制计分法”.  dagang plays both (the default:
    “一般”, and 第二十二条 “点贡只进贡，不计分” has both at one table); the shipped ``dagang_jifen`` scores without
    tribute; ``scoring.enabled: false`` pays tribute without scoring."""
    from gouji_rules import dsl

    both = settle(S4, result(ORDER, NONE_OPEN))
    assert both.scores == (2, 0) and [d.kind for d in both.debts] == ["point"] * 6 + ["place", "place"]
    jifen = dsl.load_shipped("dagang_jifen")
    scored = settle(jifen, result(ORDER, NONE_OPEN))
    assert scored.scores == (2, 0) and scored.debts == []
    unscored = settle(S4.replace(scoring={"enabled": False}), result(ORDER, NONE_OPEN))
    assert unscored.scores == (0, 0) and unscored.winner is None and unscored.debts == both.debts


def test_s4_art19_points_4_2_0_0_minus2_minus4() -> None:
    """第十九条 “头科得4分，二科得2分，三科、四科均得0分，二落得-2分，大落得-4分，每局中联邦3人得分之和”"""
    # team 0 (seats 0 2 4) took 头科, 三科, 二落: 4 + 0 - 2 = 2; team 1 took 二科 四科 大落: 2 + 0 - 4 = -2
    s = settle(S4, result([1, 2, 3, 4, 5, 6]))
    assert s.scores == (2, 0)
    assert s.winner == 0
    # 头科 二科 四科 against 三科 二落 大落: 4 + 2 + 0 = 6 against 0 - 2 - 4 = -6
    assert settle(S4, result([1, 3, 2, 5, 4, 6])).scores == (6, 0)


def test_s4_art19_only_positive_points() -> None:
    """第十九条 “(相抵之后)按照“只记正分，不记负分”的原则记为该方积分”"""
    s = settle(S4, result([2, 1, 5, 4, 6, 3]))  # team 0: 2 - 2 - 4 = -4 → 0; team 1: 4 + 0 + 0 = 4
    assert s.scores == (0, 4)
    assert settle(S4, result([3, 1, 4, 2, 6, 5])).scores == (0, 4)  # 0 + 0 - 4 → 0; 4 + 2 - 2 = 4


def test_s4_art19_sweep_scores_12() -> None:
    """第十九条 “如一方分获头科、二科、三科，则称对方被“串三户”。串三户记分翻番，即获胜一方积12分。”"""
    s = settle(S4, result([1, 4, 2, 5, 3, 6]))
    assert s.sweep == 0
    assert s.scores == (12, 0)  # (4 + 2 + 0) × 2; the swept side's -6 counts as 0
    s = settle(S4, result([6, 3, 5, 1, 4, 2]))
    assert (s.sweep, s.scores) == (1, (0, 12))


def test_s4_art19_no_sweep_no_doubling() -> None:
    """第十九条: only 头科、二科、三科 together is 串三户 (头科 二科 四科 scores 6, not 12)"""
    s = settle(S4, result([1, 3, 2, 5, 4, 6]))
    assert (s.sweep, s.scores) == (None, (6, 0))


# -- 第十七、十八、十五、十六条: the kinds of tribute --------------------------------------------


def test_s4_art18_place_tribute_2_and_1() -> None:
    """第十八条 “"大落"向"头科"进两张，"二落"向"二科"进一张。"三科"、"四科"不进"落贡"。”"""
    assert debts([3, 1, 4, 6, 2, 5]) == [("place", 3, 1, 2, True), ("place", 5, 4, 1, True)]
    assert debts(ORDER) == [("place", 5, 0, 2, True), ("place", 4, 1, 1, True)]


def test_s4_art14_3_daluo_pays_toutke_two_erluo_pays_erke_one() -> None:
    """第十四条(三) “大落向头科进2张贡牌，二落向二科进1张贡牌。”"""
    d = settle(S4, result([2, 6, 1, 5, 4, 3])).debts
    assert [(x.giver, x.receiver, x.count) for x in d if x.kind == "place"] == [(1, 2, 2), (3, 0, 1)]


def test_s4_art17_both_opened_nobody_pays() -> None:
    """第十七条 “如果双方都开点，则互不进贡。”"""
    assert [d for d in debts(opened=ALL_OPEN) if d[0] == "point"] == []


def test_s4_art17_neither_opened_both_pay() -> None:
    """第十七条 “如果自己和对头都不开点，应该互相进贡。”; 第二十二条 “若对门互不开点，则互进点贡。”"""
    opened = [False, True, True, False, True, True]  # seats 0 and 3 both failed
    assert [d for d in debts(opened=opened) if d[0] == "point"] == [
        ("point", 0, 3, 1, False),
        ("point", 3, 0, 1, False),
    ]


def test_s4_art17_one_opened_other_pays() -> None:
    """第十七条 “如果自己开点，对头不开点，对头应该向自己进贡。”"""
    opened = [True, True, True, True, False, True]  # seat 4 failed, its opposite 1 opened
    assert [d for d in debts(opened=opened) if d[0] == "point"] == [("point", 4, 1, 1, False)]


def test_s4_art15_qing_tribute_one_card_not_returned() -> None:
    """第十五条 “清贡进贡张数为一张，清贡是不还贡的。”"""
    assert [d for d in debts(men=[(2, 5)]) if d[0] == "men"] == [("men", 2, 5, 1, False)]


def test_s4_art16_burn_tribute_one_card_not_returned() -> None:
    """第十六条 “"烧贡"的进贡张数为一张（详细见"烧牌"），烧贡是不还贡的。”"""
    assert [d for d in debts(burns=[(1, 2)]) if d[0] == "burn"] == [("burn", 2, 1, 1, False)]


def test_s4_art14_1_order_point_burn_qing_place() -> None:
    """第十四条(一) “进贡顺序为点贡、烧贡、清贡、落贡。”; 第二十二条 “点贡优先，先进点贡，后进落贡，还贡也是这个顺序”"""
    opened = [True, True, True, True, False, True]
    kinds = [d[0] for d in debts(opened=opened, burns=[(1, 2)], men=[(3, 0)])]
    assert kinds == ["point", "burn", "men", "place", "place"]


def test_s4_art14_4_only_place_tribute_is_returned() -> None:
    """第十四条(四) “头科、二科吃贡后，须向大落、二落返还同等数量的牌，称“还贡”，进点、烧、清贡的，吃贡者不予还牌。”"""
    opened = [True, True, True, True, False, True]
    d = debts(opened=opened, burns=[(1, 2)], men=[(3, 0)])
    assert {k: r for k, _, _, _, r in d} == {"point": False, "burn": False, "men": False, "place": True}


def test_s4_art22_point_tribute_not_scored() -> None:
    """第二十二条 “点贡只进贡，不计分，不回牌。”"""
    a = settle(S4, result(ORDER, ALL_OPEN))
    b = settle(S4, result(ORDER, [True, False, False, False, True, False]))
    assert a.scores == b.scores
    assert all(not d.returned for d in b.debts if d.kind == "point")


def test_s4_art14_points_scoring_usually_no_tribute_option() -> None:
    """第十四条 “采取积分制一般不再进贡。” (``tribute.enabled = false``)"""
    v = S4.replace(tribute={"enabled": False})
    assert settle(v, result(ORDER, NONE_OPEN, burns=[(1, 2)], men=[(3, 0)])).debts == []


def test_s4_art14_7_sweep_each_swept_player_pays_opposite_one() -> None:
    """第十四条(七) “串三户的进贡方式是被串三户的一方向各自的对头进1张贡牌。”"""
    d = debts([1, 4, 2, 5, 3, 6])
    assert [x for x in d if x[0] in ("sweep", "place")] == [
        ("sweep", 1, 4, 1, False),
        ("sweep", 3, 0, 1, False),
        ("sweep", 5, 2, 1, False),
    ]


# -- 第二十二条 打点: 明点 / 预点 / 翻车 -------------------------------------------------------------


def test_s4_art22_3_a_seat_declares_once_a_hand_at_the_table_and_at_club_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """第二十二条(三) 明点 / 预点 (and S0's 宣点 where a club's variant has both): a seat that declared
    预点 is not asked again, and a hand entered with two declarations by one seat is refused."""
    from gouji_rules.errors import IllegalAction
    from gouji_rules.game.actions import Declare
    from gouji_rules.play.outcome import Outcome, verify_outcome

    both = S4.replace(declare={"xuandian": True})
    rig_deal(monkeypatch, [FILL] * 6)
    m = Match(both, 1, 1)
    asked = drive(m, {("yudian", 0): Declare("yudian")}, until=lambda m: m.phase == "play")
    assert ("yudian", 0) in asked and ("xuandian", 0) not in asked and ("xuandian", 1) in asked
    assert ("mingdian", 0) not in asked
    twice = Outcome(places=[1, 2, 3, 4, 5, 6], opened=[0, 1, 2], declarations=[("yudian", 0), ("xuandian", 0)])
    with pytest.raises(IllegalAction, match="declare xuandian:0: a seat declares once a hand"):
        verify_outcome(both.rules, twice)


def test_s4_art22_mingdian_wins_2_yudian_wins_4_fanche_pays() -> None:
    """第二十二条(三) “若有人宣布明点或预点，经实战对头不开点，则宣布明点者吃对头2张点贡，宣布预点者吃对头4张点贡；
    如对头开点，则宣布明点者须向对头进2张点贡，宣布预点者向对头进4张点贡，称“吹牛上税”，又称“翻车”。”"""
    opened = [True, True, True, False, False, True]
    decl = [("mingdian", 0), ("yudian", 1)]  # 0 on 3 (who did not open), 1 on 4 (who did not)
    assert [d for d in debts(opened=opened, declarations=decl) if d[0] == "point"] == [
        ("point", 3, 0, 2, False),
        ("point", 4, 1, 4, False),
    ]
    decl = [("mingdian", 2), ("yudian", 5)]  # 2 on 5 and 5 on 2: both opened → both 翻车
    got = [d for d in debts(opened=ALL_OPEN, declarations=decl) if d[0] == "point"]
    assert got == [("point", 2, 5, 2, False), ("point", 5, 2, 4, False)]


def test_s4_art22_fanche_doubled_by_agreement() -> None:
    """第二十二条(三) “也可商定翻车加倍进贡，即明点翻车进4个贡，预点翻车进8个贡。”"""
    v = S4.replace(declare={"fanche_multiplier": 2})
    got = debts(opened=ALL_OPEN, declarations=[("mingdian", 0), ("yudian", 1)], variant=v)
    assert [d for d in got if d[0] == "point"] == [("point", 0, 3, 4, False), ("point", 1, 4, 8, False)]
    # a declarer who was right still takes 2 / 4
    got = debts(opened=[True, True, True, False, False, True], declarations=[("mingdian", 0), ("yudian", 1)], variant=v)
    assert [d for d in got if d[0] == "point"] == [("point", 3, 0, 2, False), ("point", 4, 1, 4, False)]


def test_s4_art22_declaration_replaces_the_pair_s_plain_point_tribute() -> None:
    """第二十二条: a 明点 pair settles by its stake alone (the code's reading: the declarer, right
    but not opened himself, does not also pay the plain 点贡 of 第十七条; the text is silent)."""
    got = debts(opened=NONE_OPEN, declarations=[("mingdian", 0)])
    assert [d for d in got if d[0] == "point" and 0 in d[1:3]] == [("point", 3, 0, 2, False)]


def test_s4_art22_geming_counts_as_not_opened() -> None:
    """第二十二条(三) “实行打点规则时，如果持牌人革命，无论此前对头有没有明点或预点，算自动认点”"""
    # seat 3 革命: whatever its flag says, it counts as not opened; seat 0's 预点 on it wins 4
    got = debts([1, 2, 3, 4, 5, 6], ALL_OPEN, declarations=[("yudian", 0)], geming=[3])
    assert [d for d in got if d[0] == "point"] == [("point", 3, 0, 4, False)]
    # with no declaration: 3 pays its opposite the plain 点贡
    got = debts([1, 2, 3, 4, 5, 6], ALL_OPEN, geming=[3])
    assert [d for d in got if d[0] == "point"] == [("point", 3, 0, 1, False)]


# -- 第二条 开牌, 第三条 上班 ---------------------------------------------------------------------


def _first_seed(pred: Any, variant: Variant = S4, hands: int = 2) -> tuple[int, Match]:
    """The first seed (searched in order, so the test is deterministic) whose match has ``pred``."""
    for seed in range(200):
        m = play_match(variant, seed, hands, [_greedy() for _ in range(6)])
        if pred(m):
            return seed, m
    raise AssertionError("no seed in 0..199 has the situation")


def test_s4_art2_daluo_leads_next_hand() -> None:
    """第二条(三) “上一局的大落的对头为该局的法定常规开牌人，大落为法定的取牌人，也是法定首发牌人。”"""
    assert settle(S4, result([4, 5, 6, 1, 2, 3])).next_leader == 2
    _, m = _first_seed(lambda m: m.summaries[0].sweep is None)
    first = m.summaries[0]
    daluo = first.tribute_places.index(6)
    assert m.summaries[1].leader == daluo
    assert m.summaries[1].record["leader"] == daluo
    assert not any(e["type"] in ("kaipai", "first_leader") for e in m.summaries[1].record["pre_play"])


def test_s4_art2_2_reopen_after_sweep() -> None:
    """第二条(二) “够级活动中出现“串三户”或同时更换2人以上时应重新开牌。” (开牌 and 上班 again, not the 大落)"""
    seed, m = _first_seed(lambda m: m.summaries[0].sweep is not None)
    places = m.summaries[0].places
    pre = m.summaries[1].record["pre_play"]
    kinds = [e["type"] for e in pre]
    assert "kaipai" in kinds  # 重新开牌: a card is drawn and counted again
    shown = [e for e in pre if e["type"] == "first_leader"]
    if shown:  # 上班: the seat with the most 4s of one suit leads
        assert m.summaries[1].leader == shown[-1]["seat"]
    # without the option the 大落 leads as usual
    v = S4.replace(match={"reopen_after_sweep": False})
    m = play_match(v, seed, 2, [_greedy() for _ in range(6)])
    assert m.summaries[0].places == places
    assert m.summaries[1].leader == m.summaries[0].tribute_places.index(6)


def test_s4_art2_1_kaipai_counts_a_drawn_card() -> None:
    """第二条(一) “从洗好的4付牌中任意抽取一张，按照反时针方向，以该牌的自然点数自开牌人开始，数至最后一人即为首取牌人。
    如抽到大小王牌，则其开牌权自然取消，由其“下家”取代”"""
    m = Match(S4, 3, 1)
    e = next(e for e in m.events if e.type == "kaipai")
    assert e.cards is not None and e.cards.rank < 13  # never a joker
    assert e.seat == (e.other + e.value - 1) % 6
    assert 1 <= e.value <= 13


def _greedy() -> Any:
    from gouji_rules.play.agents import GreedyAgent

    return GreedyAgent()


def _fours(seat_suits: dict[int, list[int]], n: int = 4) -> list[list[int]]:
    """Hands of n cards: the given 4s (by suit) first, then 3s and 5s of mixed suits."""
    hands = []
    for s in range(6):
        cards = [card(FOUR, x) for x in seat_suits.get(s, [])]
        cards.append(card(THREE, s % 4))
        k = 0
        while len(cards) < n:
            cards.append(card(5, (s + k) % 4))
            k += 1
        hands.append(cards)
    return hands


def test_s4_art3_shangban_two_same_suit_fours(monkeypatch: pytest.MonkeyPatch) -> None:
    """第三条 “憋3上4。首次开牌或重新开牌后，最先摸到并亮出两张同者为首发牌人，称“亮4””"""
    # cards are drawn one round at a time from seat 0: seat 2 holds two ♥4 after its 2nd card,
    # seat 1 (♠4 ♥4) holds no pair; seat 5 gets its pair later than seat 2
    hands = _fours({1: [0, 1], 2: [1, 1], 5: [2, 3, 2]})
    rig_deal(monkeypatch, hands, first=[0])
    m = Match(S4, 7, 1)
    drive(m, until=at_play)
    assert ev(m, "first_leader") == [("first_leader", 2, None, -1, 2)]
    assert m.hand is not None and m.hand.turn == 2


def test_s4_art3_dingban_more_same_suit_fours_take_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """第三条 “此后，亮出同花4多者可取代前首发牌人，称“顶班”。获得首发牌权称“上班”。”"""
    hands = _fours({2: [1, 1], 4: [0, 3, 0, 0]}, n=5)  # seat 4: three ♠4 by its 4th card
    rig_deal(monkeypatch, hands, first=[0])
    m = Match(S4, 7, 1)
    drive(m, until=at_play)
    assert ev(m, "first_leader") == [("first_leader", 4, None, -1, 3)]
    assert m.hand is not None and m.hand.turn == 4


def test_s4_art3_nobody_shows_a_pair_random_leader(monkeypatch: pytest.MonkeyPatch) -> None:
    """第三条 “如果大家都不亮，则随机产生一个首发牌者。”"""
    hands = _fours({s: [s % 4] for s in range(6)})
    rig_deal(monkeypatch, hands, first=[0])
    leaders = set()
    for seed in range(12):
        m = Match(S4, seed, 1)
        drive(m, until=at_play)
        assert ev(m, "first_leader") == []
        assert m.hand is not None
        leaders.add(m.hand.turn)
    assert len(leaders) > 1


# -- 第九条 买三 ------------------------------------------------------------------------------------


def start(monkeypatch: pytest.MonkeyPatch, hands: list[str], picks: Any = None, variant: Any = R4) -> Match:
    """A one-hand match of the rigged deal (seat 0 draws and leads), stopped at the first lead."""
    rig_deal(monkeypatch, hands, first=[0])
    m = Match(variant, 1, 1)
    drive(m, picks, until=at_play)
    assert m.hand is not None
    return m


def start_hand(m: Match, s: int) -> list[int]:
    assert m.hand is not None
    return list(m.hand.initial[s])


def test_s4_art9_buy3_from_opposite_with_a_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """第九条(买三) “若抓完牌后没有3，则要用一张2或王向对家“买3””"""
    m = start(monkeypatch, ["4 5 2 SJ", FILL, FILL, "33 4 5", FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 3, TWO + 1)]
    assert start_hand(m, 0) == counts_of("3 4 5 SJ")
    assert start_hand(m, 3) == counts_of("3 4 5 2")


def test_s4_art9_buy3_with_a_joker_when_no_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """第九条(买三) “则要用一张2或王向对家“买3”” (no 2: a 王; the 小王 before the 大王)"""
    m = start(monkeypatch, ["4 5 SJ BJ", FILL, FILL, "33 4 5", FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 3, SJ + 1)]
    assert start_hand(m, 3) == counts_of("3 4 5 SJ")


def test_s4_art9_opposite_with_one_three_team_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """第九条(买三) “若对家也没有3或只有一张3，则可向自己联邦要一张3。”"""
    m = start(monkeypatch, ["4 5 2", FILL, "33 4 5", FILL, FILL, FILL])
    assert ev(m, "buy3") == [("buy3", 0, "3", 2, 0)]  # given, not sold: value 0
    assert start_hand(m, 0) == counts_of("3 4 5 2")
    assert start_hand(m, 2) == counts_of("3 4 5")


def test_s4_art9_team_cannot_give_buy_from_opposite_team(monkeypatch: pytest.MonkeyPatch) -> None:
    """第九条(买三) “如果联邦无法给3，可以用2向对头的联邦买一张3。”"""
    m = start(monkeypatch, ["4 5 2", FILL, FILL, FILL, FILL, "333 4"])
    assert ev(m, "buy3") == [("buy3", 0, "3", 5, TWO + 1)]
    assert start_hand(m, 5) == counts_of("33 4 2")


def test_s4_art9_no_three_is_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """第九条(买三) “牌中没有3者，算做大落。”"""
    m = start(monkeypatch, ["4 5 2", FILL, FILL, FILL, FILL, FILL])
    assert ev(m, "buy3") == []
    assert m.hand is not None
    assert m.hand.setup.placed == {0: 6}
    assert 0 in m.hand.setup.closed
    drive(m)
    assert m.summaries[0].places[0] == 6


def test_s4_art9_3s_only_as_the_last_set() -> None:
    """第九条(买三) “每个玩家出的最后一手牌的牌点必须都是3，不是最后一手牌时不许出3。”"""
    h = Hand(S4, [counts_of(x) for x in ("3 5", FILL, FILL, FILL, FILL, FILL)], 0)
    assert Play(parse_set("3")) not in h.legal_actions()
    assert Play(parse_set("5")) in h.legal_actions()
    h = Hand(S4, [counts_of(x) for x in ("33", FILL, FILL, FILL, FILL, FILL)], 0)
    assert Play(parse_set("33")) in h.legal_actions()


# -- 第十条 买四 ------------------------------------------------------------------------------------


def test_s4_art10_buy4_is_a_choice_from_opposite(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十条(买四) “如果所持牌中无4者，可以用钱（无钱时用大、小花）向对头买1张4”"""
    m = start(monkeypatch, ["3 5 2", FILL, FILL, "3 44 5", FILL, FILL], {("buy4", 0): Choose("buy4")})
    assert ev(m, "buy4") == [("buy4", 0, "4", 3, TWO + 1)]
    assert start_hand(m, 0) == counts_of("3 4 5")
    assert start_hand(m, 3) == counts_of("3 4 5 2")
    assert 0 not in m.hand.setup.closed  # type: ignore[union-attr]


def test_s4_art10_opposite_with_one_four_team_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十条(买四) “如果对头无4或只有一张4，则向联邦申请一张4。如果联邦无法给4，可以用2向对头的联邦买一张4。”"""
    m = start(monkeypatch, ["3 5 2", FILL, FILL, FILL, "3 44", FILL], {"buy4": Choose("buy4")})
    assert ev(m, "buy4") == [("buy4", 0, "4", 4, 0)]
    m = start(monkeypatch, ["3 5 2", "3 44", FILL, FILL, FILL, FILL], {"buy4": Choose("buy4")})
    assert ev(m, "buy4") == [("buy4", 0, "4", 1, TWO + 1)]


def test_s4_art10_no_four_cannot_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十条(买四) “牌中没有4者，算做没有开点。”"""
    m = start(monkeypatch, ["3 5 2", FILL, FILL, "3 44 5", FILL, FILL])  # seat 0 does not buy
    asked = [d for d in m.all_events if d.type == "buy4"]
    assert asked == []
    assert m.hand is not None
    assert 0 in m.hand.setup.closed
    assert m.hand.point[0] == 3  # POINT_CLOSED


def test_s4_art10_buy4_before_tribute(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十条(买四) “进贡者如果要点，应先买4再进贡。” (the payer buys the 4 with the 2 he would pay)"""
    rig_debts(monkeypatch, [Debt("place", 0, 3, 1, True)])
    rig_deal(monkeypatch, [FILL] * 6, ["3 5 2 2", FILL, FILL, "3 44 5", FILL, FILL], first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, {"buy4": Choose("buy4")}, until=hand2)
    kinds = [e.type for e in m.events if e.type in ("buy4", "tribute")]
    assert kinds == ["buy4", "tribute"]


# -- 第十四条 进贡 -----------------------------------------------------------------------------------


def test_s4_art14_1_tribute_is_the_largest_joker_or_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(一) “大花、小花、钱是法定贡牌，按牌点大小取大者进贡”"""
    rig_debts(monkeypatch, [Debt("point", 1, 4, 2)])
    rig_deal(monkeypatch, [FILL] * 6, [FILL, "3 4 A 2 SJ BJ", FILL, FILL, FILL, FILL], first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, until=hand2)
    assert ev(m, "tribute") == [("tribute", 1, "BJ", 4, 1), ("tribute", 1, "SJ", 4, 1)]
    assert ev(m, "return_tribute") == []  # 点贡 is not returned


def test_s4_art14_2_nothing_to_pay_may_geming(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(二) “若没有摸到法定贡牌，或进贡不起，可以革命。” (a payer with no 2 or 王 is offered 革命)"""
    rig_debts(monkeypatch, [Debt("place", 1, 4, 2, True)])
    rig_deal(monkeypatch, [FILL] * 6, ["3 4 2", "3 4 A", "3 4 2", "3 4 2", "3 4 2", "3 4 2"], first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, until=lambda m: len(m.summaries) == 1)
    asked = drive(m, until=hand2)
    assert [a for a in asked if a[0] == "geming"] == [("geming", 1)]
    assert ev(m, "tribute") == []


def test_s4_art14_2_cannot_pay_what_is_owed_may_geming(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(二) “若没有摸到法定贡牌，或进贡不起，可以革命。” 进贡不起: seat 1 owes 2 落贡 and holds one 2; seat 5
    owes 1 点贡 and holds one 2 (he can pay).  Only seat 1 is offered 革命; without ``geming.cannot_pay`` nobody."""
    owed = [Debt("place", 1, 4, 2, True), Debt("point", 5, 2, 1)]
    hands = ["3 4 2", "3 4 A 2", "3 4 2", "3 4 2", "3 4 2", "3 4 K 2"]
    for variant, want in ((R4, [("geming", 1)]), (R4.replace(geming={"cannot_pay": False}), [])):
        rig_debts(monkeypatch, owed)
        rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
        m = Match(variant, 1, 2)
        drive(m, until=lambda m: len(m.summaries) == 1)
        asked = drive(m, until=hand2)
        assert [a for a in asked if a[0] == "geming"] == want


def test_s4_art14_1_largest_card_paid_even_if_just_bought_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(一) “按牌点大小取大者进贡”: S4 has no 吃了不吐 (S0 七、买3买4), so seat 3 pays as 烧贡 the 2 that seat 0
    paid it for a 3 (``tribute.kept_excluded: false``); with S0's rule that 2 could not be paid."""
    for variant, paid in ((R4, [("tribute", 3, "2", 1, 2)]), (R4.replace(tribute={"kept_excluded": True}), [])):
        rig_debts(monkeypatch, [Debt("burn", 3, 1, 1)])
        rig_deal(monkeypatch, [FILL] * 6, ["4 5 2", FILL, FILL, "33 4 5", FILL, FILL], first=[0, 0])
        m = Match(variant, 1, 2)
        drive(m, until=hand2)
        assert ev(m, "buy3") == [("buy3", 0, "3", 3, TWO + 1)]
        assert ev(m, "tribute") == paid


def test_s4_art14_4_return_tribute_same_count_receivers_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(四) “头科、二科吃贡后，须向大落、二落返还同等数量的牌，称“还贡””"""
    rig_debts(monkeypatch, [Debt("place", 5, 0, 2, True)])
    rig_deal(monkeypatch, [FILL] * 6, ["3 4 7 8 9", FILL, FILL, FILL, FILL, "3 4 5 2 BJ"], first=[0, 0])
    m = Match(R4, 1, 2)
    nine, eight = parse_set("9").rank, parse_set("8").rank
    gives = iter([Give(nine), Give(eight)])
    asked = drive(m, {"give": lambda legal: next(gives), "accept": AGREE}, until=hand2)
    assert ev(m, "tribute") == [("tribute", 5, "BJ", 0, 4), ("tribute", 5, "2", 0, 4)]
    assert ev(m, "return_tribute") == [("return_tribute", 0, "9", 5, 0), ("return_tribute", 0, "8", 5, 0)]
    assert start_hand(m, 0) == counts_of("3 4 7 2 BJ")
    assert start_hand(m, 5) == counts_of("3 4 5 8 9")
    assert asked.count(("give", 0)) == 2


def test_s4_art14_4_refuse_a_returned_rank_the_payer_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(四) “若进贡一方没有与还贡牌点数相同的牌，可拒绝此张还贡牌，请吃贡方换。”"""
    rig_debts(monkeypatch, [Debt("place", 5, 0, 1, True)])
    rig_deal(monkeypatch, [FILL] * 6, ["3 4 5 K", FILL, FILL, FILL, FILL, "3 4 5 BJ"], first=[0, 0])
    m = Match(R4, 1, 2)
    gives = iter([Give(parse_set("K").rank), Give(parse_set("5").rank)])
    asked = drive(m, {"give": lambda legal: next(gives), "accept": REFUSE}, until=hand2)
    assert ("accept", 5) in asked  # seat 5 holds no K: asked, and refuses
    assert ev(m, "return_tribute") == [("return_tribute", 0, "5", 5, 0)]  # a 5: seat 5 has one, no question
    assert asked.count(("accept", 5)) == 1
    assert start_hand(m, 5) == counts_of("3 4 55")
    assert start_hand(m, 0) == counts_of("3 4 K BJ")


def test_s4_art14_5_tribute_within_the_team_may_be_waived(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(五) “进贡在联邦中进行时，可自行商定是否进贡。”"""
    rig_debts(monkeypatch, [Debt("burn", 2, 0, 1), Debt("place", 4, 0, 2, True)])
    rig_deal(monkeypatch, [FILL] * 6, [FILL, FILL, "3 4 2", FILL, "3 4 2 2", FILL], first=[0, 0])
    m = Match(R4, 1, 2)
    asked = drive(m, {("waive", 0): Choose("waive")}, until=hand2)
    assert asked.count(("waive", 0)) == 2
    assert ev(m, "waive") == [("waive", 0, None, 2, 0), ("waive", 0, None, 4, 0)]
    assert ev(m, "tribute") == []


def test_s4_art14_6_daluo_erluo_of_one_team_choose_the_daluo() -> None:
    """第十四条(六) “大落、二落为同一方人员时，可在开牌前自行商定谁为大落，开牌后即不许变更。”"""

    def same_team_bottom(m: Match) -> bool:
        p = m.summaries[0].places
        return (p.index(5) - p.index(6)) % 2 == 0

    seed, found = _first_seed(same_team_bottom, hands=1)
    places = found.summaries[0].places
    erluo, daluo = places.index(5), places.index(6)
    m = Match(S4, seed, 2)
    asked = drive(m, {("choose_last", daluo): Choose(f"last{erluo}")}, until=lambda m: len(m.summaries) == 1)
    assert ("choose_last", daluo) in asked
    first = m.summaries[0]
    assert first.places == places  # the places as played, and the scores, do not change
    assert first.tribute_places[erluo] == 6 and first.tribute_places[daluo] == 5
    toke, erke = places.index(1), places.index(2)
    place_debts = [(d.giver, d.receiver, d.count) for d in first.debts if d.kind == "place"]
    assert (erluo, toke, 2) in place_debts and (daluo, erke, 1) in place_debts
    assert m.all_events[-1].type == "choose_last"


def test_s4_art14_7_four_big_jokers_exempt_team(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(七) “自己抓到四个大王免其和联邦的贡”"""
    rig_debts(monkeypatch, [Debt("point", 1, 4, 1), Debt("place", 3, 0, 2, True), Debt("place", 2, 5, 1, True)])
    hands = [FILL, "3 4 2", "3 4 2", "3 4 2 2", FILL, "3 4 BJ BJ BJ BJ"]
    rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, until=hand2)
    assert ev(m, "kang") == [("kang", 5, None, -1, 2)]
    assert ev(m, "tribute") == [("tribute", 2, "2", 5, 4)]  # only the other team still pays


def test_s4_art14_7_four_small_jokers_exempt_self(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(七) “抓到四个小王免自己的贡。”"""
    rig_debts(monkeypatch, [Debt("point", 1, 4, 1), Debt("place", 3, 0, 2, True)])
    hands = [FILL, "3 4 SJ SJ SJ SJ", FILL, "3 4 2 2", FILL, FILL]
    rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, {"give": lambda legal: legal[0]}, until=hand2)
    assert ev(m, "kang") == [("kang", 1, None, -1, 1)]
    assert ev(m, "tribute") == [("tribute", 3, "2", 0, 4), ("tribute", 3, "2", 0, 4)]


def test_s4_art14_7_three_sweeps_in_a_row_no_tribute_reopen(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(七) “连续三次串三户一般不进贡，应重新开牌。”"""
    real = match_mod.settle
    n = []

    def swept(variant: Any, res: Any) -> Any:
        n.append(1)
        s = real(variant, res)
        if len(n) <= 3:
            import dataclasses

            return dataclasses.replace(s, sweep=1, debts=[Debt("sweep", 0, 3, 1)])
        return s

    monkeypatch.setattr(match_mod, "settle", swept)
    rig_deal(monkeypatch, ["3 4 2 5"] * 6)
    m = Match(R4, 1, 4)
    paid = []
    while not m.is_over:
        before = len(m.summaries)
        drive(m, until=lambda m, b=before: len(m.summaries) > b)
        paid.append(sum(1 for e in m.summaries[-1].record["pre_play"] if e["type"] == "tribute"))
    assert paid == [0, 1, 1, 0]  # hands 2 and 3 pay the 串三户 tribute, hand 4 does not
    assert [e.value for e in m.all_events if e.type == "redeal"] == [3]


def _alternating_sweeps(monkeypatch: pytest.MonkeyPatch, variant: Variant) -> list[int]:
    """Hands 1-3 end in sweeps by team 1, team 0, team 1; returns the redeal events' values."""
    real = match_mod.settle
    n: list[int] = []

    def swept(v: Any, res: Any) -> Any:
        n.append(1)
        s = real(v, res)
        if len(n) <= 3:
            import dataclasses

            return dataclasses.replace(s, sweep=len(n) % 2, debts=[])
        return s

    monkeypatch.setattr(match_mod, "settle", swept)
    rig_deal(monkeypatch, ["3 4 2 5"] * 6)
    m = Match(variant, 1, 4)
    drive(m)
    return [e.value for e in m.all_events if e.type == "redeal"]


def test_s4_art14_7_three_sweeps_in_a_row_by_either_team(monkeypatch: pytest.MonkeyPatch) -> None:
    """第十四条(七) “连续三次串三户一般不进贡，应重新开牌。” The text counts 串三户 hands in a row and names no
    team: sweeps by team 1, team 0, team 1 are three in a row (``tribute.sweep_streak: either_team``)."""
    assert _alternating_sweeps(monkeypatch, R4) == [3]


def test_s4_art14_7_same_team_streak_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other count (``same_team``): alternating sweeps never make three in a row."""
    assert _alternating_sweeps(monkeypatch, R4.replace(tribute={"sweep_streak": "same_team"})) == []


# -- 第二十一条 革命 --------------------------------------------------------------------------------


def test_s4_art21_geming_offered_only_without_jokers_and_twos(monkeypatch: pytest.MonkeyPatch) -> None:
    """第二十一条 “在摸取的36张牌中，大花、小花、钱均无时，可声明“革命”” ; “符合革命条件者有权不革命。”"""
    rig_deal(monkeypatch, ["3 4 2", "3 4 A", "3 4 SJ", "3 4 K", "3 4 BJ", "3 4 2 SJ"], first=[0])
    m = Match(R4, 1, 1)
    asked = drive(m, until=at_play)
    assert [a for a in asked if a[0] == "geming"] == [("geming", 1), ("geming", 3)]
    assert ev(m, "geming") == []  # both declined: PASS is legal


def test_s4_art21_geming_discards_and_is_fourth(monkeypatch: pytest.MonkeyPatch) -> None:
    """第二十一条 “可声明“革命”，即弃牌不在参与此局的够级活动。” … “革命者通常视为四科”"""
    hands = ["3 4 2", "3 4 5 6 7", "3 4 2", "3 4 2", "3 4 2", "3 4 2"]
    m = start(monkeypatch, hands, {("geming", 1): Choose("geming")})
    assert ev(m, "geming") == [("geming", 1, None, -1, 0)]
    assert m.hand is not None
    assert sum(m.hand.initial[1]) == 0
    assert m.discards == counts_of("3 4 5 6 7")
    assert m.hand.setup.placed == {1: 4}
    drive(m)
    assert m.summaries[0].places[1] == 4


def test_s4_art21_geming_opposite_three_rights_or_no_head(monkeypatch: pytest.MonkeyPatch) -> None:
    """第二十一条 “其对头取得三次够死级的权力。声明放弃此权力即视为无头。”"""
    hands = ["3 4 2", "3 4 5", "3 4 2", "3 4 2", "3 4 2", "3 4 2"]
    m = start(monkeypatch, hands, {("geming", 1): Choose("geming"), ("head", 4): Head(True)})
    assert m.hand is not None
    assert m.hand.setup.head_rights == {4: 3}
    assert 4 in m.hand.setup.open_by_rights
    assert ev(m, "with_head") == [("with_head", 4, None, 1, 0)]
    m = start(monkeypatch, hands, {("geming", 1): Choose("geming"), ("head", 4): Head(False)})
    assert m.hand is not None
    assert m.hand.setup.no_head == {4}
    assert m.hand.no_head[4]


def test_s4_art21_two_geming_void_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """第二十一条 “如同时出现2个(含2个)以上革命者，则该局作废。”"""
    hands = ["3 4 2", "3 4 5", "3 4 2", "3 4 6", "3 4 2", "3 4 2"]
    calls = rig_deal(monkeypatch, hands, [FILL.replace("3", "3 2")] * 6, first=[0, 0])
    m = Match(R4, 1, 1)
    drive(m, {"geming": Choose("geming")}, until=at_play)
    assert len(calls) == 2 and calls[0] != calls[1]  # dealt again, with a new seed
    assert [e.value for e in m.all_events if e.type == "redeal"] == [1]
    assert [e for e in m.all_events if e.type == "geming"] == []
    assert m.summaries == []


def test_s4_art21_geming_is_fourth_or_third_with_sweep() -> None:
    """第二十一条 “革命者通常视为四科，不影响对方串三户” … “当革命者的2个同伙分获头科、二科时，则革命者视为三科，即对方被串三户。”"""
    v = S4.replace(jiefeng={"policy": "next_teammate"})  # so that seat 4 leads after seat 2 goes out
    setup = HandSetup(placed={0: 4}, geming=frozenset({0}), closed=frozenset({0}))
    hands = [counts_of(x) for x in ("", "3 5", "3", "3 6", "3", "3 7")]
    h = Hand(v, hands, 2, setup=setup)
    _play_out(h)
    assert h.places[2] == 1 and h.places[4] == 2
    assert h.places[0] == 3
    s = settle(v, HandResult(h.places, NONE_OPEN, geming=[0]))
    assert (s.sweep, s.scores) == (0, (12, 0))
    # teammates not 1 and 2: the 革命 player stays 四科, and the other side may still sweep
    hands = [counts_of(x) for x in ("", "3", "3 5 6", "3", "3 5 7", "3")]
    h = Hand(v, hands, 1, setup=setup)
    _play_out(h)
    assert h.places[0] == 4
    assert sorted(h.places[s] for s in (1, 3, 5)) == [1, 2, 3]
    assert settle(v, HandResult(h.places, NONE_OPEN, geming=[0])).sweep == 1


def _play_out(h: Hand) -> None:
    """Lead the smallest set, pass everything else, agree to every 接风 request."""
    while not h.is_over:
        legal = h.legal_actions()
        if h.mode == 0:
            h.apply(min((a for a in legal), key=lambda a: (a.cards.rank, a.cards.size)))  # type: ignore[union-attr]
        elif AGREE in legal:
            h.apply(AGREE)
        elif PASS in legal:
            h.apply(PASS)
        else:
            h.apply(legal[0])


# -- 第二十二条(三) 明点 / 预点: when --------------------------------------------------------------


def test_s4_art22_yudian_before_the_deal_mingdian_after_tribute(monkeypatch: pytest.MonkeyPatch) -> None:
    """第二十二条(三) “牌全部抓起后，进、吃贡完毕，首发牌前，任何人都有宣布对头不开点的权力，是为“明点”。
    若开牌前宣布对头不开点，是为“预点”。”"""
    rig_debts(monkeypatch, [Debt("point", 1, 4, 1)])
    calls = rig_deal(monkeypatch, [FILL] * 6, [FILL, "3 4 2", FILL, FILL, FILL, FILL], first=[0, 0])
    m = Match(R4, 1, 2)
    drive(m, until=lambda m: len(m.summaries) == 1)
    assert m.phase == "yudian" and len(calls) == 1  # the second deal has not been made yet
    drive(m, {("yudian", 0): Declare("yudian"), ("mingdian", 2): Declare("mingdian")}, until=hand2)
    kinds = [e.type for e in m.events if e.type in ("yudian", "deal", "tribute", "mingdian")]
    assert kinds == ["yudian", "deal", "tribute", "mingdian"]
    assert ev(m, "yudian", "mingdian") == [("yudian", 0, None, 3, 0), ("mingdian", 2, None, 5, 0)]


def test_s4_art22_mingdian_settled_after_the_hand() -> None:
    """第二十二条(三) “经实战对头不开点，则宣布明点者吃对头2张点贡…如对头开点，则宣布明点者须向对头进2张点贡”"""
    m = Match(S4, 3, 1)
    drive(m, {("mingdian", s): Declare("mingdian") for s in (0, 1)})
    rec = m.summaries[0].record
    opened = [p == "open" for p in rec["opened"]]
    point = [(d["giver"], d["receiver"], d["count"]) for d in rec["debts_next"] if d["kind"] == "point"]
    for s in (0, 1):
        o = s + 3
        assert ((o, s, 2) in point) == (not opened[o])
        assert ((s, o, 2) in point) == opened[o]
