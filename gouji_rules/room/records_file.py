"""A room's records written as its hands end (``gouji room serve --records FILE``).

Each finished hand's record (docs/records.md, with its 托管 decisions) is appended to a JSON-lines file,
one record a line, flushed and synced as the hand ends, so ``gouji verify`` and ``gouji replay`` can check
a match while it is still being played, and a server that dies keeps every hand that ended.  The file
belongs to one match: a file that already holds records is continued only by the same room resumed from
its store (``--store``), which knows how many of its hands are in it; any other file with records in it is
refused rather than mixed with another match's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from ..errors import GoujiError
from .core import Room


class RecordsFileError(GoujiError):
    """A records file that cannot take this room's records."""


class RecordsFile:
    """The JSON-lines file a room's records go to, hand by hand (:meth:`catch_up` after each change)."""

    def __init__(self, path: str | Path, room: Room, resumed: bool) -> None:
        self.path = Path(path)
        done = len(room.records())
        held = _count(self.path)
        if held and not resumed:
            raise RecordsFileError(f"{self.path}: holds {held} records of another match; give a new file")
        if held > done:
            raise RecordsFileError(f"{self.path}: holds {held} records, but this room has finished {done} hands")
        try:
            self.out: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - open while the room is
        except OSError as e:
            raise RecordsFileError(f"{self.path}: cannot write: {e.strerror}") from None
        self.written = held

    def catch_up(self, room: Room) -> int:
        """Append the records of the hands that ended since the last call; how many."""
        if len(room.match.summaries) == self.written:  # called after every decision: most end no hand
            return 0
        records = room.records()
        new = records[self.written :]
        for record in new:
            self.out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        if new:
            self.out.flush()
            os.fsync(self.out.fileno())
            self.written = len(records)
        return len(new)

    def close(self) -> None:
        """Close the file."""
        self.out.close()


def _count(path: Path) -> int:
    """The whole lines in ``path`` (0 when it does not exist); a line cut by a kill is not counted and is
    ended, so the next record starts on a line of its own."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    except OSError as e:
        raise RecordsFileError(f"{path}: cannot read: {e.strerror}") from None
    if data and not data.endswith(b"\n"):
        raise RecordsFileError(f"{path}: its last line is cut (a server killed while writing it?); remove that line")
    return data.count(b"\n")


__all__ = ["RecordsFile", "RecordsFileError"]
