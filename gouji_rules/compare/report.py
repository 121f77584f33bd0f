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

from ..outputs import spreadsheet_cell

MAX_COLUMNS = 100  # the text report fits a 100-column terminal, whatever the number of variants
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


def _clear_changes(doc: dict[str, Any], diff: dict[str, Any]) -> list[tuple[float, str]]:
    """The clear differences of one variant to the baseline, largest relative change first, as Chinese phrases."""
    base = next(r for r in doc["results"] if r["variant"] == diff["baseline"])
    mine = next(r for r in doc["results"] if r["variant"] == diff["variant"])
    out = []
    for m in doc["metrics"]:
        e = diff["metrics"][m["id"]]
        if not e["clear"]:
            continue
        a, b = base["metrics"][m["id"]]["mean"], mine["metrics"][m["id"]]["mean"]
        more = "多" if e["mean"] > 0 else "少"
        if m["kind"] == "rate":
            phrase = f"{m['zh']}从 {100 * a:.1f}% 变为 {100 * b:.1f}%（{more} {abs(100 * e['mean']):.1f} 个百分点）"
        else:
            phrase = f"{m['zh']}从 {a:.2f} 变为 {b:.2f}（{more} {abs(e['mean']):.2f}）"
        out.append((abs(e["mean"]) / max(abs(a), abs(b), 1e-9), phrase))
    out.sort(key=lambda x: -x[0])
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
    """What the differing rules did, in plain Chinese: one paragraph per variant compared to the baseline."""
    base = doc["baseline"]
    hands = doc["hands_per_variant"]
    paras = [
        f"每套规则用同样的 {doc['deals']} 副牌各打 {hands} 局（每副牌换座再打一次，运气相互抵消），"
        f"差值按牌局配对，以 95% 区间判断是否明显。基准是 {base}。"
    ]
    diffs = doc["rule_differences"]
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
        if changes:
            shown = [p for _, p in changes[:most]]
            text += "结果：" + "；".join(shown) + "。"
            rest = total - len(changes)
            if len(changes) > most:
                text += f"另有 {len(changes) - most} 项也明显不同，见下表。"
            text += f"其余 {rest} 项指标没有明显差别。"
        else:
            text += f"在这 {hands} 局里，{total} 项指标都没有明显差别；想看得更清楚，可以加大 --hands。"
        paras.append(text)
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
            [shorten(d["path"], path_w), shorten(d["zh"], zh_w), *(shorten(_show(v), value_w) for v in d["values"])]
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
        row += [fmt_difference(d["metrics"][m["id"]], m["kind"]) for d in doc["differences"]]
        rows.append(row)
    out += fit_table(rows, keep=2, right=[False, False] + [True] * (len(header) - 2))
    if zero:
        out += wrap(f"0 in every variant (not shown): {', '.join(zero)}", indent="  ")
    out.append("")
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
)


def write_csv(doc: dict[str, Any], fh: IO[str]) -> None:
    """One row per variant and metric: its estimate, and (for all but the baseline) its paired difference."""
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(CSV_COLUMNS)  # variant labels are file names a user chose: every text cell is spreadsheet-safe
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
            w.writerow([spreadsheet_cell("" if x is None else x) for x in row])
