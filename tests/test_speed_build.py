"""The compiled core's pure twin: what lets the engine compile with mypyc without changing a game."""

from __future__ import annotations

import os

from gouji_rules.bench import compiled
from gouji_rules.catalog import dagang
from gouji_rules.play.agents import RandomAgent
from gouji_rules.play.engine import Hand
from gouji_rules.play.observe import Observation


def test_hand_copy_carries_every_attribute_and_shares_no_state() -> None:
    hand = Hand.deal(dagang(), seed=3)
    agents = [RandomAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(3, s)
    for _ in range(40):
        hand.apply(agents[hand.turn].act(hand.observation(), hand.legal_actions()))
    twin = hand.copy()
    state, twin_state = hand.__getstate__(), twin.__getstate__()  # the instance's attributes, pure or compiled
    assert isinstance(state, dict) and isinstance(twin_state, dict)
    assert twin_state.keys() == state.keys()  # an attribute added to __init__ must be copied too
    assert twin_state == state
    while not twin.is_over:
        twin.apply(agents[twin.turn].act(twin.observation(), twin.legal_actions()))
    assert not hand.is_over and sum(hand.cards_left()) > sum(twin.cards_left())


def test_the_build_is_the_one_asked_for() -> None:
    """The test command's editable install never compiles (setup.py); ``.ci/run`` runs the suite
    again against the compiled wheel with ``GOUJI_EXPECT_COMPILED=1``."""
    assert compiled() is (os.environ.get("GOUJI_EXPECT_COMPILED") == "1")


def test_cover_followers_are_exactly_the_sets_that_beat_the_table() -> None:
    """Cover.followers folds the beat test into the generation (issue 13 item 3); it must list the
    sets of the table's size that ``beats`` accepts, in the generic generator's order."""
    import random

    from gouji_rules.game.cards import NRANKS, CardSet
    from gouji_rules.rules.beat import same_size_followers

    rng = random.Random(5)
    for variant in (dagang(), dagang().replace(sets={"attach_twos": False}), dagang().replace(sets={"dead": []})):
        rules = variant.rules
        for _ in range(3000):
            hand = [rng.choice([0, 0, 1, 2, 3, 4, 6]) for _ in range(NRANKS)]
            r = rng.randrange(NRANKS)
            t = CardSet(
                r,
                rng.randint(1, 5),
                rng.choice([0, 0, 1, 2]) if r < 12 else 0,
                rng.choice([0, 0, 1, 2]) if r < 13 else 0,
                rng.choice([0, 0, 1]) if r < 14 else 0,
                rng.choice([0, 0, 0, 1]) if r < 15 else 0,
            )
            expected = [] if rules.beat.dead(t) else same_size_followers(rules, hand, t, rules.beat.beats)
            assert rules.beat.followers(hand, t) == expected


def test_lead_box_sizes_are_the_boxes_sizes() -> None:
    from gouji_rules.game.legal import box_size

    hand = _midway_hand()
    for s in range(6):
        sizes: list[int] = []
        boxes = hand._lead_boxes(s, sizes)
        assert sizes == [box_size(b) for b in boxes]


def test_shared_sets_and_plays_are_equal_values_and_bounded() -> None:
    from gouji_rules.game import cards
    from gouji_rules.game.actions import Play, play_of
    from gouji_rules.game.cards import CardSet, cardset

    assert cardset(10, 3, 1, 1) == CardSet(10, 3, 1, 1) and cardset(10, 3, 1, 1) is cardset(10, 3, 1, 1)
    assert cardset(1, 300) == CardSet(1, 300)  # beyond any deck: made, not shared
    assert play_of(CardSet(4, 2)) == Play(CardSet(4, 2))
    for i in range(cards.SHARED_MAX + 10):
        cardset(1, i % 250, i // 250 % 250, (i // 62500) % 4)
    assert len(cards._SHARED) <= cards.SHARED_MAX


def test_observation_is_a_value() -> None:
    hand = _midway_hand()
    a, b = hand.observation(), hand.observation()
    assert a == b and hash(a.hand) == hash(b.hand) and a is not b
    assert repr(a).startswith(f"Observation(seat={a.seat}, mode='{a.mode}', hand=")
    match a:
        case Observation(seat, mode):
            assert (seat, mode) == (hand.turn, hand.mode.label)


def _midway_hand() -> Hand:
    hand = Hand.deal(dagang(), seed=11)
    agents = [RandomAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(11, s)
    for _ in range(60):
        hand.apply(agents[hand.turn].act(hand.observation(), hand.legal_actions()))
    return hand
