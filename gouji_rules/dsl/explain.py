"""``gouji explain``: a printable house-rules sheet, generated from a Variant and the field metadata.

Nothing here is written per rule: every line comes from the model (the
section's docstring, each field's Chinese or English description, its value)
and from ``rules.HOOKS`` for the expression hooks, so a new field appears on
the sheet the moment it is added to ``variant.py``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..rules import HOOKS
from ..variant import SECTIONS, Variant

RANK_ZH = {"T": "10", "SJ": "小王", "BJ": "大王", "Y": "鹰"}
RANK_EN = {"T": "10", "SJ": "small joker", "BJ": "big joker", "Y": "eagle (鹰)"}
NUMERALS = "一二三四五六七八九十"


def _rank(sym: str, lang: str) -> str:
    return (RANK_ZH if lang == "zh" else RANK_EN).get(sym, sym)


def render_value(value: Any, lang: str = "zh", ranks: bool = False) -> str:
    """A field's value in words: ranks named, lists joined, nothing as 无/none."""
    zh = lang == "zh"
    sep = "、" if zh else ", "
    if value is None:
        return "不限" if zh else "none"
    if isinstance(value, bool):
        return ("是" if value else "否") if zh else ("yes" if value else "no")
    if isinstance(value, dict):
        if not value:
            return "无" if zh else "none"
        parts = []
        for k, v in value.items():
            if isinstance(v, list):
                ways = (" 或 " if zh else " or ").join(render_value(w, lang, True) for w in v) or (
                    "无法" if zh else "impossible"
                )
                parts.append(f"{_rank(k, lang)}: {ways}")
            else:
                parts.append(f"{_rank(k, lang)}×{v}")
        return ("；" if zh else "; ").join(parts)
    if isinstance(value, list):
        if not value:
            return "无" if zh else "none"
        if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], int) and ranks:
            return f"{_rank(value[0], lang)}×{value[1]}"
        return sep.join(render_value(v, lang, ranks) for v in value)
    if isinstance(value, str):
        return _rank(value, lang) if ranks else value
    return str(value)


def _is_rank_field(value: Any) -> bool:
    from .schema import RANKS

    if isinstance(value, dict):
        return all(k in RANKS for k in value)
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, str) and v in RANKS for v in value)
    return False


def sentence(field: dataclasses.Field[Any], value: Any, lang: str) -> str:
    """One rule as a sentence."""
    zh = lang == "zh"
    label = str(field.metadata.get("zh" if zh else "en", field.name))
    if isinstance(value, bool):
        if zh:
            return f"{label}。" if value else f"不采用：{label}。"
        return f"Yes: {label}." if value else f"No: {label}."
    text = render_value(value, lang, _is_rank_field(value))
    return f"{label}：{text}。" if zh else f"{label}: {text}."


def explain(variant: Variant, lang: str = "zh") -> str:
    """The whole sheet as text (Chinese by default, ``lang="en"`` for English)."""
    zh = lang == "zh"
    lines = [variant.title or variant.name]
    if variant.title:
        lines[0] += f"（{variant.name}）" if zh else f" ({variant.name})"
    if variant.source:
        lines.append(("出处：" if zh else "Source: ") + variant.source)
    lines.append("")
    for i, (key, cls) in enumerate(SECTIONS):
        doc_lines = [x.strip() for x in (cls.__doc__ or key).strip().splitlines() if x.strip()]
        doc = doc_lines[0] if zh or len(doc_lines) < 2 else doc_lines[1]
        num = NUMERALS[i] if i < len(NUMERALS) else str(i + 1)
        lines.append(f"{num}、{doc}（{key}）" if zh else f"{i + 1}. {key}: {doc}")
        section = getattr(variant, key)
        for j, f in enumerate(dataclasses.fields(section), 1):
            lines.append(f"  {j}. {sentence(f, getattr(section, f.name), lang)}")
        lines.append("")
    if variant.hooks:
        lines.append("用表达式写的规则（hooks）" if zh else "Rules written as expressions (hooks)")
        for j, (name, hook) in enumerate(sorted(variant.hooks.items()), 1):
            spec = HOOKS.get(name)
            what = (spec.zh if zh else spec.en) if spec else name
            src = getattr(hook, "source", "(Python)")
            lines.append(f"  {j}. {what}（{name}）：{src}" if zh else f"  {j}. {what} ({name}): {src}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
