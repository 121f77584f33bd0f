"""The JSON Schema of a variant file, generated from ``variant.py`` and ``rules.HOOKS``.

Every key has a ``description`` in Chinese and English (from the field's
metadata) and every object has ``additionalProperties: false``.  Maps keyed by
rank (``deck.remove``, ``gouji.thresholds`` …) list each rank as a property, so
an editor completes them too.  The shipped copy is
``gouji_rules/data/schema.json``; ``write_shipped()`` regenerates it and a test
checks it is up to date.

The loader validates with this same schema (:mod:`gouji_rules.dsl.validate`),
walking the YAML nodes so that every error keeps its position.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from pathlib import Path
from typing import Any

from ..cards import SYMBOLS
from ..rules import HOOKS
from ..variant import SECTIONS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
RANKS: tuple[str, ...] = (*SYMBOLS, "10")
JOKER_RANKS: tuple[str, ...] = ("SJ", "BJ", "Y")
EXACT_ITEMS: dict[tuple[str, str], int] = {("places", "names"): 6, ("scoring", "points"): 6}
"""Lists that must have exactly this many items (the engine's Rules checks them too)."""

RANK_NAMES_ZH = {"T": "10", "SJ": "小王", "BJ": "大王", "Y": "鹰"}
RANK_NAMES_EN = {"T": "10", "SJ": "small joker", "BJ": "big joker", "Y": "鹰 (eagle / top card)"}

TOP_LEVEL: dict[str, tuple[str, str]] = {
    "extends": (
        "在哪个规则上修改：内置规则名（dagang、dianshaomenla…）或相对路径（相对本文件）",
        "the variant this one builds on: a shipped name or a path relative to this file",
    ),
    "name": (
        "规则的简称（只用字母、数字、_ 和 -）；不写则用文件名",
        "short id of the variant; defaults to the file name",
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


def _rank_item(sym: str) -> str:
    return _describe(f"点数 {RANK_NAMES_ZH.get(sym, sym)}", f"rank {RANK_NAMES_EN.get(sym, sym)}")


def _rank_enum(zh: str, en: str) -> dict[str, Any]:
    return {"type": "string", "enum": list(RANKS), "description": _describe(zh, en)}


def _is_rank_list(default: Any) -> bool:
    return isinstance(default, list) and bool(default) and all(isinstance(x, str) and x in RANKS for x in default)


def _type_schema(tp: Any, default: Any, where: tuple[str, str], zh: str, en: str) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        out = _type_schema(inner[0], default, where, zh, en)
        t = out.get("type")
        out["type"] = [t, "null"] if isinstance(t, str) else ["null"]
        return out
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        if isinstance(default, str) and default in RANKS and "rank" in where[1]:
            return {"type": "string", "enum": list(RANKS)}
        return {"type": "string"}
    if origin is typing.Literal:
        return {"type": "string", "enum": list(args)}
    if origin is list:
        (item,) = args
        if item is str and _is_rank_list(default):
            out = {"type": "array", "items": _rank_enum("点数", "a rank")}
        elif typing.get_origin(item) is list and typing.get_args(item)[0] is Any:
            out = {
                "type": "array",
                "items": {
                    "type": "array",
                    "description": _describe("[点数, 张数]", "[rank, how many]"),
                    "prefixItems": [
                        _rank_enum("用哪种牌", "which rank"),
                        {"type": "integer", "minimum": 1, "description": _describe("几张", "how many")},
                    ],
                    "items": False,
                    "minItems": 2,
                    "maxItems": 2,
                },
            }
        else:
            out = {"type": "array", "items": _type_schema(item, None, where, "一项", "one item")}
            out["items"]["description"] = _describe(f"{zh}（一项）", f"{en} (one item)")
        if where in EXACT_ITEMS:
            out["minItems"] = out["maxItems"] = EXACT_ITEMS[where]
        return out
    if origin is dict:
        _, value = args
        keys = JOKER_RANKS if typing.get_origin(value) is list else RANKS
        value_schema = _type_schema(value, None, where, zh, en)
        if value_schema.get("type") == "integer":
            value_schema["minimum"] = 0
        props = {sym: {**value_schema, "description": _rank_item(sym)} for sym in keys}
        return {"type": "object", "properties": props, "additionalProperties": False}
    return {}


def field_schema(section: str, f: dataclasses.Field[Any], tp: Any) -> dict[str, Any]:
    zh, en = f.metadata.get("zh", f.name), f.metadata.get("en", f.name)
    if f.default is not dataclasses.MISSING:
        default = f.default
    elif f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    else:  # pragma: no cover - every Variant field has a default
        default = None
    out = _type_schema(tp, default, (section, f.name), zh, en)
    choices = f.metadata.get("choices")  # value -> (zh, en); registries fill it when asked
    if choices is not None:
        target = out["items"] if out.get("type") == "array" else out
        target["enum"] = list(choices)
    for bound in ("minimum", "maximum"):
        if bound in f.metadata:
            out[bound] = f.metadata[bound]
    out["description"] = _describe(zh, en)
    out["default"] = default
    return out


def section_schema(key: str, cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    doc = (cls.__doc__ or key).strip()
    return {
        "type": "object",
        "description": _describe(doc, f"section {key}"),
        "properties": {f.name: field_schema(key, f, hints[f.name]) for f in dataclasses.fields(cls)},
        "additionalProperties": False,
    }


def hook_description(name: str) -> str:
    spec = HOOKS[name]
    names = ", ".join(f"{k}: {t}" for k, t in spec.names.items())
    return _describe(spec.zh, spec.en) + f"\ncontext: {names}\nresult: {spec.result}"


def generate() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a variant file, from the current model."""
    props: dict[str, Any] = {}
    for key in ("extends", "name", "title", "source"):
        props[key] = {"type": "string", "description": _describe(*TOP_LEVEL[key])}
    props["name"]["pattern"] = "^[A-Za-z0-9_][A-Za-z0-9_.-]*$"
    for key, cls in SECTIONS:
        props[key] = section_schema(key, cls)
    props["hooks"] = {
        "type": "object",
        "description": _describe(*TOP_LEVEL["hooks"]),
        "properties": {name: {"type": "string", "description": hook_description(name)} for name in HOOKS},
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "title": "gouji_rules variant file",
        "description": _describe(
            "够级规则文件：只写与 extends 所指规则不同的地方", "a 够级 variant file: only what differs from its extends"
        ),
        "type": "object",
        "properties": props,
        "additionalProperties": False,
    }


@functools.cache
def schema() -> dict[str, Any]:
    """The generated schema, built once per process."""
    return generate()


def dumps() -> str:
    return json.dumps(generate(), ensure_ascii=False, indent=2) + "\n"


def shipped_path() -> Path:
    """Where the shipped copy lives in a source checkout."""
    return Path(__file__).resolve().parent.parent / "data" / "schema.json"


def write_shipped() -> Path:
    """Regenerate ``gouji_rules/data/schema.json`` (run after changing variant.py or rules.HOOKS)."""
    path = shipped_path()
    path.write_text(dumps(), encoding="utf-8")
    return path


if __name__ == "__main__":  # pragma: no cover
    print(write_shipped())
