"""``gouji diff``: two variants rule by rule, side by side, only what differs.

In Chinese (the default) a rule is named by its section's number and its words, and a value is
printed as the rule sheet prints it (codes as words); ``--lang en`` keeps the keys
(``burn.teammate``) for whoever writes the file.

Columns are aligned by display width (Chinese characters take two columns).
``name``, ``title`` and ``source`` are not rules and are not compared.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..parts import options
from ..parts.hooks import HOOKS
from ..variant import SECTIONS, Variant
from .errors import display_width
from .explain import _is_rank_field, deck_ranks, field_label, field_words, plain_words, render_value, zh_numeral


@dataclasses.dataclass(frozen=True)
class Difference:
    """One rule two variants set differently: its path, its words in both languages and both values, so ``gouji diff``
    and the editor say what changed in the club's terms."""

    path: str
    label_zh: str
    label_en: str
    a: Any
    b: Any


def _hook_text(variant: Variant, name: str) -> str | None:
    hook = variant.hooks.get(name)
    if hook is None:
        return None
    return str(getattr(hook, "source", "(Python)"))


def differences(a: Variant, b: Variant) -> list[Difference]:
    """Every rule whose value differs, in the order of the model."""
    out: list[Difference] = []
    for key, cls in SECTIONS:
        sa, sb = getattr(a, key), getattr(b, key)
        for f in dataclasses.fields(cls):
            va, vb = getattr(sa, f.name), getattr(sb, f.name)
            if va != vb:
                out.append(
                    Difference(f"{key}.{f.name}", str(f.metadata.get("zh", "")), str(f.metadata.get("en", "")), va, vb)
                )
    out += _extension_differences(a, b)
    for name in sorted(set(a.hooks) | set(b.hooks)):
        ha, hb = _hook_text(a, name), _hook_text(b, name)
        if ha != hb:
            out.append(Difference(f"hooks.{name}", "表达式", "expression", ha, hb))
    return out


def _extension_differences(a: Variant, b: Variant) -> list[Difference]:
    """The options of registered extensions that differ (:mod:`gouji_rules.parts.options`): one switched on
    in only one of the two shows its options against nothing (None)."""
    out: list[Difference] = []
    da, db = options.data(a), options.data(b)
    for registry, _, _ in options.homes():
        home = options.home_path(registry)
        ea, eb = da.get(home, {}), db.get(home, {})
        for name in [*ea, *(n for n in eb if n not in ea)]:
            entry = registry.get(name)
            declared = {o.name: o for o in (options.declared(entry) or ())} if entry is not None else {}
            oa, ob = ea.get(name, {}), eb.get(name, {})
            for key in [*oa, *(k for k in ob if k not in oa)]:
                va, vb = oa.get(key), ob.get(key)
                if va != vb:
                    o = declared.get(key)
                    zh, en = (o.zh, o.en) if o is not None else (key, key)
                    out.append(Difference(f"{home}.{name}.{key}", zh, en, va, vb))
    return out


def _is_extension(path: str) -> bool:
    return any(path.startswith(options.home_path(r) + ".") for r, _, _ in options.homes())


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` display columns."""
    return text + " " * max(0, width - display_width(text))


def _cell(value: Any, lang: str) -> str:
    if value is None and lang == "zh":
        return "（无）"
    return render_value(value, lang, _is_rank_field(value))


def _zh_label(d: Difference) -> str:
    """The rule in Chinese words, after its section's number (``八、可以烧队友``): no keys."""
    key, _, name = d.path.partition(".")
    if key == "hooks":
        spec = HOOKS.get(name)
        return f"表达式：{spec.zh if spec else name}"
    if _is_extension(d.path):
        keys = [k for k, _ in SECTIONS]
        return f"{zh_numeral(keys.index(key) + 1)}、{d.label_zh}" if key in keys else d.label_zh
    number = [k for k, _ in SECTIONS].index(key) + 1
    return f"{zh_numeral(number)}、{field_label(key, name, 'zh')}"


def _zh_cell(d: Difference, variant: Variant, value: Any) -> str:
    key, _, name = d.path.partition(".")
    if key == "hooks":
        return "（无）" if value is None else " ".join(str(value).split())
    if _is_extension(d.path):
        return _cell(value, "zh")
    return plain_words(field_words(variant, key, name, value, "zh"), "zh", {}, deck_ranks(variant))


def diff_rows(a: Variant, b: Variant, lang: str = "zh", max_label: int = 30) -> list[tuple[str, str, str]]:
    """The table of :func:`format_diff` as rows (a heading first), for a page to lay out; only the heading
    when nothing differs."""
    zh = lang == "zh"
    head = ("规则", a.name, b.name) if zh else ("rule", a.name, b.name)
    table: list[tuple[str, str, str]] = [head]
    for d in differences(a, b):
        label = _zh_label(d) if zh else d.label_en
        if display_width(label) > max_label:
            cut = ""
            for ch in label:
                if display_width(cut + ch + "…") > max_label:
                    break
                cut += ch
            label = cut + "…"
        if zh:
            table.append((label, _zh_cell(d, a, d.a), _zh_cell(d, b, d.b)))
        else:
            table.append((f"{d.path} {label}".rstrip(), _cell(d.a, lang), _cell(d.b, lang)))
    return table


def format_diff(a: Variant, b: Variant, lang: str = "zh", max_label: int = 30) -> str:
    """The side-by-side table; a line saying so when nothing differs."""
    table = diff_rows(a, b, lang, max_label)
    if len(table) == 1:
        return ("两个规则没有不同。" if lang == "zh" else "The two variants have the same rules.") + "\n"
    w0 = max(display_width(r[0]) for r in table)
    w1 = max(display_width(r[1]) for r in table)
    lines = [f"{pad(r[0], w0)}  {pad(r[1], w1)}  {r[2]}".rstrip() for r in table]
    lines.insert(1, "-" * w0 + "  " + "-" * w1 + "  " + "-" * max(display_width(r[2]) for r in table))
    return "\n".join(lines) + "\n"
