"""The review as a club reads it: lines of text (``gouji review``), Chinese first, seats 1-6.

Seats are counted 1-6 here, as on the phones and the printed sheets; the JSON (:meth:`Review.to_json`)
counts them 0-5, as records and the bot protocol do.
"""

from __future__ import annotations

from .core import DISPUTED, MISTAKE, VERDICT_WORDS, Decision, Review

MODE_WORDS = {
    "lead": ("首出", "lead"),
    "follow": ("跟牌", "follow"),
    "burn": ("烧牌", "burn"),
    "kou": ("扣牌", "kou"),
    "consent": ("接风", "jiefeng answer"),
}


def signed(x: float | None) -> str:
    """A value with its sign (``+0.50``), ``?`` where there is none."""
    return "?" if x is None else f"{x:+.2f}"


def span(d: Decision) -> str:
    """The difference and its interval: ``+1.00 [+0.62, +1.38]``; ``?`` with no world drawn."""
    if d.diff.n == 0:
        return "?"
    if d.diff.low is None:
        return f"{signed(d.diff.mean)} [?]"
    return f"{signed(d.diff.mean)} [{signed(d.diff.low)}, {signed(d.diff.high)}]"


def decision_line(d: Decision, lang: str = "zh") -> str:
    """One decision: where, what was played, the agent's best, the difference in 头科 and the mark."""
    en = lang == "en"
    mode = MODE_WORDS.get(d.mode, (d.mode, d.mode))[1 if en else 0]
    mark = VERDICT_WORDS[d.verdict][1 if en else 0]
    played = d.played.en if en else d.played.zh
    best = d.best.en if en else d.best.zh
    if en:
        head = f"hand {d.hand} step {d.step:>3} {mode:<7} played {played:<14}"
        tail = "  = agent's choice" if d.agreed else f"  best {best:<14} {span(d)} 头科"
    else:
        head = f"第{d.hand}手 第{d.step:>3}步 {mode} 打出 {played:<12}"
        tail = "  与AI相同" if d.agreed else f"  AI选 {best:<12} 差 {span(d)} 头科"
    return head + tail + (f"  【{mark}】" if mark else "")


def summary_line(r: Review, lang: str = "zh") -> str:
    """Agreement, marks, and what was left out (forced moves, decisions between hands)."""
    ds = r.decisions
    agreed = sum(d.agreed for d in ds)
    forced = sum(h.forced for h in r.hands)
    between = sum(h.between for h in r.hands)
    rate = "—" if r.agreement is None else f"{r.agreement:.0%}"
    if lang == "en":
        return (
            f"agreement with the agent {rate} ({agreed}/{len(ds)}), {r.count(MISTAKE)} mistake(s), "
            f"{r.count(DISPUTED)} disputed; {forced} forced move(s) skipped, {between} decision(s) between hands not valued"
        )
    return (
        f"与AI一致率 {rate}（{agreed}/{len(ds)}），失误 {r.count(MISTAKE)}，有争议 {r.count(DISPUTED)}；"
        f"只有一种走法的 {forced} 步不计，牌局之间的决定 {between} 个未估值"
    )


def head_line(r: Review, lang: str = "zh") -> str:
    """Whose review, under which rules, and the budget that decides how sure it is."""
    b = r.budget
    if lang == "en":
        return (
            f"review of seat {r.seat + 1} under {r.variant}: {len(r.hands)} hand(s), {b.worlds} worlds a decision, "
            f"{b.candidates} candidates, seed {b.seed}; differences in 头科 scores with 95% intervals"
        )
    return (
        f"复盘 第{r.seat + 1}座（{r.variant}）：{len(r.hands)} 手，每步 {b.worlds} 个世界、{b.candidates} 个候选、"
        f"种子 {b.seed}；差值以头科分为单位，括号内为95%区间"
    )


def review_lines(r: Review, lang: str = "zh") -> list[str]:
    """The whole review as lines of text."""
    return [head_line(r, lang), *(decision_line(d, lang) for d in r.decisions), summary_line(r, lang)]


__all__ = ["MODE_WORDS", "decision_line", "head_line", "review_lines", "span", "summary_line"]
