"""Reading and writing the files of a run folder as data: never a link followed, never a FIFO waited on.

A run folder may come from someone else (a copy of ``training/``, a colleague's run).  So its
``checkpoint.npz``, ``best.npz`` and ``log.jsonl`` are read and written only as regular files
in it: a symbolic link there is refused, not followed (it could point the log's appends or a
checkpoint's read at any file of the user's), and a FIFO or a device is refused by its type on an
open that cannot block.  Outputs pass the output-path rule (:func:`gouji_rules.outputs.check_target`)
and a full disk or a file-size limit names the file.  Files the user names himself (``--init``,
``--export``) follow the ordinary rules: a link to a regular file is followed.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic import WRITE_ERRORS, sync_folder, temp_beside
from ..errors import GoujiError
from ..inputs import file_kind
from ..outputs import OutputPathError, check_target
from .net import WeightsError

MAX_BYTES = 1 << 30
"""Largest weights file or checkpoint read, and largest total of its arrays unpacked."""
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class RunFileError(GoujiError):
    """A run folder's file that may not be used: a link, a FIFO, a device, a folder; or one that cannot be written."""


def check_run_file(path: str | Path) -> None:
    """Refuse, without opening it, a run folder's file that is there but is not a regular file."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise RunFileError(f"{path}: cannot be used ({e.strerror})") from None
    if stat.S_ISLNK(st.st_mode):
        raise RunFileError(f"{path}: is a symbolic link; a run folder's files are never links (remove it)")
    if not stat.S_ISREG(st.st_mode):
        raise RunFileError(f"{path}: is {file_kind(st.st_mode)}, not a file; a run folder holds only its own files")


@contextlib.contextmanager
def folder_lock(folder: str | Path) -> Iterator[Callable[[], bool]]:
    """Hold the run folder for one run: a second ``gouji train`` on it is refused at once, where its
    checkpoints would otherwise overwrite the first's in turn (an advisory lock, gone with the process).
    Yields ``held()``: whether the path still names the folder locked, False once it was moved or
    replaced (another run may then hold the new folder at that path: write nothing there)."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): runs are not kept apart
        yield lambda: True
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunFileError(
                f"{folder}: another gouji train is running in this folder; wait for it to stop or use another --out"
            ) from None
        mine = os.fstat(fd)

        def held() -> bool:
            try:
                now = os.stat(folder)
            except OSError:
                return False
            return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)

        yield held
    finally:
        os.close(fd)


def _open_read(path: str | Path, run_file: bool) -> int:
    try:
        fd = os.open(path, _READ | (_NOFOLLOW if run_file else 0))
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such file") from None
    except OSError as e:
        if run_file and e.errno == errno.ELOOP:
            raise RunFileError(
                f"{path}: is a symbolic link; a run folder's files are never links (remove it)"
            ) from None
        raise WeightsError(f"{path}: cannot be read ({e.strerror})") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise WeightsError(f"{path}: is {file_kind(st.st_mode)}, not a weights file")
    if st.st_size > MAX_BYTES:
        os.close(fd)
        raise WeightsError(f"{path}: is {st.st_size:,} bytes; a weights file is at most {MAX_BYTES:,}")
    return fd


def read_npz(path: str | Path, *, run_file: bool) -> dict[str, Any]:
    """The arrays of an ``.npz`` (no pickles), or :class:`WeightsError` saying why not."""
    fd = _open_read(path, run_file)
    try:
        with os.fdopen(fd, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise WeightsError(f"{path}: cannot be read ({e.strerror})") from None
    why = "not a weights file (an .npz that gouji train writes)"
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            if sum(i.file_size for i in zf.infolist()) > MAX_BYTES:
                raise WeightsError(f"{path}: its arrays unpack to more than {MAX_BYTES:,} bytes; {why}")
        with np.load(io.BytesIO(raw), allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except zipfile.BadZipFile:
        raise WeightsError(
            f"{path}: {why}; not a zip archive, or one truncated or damaged ({len(raw):,} bytes)"
        ) from None
    # RuntimeError: zipfile's refusal of a compression method it cannot unpack is one of its kind
    except (ValueError, EOFError, KeyError, OSError, zlib.error, RuntimeError, UnicodeDecodeError) as e:
        raise WeightsError(f"{path}: {why}; {type(e).__name__}: {str(e)[:80]}") from None
    except MemoryError:
        raise WeightsError(f"{path}: too large to read into memory; {why}") from None


def _target(path: str | Path, run_file: bool) -> Path:
    if run_file:
        check_run_file(path)
    return Path(check_target(path))


def _full(path: str | Path, e: OSError) -> RunFileError:
    return RunFileError(
        f"{path}: cannot be written ({e.strerror}): the disk is full or a file-size limit is set; "
        "the file as it was is kept"
    )


def write_npz(path: str | Path, arrays: dict[str, Any], *, run_file: bool) -> None:
    """Write an ``.npz`` completely or not at all: a temporary file beside it, fsync, rename, fsync the folder.

    The target is checked before and again just before the rename (as ``atomic_writer`` does)."""
    target = _target(path, run_file)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    try:
        tmp = temp_beside(target)
    except OSError as e:
        raise (_full(path, e) if e.errno in WRITE_ERRORS else OSError(e.errno, e.strerror, str(path))) from None
    try:
        with open(tmp, "wb") as fh:
            fh.write(buf.getbuffer())
            fh.flush()
            os.fsync(fh.fileno())
        if _target(path, run_file) != target:
            raise OutputPathError(path, "was replaced by a link while it was being written; nothing was written")
        os.replace(tmp, target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        if e.errno in WRITE_ERRORS:
            raise _full(path, e) from None
        raise OSError(e.errno, e.strerror, str(path)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_folder(target.parent)


def append_line(path: str | Path, line: str) -> None:
    """Append one line to a run folder's log: a regular file of its own or a new one; a line is
    written whole or not at all (a write that fails, as on a full disk, is cut back off)."""
    check_run_file(path)
    check_target(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o666)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENXIO):
            check_run_file(path)  # swapped for a link or a FIFO since the check: say which
        raise OSError(e.errno, e.strerror, str(path)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise RunFileError(f"{path}: is {file_kind(st.st_mode)}, not a file; a run folder holds only its own files")
        data = (line.rstrip("\n") + "\n").encode("utf-8")
        try:
            done = 0
            while done < len(data):
                done += os.write(fd, data[done:])
        except OSError as e:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, st.st_size)
            if e.errno in WRITE_ERRORS:
                raise _full(path, e) from None
            raise OSError(e.errno, e.strerror, str(path)) from None
    finally:
        os.close(fd)


__all__ = ["MAX_BYTES", "RunFileError", "append_line", "check_run_file", "folder_lock", "read_npz", "write_npz"]
