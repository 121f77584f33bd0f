"""Write a file completely or not at all: a temporary file beside it, renamed at the end.

Errors name the file the user asked for, never the temporary one, and the file
gets the permissions any new file gets (the umask), not mkstemp's private 0600.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


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
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=parent)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(target)) from None
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_umask())
    return Path(tmp)


def check_writable(path: str | Path) -> None:
    """Fail now, before any work, if ``path`` cannot be written."""
    temp_beside(Path(path)).unlink()


@contextmanager
def atomic_writer(path: str | Path) -> Iterator[IO[str]]:
    target = Path(path)
    tmp = temp_beside(target)
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            yield fh
        try:
            os.replace(tmp, target)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(target)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
