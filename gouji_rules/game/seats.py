"""The six seats and the two sides: who sits across (对头), who plays with whom.

Seats are numbered 0–5 in playing order; the seats of one parity form a side (三家, seats 0, 2, 4
and 1, 3, 5), and the seat across a table of six is three places on (S0, S4: 对门 / 对家).
Everything that asks "is this my opposite?" or "is this a teammate?" asks here, so the geometry
of the table is written once.

>>> opposite(1), side(1), teammates(1), same_side(0, 4)
(4, 1, [3, 5], True)
"""

from __future__ import annotations

from collections.abc import Sequence

SEATS = 6
"""Players at a table of 够级."""


def opposite(seat: int) -> int:
    """The seat across (对头): three places on."""
    return (seat + 3) % SEATS


def side(seat: int) -> int:
    """The side a seat plays for: 0 (seats 0, 2, 4) or 1 (seats 1, 3, 5)."""
    return seat % 2


def same_side(a: int, b: int) -> bool:
    """Do seats ``a`` and ``b`` play for one side (a seat is on its own side)?"""
    return (a - b) % 2 == 0


def teammates(seat: int) -> list[int]:
    """The other two seats of ``seat``'s side, in seat order."""
    return [s for s in range(SEATS) if s != seat and s % 2 == seat % 2]


def side_seats(team: int) -> list[int]:
    """The three seats of side ``team`` (0 or 1), in seat order."""
    return [s for s in range(SEATS) if s % 2 == team]


def sweep_of(places: Sequence[int]) -> int | None:
    """The side whose three seats took places 1, 2 and 3 (串三户), or None; ``places`` by seat.

    >>> sweep_of([4, 1, 5, 2, 6, 3]), sweep_of([1, 4, 2, 5, 6, 3])
    (1, None)
    """
    for team in (0, 1):
        if sorted(places[s] for s in side_seats(team)) == [1, 2, 3]:
            return team
    return None
