"""How strong each shipped agent is: its measured edge over ``greedy``, with the interval and the run.

A comparison is only as good as the players in it (greedy bots burn about once in
twelve hands, whatever the burn rule), so ``gouji compare`` says who played and
how strong they are.  Only measured figures go here, each with the command that
measured it: the edge is the agent's team score minus a ``greedy`` team's, points
per hand, on duplicate deals (each deal played with the teams' cards swapped), with
its 95% interval over deal pairs.  An agent or a variant nobody measured has no entry.
"""

from __future__ import annotations

from typing import NamedTuple


class Strength(NamedTuple):
    """An agent's edge over ``greedy`` under one variant: points per hand, 95% interval, how measured."""

    agent: str
    variant: str
    edge: float
    low: float
    high: float
    pairs: int
    source: str


_SEARCH = "python benchmarks/search_duplicate.py --variant {v} --pairs {n} --worlds 6 --candidates 4 --seats 0,2,4"
_RANDOM = "gouji compare dagang dianshaomenla --agents random,greedy --hands 200 --seed 2026 (skill_gap)"

_LEARNED = (
    "learned (the shipped weights, {how}) against greedy on 200 duplicate deal pairs, seed 2026: "
    "python benchmarks/strength.py --variants {v} --matchups learned-greedy=200 (docs/research.md)"
)
_ONE = (
    "one file for every variant: the file before and two runs trained with the guards on, averaged as an "
    "ensemble and distilled into one network, with three guards (4s before opening, a burn with no joker, "
    "a lone 大王)"
)
_SIMPLE = (
    "simple against greedy on 400 duplicate single-hand deal pairs, seed 2026: "
    "python benchmarks/strength.py --variants {v} --pairs 400 --matchups simple-greedy (docs/research.md)"
)
STRENGTHS: tuple[Strength, ...] = (
    Strength("greedy", "dagang", 0.0, 0.0, 0.0, 0, "the reference: every edge is measured against greedy"),
    Strength("greedy", "dianshaomenla", 0.0, 0.0, 0.0, 0, "the reference: every edge is measured against greedy"),
    Strength("ismcts", "dagang", 2.29, 1.40, 3.18, 62, _SEARCH.format(v="dagang", n=62) + " (docs/research.md)"),
    Strength(
        "ismcts",
        "dianshaomenla",
        0.09,
        -0.52,
        0.69,
        47,
        _SEARCH.format(v="dianshaomenla", n=47) + " (docs/research.md)",
    ),
    Strength("random", "dagang", -5.32, -5.79, -4.85, 200, _RANDOM),
    Strength("random", "dianshaomenla", -5.31, -5.44, -5.17, 200, _RANDOM),
    Strength("learned", "dagang", 3.00, 2.53, 3.46, 200, _LEARNED.format(v="dagang", how=_ONE)),
    Strength("learned", "dianshaomenla", 1.19, 0.91, 1.47, 200, _LEARNED.format(v="dianshaomenla", how=_ONE)),
    Strength("simple", "dagang", 1.81, 1.45, 2.17, 400, _SIMPLE.format(v="dagang")),
    Strength("simple", "dianshaomenla", 1.78, 1.59, 1.97, 400, _SIMPLE.format(v="dianshaomenla")),
)
"""Every measurement, one per agent and variant (docs/research.md, docs/compare.md)."""


def strength(name: str, variant: str = "dagang") -> Strength | None:
    """Agent ``name``'s measured edge over greedy under the shipped ``variant``; None when unmeasured.

    >>> s = strength("ismcts")
    >>> s.edge, (s.low, s.high)
    (2.29, (1.4, 3.18))
    >>> strength("ismcts", "sha21") is None
    True
    """
    for s in STRENGTHS:
        if s.agent == name and s.variant == variant:
            return s
    return None


def measured_variants() -> tuple[str, ...]:
    """The variants some agent was measured under, in table order."""
    return tuple(dict.fromkeys(s.variant for s in STRENGTHS))


__all__ = ["STRENGTHS", "Strength", "measured_variants", "strength"]
