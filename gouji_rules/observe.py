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

``Hand.observation`` and ``Match.observation`` are built here, so every caller (simulator, bots,
tournaments) gets the same view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .events import Event

if TYPE_CHECKING:
    from .engine import Hand
    from .rules import Rules

UNKNOWN = -1
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
    """The seats that see all of event ``e``; None when the whole table does."""
    if e.type == "point_call":
        return frozenset((e.seat, e.other))
    if e.type in PRIVATE_TRIBUTE and not rules.tribute_shown:
        return frozenset((e.seat, e.other))
    return None


def redact(rules: Rules, seat: int, events: Sequence[Event]) -> list[Event]:
    """The events as ``seat`` saw them: what it did not witness loses its cards and value."""
    out = []
    for e in events:
        who = witnesses(rules, e)
        if who is None or seat in who:
            out.append(e)
        else:
            out.append(e._replace(cards=None, value=0))
    return out


def shown_hands(hands: Sequence[Sequence[int]], shown: Sequence[bool]) -> tuple[tuple[int, ...], ...]:
    """Each seat's hand if it is shown (亮牌), else the empty tuple."""
    return tuple(tuple(h) if shown[s] else () for s, h in enumerate(hands))


NOTHING_SHOWN: tuple[tuple[int, ...], ...] = ((),) * 6


def hand_observation(hand: Hand, seat: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``cards_left`` and ``shown`` of a hand in play, as ``seat`` may know them."""
    if not hand.shown:  # the common case, asked at every decision: only one's own size, or all announced
        if hand.rules.announced(hand.ffa):
            return tuple(hand.cards_left()), NOTHING_SHOWN
        left = [UNKNOWN] * 6
        left[seat] = sum(hand.hands[seat])
        return tuple(left), NOTHING_SHOWN
    shown = [s in hand.shown for s in range(6)]
    sizes = hand.cards_left()
    return cards_left(hand.rules, seat, sizes, shown, hand.ffa), shown_hands(hand.hands, shown)
