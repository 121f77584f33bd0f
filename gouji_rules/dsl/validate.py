"""From a merged YAML tree to a Variant: schema check with positions, hooks, whole-rule checks.

Scalars arrive as text (see :mod:`yamlpos`) and are converted here by the
type the schema asks for: only ``true``/``false`` are booleans, only plain
decimal numbers are integers, and everything a string field receives stays a
string.  Every problem is collected (not just the first) and raised together
as :class:`VariantErrors`; warnings about rules that contradict each other or
can never take effect are returned with the Variant.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import GoujiError
from ..rules import HOOKS
from ..variant import SECTIONS, Variant, make_variant
from .errors import VariantErrors, VariantFileError, did_you_mean
from .expr import CompiledHook, ExprError, compile_hook
from .merge import Chain
from .schema import schema
from .yamlpos import Node, Source

INT_RE = re.compile(r"[+-]?(0|[1-9][0-9]*)\Z")
YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n", "true", "false"}
_BAD = object()


@dataclass
class Checked:
    """The outcome of checking one file: the Variant (if valid), errors, warnings, the chain's files."""

    variant: Variant | None
    errors: list[VariantFileError] = field(default_factory=list)
    warnings: list[VariantFileError] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


# -- scalar conversion by schema ---------------------------------------------------------------


def _types(sch: dict[str, Any]) -> list[str]:
    t = sch.get("type")
    if isinstance(t, list):
        return [str(x) for x in t]
    return [str(t)] if t else []


def convert(node: Node, sch: dict[str, Any], path: str, errors: list[VariantFileError]) -> Any:
    types = _types(sch)
    if not types:  # a field type the schema generator does not know: keep the plain data
        return _plain(node)
    if node.is_null and "null" in types:
        return None
    main = next((t for t in types if t != "null"), "null")
    if main == "object":
        return _object(node, sch, path, errors)
    if main == "array":
        return _array(node, sch, path, errors)
    if node.kind != "scalar":
        errors.append(node.error(f"{path} must be {_expect(main, sch)}, not {node.describe()}"))
        return _BAD
    if node.is_null:
        what = "missing value" if node.value == "" else "null is not allowed here"
        errors.append(node.error(f"{path}: {what}; expected {_expect(main, sch)}"))
        return _BAD
    if main == "integer":
        return _integer(node, sch, path, errors)
    if main == "boolean":
        return _boolean(node, path, errors)
    return _string(node, sch, path, errors)


def _expect(main: str, sch: dict[str, Any]) -> str:
    if "enum" in sch:
        return "one of " + ", ".join(str(x) for x in sch["enum"] if x != "10")
    return {
        "integer": "a whole number",
        "boolean": "true or false",
        "string": "text",
        "object": "a mapping",
        "array": "a list",
    }.get(main, main)


def _plain(node: Node) -> Any:
    if node.kind == "map":
        return {k: _plain(v) for k, (_, v) in node.entries.items()}
    if node.kind == "seq":
        return [_plain(x) for x in node.items]
    if node.style is None and INT_RE.match(node.value):
        return int(node.value)
    return node.value


def _integer(node: Node, sch: dict[str, Any], path: str, errors: list[VariantFileError]) -> Any:
    v = node.value
    if node.style is not None:
        errors.append(node.error(f"{path} must be a whole number, not the text {v!r}", "remove the quotes"))
        return _BAD
    if not INT_RE.match(v):
        hint = ""
        if re.fullmatch(r"[+-]?0[0-7_]+", v):
            hint = f"YAML 1.1 would read {v} as an octal number; write it without the leading 0"
        elif re.fullmatch(r"[+-]?[0-9]+(:[0-5]?[0-9])+", v):
            hint = f"YAML 1.1 would read {v} as a base-60 number"
        elif v.lower() in YAML11_BOOLS:
            hint = "write a number"
        elif re.fullmatch(r"[+-]?[0-9._eE+-]+|0[xob][0-9a-fA-F_]+", v):
            hint = "write a plain decimal whole number such as 2"
        errors.append(node.error(f"{path} must be a whole number, not {v!r}", hint))
        return _BAD
    n = int(v)
    if "minimum" in sch and n < sch["minimum"]:
        errors.append(node.error(f"{path} must be at least {sch['minimum']}, not {n}"))
        return _BAD
    if "maximum" in sch and n > sch["maximum"]:
        errors.append(node.error(f"{path} must be at most {sch['maximum']}, not {n}"))
        return _BAD
    return n


def _boolean(node: Node, path: str, errors: list[VariantFileError]) -> Any:
    if node.style is None and node.value in ("true", "false"):
        return node.value == "true"
    hint = ""
    if node.style is not None:
        hint = "remove the quotes"
    elif node.value.lower() in YAML11_BOOLS:
        hint = f"only true and false are booleans here (YAML 1.1 would read {node.value!r} as one)"
    errors.append(node.error(f"{path} must be true or false, not {node.value!r}", hint))
    return _BAD


def _string(node: Node, sch: dict[str, Any], path: str, errors: list[VariantFileError]) -> Any:
    v = node.value
    enum = sch.get("enum")
    if enum is not None:
        if v == "10" and "T" in enum:
            return "T"
        if v not in enum:
            upper = {str(e).upper(): e for e in enum}
            hint = ""
            if v.upper() in upper:
                hint = f"did you mean {upper[v.upper()]!r}?"
            else:
                hint = did_you_mean(v, [str(e) for e in enum])
            errors.append(node.error(f"{path}: {v!r} is not one of {', '.join(str(e) for e in enum)}", hint))
            return _BAD
        return v
    pattern = sch.get("pattern")
    if pattern and not re.match(pattern, v):
        errors.append(node.error(f"{path}: {v!r} may use only letters, digits, '_', '-' and '.'"))
        return _BAD
    return v


def _object(node: Node, sch: dict[str, Any], path: str, errors: list[VariantFileError]) -> Any:
    if node.kind != "map":
        errors.append(node.error(f"{path or 'the file'} must be a mapping (key: value), not {node.describe()}"))
        return _BAD
    props: dict[str, Any] = sch.get("properties", {})
    out: dict[str, Any] = {}
    for key, (knode, vnode) in node.entries.items():
        name = key
        if name == "10" and "T" in props:
            name = "T"
            if "T" in node.entries:
                errors.append(knode.error(f"{_join(path, key)}: '10' and 'T' are the same rank, given twice"))
                continue
        sub = props.get(name)
        where = _join(path, key)
        if sub is None:
            what = f"unknown hook {key!r}" if path == "hooks" else f"unknown key {where!r}"
            errors.append(knode.error(what, _key_hint(key, props, path)))
            continue
        value = convert(vnode, sub, _join(path, name), errors)
        if value is not _BAD:
            out[name] = value
    return out


def _key_hint(key: str, props: dict[str, Any], path: str) -> str:
    hint = did_you_mean(key, props)
    if hint:
        return hint
    top: dict[str, Any] = schema()["properties"]
    for section, sub in top.items():
        if isinstance(sub, dict) and key in sub.get("properties", {}) and section != path:
            return f"{key} belongs in {section}: ({section}.{key})"
    if not path and key in HOOKS:
        return f"hooks go under hooks: (hooks.{key})"
    if props and len(props) <= 20:
        return "expected one of: " + ", ".join(props)
    return ""


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _array(node: Node, sch: dict[str, Any], path: str, errors: list[VariantFileError]) -> Any:
    if node.kind != "seq":
        hint = "write a list: [a, b] or one '- item' per line" if node.kind == "scalar" else ""
        errors.append(node.error(f"{path} must be a list, not {node.describe()}", hint))
        return _BAD
    n = len(node.items)
    if ("minItems" in sch and n < sch["minItems"]) or ("maxItems" in sch and n > sch["maxItems"]):
        lo, hi = sch.get("minItems", 0), sch.get("maxItems")
        want = f"exactly {lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
        errors.append(node.error(f"{path} must have {want} items, not {n}"))
        return _BAD
    out = []
    prefix: list[dict[str, Any]] = sch.get("prefixItems", [])
    items = sch.get("items", {})
    bad = False
    for i, item in enumerate(node.items):
        sub = prefix[i] if i < len(prefix) else items
        value = convert(item, sub if isinstance(sub, dict) else {}, f"{path}[{i}]", errors)
        bad = bad or value is _BAD
        out.append(value)
    return _BAD if bad else out


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
    out: dict[str, CompiledHook] = {}
    if hooks_node is None or hooks_node.kind != "map":
        return out
    for name, (_knode, vnode) in hooks_node.entries.items():
        spec = HOOKS.get(name)
        if spec is None or vnode.kind != "scalar" or vnode.is_null:
            continue  # reported by the schema pass
        try:
            out[name] = compile_hook(name, vnode.value, spec)
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


def check_chain(chain: Chain, default_name: str) -> Checked:
    """Validate and compile a merged tree; never raises for a user error (errors are in the result)."""
    out = _check_chain(chain, default_name)
    out.errors.sort(key=VariantFileError.sort_key)
    out.warnings.sort(key=VariantFileError.sort_key)
    return out


def _check_chain(chain: Chain, default_name: str) -> Checked:
    errors: list[VariantFileError] = []
    root = chain.root
    data = convert(root, schema(), "", errors)
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
    if result.errors or result.variant is None:
        raise VariantErrors(result.errors or [VariantFileError("invalid variant")])
    return result.variant
