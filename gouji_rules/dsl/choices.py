"""Words for coded values: what ``place_bottom``, ``never``, ``cover`` … mean, in Chinese and English.

An enumerated field's values are codes a club types; the schema (for an
editor's completion and hover) and ``gouji explain`` show them as words.  The
words are the field's own ``metadata["choices"]`` (``{value: (zh, en)}``, or a
callable returning it, filled from a registry); a value without words is shown
as its code.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

Words = tuple[str, str]


def literal_values(tp: Any) -> tuple[str, ...]:
    """The values of a ``Literal[...]`` type, of ``list[Literal[...]]`` or ``Literal | None``; else ()."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Literal:
        return tuple(str(a) for a in args)
    if origin is list or (args and type(None) in args):
        for a in args:
            found = literal_values(a)
            if found:
                return found
    return ()


def field_choices(f: dataclasses.Field[Any], tp: Any) -> dict[str, Words]:
    """Every value an enumerated field takes, with its words; {} for a field that is not enumerated."""
    given: Any = f.metadata.get("choices")
    if callable(given):
        given = given()
    if isinstance(given, Mapping) and given:
        return {str(k): _words(v) for k, v in given.items()}
    return {v: (v, v) for v in literal_values(tp)}


def _words(v: Any) -> Words:
    if isinstance(v, (tuple, list)) and len(v) == 2:
        return str(v[0]), str(v[1])
    return str(v), str(v)


def choice_words(choices: Mapping[str, Words], value: str, lang: str) -> str:
    """A value in words (zh or en), or the value itself when it has none."""
    words = choices.get(value)
    if words is None:
        return value
    return words[0] if lang == "zh" else words[1]
