"""Writing for users: output paths that never overwrite an input, CSV cells safe in a spreadsheet.

A command that writes a file checks its output paths first (:func:`check_outputs`), so
``standings EVENT --csv -o EVENT`` cannot turn an event file into CSV; the writing itself
goes through :func:`gouji_rules.atomic.atomic_writer` (all or nothing).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .errors import GoujiError

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class OutputPathError(GoujiError):
    """An output path that would overwrite one of the command's inputs, or is named twice."""


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def check_outputs(outputs: Iterable[str | Path | None], inputs: Iterable[str | Path | None] = ()) -> None:
    """Refuse an output that is one of the inputs (by file identity, so links and ``./`` count) or repeats."""
    ins = [Path(p) for p in inputs if p]
    seen: list[Path] = []
    for out in (Path(p) for p in outputs if p):
        for i in ins:
            if _same(out, i):
                raise OutputPathError(f"{out}: is also an input of this command; write the output to another file")
        for s in seen:
            if _same(out, s):
                raise OutputPathError(f"{out}: is named as an output twice")
        seen.append(out)


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


__all__ = ["OutputPathError", "check_outputs", "spreadsheet_cell"]
