"""Reading a user's file: only regular files, never more than a bound, UTF-8 unless told.

Every command that reads a file a user names (a variant, a players or results CSV, a
records file) reads it through :func:`read_bytes` / :func:`read_text`, so that a FIFO,
a device such as ``/dev/zero``, a folder or a file of gigabytes is refused by its type
or size before anything is read past the bound, and a file saved by a spreadsheet in
GBK or UTF-16 gets a message saying what to do instead of a ``UnicodeDecodeError``.
"""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from .errors import GoujiError

MIB = 1 << 20
DEFAULT_LIMIT = 16 * MIB
"""Bytes read at most from one file unless the caller gives another bound."""


class InputFileError(GoujiError):
    """A file that cannot be read as asked: missing, not a regular file, too large, or not text."""

    def __init__(self, path: str | Path, message: str, *, missing: bool = False, kind: str = "") -> None:
        super().__init__(f"{path}: {message}")
        self.path = str(path)
        self.message = message
        self.missing = missing
        """there is no such file"""
        self.kind = kind
        """what the path is when it was refused by its type: "a folder", "a pipe (FIFO)", "a device" …"""


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in words (inputs and outputs refuse it by name)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def open_regular(path: str | Path) -> BinaryIO:
    """A regular file opened for reading in binary; anything else is refused by its type.

    The file is opened without blocking (a FIFO cannot hang the open) and its type is
    checked on the open descriptor, so a file swapped for a FIFO between check and open
    is still refused.  For readers that stream a file (records) with their own bounds.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(path, "no such file", missing=True) from None
    except IsADirectoryError:
        raise InputFileError(path, "is a folder, not a file", kind="a folder") from None
    except PermissionError:
        raise InputFileError(path, "permission denied") from None
    except OSError as e:
        raise InputFileError(path, e.strerror or "cannot be opened") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = file_kind(st.st_mode)
            raise InputFileError(path, f"is {kind}, not a regular file", kind=kind)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, *, limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of a regular file (:func:`open_regular`) of at most ``limit`` bytes."""
    with open_regular(path) as fh:
        try:
            size = os.fstat(fh.fileno()).st_size
            if size > limit:
                raise InputFileError(path, f"is {size:,} bytes; files of at most {limit:,} bytes are read")
            data = fh.read(limit + 1)
        except OSError as e:
            raise InputFileError(path, e.strerror or "cannot be read") from None
    if len(data) > limit:  # grew while being read
        raise InputFileError(path, f"is larger than {limit:,} bytes, the most that is read")
    return data


def _guess(data: bytes) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (len(data) > 1 and b"\x00" in data[:64]):
        return " (it looks like UTF-16, as Excel's 'Unicode text' saves)"
    try:
        data.decode("gb18030")
    except UnicodeDecodeError:
        return ""
    return " (it looks like GBK/GB18030, as Chinese Excel saves CSV)"


def decode(data: bytes, path: str | Path, *, encoding: str | None = None) -> str:
    """Text of ``data``: UTF-8 (a BOM is allowed and dropped) unless ``encoding`` is given."""
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise InputFileError(path, f"unknown encoding {encoding!r}") from None
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as e:
            raise InputFileError(path, f"is not valid {encoding} text (byte {e.start})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputFileError(
            path,
            f"line {line}: not UTF-8 text{_guess(data)}; save the file as UTF-8 (CSV UTF-8 in Excel) "
            "or give its encoding with --encoding",
        ) from None


def read_text(path: str | Path, *, limit: int = DEFAULT_LIMIT, encoding: str | None = None) -> str:
    """:func:`read_bytes`, then :func:`decode`."""
    return decode(read_bytes(path, limit=limit), path, encoding=encoding)


__all__ = ["DEFAULT_LIMIT", "MIB", "InputFileError", "decode", "open_regular", "read_bytes", "read_text"]


class DuplicateKey(ValueError):
    """A JSON object names one key twice: readers that keep the first copy and readers that keep the last
    would see two different records, so such an object is refused rather than read either way."""

    def __init__(self, key: str) -> None:
        shown = key if len(key) <= 40 else key[:40] + "…"
        super().__init__(f"key {shown!r} appears twice")
        self.key = key


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def loads_strict(text: str | bytes) -> Any:
    """``json.loads`` that refuses an object with a key given twice (:class:`DuplicateKey`, a ValueError).

    Python keeps the last copy, other readers the first; every JSON read as a record (a records
    file, a rules line, a hand stored in an event) goes through here so that what is checked is
    what any reader sees.
    """
    import json

    return json.loads(text, object_pairs_hook=_unique_pairs)
