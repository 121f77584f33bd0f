"""Strength on duplicate deals: team A (seats 0, 2, 4) against team B (1, 3, 5), cards swapped.

Each deal is played twice, the second time with every hand moved one seat on, so each team holds
both sides' cards and the luck of the deal cancels.  A pair's value is team A's mean score
difference per hand over its two seatings; the figure is the mean over pairs with a 95% interval
(mean ± 1.96·s/√n).  With ``match_hands`` K each pair is a match of K hands played twice, every
hand's cards moved one seat on the second time (``play_match(rotate=1)``), so what one hand leaves
the next (tribute, 点贡, who leads) counts in the figure; its value is still per hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..compare.work import play
from ..game.rng import derive
from ..game.seats import SEATS, side
from ..play.agents import Agent
from ..play.match import play_match
from ..variant import Variant


@dataclass(frozen=True)
class Strength:
    """A strength figure: team A − team B per hand over ``pairs`` deal pairs, with its 95% interval."""

    pairs: int
    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.mean:+.2f} [{self.low:+.2f}, {self.high:+.2f}] over {self.pairs} pairs"


def interval(values: Sequence[float]) -> Strength:
    """Mean and 95% interval of pair values."""
    n = len(values)
    if not n:
        return Strength(0, 0.0, 0.0, 0.0)
    mean = sum(values) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return Strength(n, mean, mean - half, mean + half)


def play_pair(
    variant: Variant, seed: int, team_a: Callable[[], Agent], team_b: Callable[[], Agent], match_hands: int = 0
) -> float:
    """Team A's mean score difference per hand over the deal's (or the match's) two seatings."""
    total = 0.0
    for rotate in (0, 1):
        agents = [team_a() if side(s) == 0 else team_b() for s in range(SEATS)]
        if match_hands:
            m = play_match(variant, seed, match_hands, agents, rotate=rotate)
            diff, hands = m.scores[0] - m.scores[1], max(1, len(m.summaries))
        else:
            sc = play(variant, seed, rotate, agents).scores()
            diff, hands = sc[0] - sc[1], 1
        total += diff / hands / 2
    return total


def pair_seed(seed: int, i: int) -> int:
    """The seed of deal pair ``i``: the same pairs for every agent measured with ``seed``."""
    return derive(seed, i)


def duplicate(
    variant: Variant,
    pairs: int,
    seed: int,
    team_a: Callable[[], Agent],
    team_b: Callable[[], Agent],
    progress: Callable[[int, Strength], None] | None = None,
    match_hands: int = 0,
) -> Strength:
    """Team A − team B in points per hand over ``pairs`` deal pairs (deal ``i`` from ``derive(seed, i)``),
    or over ``pairs`` match pairs of ``match_hands`` hands."""
    values: list[float] = []
    for i in range(pairs):
        values.append(play_pair(variant, pair_seed(seed, i), team_a, team_b, match_hands))
        if progress is not None:
            progress(i + 1, interval(values))
    return interval(values)
