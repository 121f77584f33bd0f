"""The comparison as one self-contained HTML file: tables and inline SVG charts, no network, printable.

Everything a reader needs is inside the file (styles, charts as SVG elements),
so it can be mailed to a club, opened offline, or printed.  Each metric gets its
own small interval chart on its own scale, because the metrics live on very
different scales (two hundred decisions a hand, a burn every twenty hands).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from .report import CLEAR_NOTE, _show, fmt_difference, fmt_estimate, is_zero

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")

STYLE = """
body { font-family: system-ui, "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif;
       margin: 1.5em auto; max-width: 72em; color: #222; line-height: 1.35; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .4em 0; font-size: .9em; }
th, td { padding: .15em .6em; border-bottom: 1px solid #eee; text-align: left; vertical-align: middle; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.clear { font-weight: 600; } td.unclear { color: #777; }
.legend span { display: inline-block; margin-right: 1.2em; }
.legend i { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -.1em; }
.note { color: #555; font-size: .85em; }
svg text { font-size: 10px; fill: #333; }
@media print { body { margin: 0; max-width: none; font-size: 9pt; } tr, svg { page-break-inside: avoid; } }
"""


def _color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _num(x: float) -> str:
    return f"{x:.1f}"


def score_chart(dist: list[dict[str, Any]], width: int = 720, height: int = 220) -> str:
    """Grouped bars: for each score difference, the share of hands (or matches) under each variant."""
    values = sorted({int(k) for d in dist for k in d["counts"]})
    shares = []
    for d in dist:
        total = sum(d["counts"].values()) or 1
        shares.append([d["counts"].get(str(v), 0) / total for v in values])
    top = max((s for row in shares for s in row), default=0) or 1
    left, bottom, right, up = 40, 30, 10, 10
    plot_w, plot_h = width - left - right, height - bottom - up
    group = plot_w / max(1, len(values))
    bar = group * 0.8 / max(1, len(dist))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="score difference distribution">'
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
            f'<text x="{_num(left + (gi + 0.5) * group)}" y="{height - 12}" text-anchor="middle">{label}</text>'
        )
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{up + plot_h}" y2="{up + plot_h}" stroke="#333"/>')
    parts.append("</svg>")
    return "".join(parts)


def interval_chart(
    items: Sequence[tuple[float, float | None, float | None, str, bool]], zero: bool, width: int = 260
) -> str:
    """One row per (mean, low, high, colour, emphasised): a dot and its interval on a shared scale.

    With ``zero`` the scale always includes 0 and a line marks it (for differences).
    """
    row_h = 12
    height = row_h * len(items) + 6
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
    pad = 6

    def x(v: float) -> str:
        return _num(pad + (width - 2 * pad) * (v - lo_all) / span)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">']
    if zero:
        parts.append(f'<line x1="{x(0)}" x2="{x(0)}" y1="0" y2="{height}" stroke="#999" stroke-dasharray="2,2"/>')
    for i, (m, lo, hi, color, strong) in enumerate(items):
        y = _num(3 + row_h * i + row_h / 2)
        if lo is not None and hi is not None:
            sw = 2.5 if strong else 1.2
            parts.append(f'<line x1="{x(lo)}" x2="{x(hi)}" y1="{y}" y2="{y}" stroke="{color}" stroke-width="{sw}"/>')
        fill = color if strong or not zero else "white"
        parts.append(f'<circle cx="{x(m)}" cy="{y}" r="3" fill="{fill}" stroke="{color}"/>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(doc: dict[str, Any]) -> str:
    """The whole report as one HTML document."""
    names = [v["label"] for v in doc["variants"]]
    base = doc["baseline"]
    title = f"够级 variants compared: {' vs '.join(names)}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="zh-CN"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">{doc["deals"]} {"matches" if doc["match_hands"] else "deals"} × 2 seatings'
        + (f" × {doc['match_hands']} hands" if doc["match_hands"] else "")
        + f" = {doc['hands_per_variant']} hands per variant; "
        f"seed {doc['seed']}; agents {escape(doc['agents'])}; baseline {escape(base)}. "
        f"{escape(doc['method'])}.</p>",
        '<p class="legend">'
        + "".join(f'<span><i style="background:{_color(i)}"></i>{escape(n)}</span>' for i, n in enumerate(names))
        + "</p>",
        "<table><tr><th>variant</th><th>title</th><th>source</th><th>given as</th></tr>",
    ]
    for v in doc["variants"]:
        out.append(
            f"<tr><td>{escape(v['label'])}</td><td>{escape(v['title'])}</td>"
            f"<td>{escape(v['source'])}</td><td>{escape(v['spec'])}</td></tr>"
        )
    out.append("</table>")
    out.append(f"<h2>规则差异 Rule differences ({len(doc['rule_differences'])})</h2>")
    if doc["rule_differences"]:
        out.append("<table><tr><th>rule</th><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>")
        for d in doc["rule_differences"]:
            cells = "".join(f"<td>{escape(_show(v))}</td>" for v in d["values"])
            out.append(f"<tr><td><code>{escape(d['path'])}</code></td><td>{escape(d['zh'])}</td>{cells}</tr>")
        out.append("</table>")
    else:
        out.append("<p>None: the variants have the same rules.</p>")
    out.append("<h2>比分差分布 Score difference per hand (team 0 − team 1)</h2>")
    out.append(score_chart(doc["score_distribution"]))
    if "match_score_distribution" in doc:
        out.append(f"<h2>整场比分差分布 Score difference per match of {doc['match_hands']} hands</h2>")
        out.append(score_chart(doc["match_score_distribution"]))
    out.append("<h2>指标 Metrics per hand (mean ±95% half-interval)</h2>")
    out.append(_metrics_table(doc, names))
    if doc["differences"]:
        out.append(f"<h2>差值 Paired differences to {escape(base)}</h2>")
        out.append(f'<p class="note">{escape(CLEAR_NOTE)}. Bold: the interval is clear of 0.</p>')
        out.append(_differences_table(doc, names))
    zero = [m["id"] for m in doc["metrics"] if is_zero(doc, m["id"])]
    if zero:
        out.append(f'<p class="note">0 in every variant (not shown): {escape(", ".join(zero))}</p>')
    out.append("</body></html>\n")
    return "\n".join(out)


def _metrics_table(doc: dict[str, Any], names: list[str]) -> str:
    rows = [
        "<table><tr><th>指标</th><th>metric</th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "<th></th></tr>"
    ]
    for m in doc["metrics"]:
        if is_zero(doc, m["id"]):
            continue
        ests = [r["metrics"][m["id"]] for r in doc["results"]]
        cells = "".join(f'<td class="num">{escape(fmt_estimate(e, m["kind"]))}</td>' for e in ests)
        chart = interval_chart([(e["mean"], e["low"], e["high"], _color(i), True) for i, e in enumerate(ests)], False)
        rows.append(
            f'<tr><td>{escape(m["zh"])}</td><td title="{escape(m["en"])}"><code>{escape(m["id"])}</code></td>'
            f"{cells}<td>{chart}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _differences_table(doc: dict[str, Any], names: list[str]) -> str:
    base = doc["baseline"]
    head = "".join(f"<th>{escape(n)} − {escape(base)}</th>" for n in names[1:])
    rows = [f"<table><tr><th>指标</th><th>metric</th>{head}<th></th></tr>"]
    for m in doc["metrics"]:
        if is_zero(doc, m["id"]):
            continue
        ests = [d["metrics"][m["id"]] for d in doc["differences"]]
        cells = "".join(
            f'<td class="num {"clear" if e["clear"] else "unclear"}">{escape(fmt_difference(e, m["kind"]))}</td>'
            for e in ests
        )
        chart = interval_chart(
            [(e["mean"], e["low"], e["high"], _color(i + 1), bool(e["clear"])) for i, e in enumerate(ests)], True
        )
        rows.append(
            f'<tr><td>{escape(m["zh"])}</td><td title="{escape(m["en"])}"><code>{escape(m["id"])}</code></td>'
            f"{cells}<td>{chart}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)
