"""Mixed tables for ``gouji compare --agents A,B``: which rules reward the better player more.

Side A sits in team 0's seats (0, 2, 4) and side B in team 1's, in both seatings of a
deal; the second seating moves every hand one seat on, so each side plays both halves
of every deal and the luck of the cards cancels.  The ``skill_gap`` metric is side A's
score minus side B's per hand; its paired difference between variants says under which
rules the stronger side gains more.  With one agent for every seat it is the plain
duplicate score difference (0 on every deal for a seat-blind agent such as greedy).
"""

from __future__ import annotations

from ..agents import AGENTS, Agent, make_agent
from ..errors import GoujiError


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
