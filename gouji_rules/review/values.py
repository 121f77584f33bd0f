"""What a decision was worth: candidate actions played out over the same worlds, paired.

The worlds are drawn from the reviewed seat's own observation (:func:`gouji_rules.search.sample_world`,
rebuilt by replaying the hand's public events), never from the record's real hidden hands: the review
judges a move by what the seat could know when it moved.  Every candidate is played out in *each*
world by the learned agent in all six seats, so two candidates' values in one world differ only by
the move; the interval of a difference is then taken over the per-world differences (paired), far
narrower than two separate intervals would be, since most of a hand's score is the deal's.

Values are the team's margin (its score less the other team's) in units of the variant's 头科 score
(the largest place score), so 1.0 is the worth of one 头科.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import IllegalAction
from ..game.actions import Action
from ..game.legal import Legal
from ..game.rng import SplitMix64
from ..game.seats import side
from ..play.agents import Agent
from ..play.engine import Hand
from ..play.observe import Observation
from ..search import MAX_TRIES, rebuild, rollout, sample_world

T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131)
"""Student's t, two-sided 95%, for 1 … 15 degrees of freedom; more use :data:`Z95` (t is within 4% of it)."""
Z95 = 1.96


def t95(df: int) -> float:
    """The 95% two-sided quantile of Student's t with ``df`` degrees of freedom (few worlds: wider intervals)."""
    return T95[df - 1] if df <= len(T95) else Z95


@dataclass(frozen=True)
class Interval:
    """A mean over worlds and its 95% interval (``low``/``high`` None with fewer than two worlds)."""

    mean: float
    low: float | None
    high: float | None
    n: int


def interval(xs: Sequence[float]) -> Interval:
    """The mean of ``xs`` and its 95% t-interval."""
    n = len(xs)
    if n == 0:
        return Interval(0.0, None, None, 0)
    mean = sum(xs) / n
    if n < 2:
        return Interval(mean, None, None, n)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = t95(n - 1) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def head_unit(obs: Observation) -> float:
    """The variant's 头科 score (the largest place score), the unit of every value; 1 for rules that
    score no places (then every value is 0 anyway)."""
    unit = max(abs(obs.rules.place_points(p)) for p in range(1, 7))
    return float(unit) if unit else 1.0


def paired_values(
    obs: Observation,
    legal: Legal,
    cands: Sequence[Action],
    players: Sequence[Agent],
    rng: SplitMix64,
    worlds: int,
    seed: int,
) -> list[list[float]]:
    """One row per world that could be rebuilt: each candidate's team margin there, in 头科 units.

    A world whose choices differ from the real ones (a rebuilt hand offering other extras) or where
    a candidate is not legal is dropped whole, so every row pairs all the candidates.  At most
    ``worlds`` rows, from at most ``worlds`` × MAX_TRIES draws.
    """
    team = side(obs.seat)
    unit = head_unit(obs)
    rows: list[list[float]] = []
    for _ in range(worlds * MAX_TRIES):
        if len(rows) >= worlds:
            break
        deal = sample_world(obs, rng)
        world: Hand | None = rebuild(obs, deal) if deal is not None else None
        if world is None or world.legal_actions().extras != legal.extras:
            continue
        row = []
        for a in cands:
            sim = world.copy()
            for s, p in enumerate(players):
                p.start_hand(seed, s)
            try:
                sim.apply(a)
            except IllegalAction:
                break
            rollout(sim, players)
            sc = sim.scores()
            row.append((sc[team] - sc[1 - team]) / unit)
        if len(row) == len(cands):
            rows.append(row)
    return rows


__all__ = ["T95", "Z95", "Interval", "head_unit", "interval", "paired_values", "t95"]
