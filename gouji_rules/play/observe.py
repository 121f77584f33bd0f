"""What one seated player may know: the observation a seat is given, and nothing more.

Both texts forbid telling hand sizes (S0 opening 「不能上报或者询问任何人的手牌数」; S4 第二十三条
「实行憋3打法，不报牌」), while S4 第十一条 has 四人乱缠 played 「按规定报牌和扣牌」.  So another seat's
``cards_left`` is given only where the variant announces it (``play.announce``); elsewhere it is -1
(unknown).  A player who keeps count of the public plays can still work it out; the rules only stop
anyone from telling him.

Some things are seen by a few seats only:

* a 清 player's hand, once shown (S4 第十五条 「应当时亮牌」, ``men.show_hand``), is seen by everyone;
* the card a 点贡 payer takes unseen from his opposite (S0 八、进贡 大王 call, event ``point_call``) is
  known to those two seats only: the others see the event without its rank;
* tribute and returned cards are shown to the whole table where the text says so (S0 八、进贡
  「所有进贡的牌全部明置」, ``tribute.shown``); otherwise only giver and receiver see the card.

Everything else that happens at the table, before play as in it, is seen by every seat, and a match
gives each seat all of it at every decision of the hand (:class:`TableView`); docs/events.md has
the table of who sees what.

:class:`Observation` is that view, and ``Hand.observation`` and ``Match.observation`` are built
here, so every caller (simulator, bots, tournaments) gets the same one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ..errors import PositionError
from ..game.cards import CardSet
from ..game.events import Event

if TYPE_CHECKING:
    from ..rules import Rules


class Observation:
    """What a seated player may see when asked to act: a value, built at every decision.

    Its fields are ``Final`` (mypy refuses a write; the compiled build raises AttributeError).  It
    is a plain class with its own ``__init__`` rather than a frozen dataclass because a frozen
    dataclass sets each field through ``object.__setattr__`` (in the compiled core too), which made
    building it a fifth of a simulated decision; equality, hash and repr are the dataclass's.
    """

    __match_args__: Final = (  # Final: a class attribute in the compiled core (match statements read it)
        "seat",
        "mode",
        "hand",
        "table",
        "table_owner",
        "cards_left",
        "active",
        "finish",
        "point",
        "no_head",
        "burning",
        "free_for_all",
        "events",
        "rules",
        "shown",
    )
    __slots__ = __match_args__

    def __init__(
        self,
        seat: int,
        mode: str,
        hand: tuple[int, ...],
        table: CardSet | None,
        table_owner: int,
        cards_left: tuple[int, ...],
        active: tuple[bool, ...],
        finish: tuple[int, ...],
        point: tuple[str, ...],
        no_head: tuple[bool, ...],
        burning: int,
        free_for_all: bool,
        events: Sequence[Event],
        rules: Rules,
        shown: tuple[tuple[int, ...], ...] = (),
    ) -> None:
        self.seat: Final = seat
        self.mode: Final = mode
        self.hand: Final = hand
        self.table: Final = table
        self.table_owner: Final = table_owner
        self.cards_left: Final = cards_left
        self.active: Final = active
        self.finish: Final = finish
        self.point: Final = point
        self.no_head: Final = no_head
        self.burning: Final = burning
        self.free_for_all: Final = free_for_all
        self.events: Final = events
        self.rules: Final = rules
        self.shown: Final = shown
        """each seat's hand if shown to the table (亮牌, S4 第十五条), else (); see gouji_rules/play/observe.py"""

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.seat,
            self.mode,
            self.hand,
            self.table,
            self.table_owner,
            self.cards_left,
            self.active,
            self.finish,
            self.point,
            self.no_head,
            self.burning,
            self.free_for_all,
            self.events,
            self.rules,
            self.shown,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Observation)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in zip(self.__match_args__, self._fields(), strict=True))
        return f"Observation({inner})"

    def __reduce__(self) -> tuple[type[Observation], tuple[Any, ...]]:
        # the compiled build cannot set a frozen field after construction (see actions.py)
        return (Observation, self._fields())


UNKNOWN: Final = -1
"""``cards_left`` of a seat whose hand size the observer may not know."""

PRIVATE_TRIBUTE = ("tribute", "return_tribute")


def announced(rules: Rules, free_for_all: bool) -> bool:
    """Are hand sizes announced now (报牌, ``play.announce``)?"""
    return rules.announced(free_for_all)


def cards_left(
    rules: Rules, seat: int, sizes: Sequence[int], shown: Sequence[bool], free_for_all: bool
) -> tuple[int, ...]:
    """Each seat's number of cards as ``seat`` may know it: its own, shown hands, announced sizes."""
    if announced(rules, free_for_all):
        return tuple(sizes)
    return tuple(n if (s == seat or shown[s]) else UNKNOWN for s, n in enumerate(sizes))


def witnesses(rules: Rules, e: Event) -> frozenset[int] | None:
    """The seats that see all of event ``e``; None when the whole table does (docs/events.md, "Who sees
    each event")."""
    if e.type == "point_call":
        return frozenset((e.seat, e.other))
    if e.type in PRIVATE_TRIBUTE and not rules.tribute_shown:
        return frozenset((e.seat, e.other))
    return None


def as_seen(rules: Rules, seat: int, e: Event) -> Event:
    """Event ``e`` as ``seat`` saw it.  A seat that did not witness a ``point_call`` still saw the 大王
    (「即刻亮出大王」) but not the card taken; one that did not witness an unshown tribute or returned card
    saw who paid whom, and the kind of debt (known to all from the last hand), but not the card."""
    who = witnesses(rules, e)
    if who is None or seat in who:
        return e
    if e.type == "point_call":
        return e._replace(value=0)
    return e._replace(cards=None)


def own_events(events: Sequence[Event]) -> Sequence[Event]:
    """The hand's own log within a seat's events: from its ``deal`` (the last one: a match's events before
    play hold the phases' ``deal`` too, and those of a void deal)."""
    for k in range(len(events) - 1, -1, -1):
        if events[k].type == "deal":
            return events[k:]
    return events


class TableView:
    """Each seat's events of one match hand, in the order the table saw them: the phase events before
    play, then the hand's own (all public), then the phase events after play (``choose_last``, ``sweep``).

    Every seat is given them at every decision (S0 八 「所有进贡的牌全部明置」, S0 十's 冲点 sets are played
    on the table), so a seat not asked anything between the tribute and the first lead still knows it.
    Each event is redacted once per seat and appended as it comes: a decision in play costs only the
    events since that seat's last observation.  Like ``Hand.observation``'s, the list a seat is given
    grows with the hand (copy it to keep a snapshot).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.play_at = -1
        """how many phase events came before the hand was built (-1: not yet)"""
        self.seen: list[list[Event]] = [[], [], [], [], [], []]

    def events(self, seat: int, phase: Sequence[Event], hand: Sequence[Event]) -> list[Event]:
        """Seat ``seat``'s events now, from the match's phase events and the hand's (empty before play)."""
        if not 0 <= seat < 6:
            raise PositionError(f"a seat is 0-5, not {seat}")
        view = self.seen[seat]
        n = len(view)
        rules = self.rules
        before = len(phase) if self.play_at < 0 else self.play_at
        while n < before:
            view.append(as_seen(rules, seat, phase[n]))
            n += 1
        played = before + len(hand)
        if n < played:
            view.extend(hand[n - before :])
            n = played
        end = len(phase) + len(hand)
        while n < end:
            view.append(as_seen(rules, seat, phase[n - len(hand)]))
            n += 1
        return view


def shown_hands(hands: Sequence[Sequence[int]], shown: Sequence[bool]) -> tuple[tuple[int, ...], ...]:
    """Each seat's hand if it is shown (亮牌), else the empty tuple."""
    return tuple(tuple(h) if shown[s] else () for s, h in enumerate(hands))


NOTHING_SHOWN: Final[tuple[tuple[int, ...], ...]] = ((),) * 6


def hand_observation(
    rules: Rules, seat: int, hands: list[list[int]], shown_seats: set[int], ffa: bool
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``cards_left`` and ``shown`` of a hand in play (each seat's cards ``hands``, the seats that
    showed them, whether it is in 四人乱缠), as ``seat`` may know them.  Given as values, not the
    hand: the engine asks this at every decision, and this module sits below the engine."""
    if not shown_seats:  # the common case, asked at every decision: only one's own size, or all announced
        if rules.announced(ffa):
            return tuple([sum(h) for h in hands]), NOTHING_SHOWN
        left = [UNKNOWN] * 6
        left[seat] = sum(hands[seat])
        return tuple(left), NOTHING_SHOWN
    shown = [s in shown_seats for s in range(6)]
    sizes = [sum(h) for h in hands]
    return cards_left(rules, seat, sizes, shown, ffa), shown_hands(hands, shown)
