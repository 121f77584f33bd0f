"""What every ``gouji`` command does with an error: one message on stderr, exit 1.

The library raises typed errors; their text is already what a user should
read.  Errors that carry a position read ``FILE:LINE[:COL]: error: …`` and are
printed as they are; the others get an ``error:`` prefix.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import stat
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar

import click

from .errors import GoujiError
from .outputs import OutputPathError

F = TypeVar("F", bound=Callable[..., Any])


def add_commands(group: click.Group, *commands: click.Command) -> None:
    """Add each command to ``group`` unless it is there already (a module's ``register`` may run twice)."""
    for cmd in commands:
        if cmd.name not in group.commands:
            group.add_command(cmd)


def fail(message: str) -> NoReturn:
    first = message.splitlines()[0] if message else ""
    click.echo(message if ": error: " in first else f"error: {message}", err=True)
    sys.exit(1)


MAX_RUN_HANDS = 10_000_000
"""The most hands ``simulate``, ``bench`` and ``compare`` play in one run (hours of one core)."""
MAX_MATCH_HANDS = 1000
"""The most hands of one match in ``simulate --match-hands`` and ``compare --match-hands``."""
MAX_WORKERS = 64
"""The most local processes ``compare --workers`` starts (each one a whole Python)."""
SEED = click.IntRange(-(2**63), 2**63 - 1)
"""A seed: any 64-bit integer (a longer one would only be cut)."""


def hands_option(default: int, help: str) -> Callable[[F], F]:
    """``--hands N``: at least 1, at most :data:`MAX_RUN_HANDS`."""
    return click.option(
        "--hands",
        default=default,
        show_default=True,
        type=click.IntRange(1, MAX_RUN_HANDS),
        help=f"{help} (at most {MAX_RUN_HANDS:,})",
    )


def check_output_paths(outputs: Iterable[str | None], inputs: Iterable[str | None] = ()) -> None:
    """Before any work: no output is an input or named twice (:func:`check_outputs`), and none is an
    existing folder, FIFO or device (an atomic write would replace it) or a database (an event file)."""
    from .outputs import check_outputs

    outs = [p for p in outputs if p]
    check_outputs(outs, inputs)
    for p in outs:
        try:
            st = os.stat(p)
        except OSError:
            continue  # a new file; the write says why if it cannot be made
        if not stat.S_ISREG(st.st_mode):
            what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a FIFO or a device)"
            raise OutputPathError(f"{p}: is {what}; give a file name to write to (or leave -o out for stdout)")
        try:
            with open(p, "rb") as fh:
                head = fh.read(16)
        except OSError:
            continue
        if head == b"SQLite format 3\x00":
            raise OutputPathError(
                f"{p}: is a database (an event file?); it is never overwritten, write to another file"
            )


def handles_errors(fn: F) -> F:
    """Turn the library's typed errors and unreadable files into one message and exit 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GoujiError as e:
            fail(str(e))
        except BrokenPipeError:
            # the reader went away (`gouji … | head`): stop quietly, as other tools do
            sys.stderr.close()
            sys.exit(0)
        except OSError as e:
            fail(f"{e.filename or ''}: error: {e.strerror}")
        except sqlite3.Error as e:
            fail(f"the file cannot be used as an event ({e})")
        except KeyboardInterrupt:
            click.echo("interrupted; nothing half-written was kept", err=True)
            sys.exit(130)
        except MemoryError:
            fail("out of memory: the input is too large for this machine")

    return wrapper  # type: ignore[return-value]
