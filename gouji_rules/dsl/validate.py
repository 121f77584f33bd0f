"""From a merged YAML tree to a Variant: typing, JSON Schema validation with positions, hooks, checks.

Scalars arrive as text (see :mod:`yamlpos`) and are typed here by the type the
schema allows at their place: only ``true``/``false`` are booleans, only plain
decimal numbers are integers, and everything a string field receives stays a
string.  The typed tree is then validated by ``jsonschema`` against the schema
(:mod:`gouji_rules.dsl.schema`): the schema is the one source of what a file may
say, and each failure's JSON path is mapped back to the key or value in the
file, with a message and a did-you-mean.  Every problem is collected (not just
the first) and raised together as :class:`VariantErrors`; warnings about rules
that contradict each other or can never take effect are returned with the
Variant.
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import GoujiError
from ..parts.hooks import HOOKS
from ..variant import SECTIONS, Variant, make_variant
from .errors import VariantErrors, VariantFileError, did_you_mean
from .expr import CompiledHook, ExprError, compile_hook
from .merge import Chain
from .schema import NAME_RULE
from .schema import schema as generated_schema
from .slips import fullwidth_slip, loose_list
from .yamlpos import Node, Source

if TYPE_CHECKING:
    import jsonschema
    import jsonschema.protocols

INT_RE = re.compile(r"[+-]?(0|[1-9][0-9]*)\Z")
CHINESE_NUMBERS = {w: i for i, w in enumerate("零一二三四五六七八九十")} | {"两": 2}
CHINESE_BOOLS = {w: "true" for w in ("是", "对", "真", "有", "可以", "能")} | {
    w: "false" for w in ("否", "错", "假", "无", "没有", "不", "不可以", "不能")
}
YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n", "true", "false"}


@dataclass
class Checked:
    """The outcome of checking one file: the Variant (if valid), errors, warnings, the chain's files."""

    variant: Variant | None
    errors: list[VariantFileError] = field(default_factory=list)
    warnings: list[VariantFileError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


# -- typing: scalars by the type the schema asks for ---------------------------------------------

JsonPath = tuple[str | int, ...]
Index = dict[JsonPath, tuple[Node | None, Node]]
"""Where each value of the typed tree was written: its key node (None for a list item) and value node."""


def _types(sch: dict[str, Any] | None) -> list[str] | None:
    if not sch:
        return None
    t = sch.get("type")
    if isinstance(t, list):
        return [str(x) for x in t]
    return [str(t)] if t else None


def _sub_property(sch: dict[str, Any] | None, key: str) -> dict[str, Any] | None:
    if not sch:
        return None
    sub = sch.get("properties", {}).get(key)
    return sub if isinstance(sub, dict) else None


def _sub_item(sch: dict[str, Any] | None, i: int) -> dict[str, Any] | None:
    if not sch:
        return None
    items = sch.get("items")
    if isinstance(items, list):
        extra = sch.get("additionalItems")
        sub = items[i] if i < len(items) else (extra if isinstance(extra, dict) else None)
    else:
        sub = items
    return sub if isinstance(sub, dict) else None


def typed(node: Node, sch: dict[str, Any] | None, path: JsonPath, index: Index, errors: list[VariantFileError]) -> Any:
    """The plain data of ``node``, each scalar typed strictly by what the schema allows at its place.

    Only plain ``true``/``false`` become booleans and only plain decimal numbers integers, and only
    where the schema allows that type; everything else stays the text that was written, so the
    validator reports it as the wrong type.  Nothing is checked here but what cannot be typed at all.
    """
    if node.kind == "map":
        out: dict[str, Any] = {}
        props = sch.get("properties", {}) if sch else {}
        for key, (knode, vnode) in node.entries.items():
            name = key
            if key == "10" and "T" in props:
                name = "T"
                if "T" in node.entries:
                    errors.append(knode.error(f"{_dotted((*path, key))}: '10' and 'T' are the same rank, given twice"))
                    continue
            sub = _sub_property(sch, name)
            index[(*path, name)] = (knode, vnode)
            out[name] = typed(vnode, sub, (*path, name), index, errors)
        return out
    kinds = item_types(sch)
    if node.kind == "seq":
        items: list[Any] = []
        for item in node.items:  # only a list of one item may be a whole list typed with 、 or ，
            loose = _loose(item, kinds) if len(node.items) == 1 else None
            for value in loose if loose is not None else [None]:
                i = len(items)
                index[(*path, i)] = (None, item)
                items.append(value if loose is not None else typed(item, _sub_item(sch, i), (*path, i), index, errors))
        return items
    loose = _loose(node, kinds)
    if loose is not None:
        for i in range(len(loose)):
            index[(*path, i)] = (None, node)
        return loose
    return _scalar(node, sch)


def item_types(sch: dict[str, Any] | None) -> list[str]:
    """The types a list's items may have where ``sch`` allows a list; none where it does not."""
    if not sch or "array" not in (_types(sch) or []):
        return []
    items = sch.get("items")
    subs = items if isinstance(items, list) else [items]
    return sorted({t for sub in subs if isinstance(sub, dict) for t in _types(sub) or []})


def _loose(node: Node, item_types: list[str]) -> list[Any] | None:
    """A scalar written as a list (``2、1、0、0、-1、-2``) read as its items, where a list is meant."""
    if not item_types or node.kind != "scalar" or node.is_null or node.style in ("|", ">"):
        return None
    return loose_list(node.value, item_types)


def _scalar(node: Node, sch: dict[str, Any] | None) -> Any:
    if node.is_null:
        return None
    v = node.value
    types = _types(sch)
    plain = node.style is None
    if types is None:  # a place the schema does not know (an unknown key): its natural type
        if plain and INT_RE.match(v) and len(v) <= MAX_DIGITS:
            return int(v)
        if plain and v in ("true", "false"):
            return v == "true"
        return v
    if "string" in types:
        if v == "10" and sch is not None and "T" in sch.get("enum", ()):
            return "T"
        return v
    if "integer" in types and plain and INT_RE.match(v):
        return int(v) if len(v) <= MAX_DIGITS else TooLarge(v)
    if "boolean" in types and plain and v in ("true", "false"):
        return v == "true"
    return v


MAX_DIGITS = 30


class TooLarge(int):
    """An integer written with more digits than any bound allows: compared as huge, shown shortened."""

    def __new__(cls, text: str) -> TooLarge:
        return super().__new__(cls, -(10**MAX_DIGITS) if text.startswith("-") else 10**MAX_DIGITS)

    def __init__(self, text: str) -> None:
        self.text = text


def _show_number(n: Any) -> str:
    text = n.text if isinstance(n, TooLarge) else str(n)
    return text if len(text) <= 24 else f"{text[:12]}… ({len(text.lstrip('+-'))} digits)"


# -- validation by jsonschema, errors mapped back to the file --------------------------------------

_PRIORITY = {"type": 0, "enum": 1, "additionalItems": 3}
"""When several keywords fail at one value, the first of these is reported (others rank 2)."""


def validator_for(sch: dict[str, Any]) -> jsonschema.protocols.Validator:
    """The JSON Schema validator for ``sch``, built once per schema: building one costs more than checking a file."""
    import jsonschema
    import jsonschema.validators

    cls = jsonschema.validators.validator_for(sch, default=jsonschema.Draft7Validator)
    return cls(sch)


def schema_errors(data: Any, root: Node, index: Index, sch: dict[str, Any], errors: list[VariantFileError]) -> None:
    """Validate the typed tree with ``jsonschema``; report each failure at its place in the YAML.

    A tree that :func:`~gouji_rules.dsl.coldstart.conform.conforms` has no failure to report, and
    ``jsonschema`` is not even imported (it is the slowest part of ``gouji validate``)."""
    from .coldstart.conform import conforms

    if conforms(data, sch):
        return
    best: dict[JsonPath, jsonschema.ValidationError] = {}
    extra_keys: list[jsonschema.ValidationError] = []
    for err in validator_for(sch).iter_errors(data):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties":
            extra_keys.append(err)
            continue
        old = best.get(path)
        if old is None or _PRIORITY.get(str(err.validator), 2) < _PRIORITY.get(str(old.validator), 2):
            best[path] = err
    for err in extra_keys:
        path = tuple(err.absolute_path)
        props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
        inst = err.instance if isinstance(err.instance, dict) else {}
        for key in inst:
            if key in props:
                continue
            knode, _ = index.get((*path, key), (None, root))
            where = _dotted((*path, key))
            what = f"unknown hook {key!r}" if path == ("hooks",) else f"unknown key {where!r}"
            errors.append((knode or root).error(what, _key_hint(key, props, _dotted(path), sch)))
    for path, err in best.items():
        node = index.get(path, (None, root))[1] if path else root
        errors.append(_message(err, node, _dotted(path)))


def _message(err: jsonschema.ValidationError, node: Node, path: str) -> VariantFileError:
    sch = err.schema if isinstance(err.schema, dict) else {}
    loose = _loose(node, item_types(sch) or (["string"] if path.endswith("]") else []))
    slip = None if loose is not None else fullwidth_slip(node)
    if slip is not None:
        return slip
    kw = str(err.validator)
    value: Any = err.instance
    if kw == "type" and loose is not None and path.endswith("]"):
        return node.error(f"{path} must be {_expect((_types(sch) or ['null'])[0], sch)}, not {value!r}")
    if kw == "type":
        return _type_message(node, sch, path)
    if kw == "enum":
        enum = [e for e in sch.get("enum", []) if e is not None]
        v = str(value)
        hint = _near(v, [str(e) for e in enum]) or _word_hint(v, enum, sch)
        return node.error(f"{path}: {v!r} is not one of {', '.join(str(e) for e in enum)}", hint)
    if kw == "minimum":
        return node.error(f"{path} must be at least {sch['minimum']}, not {_show_number(value)}")
    if kw == "maximum":
        return node.error(f"{path} must be at most {sch['maximum']}, not {_show_number(value)}")
    if kw in ("minItems", "maxItems", "additionalItems"):
        lo, hi = sch.get("minItems", 0), sch.get("maxItems")
        want = f"exactly {lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
        zh, _, en = str(sch.get("description", "")).partition("\n")
        return node.error(f"{path} must have {want} items, not {len(value)}", f"{en} ({zh})" if en else "")
    if kw == "pattern" and path == "name":
        return node.error(
            f"name: {value!r} {NAME_RULE}",
            "a name is used as a file name and on the command line: no spaces, dots or punctuation",
        )
    if kw == "maxLength":
        return node.error(f"{path or 'the file'} is too long ({len(value)} characters; at most {sch['maxLength']})")
    return node.error(f"{path or 'the file'}: {err.message}")  # pragma: no cover - keywords the generator emits


def _word_hint(value: str, enum: list[Any], sch: dict[str, Any]) -> str:
    """``did you mean 'cover'?`` for a value written as the words of a code (``大花盖小花``, ``大王``)."""
    words = sch.get("enumDescriptions", [])
    if value.isascii() or not value.strip() or len(words) != len(sch.get("enum", [])):
        return ""
    for code, text in zip(sch["enum"], words, strict=True):
        if code in enum and any(value in part or part.endswith(" " + value) for part in str(text).split("\n")):
            return f"did you mean {code!r}? (codes are written in English; {value} is {code})"
    return ""


def _type_message(node: Node, sch: dict[str, Any], path: str) -> VariantFileError:
    types = _types(sch) or []
    main = next((t for t in types if t != "null"), "null")
    where = path or "the file"
    if main == "object":
        hint = ""
        glued = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*):(\S.*)", node.value) if node.kind == "scalar" else None
        if glued:
            hint = f"YAML needs a space after the colon: {glued.group(1)}: {glued.group(2)}"
        return node.error(f"{where} must be a mapping (key: value), not {node.describe()}", hint)
    if main == "array":
        hint = ""
        if node.kind == "scalar" and not node.is_null:
            key = path.rpartition(".")[2] or "value"
            shown = json.dumps(node.value, ensure_ascii=False) if node.style else node.value
            hint = f"write a list: {key}: [{shown}]"
        if node.kind == "scalar" and re.match(r"-\S", node.value):
            hint = f"YAML needs a space after '-': - {node.value[1:]}"
        return node.error(f"{where} must be a list, not {node.describe()}", hint)
    if node.kind != "scalar":
        return node.error(f"{where} must be {_expect(main, sch)}, not {node.describe()}")
    if node.is_null:
        what = "missing value" if node.value == "" else "null is not allowed here"
        return node.error(f"{where}: {what}; expected {_expect(main, sch)}")
    v = node.value
    if main == "integer":
        if node.style is not None:
            return node.error(f"{where} must be a whole number, not the text {v!r}", "remove the quotes")
        hint = ""
        if re.fullmatch(r"[+-]?0[0-7_]+", v):
            hint = f"YAML 1.1 would read {v} as an octal number; write it without the leading 0"
        elif re.fullmatch(r"[+-]?[0-9]+(:[0-5]?[0-9])+", v):
            hint = f"YAML 1.1 would read {v} as a base-60 number"
        elif v.lower() in YAML11_BOOLS:
            hint = "write a number"
        elif re.fullmatch(r"[+-]?[0-9._eE+-]+|0[xob][0-9a-fA-F_]+", v):
            hint = "write a plain decimal whole number such as 2"
        elif INT_RE.match(unicodedata.normalize("NFKC", v)):
            hint = f"write it in ASCII digits: {unicodedata.normalize('NFKC', v)}"
        elif v in CHINESE_NUMBERS:
            hint = f"write it in digits: {CHINESE_NUMBERS[v]}"
        return node.error(f"{where} must be a whole number, not {v!r}", hint)
    if main == "boolean":
        hint = ""
        if node.style is not None:
            hint = "remove the quotes"
        elif v.lower() in YAML11_BOOLS:
            hint = f"only true and false are booleans here (YAML 1.1 would read {v!r} as one)"
        elif v in CHINESE_BOOLS:
            hint = f"write {CHINESE_BOOLS[v]}"
        return node.error(f"{where} must be true or false, not {v!r}", hint)
    return node.error(f"{where} must be {_expect(main, sch)}, not {node.describe()}")


def _expect(main: str, sch: dict[str, Any]) -> str:
    if "enum" in sch:
        return "one of " + ", ".join(str(x) for x in sch["enum"] if x not in ("10", None))
    return {
        "integer": "a whole number",
        "boolean": "true or false",
        "string": "text",
        "object": "a mapping",
        "array": "a list",
    }.get(main, main)


def _near(word: str, names: list[str]) -> str:
    """``did you mean 'x'?`` for a name written in the wrong case, else for a near miss; or ``""``."""
    upper = {n.upper(): n for n in names}
    if word.upper() in upper:
        return f"did you mean {upper[word.upper()]!r}?"
    return did_you_mean(word, names)


def _key_hint(key: str, props: dict[str, Any], path: str, sch: dict[str, Any]) -> str:
    hint = _near(key, list(props))
    if hint:
        return hint
    if not key.isascii():
        for name, sub in props.items():
            zh = str(sub.get("description", "")).split("\n")[0] if isinstance(sub, dict) else ""
            if key in zh:
                return f"keys are written in English: {key} is {name}"
    top: dict[str, Any] = sch.get("properties", {})
    for section, sub in top.items():
        if isinstance(sub, dict) and key in sub.get("properties", {}) and section != path:
            return f"{key} belongs in {section}: ({section}.{key})"
    if not path and key in HOOKS:
        return f"hooks go under hooks: (hooks.{key})"
    if props and len(props) <= 20:
        return "expected one of: " + ", ".join(props)
    return ""


def _dotted(path: JsonPath) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out = f"{out}.{part}" if out else str(part)
    return out


# -- hooks ---------------------------------------------------------------------------------------


def expr_position(node: Node, offset: int) -> tuple[int, int]:
    """File line and column of character ``offset`` inside the scalar ``node``'s value."""
    src: Source = node.src
    text = src.text
    start, end = node.start, node.end
    value = node.value
    if node.style in ("|", ">"):
        nl = text.find("\n", start, end)
        start = nl + 1 if nl >= 0 else start
    elif node.style in ("'", '"'):
        start += 1
    j = start
    target = min(max(offset, 0), len(value))
    for i, ch in enumerate(value):
        if ch.isspace():
            if i == target:
                return src.position(j)
            continue
        while j < end and text[j] != ch:
            j += 1
        if j >= end:
            return node.line, node.column
        if i == target:
            return src.position(j)
        j += 2 if (ch == "'" and node.style == "'" and text[j : j + 2] == "''") else 1
    return src.position(min(j, max(end - 1, 0)))


def compile_hooks(hooks_node: Node | None, errors: list[VariantFileError]) -> dict[str, CompiledHook]:
    """Compile every expression under ``hooks:``, adding a positioned error for each that does not compile, so all of a
    file's mistakes are reported at once."""
    out: dict[str, CompiledHook] = {}
    if hooks_node is None or hooks_node.kind != "map":
        return out
    for name, (_knode, vnode) in hooks_node.entries.items():
        spec = HOOKS.get(name)
        if spec is None or vnode.kind != "scalar" or vnode.is_null:
            continue  # reported by the schema pass
        try:
            out[name] = compile_hook(name, vnode.value, spec, f"{vnode.src.filename}:{vnode.line}:{vnode.column}")
        except ExprError as e:
            line, col = expr_position(vnode, e.offset)
            errors.append(vnode.src.error(f"in hooks.{name}: {e.message}", line, col, e.hint))
    return out


# -- the whole pipeline ---------------------------------------------------------------------------


def _with_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """Rank maps merge over the model's defaults key by key (the root layer of every chain)."""
    for key, cls in SECTIONS:
        section = data.get(key)
        if not isinstance(section, dict):
            continue
        for f in dataclasses.fields(cls):
            given = section.get(f.name)
            if isinstance(given, dict) and f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
                if isinstance(default, dict):
                    section[f.name] = {**default, **given}
    return data


def check_chain(chain: Chain, default_name: str, schema: dict[str, Any] | None = None) -> Checked:
    """Validate and compile a merged tree; never raises for a user error (errors are in the result).

    ``schema`` is the JSON Schema to validate with; by default the one generated from the model now
    (equal to the shipped ``schema.json`` when nothing is registered at run time)."""
    written = chain.root.entries if chain.root.kind == "map" else {}  # the schema reads only what it can reach
    out = _check_chain(chain, default_name, schema if schema is not None else generated_schema(written))
    seen: set[tuple[str, int, int, str]] = set()
    unique = []
    for e in out.errors:  # two failures of one slip (a list's length and its item) are one error
        key = (e.file, e.line, e.column, e.message)
        if key not in seen:
            seen.add(key)
            unique.append(e)
    out.errors[:] = unique
    out.errors.sort(key=VariantFileError.sort_key)
    out.warnings.sort(key=VariantFileError.sort_key)
    return out


def _check_chain(chain: Chain, default_name: str, sch: dict[str, Any]) -> Checked:
    errors: list[VariantFileError] = []
    root = chain.root
    index: Index = {}
    data = typed(root, sch, (), index, errors)
    schema_errors(data, root, index, sch, errors)
    hooks = compile_hooks(root.get("hooks"), errors)
    out = Checked(None, errors, [], chain.files)
    if errors or not isinstance(data, dict):
        return out
    data.pop("extends", None)
    data.pop("hooks", None)
    data.setdefault("name", default_name)
    try:
        variant = make_variant(_with_defaults(data), hooks)
    except (TypeError, ValueError) as e:  # pragma: no cover - the schema admits only the model's fields
        errors.append(root.error(f"cannot build the variant: {e}"))
        return out
    from .checks import build_errors, warnings

    errors.extend(build_errors(variant, root))
    if errors:
        return out
    try:
        variant.rules  # noqa: B018 - compile the engine's tables now, so a bad deck is reported here
    except (GoujiError, ValueError, KeyError, IndexError, TypeError) as e:
        errors.append(_locate(root, str(e)))
        return out
    out.variant = variant
    out.warnings = warnings(variant, root, hooks)
    return out


def _locate(root: Node, message: str) -> VariantFileError:
    for m in re.finditer(r"([a-z_]+)\.([a-z_]+)", message):
        section = root.get(m.group(1))
        if section is not None and section.kind == "map":
            k = section.key_node(m.group(2))
            if k is not None:
                return k.error(message)
    return root.error(message)


def raise_if_errors(result: Checked) -> Variant:
    """The Variant of a check, or VariantErrors with its errors: for callers that want the variant or an exception, not
    a report."""
    if result.errors or result.variant is None:
        raise VariantErrors(result.errors or [VariantFileError("invalid variant")])
    return result.variant
