"""The leak scan of a room's views: what the tests and ``benchmarks/room_leaks.py`` hold every view to.

A view leaks when its observation is not the engine's own observation of that seat (``Match.observation``,
the account of what the texts let a seat see), or when another seat's whole hand (8 cards or more, other
than this seat's own) appears anywhere in the view.
"""

from __future__ import annotations

import json
from typing import Any

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


def spectator_leaks(room: Room) -> list[str]:
    """What the spectator's view shows now that some seat may not see; empty when it leaks nothing.

    Judged from the six seats' own observations, not from the code that builds the spectator's view: an
    event must be what all six seats were shown of it, or, where they differ (a witness saw more), what a
    seat that did not witness it was shown; no seat's hand (8 cards or more) may appear; a card count
    must be one that every other seat knows."""
    m = room.match
    view = room.spectator_view()
    body = view["observation"]
    seen = [observation_json(m.observation(s), type(m.legal_actions())()) for s in range(6)]
    found: list[str] = []
    for k, event in enumerate(body["events"]):
        shown = [seen[s]["events"][k] for s in range(6)]
        if event not in shown or (event == _fullest(shown) and len({json.dumps(e, sort_keys=True) for e in shown}) > 1):
            found.append(f"event {k} ({event.get('type')})")
    for s in range(6):
        others = {seen[o]["cards_left"][s] for o in range(6) if o != s}
        if len(others) == 1 and body["cards_left"][s] not in others:
            found.append(f"cards_left of seat {s}")
    text = json.dumps(view, ensure_ascii=False)
    hands = [format_hand(h) for h in m.hands_now]
    found += [f"hand of seat {o}" for o in range(6) if sum(m.hands_now[o]) >= 8 and f'"{hands[o]}"' in text]
    return found


def _fullest(shown: list[dict[str, Any]]) -> dict[str, Any]:
    """Of the ways the seats were shown one event, the one that tells the most (the witness's)."""
    return max(shown, key=lambda e: len(json.dumps(e)))


__all__ = ["spectator_leaks", "view_leaks"]
