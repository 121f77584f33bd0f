"""The values that pass between hands: what the phases set up before play, what a hand decided,
and what is owed next hand.

They live here, below the engine, the rules and the phases, so that a phase's metadata, the
compiled rules and a club's result entry can name them without importing the engine or
settlement (issue 31: ``gouji validate`` reads the phases' options and nothing more).
``gouji_rules.play.engine`` and ``gouji_rules.rules.settlement`` still export them under their old names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class HandSetup:
    """What the phases before play decide for the hand (革命, 冲点, 和点, 买4, 会五 …)."""

    placed: Mapping[int, int] = field(default_factory=dict)
    """seat -> place, for players out of play before the first lead (革命, 冲点, no 3 after buying)"""
    geming: frozenset[int] = frozenset()
    """seats that declared 革命 (placed higher if their two teammates take places 1 and 2)"""
    opened: frozenset[int] = frozenset()
    """seats that count as opened from the start (和点, a successful 冲点, the opposite of a failed one)"""
    closed: frozenset[int] = frozenset()
    """seats that cannot open this hand (no 4 after buying in S4, a failed 冲点)"""
    no_head: frozenset[int] = frozenset()
    """seats that start 无头 (the choice after an opposite's 冲点 or 革命)"""
    head_rights: Mapping[int, int] = field(default_factory=dict)
    """seat -> how many 够级 sets it may still play that only burners and 无头 seats may answer (有头 without an opposite)"""
    open_by_rights: frozenset[int] = frozenset()
    """seats that open once their head rights are used up before the deadline (S4 第二十二条: 够死级三把方算开点)"""
    huiwu_team: int | None = None
    """S0 会五: the swept team, whose 5s are put out together before the first lead"""

    def __reduce__(self) -> tuple[type[HandSetup], tuple[Any, ...]]:
        """Pickled by its fields, so a pickled Hand (the search agent's copies) keeps its setup."""
        return (HandSetup, tuple(getattr(self, f.name) for f in fields(self)))


@dataclass(frozen=True)
class Debt:
    """Cards one seat owes another at the start of the next hand."""

    kind: str  # a registered tribute kind: point, burn, men, place, sweep (gouji_rules.rules.tributes)
    giver: int
    receiver: int
    count: int
    returned: bool = False  # the receiver hands back as many cards (还贡)


@dataclass(frozen=True)
class HandResult:
    """What a hand decided, whether it was simulated or played at a real table."""

    places: Sequence[int]  # each seat's place, 1..6
    opened: Sequence[bool]  # each seat opened (开点) this hand
    burns: Sequence[tuple[int, int]] = ()  # successful burns: (burner, victim)
    men: Sequence[tuple[int, int]] = ()  # 闷 / 清: (victim, the seat that beat the set)
    declarations: Sequence[tuple[str, int]] = ()  # (宣点/明点/预点 kind, declaring seat)
    geming: Sequence[int] = ()  # seats that declared 革命
