"""An online round of a club event (``gouji event serve --online``, docs/club-night.md "An online round").

Each table of the round is a room (``room_app.Rooms``) whose six seats are the round's seating: a present
player's seat is a person's, an absent player's is played by the agent.  The engine knows each hand's
result, so a finished hand is stored in the event file at once, with no entry or confirmation, and counts in
standings and the season like a hand entered at a real table; its record keeps the 托管 decisions
(``takeover``): a silent person's and every decision of an absent player's seat.  Every decision is
journalled in the event file (table ``online_moves``) in the same transaction as any hand it finishes, so
a server killed mid-hand and started again replays each table to where it was.  Room codes and seat secrets are derived from the event's link secret, so the links survive
a restart too.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import sqlite3
import weakref
from collections.abc import AsyncIterator, Collection, Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Mount

from ..game.actions import Action
from ..game.rng import derive
from ..room.core import PERSON, Room
from ..tournament.errors import EventError
from ..tournament.event import Tournament
from ..tournament.storage import EventDB, HandRow
from .room_app import Rooms, create_rooms_app

__all__ = ["OnlineTable", "online_app", "open_round"]


def _mac(secret: bytes, what: str, n: int) -> str:
    return hmac.new(secret, what.encode(), hashlib.sha256).hexdigest()[:n]


class OnlineTable(Room):
    """One table of an online round: a room whose decisions and finished hands go to the event file."""

    def __init__(
        self,
        event: Tournament,
        rnd: int,
        tbl: int,
        secret: bytes,
        seats: list[str],
        *,
        agent: str,
        takeover: float | None,
    ) -> None:
        self.event = event
        self.held: object = None
        self.rnd = rnd
        self.tbl = tbl
        super().__init__(
            event.variant,
            seats,
            hands=event.hands_per_match,
            seed=derive(event.seed, rnd, tbl),
            takeover=takeover,
            helper=agent,
        )
        self.absent = frozenset(i for i, who in enumerate(seats) if who != PERSON)
        self.code = _mac(secret, f"room:{rnd}:{tbl}", 12)
        self.host_secret = _mac(secret, f"host:{rnd}:{tbl}", 32)
        """the table's host page secret (its QR code per seat for the organiser), the same after a restart"""
        for i, seat in enumerate(self.seats):
            seat.secret = _mac(secret, f"seat:{rnd}:{tbl}:{i}", 32)
        for i in self.absent:
            self.seats[i].taken_over = True  # the table shows 托管 at an absent player's seat from the start
        self._resume()

    def agent_answer(self, seq: int, action: Action) -> bool:
        """An absent player's decision is 托管 as a silent person's is: the hand counts in the player's
        standings, so the record, the journal and the night's pages say the agent made it."""
        m = self.match
        if seq == self.seq and self.agent_due() and m.turn in self.absent:
            self.takeovers.append((self.seq, m.turn))
            self._takeover_hand[self.seq] = len(m.summaries) + 1
        return super().agent_answer(seq, action)

    @contextlib.contextmanager
    def journal(self, seq: int, action: Action, took: bool) -> Iterator[None]:
        """The decision journalled, made, and any hand it finishes stored, in one transaction of the event file."""
        finished = len(self.match.summaries)
        with self.event.db.transaction() as con:
            try:
                con.execute(
                    "INSERT INTO online_moves (round, tbl, seq, action, takeover) VALUES (?, ?, ?, ?, ?)",
                    (self.rnd, self.tbl, seq, str(action), int(took)),
                )
            except sqlite3.IntegrityError:
                raise EventError(
                    f"{self.event.db.path}: round {self.rnd} table {self.tbl} decision {seq} is already in the "
                    "online journal: another server is playing this table"
                ) from None
            yield
            if len(self.match.summaries) > finished:
                self._store(con)

    def _store(self, con: Any) -> None:
        """Store every finished hand not stored yet (inside the caller's transaction)."""
        names = self.event.seat_names(self.event.db.seating(self.rnd)[(self.rnd, self.tbl)])
        for number, (summ, record) in enumerate(zip(self.match.summaries, self.records(), strict=True), start=1):
            if self.event.db.hand(self.rnd, self.tbl, number) is not None:
                continue
            record.update({"event": self.event.name, "round": self.rnd, "table": self.tbl, "hand": number})
            record.update({"rotation": 0, "players": names, "online": True})
            result = {
                "finish": sorted(range(6), key=lambda s: summ.places[s]),
                "seed": summ.seed,
                "leader": summ.leader,
                "sweep": summ.sweep,
                "debts": [d.__dict__ for d in summ.debts],
                "online": True,
                "takeover": len(record["takeover"]),
            }
            row = HandRow(self.rnd, self.tbl, number, 0, list(summ.places), summ.scores, result, record)
            EventDB.put_hand(con, row)

    def _resume(self) -> None:
        """Replay the journal of this table (nothing: a new room), then store any finished hand it lacks."""
        moves = self.event.db.con.execute(
            "SELECT seq, action, takeover FROM online_moves WHERE round = ? AND tbl = ? ORDER BY seq",
            (self.rnd, self.tbl),
        ).fetchall()
        if not moves:
            if any(h.tbl == self.tbl for h in self.event.db.hands(self.rnd)):
                raise EventError(
                    f"{self.event.db.path}: round {self.rnd} table {self.tbl} already has results entered at the "
                    "table; it cannot be played online"
                )
            return
        where = f"{self.event.db.path}: the online journal of round {self.rnd} table {self.tbl}"
        self.replay(moves, lambda why: EventError(f"{where}: {why}"))
        with self.event.db.transaction() as con:
            self._store(con)


class _Held:
    """The event file held by this process's online server (an advisory flock, gone with the process, even
    after ``kill -9``): a second server would replay the same journal and both would play the same tables."""

    def __init__(self, event: Tournament) -> None:
        self.fd: int | None = None
        try:
            import fcntl
        except ImportError:  # no flock (Windows): two servers meet at the journal's unique decision instead
            return
        fd = os.open(event.db.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise EventError(
                f"{event.db.path}: another server is already playing an online round from this file; "
                "stop it first (its seat links stay the same)"
            ) from None
        self.fd = fd
        weakref.finalize(self, os.close, fd)


def open_round(
    event: Tournament,
    rnd: int,
    secret: bytes,
    *,
    absent: Collection[str] = (),
    agent: str = "greedy",
    takeover: float | None = 30.0,
) -> list[OnlineTable]:
    """The tables of round ``rnd`` as rooms, resumed from the journal; ``absent``: the players whose seats the
    ``agent`` plays (EventError naming one that is not in the round)."""
    seating = event.db.seating(rnd)
    if not seating:
        raise EventError(f"{event.db.path}: round {rnd} is not seated (seat it first: gouji event seat)")
    names = {n for seats in seating.values() for n in event.seat_names(seats)}
    unknown = sorted(set(absent) - names)
    if unknown:
        raise EventError(f"{event.db.path}: {unknown[0]!r} does not play in round {rnd}")
    held = _Held(event)
    tables = []
    for (_, tbl), seats in sorted(seating.items()):
        who = [agent if n in absent else PERSON for n in event.seat_names(seats)]
        table = OnlineTable(event, rnd, tbl, secret, who, agent=agent, takeover=takeover)
        table.held = held  # the file stays held while any of the round's tables is alive
        tables.append(table)
    return tables


def online_app(night: Starlette, rooms: Rooms) -> Starlette:
    """The night's pages with the round's rooms beside them (``/r/{code}``), one server, one lifespan."""
    rooms_app = create_rooms_app(rooms)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with night.router.lifespan_context(night), rooms_app.router.lifespan_context(rooms_app):
            yield

    app = Starlette(routes=[*rooms_app.routes, Mount("/", app=night)], lifespan=lifespan)
    app.state.rooms = rooms
    return app
