"""Club entry and the engine agree: every outcome the engine produces can be entered, and what it
cannot produce is refused with the rule and its clause (issue 10 item 3)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.errors import IllegalAction
from gouji_rules.play.agents import make_agent
from gouji_rules.play.engine import Hand
from gouji_rules.play.match import HandSummary, play_match
from gouji_rules.play.outcome import Outcome, can_outcome, settle_outcome, verify_outcome
from gouji_rules.variant import Variant


def outcome_of(summary: HandSummary, following: HandSummary | None) -> Outcome:
    """The facts a scorer would type in for a hand the engine played."""
    rec = summary.record
    pre = rec["pre_play"]
    redeals = [i for i, e in enumerate(pre) if e["type"] == "redeal"]
    pre = pre[redeals[-1] + 1 :] if redeals else pre
    play: list[dict[str, Any]] = rec["events"]
    waived: list[tuple[int, int]] = []
    if following is not None:
        waived = [(e["other"], e["seat"]) for e in following.record["pre_play"] if e["type"] == "waive"]
    return Outcome(
        places=summary.tribute_places,
        opened=[s for s, p in enumerate(rec["opened"]) if p == "open"],
        burns=[(e["seat"], e["other"]) for e in play if e["type"] == "burn_success"],
        burn_fails=[e["seat"] for e in play if e["type"] == "burn_fail"],
        men=[(e["seat"], e["other"]) for e in play if e["type"] == "men"],
        geming=[e["seat"] for e in pre if e["type"] == "geming"],
        chongdian=[(e["seat"], e["value"] == 1) for e in pre if e["type"] == "chongdian"],
        declarations=[(e["type"], e["seat"]) for e in pre if e["type"] in ("xuandian", "mingdian", "yudian")],
        waived=waived,
        no_three=[e["seat"] for e in pre if e["type"] == "no_three"],
    )


@pytest.mark.parametrize("variant", [dagang(), dianshaomenla()], ids=["dagang", "dianshaomenla"])
def test_every_outcome_the_engine_plays_can_be_entered(variant: Variant) -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        agent = "greedy" if seed % 2 else "random"
        m = play_match(variant, seed, 4, [make_agent(agent) for _ in range(6)])
        for i, summary in enumerate(m.summaries):
            following = m.summaries[i + 1] if i + 1 < len(m.summaries) else None
            o = outcome_of(summary, following)
            settlement, debts = settle_outcome(variant.rules, o)  # raises if the entry were refused
            assert settlement.scores == summary.scores
            if following is None:
                assert debts == [d for d in summary.debts if (d.giver, d.receiver) not in o.waived]
            for name, facts in (
                ("burn", o.burns),
                ("burn_fail", o.burn_fails),
                ("men", o.men),
                ("geming", o.geming),
                ("chongdian", o.chongdian),
                ("declare", o.declarations),
                ("waive", o.waived),
            ):
                seen[name] += len(facts)
    assert seen["burn"] and seen["men"] and seen["declare"], seen  # the facts that matter were exercised


def test_s0_burn_may_take_a_teammates_set_in_play_and_at_entry() -> None:
    """S0 五、烧牌: 烧牌可以烧队友 (and S4 第六条: 当任意一人发够级牌时). Seat 0 plays KK; its teammate
    seat 2, who has opened, is offered ``burn AA`` by the engine, so a club may enter that burn."""
    for variant in (dagang(), dianshaomenla()):
        hands = ["3 3 5", "5 6 7 3", "A A 3 9", "8 8 3", "9 9 3", "T T 3"]
        h = Hand.position(variant, hands, table="K K", owner=0, point={2: "open"})
        assert h.turn == 2 and "burn AA" in [str(a) for a in h.legal_actions()]
        o = Outcome(places=[2, 3, 1, 4, 5, 6], opened=[2], burns=[(2, 0)])
        verify_outcome(variant.rules, o)


def test_s4_art6_no_burn_of_the_opposite_nor_before_opening() -> None:
    rules = dagang().rules
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=[1, 2, 3, 4, 5, 6], opened=[0], burns=[(0, 3)]))
    assert e.value.rule == "burn_who" and "第六条" in e.value.clause
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=[1, 2, 3, 4, 5, 6], burns=[(0, 1)]))
    assert e.value.rule == "burn_open_point" and "S4 第六条" in e.value.clause
    # S0 五、烧牌 does not ask for an opened point
    verify_outcome(dianshaomenla().rules, Outcome(places=[1, 2, 3, 4, 5, 6], burns=[(0, 1)]))


def test_s4_art15_s0_men_a_seat_is_not_men_by_itself() -> None:
    """闷 / 清 is another seat beating one's set (S4 第十五条, S0 六、闷与被闷): the entry is refused by the same
    Rules.verify_men the engine asks, with its rule id."""
    with pytest.raises(IllegalAction) as e:
        verify_outcome(dagang().rules, Outcome(places=[1, 2, 3, 4, 5, 6], men=[(4, 4)]))
    assert (e.value.rule, e.value.clause) == ("men_self", "S4 第十五条; S0 六、闷与被闷")
    assert e.value.message.startswith("men 4:4: a seat cannot 闷 itself")


def test_teammate_burn_refused_where_the_variant_says_so() -> None:
    from gouji_rules.dsl import load_text

    v = load_text("extends: dagang\nname: noteam\nburn:\n  teammate: false\n")
    assert not can_outcome(v.rules, Outcome(places=[2, 3, 1, 4, 5, 6], opened=[2], burns=[(2, 0)]))


def test_s4_art21_geming_placed_fourth_or_third_and_two_void_the_hand() -> None:
    rules = dagang().rules
    verify_outcome(rules, Outcome(places=[1, 2, 3, 4, 5, 6], geming=[3]))
    verify_outcome(rules, Outcome(places=[1, 4, 2, 5, 3, 6], geming=[4]))  # teammates 0 and 2 took 头科, 二科: 三科
    for bad in (Outcome(places=[4, 2, 3, 1, 5, 6], geming=[3]), Outcome(places=[1, 2, 3, 4, 5, 6], geming=[3, 1])):
        with pytest.raises(IllegalAction) as e:
            verify_outcome(rules, bad)
        assert e.value.rule in ("geming_place", "geming_void") and e.value.clause == "S4 第二十一条"
    with pytest.raises(IllegalAction, match="no 革命"):
        verify_outcome(dianshaomenla().rules, Outcome(places=[1, 2, 3, 4, 5, 6], geming=[3]))


def test_s0_burn_fail_ranks_below_men() -> None:
    """S0: 诈烧判定的拉客严重于被闷判定为的拉客 (诈烧 is last, the 闷 victim second last)."""
    rules = dianshaomenla().rules
    verify_outcome(rules, Outcome(places=[1, 2, 3, 4, 6, 5], burn_fails=[4], men=[(5, 2)]))
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=[1, 2, 3, 4, 5, 6], burn_fails=[4], men=[(5, 2)]))
    assert e.value.rule == "placed_bottom"


def test_s0_chongdian_player_is_fourth() -> None:
    rules = dianshaomenla().rules
    verify_outcome(rules, Outcome(places=[1, 2, 3, 4, 5, 6], chongdian=[(3, True)]))
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=[4, 2, 3, 1, 5, 6], chongdian=[(3, True)]))
    assert e.value.rule == "chongdian_place" and e.value.clause == "S0 十、冲点"


def test_three_chongdian_players_where_the_variant_plays_on_place_the_first_two_only() -> None:
    """S0 十、冲点 redeals at three 冲点 players; a variant that plays on (``chongdian.redeal_at: 4``)
    gives the places of two (四客, 小拉), and the engine places the first two declared: a third 冲点
    seat's place is not one of them to check."""
    rules = dianshaomenla().replace(chongdian={"redeal_at": 4}).rules
    verify_outcome(rules, Outcome(places=[4, 1, 2, 5, 6, 3], chongdian=[(0, True), (3, False), (5, False)]))
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=[5, 1, 2, 4, 6, 3], chongdian=[(0, True), (3, False), (5, False)]))
    assert e.value.rule == "chongdian_place"


def _finish(order: str) -> list[int]:
    places = [0] * 6
    for i, s in enumerate(order.split()):
        places[int(s)] = i + 1
    return places


def test_s4_art15_qing_victim_placed_sanke_is_refused_with_buy_no_three_on() -> None:
    """第十五条 「如持牌者被清，应当时亮牌（俗称为先清为落）」: a 清 seat is placed from the bottom, also where
    第九条 (买三) 「牌中没有3者，算做大落」 places a seat last too (``buy.no_three: last``, dagang): the check
    always applies.  Seat 0, 清 by seat 1, entered at 三科 with nobody entered as without a 3, is refused."""
    rules = dagang().rules
    assert rules.no_three_places_last()
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=_finish("1 3 0 5 2 4"), men=[(0, 1)]))
    assert (e.value.rule, e.value.clause) == ("placed_bottom", "S4 第十五条; S0 六、闷与被闷")
    verify_outcome(rules, Outcome(places=_finish("1 3 2 5 4 0"), men=[(0, 1)]))  # 大落: accepted


def test_s4_art9_no_three_dalu_before_play_then_qing_erlu() -> None:
    """第九条 (买三) 「牌中没有3者，算做大落」 and 第十五条 「先清为落」, both due last: the seat without a 3 was
    placed before play, so it keeps 大落 and the 清 seat, placed during play, takes the lowest place left
    (二落).  ``no_three`` names the seat, placed as the buy_check phase places it.  (Seats 0 and 5 are of
    different teams, so 第十四条(六)'s 商定大落 cannot swap them.)"""
    rules = dagang().rules
    verify_outcome(rules, Outcome(places=_finish("1 3 2 4 0 5"), men=[(0, 1)], no_three=[5]))
    for bad in (
        Outcome(places=_finish("1 3 2 4 5 0"), men=[(0, 1)], no_three=[5]),  # the 清 seat below the no-3 seat
        Outcome(places=_finish("1 3 0 4 2 5"), men=[(0, 1)], no_three=[5]),  # the 清 seat still not at the bottom
    ):
        with pytest.raises(IllegalAction) as e:
            verify_outcome(rules, bad)
        assert e.value.rule in ("placed_bottom", "no_three_place")
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=_finish("1 3 2 4 5 0"), no_three=[5]))  # 大落 is the no-3 seat
    assert (e.value.rule, e.value.clause) == ("no_three_place", "S4 第九条 (买三)")
    with pytest.raises(IllegalAction) as e:
        verify_outcome(rules, Outcome(places=_finish("1 3 2 4 0 5"), men=[(5, 1)], no_three=[5]))
    assert e.value.rule == "men"  # a seat placed before play is 清 by nobody
    with pytest.raises(IllegalAction) as e:
        verify_outcome(dianshaomenla().rules, Outcome(places=_finish("1 3 2 4 0 5"), no_three=[5]))
    assert e.value.rule == "no_three"  # S0 七、买3买4: 3每个人必须有一张 — nobody is placed for it
