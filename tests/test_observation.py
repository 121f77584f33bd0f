"""What a seat may know (issue 11): hand sizes only where announced, private cards only to those who saw them.

S0 opening 「不能上报或者询问任何人的手牌数」; S4 第二十三条 「实行憋3打法，不报牌」 and 第十一条 「四人乱缠，也应按顺序发牌，
按规定报牌和扣牌」; S0 八、进贡 「所有进贡的牌全部明置」 and its 大王 call (a card taken unseen); S4 第十五条 亮牌.
The property test at the end: changing anything a seat may not know never changes its observation.
"""

from __future__ import annotations

import random

import pytest

from gouji_rules.actions import Choose
from gouji_rules.cards import NRANKS, parse_set
from gouji_rules.engine import BURN, Hand
from gouji_rules.events import Event
from gouji_rules.match import Match
from gouji_rules.observe import UNKNOWN, witnesses
from gouji_rules.settlement import Debt
from gouji_rules.variant import Variant

from .conftest import S0, S4, act, pos
from .test_match import drive, rig_deal, rig_debts

FILL = "3 4 5 6"


def test_s0_opening_nobody_is_told_hand_sizes() -> None:
    """S0 opening “每个人看每个人自己的牌…不能上报或者询问任何人的手牌数”: a seat sees only its own size."""
    h = Hand.deal(S0, seed=5)
    for s in range(6):
        left = h.observation(s).cards_left
        assert left[s] == sum(h.hands[s])
        assert all(left[k] == UNKNOWN for k in range(6) if k != s)


def test_s4_art23_no_announcing_under_bie3() -> None:
    """S4 第二十三条 “实行憋3打法，不报牌”: dagang (played 憋3) announces no sizes, in 四人乱缠 neither."""
    h = pos(S4, ["55", "6", "7", "8", "9", "T"], out=[1, 4])
    assert h.ffa
    assert h.observation(0).cards_left == (2, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)


def test_s4_art11_announce_in_free_for_all_option() -> None:
    """S4 第十一条 “四人乱缠，也应按顺序发牌，按规定报牌和扣牌” read alone (``play.announce: free_for_all``): sizes
    are told once 四人乱缠 has begun, not before; ``always`` tells them at any time."""
    v = S4.replace(play={"announce": "free_for_all"})
    before = pos(v, ["55", "6", "7", "8", "9", "T"])
    assert before.observation(0).cards_left == (2, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN)
    during = pos(v, ["55", "9", "7", "8", "9", "T"], out=[1, 4])
    assert during.observation(0).cards_left == tuple(during.cards_left())
    always = pos(S4.replace(play={"announce": "always"}), ["55", "6", "7", "8", "9", "T"])
    assert always.observation(3).cards_left == (2, 1, 1, 1, 1, 1)


def _call_then_waive(monkeypatch: pytest.MonkeyPatch, variant: Variant) -> Match:
    """Seat 1 owes seat 4 a 点贡 and calls with its 大王 (S0); then seat 1 is asked to waive seat 5's 落贡."""
    rig_debts(monkeypatch, [Debt("point", 1, 4, 1), Debt("place", 5, 1, 1)])
    hands = [FILL, "3 4 7 BJ", FILL, FILL, "3 4 K K", "3 4 8 2"]
    rig_deal(monkeypatch, [FILL] * 6, hands, first=[0, 0])
    m = Match(variant.replace(match={"first_leader": "random"}), 1, 2)
    drive(m, {"point_call": Choose("call")}, until=lambda m: len(m.summaries) == 1 and m.phase == "waive")
    assert m.phase == "waive" and m.turn == 1
    return m


def test_s0_sec8_card_taken_unseen_is_known_only_to_the_two_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 八、进贡 (点贡): “当对门摸牌时可以随时叫停，将对门要摸的这张牌作为还贡收入自己的牌里” — the card is taken unseen:
    its rank (the ``point_call`` value) is in the observation of the caller and his opposite only."""
    m = _call_then_waive(monkeypatch, S0.replace(chongdian={"enabled": False}))
    (taken,) = [e.value for e in m.events if e.type == "point_call"]
    assert taken > 0
    for seat in range(6):
        (call,) = [e for e in m.observation(seat).events if e.type == "point_call"]
        assert call.value == (taken if seat in (1, 4) else 0), seat


def test_s0_sec8_tribute_cards_are_shown_to_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """S0 八、进贡 “所有进贡的牌全部明置” (``tribute.shown``): every seat sees the 大王 paid as 点贡."""
    m = _call_then_waive(monkeypatch, S0.replace(chongdian={"enabled": False}))
    for seat in range(6):
        paid = [str(e.cards) for e in m.observation(seat).events if e.type == "tribute"]
        assert paid == ["BJ"], seat


def test_s4_art14_tribute_cards_seen_by_giver_and_receiver_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """S4 says nothing of showing tribute (⚑ ``tribute.shown: false``): the card paid is seen by the two seats."""
    m = _call_then_waive(monkeypatch, S4.replace(geming={"enabled": False}))
    for seat in range(6):
        (paid,) = [e for e in m.observation(seat).events if e.type == "tribute"]
        assert (str(paid.cards) if paid.cards else None) == ("BJ" if seat in (1, 4) else None), seat


# -- the property: hidden information never changes an observation --------------------------------------


def _reshuffle_hidden(h: Hand, seat: int, rng: random.Random, keep_sizes: bool) -> Hand:
    """A copy of ``h`` in which the cards of every other seat whose hand is not shown are dealt anew among them."""
    from .test_properties import copy_hand

    g = copy_hand(h)
    hidden = [s for s in range(6) if s != seat and s not in g.shown]
    pool = [r for s in hidden for r in range(NRANKS) for _ in range(g.hands[s][r])]
    rng.shuffle(pool)
    sizes = [sum(g.hands[s]) for s in hidden]
    if not keep_sizes and len(hidden) > 1:
        cut = sorted(rng.randint(0, len(pool)) for _ in range(len(hidden) - 1))
        sizes = [b - a for a, b in zip([0, *cut], [*cut, len(pool)], strict=True)]
    i = 0
    for s, n in zip(hidden, sizes, strict=True):
        g.hands[s] = [0] * NRANKS
        for r in pool[i : i + n]:
            g.hands[s][r] += 1
        i += n
    return g


@pytest.mark.parametrize(
    "variant",
    [S4, S0, S4.replace(play={"announce": "free_for_all"}), S4.replace(play={"announce": "always"})],
    ids=["dagang", "dianshaomenla", "announce_ffa", "announce_always"],
)
def test_hidden_information_never_changes_an_observation(variant: Variant) -> None:
    """Over 40 random hands, at random moments: dealing the other seats' hidden cards anew (sizes too, unless the
    variant announces them now) leaves every seat's observation exactly as it was."""
    from gouji_rules.observe import announced

    rng = random.Random(11)
    checked = 0
    for seed in range(40):
        h = Hand.deal(variant, seed=seed)
        while not h.is_over:
            if rng.random() < 0.08:
                seat = rng.randrange(6)
                keep = announced(h.rules, h.ffa)
                other = _reshuffle_hidden(h, seat, rng, keep)
                assert other.observation(seat) == h.observation(seat), (seed, seat)
                checked += 1
            legal = h.legal_actions()
            h.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_hidden_events_never_change_a_match_observation() -> None:
    """Between hands: changing other seats' hands, and the hidden part of events a seat did not witness (the rank
    of a card taken unseen, unshown tribute cards), leaves its observation as it was."""
    rng = random.Random(3)
    checked = 0
    for variant in (S4, S0):
        m = Match(variant, seed=7, hands=3)
        while not m.is_over:
            if m.phase != "play":
                seat = rng.randrange(6)
                before = m.observation(seat)
                saved_hands = [list(x) for x in m.hands_now]
                saved_events = list(m.events)
                for s in range(6):
                    if s != seat:
                        rng.shuffle(m.hands_now[s])
                m.events[:] = [
                    e
                    if (w := witnesses(m.rules, e)) is None or seat in w
                    else Event(e.type, e.seat, parse_set("Q"), e.other, rng.randrange(1, 9))
                    for e in m.events
                ]
                assert m.observation(seat) == before
                m.hands_now[:] = saved_hands
                m.events[:] = saved_events
                checked += 1
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    assert checked > 20


def test_s4_art15_shown_hand_is_not_hidden_information() -> None:
    """The 清 player's hand, once shown, is in every observation: changing it changes what the others see."""
    h = pos(S4, ["553", "66J", "7", "8", "9", "T"])
    act(h, "55", "66")
    before = h.observation(2)
    h.hands[0][parse_set("3").rank] += 1
    assert h.observation(2).shown != before.shown and h.observation(2).cards_left[0] == 2


def test_s0_opening_a_declined_burn_offer_tells_nobody_what_the_seat_holds() -> None:
    """S0 opening 「每个人看每个人自己的牌」 and 五、烧牌: only a seat that can burn is offered the burn, so
    turning it down must leave no trace others see: the table's events are the same whether seat 1 held
    the burning AA+小王 (offered, declined) or not (never asked)."""
    could = pos(S0, ["KK 5", "AA SJ 6", "7", "8", "9", "T"], leader=0)
    could_not = pos(S0, ["KK 5", "66 7 8", "7", "8", "9", "T"], leader=0)
    act(could, "KK")
    act(could_not, "KK")
    assert could.turn == 1 and could.mode == BURN  # seat 1 is asked to burn, and declines
    act(could, "pass")
    for h in (could, could_not):
        while h.turn != 3:  # the opposite answers the 够级 set
            act(h, "pass")
    seen = [(e.type, e.seat, e.value) for e in could.observation(3).events]
    assert seen == [(e.type, e.seat, e.value) for e in could_not.observation(3).events]
