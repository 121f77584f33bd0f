"""The compiled core and its pure twin behave alike for the people who use them.

The README's test command runs these against the pure (editable) install; ``.ci/run`` runs the
whole suite again against the mypyc-compiled wheel.  A compiled class has no ``__dict__`` and its
``__new__`` runs ``__init__``, so pickling, ``copy`` and subclassing need saying explicitly: a
bot author pickles positions for worker processes, deep-copies a hand to search, and writes
``class MyBot(GreedyAgent)``.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from gouji_rules.catalog import dagang, dianshaomenla
from gouji_rules.game.actions import (
    AGREE,
    KOU,
    PASS,
    Burn,
    Choose,
    Consent,
    Declare,
    Forfeit,
    Give,
    Head,
    Play,
    parse_action,
)
from gouji_rules.game.rng import SplitMix64
from gouji_rules.play.agents import GreedyAgent, RandomAgent
from gouji_rules.play.engine import Hand, HandSetup
from gouji_rules.play.match import Match


def _midway(seed: int = 3, decisions: int = 40) -> Hand:
    hand = Hand.deal(dagang(), seed=seed)
    agents = [RandomAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(seed, s)
    for _ in range(decisions):
        hand.apply(agents[hand.turn].act(hand.observation(), hand.legal_actions()))
    return hand


def _finish(hand: Hand, seed: int = 9) -> list[str]:
    agents = [GreedyAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(seed, s)
    while not hand.is_over:
        hand.apply(agents[hand.turn].act(hand.observation(), hand.legal_actions()))
    return [f"{s}:{a}" for s, a in hand.actions]


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy", "method"])
def test_a_copied_hand_plays_on_exactly_as_the_original_and_alone(how: str) -> None:
    hand = _midway()
    before = list(hand.actions)
    twin = {
        "pickle": lambda: pickle.loads(pickle.dumps(hand)),
        "copy": lambda: copy.copy(hand),
        "deepcopy": lambda: copy.deepcopy(hand),
        "method": hand.copy,
    }[how]()
    assert twin.observation() == hand.observation()
    assert list(twin.legal_actions()) == list(hand.legal_actions())
    played = _finish(twin)
    assert hand.actions == before  # the original did not move
    assert played == _finish(hand)
    assert twin.record() == hand.record()


def test_variants_rules_observations_and_setups_pickle_to_equal_values() -> None:
    for v in (dagang(), dianshaomenla()):
        back = pickle.loads(pickle.dumps(v))
        assert back == v
        rules = pickle.loads(pickle.dumps(v.rules))
        assert rules.name == v.rules.name and rules.thresholds == v.rules.thresholds
        assert copy.deepcopy(v.rules) is v.rules  # compiled rules are an immutable value
    obs = _midway().observation()
    back_obs = pickle.loads(pickle.dumps(obs))
    assert back_obs.hand == obs.hand and back_obs.events == obs.events and back_obs.cards_left == obs.cards_left
    setup = HandSetup(placed={1: 1}, geming=frozenset({1}), huiwu_team=0)
    assert pickle.loads(pickle.dumps(setup)) == setup == copy.deepcopy(setup)


def test_every_action_kind_pickles_and_copies_to_itself() -> None:
    hand = _midway()
    actions = [
        *hand.legal_actions(),
        parse_action("KK+SJ"),
        parse_action("burn AA+BJ"),
        PASS,
        KOU,
        AGREE,
        Consent(False),
        Declare("xuandian"),
        Choose("buy4"),
        Head(True),
        Give(12),
        Forfeit("three cards of two ranks"),
    ]
    kinds = {type(a) for a in actions}
    assert {Play, Burn, Consent, Declare, Choose, Head, Give, Forfeit} <= kinds
    for a in actions:
        assert pickle.loads(pickle.dumps(a)) == a
        assert copy.deepcopy(a) == a and copy.copy(a) == a
    legal = hand.legal_actions()
    assert list(pickle.loads(pickle.dumps(legal))) == list(legal)


def test_a_pickled_agent_makes_the_same_choices() -> None:
    hand = _midway()
    for kind in (RandomAgent, GreedyAgent):
        agent = kind()
        agent.start_hand(11, hand.turn)
        twin = pickle.loads(pickle.dumps(agent))
        obs, legal = hand.observation(), hand.legal_actions()
        assert [str(twin.act(obs, legal)) for _ in range(5)] == [str(agent.act(obs, legal)) for _ in range(5)]
    rng = SplitMix64(7)
    rng.next_u64()
    assert pickle.loads(pickle.dumps(rng)).next_u64() == rng.next_u64()


def test_a_bot_author_may_subclass_the_shipped_agents() -> None:
    class Cautious(GreedyAgent):
        """Greedy, but never passes when it may play."""

        name = "cautious"

        def act(self, obs, legal):  # type: ignore[no-untyped-def]
            choice = super().act(obs, legal)
            plays = [a for a in legal if isinstance(a, Play)]
            return plays[0] if choice == PASS and plays else choice

    class Counting(RandomAgent):
        def __init__(self) -> None:
            super().__init__()
            self.asked = 0

        def act(self, obs, legal):  # type: ignore[no-untyped-def]
            self.asked += 1
            return super().act(obs, legal)

    hand = Hand.deal(dagang(), seed=5)
    agents = [Cautious(), Counting(), Cautious(), Counting(), Cautious(), Counting()]
    for s, a in enumerate(agents):
        a.start_hand(5, s)
    while not hand.is_over:
        hand.apply(agents[hand.turn].act(hand.observation(), hand.legal_actions()))
    assert sum(a.asked for a in agents if isinstance(a, Counting)) == sum(1 for s, _ in hand.actions if s % 2 == 1)


def test_a_match_copies_and_pickles() -> None:
    m = Match(dagang(), 2, 2)
    agents = [GreedyAgent() for _ in range(6)]
    for s, a in enumerate(agents):
        a.start_hand(2, s)
    for _ in range(30):
        m.apply(agents[m.turn].act(m.observation(), m.legal_actions()))
    assert not m.is_over
    for twin in (copy.deepcopy(m), pickle.loads(pickle.dumps(m)), m.copy()):
        assert list(twin.legal_actions()) == list(m.legal_actions())
        assert twin.observation() == m.observation()
