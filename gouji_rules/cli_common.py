"""What every ``gouji`` command does with an error: one message on stderr, exit 1.

The library raises typed errors; their text is already what a user should
read.  Errors that carry a position read ``FILE:LINE[:COL]: error: …`` and are
printed as they are; the others get an ``error:`` prefix.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import click

from .errors import GoujiError

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> NoReturn:
    first = message.splitlines()[0] if message else ""
    click.echo(message if ": error: " in first else f"error: {message}", err=True)
    sys.exit(1)


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

    return wrapper  # type: ignore[return-value]
