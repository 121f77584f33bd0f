"""An LALR(1) driver for hook expressions, run from tables Lark built, so ``gouji validate`` never imports lark.

Importing lark and loading its parser costs about 38 ms, a third of a cold ``gouji validate``.
The grammar stays ``grammar/expr.lark`` and Lark stays the one that reads it: at development time
:func:`export` takes a built ``Lark`` apart (its parse table, the terminals each parser state's
contextual lexer tries, in lark's order, with the keyword checks lark adds to ``NAME``, and the
tree-building wrappers of every rule) into ``gouji_rules/data/expr_parser.json``.  :class:`Parser`
replays exactly what lark does with them: the same tokens, the same trees with the same positions
(lark's ``propagate_positions``, inlined ``?`` rules and ``[ ]`` placeholders included) and the same
errors (:class:`~gouji_rules.dsl.parsetree.ParseError` carries what lark's ``UnexpectedCharacters`` /
``UnexpectedToken`` do).
``tests/test_lalr.py`` holds the two side by side on a large corpus.
"""

from __future__ import annotations

import re
from typing import Any

from ..parsetree import Meta, ParseError, Token, Tree


class _NoMatch(Exception):
    def __init__(self, pos: int, line: int, column: int) -> None:
        self.pos, self.line, self.column = pos, line, column


class _Counter:
    """lark's ``LineCounter``: lines and columns count from 1, only ``\\n`` starts a line."""

    __slots__ = ("column", "line", "line_start", "pos")

    def __init__(self) -> None:
        self.pos = 0
        self.line = 1
        self.column = 1
        self.line_start = 0

    def feed(self, value: str, newline: bool) -> None:
        if newline:
            n = value.count("\n")
            if n:
                self.line += n
                self.line_start = self.pos + value.rindex("\n") + 1
        self.pos += len(value)
        self.column = self.pos - self.line_start + 1


# a terminal at run time: (name, literal text or None, compiled regexp or None)
_Terminal = tuple[str, str | None, "re.Pattern[str] | None"]


class _Lexer:
    """One of lark's basic lexers: its terminals in lark's order, the first that matches wins (as in lark's regexp)."""

    __slots__ = ("allowed", "ignore", "newline", "terminals", "unless")

    def __init__(
        self,
        terminals: list[_Terminal],
        unless: dict[str, list[_Terminal]],
        ignore: frozenset[str],
        newline: frozenset[str],
    ) -> None:
        self.terminals = terminals
        self.unless = unless
        self.ignore = ignore
        self.newline = newline
        self.allowed = frozenset(t[0] for t in terminals) - ignore or frozenset({"<END-OF-FILE>"})

    def match(self, text: str, pos: int) -> tuple[str, str] | None:
        """The first of this lexer's terminals that matches at ``pos``: its name and the text it matches."""
        for name, literal, rx in self.terminals:
            if rx is None:
                if text.startswith(literal or "", pos):
                    return name, literal or ""
            else:
                m = rx.match(text, pos)
                if m:
                    return name, m.group(0)
        return None

    def next_token(self, text: str, ctr: _Counter) -> Token | None:
        """The next token that is not ignored; ``None`` at the end; raises _NoMatch where no terminal matches."""
        while ctr.pos < len(text):
            pos = ctr.pos
            found = self.match(text, pos)
            if found is None:
                raise _NoMatch(pos, ctr.line, ctr.column)
            name, value = found
            ignored = name in self.ignore
            keywords = self.unless.get(name)
            tok = Token(name, value, pos, ctr.line, ctr.column) if not ignored or keywords is not None else None
            ctr.feed(value, name in self.newline)
            if tok is not None:
                tok.end_line = ctr.line
                tok.end_column = ctr.column
                tok.end_pos = ctr.pos
                if keywords is not None:  # lark's UnlessCallback: a NAME that is a keyword takes the keyword's type
                    for kw_name, kw_literal, kw_rx in keywords:
                        if kw_literal == value if kw_rx is None else kw_rx.fullmatch(value) is not None:
                            tok.type = kw_name
                            break
                if not ignored:
                    return tok
        return None


class _Rule:
    __slots__ = ("append_none", "data", "expand1", "include", "origin", "size")

    def __init__(self, spec: list[Any]) -> None:
        self.origin: str = spec[0]
        self.size: int = spec[1]
        self.data: str = spec[2]
        self.expand1: bool = spec[3]
        self.include: list[list[Any]] | None = spec[4]
        self.append_none: int = spec[5]

    def build(self, children: list[Any]) -> Any:
        """lark's wrappers, innermost first: ChildFilterLALR, ExpandSingleChild, the Tree, PropagatePositions."""
        if self.include is None:
            kept = children
        else:
            kept = []
            for i, expand, nones in self.include:
                if nones:
                    kept.extend([None] * nones)
                if expand:
                    kept.extend(children[i].children)
                else:
                    kept.append(children[i])
            if self.append_none:
                kept.extend([None] * self.append_none)
        res = kept[0] if self.expand1 and len(kept) == 1 else Tree(self.data, kept)
        if isinstance(res, Tree):
            _propagate(res.meta, children)
        return res


def _first(children: Any) -> Meta | Token | None:
    for c in children:
        if isinstance(c, Tree):
            if not c.meta.empty:
                return c.meta
        elif isinstance(c, Token):
            return c
    return None


def _propagate(meta: Meta, children: list[Any]) -> None:
    """lark's PropagatePositions: a node spans its first child's container to its last child's."""
    line: int | None
    column: int | None
    start: int | None
    end: int | None
    first = _first(children)
    if first is not None:
        if isinstance(first, Token):
            line, column, start = first.line, first.column, first.start_pos
        else:
            line, column, start = first.container_line, first.container_column, first.container_start_pos
        if meta.line is None:
            meta.line, meta.column, meta.start_pos, meta.empty = line, column, start, False
        meta.container_line, meta.container_column, meta.container_start_pos = line, column, start
    last = _first(reversed(children))
    if last is not None:
        if isinstance(last, Token):
            line, column, end = last.end_line, last.end_column, last.end_pos
        else:
            line, column, end = last.container_end_line, last.container_end_column, last.container_end_pos
        if meta.end_line is None:
            meta.end_line, meta.end_column, meta.end_pos, meta.empty = line, column, end, False
        meta.container_end_line, meta.container_end_column, meta.container_end_pos = line, column, end


class Parser:
    """The parser of one grammar, from the table :func:`export` wrote."""

    def __init__(self, table: dict[str, Any]) -> None:
        self._terminals: list[list[Any]] = table["terminals"]  # [name, literal | None, regexp | None, newline]
        self._ignore = frozenset(table["ignore"])
        self._newline = frozenset(t[0] for t in self._terminals if t[3])
        self._lexer_specs: list[list[Any]] = table["lexers"]  # [[terminal index…], {terminal: [keyword index…]}]
        self._lexers: list[_Lexer | None] = [None] * len(self._lexer_specs)
        self._compiled: dict[int, _Terminal] = {}
        self._state_lexer: list[int] = table["state_lexer"]
        self._root_lexer: int = table["root_lexer"]
        self._states: list[dict[str, int]] = table["states"]  # shift: the next state; reduce: ~rule
        self._rules = [_Rule(r) for r in table["rules"]]
        self._start: int = table["start"]
        self._end: int = table["end"]
        self.literals: dict[str, str] = {t[0]: t[1] for t in self._terminals if t[1] is not None}

    def _terminal(self, i: int) -> _Terminal:
        t = self._compiled.get(i)
        if t is None:
            name, literal, regexp, _ = self._terminals[i]
            t = self._compiled[i] = (name, literal, re.compile(regexp) if literal is None else None)
        return t

    def _lexer(self, i: int) -> _Lexer:
        lexer = self._lexers[i]
        if lexer is None:
            order, unless = self._lexer_specs[i]
            keywords = {self._terminals[int(k)][0]: [self._terminal(j) for j in v] for k, v in unless.items()}
            lexer = self._lexers[i] = _Lexer([self._terminal(j) for j in order], keywords, self._ignore, self._newline)
        return lexer

    def parse(self, text: str) -> Any:
        """The tree of ``text`` (lark's ``Lark.parse``); raises ParseError as lark raises UnexpectedInput."""
        state_stack = [self._start]
        value_stack: list[Any] = []
        ctr = _Counter()
        last: Token | None = None
        while True:
            lexer = self._lexer(self._state_lexer[state_stack[-1]])
            try:
                tok = lexer.next_token(text, ctr)
            except _NoMatch as e:
                # as lark's contextual lexer: a terminal of another state makes it an unexpected token
                try:
                    other = self._lexer(self._root_lexer).next_token(text, ctr)
                except _NoMatch:
                    raise ParseError("characters", e.pos, e.line, e.column, lexer.allowed, None) from None
                assert other is not None
                raise ParseError("token", other.start_pos, other.line, other.column, lexer.allowed, other) from None
            if tok is None:
                break
            self._feed(tok, state_stack, value_stack, False)
            last = tok
        if last is None:
            end = Token("$END", "", 0, 1, 1)
        else:
            end = Token("$END", "", last.start_pos, last.line, last.column)
            end.end_line, end.end_column, end.end_pos = last.end_line, last.end_column, last.end_pos
        return self._feed(end, state_stack, value_stack, True)

    def _feed(self, tok: Token, state_stack: list[int], value_stack: list[Any], is_end: bool) -> Any:
        states = self._states
        while True:
            actions = states[state_stack[-1]]
            action = actions.get(tok.type)
            if action is None:
                expected = frozenset(s for s in actions if s.isupper())
                raise ParseError("token", tok.start_pos, tok.line, tok.column, expected, tok)
            if action >= 0:
                state_stack.append(action)
                value_stack.append(tok)
                return None
            rule = self._rules[~action]
            if rule.size:
                children = value_stack[-rule.size :]
                del state_stack[-rule.size :]
                del value_stack[-rule.size :]
            else:
                children = []
            value = rule.build(children)
            state_stack.append(states[state_stack[-1]][rule.origin])
            value_stack.append(value)
            if is_end and state_stack[-1] == self._end:
                return value


# -- development time: lark's built parser, taken apart ------------------------------------------


def literal_of(terminal: Any) -> str | None:
    """The fixed text a lark terminal matches (a string pattern without flags), or None for a regexp."""
    from lark.lexer import PatternStr

    pattern = terminal.pattern
    return str(pattern.value) if type(pattern) is PatternStr and not pattern.flags else None


def export(parser: Any) -> dict[str, Any]:
    """The tables of a built ``Lark(..., parser="lalr", lexer="contextual")`` as :class:`Parser` reads them.

    Only what this driver replays is accepted: anything else lark might build (a user callback, a
    postlexer, byte input, a regexp flag set globally, an unknown tree-building wrapper) is refused
    here, at development time, rather than replayed wrongly."""
    from functools import partial

    from lark import Tree as LarkTree
    from lark.lexer import BasicLexer, ContextualLexer, UnlessCallback
    from lark.parse_tree_builder import (
        ChildFilterLALR,
        ChildFilterLALR_NoPlaceholders,
        ExpandSingleChild,
        PropagatePositions,
    )
    from lark.parsers.lalr_analysis import Shift

    front = parser.parser
    contextual: Any = front.lexer
    if type(contextual) is not ContextualLexer or parser.options.postlex is not None:
        raise ValueError("only lark's own contextual lexer without a postlexer can be exported")
    if parser.options.transformer is not None or parser.options.tree_class not in (None, LarkTree):
        raise ValueError("only lark's own trees can be exported")

    for lexer in [*contextual.lexers.values(), contextual.root_lexer]:
        if type(lexer) is not BasicLexer:
            raise ValueError(f"unexpected lexer {lexer!r}")
        if lexer.user_callbacks or lexer.g_regex_flags or lexer.use_bytes or lexer.re is not re:
            raise ValueError("lexer callbacks, global regexp flags and byte input are not replayed")
    root: Any = contextual.root_lexer
    terminals = sorted(root.terminals, key=lambda t: t.name)
    index = {t.name: i for i, t in enumerate(terminals)}
    newline = root.newline_types
    ignore = root.ignore_types

    def lexer_spec(lexer: Any) -> list[Any]:
        scanned = lexer.scanner.terminals  # builds lark's scanner: the order lark's alternation tries them
        if lexer.ignore_types != ignore or not lexer.newline_types <= newline:
            raise ValueError("lexers disagree about ignored or multi-line terminals")
        unless: dict[str, list[int]] = {}
        for name, callback in lexer.callback.items():
            if type(callback) is not UnlessCallback:
                raise ValueError(f"unexpected lexer callback for {name}")
            unless[str(index[name])] = [index[t.name] for t in callback.scanner.terminals]
        return [[index[t.name] for t in scanned], unless]

    def terminal_spec(t: Any) -> list[Any]:
        literal = literal_of(t)
        return [t.name, literal, None if literal is not None else t.pattern.to_regexp(), t.name in newline]

    callbacks = front.parser.parser.callbacks
    rules = list(callbacks)
    rule_index = {id(r): i for i, r in enumerate(rules)}

    def rule_spec(rule: Any) -> list[Any]:
        f = callbacks[rule]
        if type(f) is not PropagatePositions or f.node_filter is not None:
            raise ValueError(f"{rule}: positions are not propagated as this driver does")
        f = f.node_builder
        include: list[list[Any]] | None = None
        append_none = 0
        if type(f) is ChildFilterLALR:
            include = [[i, bool(x), n] for i, x, n in f.to_include]
            append_none = f.append_none
            f = f.node_builder
        elif type(f) is ChildFilterLALR_NoPlaceholders:
            include = [[i, bool(x), 0] for i, x in f.to_include]
            f = f.node_builder
        expand1 = type(f) is ExpandSingleChild
        if expand1:
            f = f.node_builder
        if type(f) is not partial or f.func is not LarkTree or len(f.args) != 1 or f.keywords:
            raise ValueError(f"{rule}: unexpected tree builder {f!r}")
        return [str(rule.origin.name), len(rule.expansion), str(f.args[0]), expand1, include, append_none]

    table = front.parser._parse_table
    if len(table.start_states) != 1 or len(table.end_states) != 1:
        raise ValueError("only a grammar with one start rule can be exported")

    # lark numbers its states in an order that changes from run to run: number them by a walk from the start
    (start,) = table.start_states.values()
    (end,) = table.end_states.values()
    order: list[int] = [start]
    number = {order[0]: 0}
    for s in order:
        for _, (a, arg) in sorted(table.states[s].items()):
            if a is Shift and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    if len(order) != len(table.states):
        raise ValueError("parse table states unreachable from the start")

    def action(a: Any, arg: Any) -> int:
        return number[arg] if a is Shift else ~rule_index[id(arg)]

    states = [{str(s): action(a, arg) for s, (a, arg) in sorted(table.states[old].items())} for old in order]
    used: list[Any] = []
    for old in order:
        if all(contextual.lexers[old] is not lx for lx in used):
            used.append(contextual.lexers[old])
    if all(root is not lx for lx in used):
        used.append(root)
    return {
        "terminals": [terminal_spec(t) for t in terminals],
        "ignore": sorted(ignore),
        "lexers": [lexer_spec(lx) for lx in used],
        "state_lexer": [next(i for i, lx in enumerate(used) if lx is contextual.lexers[old]) for old in order],
        "root_lexer": next(i for i, lx in enumerate(used) if lx is root),
        "states": states,
        "rules": [rule_spec(r) for r in rules],
        "start": number[start],
        "end": number[end],
    }
