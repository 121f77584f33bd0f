"""``gouji explain``: a printable house-rules sheet, generated from a Variant and the field metadata.

Nothing here is written per rule: every line comes from the model (the section's
docstring, each field's Chinese or English description, its value in words from
:mod:`gouji_rules.dsl.choices`) and from ``rules.HOOKS`` for the expression hooks.  A rule
that a hook decides is shown where the rule is, with the expression, and the parameters the
hook overrides are never printed as if they held (:mod:`gouji_rules.dsl.overrides`).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping
from typing import Any

from ..cards import JOKERS, SYMBOLS, rank_of
from ..rules import HOOKS
from ..variant import SECTIONS, Variant
from .choices import Words, choice_words, field_choices
from .overrides import OVERRIDES, decided, partly, via_fields
from .words import HOOK_WORDS, in_words

RANK_ZH = {"T": "10", "SJ": "小王", "BJ": "大王", "Y": "鹰"}
RANK_EN = {"T": "10", "SJ": "small joker", "BJ": "big joker", "Y": "eagle (鹰)"}
DIGITS = "零一二三四五六七八九"


def zh_numeral(n: int) -> str:
    """1 -> 一, 10 -> 十, 11 -> 十一, 20 -> 二十, 99 -> 九十九 (section numbers of the sheet)."""
    if n < 10:
        return DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[ones] if ones else "")


def _rank(sym: str, lang: str) -> str:
    return (RANK_ZH if lang == "zh" else RANK_EN).get(sym, sym)


def render_value(value: Any, lang: str = "zh", ranks: bool = False, choices: Mapping[str, Words] | None = None) -> str:
    """A field's value in words: ranks named, codes as their words, lists joined, nothing as 无/none."""
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
        return sep.join(render_value(v, lang, ranks, choices) for v in value)
    if isinstance(value, str):
        if choices and value in choices:
            return choice_words(choices, value, lang)
        return _rank(value, lang) if ranks else value
    return str(value)


def _is_rank_field(value: Any) -> bool:
    from .schema import RANKS

    if isinstance(value, dict):
        return all(k in RANKS for k in value)
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, str) and v in RANKS for v in value)
    return False


def _lead_in(label: str, colon: str) -> str:
    """The text before the first ``colon`` outside brackets, or "" when there is none."""
    depth = 0
    for i, ch in enumerate(label):
        if ch in "（(":
            depth += 1
        elif ch in "）)":
            depth -= 1
        elif depth == 0 and label.startswith(colon, i):
            return label[:i]
    return ""


def label_for(field: dataclasses.Field[Any], lang: str, choices: Mapping[str, Words] | None = None) -> str:
    """A field's description as the label of its line; when it spells out the codes (``cover 大花盖小花；
    kill_table …``), only the lead-in before the colon, since the value itself is printed in words; a
    description with no lead-in to keep gives the field's own short ``metadata["label"]`` (zh, en)."""
    zh = lang == "zh"
    label = str(field.metadata.get("zh" if zh else "en", field.name))
    if not choices or not any(re.search(rf"\b{re.escape(c)}\b", label) for c in choices):
        return label
    head = _lead_in(label, "：" if zh else ": ")
    if head and not any(re.search(rf"\b{re.escape(c)}\b", head) for c in choices):
        return head
    short = field.metadata.get("label")
    if short is not None:
        return str(short[0] if zh else short[1])
    return label


def sentence(field: dataclasses.Field[Any], value: Any, lang: str, choices: Mapping[str, Words] | None = None) -> str:
    """One rule as a sentence."""
    zh = lang == "zh"
    label = label_for(field, lang, choices)
    if isinstance(value, bool):
        if zh:
            return f"{label}。" if value else f"不采用：{label}。"
        return f"Yes: {label}." if value else f"No: {label}."
    text = render_value(value, lang, _is_rank_field(value), choices)
    return f"{label}：{text}。" if zh else f"{label}: {text}."


def _hook_source(hook: Any) -> str:
    source = getattr(hook, "source", None)
    return (
        " ".join(str(source).split())
        if source is not None
        else f"(Python: {getattr(hook, '__qualname__', type(hook).__name__)})"
    )


def effective_thresholds(variant: Variant, hook: Any) -> dict[str, int]:
    """What an ``is_gouji`` expression makes of a plain set (no joker, no 2 attached): for each rank,
    the fewest cards that are 够级 (ranks for which no count up to ``COUNT_CAP`` is are left out)."""
    from .schema import COUNT_CAP

    out: dict[str, int] = {}
    for sym in SYMBOLS:
        r = rank_of(sym)
        if r in JOKERS:
            continue
        threshold = variant.gouji.thresholds.get(sym, 0)
        for count in range(1, COUNT_CAP + 1):
            ctx = {"rank": r, "count": count, "twos": 0, "sj": 0, "bj": 0, "top": 0, "size": count, "jokers": 0}
            if hook({**ctx, "threshold": threshold}):
                out[sym] = count
                break
    return out


def _decided_sentence(
    field: dataclasses.Field[Any], value: Any, lang: str, hook: str, read: bool, see: str, variant: Variant
) -> str:
    zh = lang == "zh"
    label = str(field.metadata.get("zh" if zh else "en", field.name))
    fn = variant.hooks.get(hook)
    if hook == "is_gouji" and field.name == "thresholds" and fn is not None:
        made = render_value(effective_thresholds(variant, fn), lang, True)
        if zh:
            return f"{label}：由表达式决定（见{see}），不挂不贴的牌按表达式为：{made}。"
        return f"{label}: decided by an expression (see {see}); for a set with nothing attached it gives: {made}."
    if read:
        names = " / ".join(
            n for n, f in OVERRIDES[hook].via.items() if any(x.endswith("." + field.name) for x in via_fields(f))
        )
        text = render_value(value, lang, _is_rank_field(value))
        if zh:
            return f"{label}：由表达式决定（见{see}）；此参数仍经由表达式中的 {names} 起作用：{text}。"
        return f"{label}: decided by an expression (see {see}); it still acts through the expression's {names}: {text}."
    if zh:
        return f"{label}：由表达式决定（见{see}），此参数不起作用。"
    return f"{label}: decided by an expression (see {see}); this parameter has no effect."


def _hook_sentence(name: str, hook: Any, lang: str) -> str:
    spec = HOOKS.get(name)
    what = (spec.zh if lang == "zh" else spec.en) if spec else name
    src = _hook_source(hook)
    if lang == "zh":
        text = f"按表达式：{what}（hooks.{name}）：{src}"
    else:
        text = f"By expression: {what} (hooks.{name}): {src}"
    source = getattr(hook, "source", None)
    if name in HOOK_WORDS and source is not None:
        words = in_words(str(source), HOOK_WORDS[name], lang)
        text += f"\n     即：{words}。" if lang == "zh" else f"\n     That is: {words}."
    return text


def _hooks_by_section(variant: Variant) -> dict[str, list[tuple[str, Any]]]:
    """The hooks each section shows after its fields (the section of the rule a hook decides)."""
    out: dict[str, list[tuple[str, Any]]] = {}
    sections = dict(SECTIONS)
    for name, hook in sorted(variant.hooks.items()):
        o = OVERRIDES.get(name)
        section = o.section if o is not None else name.split(".")[0]
        if section in sections:
            out.setdefault(section, []).append((name, hook))
    return out


def explain(variant: Variant, lang: str = "zh") -> str:
    """The whole sheet as text (Chinese by default, ``lang="en"`` for English)."""
    zh = lang == "zh"
    lines = [variant.title or variant.name]
    if variant.title:
        lines[0] += f"（{variant.name}）" if zh else f" ({variant.name})"
    if variant.source:
        lines.append(("出处：" if zh else "Source: ") + variant.source)
    lines.append("")
    overridden = decided(variant.hooks)
    in_part = partly(variant.hooks)
    by_section = _hooks_by_section(variant)
    where: dict[str, tuple[int, int]] = {}  # hook -> (section number, item number) where the sheet shows it
    for number, (key, cls) in enumerate(SECTIONS, 1):
        count = len(dataclasses.fields(cls))
        for i, (name, _) in enumerate(by_section.get(key, []), 1):
            where[name] = (number, count + i)

    def see(hook: str, here: int) -> str:
        sec, item = where.get(hook, (0, 0))
        if zh:
            return f"第{item}条" if sec == here else f"{zh_numeral(sec)}、第{item}条"
        return f"{item}" if sec == here else f"{sec}.{item}"

    for number, (key, cls) in enumerate(SECTIONS, 1):
        doc_lines = [x.strip() for x in (cls.__doc__ or key).strip().splitlines() if x.strip()]
        doc = doc_lines[0] if zh or len(doc_lines) < 2 else doc_lines[1]
        lines.append(f"{zh_numeral(number)}、{doc}（{key}）" if zh else f"{number}. {key}: {doc}")
        section = getattr(variant, key)
        hints = typing.get_type_hints(cls)
        for j, f in enumerate(dataclasses.fields(section), 1):
            value = getattr(section, f.name)
            by = overridden.get(f"{key}.{f.name}")
            part = in_part.get(f"{key}.{f.name}")
            if part is not None:
                words = part[1][0] if zh else part[1][1]
                value_text = render_value(value, lang, _is_rank_field(value))
                label = label_for(f, lang)
                ref = see(part[0], number)
                text = (
                    f"{label}：{value_text}（{words}，见{ref}）。"
                    if zh
                    else f"{label}: {value_text} ({words}; see {ref})."
                )
            elif by is not None:
                hook, read = by
                text = _decided_sentence(f, value, lang, hook, read, see(hook, number), variant)
            else:
                text = sentence(f, value, lang, field_choices(key, f, hints[f.name]))
            lines.append(f"  {j}. {text}")
        for name, hook in by_section.get(key, []):
            lines.append(f"  {where[name][1]}. {_hook_sentence(name, hook, lang)}")
        lines.append("")
    rest = sorted((n, h) for n, h in variant.hooks.items() if n not in where)
    if rest:
        number = len(SECTIONS) + 1
        title = "用表达式写的其他规则（hooks）" if zh else "Other rules written as expressions (hooks)"
        lines.append(f"{zh_numeral(number)}、{title}" if zh else f"{number}. {title}")
        for j, (n, h) in enumerate(rest, 1):
            lines.append(f"  {j}. {_hook_sentence(n, h, lang)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
