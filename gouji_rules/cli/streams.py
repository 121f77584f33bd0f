"""What every ``gouji`` command does when stdout cannot take its output, or the text cannot be encoded.

``gouji variants > /dev/full`` gets one line on stderr and exit 1, not a traceback from the
interpreter's last flush; ``gouji compare … --json | head -1`` stops quietly (exit 1, as click
does) when the reader goes away.  A lone surrogate (a ``\\ud800`` escape in a variant's
``title:``) is printed as that escape, and a file name that is not UTF-8 as the bytes it was
given, never a ``UnicodeEncodeError``.  Kept apart from ``common`` so that ``gouji
validate`` loads nothing more for it.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO, cast

from ..errors import GoujiError

TEXT_ERRORS = "gouji.text"
"""The encoding error handler of stdout: a surrogate-escaped byte (a file name that is not UTF-8)
goes out as that byte, any other character the encoding lacks as a backslash escape (``\\u4e00``)."""


def _text_errors(e: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(e, UnicodeEncodeError):
        raise e
    out = bytearray()
    for c in e.object[e.start : e.end]:
        n = ord(c)
        if 0xDC80 <= n <= 0xDCFF:
            out.append(n - 0xDC00)
        else:
            out += (f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}").encode()
    return bytes(out), e.end


codecs.register_error(TEXT_ERRORS, _text_errors)


class StdoutError(GoujiError):
    """stdout cannot take the output: a full disk, a file too large, a terminal that went away."""


class _Guarded(io.BufferedIOBase):
    """stdout's byte stream, whose write errors say that they are stdout's."""

    def __init__(self, inner: BinaryIO) -> None:
        super().__init__()
        self._inner = inner
        self._closed = False
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._inner.fileno()

    def isatty(self) -> bool:
        return self._inner.isatty()

    def write(self, data: Any) -> int:
        if not data:
            return 0  # click probes a stream with empty writes and drops their errors
        try:
            return self._inner.write(data)
        except OSError as e:
            raise self._failed(e) from None

    def flush(self) -> None:
        if self._closed:
            return
        try:
            self._inner.flush()
        except OSError as e:
            raise self._failed(e) from None

    def close(self) -> None:
        self._closed = True  # the real stdout stays open: only this view of it closes
        super().close()

    def _failed(self, e: OSError) -> Exception:
        self.failed = True
        if e.errno == errno.EPIPE:
            return BrokenPipeError(errno.EPIPE, "the reader of stdout went away")
        return StdoutError(f"cannot write the output to stdout: {e.strerror or e}")

    def silence(self) -> None:
        """Point stdout at the null device, so that the output still buffered cannot fail again
        when the interpreter flushes it at exit."""
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._inner.fileno())
            finally:
                os.close(null)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass  # not a file descriptor (a test's capture): nothing is left to flush at exit


@contextmanager
def _guarded_stdout() -> Iterator[_Guarded | None]:
    original = sys.stdout
    inner = getattr(original, "buffer", None)
    if inner is None or not hasattr(inner, "write"):
        yield None
        return
    guard = _Guarded(inner)
    stream = io.TextIOWrapper(
        cast(Any, guard),
        encoding=getattr(original, "encoding", None) or "utf-8",
        errors=TEXT_ERRORS,
        line_buffering=bool(getattr(original, "line_buffering", False)),
        write_through=True,
    )
    sys.stdout = stream
    try:
        yield guard
    finally:
        with contextlib.suppress(Exception):  # its errors were reported: run_guarded's flush raised them first
            stream.flush()
        if guard.failed:
            guard.silence()
        sys.stdout = original


def _say(message: str) -> None:
    if sys.stderr is None:  # started with stderr closed
        return
    with contextlib.suppress(OSError, ValueError):  # stderr gone too: the exit status is all that is left
        print(message if ": error: " in message.split("\n", 1)[0] else f"error: {message}", file=sys.stderr)


def run_guarded(call: Callable[[], Any]) -> Any:
    """Run a click ``main``; stdout's failures and the errors no command caught become one line and exit 1."""
    with _guarded_stdout() as guard:
        try:
            try:
                return call()
            finally:
                if guard is not None:
                    sys.stdout.flush()  # what the command printed, before its exit status stands
        except BrokenPipeError:
            sys.exit(1)
        except GoujiError as e:
            _say(str(e))
            sys.exit(1)
        except OSError as e:
            _say(f"{e.filename or ''}: error: {e.strerror or e}")
            sys.exit(1)
        except UnicodeError as e:
            _say(f"text that cannot be encoded or decoded ({e})")
            sys.exit(1)
        except MemoryError:
            _say("out of memory: the input is too large for this machine")
            sys.exit(1)


__all__ = ["TEXT_ERRORS", "StdoutError", "run_guarded"]
