"""Typing slips: full-width punctuation and tabs, named where they are, with the fix.

A club typing its rules with a Chinese input method easily writes ``enabled： false``,
``[4，2，0，0，-2，-4]`` or ``“cover”``.  YAML reads these as valid text of another
shape (a string where a mapping was meant, a one-item list) or fails a line later, so
the error the parser or the schema gives points somewhere else and says something else.
These checks find the slip itself:

* a full-width colon right after a key (``enabled：``) is always a slip (keys are
  ASCII), so it is reported before anything else;
* a tab in the indentation is reported instead of the YAML parser's message;
* other full-width punctuation (``，`` ``、`` ``［`` ``］`` ``｛`` ``｝`` and curly or
  full-width quotes) is only reported where the file is wrong anyway: inside a value the
  schema refuses, or on the line where the YAML parser stopped.  A title may use them freely.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Protocol

from .errors import VariantFileError


class Source(Protocol):
    """What a slip check reads of a file's text (:class:`.yamlpos.Source` is one).  Declared here,
    not imported: the YAML reader calls these checks, so they sit below it."""

    text: str
    lines: list[str]

    def position(self, index: int) -> tuple[int, int]:
        """Line and column (from 1) of a character index."""
        ...

    def line_start(self, line: int) -> int:
        """The index of a line's first character."""
        ...

    def line_text(self, line: int) -> str | None:
        """A line's text, None past the end."""
        ...

    def error(self, message: str, line: int, column: int, hint: str = "", severity: str = "error") -> VariantFileError:
        """An error at a position in this file."""
        ...


class Node(Protocol):
    """What a slip check reads of a YAML node (:class:`.yamlpos.Node` is one)."""

    kind: str
    start: int
    end: int
    style: str | None

    @property
    def src(self) -> Source:
        """The file the node was read from."""
        ...


ASCII_FOR: dict[str, str] = {
    "：": ":",
    "，": ",",
    "、": ",",
    "［": "[",
    "］": "]",
    "｛": "{",
    "｝": "}",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "＂": '"',
    "＇": "'",
}
NAMES = {
    ":": "colon",
    ",": "comma",
    "[": "bracket",
    "]": "bracket",
    "{": "brace",
    "}": "brace",
    '"': "quote",
    "'": "quote",
}
KEY_COLON = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z0-9_]+|\"[^\"]*\"|'[^']*')[ \t]*：")
"""A key (ASCII, as every key of a variant file is) followed by a full-width colon."""


def fixed(text: str) -> str:
    """``text`` with its full-width punctuation written in ASCII, a space after ':' and ','."""
    out = []
    for i, ch in enumerate(text):
        a = ASCII_FOR.get(ch)
        if a is None:
            out.append(ch)
            continue
        out.append(a)
        nxt = text[i + 1 : i + 2]
        if a in ":," and nxt and not nxt.isspace():
            out.append(" ")
    return "".join(out)


def _slip(src: Source, index: int, why: str = "") -> VariantFileError:
    ch = src.text[index]
    a = ASCII_FOR[ch]
    line, col = src.position(index)
    line_text = src.line_text(line) or ""
    message = f"full-width {NAMES[a]} {ch!r}: YAML needs the ASCII {a!r}"
    if why:
        message += f" ({why})"
    return src.error(message, line, col, f"write: {fixed(line_text).strip()}")


def _code_part(line: str) -> str:
    """A line without its comment (a '#' at the start or after a space, outside quotes)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def key_colons(src: Source) -> list[VariantFileError]:
    """Every ``key：`` (a full-width colon after a key) and every full-width space in an indentation."""
    out = []
    for n, line in enumerate(src.lines, 1):
        m = KEY_COLON.match(line)
        if m and not line.lstrip().startswith("#"):
            out.append(_slip(src, src.line_start(n) + m.end() - 1))
        indent = re.match(r"[ \t\u3000]*", line)
        if indent and "\u3000" in indent.group():
            col = indent.group().index("\u3000") + 1
            out.append(
                src.error(
                    "a full-width space (U+3000) in the indentation: YAML indents with ASCII spaces",
                    n,
                    col,
                    "switch the input method to half-width and indent with spaces",
                )
            )
    return out


def tab_error(src: Source, line: int, column: int) -> VariantFileError | None:
    """The tab that made the YAML parser stop at ``line``:``column`` (at it, or in this line's indentation)."""
    text = src.line_text(line)
    if text is None:
        return None
    col = column if text[column - 1 : column] == "\t" else 0
    if not col:
        indent = len(text) - len(text.lstrip(" \t"))
        tab = text.find("\t", 0, indent)
        col = tab + 1 if tab >= 0 else 0
    if not col:
        return None
    indent = not text[: col - 1].strip()
    return src.error(
        "a tab character: YAML indents with spaces only" if indent else "a tab character where YAML needs a space",
        line,
        col,
        "replace the tab with spaces (two spaces per level, as in the shipped files)" if indent else "write a space",
    )


def near_parse_error(src: Source, line: int) -> VariantFileError | None:
    """Full-width punctuation on the line where the YAML parser stopped, or the line before."""
    for ln in (line, line - 1):
        text = src.line_text(ln)
        if text is None:
            continue
        code = _code_part(text)
        flow = any(c in code for c in "[{［｛")
        for i, ch in enumerate(code):
            if ch in "［］｛｝" or (ch in "，、：" and flow) or (ch in "“”‘’＂＇" and _starts_value(code, i)):
                return _slip(src, src.line_start(ln) + i, "where YAML stopped reading")
    return None


def _starts_value(code: str, i: int) -> bool:
    before = code[:i].rstrip()
    return before.endswith((":", "-", "[", ",", "{")) or not before


def fullwidth_slip(node: Node) -> VariantFileError | None:
    """Full-width punctuation written where a value the schema refused should have had ASCII punctuation."""
    text = node.src.text
    if node.kind == "scalar":
        if node.style in ("|", ">"):
            return None
        span = range(node.start, node.end)
    elif node.kind == "seq" and text[node.start : node.start + 1] == "[":
        span = range(node.start, node.end)
    else:
        return None
    for i in span:
        if text[i] in ASCII_FOR:
            return _slip(node.src, i)
    return None


LIST_SEPARATORS = re.compile(r"\s*[,，、;；]\s*|\s+")
MINUS_SIGNS = str.maketrans({"－": "-", "−": "-", "﹣": "-", "＋": "+"})


def loose_list(text: str, item_types: list[str]) -> list[Any] | None:
    """The items of a list written the way a Chinese input method types it, or None.

    ``2、1、0、0、-1、-2``, ``2,1,0,0,-1,-2``, ``2 1 0 0 -1 -2``, ``［2，1，0］`` and a full-width minus all mean the
    list ``[2, 1, 0, 0, -1, -2]``: a club should not need three tries to write its scores.  Only
    text with a separator or brackets counts (one bare word stays a scalar, refused as before), and
    each item is typed as the schema's item type (``integer`` items must be whole numbers)."""
    t = unicodedata.normalize("NFKC", text).translate(MINUS_SIGNS).strip()
    bracketed = t.startswith("[") and t.endswith("]")
    if bracketed:
        t = t[1:-1].strip()
    parts = LIST_SEPARATORS.split(t) if t else []
    if not bracketed and len(parts) < 2:
        return None
    out: list[Any] = []
    for part in parts:
        if not part or any(c in part for c in "[]{}:#"):
            return None
        if "integer" in item_types and re.fullmatch(r"[+-]?(0|[1-9][0-9]{0,29})", part):
            out.append(int(part))
        else:  # kept as written: the schema names the item that is wrong
            out.append(part.strip("'\""))
    return out
