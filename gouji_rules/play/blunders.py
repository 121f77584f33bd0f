"""Blunders a club player would point out, as predicates on one decision.

Each reads the engine's state (an :class:`Observation`, the :class:`Legal` actions and the action
chosen), never strings, and answers ``None`` where the blunder was not possible at this decision,
``False`` where it was possible and not made, ``True`` where it was made.  ``benchmarks/habits.py``
counts them for each agent; the learned agent's ``guards`` (a weights file's ``meta["guards"]``)
replace a decision of the network that one of them names by the network's best choice that is none
(docs/research.md, "The guards").
"""

from __future__ import annotations

from collections.abc import Callable

from ..game.actions import Action, Burn, Play
from ..game.cards import BJ, FOUR, NRANKS, SJ, THREE, TOP, CardSet
from ..game.legal import Legal
from .observe import Observation

Verdict = bool | None
"""None: the blunder was not possible here; False: possible, not made; True: made."""

Blunder = Callable[[Observation, Legal, Action], Verdict]


def fours_before_open(obs: Observation, legal: Legal, action: Action) -> Verdict:
    """4s led while the point is still to open and a pure 够级 set in hand could open it (the variant
    opens the point, the seat's point is ``none``, the deadline has not passed): leading 4s without
    the right to open closes the seat's own point (``point_closed``)."""
    rules, h, me = obs.rules, obs.hand, obs.seat
    if obs.mode != "lead" or not rules.open_point or obs.point[me] != "none" or not h[FOUR]:
        return None
    deadline = rules.open_point_deadline_out  # seats out after which nobody opens; None: no deadline
    if deadline is not None and len(obs.finish) >= deadline:
        return None
    if not any(r != FOUR and h[r] and rules.is_pure_gouji(CardSet(r, h[r])) for r in range(NRANKS)):
        return None
    return isinstance(action, Play) and action.cards.rank == FOUR


def jokerless_burn(obs: Observation, legal: Legal, action: Action) -> Verdict:
    """A burn (烧牌) started from a hand without a joker, unless only the last 3s follow the burning set."""
    if not isinstance(action, Burn):
        return None
    h = obs.hand
    if h[SJ] + h[BJ] + h[TOP]:
        return False
    after = list(h)
    for r, n in action.cards.card_counts().items():
        after[r] -= n
    return any(n for r, n in enumerate(after) if r != THREE)


def lone_big_joker(obs: Observation, legal: Legal, action: Action) -> Verdict:
    """A 大王 played as a single while one of the legal sets carries a 大王 on cards of a plain rank (挂王)."""
    if not isinstance(action, Play | Burn):
        return None
    cs = action.cards
    if (cs.rank, cs.count, cs.attached) != (BJ, 1, 0):
        return None
    return any(s.bj and s.rank < SJ for s in legal.iter_sets())


BLUNDERS: dict[str, Blunder] = {
    "fours_before_open": fours_before_open,
    "jokerless_burn": jokerless_burn,
    "lone_big_joker": lone_big_joker,
}
"""Every blunder by name: the names ``benchmarks/habits.py`` reports and ``meta["guards"]`` lists."""

BLUNDER_ZH: dict[str, str] = {
    "fours_before_open": "没开点先出4",
    "jokerless_burn": "手里没王就烧牌",
    "lone_big_joker": "能挂王时大王单出",
}
"""How a report names each blunder in Chinese."""


def check_guards(names: object) -> tuple[str, ...]:
    """``names`` as a tuple of blunder names; ValueError naming the unknown one and the known ones."""
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ValueError(f"guards must be a list of blunder names, not {names!r}")
    for n in names:
        if n not in BLUNDERS:
            shown = repr(n) if len(n) <= 60 else repr(n[:57]) + "…"  # a name may be anything a file held
            raise ValueError(f"no blunder named {shown}; known: {', '.join(BLUNDERS)}")
    return tuple(names)


def made(guards: tuple[str, ...], obs: Observation, legal: Legal, action: Action) -> bool:
    """Is ``action`` one of the blunders named in ``guards``?"""
    return any(BLUNDERS[g](obs, legal, action) for g in guards)


__all__ = [
    "BLUNDERS",
    "BLUNDER_ZH",
    "Blunder",
    "Verdict",
    "check_guards",
    "fours_before_open",
    "jokerless_burn",
    "lone_big_joker",
    "made",
]
