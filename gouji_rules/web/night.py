"""The club night being served: how the server was started and the event it holds open.

The event is opened twice when the server starts: a connection for reading and one for writing, each used
by one worker thread at a time, so no SQLite call runs on the event loop.  A change waits at most
:data:`BUSY_SECONDS` for another writer (``gouji event record`` typed at the same moment, a second server);
then that phone gets a 503 page while the standings and the other phones go on being served from the
reading connection.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from starlette.concurrency import run_in_threadpool

from ..tournament.errors import (
    EventBusy,
    EventError,
    EventFileChanged,
)
from ..tournament.event import Tournament
from ..tournament.storage import EventDB
from . import tables
from .links import Links, event_secret

BUSY_SECONDS = 2.0
"""How long a phone's change waits for another writer to finish before its 503 page."""


@dataclass
class Config:
    """How the server was started."""

    event_path: Path
    public_url: str | None = None
    admin_token: str | None = None
    new_links: bool = False
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr))
    busy_seconds: float = BUSY_SECONDS
    season_folder: Path | None = None  # serve --season: the folder whose event files /season ranks
    home: str | None = None  # the club home that opened this night (gouji club): each page links back there


T = TypeVar("T")


class State:
    """The open event (a reading and a writing connection) and its links, created when the server starts.

    Opening writes nothing: the link secret is drawn (or, with ``--new-links``, replaced)
    by :meth:`start`, once the server knows it can listen.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        path, wait, weak = config.event_path, config.busy_seconds, config.new_links
        writer = Tournament(EventDB(path, write=True, timeout=wait, weak_secret=weak, threads=True))
        try:
            if writer.mode != "club":
                raise EventError(f"{path}: a bot event is played by 'gouji event run', not served")
            writer.db.checkpoint_after_commit = True
            reader_db = EventDB(path, write=False, timeout=wait, weak_secret=weak, threads=True)
            if reader_db.identity != writer.db.identity:
                reader_db.close()
                raise EventFileChanged(f"{path}: the event file was replaced while the server opened it; start again")
            self.reader = Tournament(reader_db, variant=writer.variant)
        except BaseException:
            writer.close()
            raise
        self.writer = writer
        self.name = writer.name
        self.links = Links(config.admin_token)
        self.offers: dict[tuple[int, int], tables.Offer] = {}
        self._reading = threading.Lock()
        self._writing = threading.Lock()

    def start(self) -> None:
        """Draw the link secret if the event has none, or a new one with ``--new-links`` (every old link dies)."""
        self.links.secret = event_secret(self.writer, renew=self.config.new_links)

    def close(self) -> None:
        """Close both connections, so that a stopped server leaves the event file for the next command to open."""
        self.reader.close()
        self.writer.close()

    def offer(self, event: Tournament, rnd: int, tbl: int) -> tables.Offer:
        """What the rules let a table enter (kept per table): worked out once, since every form and check of that table
        asks it."""
        if (rnd, tbl) not in self.offers:
            self.offers[(rnd, tbl)] = tables.offer(event, rnd, tbl)
        return self.offers[(rnd, tbl)]

    async def read(self, work: Callable[[Tournament], T]) -> T:
        """Run ``work`` on the reading connection in a worker thread (never on the event loop)."""
        return await run_in_threadpool(self._run, self._reading, self.reader, work)

    async def write(self, work: Callable[[Tournament], T]) -> T:
        """Run ``work`` on the writing connection in a worker thread; a busy file is EventBusy within a bound."""
        return await run_in_threadpool(self._run, self._writing, self.writer, work)

    def _run(self, lock: threading.Lock, event: Tournament, work: Callable[[Tournament], T]) -> T:
        if not lock.acquire(timeout=2 * self.config.busy_seconds + 1):
            raise EventBusy(f"{self.config.event_path}: the server's other requests hold the event file; try again")
        try:
            event.db.check_same_file()  # a vanished file is said, not shown as if it still held the evening
            return work(event)
        finally:
            lock.release()
