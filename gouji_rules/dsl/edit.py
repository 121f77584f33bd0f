"""Changing a variant file's text in place, so that what a club wrote by hand survives an edit.

``gouji edit`` shows every option as a control; what the club changes must end up in its own
file without the comments, the key order or the quoting of the rest being rewritten.  So the
file is never dumped again from data: each change is a splice at the positions
:mod:`.yamlpos` keeps (a value replaced where it stands, a new key added after the last key
of its section, a section added at the end, a key set back to the base's value taken out),
and the spliced text is loaded and checked like any other file before anyone writes it.

A control's value is text: the value as YAML would spell it in a flow (``4``, ``true``,
``cover``, ``["3", "4"]``), so a value the schema refuses reaches the validator as written
and gets its positioned message, the same as ``gouji validate`` gives.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from ..parts.hooks import HOOKS
from ..variant import SECTIONS, Variant
from .choices import field_choices
from .errors import VariantErrors
from .merge import load_chain
from .schema import schema as generated_schema
from .slips import loose_list
from .validate import Index, item_types, typed
from .yamlpos import Node, parse

HOOKS_KEY = "hooks"


@dataclass(frozen=True)
class Change:
    """One option set to ``text`` (YAML for its value), or taken out of the file (``remove``: it says
    what the base says; where it cannot be taken out, its value is set to ``text``)."""

    section: str
    key: str
    text: str = ""
    remove: bool = False


def control_kind(section: str, name: str) -> str:
    """How an option is edited: ``bool`` (yes/no), ``choice`` (one code of a list), ``int``, ``text``
    or ``yaml`` (a list or a map written as in the file: ``["3", "4"]``, ``{"T": 5}``)."""
    cls = dict(SECTIONS)[section]
    tp = typing.get_type_hints(cls)[name]
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    core = args[0] if type(None) in typing.get_args(tp) and len(args) == 1 else tp
    if core is bool:
        return "bool"
    if core is int:
        return "int"
    if typing.get_origin(core) in (list, dict):
        return "yaml"
    if field_choices(f, tp):
        return "choice"
    return "text"


def flow(value: Any) -> str:
    """A value as a control shows it: YAML's flow spelling (JSON is YAML), nothing as ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def options() -> list[tuple[str, str]]:
    """Every option a file may set, as (section, key), in the model's order (the rule sheet's)."""
    return [(key, f.name) for key, cls in SECTIONS for f in dataclasses.fields(cls)]


def values(text: str, filename: str, folder: Any, base: Variant, root: Any = None) -> dict[tuple[str, str], str]:
    """Each option's and hook's value as its control shows it: what the file (and its ``extends:``
    chain, confined to ``root``'s tree when given) says, else the base's.  Values the schema refuses
    are shown as written.  Raises :class:`VariantErrors` when the text is not YAML or its chain cannot be read."""
    chain = load_chain(text, filename, folder, root=root)
    index: Index = {}
    data = typed(chain.root, generated_schema(), (), index, [])
    data = data if isinstance(data, dict) else {}
    out: dict[tuple[str, str], str] = {}
    for section, key in options():
        given = data.get(section)
        if isinstance(given, dict) and key in given:
            out[(section, key)] = flow(given[key])
        else:
            out[(section, key)] = flow(getattr(getattr(base, section), key))
    hooks = data.get(HOOKS_KEY)
    for name in HOOKS:
        if isinstance(hooks, dict) and name in hooks and hooks[name] is not None:
            out[(HOOKS_KEY, name)] = str(hooks[name])
        else:
            source = getattr(base.hooks.get(name), "source", None)
            out[(HOOKS_KEY, name)] = "" if source is None else str(source)
    return out


def base_values(base: Variant) -> dict[tuple[str, str], str]:
    """The base variant's values as controls show them."""
    out = {(s, k): flow(getattr(getattr(base, s), k)) for s, k in options()}
    for name in HOOKS:
        source = getattr(base.hooks.get(name), "source", None)
        out[(HOOKS_KEY, name)] = "" if source is None else str(source)
    return out


def changes(
    wanted: Mapping[tuple[str, str], str],
    current: Mapping[tuple[str, str], str],
    base: Mapping[tuple[str, str], str],
    removable: bool,
) -> list[Change]:
    """What to do to the file so that it says ``wanted``: only the options whose value differs from
    ``current`` (what the file says now) change; one set back to the base's value is taken out of the
    file when the file extends that base (``removable``), so the file says only what differs."""
    out: list[Change] = []
    for (section, key), value in wanted.items():
        value = value.strip() if section != HOOKS_KEY else value.strip("\n")
        if (section, key) not in current or value == current[(section, key)].strip():
            continue
        kind = control_kind(section, key) if section != HOOKS_KEY else "hook"
        if kind == "yaml":
            value = as_list(section, key, value)
        gone = removable and value == base.get((section, key), "").strip()
        out.append(Change(section, key, scalar(value, kind), remove=gone or (kind == "hook" and not value.strip())))
    return out


def as_list(section: str, key: str, value: str) -> str:
    """A list typed as a Chinese input method writes it (``2、1、0、0、-1、-2``) as the YAML list
    the file stores (``[2, 1, 0, 0, -1, -2]``); any other text as typed."""
    sch = generated_schema().get("properties", {}).get(section, {}).get("properties", {}).get(key)
    items = loose_list(value, item_types(sch if isinstance(sch, dict) else None))
    return value if items is None else json.dumps(items, ensure_ascii=False)


_PLAIN_UNSAFE = re.compile(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: |\s#|[\n\r\t]|\s$")


def _plain_ok(text: str) -> bool:
    """``text`` reads back as itself, written plain (no quotes)."""
    if not text or _PLAIN_UNSAFE.search(text):
        return False
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    return isinstance(node, yaml.ScalarNode) and not node.style and node.value == text


def scalar(value: str, kind: str) -> str:
    """The YAML to write for a control's text: codes, numbers and flow collections as typed (so a
    mistake reaches the validator as written), other text quoted; empty is ``null``."""
    if kind == "hook":
        return value
    if value == "":
        return "null"
    if kind == "yaml" or (kind in ("int", "bool", "choice") and _plain_ok(value)):
        return value
    return json.dumps(value, ensure_ascii=False)


def _line_end(text: str, pos: int) -> int:
    """The offset just after the line break that ends the line holding ``pos`` (or the text's end)."""
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl + 1


def _is_flow(node: Node) -> bool:
    return node.src.text[node.start : node.start + 1] in ("{", "[")


def _hook_text(value: str, indent: int, in_flow: bool) -> str:
    lines = value.split("\n")
    if len(lines) == 1:
        if _plain_ok(value):
            return value
        return "'" + value.replace("'", "''") + "'"
    if in_flow:
        return json.dumps(value, ensure_ascii=False)
    pad = " " * indent
    return "|-\n" + "\n".join((pad + line) if line.strip() else "" for line in lines)


def _flow_text(change: Change) -> str:
    return _hook_text(change.text, 0, True) if change.section == HOOKS_KEY else change.text


def _entry_line(key: str, change: Change, indent: int) -> str:
    text = _hook_text(change.text, indent + 2, False) if change.section == HOOKS_KEY else change.text
    return f"{' ' * indent}{_key(key)}: {text}\n"


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else json.dumps(key)


def apply(text: str, edits: list[Change], filename: str = "<string>") -> str:
    """``text`` with ``edits`` made in place: comments, blank lines, key order and quoting of
    everything else kept.  Raises :class:`VariantErrors` when ``text`` is not a YAML mapping."""
    if not edits:
        return text
    root = parse(text, filename)
    if root.kind != "map":
        raise VariantErrors([root.error("a variant file is a mapping (extends:, name:, …)")])
    splices: list[tuple[int, int, str]] = []
    appended: dict[str, list[Change]] = {}
    by_section: dict[str, list[Change]] = {}
    for c in edits:
        by_section.setdefault(c.section, []).append(c)
    for section, group in by_section.items():
        pair = root.entries.get(section)
        if pair is None:
            appended[section] = [c for c in group if not c.remove]
            continue
        knode, sec = pair
        if sec.kind != "map":
            adds = [c for c in group if not c.remove]
            if adds and sec.kind == "scalar" and sec.is_null:
                indent = knode.column + 1
                lines = "".join(_entry_line(c.key, c, indent) for c in adds)
                splices.append((sec.start, _line_end(text, max(sec.end, knode.end) - 1), "\n" + lines))
            elif adds:
                raise VariantErrors([sec.error(f"{section} must be a mapping (key: value), not {sec.describe()}")])
            continue
        splices += _section_splices(text, knode, sec, group)
    tail = ""
    order = [k for k, _ in SECTIONS] + [HOOKS_KEY]
    for section in sorted(appended, key=order.index):
        adds = appended[section]
        if adds and _is_flow(root):  # a file written as one {…}: the new section goes inside it
            body = ", ".join(f"{_key(c.key)}: {_flow_text(c)}" for c in adds)
            splices.append((root.end - 1, root.end - 1, f", {section}: {{{body}}}"))
        elif adds:
            tail += f"{section}:\n" + "".join(_entry_line(c.key, c, 2) for c in adds)
    crlf = "\r\n" in text  # a file written on Windows keeps its line breaks, the new lines too
    out = text
    for start, end, new in sorted(splices, key=lambda s: (s[0], s[1]), reverse=True):
        out = out[:start] + (new.replace("\n", "\r\n") if crlf else new) + out[end:]
    if tail:
        if out and not out.endswith("\n"):
            out += "\n"
        out += tail.replace("\n", "\r\n") if crlf else tail
    return out


def _section_splices(text: str, knode: Node, sec: Node, group: list[Change]) -> list[tuple[int, int, str]]:
    flow_map = _is_flow(sec)
    splices: list[tuple[int, int, str]] = []
    removed = {c.key for c in group if c.remove and c.key in sec.entries}
    if flow_map:
        removed = set()
    adds = [c for c in group if not c.remove and c.key not in sec.entries]
    if not flow_map and removed and removed == set(sec.entries) and not adds:
        start = text.rfind("\n", 0, knode.start) + 1  # the whole section goes: nothing is left in it
        return [(start, _line_end(text, max(sec.end - 1, knode.end)), "")]
    for c in group:
        pair = sec.entries.get(c.key)
        if pair is None:
            continue
        k, v = pair
        if c.remove:
            start = text.rfind("\n", 0, k.start) + 1
            if not (flow_map or text[start : k.start].strip()):
                splices.append((start, _line_end(text, max(v.end - 1, k.end)), ""))
                continue
        if not c.remove or c.text:
            new = _hook_text(c.text, k.column + 1, flow_map) if c.section == HOOKS_KEY else c.text
            end = v.end
            if v.style in ("|", ">") or (v.kind != "scalar" and not _is_flow(v)):
                while end > v.start and text[end - 1] in " \n":  # a block ends at the next line: keep its breaks
                    end -= 1
            start = v.start
            if v.kind != "scalar" and not _is_flow(v):  # a block list or map becomes a flow one after its key
                start = text.index(":", k.end) + 1
                new = " " + new
            elif v.is_null and v.start == v.end:
                new = " " + new if text[v.start - 1 : v.start] == ":" else new
            splices.append((start, end, new))
    if adds:
        if flow_map:
            close = sec.end - 1
            sep = ", " if sec.entries else ""
            body = ", ".join(f"{_key(c.key)}: {_flow_text(c)}" for c in adds)
            splices.append((close, close, sep + body))
        else:
            last_k, last_v = list(sec.entries.values())[-1]
            indent = next(iter(sec.entries.values()))[0].column - 1
            pos = max(last_v.end, last_k.end)
            at = pos if text[pos - 1 : pos] == "\n" else _line_end(text, pos)
            lines = "".join(_entry_line(c.key, c, indent) for c in adds)
            if at == len(text) and not text.endswith("\n"):
                lines = "\n" + lines
            splices.append((at, at, lines))
    return splices


def clauses(text: str, filename: str = "<string>") -> dict[tuple[str, str], str]:
    """The comment after each option of a variant file, keyed (section, key): in the shipped files
    that comment cites the clause of the rule text the value comes from (``S4 第五条: …``)."""
    try:
        root = parse(text, filename)
    except VariantErrors:
        return {}
    out: dict[tuple[str, str], str] = {}
    for section, (_, sec) in root.entries.items():
        if sec.kind != "map":
            continue
        for key, (k, v) in sec.entries.items():
            line = text[v.end : _line_end(text, max(v.end - 1, k.end))]
            if v.kind == "scalar" and v.style in ("|", ">"):
                continue
            hash_at = line.find("#")
            if hash_at >= 0 and not line[:hash_at].strip():
                out[(section, key)] = line[hash_at + 1 :].strip()
    return out


def spans(text: str, filename: str = "<string>") -> dict[tuple[str, str], tuple[int, int]]:
    """The first and last line of each option written in ``text`` (to show an error beside its control)."""
    try:
        root = parse(text, filename)
    except VariantErrors:
        return {}
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for section, (_, sec) in root.entries.items():
        if sec.kind != "map":
            continue
        for key, (k, v) in sec.entries.items():
            last = v.src.position(max(v.end - 1, v.start))[0]
            out[(section, key)] = (k.line, max(k.line, last))
    return out


__all__ = ["Change", "apply", "changes", "clauses", "control_kind", "flow", "options", "scalar", "spans", "values"]


def title_of(text: str, filename: str = "<string>") -> str:
    """The file's own ``title:`` (the rule sheet's heading), or ``""``; ``""`` too when ``text`` is not YAML."""
    try:
        root = parse(text, filename)
    except VariantErrors:
        return ""
    node = root.get("title") if root.kind == "map" else None
    return "" if node is None or node.kind != "scalar" or node.is_null else str(node.value)


def set_title(text: str, title: str, filename: str = "<string>") -> str:
    """``text`` with its ``title:`` set to ``title`` in place (comments kept), added after ``extends:``
    when the file has none, taken out when ``title`` is empty.  Raises :class:`VariantErrors` when
    ``text`` is not a YAML mapping of lines (a file written as one ``{…}`` gets the title inside it)."""
    title = " ".join(title.split())
    root = parse(text, filename)
    if root.kind != "map":
        raise VariantErrors([root.error("a variant file is a mapping (extends:, name:, …)")])
    value = title if _plain_ok(title) and not re.fullmatch(r"[-+0-9.]+|true|false|null|~", title) else None
    written = value if value is not None else json.dumps(title, ensure_ascii=False)
    pair = root.entries.get("title")
    crlf = "\r\n" in text
    if pair is not None:
        knode, node = pair
        if not title:
            start = text.rfind("\n", 0, knode.start) + 1
            if _is_flow(root) or text[start : knode.start].strip():
                return text[: node.start] + '""' + text[node.end :] if node.end > node.start else text
            return text[:start] + text[_line_end(text, max(node.end, knode.end) - 1) :]
        if node.end > node.start:
            return text[: node.start] + written + text[node.end :]
        return text[: knode.end] + ": " + written + text[_line_end(text, knode.end) - (2 if crlf else 1) :]
    if not title:
        return text
    if _is_flow(root):
        return text[: root.start + 1] + f"title: {written}, " + text[root.start + 1 :]
    line = f"title: {written}" + ("\r\n" if crlf else "\n")
    ext = root.entries.get("extends")
    at = _line_end(text, max(ext[0].end, ext[1].end) - 1) if ext is not None else 0
    if at == len(text) and text and not text.endswith("\n"):
        line = ("\r\n" if crlf else "\n") + line
    return text[:at] + line + text[at:]
