"""What every phase shares: the decision it asks, the typed setup it builds, the registry."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from ..actions import Action
from ..cards import CardSet
from ..engine import HandSetup
from ..legal import Legal
from ..options import declared
from ..registry import PHASES
from ..settlement import Debt

if TYPE_CHECKING:
    from ..match import Match
    from ..rules import Rules

Stage = Literal["before_deal", "before_play", "after_play"]
T = TypeVar("T", bound=Any)


class DecisionKind(StrEnum):
    """What a match is asking now (``Match.phase``, ``Decision.kind``); the values are the names that
    records, observations and the docs use, so a member compares equal to its string."""

    START = "start"
    YUDIAN = "yudian"
    XUANDIAN = "xuandian"
    GEMING = "geming"
    HEAD = "head"
    BUY4 = "buy4"
    WAIVE = "waive"
    POINT_CALL = "point_call"
    GIVE = "give"
    ACCEPT = "accept"
    CHONGDIAN = "chongdian"
    CHONG_SET = "chong_set"
    CHONG_ANSWER = "chong_answer"
    MINGDIAN = "mingdian"
    PLAY = "play"
    CHOOSE_LAST = "choose_last"
    OVER = "over"


@dataclass(frozen=True)
class Decision:
    """One decision a match asks for: whose, of what kind (``Match.phase``), and the legal actions."""

    seat: int
    kind: DecisionKind
    legal: Legal
    table: CardSet | None = None


@dataclass
class SetupDraft:
    """The match setup of one hand while the phases build it (frozen into a :class:`HandSetup`)."""

    placed: dict[int, int] = field(default_factory=dict)
    geming: set[int] = field(default_factory=set)
    opened: set[int] = field(default_factory=set)
    closed: set[int] = field(default_factory=set)
    no_head: set[int] = field(default_factory=set)
    head_rights: dict[int, int] = field(default_factory=dict)
    open_by_rights: set[int] = field(default_factory=set)

    @classmethod
    def from_setup(cls, s: HandSetup | None) -> SetupDraft:
        """A draft that starts from a chosen setup (``Match(..., setup=...)``), or an empty one."""
        if s is None:
            return cls()
        return cls(
            placed=dict(s.placed),
            geming=set(s.geming),
            opened=set(s.opened),
            closed=set(s.closed),
            no_head=set(s.no_head),
            head_rights=dict(s.head_rights),
            open_by_rights=set(s.open_by_rights),
        )

    def freeze(self, huiwu_team: int | None) -> HandSetup:
        """The finished setup the hand is played with."""
        return HandSetup(
            placed=dict(self.placed),
            geming=frozenset(self.geming),
            opened=frozenset(self.opened),
            closed=frozenset(self.closed),
            no_head=frozenset(self.no_head),
            head_rights=dict(self.head_rights),
            open_by_rights=frozenset(self.open_by_rights),
            huiwu_team=huiwu_team,
        )


@dataclass
class HandPrep:
    """One hand's state between the phases: who drew first and leads, what is owed, what was declared."""

    index: int
    seed: int
    first: int
    """the first drawer (before the deal) or the leader (after it)"""
    carried_leader: bool
    """the leader was carried from the last hand (a real seat), not chosen by 开牌"""
    debts: list[Debt]
    setup: SetupDraft
    last_places: list[int] | None = None
    last_sweep: int | None = None
    lead: int = -1
    declarations: list[tuple[str, int]] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    """after play: the places, as the ``after_play`` phases may change them (choose_last)"""

    def declared(self) -> set[int]:
        """The seats that have declared this hand (a seat declares once: :meth:`Rules.verify_declaring`)."""
        return {s for _, s in self.declarations}


class Phase(Protocol):
    """A registered phase (see the package docstring)."""

    name: str
    zh: str
    en: str
    stage: Stage
    order: int

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        ...

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask the phase's decisions; return False when the deal is void."""
        ...


def register_phase(cls: type[T]) -> type[T]:
    """Class decorator: add ``cls`` (instantiated without arguments) to the phases; its ``order``
    places it within its stage."""
    PHASES.register(cls())
    return cls


def phases_of(rules: Rules, stage: Stage) -> Iterator[Phase]:
    """The phases of one stage that these rules play, in order.  A phase that declares ``options``
    (:mod:`gouji_rules.options`) is played only where the variant names it under ``phases``."""
    for p in sorted((PHASES[n] for n in PHASES), key=lambda p: p.order):
        if declared(p) is not None and not rules.names_extension(p):
            continue
        if p.stage == stage and p.enabled(rules):
            yield p
