"""Events: the append-only log of a hand, with the ids of GLOSSARY.md.

Ids added by this project (listed in ``docs/events.md``): ``burn_success`` (a
burner went out while burning), ``jiefeng_request`` and ``consent`` (S4's 接风
by request), ``point_closed`` (a seat can no longer open), ``with_head`` (有头 chosen),
``waive`` (a teammate's tribute waived), ``redeal`` (value 1: two 革命, 2: three 冲点, 3: three
sweeps in a row), ``huiwu`` (S0 会五), ``choose_last`` (someone else named last place),
``first_leader`` (上班), ``kaipai`` (开牌 by a drawn card), ``no_three`` (S4: no 3 after buying,
placed last), ``point_call`` (S0: a 点贡 payer shows a 大王 and takes a card), ``wrong_play``
(错牌不出: a seat lost its turn, S4 第四条(一)).  docs/events.md has them all.

The ids the engine and the match emit (play, 开牌, 上班, a redeal, …) are declared here; each phase
declares the ids it adds in its own module (``Phase.events``), and :func:`event_ids` lists them all.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..parts.registry import Registry
from .cards import CardSet, format_set


class EventKind(NamedTuple):
    """An event id, declared by what emits it: the engine and the match below, each phase in its own
    module (``Phase.events``).  ``listed`` is its place in lists of events (``simulate``'s counts, the
    rules' governed events): a number, so a new id goes between two others."""

    name: str
    listed: int
    zh: str = ""
    en: str = ""


EVENTS: Registry[Any] = Registry("event", "gouji_rules.phases")
"""Every event id, the phases' included (importing the phases registers theirs)."""

for _name, _listed in (
    ("deal", 0),
    ("kaipai", 10),
    ("first_leader", 20),
    ("redeal", 160),
    ("huiwu", 170),
    ("play", 210),
    ("pass", 220),
    ("yield", 230),
    ("kou", 240),
    ("burn", 250),
    ("counter_burn", 260),
    ("break_burn", 270),
    ("burn_fail", 280),
    ("burn_success", 290),
    ("open_point", 300),
    ("natural_point", 310),
    ("point_closed", 320),
    ("men", 330),
    ("jiefeng", 340),
    ("jiefeng_request", 350),
    ("consent", 360),
    ("no_head", 370),
    ("free_for_all", 380),
    ("finish", 390),
    ("sweep", 400),
    ("hand_end", 410),
    ("wrong_play", 420),
):
    EVENTS.register(EventKind(_name, _listed))


def event_ids() -> tuple[str, ...]:
    """Every registered event id, in the order of ``listed``."""
    return tuple(e.name for e in sorted(EVENTS.values(), key=lambda e: e.listed))


class Event(NamedTuple):
    """One thing that happened.  ``other`` is the related seat (victim, beater, …)."""

    type: str
    seat: int = -1
    cards: CardSet | None = None
    other: int = -1
    value: int = 0

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data; empty fields are left out."""
        out: dict[str, Any] = {"type": self.type}
        if self.seat >= 0:
            out["seat"] = self.seat
        if self.cards is not None:
            out["cards"] = format_set(self.cards)
        if self.other >= 0:
            out["other"] = self.other
        if self.value:
            out["value"] = self.value
        return out


def play_event(seat: int, cards: CardSet) -> Event:
    """``Event("play", seat, cards)``, the event of almost every other decision, built without the
    NamedTuple's Python-level ``__new__`` (which costs as much as the rest of a play, even compiled)."""
    return tuple.__new__(Event, ("play", seat, cards, -1, 0))
