"""A quick yes to "does this typed tree satisfy the JSON Schema?", so that a valid file needs no ``jsonschema``.

Importing ``jsonschema`` (with ``referencing``, ``attrs``, ``rpds`` and its format checkers) takes
longer than the rest of ``gouji validate``.  :func:`conforms` walks the tree against the few
keywords the schema generator writes (``type``, ``enum``, ``minimum``, ``maximum``,
``properties``, ``additionalProperties: false``, ``items``, ``additionalItems: false``,
``minItems``, ``maxItems``, ``maxLength``, ``pattern``), in draft-07's meaning.  It answers
True only when every value passes every one of them; on anything else (a failure, a keyword or
a value type it does not know) it answers False, and :mod:`gouji_rules.dsl.validate` asks
``jsonschema``, which finds and words every error as before.  So the schema stays the one
source of what a file may say, and errors are ``jsonschema``'s, unchanged.
"""

from __future__ import annotations

import re
from typing import Any

ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "title",
        "description",
        "markdownDescription",
        "default",
        "examples",
        "enumDescriptions",
        "markdownEnumDescriptions",
    }
)
"""Keywords that never make a value fail."""

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "boolean": (bool,),
    "null": (type(None),),
}


def conforms(value: Any, schema: Any) -> bool:
    """True when ``value`` surely satisfies ``schema``; False when it fails or this cannot tell."""
    if not isinstance(schema, dict):
        return False
    for keyword, rule in schema.items():
        if keyword in ANNOTATIONS:
            continue
        check = _KEYWORDS.get(keyword)
        if check is None or not check(value, rule, schema):
            return False
    return True


def _is(value: Any, name: str) -> bool:
    kinds = _TYPES.get(name)
    if kinds is None:
        return False
    if isinstance(value, bool) and name != "boolean":
        return False  # a boolean is not an integer here, as in JSON
    return isinstance(value, kinds)


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    names = rule if isinstance(rule, list) else [rule]
    return any(isinstance(n, str) and _is(value, n) for n in names)


def _enum(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    # a scalar of the same type and equal: jsonschema tells True from 1 and False from 0, and so does this
    scalar = isinstance(value, (str, int, type(None)))
    return scalar and isinstance(rule, list) and any(type(e) is type(value) and e == value for e in rule)


def _minimum(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    return not _number(value) or (_number(rule) and value >= rule)


def _maximum(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    return not _number(value) or (_number(rule) and value <= rule)


def _properties(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    if not isinstance(rule, dict):
        return False
    return all(conforms(value[k], sub) for k, sub in rule.items() if k in value)


def _additional_properties(value: Any, rule: Any, schema: dict[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    if rule is not False or "patternProperties" in schema:
        return False
    known = schema.get("properties", {})
    return isinstance(known, dict) and all(k in known for k in value)


def _items(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    if not isinstance(value, list):
        return True
    if isinstance(rule, list):
        return all(conforms(v, sub) for v, sub in zip(value, rule, strict=False))
    return all(conforms(v, rule) for v in value)


def _additional_items(value: Any, rule: Any, schema: dict[str, Any]) -> bool:
    items = schema.get("items", {})
    if not isinstance(value, list) or isinstance(items, dict):
        return True
    return rule is False and isinstance(items, list) and len(value) <= len(items)


def _min_items(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    return not isinstance(value, list) or (_number(rule) and len(value) >= rule)


def _max_items(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    return not isinstance(value, list) or (_number(rule) and len(value) <= rule)


def _max_length(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    return not isinstance(value, str) or (_number(rule) and len(value) <= rule)


def _pattern(value: Any, rule: Any, _: dict[str, Any]) -> bool:
    return not isinstance(value, str) or (isinstance(rule, str) and re.search(rule, value) is not None)


_KEYWORDS = {
    "type": _type,
    "enum": _enum,
    "minimum": _minimum,
    "maximum": _maximum,
    "properties": _properties,
    "additionalProperties": _additional_properties,
    "items": _items,
    "additionalItems": _additional_items,
    "minItems": _min_items,
    "maxItems": _max_items,
    "maxLength": _max_length,
    "pattern": _pattern,
}
"""The keywords the schema generator writes, each in draft-07's meaning."""
