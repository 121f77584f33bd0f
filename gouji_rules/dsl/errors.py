"""Diagnostics that point into a variant file: ``FILE:LINE:COL: error: MESSAGE``.

Every problem a user can make in a variant file, from YAML syntax to a type
error inside an expression, becomes a :class:`VariantFileError` with the file,
the 1-based line and column (in characters), the message and an optional hint
(``did you mean 'count'?``).  When a file has several problems they travel
together in :class:`VariantErrors`.  Warnings (rules that contradict each
other or can never take effect) use the same class with ``severity="warning"``
but are returned, never raised.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from ..errors import VariantError, near_miss


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide and full-width characters count 2."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ``did you mean 'x'?`` hint for a near miss, or ``""``."""
    close = near_miss(word, set(choices))
    return f"did you mean {close!r}?" if close else ""


class VariantFileError(VariantError):
    """One diagnostic at a position in a variant file."""

    def __init__(
        self,
        message: str,
        *,
        file: str = "<string>",
        line: int = 1,
        column: int = 1,
        hint: str = "",
        source_line: str | None = None,
        severity: str = "error",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint
        self.source_line = source_line
        self.severity = severity

    @property
    def location(self) -> str:
        """``FILE:LINE:COL``, or ``FILE`` for a problem with the whole file (line 0: it could not be read)."""
        return f"{self.file}:{self.line}:{self.column}" if self.line > 0 else self.file

    def format(self, lang: str = "en") -> str:
        """The full diagnostic: the ``FILE:LINE:COL`` line, the source line, a caret, the hint;
        ``lang="zh"`` says it in Chinese (:mod:`gouji_rules.dsl.zh_messages`), positions unchanged."""
        message, hint, severity, hint_word = self.message, self.hint, self.severity, "hint"
        if lang == "zh":
            from .zh_messages import translate, translate_hint

            message, hint, hint_word = translate(message), translate_hint(hint) if hint else "", "提示"
            severity = {"error": "错误", "warning": "警告"}.get(severity, severity)
        out = [f"{self.location}: {severity}: {message}"]
        if self.source_line is not None:
            src = self.source_line.rstrip("\r\n").expandtabs(1)
            before = src[: max(0, self.column - 1)]
            out.append(f"    {src}")
            out.append("    " + " " * display_width(before) + "^")
        if hint:
            out.append(f"    {hint_word}: {hint}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"VariantFileError({self.location}: {self.severity}: {self.message!r})"

    def sort_key(self) -> tuple[str, int, int]:
        """Errors sort by file, line and column, so a club reads them in the order of its file."""
        return (self.file, self.line, self.column)


class VariantErrors(VariantError):
    """All the errors found in one or more variant files (``errors``, in file order)."""

    def __init__(self, errors: Sequence[VariantFileError]) -> None:
        self.errors = sorted(errors, key=VariantFileError.sort_key)
        first = self.errors[0].format() if self.errors else "invalid variant"
        more = f"\n(and {len(self.errors) - 1} more)" if len(self.errors) > 1 else ""
        super().__init__(first + more)

    def __str__(self) -> str:
        return "\n".join(e.format() for e in self.errors)
