"""A strict, bounded YAML reader that keeps the position of every key and scalar.

Built on PyYAML's safe parser and composer (never a constructor, so no YAML
tag can build a Python object).  Every scalar stays the text the user wrote,
with its quoting style; :mod:`gouji_rules.dsl.validate` converts it by the
type the schema asks for, so YAML 1.1 surprises (``yes``/``no``/``on``/``off``,
``010``, ``1:30``) never slip into a field as a different type.

Limits (a hostile file fails fast with a clear error): the file size, the
nesting depth, the number of aliases and the number of nodes after aliases
are expanded (the "billion laughs").  Duplicate keys, YAML tags, merge keys
(``<<``) and several documents in one file are errors.

Pure PyYAML reads the file, and words every error; where libyaml surely reads it alike,
libyaml reads it instead (:mod:`gouji_rules.dsl.coldstart.libyaml`, for a quick ``gouji validate``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml

from .coldstart import libyaml
from .errors import VariantErrors, VariantFileError

MAX_BYTES = 64 * 1024
MAX_DEPTH = 24
MAX_ALIASES = 64
MAX_NODES = 4000
NULLS = ("", "~", "null", "Null", "NULL")

LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""What YAML counts as a line break: lines and columns are counted as the parsers count them."""


class Source:
    """A file's name and text, and a map from character offsets to lines and columns."""

    def __init__(self, filename: str, text: str) -> None:
        self.filename = filename
        self.text = text
        self._starts = [0, *(m.end() for m in LINE_BREAK.finditer(text))]
        self.lines = LINE_BREAK.split(text)
        if self.lines[-1] == "":  # the text ends with a line break: no line after it
            self.lines.pop()

    def position(self, index: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        line = bisect.bisect_right(self._starts, index) - 1
        return line + 1, index - self._starts[line] + 1

    def line_start(self, line: int) -> int:
        """Character offset of the start of a 1-based line."""
        return self._starts[min(max(line, 1), len(self._starts)) - 1]

    def line_text(self, line: int) -> str | None:
        """The text of line ``line`` (from 1), or None past the end: messages quote the line they point at."""
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else None

    def error(self, message: str, line: int, column: int, hint: str = "", severity: str = "error") -> VariantFileError:
        """An error (or a warning) at a position in this file, so every message names the file, line and column."""
        return VariantFileError(
            message,
            file=self.filename,
            line=line,
            column=column,
            hint=hint,
            source_line=self.line_text(line),
            severity=severity,
        )


@dataclass(eq=False)
class Node:
    """A YAML node with its position: a mapping, a sequence or a scalar (always text)."""

    kind: str
    src: Source
    start: int
    end: int
    value: str = ""
    style: str | None = None
    items: list[Node] = field(default_factory=list)
    entries: dict[str, tuple[Node, Node]] = field(default_factory=dict)

    @property
    def line(self) -> int:
        """The node's line (from 1), worked out when asked: most nodes are never reported."""
        return self.src.position(self.start)[0]

    @property
    def column(self) -> int:
        """The node's column (from 1), worked out when asked."""
        return self.src.position(self.start)[1]

    @property
    def is_null(self) -> bool:
        """Is the node YAML's null (``~``, ``null`` or nothing)? A club's ``key:`` with no value means unset."""
        return self.kind == "scalar" and self.style is None and self.value in NULLS

    def error(self, message: str, hint: str = "", severity: str = "error") -> VariantFileError:
        """An error (or a warning) at this node's position."""
        line, col = self.src.position(self.start)
        return self.src.error(message, line, col, hint, severity)

    def describe(self) -> str:
        """What kind of value the node is, in words for a message ("a mapping", "a list", "the text 'x'")."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.is_null:
            return "nothing (null)"
        return f"{self.value!r}"

    def get(self, key: str) -> Node | None:
        """The value under ``key`` of a mapping node, or None."""
        pair = self.entries.get(key)
        return pair[1] if pair else None

    def key_node(self, key: str) -> Node | None:
        """The key node of ``key`` (for errors that point at the key, not the value), or None."""
        pair = self.entries.get(key)
        return pair[0] if pair else None


def _mark_error(src: Source, e: yaml.YAMLError) -> VariantFileError:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem = getattr(e, "problem", None) or str(e)
    context = getattr(e, "context", None)
    message = f"invalid YAML: {problem}"
    if context and context not in problem:
        message += f" ({context})"
    if isinstance(e, yaml.reader.ReaderError):
        line, col = src.position(e.position)
        return src.error(f"invalid YAML: unacceptable character {chr(e.character)!r}", line, col)
    if mark is None:
        return src.error(message, 1, 1)
    from .slips import near_parse_error, tab_error

    line, col = mark.line + 1, mark.column + 1
    hint = ""
    if "mapping values are not allowed here" in message:
        hint = "check the indentation: the keys of one mapping line up, and a value needs a space after ':'"
    return tab_error(src, line, col) or near_parse_error(src, line) or src.error(message, line, col, hint)


def decode(data: bytes, filename: str) -> str:
    """The UTF-8 text of a file, or a positioned error."""
    if len(data) > MAX_BYTES:
        raise VariantErrors(
            [
                VariantFileError(
                    f"file is too large ({len(data)} bytes; a variant file may have at most {MAX_BYTES})",
                    file=filename,
                    hint="a club's variant file is a few dozen lines; use extends: for the rest",
                )
            ]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        col = len(before.rsplit(b"\n", 1)[-1].decode("utf-8", "replace")) + 1
        raise VariantErrors(
            [VariantFileError("file is not valid UTF-8", file=filename, line=line, column=col)]
        ) from None
    return text


def parse(text: str, filename: str = "<string>") -> Node:
    """Parse one YAML document into position-keeping nodes; raises VariantErrors."""
    if text.startswith("\ufeff"):
        text = text[1:]
    src = Source(filename, text)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise VariantErrors([src.error(f"file is too large (a variant file may have at most {MAX_BYTES} bytes)", 1, 1)])
    from .slips import key_colons

    slips = key_colons(src)
    if slips:
        raise VariantErrors(slips)
    root = _compose(src)
    if root is None:
        raise VariantErrors([src.error("the file is empty; a variant file is a mapping (extends:, name:, …)", 1, 1)])
    _check_expansion(src, root)
    errors: list[VariantFileError] = []
    budget = [MAX_NODES]
    node = _convert(src, root, errors, budget, 0)
    if errors:
        raise VariantErrors(errors)
    return node


def _compose(src: Source) -> yaml.Node | None:
    """The document's node graph (aliases not expanded)."""
    try:
        return libyaml.compose(src.text, lambda events: _check_events(src, events))
    except libyaml.Unsure:
        pass  # pure PyYAML reads it again and says what is wrong, in its words and at its place
    try:
        _check_events(src, yaml.parse(src.text, Loader=yaml.SafeLoader))
        node: yaml.Node | None = yaml.compose(src.text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        raise VariantErrors([_mark_error(src, e)]) from None
    return node


def _check_events(src: Source, events: Iterable[yaml.Event]) -> None:
    """One pass over the parser's events: depth, aliases, tags, one document (syntax errors are
    raised as the parser raises them)."""
    depth = aliases = documents = 0
    for ev in events:
        if isinstance(ev, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise _at(src, ev, "only one YAML document per file is allowed")
        elif isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise _at(src, ev, f"nesting is too deep (more than {MAX_DEPTH} levels)")
        elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        elif isinstance(ev, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _at(src, ev, f"too many aliases (more than {MAX_ALIASES})")
        tag = getattr(ev, "tag", None)
        if tag is not None and tag != "!":
            raise _at(src, ev, f"YAML tags are not allowed (found {tag!r})", "write plain values; no !! tags")


def _check_expansion(src: Source, root: yaml.Node) -> None:
    """Reject a document whose aliases expand to too many nodes, at the value that explodes."""
    sizes: dict[int, int] = {}

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        sizes[key] = MAX_NODES + 1  # a node that contains itself (a recursive alias) is infinite
        n = 1
        if isinstance(node, yaml.SequenceNode):
            n += sum(size(c) for c in node.value)
        elif isinstance(node, yaml.MappingNode):
            n += sum(size(k) + size(v) for k, v in node.value)
        sizes[key] = min(n, 10 * MAX_NODES)
        return sizes[key]

    if size(root) <= MAX_NODES:
        return
    worst = root
    while isinstance(worst, (yaml.SequenceNode, yaml.MappingNode)):
        children = [v for _, v in worst.value] if isinstance(worst, yaml.MappingNode) else list(worst.value)
        big = [c for c in children if sizes.get(id(c), 0) > MAX_NODES]
        if not big or big[0] is worst:
            break
        worst = big[0]
        if all(sizes.get(id(c), 0) <= MAX_NODES for c in _children(worst)):
            break
    line, col = src.position(worst.start_mark.index)
    raise VariantErrors(
        [
            src.error(
                f"this value expands to more than {MAX_NODES} nodes once aliases are expanded",
                line,
                col,
                "a 'billion laughs' alias bomb? variant files need no aliases",
            )
        ]
    )


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [v for _, v in node.value]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _at(src: Source, ev: Any, message: str, hint: str = "") -> VariantErrors:
    mark = ev.start_mark
    return VariantErrors([src.error(message, mark.line + 1, mark.column + 1, hint)])


def _convert(src: Source, node: yaml.Node, errors: list[VariantFileError], budget: list[int], depth: int) -> Node:
    budget[0] -= 1
    start, end = node.start_mark.index, node.end_mark.index
    if budget[0] < 0 or depth > 2 * MAX_DEPTH:
        why = f"more than {MAX_NODES} nodes" if budget[0] < 0 else "aliases nest too deeply"
        line, col = src.position(start)
        raise VariantErrors(
            [src.error(f"document is too large once aliases are expanded ({why})", line, col, "a 'billion laughs'?")]
        )
    if isinstance(node, yaml.ScalarNode):
        style = node.style if node.style else None
        return Node("scalar", src, start, end, value=str(node.value), style=style)
    if isinstance(node, yaml.SequenceNode):
        out = Node("seq", src, start, end)
        out.items = [_convert(src, child, errors, budget, depth + 1) for child in node.value]
        return out
    assert isinstance(node, yaml.MappingNode)
    out = Node("map", src, start, end)
    for k, v in node.value:
        key = _convert(src, k, errors, budget, depth + 1)
        value = _convert(src, v, errors, budget, depth + 1)
        if key.kind != "scalar":
            errors.append(key.error("a key must be plain text, not " + key.describe()))
            continue
        if key.value == "<<" and key.style is None:
            errors.append(key.error("merge keys (<<) are not supported", "use extends: to build on another variant"))
            continue
        if key.value in out.entries:
            first = out.entries[key.value][0]
            errors.append(key.error(f"duplicate key {key.value!r} (first given at line {first.line})"))
            continue
        out.entries[key.value] = (key, value)
    return out
