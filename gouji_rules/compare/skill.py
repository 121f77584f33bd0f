"""Mixed tables for ``gouji compare --agents A,B``: which rules reward the better player more.

Side A sits in team 0's seats (0, 2, 4) and side B in team 1's, in both seatings of a
deal; the second seating moves every hand one seat on, so each side plays both halves
of every deal and the luck of the cards cancels.  The ``skill_gap`` metric is side A's
score minus side B's per hand; its paired difference between variants says under which
rules the stronger side gains more.  With one agent for every seat it is the plain
duplicate score difference (0 on every deal for a seat-blind agent such as greedy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..agents import AGENTS, Agent, make_agent
from ..errors import GoujiError
from ..strength import measured_variants, strength
from ..variant import Variant


def parse_agents(spec: str) -> tuple[str, str]:
    """``"greedy"`` → (greedy, greedy); ``"ismcts,greedy"`` → side A, side B.

    >>> parse_agents("ismcts,greedy")
    ('ismcts', 'greedy')
    """
    parts = [p.strip() for p in spec.split(",")]
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2:
        raise GoujiError(f"--agents takes one agent or two (side A,side B), got {spec!r}")
    for p in parts:
        if p not in AGENTS:
            raise GoujiError(f"unknown agents {p!r}; known: {', '.join(sorted(AGENTS))}")
    return parts[0], parts[1]


def table_agents(spec: str) -> list[Agent]:
    """Six agents, one per seat: side A in the even seats, side B in the odd ones."""
    a, b = parse_agents(spec)
    return [make_agent(a if s % 2 == 0 else b) for s in range(6)]


def sides(spec: str, variants: Sequence[Variant], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Who played, per side, and how strong each agent measured (``gouji_rules.strength``).

    For each variant of the comparison the figure is the one measured under that variant when it
    has the rules of a measured shipped variant, else under the measured variant nearest to it
    (fewest rule differences), marked ``exact: false``; ``edge: null`` when never measured.
    """
    a, b = parse_agents(spec)
    nearest = [_nearest_measured(v) for v in variants]
    out = []
    for side, agent, seats in (("A", a, [0, 2, 4]), ("B", b, [1, 3, 5])):
        rows = []
        for label, (under, apart, unit) in zip(labels, nearest, strict=True):
            s = strength(agent, under) if under else None
            rows.append(
                {
                    "variant": label,
                    "measured_under": under if s else None,
                    "exact": apart == 0 if s else None,
                    "rules_apart": apart if s else None,
                    "edge": s.edge if s else None,
                    "low": s.low if s else None,
                    "high": s.high if s else None,
                    "edge_in_units": round(s.edge / unit, 6) if s and unit else None,
                    "pairs": s.pairs if s else None,
                    "source": s.source if s else None,
                }
            )
        out.append({"side": side, "seats": seats, "agent": agent, "strength": rows})
    return out


def _nearest_measured(variant: Variant) -> tuple[str | None, int, int]:
    """The measured shipped variant with the fewest rule differences to ``variant``, how many, and
    its score unit (its 头科 score: an edge divided by it is in 头科 points)."""
    from ..catalog import resolve
    from ..dsl.diff import differences
    from .work import score_unit

    best: tuple[str | None, int, int] = (None, 0, 0)
    for name in measured_variants():
        shipped = resolve(name)
        apart = len(differences(shipped, variant))
        if best[0] is None or apart < best[1]:
            best = (name, apart, score_unit(shipped))
    return best
