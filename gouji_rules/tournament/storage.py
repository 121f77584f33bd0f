"""One SQLite file per event: the schema, its migrations, and every read and write.

Why SQLite and these settings: an event must survive a crash, a kill -9 or a
pulled plug at any moment without losing a result that was acknowledged and
without storing a hand twice.  So:

* every command that changes the event runs in one ``BEGIN IMMEDIATE``
  transaction (:meth:`EventDB.transaction`), committed before the command
  reports success;
* the journal is WAL with ``synchronous=FULL``: a commit is on disk when
  ``COMMIT`` returns;
* a hand's key is ``(round, tbl, hand, rotation)``, the table's primary key, so
  a second insert of the same hand fails instead of duplicating it;
* ``event new`` builds the file beside its target and renames it into place, so
  a half-created event never exists under the real name;
* the WAL is never ignored: a reader who cannot use it in place (a read-only
  medium, another user's folder) reads a private copy of the file and its WAL,
  so the last results written before a crash are never silently missing;
* a write first checks that the file at the path is still the one that was
  opened (a file deleted or replaced under a running server takes no entry);
* every setting is range-checked when the file is opened: a tampered file is
  named as damaged instead of being trusted.

The schema carries its version in ``schema_version``; :data:`MIGRATIONS` lists
the steps from an empty file to the current schema, and opening an older file
applies the missing steps (each in its own transaction).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import stat
import tempfile
import threading
import time
import urllib.parse
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import temp_beside
from ..inputs import DuplicateKey, InputFileError, loads_strict, open_regular
from .errors import (
    EventBusy,
    EventError,
    EventFileChanged,
    EventFileError,
    EventFileFull,
    SchemaTooNew,
    ScoreTooBig,
)
from .tiebreaks import TIEBREAKS

# (version, what it does, SQL).  Append only: a shipped step is never edited.
MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "event, entrants, seating, hands, audit trail, bot faults",
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE entrants (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            team TEXT,
            bot TEXT
        );
        CREATE TABLE seats (
            round INTEGER NOT NULL,
            tbl INTEGER NOT NULL,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
            entrant INTEGER NOT NULL REFERENCES entrants(id),
            PRIMARY KEY (round, tbl, seat)
        );
        CREATE TABLE byes (
            round INTEGER NOT NULL,
            team TEXT NOT NULL,
            PRIMARY KEY (round, team)
        );
        CREATE TABLE hands (
            round INTEGER NOT NULL,
            tbl INTEGER NOT NULL,
            hand INTEGER NOT NULL,
            rotation INTEGER NOT NULL DEFAULT 0,
            places TEXT NOT NULL,
            score0 INTEGER NOT NULL,
            score1 INTEGER NOT NULL,
            result TEXT NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (round, tbl, hand, rotation)
        );
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL,
            action TEXT NOT NULL,
            round INTEGER, tbl INTEGER, hand INTEGER, rotation INTEGER,
            old TEXT, new TEXT
        );
        CREATE TABLE faults (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            round INTEGER NOT NULL, tbl INTEGER NOT NULL, hand INTEGER NOT NULL, rotation INTEGER NOT NULL,
            decision INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            entrant INTEGER NOT NULL REFERENCES entrants(id),
            kind TEXT NOT NULL,
            detail TEXT NOT NULL
        );
        """,
    ),
    (
        2,
        "where a change came from (FILE:LINE or the command line), and faults by entrant",
        """
        ALTER TABLE audit ADD COLUMN source TEXT NOT NULL DEFAULT '';
        CREATE INDEX faults_by_entrant ON faults(entrant);
        """,
    ),
    (
        3,
        "an online round's journal: each table's decisions in order, so a restarted server resumes its rooms",
        """
        CREATE TABLE online_moves (
            round INTEGER NOT NULL,
            tbl INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            takeover INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (round, tbl, seq)
        );
        """,
    ),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


@dataclass(frozen=True)
class Entrant:
    """One entrant as stored: a player or a bot, with the team it plays for; the id is what seats and hands refer to,
    so a renamed entrant keeps its results."""

    id: int
    name: str
    team: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class HandRow:
    """One stored hand: its key, places by seat, the two sides' points, what was entered, its record."""

    round: int
    tbl: int
    hand: int
    rotation: int
    places: list[int]
    scores: tuple[int, int]
    result: dict[str, Any]
    record: dict[str, Any]


@dataclass(frozen=True)
class Fault:
    """A bot's fault at a table (a crash, a timeout, an illegal action), kept with where it happened so the director
    can see why a bot's hand was played by the fallback."""

    round: int
    tbl: int
    hand: int
    rotation: int
    decision: int
    seat: int
    entrant: int
    kind: str
    detail: str


@dataclass
class NewEvent:
    """Everything ``event new`` stores, built in memory before the file is written."""

    meta: dict[str, Any]
    entrants: list[Entrant]
    seats: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # (round, tbl) -> entrant per seat
    byes: list[tuple[int, str]] = field(default_factory=list)


SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT = 10.0
"""Seconds a write waits for another command's write to finish before it says the file is busy."""
META_KEYS = ("name", "mode", "format", "rounds", "tables", "hands", "seed", "duplicate", "variant")
FORMATS = ("round_robin", "swiss", "rotating")
MAX_ROUNDS = 100
"""Rounds an event may have (two seasons of weekly rounds); the schedule is built in seconds."""
MAX_HANDS = 100
"""Hands a match may have (a match is an evening's play: 8 by default)."""
MAX_ENTRANTS = 600
"""Players or bots an event may have: 100 tables."""
MAX_EVENT_NAME = 200
"""Characters an event's name may have (it heads every page and sheet)."""
SECRET_RE = re.compile(r"[A-Za-z0-9_-]{32,128}")
"""A link secret as ``secrets.token_urlsafe(32)`` draws it (43 characters): anything shorter is guessable."""
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
"""The integers an SQLite column stores: a hand's points beyond them cannot be kept."""
TABLES = ("meta", "entrants", "seats", "byes", "hands", "audit", "faults", "schema_version")


def _connect(path: Path, *, timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """A new event being built: created if missing (only :meth:`EventDB.create` does this)."""
    con = sqlite3.connect(str(path), isolation_level=None, timeout=timeout)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("PRAGMA foreign_keys=ON")
    return con


def _uri(path: Path, **params: str) -> str:
    quoted = urllib.parse.quote(str(path.absolute()))
    return f"file:{quoted}?" + "&".join(f"{k}={v}" for k, v in params.items())


def _read_only_medium(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _can_index(path: Path) -> bool:
    """Can a WAL reader use or make the ``-shm`` index beside the file (a write-protected folder cannot)?"""
    shm = Path(f"{path}-shm")
    if shm.exists():
        return os.access(shm, os.R_OK | os.W_OK)
    return os.access(path.parent if str(path.parent) else Path("."), os.W_OK | os.X_OK)


def _can_write(path: Path) -> bool:
    """Can this user change the event (the file, and its folder for the WAL), on a medium that takes writes?"""
    folder = path.parent if str(path.parent) else Path(".")
    return not _read_only_medium(path) and os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)


_IN_USE: dict[tuple[int, int], int] = {}
"""(device, inode) of every event file this process has open through SQLite, with how many connections."""
_IN_USE_LOCK = threading.Lock()


def _opened_here(path: Path) -> bool:
    """Does this process already hold an SQLite connection to the regular file at ``path``?"""
    try:
        st = os.stat(path)
    except OSError:
        return False
    with _IN_USE_LOCK:
        return stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) in _IN_USE


def check_event_file(path: Path) -> None:
    """Refuse, before SQLite touches it, anything that is not an SQLite file: a folder, a FIFO, a device,
    an empty file, a CSV.  Nothing is written to it (SQLite would turn an empty file into a database).

    A file this process already has open through SQLite was checked when it was first opened and is
    not opened again here: closing any descriptor of a file drops every POSIX lock the process holds on
    it, SQLite's included.  Without its shared lock, another process closing its own connection takes
    the server for gone, checkpoints and deletes the ``-wal`` and ``-shm`` files under it, and from then
    on the two write to different WALs: a change one acknowledged is lost when the other checkpoints.
    """
    if _opened_here(path):
        return
    try:
        with open_regular(path) as fh:  # the shared guard: a FIFO cannot hang the open, a swap is caught
            head = fh.read(len(SQLITE_MAGIC))
    except InputFileError as e:
        if e.missing:
            what = "no such event file"
        elif e.kind:  # refused by its type: a folder, a pipe, a device
            what = f"is {e.kind}, not an event file"
        else:
            what = f"cannot be opened ({e.message})"
        raise EventError(f"{path}: {what}") from None
    except OSError as e:
        raise EventError(f"{path}: cannot be read ({e.strerror})") from None
    if not head:
        raise EventError(f"{path}: is empty, not an event file (create one with 'gouji event new')")
    if head != SQLITE_MAGIC:
        raise EventError(f"{path}: is not an event file (not an SQLite database)")


def _version(con: sqlite3.Connection) -> int:
    row = con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if row is None:
        return 0
    v = con.execute("SELECT max(version) FROM schema_version").fetchone()[0]
    return int(v or 0)


def migrate(con: sqlite3.Connection) -> int:
    """Bring the file's schema up to :data:`SCHEMA_VERSION`, one transaction per step."""
    current = _version(con)
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"the event file has schema version {current}; this gouji_rules knows up to {SCHEMA_VERSION}"
        )
    for version, what, sql in MIGRATIONS:
        if version <= current:
            continue
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, what TEXT NOT NULL)")
            for stmt in sql.split(";"):
                if stmt.strip():
                    con.execute(stmt)
            con.execute("INSERT INTO schema_version (version, what) VALUES (?, ?)", (version, what))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        current = version
    return current


def damaged(path: Path, why: str) -> EventError:
    """The one wording for a file whose content cannot be trusted."""
    return EventError(f"{path}: the event file is damaged: {why}")


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def check_secret(path: Path, value: Any) -> str:
    """The stored link secret, or the damaged-file error: an empty or short secret makes guessable links."""
    if type(value) is not str or SECRET_RE.fullmatch(value) is None:
        raise damaged(
            path,
            "setting 'web_secret' (the table links' secret) is not 32 to 128 URL-safe characters, so links could "
            "be guessed; 'gouji event serve FILE --new-links' draws a new one",
        )
    return value


def _check_meta(path: Path, con: sqlite3.Connection, *, weak_secret: bool = False) -> dict[str, Any]:
    """The event's settings, each of the type and within the range the commands rely on.

    A tampered file (``hands`` set to 1e9, a negative round count, a number where a name
    belongs, an empty link secret) is named as damaged here, when it is opened, before any
    command builds lists or pages from those numbers.  ``weak_secret`` lets ``serve
    --new-links`` open a file whose only damage is the secret it is about to replace.
    """
    try:
        meta = {str(k): loads_strict(v) for k, v in con.execute("SELECT key, value FROM meta")}
    except DuplicateKey as e:
        raise damaged(path, f"its settings are not readable: {e}") from None
    except (TypeError, ValueError, RecursionError):
        raise damaged(path, "its settings are not readable") from None
    kinds: dict[str, type] = {
        "name": str,
        "mode": str,
        "format": str,
        "rounds": int,
        "tables": int,
        "hands": int,
        "seed": int,
        "duplicate": bool,
        "variant": dict,
    }
    for key in META_KEYS:
        if key not in meta or type(meta[key]) is not kinds[key]:
            raise damaged(path, f"setting {key!r} is missing or of the wrong kind")
    checks = [
        ("name", 1 <= len(meta["name"]) <= MAX_EVENT_NAME, f"1 to {MAX_EVENT_NAME} characters"),
        ("mode", meta["mode"] in ("club", "bots"), "'club' or 'bots'"),
        ("format", meta["format"] in FORMATS, " or ".join(FORMATS)),
        ("rounds", _whole(meta["rounds"], 1, MAX_ROUNDS), f"1 to {MAX_ROUNDS}"),
        ("tables", _whole(meta["tables"], 1, MAX_ENTRANTS // 6), f"1 to {MAX_ENTRANTS // 6}"),
        ("hands", _whole(meta["hands"], 1, MAX_HANDS), f"1 to {MAX_HANDS}"),
        ("seed", _whole(meta["seed"], -(2**63), 2**64 - 1), "a 64-bit number"),
    ]
    for key, ok, expected in checks:
        if not ok:
            shown = repr(meta[key])
            raise damaged(path, f"setting {key!r} is {shown[:40]}{'…' if len(shown) > 40 else ''}; expected {expected}")
    if "tiebreaks" in meta:
        order = meta["tiebreaks"]
        if (
            type(order) is not list
            or not 1 <= len(order) <= len(TIEBREAKS)
            or any(type(t) is not str or t not in TIEBREAKS for t in order)
            or len(set(order)) != len(order)
        ):
            raise damaged(path, f"setting 'tiebreaks' is not a list of distinct tiebreaks ({', '.join(TIEBREAKS)})")
    if "web_secret" in meta and not weak_secret:
        check_secret(path, meta["web_secret"])
    return meta


def _busy_or(e: sqlite3.OperationalError, timeout: float) -> str:
    text = str(e)
    if "locked" in text or "busy" in text:
        return (
            f"the event file is busy: another command has been writing to it for {timeout:g} s; "
            "nothing was changed, try again"
        )
    if "readonly" in text or "read-only" in text:
        return "the event file cannot be written (read-only); nothing was changed"
    if "full" in text:
        return (
            "the disk is full (or the file reached its size limit); nothing was changed: free some space and try again"
        )
    return f"cannot use the event file ({text})"


def schema_uri(path: Path) -> str:
    """A read-only URI to look at a file's tables before it is known to be an event.

    Where SQLite could not keep its WAL index (a read-only medium, another user's folder) it is
    opened ``immutable``: the tables of an event are in the file itself (``event new``
    checkpoints), and the results, which may be in the WAL, are read through :class:`EventDB`.
    """
    if _read_only_medium(path) or not _can_index(path):
        return _uri(path, mode="ro", immutable="1")
    return _uri(path, mode="ro")


def _hot_wal(path: Path) -> bool:
    """Does a ``-wal`` file beside the event hold changes not yet copied into the file itself?"""
    try:
        return os.stat(f"{path}-wal").st_size > 0
    except FileNotFoundError:
        return False
    except OSError:
        return True  # there, but not even its size can be read: reading the file alone could miss results


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_size, st.st_mtime_ns)


def _private_copy(path: Path) -> tuple[Path, str]:
    """The event and its WAL copied into a new private folder, so SQLite can apply the WAL there.

    Taken again while another process changes the files under the copy (their size or time
    moved during it); what cannot be read is an error that says what to do, never a read
    of the file without its last results.
    """
    folder = tempfile.mkdtemp(prefix="gouji-event-")
    copy = Path(folder) / "event.sqlite"
    wal = Path(f"{path}-wal")
    try:
        for _ in range(20):
            before = (_stamp(path), _stamp(wal))
            shutil.copyfile(path, copy)
            if before[1] is not None:
                shutil.copyfile(wal, f"{copy}-wal")
            if (_stamp(path), _stamp(wal)) == before:
                return copy, folder
            time.sleep(0.05)
        raise EventError(f"{path}: kept changing while it was read; try again")
    except OSError as e:
        shutil.rmtree(folder, ignore_errors=True)
        raise EventError(
            f"{path}: its last results are in {wal.name}, which this user can open only by copying it, and the copy "
            f"failed ({e.strerror or e}); run the command as the event's owner, or copy both files to a folder "
            "you can write and read that copy"
        ) from None
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


class EventDB:
    """An open event file.  Reads are plain; every write goes through :meth:`transaction`."""

    def __init__(
        self,
        path: str | Path,
        *,
        write: bool = True,
        timeout: float = BUSY_TIMEOUT,
        weak_secret: bool = False,
        threads: bool = False,
    ) -> None:
        """Open an event file for changes, or with ``write=False`` read-only (what read commands use).

        A read opens the file with SQLite's ``mode=ro``, so reading never changes a byte.  Where
        SQLite cannot keep its WAL index beside the file (a read-only medium, a folder this user
        may not write), a file with an empty WAL is read ``immutable``, and one whose WAL holds
        changes is read from a private copy of both (deleted on :meth:`close`).  An older schema
        is migrated in a copy in memory.  A file that is not an event is refused before anything
        could be written to it, and a write refuses a file that cannot be written before
        SQLite would open it read-only behind the command's back.  ``threads`` lets the
        connection be used from several threads, one at a time (the server keeps a lock).
        """
        self.path = Path(path)
        self.write = write
        self.timeout = timeout
        self.checkpoint_after_commit = False
        self._copy_folder: str | None = None
        check_event_file(self.path)
        target = self.path
        params = {"mode": "rw"} if write else {"mode": "ro"}
        if write and not _can_write(self.path):
            raise EventError(
                f"{self.path}: cannot be written (a read-only medium, or this user may not write the file or its "
                "folder); nothing was changed. Copy it to a folder you can write to change it; reads work as it is"
            )
        if not write and (_read_only_medium(self.path) or not _can_index(self.path)):
            if _hot_wal(self.path):
                target, self._copy_folder = _private_copy(self.path)
                weakref.finalize(self, shutil.rmtree, self._copy_folder, True)
            else:  # nobody can write here and the WAL is empty: the file alone is the whole event
                params["immutable"] = "1"
        try:
            opened = os.stat(self.path)
            self.con = sqlite3.connect(
                _uri(target, **params), uri=True, isolation_level=None, timeout=timeout, check_same_thread=not threads
            )
        except (OSError, sqlite3.Error) as e:
            self._drop_copy()
            raise EventError(f"{self.path}: cannot be opened ({e})") from None
        self.identity = (opened.st_dev, opened.st_ino)
        self._in_use = False
        try:
            names = {r[0] for r in self.con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if any(t not in names for t in TABLES):
                raise EventError(f"{self.path}: is not an event file (an SQLite database without the event tables)")
            version = _version(self.con)
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"{self.path}: the event file has schema version {version}; "
                    f"this gouji_rules knows up to {SCHEMA_VERSION}"
                )
            if version < SCHEMA_VERSION:
                if write:
                    migrate(self.con)
                else:  # never write a read: bring a copy in memory up to date
                    mem = sqlite3.connect(":memory:", isolation_level=None)
                    self.con.backup(mem)
                    self.con.close()
                    self.con = mem
                    migrate(self.con)
            if write:
                self.con.execute("PRAGMA synchronous=FULL")
                self.con.execute("PRAGMA foreign_keys=ON")
            self._meta: dict[str, Any] | None = _check_meta(self.path, self.con, weak_secret=weak_secret)
            self.check_same_file()
            with _IN_USE_LOCK:
                _IN_USE[self.identity] = _IN_USE.get(self.identity, 0) + 1
            self._in_use = True
        except BaseException as e:
            self.con.close()
            self._drop_copy()
            if isinstance(e, sqlite3.OperationalError):
                raise EventError(f"{self.path}: {_busy_or(e, timeout)}") from None
            if isinstance(e, sqlite3.DatabaseError):
                raise EventError(f"{self.path}: is not an event file or is damaged ({e})") from None
            raise

    def _drop_copy(self) -> None:
        if self._copy_folder is not None:
            shutil.rmtree(self._copy_folder, ignore_errors=True)
            self._copy_folder = None

    def check_same_file(self) -> None:
        """Refuse to go on when the file at the path is not the one opened: deleted, moved away, or replaced.

        SQLite keeps writing to the file it opened, even once it is unlinked; without this a
        server would acknowledge entries into a file that vanishes when it stops, or mix them
        into the file a restore put in its place.
        """
        try:
            st = os.stat(self.path)
        except OSError as e:
            raise EventFileChanged(
                f"{self.path}: the event file is gone from its path ({e.strerror}): it was deleted or moved after "
                "it was opened; nothing was written. Put it back, then start the command (or the server) again"
            ) from None
        if (st.st_dev, st.st_ino) != self.identity or st.st_nlink < 1:
            raise EventFileChanged(
                f"{self.path}: the file at this path is no longer the event file that was opened (it was replaced "
                "or copied over); nothing was written. Start the command (or the server) again to use the new file"
            )

    @classmethod
    def create(cls, path: str | Path, new: NewEvent) -> EventDB:
        """Write a new event file completely (beside the target, then renamed) and open it."""
        target = Path(path)
        if target.exists():
            raise EventError(f"{target}: already exists; an event file is never overwritten")
        tmp = temp_beside(target, ".tmp")
        try:
            con = _connect(tmp)
            migrate(con)
            con.execute("BEGIN IMMEDIATE")
            for k, v in new.meta.items():
                con.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (k, json.dumps(v, ensure_ascii=False)))
            for e in new.entrants:
                con.execute(
                    "INSERT INTO entrants (id, name, team, bot) VALUES (?, ?, ?, ?)", (e.id, e.name, e.team, e.bot)
                )
            for (rnd, tbl), entrants in sorted(new.seats.items()):
                for seat, eid in enumerate(entrants):
                    con.execute(
                        "INSERT INTO seats (round, tbl, seat, entrant) VALUES (?, ?, ?, ?)", (rnd, tbl, seat, eid)
                    )
            for rnd, team in new.byes:
                con.execute("INSERT INTO byes (round, team) VALUES (?, ?)", (rnd, team))
            con.execute("COMMIT")
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            con.close()
            if target.exists():
                raise EventError(f"{target}: already exists; an event file is never overwritten")
            os.replace(tmp, target)
        finally:
            for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                p.unlink(missing_ok=True)
        return cls(target, write=True)

    def close(self) -> None:
        """Close the connection and release this process's claim on the file, so another process (or a copy being
        checked) may open it."""
        self.con.close()
        self._drop_copy()
        if self._in_use:
            self._in_use = False
            with _IN_USE_LOCK:
                left = _IN_USE.pop(self.identity, 1) - 1
                if left:
                    _IN_USE[self.identity] = left

    def __enter__(self) -> EventDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One all-or-nothing change: committed on a normal exit, rolled back on any exception.

        ``BEGIN IMMEDIATE`` takes the write lock first, so whatever is read inside (is this hand
        already recorded?) stays true until the commit; another writer waits for it at most
        ``timeout`` seconds, then :class:`EventBusy` says so.  The file is checked to be the one
        opened (:meth:`check_same_file`) once the lock is held and again just before the commit.
        A full disk, during the change or at its commit, is :class:`EventFileFull` with the change
        rolled back; a rollback that SQLite already did itself is not an error.
        """
        if not self.write:
            raise EventError(f"{self.path}: opened for reading; a change needs EventDB(path, write=True)")
        try:
            self.con.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            raise self._typed(e) from None
        try:
            self.check_same_file()
            yield self.con
            self.check_same_file()
        except sqlite3.OperationalError as e:
            self._rollback()
            raise self._typed(e) from None
        except BaseException:
            self._rollback()
            raise
        try:
            self.con.execute("COMMIT")
        except sqlite3.OperationalError as e:
            self._rollback()
            raise self._typed(e) from None
        if self.checkpoint_after_commit:
            self._checkpoint()

    def _typed(self, e: sqlite3.OperationalError) -> EventFileError:
        message = f"{self.path}: {_busy_or(e, self.timeout)}"
        text = str(e)
        if "full" in text:
            return EventFileFull(message)
        if "locked" in text or "busy" in text:
            return EventBusy(message)
        return EventFileError(message)

    def _rollback(self) -> None:
        """Undo the open transaction, if SQLite has not undone it already (it does after some failed COMMITs)."""
        if self.con.in_transaction:
            with suppress(sqlite3.Error):  # not committed either way; the next BEGIN starts clean
                self.con.execute("ROLLBACK")

    def _checkpoint(self) -> None:
        """Copy the WAL into the file and empty it, waiting briefly for readers.

        A long-running writer (the server) keeps the WAL empty between changes, so a file
        put in the event's place never finds this file's changes in a WAL beside it.
        """
        try:
            self.con.execute("PRAGMA busy_timeout = 200")
            self.con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:
            pass  # a reader held it: the changes are committed all the same, the next checkpoint catches up
        finally:
            self.con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")

    # -- reads -----------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        """The event's settings as stored, checked once on first use: a tampered or foreign file is refused before any
        standings are shown."""
        if self._meta is None:
            self._meta = _check_meta(self.path, self.con)
        return self._meta

    def schema_version(self) -> int:
        """The file's schema version, read so an older event is upgraded (never misread) when opened."""
        return _version(self.con)

    def entrants(self) -> list[Entrant]:
        """Every entrant in the order they were added: the order seats and byes were drawn in, so it is kept."""
        rows = self.con.execute("SELECT id, name, team, bot FROM entrants ORDER BY id")
        return [Entrant(int(i), str(n), t, b) for i, n, t, b in rows]

    def seating(self, rnd: int | None = None) -> dict[tuple[int, int], list[int]]:
        """(round, table) -> the entrant id in seats 0..5."""
        sql = "SELECT round, tbl, seat, entrant FROM seats"
        args: tuple[Any, ...] = ()
        if rnd is not None:
            sql += " WHERE round = ?"
            args = (rnd,)
        out: dict[tuple[int, int], list[int]] = {}
        for r, t, s, e in self.con.execute(sql + " ORDER BY round, tbl, seat", args):
            out.setdefault((int(r), int(t)), [0] * 6)[int(s)] = int(e)
        return out

    def byes(self) -> list[tuple[int, str]]:
        """The ``(round, team)`` byes, so standings and the next round's draw count them."""
        return [(int(r), str(t)) for r, t in self.con.execute("SELECT round, team FROM byes ORDER BY round, team")]

    def rounds_seated(self) -> list[int]:
        """The rounds already seated, so a round is never drawn twice."""
        return [int(r) for (r,) in self.con.execute("SELECT DISTINCT round FROM seats ORDER BY round")]

    def hands(self, rnd: int | None = None) -> list[HandRow]:
        """The results entered so far (of one round, or of all): what standings, verification and the public pages
        read."""
        sql = "SELECT round, tbl, hand, rotation, places, score0, score1, result, record FROM hands"
        args: tuple[Any, ...] = ()
        if rnd is not None:
            sql += " WHERE round = ?"
            args = (rnd,)
        return [
            HandRow(
                int(r),
                int(t),
                int(h),
                int(rot),
                loads_strict(p),
                (int(a), int(b)),
                loads_strict(res),
                loads_strict(rec),
            )
            for r, t, h, rot, p, a, b, res, rec in self.con.execute(sql + " ORDER BY round, tbl, rotation, hand", args)
        ]

    def hand(self, rnd: int, tbl: int, hand: int, rotation: int = 0) -> HandRow | None:
        """One result by its place in the schedule, or None if not yet entered: result entry checks before it writes."""
        rows = [h for h in self.hands(rnd) if (h.tbl, h.hand, h.rotation) == (tbl, hand, rotation)]
        return rows[0] if rows else None

    def revision(self, rnd: int, tbl: int, hand: int, rotation: int = 0) -> int:
        """The hand's revision: the audit id of the last change to its stored result, 0 before any.

        A command that works out a change from what it read carries the revision it read, and
        ``club.record`` compares it inside the write transaction: a hand changed by
        someone else in between (another command, the web) is refused instead of overwritten.
        Entries waiting on the web and their rejections are not changes to the hand.
        """
        row = self.con.execute(
            "SELECT id FROM audit WHERE round = ? AND tbl = ? AND hand = ? AND rotation = ? "
            "AND action IN ('record', 'correct') ORDER BY id DESC LIMIT 1",
            (rnd, tbl, hand, rotation),
        ).fetchone()
        return 0 if row is None else int(row[0])

    def online_tables(self, rnd: int) -> set[int]:
        """The tables of round ``rnd`` played online (``gouji event serve --online``): their results are the
        engine's, never entered or corrected by hand."""
        rows = self.con.execute("SELECT DISTINCT tbl FROM online_moves WHERE round = ?", (rnd,)).fetchall()
        return {int(r[0]) for r in rows}

    def stored_units(self) -> set[tuple[int, int, int]]:
        """(round, table, rotation) of every match that has hands stored."""
        rows = self.con.execute("SELECT DISTINCT round, tbl, rotation FROM hands")
        return {(int(r), int(t), int(rot)) for r, t, rot in rows}

    def faults(self) -> list[Fault]:
        """Every bot fault in the order they happened, for the director's report."""
        rows = self.con.execute(
            "SELECT round, tbl, hand, rotation, decision, seat, entrant, kind, detail FROM faults ORDER BY id"
        )
        return [
            Fault(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]), str(r[7]), str(r[8]))
            for r in rows
        ]

    def audit(self) -> list[dict[str, Any]]:
        """Every change to a result (who, when, old and new), so a corrected score can always be traced."""
        cur = self.con.execute(
            "SELECT id, at, action, round, tbl, hand, rotation, old, new, source FROM audit ORDER BY id"
        )
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur]

    # -- writes (call inside a transaction) ------------------------------------------------

    @staticmethod
    def put_hand(con: sqlite3.Connection, row: HandRow, *, replace: bool = False) -> None:
        """Store one hand; :class:`ScoreTooBig` (nothing stored) when a score does not fit the file's integers."""
        for score in row.scores:
            if not INT64_MIN <= score <= INT64_MAX:
                raise ScoreTooBig(score, (row.round, row.tbl, row.hand))
        values = (
            row.round,
            row.tbl,
            row.hand,
            row.rotation,
            json.dumps(row.places),
            row.scores[0],
            row.scores[1],
            json.dumps(row.result, ensure_ascii=False, sort_keys=True),
            json.dumps(row.record, ensure_ascii=False, sort_keys=True),
        )
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        con.execute(
            f"{verb} INTO hands (round, tbl, hand, rotation, places, score0, score1, result, record)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )

    @staticmethod
    def put_audit(
        con: sqlite3.Connection,
        action: str,
        key: Sequence[int],
        old: dict[str, Any] | None,
        new: dict[str, Any] | None,
        source: str,
        at: str,
    ) -> None:
        """Write one audit line inside the caller's transaction, so a change and its trace are committed together or
        not at all."""
        con.execute(
            "INSERT INTO audit (at, action, round, tbl, hand, rotation, old, new, source)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                at,
                action,
                *key,
                None if old is None else json.dumps(old, ensure_ascii=False, sort_keys=True),
                None if new is None else json.dumps(new, ensure_ascii=False, sort_keys=True),
                source,
            ),
        )

    @staticmethod
    def put_fault(con: sqlite3.Connection, f: Fault) -> None:
        """Write one bot fault inside the caller's transaction, with the hand it belongs to."""
        con.execute(
            "INSERT INTO faults (round, tbl, hand, rotation, decision, seat, entrant, kind, detail)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (f.round, f.tbl, f.hand, f.rotation, f.decision, f.seat, f.entrant, f.kind, f.detail),
        )

    @staticmethod
    def put_seats(con: sqlite3.Connection, rnd: int, seats: dict[int, list[int]], byes: Sequence[str]) -> None:
        """Write a round's seating and byes inside the caller's transaction, so a half-drawn round never reaches the
        file."""
        for tbl, entrants in sorted(seats.items()):
            for seat, eid in enumerate(entrants):
                con.execute("INSERT INTO seats (round, tbl, seat, entrant) VALUES (?, ?, ?, ?)", (rnd, tbl, seat, eid))
        for team in byes:
            con.execute("INSERT INTO byes (round, team) VALUES (?, ?)", (rnd, team))
