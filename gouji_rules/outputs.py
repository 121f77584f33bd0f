"""Writing for users: one rule for every output path, and CSV cells safe in a spreadsheet.

Every command that writes a file names its outputs and its inputs to :func:`check_outputs`
before any work, and writes through :func:`gouji_rules.atomic.atomic_writer`, which asks
:func:`check_target` again just before the rename.  So no output is ever one of the
command's inputs (a variant file or anything its ``extends:`` chain read, an event file),
an SQLite database or its ``-wal``/``-shm``/``-journal`` file, a device, a FIFO, a socket
or a folder, nor a symbolic link to one of those: ``compare --html EVENT.sqlite`` or
``--csv /dev/full`` is refused with the path and the reason, and the target is unchanged.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from .errors import GoujiError
from .inputs import file_kind

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

SQLITE_HEADERS = (
    b"SQLite format 3\x00",  # a database (an event file)
    b"\x37\x7f\x06\x82",  # its write-ahead log, big- or little-endian checksums
    b"\x37\x7f\x06\x83",
    b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7",  # its rollback journal
)
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
SYSTEM_FOLDERS = ("/dev/", "/proc/", "/sys/")
"""Never written into: ``--csv /dev/stdout`` would rename over whatever file stdout is (losing the
report printed to it), and a name there is a device or a view of the kernel, never a user's file."""


class OutputPathError(GoujiError):
    """An output path that is not a file one may write over: an input, a database, a device, a folder …"""

    def __init__(self, path: str | Path, why: str = "") -> None:
        super().__init__(f"{path}: {why}" if why else str(path))
        self.path = str(path)
        self.why = why


def _head(path: str) -> bytes:
    """The first bytes of a regular file, read without following a link or blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return b""  # unreadable: it cannot be told apart, and the rename does not read it
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, 16)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _is_database(path: str) -> bool:
    return _head(path).startswith(SQLITE_HEADERS)


def check_target(path: str | Path) -> str:
    """The file to write for the output ``path``, or :class:`OutputPathError` saying why it may not be written.

    A symbolic link to a regular file is followed (the file it names is written, the link stays);
    a link to nothing, to a folder, a device or a FIFO is refused like what it names.  An existing
    target must be a regular file that is not an SQLite database, WAL or journal, nor the ``-wal``,
    ``-shm`` or ``-journal`` file beside a database.  The folder must exist.
    """
    given = str(path)
    if not given:
        raise OutputPathError("''", "an empty file name; give a file to write to")
    if given.endswith(("/", os.sep)):
        raise OutputPathError(given, "ends with a slash, so it names a folder; give a file name to write to")
    try:
        is_link = os.path.islink(given)
        real = os.path.realpath(given)
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputPathError(given, _os_reason(e)) from None
    except ValueError:
        raise OutputPathError(repr(given), "a file name with a NUL character") from None
    if is_link:
        _check_link_owner(given)
    if any(_under_system_folder(p) for p in (given, real)):
        raise OutputPathError(given, "is a system path (a device or a process's stream, as /dev/stdout); give a file")
    if st is None:
        if is_link:
            raise OutputPathError(given, f"is a link to {real}, which does not exist; give the file itself")
        folder = os.path.dirname(real) or "."
        if not os.path.isdir(folder):
            raise OutputPathError(given, f"no such folder {folder}")
        return real
    if not stat.S_ISREG(st.st_mode):
        what = file_kind(st.st_mode)
        via = f"a link to {real}, which is " if is_link else ""
        raise OutputPathError(
            given, f"is {via}{what}, not a file; give a file name to write to (or leave the option out)"
        )
    if not os.access(real, os.W_OK):
        raise OutputPathError(given, "is read-only; it is never replaced, write to another file")
    if _is_database(real):
        raise OutputPathError(
            given, "is an SQLite database (an event file?); it is never overwritten, write to another file"
        )
    for side in SQLITE_SIDE_FILES:
        if real.endswith(side) and _is_database(real[: -len(side)]):
            raise OutputPathError(
                given, f"is the {side[1:]} file of the database {real[: -len(side)]}; write to another file"
            )
    return real


def _under_system_folder(path: str) -> bool:
    if path.startswith("/dev/shm/"):  # a memory file system users write to
        return False
    return any(path == f.rstrip("/") or path.startswith(f) for f in SYSTEM_FOLDERS)


def _check_link_owner(link: str) -> None:
    """A link in a shared sticky folder (``/tmp``) that another user made is not followed, as the
    kernel's ``protected_symlinks`` refuses for ``open``: it could point the output at that user's
    choice of file.  The rename would not ask the kernel, so the rule asks here."""
    try:
        owner = os.lstat(link).st_uid
        folder = os.stat(os.path.dirname(os.path.abspath(link)))
    except OSError:
        return
    me = os.geteuid() if hasattr(os, "geteuid") else owner
    shared = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if shared and owner not in (me, folder.st_uid):
        raise OutputPathError(link, "is a link another user made in a shared folder; it is not followed")


def _os_reason(e: OSError) -> str:
    if e.errno == errno.ENAMETOOLONG:
        return "the file name is longer than the system allows"
    if e.errno == errno.ELOOP:
        return "too many symbolic links (a loop?)"
    return e.strerror or "cannot be used"


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: Iterable[str | Path | None], inputs: Iterable[str | Path | None] = ()) -> list[str]:
    """Refuse, before any work, an output that is one of the inputs or repeats, or fails :func:`check_target`.

    Inputs are compared by file identity (so links, ``./`` and hard links count), and so is each
    input's ``-wal``/``-shm``/``-journal`` file.  Returns the files to write, in order.
    """
    ins = [str(p) for p in inputs if p]
    ins += [i + side for i in ins for side in SQLITE_SIDE_FILES]
    seen: list[str] = []
    for out in (str(p) for p in outputs if p is not None):
        real = check_target(out)
        for i in ins:
            if _same(real, i):
                raise OutputPathError(out, "is also an input of this command; write the output to another file")
        for s in seen:
            if _same(real, s):
                raise OutputPathError(out, "is named as an output twice")
        seen.append(real)
    return seen


def variant_inputs(spec: str | None) -> list[str]:
    """The files a variant spec reads: the file and everything its ``extends:`` chain reads (for :func:`check_outputs`).

    A spec that cannot be read gives what could be found; the command's own load then says why.
    """
    if not spec:
        return []
    from . import dsl
    from .dsl.merge import load_chain, read_file, shipped_chain

    files: list[str] = []
    with contextlib.suppress(GoujiError, OSError, ValueError):
        if spec in dsl.shipped_names():  # the name wins over a file of that name, as catalog.resolve reads it
            files += shipped_chain(spec).files
    with contextlib.suppress(GoujiError, OSError, ValueError):
        if os.path.isfile(spec):
            files.append(spec)
            text, fname = read_file(Path(spec))
            p = Path(spec).resolve()
            files += load_chain(text, fname, p.parent, str(p)).files
    return [f for f in files if os.path.exists(f)]


def spreadsheet_cell(value: object) -> object:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula (OWASP CSV injection).

    Numbers stay numbers; a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
    carriage return gets a leading apostrophe.

    >>> spreadsheet_cell("=HYPERLINK(1)"), spreadsheet_cell(-3), spreadsheet_cell("张三")
    ("'=HYPERLINK(1)", -3, '张三')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


__all__ = ["OutputPathError", "check_outputs", "check_target", "spreadsheet_cell", "variant_inputs"]
