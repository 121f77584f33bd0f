"""Run hands with agents, count what happened, write hand records.

Statistics are streamed: a run keeps counters, never the hands themselves, so
memory stays flat however many hands are played.  Hand ``i`` of a run with
seed ``S`` is dealt from ``derive(S, i)``, so any subset of hands can be
replayed (or farmed out) and gives the same numbers.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from .agents import Agent, make_agent
from .engine import Hand
from .events import EVENT_IDS
from .rng import derive
from .variant import Variant

SCHEMA_VERSION = 1


def play_hand(variant: Variant, seed: int, agents: list[Agent]) -> Hand:
    """Deal from ``seed`` and let the agents play the hand to its end."""
    hand = Hand.deal(variant, seed)
    for seat, agent in enumerate(agents):
        agent.start_hand(seed, seat)
    while not hand.is_over:
        legal = hand.legal_actions()
        seat = hand.turn
        hand.apply(agents[seat].act(hand.observation(seat), legal))
    return hand


@dataclass
class Stats:
    """Counters over a run of hands."""

    hands: int = 0
    decisions: int = 0
    events: Counter[str] = field(default_factory=Counter)
    places: list[list[int]] = field(default_factory=lambda: [[0] * 6 for _ in range(6)])
    team_points: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, hand: Hand) -> None:
        self.hands += 1
        self.decisions += hand.decisions
        self.events.update(e.type for e in hand.events)
        for seat, place in enumerate(hand.places):
            self.places[seat][place - 1] += 1
        a, b = hand.scores()
        self.team_points[0] += a
        self.team_points[1] += b


def hand_seeds(seed: int, hands: int) -> Iterable[int]:
    return (derive(seed, i) for i in range(hands))


def simulate(
    variant: Variant,
    hands: int,
    seed: int,
    agent_name: str = "random",
    records: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands and return the run's summary (the ``--json`` document)."""
    agents = [make_agent(agent_name) for _ in range(6)]
    stats = Stats()
    start = time.perf_counter()
    for i, hseed in enumerate(hand_seeds(seed, hands)):
        hand = play_hand(variant, hseed, agents)
        stats.add(hand)
        if records is not None:
            records.write(json.dumps(hand.record(), ensure_ascii=False) + "\n")
        if progress is not None:
            progress(i + 1)
    seconds = time.perf_counter() - start
    return summary(variant, seed, agent_name, stats, seconds)


def summary(variant: Variant, seed: int, agent_name: str, stats: Stats, seconds: float) -> dict[str, Any]:
    events = {k: stats.events.get(k, 0) for k in EVENT_IDS if stats.events.get(k, 0)}
    return {
        "schema_version": SCHEMA_VERSION,
        "variant": variant.name,
        "agents": agent_name,
        "hands": stats.hands,
        "seed": seed,
        "decisions": stats.decisions,
        "seconds": round(seconds, 4),
        "hands_per_second": round(stats.hands / seconds, 2) if seconds else None,
        "decisions_per_second": round(stats.decisions / seconds, 1) if seconds else None,
        "events": events,
        "places": {str(seat): counts for seat, counts in enumerate(stats.places)},
        "team_points": stats.team_points,
    }
