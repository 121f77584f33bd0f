"""Rule tests for S4, 《够级规则》(够级大纲) (variant ``dagang``).

Each test is named after the article it checks (the seed's own, garbled, numbering) and quotes
it.  Seats 0-5 are in order of play; the opposite of s is s+3; teams are even vs odd seats.
"""

from __future__ import annotations

import pytest

from gouji_rules.game.actions import Play
from gouji_rules.game.cards import counts_of, parse_set
from gouji_rules.play.engine import BURN, CONSENT, FOLLOW, KOU_MODE, LEAD, Hand, HandSetup, Point

from .conftest import S4, act, events, illegal, legal, pass_until_lead, pos, types

LOW = "5"
OUT = "9"  # placeholder hand for seats listed in ``out=`` (Hand.position drops out= for empty hands)
ALL_OPEN = {s: "open" for s in range(6)}


# -- 第四条 发牌: 挂花、贴钱、同一点数、步步高 ----------------------------------------------------


def test_s4_art4_3_big_joker_set_is_dead() -> None:
    """“大花挂任何牌时，发牌均为死牌，对头应无条件为之“扣牌””"""
    h = pos(S4, ["KK+BJ55", "AA+BJBJ", LOW, "AA+BJBJ", LOW, LOW])
    act(h, "KK+BJ")
    assert (h.turn, h.mode) == (3, KOU_MODE)
    assert legal(h) == {"kou"}
    illegal(h, "AA+BJBJ", "beat")
    illegal(h, "pass")
    act(h, "kou")
    e = events(h, "kou")[-1]
    assert (e.seat, e.other, str(e.cards)) == (3, 0, "KK+BJ")
    assert (h.turn, h.mode) == (0, LEAD)
    assert not events(h, "pass")  # nobody else was asked


def test_s4_art7_kou_by_the_opposite_before_the_next_lead() -> None:
    """第七条 “重新发牌前，对死牌必须作“扣牌”处理，对头互为法定扣牌人。对头未扣牌前，重新发牌无效”"""
    h = pos(S4, ["55", LOW, LOW, "66", LOW, LOW], table="2+BJ", owner=0)
    assert (h.turn, h.mode) == (3, KOU_MODE)
    illegal(h, "55", seat=0)  # the owner cannot lead again before the 扣牌
    act(h, "kou")
    assert (h.turn, h.mode) == (0, LEAD)


def test_s4_art4_3_small_joker_needs_big_joker_on_a_higher_rank() -> None:
    """“小花挂牌时，须由大花挂高于小花所挂牌一点以上的牌方能灭之”"""
    h = pos(S4, ["55", LOW, LOW, "AAKK2SJBJBJ", LOW, LOW], table="KK+SJ", owner=0)
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert legal(h) == {"AA+BJ", "A2+BJ", "A+SJBJ", "A+BJBJ", "2+SJBJ", "2+BJBJ", "SJ+BJBJ", "pass"}
    illegal(h, "KK+BJ", "beat")  # not higher than K
    illegal(h, "AA+SJ", "beat")  # a 小花 does not cover a 小花


def test_s4_art4_3_big_jokers_not_fewer_than_small() -> None:
    """“且大花不得少于小花数量”"""
    h = pos(S4, ["55", LOW, LOW, "AAASJSJBJBJ", LOW, LOW], table="KK+SJSJ", owner=0)
    assert legal(h) == {"AA+BJBJ", "A+SJBJBJ", "SJSJ+BJBJ", "pass"}
    illegal(h, "AA+SJBJ", "beat")
    illegal(h, "AAA+BJ", "beat")


def test_s4_art4_3_attached_two_is_an_ordinary_member() -> None:
    """“钱贴牌时，即失去原来的作用，视为该牌中的普通一员。” KKK2 is four K."""
    h = pos(S4, ["55", LOW, LOW, "AAAAKKKK", LOW, LOW], table="KKK2", owner=0)
    assert legal(h) == {"AAAA", "pass"}
    h = pos(S4, ["55", LOW, LOW, "KKK2", LOW, LOW], table="AAAA", owner=0)
    assert legal(h) == {"pass"}
    illegal(h, "KKK2", "beat")


def test_s4_art4_4_one_rank_per_set() -> None:
    """“所发（顺）牌必须是同一点数，不同点数牌不可混合发出，花、钱例外。”"""
    h = pos(S4, ["KKQQ2SJ", LOW, LOW, LOW, LOW, LOW])
    for a in h.legal_actions():
        assert isinstance(a, Play)
        assert a.cards.count + a.cards.twos + a.cards.sj + a.cards.bj == a.cards.size
    assert "KK2+SJ" in legal(h) and "QQ2" in legal(h)


def test_s4_art4_5_play_in_turn() -> None:
    """“按反时针方向逐个进行，不得越、抢。”"""
    h = pos(S4, ["5566", "77", "88", "99", "TT", "JJ"])
    act(h, "55")
    assert h.turn == 1
    illegal(h, "88", "turn_order", seat=2)


def test_s4_art4_6_higher_and_same_count() -> None:
    """“发牌按照“步步高”的原则进行，即下家所发牌的点数必须高于“上家”牌的点数。”"""
    h = pos(S4, ["55", "7777888", LOW, LOW, LOW, LOW], table="77", owner=0)
    assert legal(h) == {"88", "pass"}
    illegal(h, "77", "beat")
    illegal(h, "888", "beat")


# -- 第五条 够级牌 --------------------------------------------------------------------------------

GOUJI = [
    ("22", True),
    ("2", False),
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
    ("99999999", False),
    ("QQ2", True),
    ("Q+SJ", True),
]


@pytest.mark.parametrize(("cards", "gouji"), GOUJI)
def test_s4_art5_gouji_thresholds(cards: str, gouji: bool) -> None:
    """“两张2、两张1、两张K、三张Q、四张J、五张10，为法定最低级别、最少数量的够级牌（俗称纯够级）。
    当发出牌是“够级牌”时，除“烧牌”或“无头”外，只有对头才有资格上牌”"""
    cs = parse_set(cards)
    assert S4.rules.is_gouji(cs) == gouji
    h = pos(S4, [cards + "55", "BJBJBJBJBJBJBJBJ", LOW, "BJBJBJBJBJBJBJBJ", LOW, LOW])
    act(h, cards)
    assert h.turn == (3 if gouji else 1)


def test_s4_art5_only_the_opposite_answers_gouji() -> None:
    """“当发出牌是“够级牌”时，除“烧牌”或“无头”外，只有对头才有资格上牌，是为“够级”。”"""
    h = pos(S4, ["QQQ55", "KKK", "KKK", "AAA", "KKK", "KKK"])
    act(h, "QQQ")
    assert (h.turn, h.mode) == (3, FOLLOW)  # nobody has opened, so nobody may burn
    act(h, "pass")
    assert (h.turn, h.mode) == (0, LEAD)


# -- 让牌, 过牌 ---------------------------------------------------------------------------------


def test_s4_art4_yield() -> None:
    """第四条 让牌 “持牌人对上两家过牌的对头牌，即不想过牌，又不原意立即上牌时，可声明“让牌”，
    即让下两家先上牌，如下家均声明过牌，再由持牌人确定上牌或扣牌。”"""
    h = pos(S4, ["55JJ", "66", "66", "77", "44", "44"])
    act(h, "55", "pass")
    assert "yield" not in legal(h)
    act(h, "pass")
    assert (h.turn, "yield" in legal(h)) == (3, True)
    act(h, "yield", "pass", "pass")
    assert h.turn == 3 and legal(h) == {"77", "pass"}
    act(h, "77")
    # “对让牌人顺的牌，唯有对头才有让牌权”: seat 0, the yielder's opposite, may yield now
    assert h.turn == 0 and "yield" in legal(h)


def test_s4_art4_yield_only_after_both_upstream_pass() -> None:
    """“持牌人对上两家过牌的对头牌”: not when an upstream player answered."""
    h = pos(S4, ["55JJ", "66", "77", "88", "44", "44"])
    act(h, "55", "pass", "77")
    assert h.turn == 3 and "yield" not in legal(h)
    illegal(h, "yield", "yield")


def test_s4_art5_pass_reentry_only_on_opposite_set() -> None:
    """第五条 过牌 “过牌者除“对头牌”外，这一轮再无权发牌” and 第十二条 “在“四人乱缠”前，如果“过牌”后，
    如果不是对头的牌，是不允许再“上牌”的。”"""
    h = pos(S4, ["55JJ", "88", "99", "TT", "66JJ", "77"])
    act(h, "55", "pass", "pass", "pass", "66")
    seen = []
    while h.mode != LEAD:
        seen.append(h.turn)
        act(h, "pass")
    assert seen == [5, 0, 1]  # seat 1 comes back for his opposite's set; 2 and 3 do not


# -- 第四条(一) 错牌不出 ------------------------------------------------------------------------------


def test_s4_art4_1_wrong_play_loses_the_turn_to_the_next_seat() -> None:
    """第四条(一) “如顺牌有误，按照“错牌不出”的原则，其顺牌权自动取消，由其下家行使顺牌权。” Seat 1 answers 55
    wrongly: it loses the turn (a 过牌 for this round), seat 2 answers next, and seat 1 stays out of the round."""
    h = pos(S4, ["55JJ", "7799", "66", LOW, LOW, LOW])
    act(h, "55")
    assert (h.turn, h.mode) == (1, FOLLOW)
    h.forfeit(1, "played 5 on 55")
    assert events(h, "wrong_play")[-1] == ("wrong_play", 1, None, -1, FOLLOW + 1)
    assert (h.turn, h.mode) == (2, FOLLOW)
    act(h, "66")
    seen = []
    while h.mode == FOLLOW:
        seen.append(h.turn)
        act(h, "pass")
    assert 1 not in seen  # 过牌者…这一轮再无权发牌
    assert h.wrong_plays == [(1, "played 5 on 55")] and "1:wrong_play" in h.record()["actions"]


def test_s4_art4_1_wrong_lead_passes_the_lead_to_the_next_seat() -> None:
    """“由其下家行使顺牌权”: a seat that leads wrongly loses the lead; the next seat in play leads."""
    h = pos(S4, ["55JJ", "7799", "66", LOW, LOW, LOW])
    h.forfeit(0)
    assert (h.turn, h.mode) == (1, LEAD) and h.table is None


def test_s4_art4_1_lost_turn_replays_from_the_record() -> None:
    """A lost turn is in the record's actions (``1:wrong_play``), so ``from_record`` + ``replay`` reproduce it."""
    import random

    rng = random.Random(4)
    for seed in range(20):
        h = Hand.deal(S4, seed=seed)
        h.forfeit()
        while not h.is_over:
            if rng.random() < 0.05:
                h.forfeit(reason="wrong")
            else:
                legal = h.legal_actions()
                h.apply(legal[rng.randrange(len(legal))])
        rec = h.record()
        assert any(a.endswith(":wrong_play") for a in rec["actions"])
        again = Hand.from_record(S4, rec)
        again.replay(rec["actions"])
        assert again.record() == rec


def test_s4_art4_1_refuse_reading_raises_naming_the_rule() -> None:
    """``play.wrong_play: refuse`` (dianshaomenla, simulators): ``forfeit`` raises IllegalAction naming the rule."""
    from gouji_rules.errors import IllegalAction

    from .conftest import S0, snapshot

    h = pos(S0, ["55JJ", "7799", "66", LOW, LOW, LOW])
    before = snapshot(h)
    with pytest.raises(IllegalAction) as info:
        h.forfeit()
    assert info.value.rule == "wrong_play" and "第四条" in (info.value.clause or "")
    assert snapshot(h) == before
    with pytest.raises(IllegalAction) as info:
        pos(S4, ["55", LOW, LOW, LOW, LOW, LOW]).forfeit(3)
    assert info.value.rule == "turn_order"


# -- 第六条 烧牌 ----------------------------------------------------------------------------------


def test_s4_art5_passed_seat_may_not_burn() -> None:
    """第五条 (过牌) “过牌者除“对头牌”外，这一轮再无权发牌，直至新一轮重新发牌”; 第十二条 “如果不是对头的牌，
    是不允许再"上牌"的”.  A burn is a play: seat 1 passed on 555 and is not offered the burn of QQQ."""
    hands = ["555JJ", "KKK66", "QQQ7", LOW, "KKK", LOW]
    h = pos(S4, hands, point=ALL_OPEN)
    act(h, "555", "pass", "QQQ")
    asked = []
    while h.mode == BURN:
        asked.append(h.turn)
        act(h, "pass")
    assert asked == [4]
    # the option keeps the other reading for clubs that allow it
    h = pos(S4.replace(burn={"after_pass": True}), hands, point=ALL_OPEN)
    act(h, "555", "pass", "QQQ")
    asked = []
    while h.mode == BURN:
        asked.append(h.turn)
        act(h, "pass")
    assert asked == [4, 1]


def test_s4_art6_burn_needs_open_point() -> None:
    """“没有开点的，不能够烧牌。”"""
    h = pos(S4, ["QQQ55", "KKK", LOW, LOW, LOW, "KKK"], point={5: "open"})
    act(h, "QQQ")
    assert (h.turn, h.mode) == (5, BURN)
    act(h, "pass")
    assert (h.turn, h.mode) == (3, FOLLOW)


def test_s4_art6_burn_priority_own_team_first() -> None:
    """“如声明烧牌者有2人以上，且分属不同的一方，则发够级牌者的联邦可先于其他人烧牌，但此后其他人可再烧牌，
    若烧牌者均为一方，则按发牌顺序进行。”"""
    h = pos(S4, ["QQQ55", "KKK", "KKK", "AAA", "KKK", "KKK"], point=ALL_OPEN)
    act(h, "QQQ")
    order = []
    while h.mode == BURN:
        order.append(h.turn)
        act(h, "pass")
    assert order == [2, 4, 1, 5]
    assert h.turn == 3


def test_s4_art6_others_may_burn_after_a_burn() -> None:
    """“…但此后其他人可再烧牌” (反烧)."""
    h = pos(S4, ["QQQ55", "AAA66", "KKK77", LOW, LOW, LOW], point=ALL_OPEN)
    act(h, "QQQ", "burn KKK")
    assert h.burning == 2
    assert (h.turn, h.mode) == (1, BURN)
    act(h, "burn AAA")
    e = events(h, "counter_burn")[-1]
    assert (e.seat, e.other) == (1, 2) and h.burning == 1


def test_s4_art6_break_burn_by_burners_opposite() -> None:
    """烧牌者的对头管住即解烧 (GLOSSARY break_burn; S4 第六条 only the 对头 answers a 够级 set)."""
    h = pos(S4, ["QQQ55", LOW, "KKK77", LOW, LOW, "AAA"], point=ALL_OPEN)
    act(h, "QQQ", "burn KKK")
    while h.turn != 5:
        act(h, "pass")
    act(h, "AAA")
    assert events(h, "break_burn")[-1].seat == 5 and h.burning == -1


def test_s4_art6_burner_hangs_a_joker_except_last_three() -> None:
    """“烧牌的条件是：首先用能盖住所发够级牌的牌将其灭掉，然后每次所发牌中必须挂一小花或大花。最后一次发3可除外。”"""
    h = pos(S4, ["QQQ55", "KKK66SJ33", LOW, LOW, LOW, LOW], point=ALL_OPEN)
    act(h, "QQQ")
    while h.turn != 1:
        act(h, "pass")
    act(h, "burn KKK")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (1, LEAD)
    assert legal(h) == {"66+SJ", "6+SJ", "SJ"}
    illegal(h, "66", "burn_joker")
    act(h, "66+SJ")
    pass_until_lead(h)
    assert legal(h) == {"33"}
    act(h, "33")
    assert events(h, "burn_success")[-1].seat == 1


def _burner_answering_a_no_head_seat() -> Hand:
    """Seat 1 burns seat 0's QQQ; the 无头 seat 2 beats seat 1's KKK; seat 1 is to answer AAA.  Built with
    ``burn.break_burn`` off, so that the 无头 seat beating the burner leaves the burn running."""
    v = S4.replace(burn={"break_burn": False})
    h = pos(v, ["QQQ55", "KKK222SJ6", "AAA7", LOW, LOW, OUT], point=ALL_OPEN, out=[5])
    assert h.no_head[2]
    act(h, "QQQ")
    while h.turn != 1:
        act(h, "pass")
    act(h, "burn KKK")
    while h.turn != 2:
        act(h, "pass")
    act(h, "AAA")  # the 无头 seat 2 answers the burner directly
    assert h.burning == 1
    while h.turn != 1:
        act(h, "pass")
    return h


def test_s4_art6_burner_hangs_a_joker_when_following_too() -> None:
    """“然后每次所发牌中必须挂一小花或大花”: every set the burner plays, also one that answers."""
    h = _burner_answering_a_no_head_seat()
    assert legal(h) == {"22+SJ", "pass"}
    illegal(h, "222")


def test_s4_art6_burner_answer_without_joker_names_the_rule() -> None:
    """“然后每次所发牌中必须挂一小花或大花” — the refusal names the rule it breaks (burn_joker)."""
    h = _burner_answering_a_no_head_seat()
    illegal(h, "222", "burn_joker")


def test_s4_art10_no_head_seat_beating_the_burner_ends_the_burn() -> None:
    """第十条 “无头者对其他持牌者亦行使同样的职权” — the texts name only the burner's 对头 for 解烧
    (S0 “烧牌者的对门可以要，要下来则称为“解烧””); the engine's reading is that any direct answer to the
    burner (here by the 无头 seat 2) ends the burn, recorded as ``break_burn``."""
    h = pos(S4, ["QQQ55", "KKK222SJ6", "AAA7", LOW, LOW, OUT], point=ALL_OPEN, out=[5])
    act(h, "QQQ")
    while h.turn != 1:
        act(h, "pass")
    act(h, "burn KKK")
    while h.turn != 2:
        act(h, "pass")
    act(h, "AAA")
    assert events(h, "break_burn")[-1].seat == 2
    assert h.burning == -1


def test_s4_art6_burn_fail_dalu_then_erlu() -> None:
    """“烧牌失败：如果烧牌失败，本局内不能再出牌，结束时自动记为“大落”。再有其他失败者依次记为“二落”、“四科”…”"""
    h = pos(S4, ["QQQ8", "KKK66", "9", "AAA77", "T", "J"], point=ALL_OPEN)
    act(h, "QQQ")
    while h.mode == BURN and h.turn != 1:
        act(h, "pass")
    act(h, "burn KKK")
    while h.mode == BURN and h.turn != 3:
        act(h, "pass")
    act(h, "burn AAA")  # 反烧; seat 1 is no longer burning
    pass_until_lead(h)
    assert events(h, "burn_fail")[-1].seat == 3  # 77 and no joker
    assert not h.active[3]
    # seat 1 is still in play and plain
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert h.places[3] == 6


def test_s4_art6_two_burn_failures_dalu_and_erlu() -> None:
    """“…结束时自动记为“大落”。再有其他失败者依次记为“二落”、“四科”、“三科”、“二科”。”"""
    h = pos(S4, ["QQQ8", "AAA77", "KKK66", "QQQT", "J", "9"], point=ALL_OPEN)
    act(h, "QQQ")
    assert (h.turn, h.mode) == (2, BURN)  # own team first
    act(h, "burn KKK")
    pass_until_lead(h)
    assert events(h, "burn_fail")[-1].seat == 2  # first failure
    assert h.turn == 3
    act(h, "QQQ")
    assert (h.turn, h.mode) == (1, BURN)
    act(h, "burn AAA")
    pass_until_lead(h)
    assert [e.seat for e in events(h, "burn_fail")] == [2, 1]
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert (h.places[2], h.places[1]) == (6, 5)


def _burn_and_fail(h: Hand, burner: int) -> None:
    """The seat to lead leads KK; every seat offered a burn declines but ``burner``, who burns with AA
    and, holding no joker, fails when he must lead (诈烧); every other seat asked passes."""
    act(h, "KK")
    while h.mode != LEAD and not h.is_over:
        act(h, "burn AA" if (h.mode == BURN and h.turn == burner) else "pass")


def test_s4_art6_third_fourth_and_fifth_burn_failures_are_siké_sanké_erké() -> None:
    """第六条 “如果烧牌失败，本局内不能再出牌，结束时自动记为“大落”。再有其他失败者依次记为“二落”、“四科”、
    “三科”、“二科”。” Five burns fail in turn; each failed burner's opposite keeps his 够级 (第十条 names only
    头科's opposite 无头), so he may still burn, and the next failure can happen."""
    h = pos(S4, ["KKKKAA5", "AA5", "KKAA5", "AA5", "KKKK5", "AA5"], point=ALL_OPEN)
    for n, burner in enumerate([1, 3, 5, 2, 0], start=1):
        _burn_and_fail(h, burner)
        assert [e.seat for e in events(h, "burn_fail")] == [1, 3, 5, 2, 0][:n]
        assert not events(h, "no_head") and not any(h.no_head)
    assert h.is_over
    names = S4.rules.places_names
    assert [names[h.places[s] - 1] for s in (1, 3, 5, 2, 0)] == ["大落", "二落", "四科", "三科", "二科"]
    assert h.places[4] == 1  # the one seat left in play


def test_s4_art10_failed_burners_opposite_is_not_no_head_and_stays_bound() -> None:
    """第十条 “头科产生后，其对头的够级对象不复存在，称“无头”” — a failed burn makes no 头科: the burner's
    opposite keeps the 够级 binding with nobody left to answer him as the opposite, so only a burner may take
    his 够级 set (第五条 “除“烧牌”或“无头”外，只有对头才有资格上牌”)."""
    h = pos(S4, ["QQQ8", "KKK66", "55", "97", "QQQJ7", "AAA6"], point=ALL_OPEN)
    act(h, "QQQ")
    assert (h.turn, h.mode) == (1, BURN)
    act(h, "burn KKK")
    pass_until_lead(h)
    assert events(h, "burn_fail")[-1].seat == 1 and h.turn == 2
    assert not h.no_head[4] and not events(h, "no_head")
    act(h, "5", "pass", "J", "pass", "pass", "pass")  # seat 4 wins the round with J
    assert (h.turn, h.mode) == (4, LEAD)
    act(h, "QQQ")
    assert (h.turn, h.mode) == (5, BURN)  # not an answer in turn: seat 4's 够级 set is bound
    assert "burn AAA" in legal(h) and "AAA" not in legal(h)
    act(h, "pass")
    assert (h.turn, h.mode) == (4, LEAD)  # nobody is left to answer it as the opposite: it stood


def test_s4_art10_only_toukes_opposite_is_no_head() -> None:
    """第十条 “头科产生后，其对头的够级对象不复存在，称“无头”” — not the 二科's opposite."""
    h = pos(S4, ["K", "55", "66", "QQQ5", "A", "88"])
    act(h, "K")
    assert [e.seat for e in events(h, "no_head")] == [3]
    h = pos(S4, [OUT, "55", "66", "QQQ5", OUT, "88"], leader=1, out=[0, 4])
    assert h.no_head == [False, False, False, True, False, False]  # seat 1, 二科's opposite, keeps his head


def test_s4_art9_no_three_dalu_before_play_leaves_the_opposite_bound() -> None:
    """第九条 (买三) “牌中没有3者，算做大落” and 第十条: a seat placed 大落 before play is not 头科, so his opposite
    is not 无头; his 够级 sets are bound, and only a burner may take them."""
    setup = HandSetup(placed={0: 6})
    h = Hand(S4, [list(counts_of(x)) for x in ["", "KKK5", "55", "QQQ7", "AAA5", "66"]], 3, setup=setup)
    assert not h.no_head[3] and not events(h, "no_head")
    h.point[4] = Point.OPEN
    act(h, "QQQ")
    assert (h.turn, h.mode) == (4, BURN)


def test_s4_no_head_when_left_play_keeps_how_older_copies_play() -> None:
    """``play.no_head_when: left_play`` (the ``legacy`` value: rules copied before the option existed play on
    as then): a failed burner's opposite becomes 无头, so after two failures no burn can be offered."""
    v = S4.replace(play={"no_head_when": "left_play"})
    h = pos(v, ["KKKKAA5", "AA5", "KKAA5", "AA5", "KKKK5", "AA5"], point=ALL_OPEN)
    _burn_and_fail(h, 1)
    assert h.no_head[4] and events(h, "no_head")[-1].seat == 4
    _burn_and_fail(h, 3)
    assert h.no_head[0]
    act(h, "KK")  # seat 4 is 无头: anyone answers his 够级 set in order, and nobody may burn it
    assert h.mode == FOLLOW


# -- 第八条 开点 ----------------------------------------------------------------------------------


def test_s4_art8_pure_gouji_then_4_opens() -> None:
    """“纯够级牌开点。开点方可发4，不发4者，视为没有开点。”"""
    h = pos(S4, ["QQQ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, "QQQ")
    pass_until_lead(h)
    act(h, "44")
    assert events(h, "open_point")[-1].seat == 0
    assert h.observation(0).point[0] == "open"


def test_s4_art8_fours_after_pure_set_stood_need_not_be_the_next_lead() -> None:
    """第八条 “纯够级牌开点。开点方可发4，不发4者，视为没有开点。” The text names no order: KK stands, then 55
    stands, then 44 opens (``open_point.four_when: any_time``).  Under S0's “下一张打出4” (``next_lead``) the 55
    lead spoils it: the 44 closes the point while AA is held, and opens only as 自然点 once it is not."""
    s0_order = S4.replace(open_point={"four_when": "next_lead"})
    cases = [
        (S4, "KK5544AA3", "open_point"),
        (S4, "KK55443", "open_point"),
        (s0_order, "KK5544AA3", "point_closed"),
        (s0_order, "KK55443", "natural_point"),
    ]
    for v, hand, want in cases:
        h = pos(v, [hand, "6", "6", "6", "6", "6"])
        act(h, "KK")
        pass_until_lead(h)
        act(h, "55")
        pass_until_lead(h)
        act(h, "44")
        assert [e.type for e in events(h, "open_point", "natural_point", "point_closed")] == [want]
        assert (h.point[0] == 2) == (want != "point_closed")  # opened, but for the closed point


@pytest.mark.parametrize("gouji", ["QQQ+SJ", "QQ2"])
def test_s4_art8_joker_or_two_set_does_not_open(gouji: str) -> None:
    """“以下够级牌不能算是开点：（一）有大、小花的牌不开点；…（三）贴2的够级牌不开点。”"""
    h = pos(S4, ["QQQQQQ2SJ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, gouji)  # seat 0 still holds a pure 够级 set, so this is no 自然点 either
    pass_until_lead(h)
    assert h.turn == 0
    act(h, "44")
    assert not events(h, "open_point")
    assert events(h, "point_closed")[-1].seat == 0


def test_s4_art8_single_does_not_open() -> None:
    """“（二）单张不开点” — with a 2×1 threshold a single 2 is 够级 but still does not open."""
    v = S4.replace(gouji={"thresholds": {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 1}})
    assert v.rules.is_gouji(parse_set("2")) and not v.rules.is_pure_gouji(parse_set("2"))
    h = pos(v, ["24455", LOW, LOW, "J", LOW, LOW])
    act(h, "2")
    pass_until_lead(h)
    act(h, "44")
    assert not events(h, "open_point")


def test_s4_art8_4s_carry_nothing() -> None:
    """“4为点牌，出牌时不挂花、不贴钱。”"""
    h = pos(S4, ["442SJ", LOW, LOW, LOW, LOW, LOW])
    assert {"4", "44"} <= legal(h)
    assert not {a for a in legal(h) if a.startswith("4") and len(a) > 2}
    illegal(h, "44+SJ", "set_form")
    illegal(h, "442", "set_form")


def test_s4_art8_4_before_opening_gives_up_the_point() -> None:
    """“没开点先发4者视为自动放弃开点（即使发出部分4，也算放弃开点）。”"""
    h = pos(S4, ["QQQ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, "4")
    assert events(h, "point_closed")[-1].seat == 0
    pass_until_lead(h)
    act(h, "QQQ")
    pass_until_lead(h)
    act(h, "4")
    assert not events(h, "open_point")


def test_s4_art8_4_played_as_an_answer_gives_up_the_point() -> None:
    """“没开点先发4者视为自动放弃开点” — also a 4 played on someone's set."""
    h = pos(S4, ["55", "44QQQ", LOW, LOW, LOW, LOW], table="3", owner=0)
    # a single 3 on the table; seat 1 answers it with a 4
    act(h, "4")
    assert events(h, "point_closed")[-1].seat == 1


def test_s4_art8_natural_point() -> None:
    """“没有可开点牌视为自然点，发4后开点（在头科二科走出来前），即为“无级免点”。”"""
    h = pos(S4, ["4456789", LOW, LOW, LOW, LOW, LOW])
    act(h, "44")
    e = events(h, "natural_point")[-1]
    assert e.seat == 0 and h.observation(0).point[0] == "open"
    # a player who could form a pure 够级 set is not a 自然点
    h = pos(S4, ["44QQQ", LOW, LOW, LOW, LOW, LOW])
    act(h, "44")
    assert not events(h, "natural_point") and events(h, "point_closed")


def test_s4_art8_no_opening_after_toukeerke_out() -> None:
    """“头科二科出来后不可开点”"""
    h = pos(S4, ["QQQ4455", OUT, LOW, "JJJ", OUT, LOW], out=[1, 4])
    act(h, "QQQ")
    pass_until_lead(h)
    assert h.turn == 0
    act(h, "44")
    assert not events(h, "open_point")


def test_s4_art8_opening_on_erke_last_set_round() -> None:
    """“但接二科的底牌可以开点。” Seat 1 goes out 二科 on QQQ; seat 4 takes that round with KKK and
    opens with 4 on the next lead."""
    h = pos(S4, ["55", "QQQ", "66", OUT, "KKK4477", "88"], leader=1, out=[3])
    act(h, "QQQ")
    assert [e.seat for e in events(h, "finish")] == [1]
    # 四人乱缠 has not started: only the opposite (seat 4) and the 无头 seat 0 may answer
    assert h.turn == 4
    act(h, "KKK")
    pass_until_lead(h)
    assert h.turn == 4 and "free_for_all" in types(h)
    act(h, "44")
    assert events(h, "open_point")[-1].seat == 4


def test_s4_art22_dadian_opposite_of_touke_not_opened() -> None:
    """第二十二条 打点 “头科产生前，其够级牌一次未活…则头科的对头称为“不开点”。如头科的够级牌也一次未活，
    则头科亦不开点”"""
    h = pos(S4, ["K", "55", "66", "77", "88", "99"], point={3: "none", 1: "open"})
    act(h, "K")
    closed = {e.seat for e in events(h, "point_closed")}
    assert closed == {0, 3}
    h = pos(S4, ["K", "55", "66", "77", "88", "99"], point={0: "open", 3: "open"})
    act(h, "K")
    assert not events(h, "point_closed")


def test_s4_art22_dadian_spares_a_seat_whose_pure_set_stood() -> None:
    """第二十二条(一) “头科产生前，其够级牌一次未活，即未用够级方式取得过发牌权，则头科的对头称为“不开点”” with
    第八条 “纯够级牌开点。开点方可发4”: seat 3's pure KK stood (``pending``) before seat 0 goes out 头科; its 够级
    lived, so 打点 closes only seat 0, and seat 3 may still open with its 4s."""
    h = pos(S4, ["K", "55", "66", "KK447", "88", "99"], leader=3)
    act(h, "KK")
    pass_until_lead(h)
    assert (h.turn, h.point[3]) == (3, 1)  # pending
    h = pos(S4, ["K", "55", "66", "447", "88", "99"], point={3: "pending"})
    act(h, "K")
    assert {e.seat for e in events(h, "point_closed")} == {0}
    assert h.point[3] == 1


# -- 第九条 憋3, 底牌; 第十条 无头; 第十一条 四人乱缠 ---------------------------------------------------


def test_s4_art9_bie3() -> None:
    """第九条 “每个玩家出的最后一手牌的牌点必须都是3，不是最后一手牌时不许出3。” and 第二十三条 憋3
    “3牌不能拆开出，也不能贴钱或挂花。”"""
    h = pos(S4, ["3332SJ", LOW, LOW, LOW, LOW, LOW])
    assert not {a for a in legal(h) if a.startswith("3")}
    illegal(h, "333", "bie3")
    illegal(h, "333+SJ", "set_form")
    illegal(h, "3332", "set_form")
    h = pos(S4, ["333", LOW, LOW, LOW, LOW, LOW])
    assert legal(h) == {"333"}
    illegal(h, "33", "bie3")


def test_s4_art9_dipai_free_for_all_after_the_round() -> None:
    """第九条 底牌 “并不是出现四人打牌马上就开始“四人乱缠”，“头科”或“二科”的底牌，除对头外，过牌者在此轮中均不可再出牌。”"""
    h = pos(S4, [OUT, "55", "66T", "77J", "88", "99"], leader=1, out=[0])
    act(h, "55")  # seat 1 goes out 二科
    assert "free_for_all" not in types(h) and not h.ffa
    act(h, "pass", "77")  # seat 2 passes; seat 3 answers
    seen = []
    while h.mode != LEAD:
        seen.append(h.turn)
        act(h, "pass")
    assert seen == [4, 5]  # seat 2 passed and stays out of this round
    assert "free_for_all" in types(h) and h.ffa
    assert h.turn == 3


def test_s4_art22_2_no_opening_after_erke() -> None:
    """第二十二条 打点 “（二）二科产生前，包括二科在内的五人，凡够级牌一次未活者，均视为不开点。” and 第八条
    “头科二科出来后不可开点”: when the round of 二科's last set is over, every player still in who has not
    opened is closed; a player who opened stays open."""
    h = pos(S4, [OUT, "55", "66T", "77J", "88", "99"], leader=1, out=[0], point={4: "open"})
    act(h, "55", "pass", "77", "pass", "pass")
    assert h.ffa
    assert {e.seat for e in events(h, "point_closed")} == {2, 3, 5}
    assert h.observation(4).point[4] == "open"


def test_s4_art10_no_head() -> None:
    """第十条 “头科产生后，其对头的够级对象不复存在，称“无头”。其他持牌人按发牌对无头者所发的任何牌都可灭之，
    无头者对其他持牌者亦行使同样的职权。”"""
    h = pos(S4, ["K", "55", "66", "QQQ5", "KKK", "88"])
    act(h, "K")
    assert events(h, "no_head")[-1].seat == 3
    # anyone beats the 无头 player's 够级 set, in order
    h = pos(S4, [OUT, "55", "66", "QQQ5", "KKK", "88"], leader=3, out=[0])
    act(h, "QQQ")
    assert (h.turn, h.mode) == (4, FOLLOW) and "KKK" in legal(h)
    # and the 无头 player beats anyone's 够级 set without burning
    h = pos(S4, [OUT, "QQQ5", "66", "KKK5", "88", "99"], leader=1, out=[0])
    act(h, "QQQ")
    assert (h.turn, h.mode) == (3, FOLLOW) and "KKK" in legal(h)
    act(h, "pass")
    assert h.turn == 4  # the opposite


def test_s4_art11_free_for_all() -> None:
    """第十一条 “头科、二科产生后，其余四人不再按够级、过牌、让牌、烧牌等规则进行，称“四人乱缠”。四人乱缠，也应按顺序发牌”"""
    h = pos(S4, ["QQQ55", OUT, "KKK", "AAA", OUT, "KK"], out=[1, 4], point=ALL_OPEN)
    assert h.ffa
    act(h, "QQQ")
    assert (h.turn, h.mode) == (2, FOLLOW)  # no burn, no 够级: the next seat answers
    act(h, "pass", "pass", "pass")
    assert (h.turn, h.mode) == (0, LEAD)
    # passers come back; nobody yields
    h = pos(S4, ["5566", OUT, "997", "TJ", OUT, "88"], out=[1, 4])
    act(h, "55", "pass")  # seat 2 passes
    assert h.turn == 3 and "yield" not in legal(h)  # seat 3 faces his opposite's set
    act(h, "pass", "88", "pass")  # seat 5 answers; seat 0 passes
    assert (h.turn, h.mode) == (2, FOLLOW) and "99" in legal(h)


def test_s4_art13_jiefeng_by_consent() -> None:
    """第十三条 接风 “持牌人对上家的底牌可暂不上牌而申请由自己重新发牌，称“申请接风”。如其余持牌人均同意，
    则申请人就获得重新发牌的权力，即“接风”。”"""
    h = pos(S4, ["55", "6677", "88", "99", "TT", "JJ"])
    act(h, "55")
    assert (h.turn, "jiefeng" in legal(h)) == (1, True)
    act(h, "jiefeng")
    assert h.mode == CONSENT and h.turn == 2
    act(h, "agree", "agree", "agree", "agree")
    e = events(h, "jiefeng")[-1]
    assert (e.seat, e.other) == (1, 0)
    assert (h.turn, h.mode) == (1, LEAD)


def test_s4_art13_jiefeng_refused() -> None:
    """“如其余持牌人均同意…” — one refusal and the requester answers the last set as usual."""
    h = pos(S4, ["55", "6677", "88", "99", "TT", "JJ"])
    act(h, "55", "jiefeng", "agree", "refuse")
    assert (h.turn, h.mode) == (1, FOLLOW)
    assert "jiefeng" not in legal(h) and "66" in legal(h)
    assert not events(h, "jiefeng")


def test_s4_art13_jiefeng_only_by_the_next_player() -> None:
    """“持牌人对上家的底牌”: only the player right after the one who went out may ask."""
    h = pos(S4, ["55", "6677", "88", "99", "TT", "JJ"])
    act(h, "55", "pass")
    assert h.turn == 2 and "jiefeng" not in legal(h)
    illegal(h, "jiefeng", "jiefeng")


# -- 第十五条 清 -----------------------------------------------------------------------------------


def test_s4_art15_qing_keeps_the_player_in_play() -> None:
    """第十五条 清贡 “最后走3之前的一手牌被人打过（即使后来接风走脱，也算），称为清贡（又称闷贡）” — the 清 player
    stays in play (he may still 接风 and go out): event ``men``, and he is still asked in the round."""
    h = pos(S4, ["553", "66J", "7", "8", "9", "T"])
    act(h, "55", "66")
    e = events(h, "men")[-1]
    assert (e.seat, e.other) == (0, 1)
    assert h.active[0]
    act(h, "pass", "pass", "pass", "pass")
    assert (h.turn, h.mode) == (0, FOLLOW)  # still asked in the round


def _qing_then_jiefeng_out(variant: object) -> Hand:
    """Seat 0 is 清 (55 beaten by 66), plays on, and goes out last of all through 接风 on seat 5's T."""
    h = pos(variant, ["553", "66", "7", "8", "9J", "T"])  # type: ignore[arg-type]
    act(h, "55", "66", "pass", "pass", "pass", "pass", "pass")
    act(h, "7", "pass", "pass", "pass", "pass", "8", "pass", "pass", "pass", "9", "T", "jiefeng", "agree", "3")
    assert h.is_over
    return h


def test_s4_art15_qing_is_placed_last_even_if_he_goes_out_later() -> None:
    """第十五条 “最后走3之前的一手牌被人打过（即使后来接风走脱，也算）…如持牌者被清，应当时亮牌（俗称为先清为落）”.
    先清为落: seat 0 is 清, plays on, goes out through 接风 after seat 5, and is still 大落
    (``men.penalty: bottom_plays_on``); he takes no 科 (no ``finish`` event).  Under ``tribute_only`` (the earlier
    reading) the same play makes him 二落."""
    h = _qing_then_jiefeng_out(S4)
    assert h.places == [6, 1, 2, 3, 5, 4]
    assert 0 not in [e.seat for e in events(h, "finish")] and h.men_seats == [(0, 1)]
    old = _qing_then_jiefeng_out(S4.replace(men={"penalty": "tribute_only"}))
    assert old.places[0] == 5


def test_s4_art15_qing_shows_his_hand_to_every_seat() -> None:
    """第十五条 “如持牌者被清，应当时亮牌”: from the 清 on, every seat's observation holds seat 0's hand (and so
    its size); before it, nobody else sees either."""
    h = pos(S4, ["553", "66J", "7", "8", "9", "T"])
    act(h, "55")
    assert all(h.observation(k).shown[0] == () and h.observation(k).cards_left[0] == -1 for k in range(1, 6))
    act(h, "66")
    for k in range(6):
        obs = h.observation(k)
        assert obs.shown[0] == tuple(counts_of("3")) and obs.cards_left[0] == 1
    assert h.observation(2).shown[1] == () and h.observation(2).cards_left[1] == -1
    no_show = pos(S4.replace(men={"show_hand": False}), ["553", "66J", "7", "8", "9", "T"])
    act(no_show, "55", "66")
    assert no_show.observation(2).shown[0] == ()


def test_s4_art13_refused_jiefeng_blocks_only_that_last_set() -> None:
    """第十三条 接风 “持牌人对上家的底牌可暂不上牌而申请由自己重新发牌” — the right belongs to each 底牌:
    a refusal on one player's last set does not take it away on the next player's."""
    h = pos(S4, ["55", "66993", "77", "88JJ3", "TT993", "QQ993"], leader=0)
    act(h, "55")  # seat 0 goes out
    act(h, "jiefeng")
    act(h, "refuse")  # seat 2 refuses seat 1's request
    act(h, "66")
    act(h, "77")  # seat 2 goes out on its last set
    assert h.turn == 3 and "jiefeng" in [str(a) for a in h.legal_actions()]


def test_s4_art22_head_rights_never_reopen_a_closed_point() -> None:
    """第二十二条(三) “其对头也须在二科产生前够死级三把方算开点” is a further condition, not a replacement:
    第八条 “没开点先发4者视为自动放弃开点” still holds for the 革命 player's opposite."""
    from gouji_rules.game.actions import PASS
    from gouji_rules.game.cards import parse_hand
    from gouji_rules.play.engine import HandSetup

    setup = HandSetup(
        placed={3: 4}, geming=frozenset({3}), closed=frozenset({3}), head_rights={0: 1}, open_by_rights=frozenset({0})
    )
    hands = [list(parse_hand(x)) for x in ["4KKQQQ3", "5563", "6673", "", "7783", "8893"]]
    h = Hand(S4, hands, 0, setup=setup)
    for lead in ("4", "KK"):  # a 4 led before opening gives the point up; then the right is used
        h.apply(Play(parse_set(lead)), 0)
        while not h.is_over and h.owner == 0 and h.turn != 0:
            h.apply(PASS)
    assert h.point[0] == 3  # closed
    assert not events(h, "open_point")
