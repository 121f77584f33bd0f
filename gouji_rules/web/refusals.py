"""Why the rules refuse an entered hand, in words a table reads: the players named, seats counted 1–6,
the clause in brackets.

The refusal itself is the engine's (``outcome.verify_outcome`` raising IllegalAction with a rule id and
the clause); this module only words it.  The seats a refusal is about are the ones the engine names in
its message (``burn 0:3: …``, ``seat 4``), so nothing about the rules is decided here again.  A rule id
without its own words still gets a Chinese sentence, never the engine's English.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..dsl.cite import cite
from ..errors import IllegalAction

Names = list[str]

_ZH: dict[str, str] = {
    "places": "名次必须从头科到最后一名，每人一个",
    "open_point": "这套规则没有开点",
    "geming_out": "革命的人不打这一局，不能开点",
    "burn": "这套规则没有烧牌",
    "burn_enabled": "这套规则没有烧牌",
    "burn_once": "一局里一个人只能烧成功一次",
    "burn_open_point": "没开点的人不能烧牌",
    "burn_after_pass": "这一轮已经不要的人不能烧牌",
    "burn_self": "不能烧自己",
    "burn_opposite": "对头的够级牌由对头来管，不能烧",
    "burn_teammate": "不能烧同伴的够级牌",
    "counter_burn": "这套规则不许这样反烧",
    "burn_fail": "诈烧的人不能同时烧成功，也不能是开局前已定名次的人，一局只算一次",
    "men_enabled": "这套规则没有闷/清",
    "men_self": "不能闷自己",
    "men_burn": "被闷（清）到最后的人不是出完牌走的，他的烧牌不能成功",
    "placed_bottom": "中途离场（诈烧或被闷）的人排在最后几名，越重的越靠后",
    "burn_went_out": "烧牌成功的人必须出完了牌，不能是最后剩在场上的那一个",
    "declaration": "这套规则没有这种宣点",
    "declare": "宣点/明点/预点一局一人只能一次；明点在革命、冲点之后，不能由已定名次的人宣，也不能宣他们",
    "geming": "革命不能这样登记（这套规则没有革命，或同一个人革命了两次）",
    "geming_void": "这么多人革命，这一局作废，重新发牌",
    "geming_place": "革命的人的名次不是规则给的名次",
    "chongdian": "冲点不能这样登记（这套规则没有冲点，或同一个人冲了两次，或革命后又冲点）",
    "chongdian_redeal": "这么多人冲点，要重新发牌",
    "chongdian_place": "冲点的人的名次不是规则给的名次",
    "no_three": "买不到3的人算做大落，不打这一局（不能开点，一局只算一次，不能又革命或冲点）",
    "no_three_place": "买不到3的人的名次不是规则给的名次（算做大落）",
    "waive": "这里没有可以免的贡（只有给同伴的贡才能免）",
}
_EN: dict[str, str] = {
    "places": "each place from first to last goes to one player",
    "burn_self": "nobody burns his own set",
    "burn_opposite": "the opposite answers a 够级 set; he does not burn it",
    "burn_teammate": "a teammate's 够级 set may not be burned",
    "placed_bottom": "players who left play (诈烧 or 闷) take the last places, the more severe lower",
}
# burn_who and men carry several refusals under one id: the engine's message tells which
_BY_TEXT: list[tuple[str, str, str]] = [
    ("burn_who", "oneself", "不能烧自己"),
    ("burn_who", "the opposite", "对头的够级牌由对头来管，不能烧"),
    ("burn_who", "a teammate", "这套规则不许烧同伴"),
    ("burn_who", "does not play", "革命或冲点的人不打这一局，不能烧也不能被烧"),
    ("men", "does not play", "革命或冲点的人不打这一局，不能闷也不能被闷"),
    ("men", "once a hand", "一局里一个人只能被闷一次"),
    ("men", "failed burner", "诈烧的人已经离场，不能再被闷"),
]

_PREFIX: list[tuple[re.Pattern[str], Callable[[Names, re.Match[str]], str]]] = [
    (re.compile(r"^burn fail (\d)"), lambda n, m: f"诈烧：{n[int(m[1])]}"),
    (re.compile(r"^burn (\d):(\d)"), lambda n, m: f"{n[int(m[1])]} 烧 {n[int(m[2])]}"),
    (re.compile(r"^men (\d):(\d)"), lambda n, m: f"{n[int(m[1])]} 被 {n[int(m[2])]} 闷"),
    (re.compile(r"^opened (\d)"), lambda n, m: f"{n[int(m[1])]} 开点"),
    (re.compile(r"^declare (\w+):(\d)"), lambda n, m: f"{n[int(m[2])]} {_kind(m[1])}"),
    (re.compile(r"^waive (\d):(\d)"), lambda n, m: f"{n[int(m[1])]} 免给 {n[int(m[2])]} 进贡"),
]


def _kind(kind: str) -> str:
    return {"xuandian": "宣点", "mingdian": "明点", "yudian": "预点"}.get(kind, kind)


def _who(names: Names, seat: int) -> str:
    return f"{names[seat]}（{seat + 1}号）"


def _wanted_places(message: str, place_names: list[str]) -> str:
    """The places the engine says 革命 / 冲点 players take (``… at 6 (or 1)``, ``冲点 at 4 and 5``), by name."""
    out = []
    for m in re.finditer(r"(革命|冲点)(?: seat (\d))? at ([\d ,()orand]+)", message):
        places = [place_names[int(p) - 1] for p in re.findall(r"\d", m[3]) if 1 <= int(p) <= len(place_names)]
        if places:
            out.append(f"{m[1]}的人应是{'或'.join(places) if m[1] == '革命' else '、'.join(places)}")
    return "，".join(out)


def refusal(e: IllegalAction, names: Names, lang: str, place_names: list[str] | None = None) -> str:
    """One sentence: what was refused (players named) and why, the clause in brackets."""
    named = cite(e.clause) if e.clause else ""
    clause = f"（{named}）" if lang == "zh" and named else f" ({named})" if named else ""
    if lang != "zh":
        text = _EN.get(e.rule, e.message)
        text = re.sub(r"\b([0-5]):([0-5])\b", lambda m: f"{names[int(m[1])]} → {names[int(m[2])]}", text)
        text = re.sub(r"\b(seat|opened|fail) ([0-5])\b", lambda m: f"{names[int(m[2])]} (seat {int(m[2]) + 1})", text)
        return f"The rules refuse this result: {text}{clause}"
    why = _ZH.get(e.rule, "")
    for rule, needle, words in _BY_TEXT:
        if e.rule == rule and needle in e.message:
            why = words
            break
    what = ""
    for pattern, say in _PREFIX:
        m = pattern.match(e.message)
        if m:
            what = say(names, m)
            break
    seats = sorted({int(s) for s in re.findall(r"\bseat (\d)\b", e.message)})
    if not what and seats:
        what = "、".join(_who(names, s) for s in seats)
    why = why or "这个结果不可能在这套规则下打出来"
    if e.rule in ("geming_place", "chongdian_place") and place_names:
        wanted = _wanted_places(e.message, place_names)
        why = f"{why}：{wanted}" if wanted else why
    return f"规则不接受这个结果：{what + '——' if what else ''}{why}{clause}"


def finish_problem(finish: list[str], names: Names, place_names: list[str], lang: str) -> str:
    """What is wrong with a finishing order that is not six different players, or ``""``."""
    chosen = [int(v) for v in finish if v.isdigit()]
    twice = sorted({s for s in chosen if chosen.count(s) > 1})
    missing = [s for s in range(6) if s not in chosen]
    if not twice and not missing and len(chosen) == 6:
        return ""
    zh = lang == "zh"
    parts = []
    for s in twice:
        at = [place_names[i] for i, v in enumerate(finish) if v == str(s)]
        parts.append(
            f"{_who(names, s)} 选了两次（{'、'.join(at)}）" if zh else f"{names[s]} is chosen twice ({', '.join(at)})"
        )
    empty = [place_names[i] for i, v in enumerate(finish) if not v.isdigit()]
    if empty:
        parts.append(f"{'、'.join(empty)} 还没选人" if zh else f"nobody chosen for {', '.join(empty)}")
    if missing:
        who = "、".join(_who(names, s) for s in missing) if zh else ", ".join(names[s] for s in missing)
        parts.append(f"{who} 还没有名次" if zh else f"{who} has no place yet")
    if zh:
        return "名次要六个人各选一次：" + "；".join(parts) + "。"
    return "Choose each of the six players once: " + "; ".join(parts) + "."
