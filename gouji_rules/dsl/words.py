"""An expression read out in words, for ``gouji explain``: names as what they mean, operators as words.

A club writes ``rank > table_rank``; the rule sheet says 出的牌的核心点数大于桌上那套的核心点数 (or,
with ``--lang en``, "the played set's core rank is higher than the table set's core rank").  The
words come from the parse tree, so they say exactly what the expression does: nothing is
summarised away, and a name without words is printed as it is written.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..game.cards import SYMBOLS
from .expr import parse
from .parsetree import Token, Tree

_SET_WORDS = {  # name: (zh, en), for the played set; the table set's are the same with table_
    "rank": ("核心点数", "core rank"),
    "count": ("核心张数", "number of core cards"),
    "twos": ("贴的2的张数", "number of attached 2s"),
    "sj": ("挂的小王张数", "number of attached 小王"),
    "bj": ("挂的大王张数", "number of attached 大王"),
    "top": ("挂的鹰张数", "number of attached 鹰"),
    "size": ("张数", "size"),
    "jokers": ("王的张数", "number of jokers"),
    "all_twos": ("2的张数", "number of 2s"),
    "all_sj": ("小王的张数", "number of 小王"),
    "all_bj": ("大王的张数", "number of 大王"),
    "all_top": ("鹰的张数", "number of 鹰"),
    "plain": ("不是王的张数", "number of cards that are not jokers"),
}

BEATS_WORDS: dict[str, tuple[str, str]] = {
    **{k: ("出的牌的" + zh, "the played set's " + en) for k, (zh, en) in _SET_WORDS.items()},
    **{"table_" + k: ("桌上那套的" + zh, "the table set's " + en) for k, (zh, en) in _SET_WORDS.items()},
    "default": ("按 sets.beat 管得住", "sets.beat says it beats"),
}
"""Words for the names of the ``beats`` hook (``hooks.BEAT_CONTEXT``)."""

HOOK_WORDS: dict[str, Mapping[str, tuple[str, str]]] = {"beats": BEATS_WORDS}
"""The hooks whose expression the rule sheet reads out in words."""

_RANK_WORDS = {"T": ("10", "10"), "SJ": ("小王", "小王"), "BJ": ("大王", "大王"), "Y": ("鹰", "鹰")}
_COMPARE = {
    "eq": ("等于", "equals"),
    "ne": ("不等于", "does not equal"),
    "lt": ("小于", "is less than"),
    "le": ("不大于", "is at most"),
    "gt": ("大于", "is more than"),
    "ge": ("不小于", "is at least"),
    "in_": ("属于", "is one of"),
    "not_in": ("不属于", "is none of"),
}
_ARITH = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%"}


def in_words(text: str, names: Mapping[str, tuple[str, str]], lang: str = "zh") -> str:
    """``text`` (an expression that compiles) in words, names read from ``names`` (name -> (zh, en))."""
    return _Reader(names, lang == "zh").read(parse(text))


class _Reader:
    def __init__(self, names: Mapping[str, tuple[str, str]], zh: bool) -> None:
        self.names = names
        self.zh = zh

    def read(self, node: Tree | Token | None) -> str:
        if not isinstance(node, Tree):  # pragma: no cover - every token sits under a named rule
            return str(node)
        kind = str(node.data)
        ch = node.children
        zh = self.zh
        if kind in ("and_", "or_"):
            parts = [self.group(c, kind) for c in ch]
            if zh:
                return ("，并且" if kind == "and_" else "；或者").join(parts)
            return (", and " if kind == "and_" else "; or ").join(parts)
        if kind == "not_":
            inner = self.group(ch[0], kind)
            return f"并非{inner}" if zh else f"not ({inner})"
        if kind == "ifelse":
            yes, cond, no = (self.read(c) for c in ch)
            return f"若{cond}则{yes}，否则{no}" if zh else f"if {cond} then {yes}, else {no}"
        if kind in _COMPARE:
            word = _COMPARE[kind][0 if zh else 1]
            left, right = self.read(ch[0]), self.read(ch[-1])
            return f"{left}{word}{right}" if zh else f"{left} {word} {right}"
        if kind in _ARITH:
            return f"{self.read(ch[0])} {_ARITH[kind]} {self.read(ch[1])}"
        if kind == "neg":
            return f"-{self.read(ch[0])}"
        if kind == "name":
            name = str(ch[0])
            words = self.names.get(name)
            return (words[0] if zh else words[1]) if words else name
        if kind == "rank":
            sym = str(ch[0])[1:-1]
            sym = "T" if sym == "10" else sym
            if sym in _RANK_WORDS:
                return _RANK_WORDS[sym][0 if zh else 1]
            return sym if sym in SYMBOLS else str(ch[0])
        if kind in ("true", "false"):
            return ("是" if kind == "true" else "否") if zh else ("yes" if kind == "true" else "no")
        if kind == "int":
            return str(ch[0])
        if kind == "list":
            items = ch[0].children if ch[0] is not None else []
            return "[" + ("、" if zh else ", ").join(self.read(c) for c in items) + "]"
        if kind == "index":
            return f"{self.read(ch[0])}[{self.read(ch[1])}]"
        if kind == "call":
            args = ch[1].children if ch[1] is not None else []
            return f"{ch[0]}(" + ", ".join(self.read(a) for a in args) + ")"
        return str(kind)  # pragma: no cover - the grammar has no other construct

    def group(self, node: Tree | Token | None, outer: str) -> str:
        """A part of an and / or / not, bracketed when it is itself an and or an or (never ambiguous)."""
        text = self.read(node)
        if isinstance(node, Tree) and str(node.data) in ("and_", "or_", "ifelse") and str(node.data) != outer:
            return f"（{text}）" if self.zh else f"({text})"
        return text
