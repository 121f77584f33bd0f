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
from typing import IO, Any

CLEAR_NOTE = "≈0: the 95% interval contains 0, no clear difference"


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


def render_text(doc: dict[str, Any]) -> str:
    """The report for a terminal: rule differences, then the metrics table, then the score distribution."""
    names = [v["label"] for v in doc["variants"]]
    base = doc["baseline"]
    out = [
        f"比较 compare: {' vs '.join(names)} (基准 baseline {base})",
        f"{doc['deals']} {'matches' if doc['match_hands'] else 'deals'} × 2 seatings"
        + (f" × {doc['match_hands']} hands" if doc["match_hands"] else "")
        + f" = {doc['hands_per_variant']} hands per variant, "
        f"seed {doc['seed']}, agents {doc['agents']}",
        "",
    ]
    diffs = doc["rule_differences"]
    out.append(f"规则差异 rule differences ({len(diffs)})")
    if diffs:
        rule_rows = [["规则 rule", "", *names]]
        rule_rows += [[d["path"], shorten(d["zh"], 24), *(shorten(_show(v), 40) for v in d["values"])] for d in diffs]
        out += table(rule_rows)
    else:
        out.append("  (none: the variants have the same rules)")
    out.append("")
    out.append(f"指标 metrics, per hand, mean ±95% half-interval; differences paired by deal ({CLEAR_NOTE})")
    header = ["指标", "metric", *names, *(f"{n} − {base}" for n in names[1:])]
    rows: list[list[str]] = [header]
    zero: list[str] = []
    for m in doc["metrics"]:
        if is_zero(doc, m["id"]):
            zero.append(m["id"])
            continue
        row = [m["zh"], m["id"]]
        row += [fmt_estimate(r["metrics"][m["id"]], m["kind"]) for r in doc["results"]]
        row += [fmt_difference(d["metrics"][m["id"]], m["kind"]) for d in doc["differences"]]
        rows.append(row)
    out += table(rows, right=[False, False] + [True] * (len(header) - 2))
    if zero:
        out.append(f"  0 in every variant (not shown): {', '.join(zero)}")
    out.append("")
    out.append("比分差分布 score difference per hand (team 0 − team 1), % of hands")
    out += table(distribution_rows(doc["score_distribution"], names), right=[True] * (len(names) + 1))
    if "match_score_distribution" in doc:
        out.append("")
        out.append(f"整场比分差分布 score difference per match of {doc['match_hands']} hands, % of matches")
        out += table(distribution_rows(doc["match_score_distribution"], names), right=[True] * (len(names) + 1))
    return "\n".join(out) + "\n"


def distribution_rows(dist: Sequence[dict[str, Any]], names: Sequence[str]) -> list[list[str]]:
    """A header and one row per score difference: the share of hands (or matches) per variant."""
    values = sorted({int(k) for d in dist for k in d["counts"]})
    rows = [["分差 diff", *names]]
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
)


def write_csv(doc: dict[str, Any], fh: IO[str]) -> None:
    """One row per variant and metric: its estimate, and (for all but the baseline) its paired difference."""
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    diffs = {d["variant"]: d for d in doc["differences"]}
    for r in doc["results"]:
        d = diffs.get(r["variant"])
        for m in doc["metrics"]:
            e = r["metrics"][m["id"]]
            row: list[Any] = [r["variant"], m["id"], m["zh"], m["kind"], doc["deals"], e["mean"], e["low"], e["high"]]
            if d is None:
                row += ["", "", "", "", ""]
            else:
                de = d["metrics"][m["id"]]
                row += [d["baseline"], de["mean"], de["low"], de["high"], "true" if de["clear"] else "false"]
            w.writerow(["" if x is None else x for x in row])
