"""The compiled core's pure twin: what lets the engine compile with mypyc without changing a game."""

from __future__ import annotations

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
    assert vars(twin).keys() == vars(hand).keys()  # an attribute added to __init__ must be copied too
    assert vars(twin) == vars(hand)
    while not twin.is_over:
        twin.apply(agents[twin.turn].act(twin.observation(), twin.legal_actions()))
    assert not hand.is_over and sum(hand.cards_left()) > sum(twin.cards_left())


def test_editable_install_is_the_pure_build() -> None:
    assert compiled() is False  # the test command's editable install never compiles (setup.py)
