"""The comparison as text (a table aligned by display width) and as CSV, both drawn from the document.

Chinese labels take two terminal columns per character, so padding by ``len``
would misalign every column after them; :func:`width` counts East Asian wide and
full-width characters as two (``unicodedata.east_asian_width``) and combining
marks as zero.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from typing import IO, Any

from ..outputs import spreadsheet_cell
from ..play.blunders import BLUNDER_ZH

MAX_COLUMNS = 100  # the text report fits a 100-column terminal, whatever the number of variants
CLEAR_NOTE = "≈0: the 95% interval contains 0, no clear difference"
SCALE_MARK = "比例"
DEPENDS_MARK = "打法"
DEPENDS_NOTE = (
    "depends on how people play: clear for one agent only, or in opposite directions, so not counted as a "
    "finding (取决于打法)"
)
DRAWN = "drawn clubs"
"""How a trained-over list names the club files drawn from ranges (``trained_over.clubs``)."""
SCALE_NOTE = (
    "clear only in raw points: in units of each variant's own 头科 score there is no clear difference, "
    "so it is a change of scoring scale, not a finding"
)


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal.

    >>> width("abc"), width("头科"), width("每局决策数 x")
    (3, 4, 12)
    """
    w = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def pad(text: str, cols: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``cols`` display columns (on the left when ``right``)."""
    fill = " " * max(0, cols - width(text))
    return fill + text if right else text + fill


def table(rows: Sequence[Sequence[str]], right: Sequence[bool] = (), indent: str = "  ", gap: str = "  ") -> list[str]:
    """Rows of cells as aligned lines; the first row is the header, underlined."""
    if not rows:
        return []
    ncol = max(len(r) for r in rows)
    cells = [list(r) + [""] * (ncol - len(r)) for r in rows]
    widths = [max(width(r[c]) for r in cells) for c in range(ncol)]
    align = list(right) + [False] * (ncol - len(right))
    lines = []
    for i, r in enumerate(cells):
        lines.append(indent + gap.join(pad(x, widths[c], align[c]) for c, x in enumerate(r)).rstrip())
        if i == 0:
            lines.append(indent + gap.join("─" * w for w in widths))
    return lines


def fit_table(
    rows: Sequence[Sequence[str]], keep: int, right: Sequence[bool] = (), limit: int = MAX_COLUMNS
) -> list[str]:
    """A table cut into as many tables as it takes to fit ``limit`` columns.

    The first ``keep`` columns label the rows and are repeated in every part;
    the other columns are taken in order, as many as fit.
    """
    if not rows:
        return []
    ncol = max(len(r) for r in rows)
    cells = [list(r) + [""] * (ncol - len(r)) for r in rows]
    align = list(right) + [False] * (ncol - len(right))
    widths = [max(width(r[c]) for r in cells) for c in range(ncol)]
    base = 2 + sum(widths[:keep]) + 2 * keep
    parts: list[list[int]] = [[]]
    used = base
    for c in range(keep, ncol):
        if parts[-1] and used + widths[c] > limit:
            parts.append([])
            used = base
        parts[-1].append(c)
        used += widths[c] + 2
    out: list[str] = []
    for i, part in enumerate(parts):
        cols = list(range(keep)) + part
        if i:
            out.append("")
        out += table([[r[c] for c in cols] for r in cells], [align[c] for c in cols])
    return out


def wrap(text: str, cols: int = MAX_COLUMNS, indent: str = "") -> list[str]:
    """``text`` broken into lines of at most ``cols`` display columns (CJK counts two; breaks at spaces or CJK)."""
    lines: list[str] = []
    line = indent
    for word in _words(text):
        if width(line + word) > cols and line.strip():
            lines.append(line.rstrip())
            line = indent + word.lstrip()
        else:
            line += word
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _words(text: str) -> list[str]:
    """Break points: before a space, and between two wide (CJK) characters."""
    out: list[str] = []
    cur = ""
    for ch in text:
        wide = unicodedata.east_asian_width(ch) in ("W", "F")
        if cur and (ch == " " or (wide and width(cur[-1]) == 2)):
            out.append(cur)
            cur = ""
        cur += ch
    if cur:
        out.append(cur)
    return out


def _phrase(m: dict[str, Any], a: float, b: float, d: float, unit: str = "") -> str:
    """One change in plain Chinese: ``指标从 a 变为 b（多 d）`` (rates in percentage points)."""
    more = "多" if d > 0 else "少"
    if m["kind"] == "rate":
        return f"{m['zh']}从 {100 * a:.1f}% 变为 {100 * b:.1f}%（{more} {abs(100 * d):.1f} 个百分点）"
    return f"{m['zh']}{unit}从 {a:.2f} 变为 {b:.2f}（{more} {abs(d):.2f}）"


def _clear_changes(doc: dict[str, Any], diff: dict[str, Any]) -> list[tuple[float, str]]:
    """The findings of one variant against the baseline, largest relative change first, as Chinese
    phrases: clear differences, points metrics in 头科 units when the two variants' units differ,
    changes of scale left out (``findings`` in the document)."""
    base = _result(doc, diff["baseline"])
    mine = _result(doc, diff["variant"])
    rescaled = bool(diff["scale"]["ratio"] not in (None, 1))
    metrics = {m["id"]: m for m in doc["metrics"]}
    out = []
    for mid in diff["findings"]:
        m = metrics[mid]
        if m.get("points") and rescaled and mid in diff["in_units"] and "in_units" in base and "in_units" in mine:
            a, b = base["in_units"][mid]["mean"], mine["in_units"][mid]["mean"]
            d = diff["in_units"][mid]["mean"]
            phrase = _phrase(m, a, b, d, "（按各自的头科分折算）")
        else:
            a, b = base["metrics"][mid]["mean"], mine["metrics"][mid]["mean"]
            d = diff["metrics"][mid]["mean"]
            phrase = _phrase(m, a, b, d)
        out.append((abs(d) / max(abs(a), abs(b), 1e-9), phrase))
    out.sort(key=lambda x: -x[0])
    return out


def _identical(doc: dict[str, Any], diff: dict[str, Any]) -> bool:
    """Every metric the same on every deal (points metrics in 头科 units when the units differ)."""
    rescaled = diff["scale"]["ratio"] not in (None, 1)
    for m in doc["metrics"]:
        e = diff["in_units"].get(m["id"]) if m.get("points") and rescaled else diff["metrics"][m["id"]]
        if e is None or e["mean"] != 0 or e["low"] not in (0, None) or e["high"] not in (0, None):
            return False
    return True


def _result(doc: dict[str, Any], label: str) -> dict[str, Any]:
    return next(r for r in doc["results"] if r["variant"] == label)


def _num(x: float) -> str:
    """A short number for prose: three significant digits, − for minus."""
    text = f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"
    return text.replace("-", "−")


def _points_text(points: Sequence[int]) -> str:
    return "、".join(str(p).replace("-", "−") for p in points)


def scale_zh(doc: dict[str, Any], diff: dict[str, Any], variants: dict[str, Any]) -> str:
    """The one statement about a change of scoring scale between a variant and the baseline ("" when none)."""
    scale = diff["scale"]
    if scale["ratio"] in (None, 1) and not scale["only_scale"]:
        return ""
    name, base = diff["variant"], diff["baseline"]
    vb, vn = variants[base], variants[name]
    unit_b, unit_n = vb["score_unit"], vn["score_unit"]
    metrics = {m["id"]: m["zh"] for m in doc["metrics"]}
    pts = {r["path"]: r["values"] for r in doc["rule_differences"]}.get("scoring.points")
    labels = [v["label"] for v in doc["variants"]]
    if scale["proportional"]:
        ratio = Fraction(unit_n, unit_b)
        text = (
            f"计分比例：{name} 的各名次得分是 {base} 的 {ratio.numerator}/{ratio.denominator}"
            if ratio.denominator != 1
            else f"计分比例：{name} 的各名次得分是 {base} 的 {ratio.numerator} 倍"
        )
        if pts is not None:
            text += f"（{_points_text(pts[labels.index(name)])} 对 {_points_text(pts[0])}）"
    else:
        text = f"计分单位：{name} 的头科得 {unit_n} 分，{base} 的得 {unit_b} 分"
    text += f"，所以分数另按各自的{vb['score_unit_zh'] or '头科'}分折算（{name} 的 1 分相当于 {base} 的 {_num(unit_b / unit_n)} 分）"
    if scale["only_scale"]:
        named = "、".join(metrics[m] for m in scale["only_scale"])
        text += f"。折算后{named}没有明显差别：它们的变化只是计分比例的变化，不算结果"
    return text + "。"


def governed_rows(doc: dict[str, Any]) -> list[tuple[list[dict[str, Any]], list[str]]]:
    """The differing rules that govern something measured, grouped by what they govern (every
    ``burn.*`` rule governs the same burn events), with the metric ids of it: the events, then the
    tribute kinds they charge as ``owed_<kind>``."""
    ids = {m["id"] for m in doc["metrics"]}
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in doc["rule_differences"]:
        g = r.get("governs")
        if not g:
            continue
        mids = [e for e in g["events"] if e in ids] + [f"owed_{k}" for k in g["tribute"] if f"owed_{k}" in ids]
        if mids:
            groups.setdefault(tuple(mids), []).append(r)
    return [(rules, list(mids)) for mids, rules in groups.items()]


def _rule_names(rules: Sequence[dict[str, Any]], most: int = 3) -> str:
    """「name」、「name」 for the first ``most`` rules, 等 for the rest."""
    named = "、".join(f"「{rule_name(r['zh'])}」" for r in rules[:most])
    return named + ("等" if len(rules) > most else "")


def _counted(n: int, matches: bool) -> str:
    return f"{n} 场" if matches else f"{n} 副牌"


def events_zh(doc: dict[str, Any], diff: dict[str, Any]) -> list[str]:
    """For each rule that differs between this variant and the baseline: how often the events it
    governs happened under each, and what size of change this sample can see (Chinese)."""
    idx = [v["label"] for v in doc["variants"]].index(diff["variant"])
    metrics = {m["id"]: m for m in doc["metrics"]}
    base, mine = _result(doc, diff["baseline"]), _result(doc, diff["variant"])
    matches = bool(doc["match_hands"])
    out = []
    for group, mids in governed_rows(doc):
        rules = [r for r in group if _show(r["values"][idx]) != _show(r["values"][0])]
        if not rules:
            continue
        seen, same, never = [], [], []
        power_text = ""
        for mid in mids:
            p = diff["power"][mid]
            name = metrics[mid]["zh"].removeprefix("每局").removesuffix("次数").removesuffix("张数")
            if p["status"] == "never":
                never.append(name)
                continue
            if p["status"] == "same":
                same.append(name)
                continue
            a, b = base["metrics"][mid]["mean"], mine["metrics"][mid]["mean"]
            e = diff["metrics"][mid]
            mark = "，明显" if e["clear"] else ""
            if mid in (diff.get("depends_on_play") or ()):
                mark = "，取决于打法"  # clear for one agent only: not a finding
            seen.append(f"{name} {_num(a)}→{_num(b)}{mark}")
            if not power_text and p["detectable"] is not None:
                power_text = f"这 {_counted(doc['deals'], matches)}能看出{name}每局约 {_num(p['detectable'])} 的变化"
                if p["deals_needed"] is not None:
                    power_text += (
                        f"，要看出四分之一的变化（每局 {_num(p['change'])}）约需 {_counted(p['deals_needed'], matches)}"
                    )
        parts = []
        if seen:
            parts.append("每局 " + "、".join(seen))
        if same:
            parts.append("、".join(same) + " 每副牌都一样")
        if never:
            hands = doc["hands_per_variant"]
            parts.append("、".join(never) + f" 一次也没有出现（{hands} 局里；每局少于 {_num(3 / hands)} 次）")
        text = f"{_rule_names(rules)}管的事：" + "；".join(parts)
        if power_text:
            text += "。" + power_text
        out.append(text + "。")
    return out


def matches_zh(doc: dict[str, Any]) -> str:
    """Whether the between-hands rules were played in matches, or the command that would."""
    m = doc.get("matches")
    if not m or not m["between_hands"]:
        return ""
    paths = {r["path"]: r for r in doc["rule_differences"]}
    named = "、".join(rule_name(paths[p]["zh"]) for p in m["between_hands"][:4] if p in paths)
    if len(m["between_hands"]) > 4:
        named += "等"
    if m["played"]:
        how = "（自动选择）" if m["auto"] else ""
        return f"{named} 在两局之间起作用，所以按整场打{how}：{doc['deals']} 场，每场 {m['hands']} 局。"
    if not m["command"]:  # a variant given as an object (an unsaved draft): no command runs it
        return f"{named} 在两局之间起作用，单局比较看不出它们的影响。要看，请先把规则保存成文件，再试打一次：这里会给出命令。"
    return f"{named} 在两局之间起作用，单局比较看不出它们的影响。要看，请运行：{m['command']}"


def agents_zh(doc: dict[str, Any]) -> str:
    """Who played and how strong each agent measured (against greedy), in Chinese."""
    sides = doc.get("sides")
    if not sides:
        return ""
    a, b = sides
    if a["agent"] == b["agent"]:
        text = f"六个座位都由 {a['agent']} 机器人打（机器人的打法与真人不同：数字说的是它们在这些规则下怎么打）。"
        agents = [a]
    else:
        text = f"甲方（0、2、4 号座）是 {a['agent']}，乙方（1、3、5 号座）是 {b['agent']}。"
        agents = [a, b]
    for side in agents:
        s = side["strength"][0]
        if s["edge"] is None:
            text += f"{side['agent']} 的强度没有测过。"
        elif side["agent"] == "greedy":
            text += "greedy 是强度的基准（其他机器人都与它比）。"
        else:
            where = s["measured_under"] + ("" if s["exact"] else f"（与本基准最接近，相差 {s['rules_apart']} 条规则）")
            units = f"，即 {_num(s['edge_in_units'])} 个头科分" if s["edge_in_units"] is not None else ""
            text += (
                f"{side['agent']} 在 {where} 下每局比 greedy {'多' if s['edge'] >= 0 else '少'} "
                f"{abs(s['edge']):.2f} 分（95% 区间 [{s['low']:+.2f}, {s['high']:+.2f}]，{s['pairs']} 对牌{units}）。"
            )
        unseen = never_saw_parts(side)
        if unseen:
            text += (
                f"{side['agent']} 训练时没有见过{'、'.join(p['zh'] for p in unseen)}"
                "：这些决定由各自的默认方式作出，比较结果反映的是默认方式，不是学到的打法。"
            )
        hidden = cannot_read_rules(side)
        if hidden:
            text += (
                f"{side['agent']} 读不到这些规则（表达式钩子和没有输入列的选项）：{'、'.join(hidden)}"
                "；它只按读得到的选项打。"
            )
        text += trained_zh(side) + guards_zh(side)
    return text + cross_zh(doc)


def cross_check(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The document's cross-check when one was played (compare/cross.py), else None."""
    c = doc.get("cross_check")
    return c if c and c.get("agents") else None


def cross_zh(doc: dict[str, Any]) -> str:
    """Who played the deals a second time, and what that means for the findings (Chinese)."""
    c = doc.get("cross_check")
    if not c or c.get("kind") in (None, "none"):
        return ""
    if not c.get("agents"):
        return f"没有做对照检查（对局者已经是 {c['kind']}，可改用 --cross-check 的另一种）：下面的结果只代表这一种机器人的打法。"
    budget = c.get("budget")
    how = f"（每步 {budget['worlds']} 个模拟世界、{budget['candidates']} 个候选）" if budget else ""
    return (
        f"同样的牌又由 {c['agents']}{how} 打了一遍：两种机器人都看得出、方向也一致的差别才算结果；"
        "只有一种看得出或方向相反的，另列为「取决于打法」。"
    )


def trained_zh(side: dict[str, Any]) -> str:
    """The variants a side's agent was trained over, and the compared variants outside them (Chinese)."""
    over, outside = trained_over_parts(side)
    if not over:
        return ""
    named = "、".join("按范围抽出的俱乐部规则" if v == DRAWN else v for v in over)
    text = f"{side['agent']} 训练时用过的规则：{named}。"
    if outside:
        text += f"{'、'.join(outside)} 不在其中：它在这套规则下的打法没有经过训练，结果要打折扣看。"
    return text


def guards_of(side: dict[str, Any]) -> list[str]:
    """The blunders a side's agent is guarded against under any compared variant (each once)."""
    out: list[str] = []
    for row in side["strength"]:
        out += [g for g in row.get("guards") or () if g not in out]
    return out


def guards_zh(side: dict[str, Any]) -> str:
    """What a side's guards do (Chinese), or nothing."""
    guards = guards_of(side)
    if not guards:
        return ""
    named = "、".join(BLUNDER_ZH.get(g, g) for g in guards)
    return f"{side['agent']} 有防错：它的网络要{named}时，改出它认为最好的另一手。"


def trained_over_parts(side: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A side's agent's trained-over variants (each once) and the compared variants outside them."""
    over: list[str] = []
    outside: list[str] = []
    for row in side["strength"]:
        t = row.get("trained_over")
        if t:
            over += [v for v in t["variants"] if v not in over]
            if t.get("clubs") and DRAWN not in over:
                over.append(DRAWN)
            if row.get("outside_training"):
                outside.append(row["variant"])
    return over, outside


def _cross_phrase(m: dict[str, Any], e: dict[str, Any], who: str) -> str:
    """One agent's view of a difference in Chinese: ``learned 多 0.12`` or ``greedy 不明显``."""
    if not e["clear"]:
        return f"{who} 不明显"
    more = "多" if e["mean"] > 0 else "少"
    if m["kind"] == "rate":
        return f"{who} {more} {abs(100 * e['mean']):.1f} 个百分点"
    return f"{who} {more} {_num(abs(e['mean']))}"


def depends_zh(doc: dict[str, Any], diff: dict[str, Any], most: int = 5) -> str:
    """The differences that depend on how people play (only one agent sees them, or the two disagree on
    the direction), in Chinese; "" when none or no cross-check was played."""
    c = cross_check(doc)
    ids = diff.get("depends_on_play") or []
    if c is None or not ids:
        return ""
    metrics = {m["id"]: m for m in doc["metrics"]}
    parts = []
    for mid in ids[:most]:
        m, e = metrics[mid], diff["cross_check"][mid]
        unit = "（按头科分折算）" if e["in_units"] else ""
        parts.append(
            f"{m['zh']}{unit}（{_cross_phrase(m, e['compared'], doc['agents'])}，{_cross_phrase(m, e['cross'], c['agents'])}）"
        )
    more = f"另有 {len(ids) - most} 项，见下表" if len(ids) > most else ""
    return (
        f"取决于打法（两种机器人看法不一，不算规则的结果）：{'；'.join(parts)}" + (f"；{more}" if more else "") + "。"
    )


def cannot_read_rules(side: dict[str, Any]) -> list[str]:
    """The rules a side's agent cannot read, under any of the compared variants (each once)."""
    out: list[str] = []
    for row in side["strength"]:
        out += [r for r in row.get("cannot_read", ()) if r not in out]
    return out


def never_saw_parts(side: dict[str, Any]) -> list[dict[str, Any]]:
    """The parts a side's agent never saw, under any of the compared variants (each once)."""
    out: list[dict[str, Any]] = []
    for row in side["strength"]:
        for p in row.get("never_saw", ()):
            if all(q["part"] != p["part"] for q in out):
                out.append(p)
    return out


def rule_name(zh: str) -> str:
    """A rule's Chinese description cut to its name (up to the first colon or bracket).

    >>> rule_name("死牌由对头扣牌（大纲第七条）"), rule_name("管牌方式：cover 大花盖小花")
    ('死牌由对头扣牌', '管牌方式')
    """
    for i, ch in enumerate(zh):
        if ch in "：（:(，,;；":
            zh = zh[:i]
            break
    return shorten(zh.strip(), 20)


def summary_zh(doc: dict[str, Any], most: int = 5) -> list[str]:
    """What the differing rules did, in plain Chinese: the method and the players, then one paragraph
    per variant compared to the baseline (rules, scale, findings, the events each rule governs,
    matches)."""
    base = doc["baseline"]
    hands = doc["hands_per_variant"]
    dealt = f"{doc['deals']} 场牌（每场 {doc['match_hands']} 局）" if doc["match_hands"] else f"{doc['deals']} 副牌"
    again = "每场" if doc["match_hands"] else "每副牌"
    paras = [
        f"每套规则用同样的 {dealt}各打 {hands} 局（{again}换座再打一次，运气相互抵消），"
        f"差值按牌局配对，以 95% 区间判断是否明显；「能看出」的变化指真有这么大时，五次里有四次判为明显。"
        f"基准是 {base}。" + agents_zh(doc)
    ]
    diffs = doc["rule_differences"]
    variants = {v["label"]: v for v in doc["variants"]}
    for d in doc["differences"]:
        name = d["variant"]
        idx = [v["label"] for v in doc["variants"]].index(name)
        rules = [r for r in diffs if _show(r["values"][idx]) != _show(r["values"][0])]
        named = "、".join(rule_name(r["zh"]) for r in rules[:3]) + ("等" if len(rules) > 3 else "")
        changes = _clear_changes(doc, d)
        total = sum(1 for m in doc["metrics"] if not is_zero(doc, m["id"]))
        if not rules:
            text = f"{name} 与 {base} 的规则相同。"
        else:
            text = f"{name} 与 {base} 有 {len(rules)} 条规则不同（{named}）。"
        text += scale_zh(doc, d, variants)
        quiet = total - len(changes) - len(d["scale"]["only_scale"]) - len(d.get("depends_on_play") or [])
        if changes:
            shown = [p for _, p in changes[:most]]
            text += "结果：" + "；".join(shown) + "。"
            if len(changes) > most:
                text += f"另有 {len(changes) - most} 项也明显不同，见下表。"
            text += f"其余 {quiet} 项指标没有明显差别。"
        elif _identical(doc, d):
            text += "除计分比例外，两套规则下每副牌的打法和结果都完全一样。" if d["scale"]["only_scale"] else ""
            text += f"在这 {hands} 局里，{'其余 ' if d['scale']['only_scale'] else ''}{quiet} 项指标每副牌都相同。"
        else:
            text += f"在这 {hands} 局里，其余 {quiet} 项指标都没有明显差别；想看得更清楚，可以加大 --hands。"
        text += depends_zh(doc, d)
        paras.append(text)
        paras += events_zh(doc, d)
    between = matches_zh(doc)
    if between:
        paras.append(between)
    return paras


def fmt_value(x: float | None, kind: str, signed: bool = False) -> str:
    """A metric value: rates as percentages, other numbers with three decimals; − for minus."""
    if x is None:
        return "—"
    s = f"{100 * x:+.1f}" if kind == "rate" else f"{x:+.3f}"
    if not signed:
        s = s.lstrip("+")
    return s.replace("-", "−")


def fmt_estimate(e: dict[str, Any], kind: str) -> str:
    """``mean ±half`` (a rate in %)."""
    mean = fmt_value(e["mean"], kind)
    if e["low"] is None:
        return mean + ("%" if kind == "rate" else "")
    half = (e["high"] - e["low"]) / 2
    unit = "%" if kind == "rate" else ""
    return f"{mean}{unit} ±{fmt_value(half, kind)}"


def fmt_difference(e: dict[str, Any], kind: str) -> str:
    """``+1.230 [+0.980, +1.480]`` when the interval is clear of 0, else ``≈0 [−0.020, +0.030]``."""
    unit = " pp" if kind == "rate" else ""
    if e["low"] is None:
        return fmt_value(e["mean"], kind, signed=True) + unit
    ci = f"[{fmt_value(e['low'], kind, signed=True)}, {fmt_value(e['high'], kind, signed=True)}]"
    if e["clear"]:
        return f"{fmt_value(e['mean'], kind, signed=True)}{unit} {ci}"
    return f"≈0{unit} {ci}"


def shorten(text: str, cols: int) -> str:
    """``text`` cut to at most ``cols`` display columns, with … when cut.

    >>> shorten("死牌由对头扣牌（大纲第七条）", 10)
    '死牌由对…'
    """
    if width(text) <= cols:
        return text
    out = ""
    for ch in text:
        if width(out + ch + "…") > cols:
            break
        out += ch
    return out + "…"


def shown_zh(d: dict[str, Any]) -> list[str]:
    """A rule difference's values as the rule sheet words them in Chinese (the values themselves for a
    hook, or a document written before values had words)."""
    words = d.get("words")
    return list(words["zh"]) if words else [_show(v) for v in d["values"]]


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return str(v)


def is_zero(doc: dict[str, Any], metric: str) -> bool:
    """Every variant measured exactly 0 for ``metric`` (the event never happened under any of them)."""
    return all(r["metrics"][metric]["mean"] == 0 and r["metrics"][metric]["high"] in (0, None) for r in doc["results"])


def depends_rows(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(variant label, metric, its ``cross_check`` entry) for every difference that depends on how people
    play, in variant then metric order; empty without a cross-check."""
    if cross_check(doc) is None:
        return []
    metrics = {m["id"]: m for m in doc["metrics"]}
    return [
        (d["variant"], metrics[mid], d["cross_check"][mid]) for d in doc["differences"] for mid in d["depends_on_play"]
    ]


def depends_text(doc: dict[str, Any]) -> list[str]:
    """取决于打法: the differences the two agents do not agree on, each agent's difference side by side."""
    c = cross_check(doc)
    if c is None:
        return []
    found = depends_rows(doc)
    head = f"取决于打法 depends on how people play ({doc['agents']} and {c['agents']} on the same deals; {CLEAR_NOTE})"
    if not found:
        return [*wrap(head), f"  (none: every finding holds for {doc['agents']} and {c['agents']})", ""]
    base = doc["baseline"]
    many = len(doc["differences"]) > 1  # one variant against the baseline: no column to say which
    rows = [["指标", "metric", *(["variant"] if many else []), shorten(doc["agents"], 24), shorten(c["agents"], 24)]]
    for label, m, e in found:
        kind = "num" if e["in_units"] else m["kind"]
        rows.append(
            [
                shorten(m["zh"], 20),
                m["id"] + (" (头科)" if e["in_units"] else ""),
                *([shorten(f"{label} − {base}", 24)] if many else []),
                fmt_difference(e["compared"], kind),
                fmt_difference(e["cross"], kind),
            ]
        )
    keep = 3 if many else 2
    return [*wrap(head), *fit_table(rows, keep=keep, right=[False] * keep + [True, True]), ""]


def units_text(doc: dict[str, Any]) -> list[str]:
    """The points metrics in each variant's own 头科 units, when some variant's unit differs."""
    units = [v["score_unit"] for v in doc["variants"]]
    if all(u == units[0] for u in units) or not all(units):
        return []
    names = [v["label"] for v in doc["variants"]]
    base = doc["baseline"]
    out = wrap(
        "按头科分折算 in units of each variant's own 头科 score ("
        + ", ".join(f"{n} 1 = {u} points" for n, u in zip(names, units, strict=True))
        + f"); {CLEAR_NOTE}"
    )
    header = ["指标", "metric", *(shorten(n, 16) for n in names), *(shorten(f"{n} − {base}", 24) for n in names[1:])]
    rows: list[list[str]] = [header]
    for m in doc["metrics"]:
        if not m.get("points") or is_zero(doc, m["id"]):
            continue
        row = [shorten(m["zh"], 22), m["id"]]
        row += [fmt_estimate(r["in_units"][m["id"]], "num") for r in doc["results"]]
        row += [fmt_difference(d["in_units"][m["id"]], "num") for d in doc["differences"]]
        rows.append(row)
    out += fit_table(rows, keep=2, right=[False, False] + [True] * (len(header) - 2))
    out.append("")
    return out


def power_cell(p: dict[str, Any], matches: bool) -> str:
    """What a sample can see of one metric: ``±0.020; 25%: 173`` (the detectable change per hand,
    and the deals or matches a quarter change needs), or why not."""
    if p["status"] == "never":
        return f"never (< {_num(p['bound'])}/hand)"
    if p["status"] == "same":
        return "same every deal"
    if p["detectable"] is None:
        return "—"
    text = f"±{_num(p['detectable'])}"
    if p["deals_needed"] is not None:
        text += f"; 25%: {p['deals_needed']}{' matches' if matches else ''}"
    return text


def governed_text(doc: dict[str, Any]) -> list[str]:
    """The events each differing rule governs: per hand under each variant, the paired difference,
    and what the sample can see (a power statement)."""
    found = governed_rows(doc)
    if not found:
        return []
    names = [v["label"] for v in doc["variants"]]
    base = doc["baseline"]
    matches = bool(doc["match_hands"])
    metrics = {m["id"]: m for m in doc["metrics"]}
    out = wrap(
        "规则管的事件 events the differing rules govern, per hand; 能看出 detectable: the change seen "
        f"clear of 0 four times in five with these {doc['deals']} {'matches' if matches else 'deals'}, "
        "and how many it takes to see a change of 25% of the baseline's rate"
    )
    header = ["规则 rule", "事件 event", *(shorten(n, 12) for n in names)]
    for n in names[1:]:
        header += [shorten(f"{n} − {base}", 24), "能看出 detectable"]
    rows: list[list[str]] = [header]
    never: list[str] = []
    for rules, mids in found:
        label = shorten(rules[0]["path"], 26) + (f" +{len(rules) - 1}" if len(rules) > 1 else "")
        for mid in mids:
            if all(d["power"][mid]["status"] == "never" for d in doc["differences"]):
                never.append(mid)
                continue
            m = metrics[mid]
            row = [label, mid]
            label = ""
            row += [fmt_value(x["metrics"][mid]["mean"], m["kind"]) for x in doc["results"]]
            for d in doc["differences"]:
                row += [fmt_difference(d["metrics"][mid], m["kind"]), power_cell(d["power"][mid], matches)]
            rows.append(row)
    out += fit_table(rows, keep=2, right=[False, False] + [True] * (len(header) - 2))
    if never:
        hands = doc["hands_per_variant"]
        out += wrap(
            f"never happened in {hands} hands of any variant (< {_num(3 / hands)}/hand): "
            + ", ".join(dict.fromkeys(never)),
            indent="  ",
        )
    grouped = [rules for rules, _ in found if len(rules) > 1]
    for rules in grouped:
        out += wrap(f"{rules[0]['path']} +{len(rules) - 1}: " + ", ".join(r["path"] for r in rules), indent="  ")
    out.append("")
    return out


def sides_text(doc: dict[str, Any]) -> list[str]:
    """Who played (per side) and each agent's measured edge over greedy, points per hand."""
    out = ["对局者 agents (edge over greedy, points per hand, 95% interval; measured on duplicate deals)"]
    rows = [["方 side", "座 seats", "agent", "measured under", "edge"]]
    sources: list[str] = []
    for side in doc.get("sides", []):
        s = side["strength"][0]
        seats = " ".join(str(x) for x in side["seats"])
        if s["edge"] is None:
            rows.append([side["side"], seats, side["agent"], "—", "unmeasured"])
            continue
        apart = s["rules_apart"]
        under = s["measured_under"] + (
            "" if s["exact"] else f" (nearest: {apart} rule{'s' if apart > 1 else ''} apart)"
        )
        edge = f"{s['edge']:+.2f} [{s['low']:+.2f}, {s['high']:+.2f}]".replace("-", "−")
        rows.append([side["side"], seats, side["agent"], under, edge])
        if s["source"] not in sources:
            sources.append(s["source"])
    out += table(rows)
    for source in sources:
        out += wrap(f"source: {source}", indent="  ")
    told: set[tuple[str, str]] = set()
    for side in doc.get("sides", []):
        for p in never_saw_parts(side):
            if (side["agent"], p["part"]) in told:
                continue
            told.add((side["agent"], p["part"]))
            what = ", ".join([*p["kinds"], *(f"word {w}" for w in p["words"])])
            why = (
                "added since its weights were trained, so those decisions were made by the part's default "
                "chooser, not learned play"
                if p["kinds"]
                else "no variant its weights were trained over plays it: its play under this part is untrained"
            )
            out += wrap(
                f"{side['agent']} never saw {p['part']} ({p['zh']}{'; ' + what if what else ''}): {why}", indent="  "
            )
        hidden, (over, outside), guards = cannot_read_rules(side), trained_over_parts(side), guards_of(side)
        trained = f"{side['agent']} was trained over {', '.join(over)}"
        if outside:
            trained += f"; outside them: {', '.join(outside)} (its play there was never trained)"
        for what, shown, text in (
            (
                "rules",
                hidden,
                f"{side['agent']} cannot read {', '.join(hidden)} (expression hooks and options with no input "
                "column): it plays by the options it reads",
            ),
            ("over", over, trained),
            (
                "guards",
                guards,
                f"{side['agent']} is guarded against {', '.join(guards)}: where its network would make one of "
                "these blunders, it plays its best choice that is none",
            ),
        ):
            if shown and (f"note:{what}", side["agent"]) not in told:  # each note once per agent
                told.add((f"note:{what}", side["agent"]))
                out += wrap(text, indent="  ")
    c = doc.get("cross_check")
    if c and c.get("agents"):
        budget = c.get("budget")
        how = f" ({budget['worlds']} world, {budget['candidates']} candidates a decision)" if budget else ""
        out += wrap(f"cross-check: the same deals again with {c['agents']}{how}", indent="  ")
    elif c and c.get("skipped"):
        out += wrap(f"cross-check: none, {c['skipped']}", indent="  ")
    out.append("")
    return out


def render_text(doc: dict[str, Any]) -> str:
    """The report for a terminal, at most 100 columns wide: a summary in Chinese, rules, metrics, distribution."""
    names = [v["label"] for v in doc["variants"]]
    base = doc["baseline"]
    out = wrap(f"比较 compare: {' vs '.join(names)} (基准 baseline {base})")
    out += wrap(
        f"{doc['deals']} {'matches' if doc['match_hands'] else 'deals'} × 2 seatings"
        + (f" × {doc['match_hands']} hands" if doc["match_hands"] else "")
        + f" = {doc['hands_per_variant']} hands per variant, "
        f"seed {doc['seed']}, agents {doc['agents']}"
    )
    out.append("")
    out.append("概要 summary")
    for para in summary_zh(doc):
        out += wrap(para, indent="  ")
    out.append("")
    diffs = doc["rule_differences"]
    out.append(f"规则差异 rule differences ({len(diffs)})")
    if diffs:
        path_w = min(30, max(width(d["path"]) for d in diffs))
        zh_w = 20
        room = MAX_COLUMNS - 2 - path_w - zh_w - 2 * (len(names) + 1)
        value_w = max(8, room // len(names))
        rule_rows = [["规则 rule", "", *(shorten(n, value_w) for n in names)]]
        rule_rows += [
            [shorten(d["path"], path_w), shorten(d["zh"], zh_w), *(shorten(w, value_w) for w in shown_zh(d))]
            for d in diffs
        ]
        out += fit_table(rule_rows, keep=2)
    else:
        out.append("  (none: the variants have the same rules)")
    out.append("")
    out += wrap(f"指标 metrics, per hand, mean ±95% half-interval; differences paired by deal ({CLEAR_NOTE})")
    header = ["指标", "metric", *(shorten(n, 16) for n in names), *(shorten(f"{n} − {base}", 24) for n in names[1:])]
    rows: list[list[str]] = [header]
    zero: list[str] = []
    for m in doc["metrics"]:
        if is_zero(doc, m["id"]):
            zero.append(m["id"])
            continue
        row = [shorten(m["zh"], 22), m["id"]]
        row += [fmt_estimate(r["metrics"][m["id"]], m["kind"]) for r in doc["results"]]
        row += [
            fmt_difference(d["metrics"][m["id"]], m["kind"])
            + (f" {SCALE_MARK}" if m["id"] in d["scale"]["only_scale"] else "")
            + (f" {DEPENDS_MARK}" if m["id"] in (d.get("depends_on_play") or ()) else "")
            for d in doc["differences"]
        ]
        rows.append(row)
    out += fit_table(rows, keep=2, right=[False, False] + [True] * (len(header) - 2))
    if zero:
        out += wrap(f"0 in every variant (not shown): {', '.join(zero)}", indent="  ")
    if any(d["scale"]["only_scale"] for d in doc["differences"]):
        out += wrap(f"{SCALE_MARK}: {SCALE_NOTE}", indent="  ")
    if any(d.get("depends_on_play") for d in doc["differences"]) and cross_check(doc):
        out += wrap(f"{DEPENDS_MARK}: {DEPENDS_NOTE}", indent="  ")
    out.append("")
    out += depends_text(doc)
    out += units_text(doc)
    out += governed_text(doc)
    out += sides_text(doc)
    out.append("比分差分布 score difference per hand (team 0 − team 1), % of hands")
    out += fit_table(distribution_rows(doc["score_distribution"], names), keep=1, right=[True] * (len(names) + 1))
    if "match_score_distribution" in doc:
        out.append("")
        out += wrap(f"整场比分差分布 score difference per match of {doc['match_hands']} hands, % of matches")
        out += fit_table(
            distribution_rows(doc["match_score_distribution"], names), keep=1, right=[True] * (len(names) + 1)
        )
    return "\n".join(out) + "\n"


def distribution_rows(dist: Sequence[dict[str, Any]], names: Sequence[str]) -> list[list[str]]:
    """A header and one row per score difference: the share of hands (or matches) per variant."""
    values = sorted({int(k) for d in dist for k in d["counts"]})
    rows = [["分差 diff", *(shorten(n, 16) for n in names)]]
    for v in values:
        cells = []
        for d in dist:
            n = d["counts"].get(str(v), 0)
            total = sum(d["counts"].values())
            cells.append(f"{100 * n / total:.1f}%" if n else "—")
        rows.append([str(v).replace("-", "−"), *cells])
    return rows


CSV_COLUMNS = (
    "variant",
    "metric",
    "zh",
    "kind",
    "deals",
    "mean",
    "low",
    "high",
    "baseline",
    "diff_mean",
    "diff_low",
    "diff_high",
    "diff_clear",
    "finding",
    "unit",
    "unit_mean",
    "unit_low",
    "unit_high",
    "unit_diff_mean",
    "unit_diff_low",
    "unit_diff_high",
    "detectable",
    "change",
    "deals_needed",
    "power_status",
    "governed_by",
    "across_agents",
    "cross_agents",
    "cross_diff_mean",
    "cross_diff_low",
    "cross_diff_high",
    "cross_diff_clear",
)


def _cross_cells(d: dict[str, Any] | None, second: dict[str, Any] | None, mid: str, agents: str) -> list[Any]:
    """The cross-check's columns of one row: whether a finding holds across agents (``holds``) or depends
    on how people play (``depends``), and the second agent's own paired difference."""
    if d is None or second is None:
        return ["", "", "", "", "", ""]
    verdict = "holds" if mid in d["findings"] else "depends" if mid in d.get("depends_on_play", ()) else ""
    e = second["metrics"][mid]
    return [verdict, agents, e["mean"], e["low"], e["high"], "true" if e["clear"] else "false"]


def write_csv(doc: dict[str, Any], fh: IO[str]) -> None:
    """One row per variant and metric: its estimate, and (for all but the baseline) its paired
    difference, whether it is a finding (``finding``: clear, or ``scale`` when only a change of
    scoring scale), the same in 头科 units for points metrics, what the sample can see of it, and
    the differing rules that govern it."""
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(CSV_COLUMNS)  # variant labels are file names a user chose: every text cell is spreadsheet-safe
    diffs = {d["variant"]: d for d in doc["differences"]}
    cross = cross_check(doc)
    seconds = {d["variant"]: d for d in cross["differences"]} if cross else {}
    units = [v.get("score_unit", 0) for v in doc["variants"]]
    governed: dict[str, list[str]] = {}
    for rules, mids in governed_rows(doc):
        for mid in mids:
            governed.setdefault(mid, []).extend(r["path"] for r in rules)
    for r, unit in zip(doc["results"], units, strict=True):
        d = diffs.get(r["variant"])
        for m in doc["metrics"]:
            e = r["metrics"][m["id"]]
            row: list[Any] = [r["variant"], m["id"], m["zh"], m["kind"], doc["deals"], e["mean"], e["low"], e["high"]]
            u = r.get("in_units", {}).get(m["id"]) if m.get("points") else None
            ud = d["in_units"].get(m["id"]) if d is not None and m.get("points") else None
            if d is None:
                row += ["", "", "", "", ""]
            else:
                de = d["metrics"][m["id"]]
                row += [d["baseline"], de["mean"], de["low"], de["high"], "true" if de["clear"] else "false"]
            finding = ""
            if d is not None:
                finding = (
                    "clear" if m["id"] in d["findings"] else "scale" if m["id"] in d["scale"]["only_scale"] else ""
                )
            row += [finding, unit if u else ""]
            row += [u["mean"], u["low"], u["high"]] if u else ["", "", ""]
            row += [ud["mean"], ud["low"], ud["high"]] if ud else ["", "", ""]
            if d is None:
                row += ["", "", "", ""]
            else:
                p = d["power"][m["id"]]
                row += [p["detectable"], p["change"], p["deals_needed"], p["status"]]
            row.append("; ".join(governed.get(m["id"], [])))
            row += _cross_cells(d, seconds.get(r["variant"]), m["id"], cross["agents"] if cross else "")
            w.writerow([spreadsheet_cell("" if x is None else x) for x in row])
