"""``gouji explain``: a printable house-rules sheet, generated from a Variant and the field metadata.

Nothing here is written per rule: every line comes from the model (the section's
docstring, each field's Chinese or English description, its value in words from
:mod:`gouji_rules.dsl.choices`) and from ``hooks.HOOKS`` for the expression hooks.  A rule
that a hook decides is shown where the rule is, with the expression, and the parameters the
hook overrides are never printed as if they held (:mod:`gouji_rules.dsl.overrides`).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..game.cards import JOKERS, SYMBOLS, rank_of
from ..parts import options
from ..parts.hooks import HOOKS
from ..variant import SECTIONS, Variant
from .choices import Words, choice_words, field_choices
from .cite import cite
from .overrides import decided, partly, via_fields
from .words import HOOK_WORDS, in_words

RANK_ZH = {"T": "10", "SJ": "小王", "BJ": "大王", "Y": "鹰"}
RANK_EN = {"T": "10", "SJ": "small joker", "BJ": "big joker", "Y": "eagle (鹰)"}
DIGITS = "零一二三四五六七八九"
RANK_SYMBOLS = frozenset(SYMBOLS)


def zh_numeral(n: int) -> str:
    """1 -> 一, 10 -> 十, 11 -> 十一, 20 -> 二十, 99 -> 九十九 (section numbers of the sheet)."""
    if n < 10:
        return DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else DIGITS[tens]) + "十" + (DIGITS[ones] if ones else "")


def _rank(sym: str, lang: str) -> str:
    return (RANK_ZH if lang == "zh" else RANK_EN).get(sym, sym)


def render_value(
    value: Any,
    lang: str = "zh",
    ranks: bool = False,
    choices: Mapping[str, Words] | None = None,
    present: frozenset[str] | None = None,
) -> str:
    """A field's value in words: ranks named, codes as their words, lists joined, nothing as 无/none.

    ``present`` is the ranks the deck holds: a rank it lacks (鹰 in a deck without one) is left out
    of a rank list or map, since a sheet naming a card nobody can hold only confuses."""
    zh = lang == "zh"
    sep = "、" if zh else ", "

    def held(sym: Any) -> bool:
        return present is None or not isinstance(sym, str) or sym not in RANK_SYMBOLS or sym in present

    if value is None:
        return "不限" if zh else "none"
    if isinstance(value, bool):
        return ("是" if value else "否") if zh else ("yes" if value else "no")
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if held(k)}
        if not value:
            return "无" if zh else "none"
        parts = []
        for k, v in value.items():
            if isinstance(v, list):
                kept = [w for w in v if not (isinstance(w, list) and w and not held(w[0]))]
                ways = (" 或 " if zh else " or ").join(render_value(w, lang, True) for w in kept) or (
                    "无法" if zh else "impossible"
                )
                parts.append(f"{_rank(k, lang)}: {ways}")
            else:
                parts.append(f"{_rank(k, lang)}×{v}")
        return ("；" if zh else "; ").join(parts)
    if isinstance(value, list):
        if ranks:
            value = [v for v in value if held(v)]
        if not value:
            return "无" if zh else "none"
        if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], int) and ranks:
            return f"{_rank(value[0], lang)}×{value[1]}"
        return sep.join(render_value(v, lang, ranks, choices, present) for v in value)
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
    label = plain_label(str(field.metadata.get("zh" if zh else "en", field.name)))
    if not choices or not any(re.search(rf"\b{re.escape(c)}\b", label) for c in choices):
        return label
    head = _lead_in(label, "：" if zh else ": ")
    if head and not any(re.search(rf"\b{re.escape(c)}\b", head) for c in choices):
        return head
    short = field.metadata.get("label")
    if short is not None:
        return str(short[0] if zh else short[1])
    return label


def sentence(
    field: dataclasses.Field[Any],
    value: Any,
    lang: str,
    choices: Mapping[str, Words] | None = None,
    present: frozenset[str] | None = None,
) -> str:
    """One rule as a sentence."""
    zh = lang == "zh"
    label = label_for(field, lang, choices)
    if isinstance(value, bool):
        if zh:
            return f"{label}。" if value else f"不采用：{label}。"
        return f"Yes: {label}." if value else f"No: {label}."
    text = render_value(value, lang, _is_rank_field(value), choices, present)
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
    label = plain_label(str(field.metadata.get("zh" if zh else "en", field.name)))
    fn = variant.hooks.get(hook)
    if hook == "is_gouji" and field.name == "thresholds" and fn is not None:
        made = render_value(effective_thresholds(variant, fn), lang, True)
        if zh:
            return f"{label}：由表达式决定（见{see}），不挂不贴的牌按表达式为：{made}。"
        return f"{label}: decided by an expression (see {see}); for a set with nothing attached it gives: {made}."
    if read:
        names = " / ".join(
            n for n, f in HOOKS[hook].via.items() if any(x.endswith("." + field.name) for x in via_fields(f))
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
        o = HOOKS.get(name)
        section = o.section if o is not None else name.split(".")[0]
        if section in sections:
            out.setdefault(section, []).append((name, hook))
    return out


_CODE_TAIL = re.compile(r"\s*[；;]\s*(?:false|true|null)\b[^；;]*|\s*[（(]\s*(?:false|true|null)\b[^）)]*[）)]")
_STRATEGY_LEAD = re.compile(r"^(?:[a-z_]+ 方式下，|under [a-z_]+, )")
_LIST_SHAPE = re.compile(r"[：:]\s*(?:a list of )?\[[^\]]*\](?: 列表)?")
_PATH = re.compile(r"\b([a-z_]+)\.([a-z_]+)\b")


def plain_label(label: str) -> str:
    """A field's description with no codes left: no ``；false …`` / ``null …`` asides about how a file
    spells a value, no ``cover 方式下`` (the sheet shows only the current strategy's rules), no list shapes."""
    return _STRATEGY_LEAD.sub("", _LIST_SHAPE.sub("", _CODE_TAIL.sub("", label)))


_NULL_ASIDE = re.compile(r"[；;（(]\s*null\b[:：]?\s*([^；;）)]*)")


def null_words(field: dataclasses.Field[Any], key: str, lang: str, name_of: Mapping[str, str]) -> str | None:
    """What ``null`` means for ``field`` in words, from its description's own aside (``null 同 price``
    gives 同 and the item ``price`` is on the sheet); None when the description gives no meaning."""
    m = _NULL_ASIDE.search(str(field.metadata.get("zh" if lang == "zh" else "en", "")))
    if m is None or not m.group(1).strip():
        return None
    words = m.group(1).strip()
    fields = {f.name for f in dataclasses.fields(dict(SECTIONS)[key])}
    return re.sub(
        r"\s*\b([a-z_]+)\b",
        lambda w: name_of.get(f"{key}.{w.group(1)}", w.group(0)) if w.group(1) in fields else w.group(0),
        words,
    )


def plain_words(text: str, lang: str, refs: Mapping[str, str], present: frozenset[str] = RANK_SYMBOLS) -> str:
    """A line with each ``section.field`` named as the sheet's own item (``见三、第5条``), or left out
    when the sheet does not show it; an aside about 鹰 is left out when the deck has none."""

    def bracket(m: re.Match[str]) -> str:
        inner = m.group(2)
        if "Y" not in present and "鹰" in inner:
            return ""
        if re.fullmatch(r"\s*[A-Z][a-z]+[A-Z][A-Za-z]*\s*", inner):  # a class name, such as IllegalAction
            return ""
        if not _PATH.search(inner):
            return m.group(0)
        if _PATH.fullmatch(inner.strip()):
            ref = refs.get(inner.strip())
            return f"{m.group(1)}{'见' if lang == 'zh' else 'see '}{ref}{m.group(3)}" if ref else ""
        out = re.sub(r"\s*" + _PATH.pattern, lambda p: refs.get(p.group(0).strip(), ""), inner)
        out = re.sub(r"(见|see)\s*$", "", out.strip())
        return f"{m.group(1)}{out}{m.group(3)}" if out.strip(" ,，、") else ""

    text = re.sub(r"([（(])([^（）()]*)([）)])", bracket, text)
    item = "" if lang == "zh" else "item "
    spaced = re.compile(r"\s*" + _PATH.pattern + r"\s*" if lang == "zh" else _PATH.pattern)
    text = spaced.sub(lambda p: item + refs[p.group(0).strip()] if p.group(0).strip() in refs else p.group(0), text)
    return re.sub(r"\s+([。.，,；;:：])", r"\1", text)


def deck_ranks(variant: Variant) -> frozenset[str]:
    """The ranks the deck holds: a standard pack's 54 cards times ``packs``, less ``remove``, plus ``extra``."""
    d = variant.deck
    out = set()
    for sym in SYMBOLS:
        r = rank_of(sym)
        standard = 0 if sym == "Y" else (1 if r in JOKERS else 4)
        if d.packs * standard - d.remove.get(sym, 0) + d.extra.get(sym, 0) > 0:
            out.add(sym)
    return frozenset(out)


def shown_fields(variant: Variant, key: str) -> list[dataclasses.Field[Any]]:
    """The fields of section ``key`` that the sheet lists: ``sets`` fields only the current ``sets.beat``
    strategy reads (``sets.dead`` is a ``cover`` parameter, ``sets.kill`` a ``kill_table`` one)."""
    from ..rules.beat import unused_sets_fields

    cls = dict(SECTIONS)[key]
    fields = list(dataclasses.fields(cls))
    if key == "sets":
        unused = {name for name, _ in unused_sets_fields(variant.sets.beat)}
        fields = [f for f in fields if f.name not in unused]
    return fields


def is_off(variant: Variant, key: str) -> bool:
    """A section the variant switches off (``enabled: false``): the sheet prints it as one line."""
    return getattr(getattr(variant, key), "enabled", True) is False


def _tribute_places(value: Any, variant: Variant, lang: str) -> str | None:
    """``tribute.place`` ([paying place, receiving place, cards] triples) as 大落→头科 2张."""
    names = variant.places.names
    if not isinstance(value, list) or not all(isinstance(t, list) and len(t) == 3 for t in value):
        return None
    parts = []
    for pay, get, n in value:
        if not (1 <= pay <= len(names) and 1 <= get <= len(names)):
            return None
        parts.append(
            f"{names[pay - 1]}→{names[get - 1]} {n}张" if lang == "zh" else f"{names[pay - 1]} → {names[get - 1]}: {n}"
        )
    return ("；" if lang == "zh" else "; ").join(parts) or ("无" if lang == "zh" else "none")


def field_words(variant: Variant, key: str, name: str, value: Any, lang: str) -> str:
    """The value of ``key.name`` in words as the sheet prints it (codes as words, ranks the deck holds)."""
    if f"{key}.{name}" == "tribute.place":
        places = _tribute_places(value, variant, lang)
        if places is not None:
            return places
    cls = dict(SECTIONS)[key]
    fields = dataclasses.fields(cls)
    f = next(f for f in fields if f.name == name)
    if value is None:
        labels = {f"{key}.{g.name}": label_for(g, lang) for g in fields}
        meaning = null_words(f, key, lang, labels)
        if meaning is not None:
            return meaning
    choices = field_choices(f, typing.get_type_hints(cls)[name])
    return render_value(value, lang, _is_rank_field(value), choices, deck_ranks(variant))


def field_label(key: str, name: str, lang: str) -> str:
    """The label of ``key.name`` as the sheet prints it (no codes)."""
    cls = dict(SECTIONS)[key]
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    return label_for(f, lang, field_choices(f, typing.get_type_hints(cls)[name]))


@dataclasses.dataclass(frozen=True)
class Item:
    """One numbered rule of the sheet; ``changed``: it differs from the base variant."""

    number: int
    text: str
    changed: bool = False


@dataclasses.dataclass(frozen=True)
class Part:
    """One section of the sheet (一…十九); ``off``: switched off, printed as its heading alone."""

    number: int
    key: str
    heading: str
    off: bool
    changed: bool
    items: tuple[Item, ...]


@dataclasses.dataclass(frozen=True)
class Sheet:
    """The whole rule sheet, in one language, ready for text or HTML."""

    lang: str
    title: str
    source: str
    base: str | None
    parts: tuple[Part, ...]

    @property
    def legend(self) -> str:
        """What the ★ means, or "" when there is no base to compare with."""
        if self.base is None:
            return ""
        return f"★ 与 {self.base} 不同" if self.lang == "zh" else f"★ differs from {self.base}"


def extension_sentences(variant: Variant, section: str, lang: str) -> list[tuple[str, str]]:
    """The options of the extensions the variant switches on whose home is in ``section`` (the
    ``phases`` section for the phases), each as (its dotted path, a sentence of the sheet)."""
    zh = lang == "zh"
    out: list[tuple[str, str]] = []
    data = options.data(variant)
    for registry, home, _ in options.homes():
        if home != section:
            continue
        path = options.home_path(registry)
        for name, written in data.get(path, {}).items():
            if name not in registry or not options.switched_on(variant, registry, name):
                continue
            entry = registry[name]
            for o in options.declared(entry) or ():
                value = o.words(written.get(o.name, o.default), lang)
                what = entry.zh.split("：")[0] if zh else entry.en.split(":")[0]
                if zh:
                    text = f"{what}：{o.zh}：{value}" + (f"（{o.clause}）" if o.clause else "") + "。"
                else:
                    text = f"{what}: {o.en}: {value}" + (f" ({o.clause})" if o.clause else "") + "."
                out.append((f"{path}.{name}.{o.name}", text))
    return out


def added_phases(variant: Variant, lang: str) -> list[tuple[str, str]]:
    """The phases an installed extension adds that these rules play, each as (its name, a sentence of
    the sheet): a phase that declares no option of its own is still played, and the sheet says so."""
    from ..parts.registry import PHASES

    rules = variant.rules
    out = []
    for name in PHASES:
        phase = PHASES[name]
        if type(phase).__module__.startswith("gouji_rules.") or not phase.enabled(rules):
            continue
        if lang == "zh":
            out.append((name, f"另加的阶段：{phase.zh}。"))
        else:
            out.append((name, f"An added phase: {phase.en}."))
    return out


def _differs(variant: Variant, base: Variant | None, path: str) -> bool:
    if base is None:
        return False
    if any(path.startswith(options.home_path(r) + ".") for r, _, _ in options.homes()):
        home, name, option = path.rsplit(".", 2)

        def value(v: Variant) -> Any:
            return options.data(v).get(home, {}).get(name, {}).get(option)

        return bool(value(variant) != value(base))
    key, _, name = path.partition(".")
    if key == "hooks":
        a, b = variant.hooks.get(name), base.hooks.get(name)
        return (a is None) != (b is None) or (a is not None and _hook_source(a) != _hook_source(b))
    return bool(getattr(getattr(variant, key), name) != getattr(getattr(base, key), name))


def sheet(variant: Variant, lang: str = "zh", base: Variant | None = None) -> Sheet:
    """The rule sheet of ``variant``: every rule in words, switched-off sections as one line, and
    (with ``base``, the variant it extends) each rule that differs from the base marked."""
    zh = lang == "zh"
    overridden = decided(variant.hooks)
    in_part = partly(variant.hooks)
    by_section = _hooks_by_section(variant)
    present = deck_ranks(variant)
    numbered = list(enumerate(SECTIONS, 1))
    shown = {key: ([] if is_off(variant, key) else shown_fields(variant, key)) for key, _ in SECTIONS}
    where: dict[str, tuple[int, int]] = {}  # hook -> (section number, item number) where the sheet shows it
    refs: dict[str, str] = {}  # section.field -> its item on the sheet, in words
    for number, (key, _) in numbered:
        for j, f in enumerate(shown[key], 1):
            refs[f"{key}.{f.name}"] = f"{zh_numeral(number)}、第{j}条" if zh else f"{number}.{j}"
        for i, (name, _) in enumerate(by_section.get(key, []), 1):
            where[name] = (number, len(shown[key]) + i)

    def see(hook: str, here: int) -> str:
        sec, item = where.get(hook, (0, 0))
        if zh:
            return f"第{item}条" if sec == here else f"{zh_numeral(sec)}、第{item}条"
        return f"{item}" if sec == here else f"{sec}.{item}"

    parts: list[Part] = []
    for number, (key, cls) in numbered:
        doc_lines = [x.strip() for x in (cls.__doc__ or key).strip().splitlines() if x.strip()]
        doc = doc_lines[0] if zh or len(doc_lines) < 2 else doc_lines[1]
        section = getattr(variant, key)
        if is_off(variant, key):
            heading = doc.rstrip("。.")
            heading += "：不采用。" if zh else ": not played."
            parts.append(Part(number, key, heading, True, _differs(variant, base, f"{key}.enabled"), ()))
            continue
        hints = typing.get_type_hints(cls)
        items: list[Item] = []
        for j, f in enumerate(shown[key], 1):
            value = getattr(section, f.name)
            by = overridden.get(f"{key}.{f.name}")
            part = in_part.get(f"{key}.{f.name}")
            ranks = _is_rank_field(value)
            if part is not None:
                words = part[1][0] if zh else part[1][1]
                value_text = render_value(value, lang, ranks, present=present)
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
            elif f"{key}.{f.name}" == "tribute.place" and _tribute_places(value, variant, lang) is not None:
                label = label_for(f, lang)
                text = (
                    f"{label}：{_tribute_places(value, variant, lang)}。"
                    if zh
                    else f"{label}: {_tribute_places(value, variant, lang)}."
                )
            elif value is None and null_words(f, key, lang, refs) is not None:
                meaning = null_words(f, key, lang, {k: ("" if zh else " item ") + r for k, r in refs.items()})
                text = f"{label_for(f, lang)}：{meaning}。" if zh else f"{label_for(f, lang)}: {meaning}."
            else:
                text = sentence(f, value, lang, field_choices(f, hints[f.name]), present)
            items.append(Item(j, plain_words(text, lang, refs, present), _differs(variant, base, f"{key}.{f.name}")))
        for name, hook in by_section.get(key, []):
            items.append(
                Item(where[name][1], _hook_sentence(name, hook, lang), _differs(variant, base, f"hooks.{name}"))
            )
        for path, text in extension_sentences(variant, key, lang):
            items.append(Item(len(items) + 1, text, _differs(variant, base, path)))
        parts.append(Part(number, key, doc, False, any(i.changed for i in items), tuple(items)))
    number = len(SECTIONS)
    with_options = extension_sentences(variant, "phases", lang)
    phase_items = [Item(j, text, _differs(variant, base, path)) for j, (path, text) in enumerate(with_options, 1)]
    described = {path.split(".")[1] for path, _ in with_options}
    in_base = set() if base is None else {n for n, _ in added_phases(base, lang)}
    for name, text in added_phases(variant, lang):
        if name not in described:  # played, and new where the base does not play it
            phase_items.append(Item(len(phase_items) + 1, text, base is not None and name not in in_base))
    if phase_items:
        number += 1
        title = "另加的阶段及其选项" if zh else "Added match phases and their options"
        parts.append(Part(number, "phases", title, False, any(i.changed for i in phase_items), tuple(phase_items)))
    rest = sorted((n, h) for n, h in variant.hooks.items() if n not in where)
    if rest:
        number += 1
        title = "用表达式写的其他规则" if zh else "Other rules written as expressions"
        items = [
            Item(j, _hook_sentence(n, h, lang), _differs(variant, base, f"hooks.{n}"))
            for j, (n, h) in enumerate(rest, 1)
        ]
        parts.append(Part(number, "hooks", title, False, any(i.changed for i in items), tuple(items)))
    title = variant.title or variant.name
    if variant.title:
        title += f"（{variant.name}）" if zh else f" ({variant.name})"
    source = cite(variant.source) if zh and variant.source else variant.source
    return Sheet(lang, title, source, base.name if base is not None else None, tuple(parts))


def heading(part: Part, lang: str) -> str:
    """``十七、革命（大纲第二十一条）：不采用。`` / ``17. …``: a part's number and heading."""
    return f"{zh_numeral(part.number)}、{part.heading}" if lang == "zh" else f"{part.number}. {part.heading}"


def explain(variant: Variant, lang: str = "zh", base: Variant | None = None) -> str:
    """The whole sheet as text (Chinese by default, ``lang="en"`` for English); with ``base``, the rules
    that differ from it are marked ★ and a legend says so."""
    return text_of(sheet(variant, lang, base))


def text_of(s: Sheet) -> str:
    """A :class:`Sheet` as terminal text."""
    lang = s.lang
    zh = lang == "zh"
    lines = [s.title]
    if s.source:
        lines.append(("出处：" if zh else "Source: ") + s.source)
    if s.legend:
        lines.append(s.legend)
    lines.append("")
    for part in s.parts:
        mark = "★" if part.off and part.changed else ""
        lines.append(mark + heading(part, lang))
        for item in part.items:
            lines.append(f"{' ★' if item.changed else '  '}{item.number}. {item.text}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def extended(spec: str) -> Variant | None:
    """The variant that the file or shipped variant ``spec`` names in its ``extends:``, loaded; None
    when it extends nothing.  Raises VariantErrors as loading ``spec`` itself would."""
    from . import load_file, load_shipped
    from .merge import _find_parent, read_file, shipped_names, shipped_text
    from .yamlpos import parse

    if spec in shipped_names() and not Path(spec).exists():
        text, fname = shipped_text(spec)
        folder: Path | None = None
    elif Path(spec).is_file():
        text, fname = read_file(Path(spec))
        folder = Path(spec).resolve().parent
    else:  # a variant built in code: it extends nothing
        return None
    ext = parse(text, fname).get("extends")
    if ext is None or ext.kind != "scalar" or ext.is_null or not ext.value.strip():
        return None
    target = ext.value.strip()
    _find_parent(ext, target, folder)  # the same refusal as loading: no such file, a near miss
    if target in shipped_names() and "/" not in target and not target.endswith((".yaml", ".yml")):
        return load_shipped(target)
    return load_file((folder or Path.cwd()) / target)
