"""Rooms: a match played online by people and agents under any variant (issue 33).

:class:`~gouji_rules.room.core.Room` holds the game and tells each seat only what it may see;
``gouji room serve`` (:mod:`gouji_rules.web.room_app`) serves it over WebSockets.
"""

from .core import PERSON, Room, RoomRefused, Seat

__all__ = ["PERSON", "Room", "RoomRefused", "Seat"]
