"""An expression's parse tree and syntax error, in lark's shapes, whichever parser built them.

Hook expressions are parsed by the shipped LALR table (:mod:`gouji_rules.dsl.coldstart.lalr`) or,
when that table was not built from this grammar and this lark, by lark itself; both give these
trees, tokens and errors, so :mod:`gouji_rules.dsl.expr` reads one shape.
"""

from __future__ import annotations

from typing import Any


class Token(str):
    """A terminal as lark makes it: the matched text, its type and where it lies (0-based ``start_pos``)."""

    type: str
    start_pos: int
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    end_pos: int | None

    def __new__(cls, type_: str, value: str, start_pos: int, line: int, column: int) -> Token:
        self = super().__new__(cls, value)
        self.type = type_
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = self.end_column = self.end_pos = None
        return self

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


class Meta:
    """A tree's span (lark's ``Meta``); the ``container_*`` fields include tokens an inlined rule dropped."""

    __slots__ = (
        "column",
        "container_column",
        "container_end_column",
        "container_end_line",
        "container_end_pos",
        "container_line",
        "container_start_pos",
        "empty",
        "end_column",
        "end_line",
        "end_pos",
        "line",
        "start_pos",
    )

    def __init__(self) -> None:
        self.empty = True
        self.line: int | None = None
        self.column: int | None = None
        self.start_pos: int | None = None
        self.end_line: int | None = None
        self.end_column: int | None = None
        self.end_pos: int | None = None
        self.container_line: int | None = None
        self.container_column: int | None = None
        self.container_start_pos: int | None = None
        self.container_end_line: int | None = None
        self.container_end_column: int | None = None
        self.container_end_pos: int | None = None


class Tree:
    """A rule's node: ``data`` is the rule's name or alias; ``children`` are trees, tokens and ``None`` placeholders."""

    __slots__ = ("children", "data", "meta")

    def __init__(self, data: str, children: list[Any], meta: Meta | None = None) -> None:
        self.data = data
        self.children = children
        self.meta = meta if meta is not None else Meta()

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def subtrees(self) -> list[Tree]:
        """This tree and every tree below it."""
        out: list[Tree] = []
        stack: list[Tree] = [self]
        while stack:
            t = stack.pop()
            out.append(t)
            stack.extend(c for c in t.children if isinstance(c, Tree))
        return out


class ParseError(Exception):
    """Lark's ``UnexpectedCharacters`` (``kind == "characters"``) or ``UnexpectedToken`` (``"token"``).

    ``expected`` is lark's ``allowed`` / ``expected`` set of terminal names; ``token`` the token that
    did not fit (``$END`` at the end of the text); ``pos_in_stream`` its 0-based offset."""

    def __init__(
        self, kind: str, pos_in_stream: int, line: int, column: int, expected: frozenset[str], token: Token | None
    ) -> None:
        super().__init__(f"unexpected {kind} at {pos_in_stream}")
        self.kind = kind
        self.pos_in_stream = pos_in_stream
        self.line = line
        self.column = column
        self.expected = expected
        self.token = token
