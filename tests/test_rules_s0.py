"""Rule tests for S0, 《点烧闷拉够级规则明细》 (variant ``dianshaomenla``).

Each test is named after the clause it checks and quotes it.  Seats 0-5 are in order of
play; the opposite of s is s+3; teams are even vs odd seats.
"""

from __future__ import annotations

import pytest

from gouji_rules.game.cards import CardSet, parse_set
from gouji_rules.play.engine import BURN, FOLLOW, KOU_MODE, LEAD

from .conftest import S0, act, events, illegal, legal, pass_until_lead, pos, types

LOW = "5"  # a hand that beats nothing interesting
OUT = "9"  # placeholder hand for seats listed in ``out=`` (see test_position_out_seats_with_empty_hands)


# -- 挂 / 贴 -----------------------------------------------------------------------------------


def test_s0_gua_two_adds_count_not_strength() -> None:
    """“如果一套牌挂了2则增加了牌的数量但并不增加它的大小 … 3个K挂2个2=5个K”"""
    assert parse_set("KKK22") == CardSet(10, 3, 2)
    h = pos(S0, ["55", LOW, LOW, "AAAAAQQQQQKKKKK", LOW, LOW], table="KKK22", owner=0)
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert legal(h) == {"AAAAA", "pass"}
    illegal(h, "KKKKK", "beat")
    illegal(h, "QQQQQ", "beat")
    # and five K made of three K and two 2s do not beat five A
    h = pos(S0, ["55", LOW, LOW, "KKK22", LOW, LOW], table="AAAAA", owner=0)
    assert legal(h) == {"pass"}
    illegal(h, "KKK22", "beat")


def test_s0_gua_king_with_two_small_jokers_needs_three_higher_and_two_big() -> None:
    """“3个K挂2个小王等于具有2个小王大小的5个K，也就是需要至少3个比K大的牌和2张大王才能管住。”"""
    h = pos(S0, ["55", LOW, LOW, "AAA2SJBJBJQQQQQ", LOW, LOW], table="KKK+SJSJ", owner=0)
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert legal(h) == {"AAA+BJBJ", "AA2+BJBJ", "AA+SJBJBJ", "A2+SJBJBJ", "pass"}
    illegal(h, "AAA2+SJ", "beat")  # no 大王
    illegal(h, "AAAA+BJ", "cards_in_hand")  # seat 3 holds three A
    h2 = pos(S0, ["55", LOW, LOW, "AAAA2BJ", LOW, LOW], table="KKK+SJSJ", owner=0)
    assert legal(h2) == {"pass"}  # one 大王 is not enough
    illegal(h2, "AAAA+BJ", "beat")
    illegal(h2, "AAA2+BJ", "beat")


def test_s0_gua_small_joker_gives_small_joker_strength() -> None:
    """“挂小王则会在增加牌数量的基础上赋予小王的大小”: a 小王 does not beat a hung 小王."""
    h = pos(S0, ["55", LOW, LOW, "AASJSJ", LOW, LOW], table="KK+SJ", owner=0)
    assert legal(h) == {"pass"}
    illegal(h, "AA+SJ", "beat")


def test_s0_gua_big_joker_gives_big_joker_strength() -> None:
    """“挂大王也会赋予大王的大小”: nothing is bigger than 大王, so a 大王-hung set stands (no 扣牌 in S0)."""
    h = pos(S0, ["55", LOW, LOW, "AABJBJ", LOW, LOW], table="KK+BJ", owner=0)
    assert (h.turn, h.mode) == (0, LEAD)
    assert not events(h, "kou")


# -- 够级, 过牌, 让牌 ---------------------------------------------------------------------------


def test_s0_sec5_gouji_only_opposite_answers() -> None:
    """“够级牌正常情况下只能对门互相打”: others may only burn; the opposite answers directly."""
    h = pos(S0, ["QQQ55", "KKK", "KKK", "AAA", "KKK", "KKK"])
    act(h, "QQQ")
    assert (h.turn, h.mode) == (1, BURN)
    illegal(h, "KKK", "gouji_opposite_only")
    act(h, "pass", "pass", "pass", "pass")
    assert (h.turn, h.mode) == (3, FOLLOW)
    assert "AAA" in legal(h)
    illegal(h, "burn AAA", "burn_when")


def test_s0_single_two_is_gouji_in_dianshaomenla() -> None:
    """Thresholds are missing from the S0 extract; ``dianshaomenla`` uses 2×1 like most texts
    (GLOSSARY: “2×2 (S4) or 2×1 (most others)”).  A single 2 may only be burned or answered by the
    opposite."""
    assert S0.rules.is_gouji(parse_set("2"))
    h = pos(S0, ["2", "SJ", LOW, "SJ", LOW, LOW], table="2", owner=0)
    assert (h.turn, h.mode) == (1, BURN)


def test_s0_pass_is_final_for_the_round() -> None:
    """“其他人的牌不想管或者管不住则选择过牌，过牌之后再不能要。”"""
    h = pos(S0, ["55JJ", "88", "99", "TT", "66JJ", "77"])
    act(h, "55", "pass", "pass", "pass", "66")
    # seat 4 (seat 1's opposite) took the round: seat 1 has passed and stays out
    seen = []
    while h.mode != LEAD:
        seen.append(h.turn)
        act(h, "pass")
    assert seen == [5, 0]
    assert h.turn == 4


def test_s0_yield_after_two_upstream_players_pass() -> None:
    """“当对门的牌自己的上手2家都不要时可以选择“让牌”即暂时不要等下手2家决定要不要之后自己再出牌或过牌。”"""
    h = pos(S0, ["55", "66", "66", "77", "33", "44"])
    act(h, "55", "pass")
    assert "yield" not in legal(h)  # seat 2 is not seat 0's opposite
    act(h, "pass")
    assert h.turn == 3 and "yield" in legal(h)
    act(h, "yield")
    assert events(h, "yield")[-1].other == 0
    assert h.turn == 4
    act(h, "pass", "pass")
    assert h.turn == 3
    assert legal(h) == {"77", "pass"}  # no second yield; same count only
    act(h, "77")
    assert h.owner == 3


def test_s0_yield_only_for_the_opposite_and_not_on_gouji() -> None:
    """“当对门的牌…可以选择让牌”: only on the opposite's set.  On a 够级 set nobody but the opposite
    may answer, so a yield would hand the decision to no one (engine reading: no yield there)."""
    h = pos(S0, ["55QQQ", "66", "66", "77AAA", "33", "44"])
    act(h, "QQQ")
    assert h.turn == 3
    assert "yield" not in legal(h)
    illegal(h, "yield", "yield")


# -- 无头, 四人乱缠, 接风 ------------------------------------------------------------------------


def test_s0_no_head_when_opposite_goes_out() -> None:
    """“若一个人对门走后，该人被称为“没头”他不存在够级，但他可以随意打其他人的够级牌。”"""
    h = pos(S0, ["55", "66", "77", "K", "88", "99"], leader=3)
    act(h, "K")
    assert events(h, "no_head")[0].seat == 0
    assert h.no_head[0]


def test_s0_no_head_only_when_opposite_went_out_not_when_he_was_men() -> None:
    """“若一个人对门走后，该人被称为“没头”” — 走 is “走（出完牌）”: a seat 闷'd (六、“被闷的人直接被判定为拉客”)
    did not go out, so his opposite keeps his 够级, bound with nobody to answer it as the opposite: only a
    burn takes it (五、“刚才讲过够级牌正常情况下只能对门互相打”)."""
    h = pos(S0, ["553", "66T9", "8", "JQQQ8", "KKK9", "7"])
    act(h, "55", "66")  # seat 0 had only his 3 left: 闷, placed last at once
    assert events(h, "men")[-1].seat == 0 and not h.active[0]
    assert not h.no_head[3] and not events(h, "no_head")
    act(h, "pass", "pass", "pass", "pass")  # seat 1's 66 stands
    act(h, "T", "pass", "J", "pass", "pass", "pass")  # seat 3 wins the round with J (seat 2 passed: locked out)
    assert h.turn == 3
    act(h, "QQQ")
    assert (h.turn, h.mode) == (4, BURN)  # seat 3's QQQ is bound: KKK may only burn it
    assert legal(h) == {"burn KKK", "pass"}


def test_s0_no_head_when_went_out_is_not_the_older_reading() -> None:
    """``play.no_head_when: left_play`` (the legacy value) made the 闷'd seat's opposite 没头 as well."""
    v = S0.replace(play={"no_head_when": "left_play"})
    h = pos(v, ["553", "66T9", "8", "JQQQ8", "KKK9", "7"])
    act(h, "55", "66")
    assert h.no_head[3] and events(h, "no_head")[-1].seat == 3


def test_s0_no_head_player_answers_any_gouji_set() -> None:
    """“他可以随意打其他人的够级牌”"""
    h = pos(S0, ["KKK5", "QQQ5", LOW, OUT, LOW, LOW], leader=1, out=[3])
    assert h.no_head[0]
    act(h, "QQQ")
    order = []
    while h.turn != 0:
        order.append(h.turn)
        act(h, "pass")
    assert order == [4]  # the opposite first, then the 没头 seat
    assert h.mode == FOLLOW and "KKK" in legal(h)
    act(h, "KKK")
    assert not events(h, "burn")


def test_s0_no_head_player_has_no_gouji() -> None:
    """“他不存在够级”: anyone may answer the 没头 player's 够级 set, in order of play."""
    h = pos(S0, ["QQQ5", "KKK5", LOW, OUT, LOW, LOW], leader=0, out=[3])
    act(h, "QQQ")
    assert (h.turn, h.mode) == (1, FOLLOW)
    assert "KKK" in legal(h)


def test_s0_free_for_all_starts_when_second_player_goes_out() -> None:
    """“走（出完牌）2个人后不存在够级，过牌之后也可以继续要”: at once, in the same round."""
    h = pos(S0, ["QQQ9", "5", "6T", OUT, "K7", "AQQQ"], leader=1, out=[3])
    act(h, "5")
    assert types(h)[-1] == "free_for_all" and h.ffa
    act(h, "pass", "7", "pass", "pass")  # seat 2 passes; seat 4 plays; seats 5 and 0 pass
    assert (h.turn, h.mode) == (2, FOLLOW)  # the passer is back in the round
    assert "T" in legal(h)


def test_s0_no_gouji_after_two_are_out() -> None:
    """“走（出完牌）2个人后不存在够级”: anyone answers a 够级 set, in order of play."""
    h = pos(S0, ["QQQ9", OUT, "KKK", "AAA", OUT, "KKK"], leader=0, out=[1, 4])
    assert h.ffa and not any(h.no_head[s] for s in (0, 2, 3, 5))
    act(h, "QQQ")
    assert (h.turn, h.mode) == (2, FOLLOW)
    assert "KKK" in legal(h)


def test_s0_jiefeng_next_seat_leads_after_last_three() -> None:
    """“3必须最后出，当一人出完3后，若在场所有人都不要，则由走的人下家直接出牌，被称为“接风（靠风）”。”"""
    h = pos(S0, ["3", "55", "66", "77", "88", "99"])
    act(h, "3")
    assert events(h, "finish")[0].seat == 0
    pass_until_lead(h)
    assert (h.turn, h.mode) == (1, LEAD)
    e = events(h, "jiefeng")[-1]
    assert (e.seat, e.other) == (1, 0)


# -- 憋3 ------------------------------------------------------------------------------------


def test_s0_threes_must_go_last() -> None:
    """“3必须最后出”"""
    h = pos(S0, ["3355", LOW, LOW, LOW, LOW, LOW])
    assert legal(h) == {"5", "55"}
    illegal(h, "33", "bie3")
    illegal(h, "3", "bie3")
    h = pos(S0, ["33", LOW, LOW, LOW, LOW, LOW])
    assert legal(h) == {"33"}


# -- 名次 --------------------------------------------------------------------------------------


def test_s0_places_and_scores_by_finish_order() -> None:
    """“第一个出完牌的称为头客 … 头客可记作+2分，2客记作+1分，三客四客记作0分，小拉记作-1分，大拉记作-2分”"""
    h = pos(S0, ["5", "6", "7", "8", "9", "T"])
    while not h.is_over:
        acts = legal(h)
        plays = sorted(a for a in acts if a not in ("pass", "yield"))
        act(h, plays[0] if h.mode == LEAD or not plays else "pass")
    assert h.places == [1, 2, 3, 4, 5, 6]
    assert h.scores() == (2 + 0 - 1, 1 + 0 - 2)


# -- 开点 --------------------------------------------------------------------------------------


def test_s0_sec4_pure_gouji_stands_then_4_opens() -> None:
    """“不含有2、王的够级牌称为“纯够级牌”，当纯够级牌“站住”（管不了）时，下一张打出4则为开点。”"""
    h = pos(S0, ["QQQ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, "QQQ")
    pass_until_lead(h)
    assert h.turn == 0
    act(h, "44")
    e = events(h, "open_point")[-1]
    assert e.seat == 0 and str(e.cards) == "44"
    assert h.observation(0).point[0] == "open"


def test_s0_sec4_next_lead_must_be_the_4() -> None:
    """“下一张打出4则为开点”: leading something else first loses that chance."""
    h = pos(S0, ["QQQ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, "QQQ")
    pass_until_lead(h)
    act(h, "55")
    pass_until_lead(h)
    act(h, "44")
    assert not events(h, "open_point")
    assert h.observation(0).point[0] != "open"


@pytest.mark.parametrize("gouji", ["QQ2", "QQQ+SJ"])
def test_s0_sec4_set_with_two_or_joker_is_not_pure(gouji: str) -> None:
    """“不含有2、王的够级牌称为纯够级牌”: a set with a 2 or a 王 in it does not open."""
    h = pos(S0, ["QQQ2SJ4455", LOW, LOW, "JJJ", LOW, LOW])
    act(h, gouji)
    pass_until_lead(h)
    assert h.turn == 0
    act(h, "44")
    assert not events(h, "open_point")
    assert h.observation(0).point[0] != "open"


def test_s0_sec4_set_of_twos_is_not_pure() -> None:
    """“不含有2、王的够级牌称为“纯够级牌”” — 22 contains 2s, so it cannot open the point."""
    h = pos(S0, ["224455", LOW, LOW, "JJ", LOW, LOW])
    act(h, "22")
    pass_until_lead(h)
    assert h.turn == 0
    act(h, "44")
    assert not events(h, "open_point")


# -- 烧牌 --------------------------------------------------------------------------------------


def test_s0_sec5_burn_ahead_of_opposite_in_play_order() -> None:
    """“当你的非对门打出够级牌时，若你能要下来…则称为烧牌”; S0 gives no team priority, so burners are
    asked in order of play, teammates included (“烧牌可以烧队友”), all before the opposite."""
    h = pos(S0, ["QQQ55", "KKK", "KKK", "AAA", "KKK", "KKK"])
    act(h, "QQQ")
    order = []
    while h.mode == BURN:
        order.append(h.turn)
        act(h, "pass")
    assert order == [1, 2, 4, 5]
    assert (h.turn, h.mode) == (3, FOLLOW)


def test_s0_sec5_burn_needs_no_open_point() -> None:
    """S0 sets no 开点 condition on 烧牌 (unlike S4 第六条)."""
    h = pos(S0, ["QQQ55", "KKK66", LOW, LOW, LOW, LOW], point={1: "none"})
    act(h, "QQQ")
    assert (h.turn, h.mode) == (1, BURN)
    act(h, "burn KKK")
    e = events(h, "burn")[-1]
    assert (e.seat, e.other, str(e.cards)) == (1, 0, "KKK")
    assert h.burning == 1


def test_s0_sec5_burn_teammate() -> None:
    """“特别说明一下，烧牌可以烧队友”"""
    h = pos(S0, ["QQQ55", LOW, "KKK+SJ", LOW, LOW, LOW])
    act(h, "QQQ")
    assert (h.turn, h.mode) == (2, BURN)
    act(h, "burn KKK")
    assert h.burning == 2 and h.burn_victim == 0


def test_s0_sec5_burn_after_pass_forbidden() -> None:
    """“过牌之后则不能烧牌。”"""
    h = pos(S0, ["555JJ", "KKK66", "QQQ7", LOW, "KKK", LOW])
    act(h, "555", "pass", "QQQ")  # seat 1 passed; seat 2 answers with a 够级 set
    asked = []
    while h.mode == BURN:
        asked.append(h.turn)
        act(h, "pass")
    assert 1 not in asked and asked == [4]
    assert h.turn == 5


def test_s0_sec5_burner_hangs_a_joker_on_every_set() -> None:
    """“要下来之后的每一套牌都能挂王（除最后一张3）”"""
    h = pos(S0, ["QQQ55", "KKK66SJ3", LOW, LOW, LOW, LOW])
    act(h, "QQQ", "burn KKK")
    pass_until_lead(h)
    assert (h.turn, h.mode) == (1, LEAD)
    assert legal(h) == {"66+SJ", "6+SJ", "SJ"}
    illegal(h, "66", "burn_joker")
    act(h, "66+SJ")
    pass_until_lead(h)
    assert legal(h) == {"3"}  # the last 3 needs no joker
    act(h, "3")
    assert events(h, "burn_success")[-1].seat == 1


def test_s0_sec5_counter_burn() -> None:
    """“烧牌途中由于一定够级所以其他人不能干扰，若干扰则称为“反烧”，即终止烧牌人的烧牌行为改为自己烧牌。”"""
    h = pos(S0, ["QQQ55", "KKK66", "AAA77", LOW, LOW, LOW])
    act(h, "QQQ", "burn KKK")
    assert (h.turn, h.mode) == (2, BURN)
    act(h, "burn AAA")
    e = events(h, "counter_burn")[-1]
    assert (e.seat, e.other) == (2, 1)
    assert h.burning == 2


def test_s0_sec5_break_burn() -> None:
    """“烧牌时，烧牌者的对门可以要，要下来则称为“解烧”，解烧直接终止烧牌行为。”"""
    h = pos(S0, ["QQQ55", "KKK66", LOW, LOW, "AAA77", LOW])
    act(h, "QQQ", "burn KKK")
    while h.turn != 4:
        act(h, "pass")
    assert h.mode == FOLLOW
    act(h, "AAA")
    e = events(h, "break_burn")[-1]
    assert (e.seat, e.other) == (4, 1)
    assert h.burning == -1


def test_s0_sec5_zhashao_is_placed_last() -> None:
    """“即便是王不够烧牌所需的数量也可以烧牌，但如果没能每一套都挂王则烧牌失败，称为诈烧，诈烧者直接被判定为拉客。”"""
    h = pos(S0, ["QQQ5", "KKK66", "7", "8", "9", "T"])
    act(h, "QQQ")
    assert "burn KKK" in legal(h)  # no joker left for later sets, and still allowed
    act(h, "burn KKK")
    pass_until_lead(h)
    assert events(h, "burn_fail")[-1].seat == 1
    assert not h.active[1]
    assert h.turn == 2
    while not h.is_over:
        acts = sorted(a for a in legal(h) if a != "pass")
        act(h, acts[0] if h.mode == LEAD else "pass")
    assert h.places[1] == 6


# -- 闷 --------------------------------------------------------------------------------------


def test_s0_men_ranks_last() -> None:
    """“当有一人出牌出到只剩一张3时，他之前的那一套牌如果让人要了，则该人被“闷”，被闷的人直接被判定为拉客”
    and “被闷者由于被闷的瞬间已经被判定名次，所以不能靠风。”"""
    h = pos(S0, ["553", "66", "7", "8", "9", "T"])
    act(h, "55", "66")
    e = events(h, "men")[-1]
    assert (e.seat, e.other) == (0, 1)
    assert not h.active[0]
    pass_until_lead(h)
    assert h.turn == 2  # seat 1 went out; seat 0, already placed, cannot lead (靠风)
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert h.places[0] == 6
    assert h.hands[0] == list(parse_set("3").card_counts().get(r, 0) for r in range(16))


def test_s0_men_several_in_order() -> None:
    """“但如果有多人被闷则按顺序记录名次。例如，有3人被闷，则第一个被闷的为拉客，第二个被闷的为二拉，第三个被闷的为四客”"""
    h = pos(S0, ["553", "663", "773", "88", "9", "T"])
    act(h, "55", "66", "77", "88")
    assert [e.seat for e in events(h, "men")] == [0, 1, 2]
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert h.places == [6, 5, 4, 1, 2, 3]


def test_s0_sec5_zhashao_ranks_below_men() -> None:
    """“诈烧判定的拉客严重于被闷判定为的拉客，即若同一局游戏当中既有人诈烧又有人被闷则诈烧者为拉客，被闷者为二拉。”
    The 闷 comes first here, so order alone would make the 闷 player 拉客."""
    h = pos(S0, ["663", "77QQQ", "KKK88", "9", "T", "J"])
    act(h, "66", "77")
    assert events(h, "men")[-1].seat == 0
    pass_until_lead(h)
    assert h.turn == 1
    act(h, "QQQ")  # seat 1 goes out
    assert (h.turn, h.mode) == (2, BURN)
    act(h, "burn KKK")
    pass_until_lead(h)
    assert events(h, "burn_fail")[-1].seat == 2
    while not h.is_over:
        act(h, sorted(legal(h))[0] if h.mode == LEAD else "pass")
    assert h.places[2] == 6
    assert h.places[0] == 5


# -- positions -------------------------------------------------------------------------------


def test_position_out_seats_with_empty_hands() -> None:
    """``Hand.position(out=[3, 1])``: “Seats in out have gone out, in that order” — also when their
    hands are empty (the natural way to write a seat that has gone out)."""
    h = pos(S0, ["55", "", "66", "", "77", "88"], out=[3, 1])
    assert h.finish == [3, 1]
    assert h.no_head[0] and h.no_head[4]


def test_s0_has_no_kou() -> None:
    """S0 has no 扣牌: a dead set simply stands."""
    h = pos(S0, ["55", LOW, LOW, LOW, LOW, LOW], table="K+BJ", owner=0)
    assert h.mode != KOU_MODE


def test_s0_sec6_men_and_the_beater_going_out_in_one_play_both_count() -> None:
    """六、闷与被闷 “被闷的人直接被判定为拉客” — when the set that 闷s the player is also the beater's last,
    both the 闷 and the beater's finish are recorded before the hand ends."""
    h = pos(S0, ["993", "TT", "9", "9", "9", "9"], leader=0, out=[2, 3, 4, 5])
    act(h, "99")
    act(h, "TT")
    assert h.is_over
    assert [e.seat for e in events(h, "men")] == [0]
    assert [e.seat for e in events(h, "finish")][-1] == 1
    assert h.places[1] == 5 and h.places[0] == 6
