"""The review as one self-contained HTML page for a phone (390 px wide): no network, no script.

Each decision is a card: what was played, the agent's choice and the difference with its interval
drawn as a bar on a shared scale (so a wide interval looks unsure), the 失误/有争议 mark, and the
agent's top three choices behind a 提示 fold (``<details>``, no script needed).
"""

from __future__ import annotations

from html import escape

from .core import DISPUTED, DISPUTED_AT, MISTAKE, MISTAKE_AT, VERDICT_WORDS, Decision, Review
from .text import MODE_WORDS, head_line, span, summary_line

STYLE = """
* { box-sizing: border-box; }
body { margin: 0; padding: .6em .7em 2em; max-width: 40em; margin: 0 auto; color: #222; background: #fafafa;
       font: 16px/1.45 system-ui, -apple-system, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC",
       "Source Han Sans SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif; }
h1 { font-size: 1.25em; margin: .3em 0; color: #8b0000; }
p.head, p.note { color: #555; font-size: .9em; margin: .3em 0; }
p.sum { background: #fff; border-left: 4px solid #8b0000; padding: .4em .6em; }
div.d { background: #fff; border: 1px solid #e4e4e4; border-radius: 8px; padding: .5em .6em; margin: .5em 0; }
div.d.mistake { border-color: #b22222; border-width: 2px; } div.d.disputed { border-color: #b8860b; border-width: 2px; }
.where { color: #777; font-size: .85em; } .mark { float: right; font-weight: 700; }
.mistake .mark { color: #b22222; } .disputed .mark { color: #b8860b; }
.row { display: flex; justify-content: space-between; gap: .5em; flex-wrap: wrap; }
.bar { position: relative; height: 10px; background: #eee; border-radius: 5px; margin: .3em 0; }
.bar i { position: absolute; top: 0; height: 10px; background: #1f5fa8; border-radius: 5px; opacity: .6; }
.bar b { position: absolute; top: -3px; width: 2px; height: 16px; background: #222; }
.bar u { position: absolute; top: -3px; width: 1px; height: 16px; background: #b22222; }
details summary { color: #1f5fa8; cursor: pointer; padding: .2em 0; }
ol { margin: .2em 0 .2em 1.2em; padding: 0; }
p.jump a { display: inline-block; margin: .15em .3em .15em 0; padding: .25em .6em; border-radius: 999px;
           background: #fde8e8; color: #b22222; text-decoration: none; font-size: .9em; }
"""


def _pct(x: float, lo: float, hi: float) -> float:
    return 100 * (min(max(x, lo), hi) - lo) / (hi - lo)


def _bar(d: Decision, lo: float, hi: float) -> str:
    """The interval of (best − played) on the page's common scale; the red tick is 失误's threshold."""
    if d.diff.low is None or d.diff.high is None:
        return ""
    a, b = _pct(d.diff.low, lo, hi), _pct(d.diff.high, lo, hi)
    return (
        f'<div class="bar"><i style="left:{a:.1f}%;width:{max(b - a, 1):.1f}%"></i>'
        f'<b style="left:{_pct(d.diff.mean, lo, hi):.1f}%"></b><u style="left:{_pct(MISTAKE_AT, lo, hi):.1f}%"></u></div>'
    )


def _card(d: Decision, lo: float, hi: float) -> str:
    mode = MODE_WORDS.get(d.mode, (d.mode, d.mode))[0]
    mark = VERDICT_WORDS[d.verdict][0]
    hints = "".join(
        f"<li>{escape(c.zh)}" + (f" <small>({c.value:+.2f})</small>" if c.value is not None else "") + "</li>"
        for c in d.top
    )
    best = "与AI相同" if d.agreed else f"AI选 <b>{escape(d.best.zh)}</b>"
    diff = "" if d.agreed else f'<div class="row"><span>差 {escape(span(d))} 头科</span></div>{_bar(d, lo, hi)}'
    return (
        f'<div class="d {d.verdict}" id="d{d.hand}-{d.step}"><span class="mark">{escape(mark)}</span>'
        f'<div class="where">第{d.hand}手 第{d.step}步 · {escape(mode)} · {d.options} 种走法</div>'
        f'<div class="row"><span>打出 <b>{escape(d.played.zh)}</b></span><span>{best}</span></div>{diff}'
        f"<details><summary>提示：AI的前三选择</summary><ol>{hints}</ol></details></div>"
    )


def render_page(r: Review) -> str:
    """The review as a page (Chinese; the interval bars share one scale across the page)."""
    ends = [x for d in r.decisions for x in (d.diff.low, d.diff.high) if x is not None]
    lo, hi = min([-0.5, *ends]), max([1.0, *ends])
    cards = "".join(_card(d, lo, hi) for d in r.decisions)
    marked = [d for d in r.decisions if d.verdict in (MISTAKE, DISPUTED)]
    jump = "".join(
        f'<a href="#d{d.hand}-{d.step}">第{d.hand}手第{d.step}步 {VERDICT_WORDS[d.verdict][0]}</a> ' for d in marked
    )
    rate = "—" if r.agreement is None else f"{r.agreement:.0%}"
    mistakes = r.count(MISTAKE)
    return (
        '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>复盘 第{r.seat + 1}座 · {escape(r.variant)}</title><style>{STYLE}</style></head><body>"
        f'<h1>复盘 · 第{r.seat + 1}座</h1><p class="head">{escape(head_line(r))}</p>'
        f'<p class="sum">与AI一致率 <b>{rate}</b> · 失误 <b>{mistakes}</b> · 有争议 <b>{r.count(DISPUTED)}</b>'
        f"<br><small>{escape(summary_line(r))}</small></p>"
        + (f'<p class="jump">{jump}</p>' if jump else "")
        + f"{cards}"
        f'<p class="note">失误：区间下端 ≥ {MISTAKE_AT} 个头科分；有争议：≥ {DISPUTED_AT}。'
        "数值由学习型AI从本座自己的视角抽样其他人的牌并打完全手得出（不看真实的暗牌），"
        "同一批世界上成对比较；世界越多区间越窄。</p></body></html>\n"
    )


__all__ = ["STYLE", "render_page"]
