"""Which parser reads hook expressions: the table shipped in ``data/expr_parser.json``, or lark.

Without the cold start to care for, :mod:`gouji_rules.dsl.expr` would build ``Lark(grammar_text(),
**LARK_OPTIONS)`` and parse with it.  Importing lark and building its parser costs a third of a
cold ``gouji validate``, so :func:`parser` gives :class:`~gouji_rules.dsl.coldstart.lalr.Parser`
run from the table lark built at development time (:func:`write_table`), and lark itself only when
that table was not built from this grammar's text, these options and the installed lark.  Either
gives the trees and errors of :mod:`gouji_rules.dsl.parsetree`; ``tests/test_lalr.py`` holds them
to each other.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from ...data import folder
from ..parsetree import ParseError, Token, Tree
from .lalr import Parser, export, literal_of

LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


def _data_text(package: str, name: str) -> str:
    """A file of a data package, read from its folder (no importlib.resources: its import alone costs ms)."""
    return (folder(package) / name).read_text("utf-8")


def grammar_text() -> str:
    """The text of ``grammar/expr.lark`` as installed."""
    return _data_text("gouji_rules.data.grammar", "expr.lark")


def lark_version() -> str:
    """The installed lark's version, read from its ``__init__.py`` without importing it (that takes 30 ms)."""
    loaded: Any = sys.modules.get("lark")
    if loaded is None:
        origin = None
        for finder in sys.meta_path:  # as importlib.util.find_spec does for a top-level name
            find = getattr(finder, "find_spec", None)
            spec = find("lark", None) if find is not None else None
            if spec is not None:
                origin = spec.origin
                break
        try:
            source = Path(origin).read_text("utf-8") if origin else ""
        except (OSError, ValueError):
            source = ""
        for line in source.splitlines():  # __version__: str = "1.3.1"
            name, eq, value = line.partition("=")
            if eq and name.split(":")[0].strip() == "__version__":
                version = value.strip().strip("'\"")
                if version and value.strip()[0] in "'\"" and version.replace(".", "").isalnum():
                    return version
        import lark

        loaded = lark
    return str(loaded.__version__)


def table_key(text: str) -> str:
    """What a shipped parser table was built from: the grammar's text, lark's options and lark's version."""
    return f"{text}\n{sorted(LARK_OPTIONS.items())}\nlark {lark_version()}"


class _LarkParser:
    """Lark itself, for a grammar or a lark the shipped table was not built from; gives the driver's trees and errors."""

    def __init__(self, text: str) -> None:
        from lark import Lark

        self.lark = Lark(text, **LARK_OPTIONS)
        literals = {t.name: literal_of(t) for t in self.lark.terminals}
        self.literals = {name: lit for name, lit in literals.items() if lit is not None}

    def parse(self, text: str) -> Any:
        from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

        try:
            return from_lark(self.lark.parse(text))
        except UnexpectedCharacters as e:
            pos: Any = e.pos_in_stream
            raise ParseError("characters", pos, e.line, e.column, frozenset(e.allowed), None) from None
        except UnexpectedToken as e:
            tok = from_lark(e.token)
            raise ParseError("token", tok.start_pos, tok.line, tok.column, frozenset(e.expected), tok) from None
        except UnexpectedInput as e:  # pragma: no cover - an LALR parser reports the end as an unexpected $END
            end = Token("$END", "", len(text), e.line, e.column)
            raise ParseError("token", len(text), e.line, e.column, frozenset(getattr(e, "expected", ())), end) from None


def from_lark(node: Any) -> Any:
    """A lark tree or token as :mod:`~gouji_rules.dsl.parsetree`'s, positions included (without recursion: trees can be deep)."""
    from lark import Token as LarkToken

    def convert(n: Any) -> Any:
        if n is None:
            return None
        if isinstance(n, LarkToken):
            t: Any = n
            tok = Token(t.type, str(t), t.start_pos, t.line, t.column)
            tok.end_line, tok.end_column, tok.end_pos = t.end_line, t.end_column, t.end_pos
            return tok
        tree = Tree(str(n.data), list(n.children))
        if not n.meta.empty:
            m, meta = n.meta, tree.meta
            meta.empty = False
            meta.line, meta.column, meta.start_pos = m.line, m.column, m.start_pos
            meta.end_line, meta.end_column, meta.end_pos = m.end_line, m.end_column, m.end_pos
        pending.append(tree)
        return tree

    pending: list[Tree] = []
    root = convert(node)
    while pending:
        tree = pending.pop()
        tree.children = [convert(c) for c in tree.children]
    return root


@functools.cache
def parser() -> Parser | _LarkParser:
    """The parser for ``expr.lark`` (once per process).

    Importing lark and building or loading its parser takes a third of a cold ``gouji validate``,
    so the tables lark builds are shipped in ``gouji_rules/data/expr_parser.json`` (written by
    :func:`write_table`) and run by :mod:`.lalr`, only while they were built from this grammar,
    these options and this lark: an edited grammar or another lark is parsed by lark, as built
    from the grammar, never by a stale table."""
    import json

    text = grammar_text()
    try:
        saved = json.loads(_data_text("gouji_rules.data", "expr_parser.json"))
        if saved["built_from"] == table_key(text):
            return Parser(saved["tables"])
    except (OSError, ValueError, LookupError, TypeError):
        pass
    return _LarkParser(text)


def table_json(text: str) -> str:
    """The text of ``expr_parser.json`` for this grammar: the tables lark builds from it."""
    import json

    from lark import Lark

    doc = {
        "generated_by": "gouji_rules.dsl.coldstart.expr_parser.write_table",
        "built_from": table_key(text),
        "tables": export(Lark(text, **LARK_OPTIONS)),
    }
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_table() -> Path:
    """Regenerate ``gouji_rules/data/expr_parser.json`` (run after changing ``grammar/expr.lark`` or lark)."""
    import os

    path = folder("gouji_rules.data") / "expr_parser.json"
    text = table_json(grammar_text())
    part = path.with_name(path.name + ".part")
    part.write_text(text, encoding="utf-8")
    os.replace(part, path)  # a table is whole or not there: never half-written
    return path
