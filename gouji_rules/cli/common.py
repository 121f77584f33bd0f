"""What every ``gouji`` command does with an error: one message on stderr, exit 1.

The library raises typed errors; their text is already what a user should
read.  Errors that carry a position read ``FILE:LINE[:COL]: error: …`` and are
printed as they are; the others get an ``error:`` prefix.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from ..errors import GoujiError

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    TextParam = click.ParamType[str]
else:  # click before 8.3 has no type parameters at run time
    TextParam = click.ParamType


def add_commands(group: click.Group, *commands: click.Command) -> None:
    """Add each command to ``group`` unless it is there already (a module's ``register`` may run twice)."""
    for cmd in commands:
        if cmd.name not in group.commands:
            group.add_command(cmd)


def fail(message: str) -> NoReturn:
    """Print ``message`` as one line on stderr and exit 1: the one way a command reports bad input, never a traceback
    (and quietly when stderr itself is gone)."""
    first = message.splitlines()[0] if message else ""
    with contextlib.suppress(OSError):  # stderr is gone too: the exit status is all that is left
        click.echo(message if ": error: " in first else f"error: {message}", err=True)
    sys.exit(1)


MAX_RUN_HANDS = 10_000_000
"""The most hands ``simulate``, ``bench`` and ``compare`` play in one run (hours of one core)."""
MAX_MATCH_HANDS = 1000
"""The most hands of one match in ``simulate --match-hands`` and ``compare --match-hands``."""
MAX_WORKERS = 64
"""The most local processes ``compare --workers`` starts (each one a whole Python)."""
SEED = click.IntRange(0, 2**64 - 1)
"""A seed: 0 … 2**64 − 1, the PRNG's whole state; anything else is refused, never reduced (so two
seeds given never deal the same cards)."""


def hands_option(default: int, help: str) -> Callable[[F], F]:
    """``--hands N``: at least 1, at most :data:`MAX_RUN_HANDS`."""
    return click.option(
        "--hands",
        default=default,
        show_default=True,
        type=click.IntRange(1, MAX_RUN_HANDS),
        help=f"{help} (at most {MAX_RUN_HANDS:,})",
    )


def check_agents(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--agents`` (``simulate``, ``compare``): parsed now, so a bad one is a usage error (exit 2) before
    anything runs."""
    from ..compare.skill import parse_agents  # only when the option is given: `gouji` imports no engine

    try:
        parse_agents(value)
    except GoujiError as e:
        raise click.BadParameter(str(e)) from None
    return value


class OutputFile(TextParam):
    """A file a command writes.  Every option or argument that writes a file has this type, so the
    output-path rule (:func:`check_output_paths`) and its test find them all in the command tree."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """Refuse an empty name at parse time, before anything is played or computed, so a run never ends with nowhere
        to write."""
        text = os.fsdecode(value) if isinstance(value, bytes) else str(value)
        if not text:
            self.fail("an empty file name; give a file to write to", param, ctx)
        return text


OUTPUT = OutputFile()


class FiniteFloat(click.FloatRange):
    """A float option: a number, never ``nan`` or ``inf`` (which every range check lets through or means nothing)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """A float, refusing nan and inf at parse time: they would pass range checks and break the run later."""
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


class Text(TextParam):
    """Free text a command keeps or sends (an event's name): UTF-8 only.

    Python turns argument bytes that are not UTF-8 (a GBK terminal on a UTF-8 system) into lone
    surrogates, which no file, database or page can hold; they are refused here with what to do.
    """

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """Text that encodes as UTF-8, refusing lone surrogates (an undecodable argument) at parse time rather than
        when written."""
        text = str(value)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raw = os.fsencode(text) if all(not 0xD800 <= ord(c) <= 0xDC7F for c in text) else b""
            looks = ""
            if raw:
                with contextlib.suppress(UnicodeDecodeError):
                    looks = f" (it reads as {raw.decode('gb18030')!r} in GBK)"
            shown = repr(raw) if raw else ascii(text)
            self.fail(
                f"{shown} is not UTF-8 text{looks}; set the terminal to UTF-8 and type it again",
                param,
                ctx,
            )
        return text


TEXT = Text()


def check_output_paths(outputs: Iterable[str | None], inputs: Iterable[str | None] = ()) -> None:
    """Before any work: the output-path rule (:func:`gouji_rules.outputs.check_outputs`) for every output.

    No output is an input (give the variant files as :func:`gouji_rules.outputs.variant_inputs`),
    named twice, a database or its WAL, a folder, a FIFO, a device or a socket, or a link to one.
    """
    from ..outputs import check_outputs

    check_outputs([p for p in outputs if p is not None], inputs)


def handles_errors(fn: F) -> F:
    """Turn the library's typed errors and unreadable files into one message and exit 1."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GoujiError as e:
            fail(str(e))
        except BrokenPipeError:
            raise  # the reader went away (`gouji … | head`): click stops quietly, exit 1
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


class SchedulerAddress(TextParam):
    """A Dask scheduler's address: ``[tcp|tls|ws|wss|ucx://]HOST:PORT``, checked before anything runs."""

    name = "address"
    SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """A Dask scheduler address checked at parse time (scheme, host, port), so a typo fails at once rather than
        after a connect timeout."""
        from urllib.parse import urlsplit

        text = str(value).strip()
        full = text if "://" in text else f"tcp://{text}"
        try:
            parts = urlsplit(full)
            ok = (
                parts.scheme in self.SCHEMES
                and bool(parts.hostname)
                and parts.port is not None
                and parts.port > 0
                and not parts.path.strip("/")
                and not parts.query
                and all(c.isalnum() or c in ".-_:[]%" for c in parts.netloc)
            )
        except ValueError:  # a port out of range, a bracket left open
            ok = False
        if not ok:
            self.fail(
                f"{text!r} is not a scheduler address; give HOST:PORT or tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)",
                param,
                ctx,
            )
        return full
