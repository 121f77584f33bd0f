"""A room kept in a file (``gouji room serve --store FILE``): a server restarted mid-match resumes it.

The file is SQLite, like an event file, for the same reasons: a decision is one short transaction that
is on disk (``synchronous=FULL``) before the decision is made in memory, a kill at any moment leaves the
file at a decision boundary (no torn line to guess about), and a second server on the same file is
refused by the journal's key rather than by luck.  It holds the room's settings (the rules' fingerprint,
seed, seats, hands, options, the room's code, the seats' and the host's secrets, so every link still
works) and the journal of decisions (``moves``: each action as text and whether 托管 made it).  Started
again, the room is built from the settings and the journal replayed through the engine, each action
checked legal again: the same hand, the same cards, the same turn and scores, the same 托管 marks.  The
finished hands' records come from the replay (``Room.records``), so ``gouji verify`` checks them.

A file's own settings win over the command's on a restart (the match must go on as it began); its
rules must be the same rules (by fingerprint), or it is refused.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import GoujiError
from ..game.actions import Action
from ..variant import Variant
from .core import Room

FORMAT = "gouji-room-store"
VERSION = 1

_HELD: dict[int, int] = {}

_SCHEMA = """
CREATE TABLE room (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE moves (seq INTEGER PRIMARY KEY, action TEXT NOT NULL, takeover INTEGER NOT NULL);
"""


class RoomStoreError(GoujiError):
    """A room's store that cannot be used: not a room store, damaged, another rules', busy."""


class StoredRoom(Room):
    """A room whose every decision is journalled in ``path`` before it is made (:func:`open_room`)."""

    def __init__(self, path: Path, con: sqlite3.Connection, variant: Variant, settings: dict[str, Any]) -> None:
        self.path = path
        self.con = con
        self.settings = settings
        super().__init__(
            variant,
            settings["seats"],
            hands=settings["hands"],
            seed=settings["seed"],
            takeover=settings["takeover"],
            show_hands_after=settings["show_hands"],
            advice=settings["advice"],
        )
        self.code = settings["code"]
        for seat, secret in zip(self.seats, settings["secrets"], strict=True):
            seat.secret = secret

    @property
    def host_secret(self) -> str:
        """The host page's secret, kept so the host's link works after a restart too."""
        return str(self.settings["host_secret"])

    @contextlib.contextmanager
    def journal(self, seq: int, action: Action, took: bool) -> Iterator[None]:
        """The decision written and synced before it is made."""
        try:
            with self.con:
                self.con.execute(
                    "INSERT INTO moves (seq, action, takeover) VALUES (?, ?, ?)", (seq, str(action), int(took))
                )
        except sqlite3.IntegrityError:
            raise RoomStoreError(
                f"{self.path}: decision {seq} is already stored: another server plays this room"
            ) from None
        except sqlite3.Error as e:
            raise RoomStoreError(f"{self.path}: cannot store decision {seq}: {e}") from None
        yield

    def close(self) -> None:
        """Close the file and let another server take the room."""
        held = _HELD.pop(id(self.con), None)
        self.con.close()
        if held is not None:
            os.close(held)

    def resume(self) -> int:
        """Make the journal's decisions again, each checked legal; how many there were."""
        moves = self.con.execute("SELECT seq, action, takeover FROM moves ORDER BY seq").fetchall()
        return self.replay(moves, lambda why: RoomStoreError(f"{self.path}: {why}"))


def open_room(path: str | Path, variant: Variant, settings: dict[str, Any]) -> tuple[StoredRoom, bool]:
    """The room kept in ``path``: a new one made with ``settings`` (``seats``, ``hands``, ``seed``,
    ``takeover``, ``show_hands``, ``advice``, ``agents``) when the file does not exist, else the stored
    one resumed (its own settings win); and whether it was resumed.  RoomStoreError names the file and
    what is wrong."""
    p = Path(path)
    if p.exists() or p.is_symlink():
        con = _connect(p)
        stored = _settings(p, con)
        if stored["rules"] != variant.fingerprint():
            con.close()
            raise RoomStoreError(
                f"{p}: this room was played under other rules ({stored['title']}); give the same rules, or "
                "another --store file for a new room"
            )
        room = StoredRoom(p, con, variant, stored)
        room.resume()
        return room, True
    con = _create(p, variant, settings)
    fresh = StoredRoom(p, con, variant, _settings(p, con))
    return fresh, False


def _connect(p: Path) -> sqlite3.Connection:
    """Open the store and hold it: a second server on the same file is refused, not left to collide."""
    import fcntl

    if not p.is_file():
        raise RoomStoreError(f"{p}: not a file")
    try:
        held = os.open(p, os.O_RDONLY)
    except OSError as e:
        raise RoomStoreError(f"{p}: cannot open: {e.strerror}") from None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(held)
        raise RoomStoreError(f"{p}: another server is playing this room (the file is in use)") from None
    try:
        con = sqlite3.connect(f"file:{p}?mode=rw", uri=True, check_same_thread=False)
        con.execute("PRAGMA synchronous=FULL")
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as e:
        os.close(held)
        raise RoomStoreError(f"{p}: not a room store ({e})") from None
    _HELD[id(con)] = held  # the lock lives as long as the process (the server) does
    return con


def _settings(p: Path, con: sqlite3.Connection) -> dict[str, Any]:
    try:
        rows = dict(con.execute("SELECT key, value FROM room").fetchall())
        con.execute("SELECT seq, action, takeover FROM moves LIMIT 1").fetchall()
        if rows.get("format") != FORMAT:
            raise RoomStoreError(f"{p}: not a room store (gouji room serve --store writes one)")
        if int(rows.get("version", "0")) > VERSION:
            raise RoomStoreError(f"{p}: a room store of version {rows['version']}; this gouji_rules knows {VERSION}")
        settings: dict[str, Any] = json.loads(rows["settings"])
    except (sqlite3.Error, KeyError, ValueError) as e:
        con.close()
        raise RoomStoreError(f"{p}: not a room store, or a damaged one ({e})") from None
    except RoomStoreError:
        con.close()
        raise
    return settings


def _create(p: Path, variant: Variant, settings: dict[str, Any]) -> sqlite3.Connection:
    """Write the new store beside ``p`` and link it into place: a store exists whole or not at all."""
    import secrets

    from ..atomic import temp_beside

    full = dict(settings)
    full.update(
        code=secrets.token_urlsafe(6),
        secrets=[secrets.token_urlsafe(16) for _ in settings["seats"]],
        host_secret=secrets.token_urlsafe(16),
        rules=variant.fingerprint(),
        title=variant.title or variant.name,
    )
    tmp = temp_beside(p, ".room")
    try:
        con = sqlite3.connect(tmp)
        with contextlib.closing(con), con:
            con.executescript(_SCHEMA)
            con.executemany(
                "INSERT INTO room (key, value) VALUES (?, ?)",
                [("format", FORMAT), ("version", str(VERSION)), ("settings", json.dumps(full, ensure_ascii=False))],
            )
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        try:
            os.link(tmp, p)  # never over a file that appeared meanwhile
        except FileExistsError:
            raise RoomStoreError(f"{p}: appeared while the room was being made; start again") from None
    except (OSError, sqlite3.Error) as e:
        raise RoomStoreError(f"{p}: cannot write the room's store: {getattr(e, 'strerror', None) or e}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return _connect(p)


__all__ = ["RoomStoreError", "StoredRoom", "open_room"]
