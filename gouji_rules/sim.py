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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from .game.events import event_ids
from .game.rng import derive
from .play.agents import Agent, make_agent
from .play.engine import Hand

if TYPE_CHECKING:
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
        """Count one finished Hand."""
        self.decisions += hand.decisions
        self.add_result(hand.places, hand.scores(), (e.type for e in hand.events))

    def add_result(self, places: Iterable[int], scores: tuple[int, int], event_types: Iterable[str]) -> None:
        """One finished hand, from a Hand or from a match's hand summary."""
        self.hands += 1
        self.events.update(event_types)
        for seat, place in enumerate(places):
            self.places[seat][place - 1] += 1
        self.team_points[0] += scores[0]
        self.team_points[1] += scores[1]


def write_rules_line(variant: Variant, records: IO[str] | None) -> None:
    """A records file begins with the rules its hands were played under (docs/records.md)."""
    if records is not None:
        from .records import rules_line

        records.write(json.dumps(rules_line(variant), ensure_ascii=False) + "\n")


def hand_seeds(seed: int, hands: int) -> Iterable[int]:
    """The seed of each hand of a run (hand ``i`` is dealt from ``derive(seed, i)``)."""
    return (derive(seed, i) for i in range(hands))


def simulate(
    variant: Variant,
    hands: int,
    seed: int,
    agent_name: str = "random",
    records: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    agents: Sequence[Agent] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands and return the run's summary (the ``--json`` document).

    ``agents``: the six seats' agents (``gouji simulate --agents A,B``), named ``agent_name`` in the
    summary; by default six of ``agent_name``."""
    seats = list(agents) if agents is not None else [make_agent(agent_name) for _ in range(6)]
    stats = Stats()
    start = time.perf_counter()
    write_rules_line(variant, records)
    for i, hseed in enumerate(hand_seeds(seed, hands)):
        hand = play_hand(variant, hseed, seats)
        stats.add(hand)
        if records is not None:
            records.write(json.dumps(hand.record(), ensure_ascii=False) + "\n")
        if progress is not None:
            progress(i + 1)
    seconds = time.perf_counter() - start
    return summary(variant, seed, agent_name, stats, seconds)


def simulate_matches(
    variant: Variant,
    hands: int,
    match_hands: int,
    seed: int,
    agent_name: str = "random",
    records: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
    agents: Sequence[Agent] | None = None,
) -> dict[str, Any]:
    """Play whole matches of ``match_hands`` hands (tribute, declarations, scores carried
    from hand to hand) until ``hands`` hands have been played; ``agents`` as in :func:`simulate`."""
    from .play.match import play_match

    seats = list(agents) if agents is not None else [make_agent(agent_name) for _ in range(6)]
    stats = Stats()
    match_wins = [0, 0, 0]
    start = time.perf_counter()
    write_rules_line(variant, records)
    done = 0
    index = 0
    while done < hands:
        n = min(match_hands, hands - done)
        m = play_match(variant, derive(seed, index), n, seats)
        stats.decisions += m.decisions
        # the phases' own `deal` marks the same deal as each hand's `deal` event: count it once
        stats.events.update(e.type for e in m.all_events if e.type != "deal")
        for s in m.summaries:
            stats.add_result(s.places, s.scores, (e["type"] for e in s.record["events"]))
            if records is not None:
                rec = {"match": index, "hand": s.index, **s.record, "scores": list(s.scores)}
                records.write(json.dumps(rec, ensure_ascii=False) + "\n")
        a, b = m.scores
        match_wins[0 if a > b else 1 if b > a else 2] += 1
        done += len(m.summaries)
        index += 1
        if progress is not None:
            progress(done)
    seconds = time.perf_counter() - start
    out = summary(variant, seed, agent_name, stats, seconds)
    out["matches"] = index
    out["match_hands"] = match_hands
    out["match_results"] = {"team0": match_wins[0], "team1": match_wins[1], "draw": match_wins[2]}
    return out


def summary(variant: Variant, seed: int, agent_name: str, stats: Stats, seconds: float) -> dict[str, Any]:
    """The run's ``--json`` document from its counters."""
    events = {k: stats.events.get(k, 0) for k in event_ids() if stats.events.get(k, 0)}
    events.update((k, n) for k, n in sorted(stats.events.items()) if n and k not in events)  # an extension's own
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
