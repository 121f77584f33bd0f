"""The compiled core's pure twin: what lets the engine compile with mypyc without changing a game."""

from __future__ import annotations

import os

from gouji_rules.agents import RandomAgent
from gouji_rules.bench import compiled
from gouji_rules.engine import Hand
from gouji_rules.variant import dagang


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
