"""What every phase shares: the decision it asks, the typed setup it builds, the registry."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, TypeVar, cast

from ..errors import VariantError
from ..game.cards import CardSet
from ..game.events import EVENTS, Event, EventKind
from ..parts.options import declared
from ..parts.registry import DECISION_KINDS, PHASE_WORDS, PHASES

if TYPE_CHECKING:
    from dataclasses import dataclass as frozen
else:  # frozen dataclasses without generated code: `gouji validate` reads the phases (issue 13)
    from ..parts.section import dataclass as frozen

if TYPE_CHECKING:  # a phase's metadata is read without the engine (``gouji validate`` reads the phases' options)
    from ..game.actions import Action
    from ..game.hand_setup import Debt, HandSetup
    from ..game.legal import Legal
    from ..rules import Rules


class Match(Protocol):
    """What a phase may use of the match it runs in: its seats' cards, its events and its questions.

    Declared here, below :mod:`gouji_rules.play.match` (which runs the phases and satisfies this), so that
    a phase never imports the match: the layers import downward only, type imports included."""

    rules: Rules
    hands_now: list[list[int]]
    kept: list[list[int]]
    discards: list[int]

    def ask(
        self,
        seat: int,
        kind: DecisionKind,
        options: Sequence[Action],
        table: CardSet | None = None,
        subject: Any = None,
    ) -> Decision:
        """A decision among ``options``."""
        ...

    def ask_sets(self, seat: int, kind: DecisionKind, legal: Legal, table: CardSet | None = None) -> Decision:
        """A decision among sets of cards."""
        ...

    def event(self, e: Event) -> None:
        """Record an event of the match."""
        ...

    def discard(self, s: int) -> None:
        """Put seat ``s``'s cards out of the match."""
        ...

    def move(self, giver: int, receiver: int, r: int, kept: bool = True) -> None:
        """Move one card of rank ``r`` between seats."""
        ...

    def take(self, s: int, cs: CardSet) -> None:
        """Take ``cs`` out of seat ``s``'s cards."""
        ...

    def random_card(self, s: int) -> int:
        """A rank drawn at random from seat ``s``'s cards."""
        ...

    def free(self, s: int, r: int) -> bool:
        """Has seat ``s`` a card of rank ``r`` it was not given this hand?"""
        ...


Stage = Literal["before_deal", "before_play", "after_play"]
T = TypeVar("T", bound=Any)


class _Kinds(type):
    """``DecisionKind.BUY4``: a registered kind by its name in capitals (what a match asks is
    declared by the phase that asks it, so the class holds no list of them)."""

    def __getattr__(cls, attr: str) -> DecisionKind:
        if attr.isupper():
            hit = DECISION_KINDS.get(attr.lower())
            if hit is not None:
                return cast(DecisionKind, hit)
        raise AttributeError(attr)

    def __iter__(cls) -> Iterator[DecisionKind]:
        """The match's own kinds, then every registered one (``for k in DecisionKind``, as of an enum)."""
        yield from _MATCH_KINDS.values()
        yield from DECISION_KINDS.values()


class DecisionKind(str, metaclass=_Kinds):
    """What a match is asking now (``Match.phase``, ``Decision.kind``): the name records,
    observations and the docs use, so a kind compares equal to its string.

    A phase declares the kinds it asks (``Phase.decisions``); :func:`register_phase` registers
    them in :data:`~gouji_rules.parts.registry.DECISION_KINDS`, where ``DecisionKind("buy4")`` and
    ``DecisionKind.BUY4`` find them.  ``START``, ``PLAY`` and ``OVER`` are the match's own."""

    zh: str
    en: str
    listed: int
    """its place in lists of kinds (the env's mode columns): a number, so a new kind goes between two others"""
    chooser: Callable[[Any, Legal], Action] | None
    """its default chooser, ``(observation, legal) -> action``: how an agent that never learned the kind
    makes it (the learned agent, for a kind its weights do not list); None: the greedy agent's choice"""
    START: ClassVar[DecisionKind]
    PLAY: ClassVar[DecisionKind]
    OVER: ClassVar[DecisionKind]

    def __new__(
        cls,
        name: str,
        zh: str = "",
        en: str = "",
        listed: int = 0,
        chooser: Callable[[Any, Legal], Action] | None = None,
    ) -> DecisionKind:
        if not zh:
            known = _MATCH_KINDS.get(name) or DECISION_KINDS.get(name)
            if known is not None:
                return cast(DecisionKind, known)
        self = super().__new__(cls, name)
        self.zh = zh
        self.en = en
        self.listed = listed
        self.chooser = chooser
        return self

    @property
    def name(self) -> str:
        """The kind's name (its string), as registries name their entries."""
        return str.__str__(self)

    @property
    def value(self) -> str:
        """The kind's name, as an enum member's value."""
        return str.__str__(self)

    def __reduce__(self) -> tuple[type[DecisionKind], tuple[str]]:
        return (DecisionKind, (str.__str__(self),))


_MATCH_KINDS: dict[str, DecisionKind] = {}
for _name, _zh, _en in (
    ("start", "开始", "the match has not asked anything yet"),
    ("play", "出牌", "a decision of play (the hand's mode says which)"),
    ("over", "结束", "the match is over"),
):
    _MATCH_KINDS[_name] = DecisionKind(_name, _zh, _en)
DecisionKind.START = _MATCH_KINDS["start"]
DecisionKind.PLAY = _MATCH_KINDS["play"]
DecisionKind.OVER = _MATCH_KINDS["over"]


@frozen(frozen=True)
class Decision:
    """One decision a match asks for: whose, of what kind (``Match.phase``), and the legal actions."""

    seat: int
    kind: DecisionKind
    legal: Legal
    table: CardSet | None = None
    subject: Any = None
    """what the decision is about, where a kind can be asked of one seat about several things
    (the :class:`~gouji_rules.rules.settlement.Debt` a waive or a return answers): the phase's
    :meth:`Phase.answer` reads it to find the recorded choice about this one"""


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
        from ..game.hand_setup import HandSetup  # here: the dataclass is built on first use, not by `gouji validate`

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
    """who leads the first set of play: set before the phases before play, which may change it"""
    declarations: list[tuple[str, int]] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    """after play: the places, as the ``after_play`` phases may change them (choose_last)"""

    owed: tuple[Debt, ...] = ()
    """the debts the hand started from, as the hand before left them (its record's ``debts_next``), in
    order; the phases take debts out of ``debts``, never out of this"""

    def __post_init__(self) -> None:
        if not self.owed:
            self.owed = tuple(self.debts)

    def debt_number(self, d: Debt) -> int:
        """Which debt ``d`` is, as an event names it: its place (from 1) in :attr:`owed`.  Two debts
        can be equal (预点 and 开点 each owe a 点贡 of the same count), so it is found by identity."""
        return next(k for k, x in enumerate(self.owed, start=1) if x is d)

    def declared(self) -> set[int]:
        """The seats that have declared this hand (a seat declares once: :meth:`Rules.verify_declaring`)."""
        return {s for _, s in self.declarations}


class Recorded(Protocol):
    """A recorded hand's events as ``gouji verify``'s replay reads them (records/preplay.py): a phase's
    :meth:`Phase.answer` finds in them what a seat chose."""

    segment: list[dict[str, Any]]
    """the recorded events of the deal that was played, from its ``deal``'s dealer on"""

    def next_event(self, ahead: int = 0) -> dict[str, Any]:
        """The recorded event the replay reaches next, or ``ahead`` after it ({} past the end)."""
        ...


def recorded_by(e: dict[str, Any], kind: str, seat: int) -> bool:
    """Is ``e`` a recorded event of type ``kind`` by ``seat``?"""
    return e.get("type") == kind and e.get("seat") == seat


@frozen(frozen=True)
class ClubEntry:
    """How a phase's choice is entered at a real table, where only the hand's outcome is written down
    (:mod:`gouji_rules.play.outcome`): ``gouji event record --NAME``, the ``NAME`` column of results.csv,
    the web form's ``choice_NAME`` field (labelled ``zh`` or ``en``) and the stored result's
    ``choices[NAME]``.  Each value is a pair of seats ``A:B`` (seat numbers or player names at the
    table).

    ``settle`` checks the pairs against the rules and the debts the hand leaves and returns the debts
    still owed next hand; it raises :class:`~gouji_rules.errors.IllegalAction` (rule and clause) for a
    choice the rules could not have allowed."""

    name: str
    help: str
    """the CLI option's help: what ``A:B`` means"""
    zh: str
    """the web form's label"""
    en: str
    settle: Callable[[Rules, list[Debt], Sequence[tuple[int, int]]], list[Debt]]

    @property
    def flag(self) -> str:
        """The CLI option (``--forgive``; an underscore becomes a hyphen)."""
        return "--" + self.name.replace("_", "-")


class Phase(Protocol):
    """A registered phase (see the package docstring): everything a match, ``gouji verify``'s replay,
    the env and club entry need to know of it is declared here, in the phase's own module."""

    name: str
    zh: str
    en: str
    stage: Stage
    order: int
    decisions: tuple[DecisionKind, ...]
    """the kinds of decision it asks (a kind another phase declared may be asked again)"""
    words: tuple[Action, ...]
    """the actions it offers that are words (``buy4``, ``last2``): ``parse_action`` reads them back"""
    events: tuple[EventKind, ...]
    """the events it emits that nothing before it declared"""
    entry: ClubEntry | None
    """how its choice is entered at a real table, or None where the outcome does not need it"""

    def enabled(self, rules: Rules) -> bool:
        """Is this phase played under these rules?"""
        ...

    def run(self, m: Match, prep: HandPrep) -> Generator[Decision, Action, bool]:
        """Ask the phase's decisions; return False when the deal is void."""
        ...

    def answer(self, rec: Recorded, d: Decision) -> Action | None:
        """What the record says ``d.seat`` chose in ``d`` (one of ``d.legal``), or None when the record
        cannot say: ``gouji verify`` then answers the first choice offered, so the events the replay
        makes differ from the record where it does."""
        ...


def register_phase(cls: type[T]) -> type[T]:
    """Class decorator: add ``cls`` (instantiated without arguments) to the phases; its ``order``
    places it within its stage.  Its decision kinds, words and events are registered with it (a kind
    is answered in ``gouji verify``'s replay by the phase that declared it first).  A name another
    kind or event already has is an error, and then nothing is registered."""
    phase = cls()
    PHASES.check(phase)
    for kind in phase.decisions:
        try:
            DECISION_KINDS.check(kind)
        except VariantError:
            raise VariantError(f"phase {phase.name!r}: decision kind {kind.name!r} is already another kind") from None
        if _MATCH_KINDS.get(kind.name, kind) is not kind:
            raise VariantError(f"phase {phase.name!r}: decision kind {kind.name!r} is already another kind")
    for e in phase.events:
        try:
            EVENTS.check(e)
        except VariantError:
            raise VariantError(f"phase {phase.name!r}: event {e.name!r} is already another event") from None
    PHASES.register(phase)
    for kind in phase.decisions:
        if kind.name not in ANSWERED_BY:
            DECISION_KINDS.register(kind)
            ANSWERED_BY[kind.name] = phase
    for word in phase.words:
        PHASE_WORDS.setdefault(str(word), word)
    for e in phase.events:
        EVENTS.register(e)
    return cls


def unregister_phase(name: str) -> None:
    """Remove a phase and what only it declared (tests that register one clean up with this); a kind
    it shares is answered by the next phase that declares it."""
    phase: Phase | None = PHASES.get(name)
    if phase is None:
        return
    PHASES.unregister(name)
    others: list[Phase] = [PHASES[n] for n in PHASES]
    for kind in phase.decisions:
        if ANSWERED_BY.get(kind.name) is phase:
            heir = next((p for p in others if kind in p.decisions), None)
            if heir is not None:
                ANSWERED_BY[kind.name] = heir
            else:
                DECISION_KINDS.unregister(kind.name)
                del ANSWERED_BY[kind.name]
    for word in phase.words:
        if not any(word in p.words for p in others):
            PHASE_WORDS.pop(str(word), None)
    for e in phase.events:
        if not any(e in p.events for p in others):
            EVENTS.unregister(e.name)


ANSWERED_BY: dict[str, Phase] = {}
"""decision kind -> the phase that declared it first (``gouji verify``'s replay asks it)"""


def answering(kind: str) -> Phase | None:
    """The phase that answers decisions of ``kind`` from a record."""
    len(PHASES)  # reading the registry loads the shipped phases
    return ANSWERED_BY.get(kind)


def club_entries() -> dict[str, Phase]:
    """The registered phases whose choice is entered at a real table, by their entry's name."""
    out: dict[str, Phase] = {}
    for n in PHASES:
        p: Phase = PHASES[n]
        if p.entry is not None:
            out[p.entry.name] = p
    return out


def phases_of(rules: Rules, stage: Stage) -> Iterator[Phase]:
    """The phases of one stage that these rules play, in order.  A phase that declares ``options``
    (:mod:`gouji_rules.parts.options`) is played only where the variant names it under ``phases``."""
    for p in sorted((PHASES[n] for n in PHASES), key=lambda p: p.order):
        if declared(p) is not None and not rules.names_extension(p):
            continue
        if p.stage == stage and p.enabled(rules):
            yield p
