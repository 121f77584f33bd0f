"""The leak scan of a room's views: what the tests and ``benchmarks/room_leaks.py`` hold every view to.

A view leaks when its observation is not the engine's own observation of that seat (``Match.observation``,
the account of what the texts let a seat see), or when another seat's whole hand (8 cards or more, other
than this seat's own) appears anywhere in the view.
"""

from __future__ import annotations

import json

from ..game.cards import format_hand
from ..tournament.bots import observation_json
from .core import Room


def view_leaks(room: Room, seat: int) -> list[int]:
    """The seats whose hidden cards the view of ``seat`` shows now (``[seat]`` itself when the view is not
    the seat's own observation); empty when it leaks nothing."""
    m = room.match
    view = room.view(seat)
    legal = m.legal_actions() if m.turn == seat else type(m.legal_actions())()
    if view["observation"] != observation_json(m.observation(seat), legal):
        return [seat]
    text = json.dumps(view, ensure_ascii=False)
    hands = [format_hand(h) for h in m.hands_now]
    return [
        o
        for o in range(6)
        if o != seat and sum(m.hands_now[o]) >= 8 and hands[o] != hands[seat] and f'"{hands[o]}"' in text
    ]


__all__ = ["view_leaks"]
