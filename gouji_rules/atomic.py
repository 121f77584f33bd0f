"""Write a file completely or not at all: a temporary file beside it, synced, renamed at the end.

Errors name the file the user asked for, never the temporary one.  A new file gets the
permissions any new file gets (the umask), not mkstemp's private 0600; a file written over
keeps its own.  The target is checked by :func:`gouji_rules.outputs.check_target` when the
write starts and again just before the rename, so a path that became a database, a device
or a folder while the work ran is refused, and the old file is left as it was.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .outputs import OutputPathError, check_target

WRITE_ERRORS = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EROFS") if hasattr(errno, name)
)
"""Errors of writing the temporary file, reported with the target's name."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def temp_beside(target: Path, suffix: str = "") -> Path:
    """A new empty temporary file in the target's folder (so the rename is atomic)."""
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise FileNotFoundError(2, "no such folder", str(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:64]}.", suffix=suffix, dir=parent)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(target)) from None
    os.close(fd)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode) if target.is_file() else 0o666 & ~_umask()
        os.chmod(tmp, mode)
    except OSError:
        os.unlink(tmp)
        raise
    return Path(tmp)


def check_writable(path: str | Path) -> None:
    """Fail now, before any work, if ``path`` may not or cannot be written."""
    temp_beside(Path(check_target(path))).unlink()


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable: fsync the folder itself, where the platform lets it be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # a platform or file system without folder handles: the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class _Terminated(SystemExit):
    pass


@contextmanager
def _exit_on_terminate() -> Iterator[None]:
    """SIGTERM and SIGHUP unwind (so the temporary file is removed) where they would kill outright."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def unwind(signum: int, frame: Any) -> None:
        raise _Terminated(128 + signum)

    old: dict[int, Any] = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None and signal.getsignal(sig) == signal.SIG_DFL:
            old[sig] = signal.signal(sig, unwind)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


@contextmanager
def atomic_writer(path: str | Path) -> Iterator[IO[str]]:
    """A text file (UTF-8) that replaces ``path`` only when the block ends without an error.

    A symbolic link to a file writes the file it names.  Text that UTF-8 cannot hold (a lone
    surrogate) is written as a backslash escape (``\\udc80``), never an error after the work is done.
    """
    given = str(path)
    target = Path(check_target(given))
    with _exit_on_terminate():
        tmp = temp_beside(target)
        try:
            with open(tmp, "w", encoding="utf-8", errors="backslashreplace") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            if check_target(given) != str(target):
                raise OutputPathError(given, "was replaced by a link while it was being written; nothing was written")
            try:
                os.replace(tmp, target)
            except OSError as e:
                raise OSError(e.errno, e.strerror, given) from None
        except OSError as e:
            tmp.unlink(missing_ok=True)
            if e.filename is None and e.errno in WRITE_ERRORS:
                raise OSError(e.errno, e.strerror, given) from None
            raise
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        sync_folder(target.parent)
