"""The comparison as one self-contained HTML file: tables and inline SVG charts, no network, printable.

It opens with a plain-language Chinese summary of what the differing rules did
(report.summary_zh), then the numbers behind it; rows that differ clearly are
highlighted.  Every chart has axes with units and a legend.  Tables scroll
sideways inside their box, so the page fits a phone.
Everything a reader needs is inside the file (styles, charts as SVG elements),
so it can be mailed to a club, opened offline, or printed.  Each metric gets its
own small interval chart on its own scale, because the metrics live on very
different scales (two hundred decisions a hand, a burn every twenty hands).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from .report import (
    CLEAR_NOTE,
    DEPENDS_MARK,
    DEPENDS_NOTE,
    SCALE_MARK,
    SCALE_NOTE,
    _show,
    cross_check,
    depends_rows,
    fmt_difference,
    fmt_estimate,
    fmt_value,
    governed_rows,
    guards_of,
    guards_zh,
    is_zero,
    never_saw_parts,
    power_cell,
    shown_zh,
    summary_zh,
    trained_over_parts,
)

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")

# No web fonts: the stack names the CJK fonts phones and desktops already have.
STYLE = """
body { font-family: system-ui, -apple-system, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC",
       "Source Han Sans SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif;
       margin: 1em auto; padding: 0 .8em; max-width: 72em; color: #222; line-height: 1.45; }
h1 { font-size: 1.35em; } h2 { font-size: 1.1em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
.summary { background: #f6f8fa; border-left: 4px solid #8b0000; padding: .4em 1em; }
.summary p { margin: .5em 0; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; max-width: 100%; }
table { border-collapse: collapse; margin: .4em 0; font-size: .9em; }
th, td { padding: .2em .6em; border-bottom: 1px solid #eee; text-align: left; vertical-align: middle; }
th { background: #f3f3f3; white-space: nowrap; }
td:first-child { min-width: 7.5em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.clear { font-weight: 700; } td.unclear { color: #777; }
tr.differs > td { background: #fff6d6; }
td.changed { background: #ffe3a3; font-weight: 600; }
.legend span { display: inline-block; margin-right: 1.2em; }
.legend i { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -.1em; }
.note { color: #555; font-size: .85em; }
svg { max-width: 100%; height: auto; }
svg text { font-size: 10px; fill: #333; }
svg text.axis { font-size: 11px; fill: #555; }
@media print { body { margin: 0; max-width: none; font-size: 9pt; } tr, svg { page-break-inside: avoid; }
               .scroll { overflow: visible; } }
"""


def _color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _num(x: float) -> str:
    return f"{x:.1f}"


def _legend_svg(names: Sequence[str], x: float, y: float) -> str:
    """A legend row inside a chart: a coloured square and the variant's name for each variant."""
    parts = []
    for i, n in enumerate(names):
        parts.append(f'<rect x="{_num(x)}" y="{_num(y - 8)}" width="9" height="9" fill="{_color(i)}"/>')
        parts.append(f'<text x="{_num(x + 12)}" y="{_num(y)}">{escape(n)}</text>')
        x += 24 + 6.5 * sum(2 if ord(c) > 0x2E7F else 1 for c in n)
    return "".join(parts)


def score_chart(dist: list[dict[str, Any]], unit: str = "局", width: int = 720, height: int = 260) -> str:
    """Grouped bars: for each score difference, the share of hands (or matches) under each variant.

    The y axis is the share in %, the x axis the score difference in points, and the
    legend names each variant's colour.
    """
    values = sorted({int(k) for d in dist for k in d["counts"]})
    shares = []
    for d in dist:
        total = sum(d["counts"].values()) or 1
        shares.append([d["counts"].get(str(v), 0) / total for v in values])
    top = max((s for row in shares for s in row), default=0) or 1
    left, bottom, right, up = 52, 44, 10, 26
    plot_w, plot_h = width - left - right, height - bottom - up
    group = plot_w / max(1, len(values))
    bar = group * 0.8 / max(1, len(dist))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="比分差分布 score difference distribution">',
        _legend_svg([d["variant"] for d in dist], left, 14),
    ]
    for frac in (0, 0.25, 0.5, 0.75, 1):
        y = up + plot_h * (1 - frac)
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{_num(y)}" y2="{_num(y)}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 4}" y="{_num(y + 3)}" text-anchor="end">{100 * top * frac:.0f}%</text>')
    for gi, v in enumerate(values):
        x0 = left + gi * group + group * 0.1
        for vi, row in enumerate(shares):
            h = plot_h * row[gi] / top
            parts.append(
                f'<rect x="{_num(x0 + vi * bar)}" y="{_num(up + plot_h - h)}" width="{_num(bar)}" '
                f'height="{_num(h)}" fill="{_color(vi)}"><title>{escape(dist[vi]["variant"])} {v}: '
                f"{100 * row[gi]:.1f}%</title></rect>"
            )
        label = str(v).replace("-", "−")
        parts.append(
            f'<text x="{_num(left + (gi + 0.5) * group)}" y="{up + plot_h + 14}" text-anchor="middle">{label}</text>'
        )
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{up + plot_h}" y2="{up + plot_h}" stroke="#333"/>')
    parts.append(f'<line x1="{left}" x2="{left}" y1="{up}" y2="{up + plot_h}" stroke="#333"/>')
    parts.append(
        f'<text class="axis" x="{_num(left + plot_w / 2)}" y="{height - 6}" text-anchor="middle">'
        "分差（0队 − 1队，单位：分） score difference, team 0 − team 1 (points)</text>"
    )
    cy = up + plot_h / 2
    parts.append(
        f'<text class="axis" x="12" y="{_num(cy)}" text-anchor="middle" transform="rotate(-90 12 {_num(cy)})">'
        f"占{unit}数 % of {'hands' if unit == '局' else 'matches'}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def _ticks(lo: float, hi: float) -> list[float]:
    """Three to six round tick values between lo and hi."""
    span = hi - lo
    if span <= 0:
        return [lo]
    step = 10 ** math.floor(math.log10(span / 3))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= 5:
            step *= m
            break
    first = math.ceil(lo / step) * step
    out = []
    v = first
    while v <= hi + 1e-12:
        out.append(round(v, 10))
        v += step
    return out


def interval_chart(
    items: Sequence[tuple[float, float | None, float | None, str, bool]],
    zero: bool,
    width: int = 300,
    labels: Sequence[str] = (),
    unit: str = "",
) -> str:
    """One row per (mean, low, high, colour, emphasised): a dot and its 95% interval on a shared scale.

    Each row is labelled with its variant (the legend), and the x axis below has
    ticks and the unit.  With ``zero`` the scale always includes 0 and a dashed line
    marks it (for differences).
    """
    row_h = 14
    label_w = 78 if labels else 6
    axis_h = 26
    height = row_h * len(items) + 6 + axis_h
    lows = [lo if lo is not None else m for m, lo, _, _, _ in items]
    highs = [hi if hi is not None else m for m, _, hi, _, _ in items]
    lo_all, hi_all = min(lows), max(highs)
    if zero:
        lo_all, hi_all = min(lo_all, 0.0), max(hi_all, 0.0)
    span = hi_all - lo_all
    if span <= 0:
        span = abs(hi_all) or 1.0
        lo_all -= span / 2
    else:
        lo_all -= span * 0.05
        span *= 1.1
    pad = 8

    def x(v: float) -> str:
        return _num(label_w + pad + (width - label_w - 2 * pad) * (v - lo_all) / span)

    plot_bottom = 3 + row_h * len(items)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}">'
    ]
    if zero:
        parts.append(f'<line x1="{x(0)}" x2="{x(0)}" y1="0" y2="{plot_bottom}" stroke="#999" stroke-dasharray="2,2"/>')
    for i, (m, lo, hi, color, strong) in enumerate(items):
        y = 3 + row_h * i + row_h / 2
        if i < len(labels):
            parts.append(
                f'<text x="{label_w - 2}" y="{_num(y + 3)}" text-anchor="end" fill="{color}">'
                f"{escape(_short(labels[i]))}</text>"
            )
        if lo is not None and hi is not None:
            sw = 2.5 if strong else 1.2
            parts.append(
                f'<line x1="{x(lo)}" x2="{x(hi)}" y1="{_num(y)}" y2="{_num(y)}" stroke="{color}" stroke-width="{sw}"/>'
            )
        fill = color if strong or not zero else "white"
        parts.append(f'<circle cx="{x(m)}" cy="{_num(y)}" r="3.2" fill="{fill}" stroke="{color}"/>')
    parts.append(
        f'<line x1="{label_w + pad}" x2="{width - pad}" y1="{plot_bottom + 1}" y2="{plot_bottom + 1}" stroke="#333"/>'
    )
    for t in _ticks(lo_all, lo_all + span):
        parts.append(f'<line x1="{x(t)}" x2="{x(t)}" y1="{plot_bottom + 1}" y2="{plot_bottom + 4}" stroke="#333"/>')
        parts.append(f'<text x="{x(t)}" y="{plot_bottom + 13}" text-anchor="middle">{_tick_label(t)}</text>')
    if unit:
        parts.append(f'<text class="axis" x="{width - pad}" y="{height - 2}" text-anchor="end">{escape(unit)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _short(name: str) -> str:
    return name if len(name) <= 12 else name[:11] + "…"


def _tick_label(v: float) -> str:
    text = f"{v:g}" if abs(v) >= 1e-9 else "0"
    return text.replace("-", "−")


def _units(kind: str, diff: bool) -> tuple[float, str]:
    """The scale factor and axis unit for a metric: rates in % (differences in percentage points)."""
    if kind == "rate":
        return 100.0, "百分点 percentage points" if diff else "% 比例 share"
    return 1.0, "每局平均 mean per hand"


def _scaled(e: dict[str, Any], f: float) -> tuple[float, float | None, float | None]:
    lo, hi = e["low"], e["high"]
    return e["mean"] * f, None if lo is None else lo * f, None if hi is None else hi * f


def _wrap(table: str) -> str:
    return f'<div class="scroll">{table}</div>'


def render_html(doc: dict[str, Any]) -> str:
    """The whole report as one HTML document: a Chinese summary first, then the numbers behind it."""
    names = [v["label"] for v in doc["variants"]]
    base = doc["baseline"]
    title = f"够级规则比较：{' 对 '.join(names)}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="zh-CN"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        '<section class="summary"><h2>概要</h2>'
        + "".join(f"<p>{escape(p)}</p>" for p in summary_zh(doc))
        + '<p class="note">下面是这些结论背后的数字。黄色底的行：与基准有明显差别（95% 区间不含 0）。'
        "Below: the numbers behind this summary; rows on yellow differ clearly from the baseline.</p></section>",
        f'<p class="note">{doc["deals"]} {"matches" if doc["match_hands"] else "deals"} × 2 seatings'
        + (f" × {doc['match_hands']} hands" if doc["match_hands"] else "")
        + f" = {doc['hands_per_variant']} hands per variant; "
        f"seed {doc['seed']}; agents {escape(doc['agents'])}; baseline {escape(base)}. "
        f"{escape(doc['method'])}.</p>",
        '<p class="legend">图例 legend: '
        + "".join(f'<span><i style="background:{_color(i)}"></i>{escape(n)}</span>' for i, n in enumerate(names))
        + "</p>",
    ]
    rows = ["<table><tr><th>规则 variant</th><th>名称 title</th><th>来源 source</th><th>given as</th></tr>"]
    for v in doc["variants"]:
        rows.append(
            f"<tr><td>{escape(v['label'])}</td><td>{escape(v['title'])}</td>"
            f"<td>{escape(v['source'])}</td><td>{escape(v['spec'])}</td></tr>"
        )
    rows.append("</table>")
    out.append(_wrap("".join(rows)))
    out.append(f"<h2>规则差异 Rule differences ({len(doc['rule_differences'])})</h2>")
    if doc["rule_differences"]:
        out.append('<p class="note">橙色格：与基准不同的取值。Orange cells differ from the baseline.</p>')
        rows = ["<table><tr><th>规则</th><th>rule</th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"]
        for d in doc["rule_differences"]:
            shown = [_show(v) for v in d["values"]]
            words = shown_zh(d)
            cells = "".join(
                f"<td{' class=changed' if i and s != shown[0] else ''}>{escape(w)}"
                + (f" <code>{escape(s)}</code>" if isinstance(v, str) and w != s else "")
                + "</td>"
                for i, (s, w, v) in enumerate(zip(shown, words, d["values"], strict=True))
            )
            rows.append(f"<tr><td>{escape(d['zh'])}</td><td><code>{escape(d['path'])}</code></td>{cells}</tr>")
        rows.append("</table>")
        out.append(_wrap("\n".join(rows)))
    else:
        out.append("<p>没有：这些规则完全相同。None: the variants have the same rules.</p>")
    out += _depends_section(doc)
    out += _governed_section(doc, names)
    out += _units_section(doc, names)
    out += _sides_section(doc)
    out.append("<h2>比分差分布 Score difference per hand (team 0 − team 1)</h2>")
    out.append(_wrap(score_chart(doc["score_distribution"])))
    if "match_score_distribution" in doc:
        out.append(f"<h2>整场比分差分布 Score difference per match of {doc['match_hands']} hands</h2>")
        out.append(_wrap(score_chart(doc["match_score_distribution"], unit="场")))
    out.append("<h2>指标 Metrics per hand (mean ±95% half-interval)</h2>")
    out.append('<p class="note">图中圆点为平均值，横线为 95% 区间。Dots: means; lines: 95% intervals.</p>')
    out.append(_wrap(_metrics_table(doc, names)))
    if doc["differences"]:
        out.append(f"<h2>差值 Paired differences to {escape(base)}</h2>")
        out.append(
            f'<p class="note">{escape(CLEAR_NOTE)}. 粗体/实心点：区间不含 0（差别明显）。'
            "Bold, filled dot: the interval is clear of 0.</p>"
        )
        out.append(_wrap(_differences_table(doc, names)))
    if any(d["scale"]["only_scale"] for d in doc["differences"]):
        out.append(f'<p class="note">{escape(SCALE_MARK)}：只是计分比例不同。{escape(SCALE_NOTE)}.</p>')
    if depends_rows(doc):
        out.append(f'<p class="note">{escape(DEPENDS_MARK)}：取决于打法。{escape(DEPENDS_NOTE)}.</p>')
    zero = [m["id"] for m in doc["metrics"] if is_zero(doc, m["id"])]
    if zero:
        out.append(
            f'<p class="note">各规则下都为 0（未列出） 0 in every variant (not shown): {escape(", ".join(zero))}</p>'
        )
    out.append("</body></html>\n")
    return "\n".join(out)


def _differs(doc: dict[str, Any], metric: str) -> bool:
    """A finding for some variant (a clear difference that is not only a change of scale)."""
    return any(metric in d["findings"] for d in doc["differences"])


def _governed_section(doc: dict[str, Any], names: list[str]) -> list[str]:
    """The events each differing rule governs: how often per variant, the paired difference, power."""
    found = governed_rows(doc)
    if not found:
        return []
    base = doc["baseline"]
    matches = bool(doc["match_hands"])
    metrics = {m["id"]: m for m in doc["metrics"]}
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    head += "".join(f"<th>{escape(n)} − {escape(base)}</th><th>能看出 detectable</th>" for n in names[1:])
    rows = [f"<table><tr><th>规则 rule</th><th>事件 event</th>{head}</tr>"]
    for rules, mids in found:
        for i, mid in enumerate(mids):
            m = metrics[mid]
            named = "<br>".join(f"{escape(r['zh'])} <code>{escape(r['path'])}</code>" for r in rules)
            label = f'<td rowspan="{len(mids)}">{named}</td>' if i == 0 else ""
            cells = "".join(
                f'<td class="num">{escape(fmt_value(x["metrics"][mid]["mean"], m["kind"]))}</td>'
                for x in doc["results"]
            )
            for d in doc["differences"]:
                e = d["metrics"][mid]
                cells += f'<td class="num {"clear" if e["clear"] else "unclear"}">{escape(fmt_difference(e, m["kind"]))}</td>'
                cells += f'<td class="num">{escape(power_cell(d["power"][mid], matches))}</td>'
            rows.append(f"<tr>{label}<td>{escape(m['zh'])} <code>{escape(mid)}</code></td>{cells}</tr>")
    rows.append("</table>")
    unit = "场" if matches else "副牌"
    return [
        "<h2>规则管的事件 Events the differing rules govern (per hand)</h2>",
        f'<p class="note">能看出：真有这么大的变化时，这 {doc["deals"]} {unit}五次里有四次判为明显；'
        f"25%：要看出基准值四分之一的变化约需的{unit}数。Detectable: the change these {doc['deals']} "
        f"{'matches' if matches else 'deals'} see clear of 0 four times in five; 25%: how many it takes "
        "to see a change of a quarter of the baseline's value.</p>",
        _wrap("\n".join(rows)),
    ]


def _units_section(doc: dict[str, Any], names: list[str]) -> list[str]:
    """Points metrics in each variant's own 头科 units, when some variant's unit differs."""
    units = [v["score_unit"] for v in doc["variants"]]
    if all(u == units[0] for u in units) or not all(units):
        return []
    base = doc["baseline"]
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    head += "".join(f"<th>{escape(n)} − {escape(base)}</th>" for n in names[1:])
    rows = [f"<table><tr><th>指标</th><th>metric</th>{head}</tr>"]
    for m in doc["metrics"]:
        if not m.get("points") or is_zero(doc, m["id"]):
            continue
        cells = "".join(
            f'<td class="num">{escape(fmt_estimate(r["in_units"][m["id"]], "num"))}</td>' for r in doc["results"]
        )
        for d in doc["differences"]:
            e = d["in_units"][m["id"]]
            cells += f'<td class="num {"clear" if e["clear"] else "unclear"}">{escape(fmt_difference(e, "num"))}</td>'
        rows.append(f"<tr><td>{escape(m['zh'])}</td><td><code>{escape(m['id'])}</code></td>{cells}</tr>")
    rows.append("</table>")
    legend = "，".join(f"{escape(n)} 1 单位 = {u} 分" for n, u in zip(names, units, strict=True))
    return [
        "<h2>按头科分折算 Scores in units of each variant's own 头科 score</h2>",
        f'<p class="note">{legend}。In units, a change of scoring scale alone gives no difference.</p>',
        _wrap("\n".join(rows)),
    ]


def _sides_section(doc: dict[str, Any]) -> list[str]:
    """Who played, per side, and each agent's measured edge over greedy."""
    rows = [
        "<table><tr><th>方 side</th><th>座位 seats</th><th>机器人 agent</th><th>测于 under</th>"
        "<th>比 greedy 每局多 edge</th><th>来源 source</th></tr>"
    ]
    for side in doc.get("sides", []):
        s = side["strength"][0]
        seats = " ".join(str(x) for x in side["seats"])
        if s["edge"] is None:
            cells = "<td>—</td><td>未测 unmeasured</td><td></td>"
        else:
            under = s["measured_under"] + ("" if s["exact"] else f"（最接近，相差 {s['rules_apart']} 条规则）")
            edge = f"{s['edge']:+.2f} [{s['low']:+.2f}, {s['high']:+.2f}]".replace("-", "−")
            cells = f'<td>{escape(under)}</td><td class="num">{escape(edge)}</td><td>{escape(s["source"])}</td>'
        rows.append(f"<tr><td>{side['side']}</td><td>{seats}</td><td>{escape(side['agent'])}</td>{cells}</tr>")
    rows.append("</table>")
    notes = []
    told: set[tuple[str, str]] = set()
    for side in doc.get("sides", []):
        for p in never_saw_parts(side):
            if (side["agent"], p["part"]) not in told:
                told.add((side["agent"], p["part"]))
                unseen_how = (
                    ("这些决定由它的默认方式作出", "made by its default chooser")
                    if p["kinds"]
                    else ("它在这条规则下的打法没有训练过", "its play under it is untrained")
                )
                notes.append(
                    f"<p>{escape(side['agent'])} 训练时没有见过{escape(p['zh'])}（{escape(p['part'])}）：{unseen_how[0]}。 "
                    f"{escape(side['agent'])} never saw {escape(p['part'])}: {unseen_how[1]}.</p>"
                )
        over, outside = trained_over_parts(side)
        if over and ("trained", side["agent"]) not in told:
            told.add(("trained", side["agent"]))
            flag = (
                f"{escape('、'.join(outside))} 不在其中，它在这套规则下的打法没有经过训练。"
                f" Outside them: {escape(', '.join(outside))}."
                if outside
                else ""
            )
            notes.append(
                f'<p class="trained">{escape(side["agent"])} 训练时用过的规则 trained over：{escape("、".join(over))}。{flag}</p>'
            )
        guards = guards_of(side)
        if guards and ("guards", side["agent"]) not in told:
            told.add(("guards", side["agent"]))
            notes.append(
                f'<p class="guards">{escape(guards_zh(side))} {escape(side["agent"])} is guarded against '
                f"{escape(', '.join(guards))}: where its network would make one, it plays its best choice that is none.</p>"
            )
    c = doc.get("cross_check")
    if c and c.get("agents"):
        budget = c.get("budget")
        how = f"（每步 {budget['worlds']} 个模拟世界、{budget['candidates']} 个候选）" if budget else ""
        notes.append(
            f"<p>对照检查 cross-check：同样的牌又由 {escape(c['agents'])}{how}打了一遍。"
            f"The same deals again with {escape(c['agents'])}.</p>"
        )
    elif c and c.get("skipped"):
        notes.append(f"<p>没有做对照检查 no cross-check: {escape(c['skipped'])}.</p>")
    return ["<h2>对局者 Who played</h2>", _wrap("\n".join(rows)), *notes]


def _depends_section(doc: dict[str, Any]) -> list[str]:
    """取决于打法: the differences the two agents do not agree on, each agent's difference side by side."""
    c = cross_check(doc)
    if c is None:
        return []
    found = depends_rows(doc)
    head = [
        '<section class="depends"><h2>取决于打法 Depends on how people play</h2>',
        f'<p class="note">同样的牌由 {escape(doc["agents"])} 和 {escape(c["agents"])} 各打一遍；只有一种看得出、'
        "或两种方向相反的差别列在这里，不算规则的结果。 Clear for one agent only, or in opposite directions: "
        "not counted as findings.</p>",
    ]
    if not found:
        return [
            *head,
            "<p>没有：每个结果两种机器人都看得出，方向一致。None: every finding holds for both.</p></section>",
        ]
    base = doc["baseline"]
    rows = [
        f"<table><tr><th>指标</th><th>metric</th><th>variant</th><th>{escape(doc['agents'])}</th>"
        f"<th>{escape(c['agents'])}</th></tr>"
    ]
    for label, m, e in found:
        kind = "num" if e["in_units"] else m["kind"]
        cells = "".join(
            f'<td class="num {"clear" if x["clear"] else "unclear"}">{escape(fmt_difference(x, kind))}</td>'
            for x in (e["compared"], e["cross"])
        )
        unit = "（头科分）" if e["in_units"] else ""
        rows.append(
            f"<tr><td>{escape(m['zh'])}{unit}</td><td><code>{escape(m['id'])}</code></td>"
            f"<td>{escape(label)} − {escape(base)}</td>{cells}</tr>"
        )
    rows.append("</table>")
    return [*head, _wrap("\n".join(rows)), "</section>"]


def _metrics_table(doc: dict[str, Any], names: list[str]) -> str:
    rows = [
        "<table><tr><th>指标</th><th>metric</th>"
        + "".join(f"<th>{escape(n)}</th>" for n in names)
        + "<th>图 chart</th></tr>"
    ]
    for m in doc["metrics"]:
        if is_zero(doc, m["id"]):
            continue
        ests = [r["metrics"][m["id"]] for r in doc["results"]]
        cells = "".join(f'<td class="num">{escape(fmt_estimate(e, m["kind"]))}</td>' for e in ests)
        f, unit = _units(m["kind"], diff=False)
        chart = interval_chart(
            [(*_scaled(e, f), _color(i), True) for i, e in enumerate(ests)], False, labels=names, unit=unit
        )
        cls = ' class="differs"' if _differs(doc, m["id"]) else ""
        rows.append(
            f'<tr{cls}><td>{escape(m["zh"])}</td><td title="{escape(m["en"])}"><code>{escape(m["id"])}</code></td>'
            f"{cells}<td>{chart}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _differences_table(doc: dict[str, Any], names: list[str]) -> str:
    base = doc["baseline"]
    head = "".join(f"<th>{escape(n)} − {escape(base)}</th>" for n in names[1:])
    rows = [f"<table><tr><th>指标</th><th>metric</th>{head}<th>图 chart</th></tr>"]
    for m in doc["metrics"]:
        if is_zero(doc, m["id"]):
            continue
        ests = [d["metrics"][m["id"]] for d in doc["differences"]]
        marks = [
            f" {SCALE_MARK}"
            if m["id"] in d["scale"]["only_scale"]
            else f" {DEPENDS_MARK}"
            if m["id"] in (d.get("depends_on_play") or ())
            else ""
            for d in doc["differences"]
        ]
        cells = "".join(
            f'<td class="num {"clear" if e["clear"] else "unclear"}">{escape(fmt_difference(e, m["kind"]) + mark)}</td>'
            for e, mark in zip(ests, marks, strict=True)
        )
        f, unit = _units(m["kind"], diff=True)
        chart = interval_chart(
            [(*_scaled(e, f), _color(i + 1), bool(e["clear"])) for i, e in enumerate(ests)],
            True,
            labels=[f"{n} − {base}" for n in names[1:]],
            unit=unit,
        )
        cls = ' class="differs"' if _differs(doc, m["id"]) else ""
        rows.append(
            f'<tr{cls}><td>{escape(m["zh"])}</td><td title="{escape(m["en"])}"><code>{escape(m["id"])}</code></td>'
            f"{cells}<td>{chart}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)
