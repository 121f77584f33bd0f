"""The JSON Schema of a variant file, generated from the model: ``variant.SECTIONS``, the options of
the registered parts (:mod:`gouji_rules.parts.catalogue`) and ``hooks.HOOKS``.

Draft-07, the draft every editor's YAML support (yaml-language-server from 1.15 on, the
JetBrains IDEs) and every validator understands: no ``prefixItems``, ``$defs`` or
``items: false``.  Every key has a ``description`` in Chinese and English (from the
field's metadata), every enumerated value one too (``enumDescriptions`` and
``markdownEnumDescriptions``, which yaml-language-server shows on completion and hover),
and every object has ``additionalProperties: false``.  Maps keyed by rank
(``deck.remove``, ``gouji.thresholds`` …) list each rank as a property, so an editor
completes them too.

Every number is bounded, so that nothing a file says can overflow the engine, SQLite or
a report: an integer field without a ``maximum`` in its metadata gets ``INT_CAP`` (and
``-INT_CAP`` below), a count of cards ``COUNT_CAP``, a list ``LIST_CAP`` items, a text
``TEXT_CAP`` characters.

The loader validates every file with this schema through ``jsonschema``
(:mod:`gouji_rules.dsl.validate`).  The shipped copy is ``gouji_rules/data/schema.json``;
``write_shipped()`` regenerates it and a test checks it is up to date.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
import unicodedata
from collections.abc import Collection
from pathlib import Path
from typing import Any

from ..game.cards import SYMBOLS
from ..parts import catalogue, options
from ..parts.hooks import HOOKS
from ..parts.registry import Registry
from ..variant import SECTIONS
from .choices import Words, field_choices
from .expr import MAX_LENGTH as EXPR_MAX_LENGTH

DRAFT = "http://json-schema.org/draft-07/schema#"
SCHEMA_ID = "urn:gouji-rules:variant-schema:1"
RANKS: tuple[str, ...] = (*SYMBOLS, "10")
JOKER_RANKS: tuple[str, ...] = ("SJ", "BJ", "Y")

INT_CAP = 1000
"""Bound of an integer field whose metadata gives none (points, multipliers, stakes, hands …)."""
COUNT_CAP = 64
"""Most cards of one rank a file may add, remove or ask for (8 packs hold 32 of a rank)."""
LIST_CAP = 64
TEXT_CAP = 200
LONG_TEXT_CAP = 1000
"""``title`` and ``source``."""

EXACT_ITEMS: dict[tuple[str, str], int] = {("places", "names"): 6, ("scoring", "points"): 6}
"""Lists that must have exactly this many items (the engine's Rules checks them too)."""

TUPLES: dict[tuple[str, str], tuple[tuple[str, str, int, int], ...]] = {
    ("tribute", "place"): (
        ("付贡的名次", "paying place", 1, 6),
        ("收贡的名次", "receiving place", 1, 6),
        ("张数", "cards", 0, COUNT_CAP),
    ),
}
"""Lists of fixed-shape integer tuples: each position's words and bounds."""

NAME_PATTERN = (
    "^[^\\u0000-\\u002f\\u003a-\\u0040\\u005b-\\u005e\\u0060\\u007b-\\u00bf\\u00d7\\u00f7"
    "\\u2000-\\u206f\\u2190-\\u2bff\\u3000-\\u3003\\u3008-\\u3020\\u3030\\ufe10-\\ufe6f\\ufeff"
    "\\uff00-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff65\\ud800-\\udfff]"
    "[^\\u0000-\\u002c\\u002e\\u002f\\u003a-\\u0040\\u005b-\\u005e\\u0060\\u007b-\\u00bf\\u00d7\\u00f7"
    "\\u2000-\\u206f\\u2190-\\u2bff\\u3000-\\u3003\\u3008-\\u3020\\u3030\\ufe10-\\ufe6f\\ufeff"
    "\\uff00-\\uff0f\\uff1a-\\uff20\\uff3b-\\uff40\\uff5b-\\uff65\\ud800-\\udfff]{0,63}$"
)
"""A variant name is safe as a file name and a CLI word: letters of any script, digits, '_' and '-'
(not first); no space, dot, slash, quote, punctuation (ASCII, CJK or full-width) or invisible mark."""
NAME_RULE = "may use only letters (of any script), digits, '_' and '-' (not first)"
"""How the error about a bad name words the rule, whichever check finds it."""


def is_name_char(c: str) -> bool:
    """A letter (of any script, marks included), a digit, '_' or '-': what a portable pattern such as
    :data:`NAME_PATTERN` cannot say by itself (it lets symbols such as emoji through)."""
    return unicodedata.category(c)[0] in "LMN" or c in "_-"


def safe_name(text: str) -> str:
    """``text`` as a name the schema accepts: each character it refuses becomes ``_`` (``custom`` if empty)."""
    pattern = re.compile(NAME_PATTERN)
    out = "".join(c if is_name_char(c) and pattern.fullmatch("a" + c) else "_" for c in text)[:64]
    if out.startswith("-"):
        out = "_" + out[1:]
    return out or "custom"


RANK_NAMES_ZH = {"T": "10", "SJ": "小王", "BJ": "大王", "Y": "鹰", "10": "10（同 T）"}
RANK_NAMES_EN = {
    "T": "10",
    "SJ": "small joker",
    "BJ": "big joker",
    "Y": "鹰 (eagle / top card)",
    "10": "10 (same as T)",
}

TOP_LEVEL: dict[str, tuple[str, str]] = {
    "extends": (
        "在哪个规则上修改：内置规则名（dagang、dianshaomenla…）或相对路径（相对本文件）",
        "the variant this one builds on: a shipped name or a path relative to this file",
    ),
    "name": (
        "规则的简称（字母（含汉字）、数字、_ 和 -，如 青岛 或 qingdao-2）；不写则用文件名",
        "short id of the variant (letters of any script, digits, _ and -); defaults to the file name",
    ),
    "title": ("规则的名称（给人看的）", "the variant's title, for people"),
    "source": ("规则出处（哪份规则文本，哪一条）", "where the rules come from (rule text and clause)"),
    "hooks": (
        "用表达式写的规则（条件、公式），按钩子名；每个钩子能用的名字见文档",
        "rules written as expressions (conditions, formulas), by hook name; see the docs for each hook's names",
    ),
}


def _describe(zh: str, en: str) -> str:
    return f"{zh}\n{en}"


def rank_words(sym: str) -> Words:
    """The words for a rank symbol in both languages, for the schema's choices and the rule sheet."""
    return f"点数 {RANK_NAMES_ZH.get(sym, sym)}", f"rank {RANK_NAMES_EN.get(sym, sym)}"


def enum_schema(choices: dict[str, Words], zh: str = "", en: str = "") -> dict[str, Any]:
    """A string enum whose every value carries its Chinese and English words."""
    out: dict[str, Any] = {"type": "string", "enum": list(choices)}
    out["enumDescriptions"] = [_describe(*w) for w in choices.values()]
    out["markdownEnumDescriptions"] = [f"{w[0]}  \n{w[1]}" for w in choices.values()]
    if zh or en:
        out["description"] = _describe(zh, en)
    return out


def _rank_enum(zh: str, en: str) -> dict[str, Any]:
    return enum_schema({r: rank_words(r) for r in RANKS}, zh, en)


def _int(lo: int, hi: int, zh: str = "", en: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"type": "integer", "minimum": lo, "maximum": hi}
    if zh or en:
        out["description"] = _describe(zh, en)
    return out


def _is_rank_list(default: Any) -> bool:
    return isinstance(default, list) and bool(default) and all(isinstance(x, str) and x in RANKS for x in default)


def _type_schema(
    tp: Any, default: Any, where: tuple[str, str], zh: str, en: str, choices: dict[str, Words]
) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        out = _type_schema(inner[0], default, where, zh, en, choices)
        t = out.get("type")
        out["type"] = [t, "null"] if isinstance(t, str) else ["null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return out
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer", "minimum": -INT_CAP, "maximum": INT_CAP}
    if tp is str:
        if choices:
            return enum_schema(choices)
        if isinstance(default, str) and default in RANKS and "rank" in where[1]:
            return _rank_enum("", "")
        return {"type": "string", "maxLength": TEXT_CAP}
    if origin is typing.Literal:
        return enum_schema(choices)
    if origin is list:
        return _list_schema(args[0], default, where, zh, en, choices)
    if origin is dict:
        _, value = args
        keys = JOKER_RANKS if typing.get_origin(value) is list else RANKS
        if typing.get_origin(value) is list:
            value_schema = _list_schema(typing.get_args(value)[0], None, where, zh, en, {})
        elif value is int:
            value_schema = _int(0, COUNT_CAP)
        else:
            value_schema = _type_schema(value, None, where, zh, en, {})
        props = {sym: {**value_schema, "description": _describe(*rank_words(sym))} for sym in keys}
        return {"type": "object", "properties": props, "additionalProperties": False}
    return {}


def _list_schema(
    item: Any, default: Any, where: tuple[str, str], zh: str, en: str, choices: dict[str, Words]
) -> dict[str, Any]:
    out: dict[str, Any]
    if choices:
        out = {"type": "array", "items": enum_schema(choices, f"{zh}（一项）", f"{en} (one item)")}
    elif item is str and _is_rank_list(default):
        out = {"type": "array", "items": _rank_enum("点数", "a rank")}
    elif typing.get_origin(item) is list and typing.get_args(item)[0] is Any:
        out = {
            "type": "array",
            "items": {
                "type": "array",
                "description": _describe("[点数, 张数]", "[rank, how many]"),
                "items": [_rank_enum("用哪种牌", "which rank"), _int(1, COUNT_CAP, "几张", "how many")],
                "additionalItems": False,
                "minItems": 2,
                "maxItems": 2,
            },
        }
    elif typing.get_origin(item) is list and where in TUPLES:
        shape = TUPLES[where]
        out = {
            "type": "array",
            "items": {
                "type": "array",
                "description": _describe(
                    "[" + ", ".join(s[0] for s in shape) + "]", "[" + ", ".join(s[1] for s in shape) + "]"
                ),
                "items": [_int(lo, hi, z, e) for z, e, lo, hi in shape],
                "additionalItems": False,
                "minItems": len(shape),
                "maxItems": len(shape),
            },
        }
    else:
        out = {"type": "array", "items": _type_schema(item, None, where, "一项", "one item", {})}
        if typing.get_origin(item) is list:
            out["items"]["maxItems"] = LIST_CAP
        out["items"]["description"] = _describe(f"{zh}（一项）", f"{en} (one item)")
    out["maxItems"] = LIST_CAP
    if where in EXACT_ITEMS:
        out["minItems"] = out["maxItems"] = EXACT_ITEMS[where]
    return out


def field_schema(section: str, f: dataclasses.Field[Any], tp: Any) -> dict[str, Any]:
    """The schema of one field: its type, bounds, words for each value, description and default."""
    zh, en = f.metadata.get("zh", f.name), f.metadata.get("en", f.name)
    if f.default is not dataclasses.MISSING:
        default = f.default
    elif f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    else:  # pragma: no cover - every Variant field has a default
        default = None
    # a list of ranks that is empty by default (sets.whole) says so in its metadata: its items are ranks
    shape = list(RANKS[:1]) if f.metadata.get("ranks") and default == [] else default
    out = _type_schema(tp, shape, (section, f.name), zh, en, field_choices(f, tp))
    for bound in ("minimum", "maximum"):
        if bound in f.metadata:
            out[bound] = f.metadata[bound]
    out["title"] = f"{section}.{f.name}"
    out["description"] = _describe(zh, en)
    out["default"] = default
    return out


def section_schema(key: str, cls: type) -> dict[str, Any]:
    """The JSON Schema of one section, read from its class's fields and their words, so the schema never drifts from
    the model."""
    hints = typing.get_type_hints(cls)
    doc = (cls.__doc__ or key).strip()
    return {
        "type": "object",
        "title": key,
        "description": _describe(doc, f"section {key}"),
        "properties": {f.name: field_schema(key, f, hints[f.name]) for f in dataclasses.fields(cls)},
        "additionalProperties": False,
    }


def extension_schema(registry: Registry[Any], read: bool = True) -> dict[str, Any]:
    """The mapping that holds the options of ``registry``'s entries that take options (one object per
    entry, its properties the options the class declares: :mod:`gouji_rules.parts.options`).  With ``read``
    False, the mapping without its entries, the registry left unread (see :func:`schema`)."""
    path = options.home_path(registry)
    entries: dict[str, Any] = {}
    for name in options.with_options(registry) if read else ():
        entry = registry[name]
        entries[name] = {
            "type": "object",
            "title": f"{path}.{name}",
            "description": _describe(entry.zh, entry.en),
            "properties": {o.name: o.schema(f"{path}.{name}.{o.name}") for o in options.declared(entry) or ()},
            "additionalProperties": False,
        }
    return {
        "type": "object",
        "title": path,
        "description": _describe(*options.home_words(path)),
        "properties": entries,
        "additionalProperties": False,
    }


def hook_description(name: str) -> str:
    """A hook's description for the schema: what it decides, the names it may use and its default, in both languages."""
    spec = HOOKS[name]
    names = ", ".join(f"{k}: {t}" for k, t in spec.names.items())
    zh, en = spec.default
    return (
        _describe(spec.zh, spec.en)
        + f"\ncontext: {names}\nresult: {spec.result}\n不写时：{zh}\nwithout it: {en}"
        + f"\n够级大纲的默认写成表达式 / dagang's default as an expression: {spec.expression}"
    )


def generate(written: Collection[str] | None = None) -> dict[str, Any]:
    """The JSON Schema (draft-07) of a variant file, built from the model as it is now; ``written``:
    see :func:`schema`."""
    props: dict[str, Any] = {}
    for key in ("extends", *catalogue.text_keys()):  # extends: a file's, never the rules'
        cap = LONG_TEXT_CAP if key in ("title", "source") else TEXT_CAP
        props[key] = {"type": "string", "maxLength": cap, "description": _describe(*TOP_LEVEL[key])}
    props["name"]["pattern"] = NAME_PATTERN
    props["name"]["maxLength"] = 64
    for key, cls in SECTIONS:
        props[key] = section_schema(key, cls)
    for registry, section, key in options.homes():
        ext = extension_schema(registry, written is None or section in written)
        if key:
            props[section]["properties"][key] = ext
        else:
            props[section] = ext
    props["hooks"] = {
        "type": "object",
        "description": _describe(*TOP_LEVEL["hooks"]),
        "properties": {
            name: {"type": "string", "maxLength": EXPR_MAX_LENGTH, "description": hook_description(name)}
            for name in HOOKS
        },
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_ID,
        "title": "gouji_rules variant file",
        "description": _describe(
            "够级规则文件：只写与 extends 所指规则不同的地方", "a 够级 variant file: only what differs from its extends"
        ),
        "type": "object",
        "properties": props,
        "additionalProperties": False,
    }


def schema(written: Collection[str] | None = None) -> dict[str, Any]:
    """The schema the loader validates with: generated now, so a field or registry entry added at run
    time is part of it.

    ``written``: the top-level keys of the tree it will check.  A home of options under a key the tree
    does not write is given without its entries: nothing in the tree can reach it, so its registry is
    not read (a file that writes no ``phases`` does not import the phases, a fifth of the cold start
    of ``gouji validate``).  What the tree can reach is the whole schema's, unchanged."""
    return generate(written)


def dumps() -> str:
    """The schema as the text of the shipped file (sorted, indented, UTF-8), so the check that it is up to date
    compares text."""
    return json.dumps(generate(), ensure_ascii=False, indent=2) + "\n"


def shipped_path() -> Path:
    """Where the shipped copy lives in a source checkout."""
    return Path(__file__).resolve().parent.parent / "data" / "schema.json"


def write_shipped() -> Path:
    """Regenerate ``gouji_rules/data/schema.json`` (run after changing variant.py or hooks.HOOKS)."""
    path = shipped_path()
    path.write_text(dumps(), encoding="utf-8")
    return path
