"""The tournament layer's typed errors.  The library raises them; only the CLI prints them."""

from __future__ import annotations

from ..errors import GoujiError


class EventError(GoujiError):
    """An event command that cannot be carried out (unknown round, hand already recorded, …)."""


class InputError(EventError, ValueError):
    """Bad input from a file or an option, reported as ``FILE:LINE: error: MESSAGE``.

    ``line`` is 0 when the input has no lines (a command-line option); the CLI then
    prints ``error: MESSAGE`` like any other error.
    """

    def __init__(self, message: str, *, file: str = "", line: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}: error: {self.message}"
        if self.file:
            return f"{self.file}: error: {self.message}"
        return self.message


class SchemaTooNew(EventError):
    """The event file was written by a newer version of this package."""


class EventFileError(EventError):
    """The event file could not take a change (busy, full, gone, an I/O error); nothing was written."""


class EventBusy(EventFileError):
    """Another command held the event file's write lock longer than the bounded wait."""


class EventFileFull(EventFileError):
    """The disk (or the file's size limit) is full: the change was rolled back, nothing was written."""


class EventFileChanged(EventFileError):
    """The file at the event's path is no longer the one that was opened (deleted, moved or replaced)."""


class AlreadyRecorded(EventError):
    """A hand that is already recorded was entered again (``correct`` or ``--replace`` change it)."""


class PlayedOnline(AlreadyRecorded):
    """A result entered for a table of an online round: the server stores its hands as they end, so an entry
    (or a correction) would overwrite what the engine refereed."""


class HandChanged(EventError):
    """The hand's stored result (or its waiting web entry) changed between the read a change was worked out
    from and the write: the change is refused, nothing is written, and the command can be run again."""


def _shown(value: int) -> str:
    """A number as a person reads it, or its size when it has too many digits to print."""
    if value.bit_length() > 80:
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    return f"{value:,}"


class ScoreTooBig(EventError):
    """A hand's points do not fit the 64-bit integers an event file stores; nothing was stored."""

    def __init__(self, score: int, key: tuple[int, int, int] | None = None) -> None:
        where = f"round {key[0]} table {key[1]} hand {key[2]}: " if key else ""
        super().__init__(
            f"{where}the points {_shown(score)} are too big to store (an event file keeps "
            f"{-(2**63):,} to {2**63 - 1:,}); nothing was stored: the rules' scoring (a hook such as "
            "team_score or sweep_multiplier) makes them"
        )
        self.score = score
