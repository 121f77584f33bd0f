"""复盘 in a room: a seat's decisions of a finished hand reviewed against the learned agent
(:mod:`gouji_rules.review`, docs/review.md), as the phone page ``gouji review --html`` writes.

A seat may ask for any hand of its match that has ended, its own decisions only; the values come from
worlds drawn from the seat's own view, so the page shows nothing the seat did not see.  The record is
taken on the caller's thread (:func:`hand_record`) and reviewed on another (:func:`review_page`): a
review takes seconds, and the room plays on meanwhile.
"""

from __future__ import annotations

from typing import Any

from ..variant import Variant
from .core import Room, RoomRefused

WORLDS = 8
"""worlds a decision in a room's review: about 7 s a hand on one core (``gouji review`` defaults to 16)"""


def hand_record(room: Room, hand: object) -> tuple[int, dict[str, Any]]:
    """The room's hand number ``hand`` (1, 2 …) and its record, once it has ended; RoomRefused otherwise."""
    if not isinstance(hand, int) or isinstance(hand, bool) or not 1 <= hand <= room.match.n_hands:
        raise RoomRefused("malformed", "没有这一局。", f"hand should be 1 to {room.match.n_hands}, not {hand!r}")
    records = room.records()
    if hand > len(records):
        raise RoomRefused("notyet", "这一局打完后才能复盘。", f"hand {hand} has not ended")
    return hand, records[hand - 1]


def review_page(variant: Variant, record: dict[str, Any], seat: int, hand: int) -> str:
    """The 复盘 page of ``seat``'s decisions in one hand record (seconds of search: call it off the loop).
    RoomRefused when the learned agent cannot run here (numpy missing)."""
    try:
        from ..review import Budget, Review, review_hand
        from ..review.page import render_page

        budget = Budget(worlds=WORLDS)
        return render_page(Review(variant.name, seat, budget, (review_hand(variant, record, seat, budget, hand),)))
    except ImportError as e:
        raise RoomRefused("unavailable", "这台服务器不能复盘（缺少 numpy）。", f"review needs numpy: {e}") from None


__all__ = ["WORLDS", "hand_record", "review_page"]
