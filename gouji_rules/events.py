"""Events: the append-only log of a hand, with the ids of GLOSSARY.md.

Ids added by this project (listed in ``docs/events.md``): ``burn_success`` (a
burner went out while burning), ``jiefeng_request`` and ``consent`` (S4's 接风
by request), ``point_closed`` (a seat can no longer open), ``with_head`` (有头 chosen),
``waive`` (a teammate's tribute waived), ``redeal`` (value 1: two 革命, 2: three 冲点, 3: three
sweeps in a row), ``huiwu`` (S0 会五), ``choose_last`` (someone else named last place),
``first_leader`` (上班), ``kaipai`` (开牌 by a drawn card), ``no_three`` (S4: no 3 after buying,
placed last), ``point_call`` (S0: a 点贡 payer shows a 大王 and takes a card), ``wrong_play``
(错牌不出: a seat lost its turn, S4 第四条(一)).  docs/events.md has them all.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import CardSet, format_set

EVENT_IDS = (
    "deal",
    "kaipai",
    "first_leader",
    "kang",
    "xuandian",
    "hedian",
    "mingdian",
    "yudian",
    "buy3",
    "buy4",
    "tribute",
    "return_tribute",
    "geming",
    "chongdian",
    "with_head",
    "waive",
    "redeal",
    "huiwu",
    "choose_last",
    "no_three",
    "point_call",
    "play",
    "pass",
    "yield",
    "kou",
    "burn",
    "counter_burn",
    "break_burn",
    "burn_fail",
    "burn_success",
    "open_point",
    "natural_point",
    "point_closed",
    "men",
    "jiefeng",
    "jiefeng_request",
    "consent",
    "no_head",
    "free_for_all",
    "finish",
    "sweep",
    "hand_end",
    "wrong_play",
)


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
