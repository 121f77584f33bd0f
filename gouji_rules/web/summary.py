"""A hand's result in words, for the side that confirms it and for everyone after: every fact entered
(烧, 诈烧, 闷/清, 开点, 革命, 冲点, 宣点/明点/预点, 免贡) and what follows from it next hand.

Nothing here decides anything.  The points, the next leader and the tribute owed are the engine's own
settlement: for an entry waiting for confirmation, ``club.score_entry`` (what ``gouji event record``
prints, via :func:`~gouji_rules.tournament.club.describe`); for a stored hand, the record stored with it.
Players are named, with their seat counted 1–6 in brackets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game.seats import side_seats
from ..phases.base import club_entries
from ..tournament import club
from ..tournament.event import Tournament

KIND_ZH = {"xuandian": "宣点", "mingdian": "明点", "yudian": "预点"}
TRIBUTE_EN = {
    "point": "point tribute (点贡)",
    "burn": "burn tribute (烧贡)",
    "men": "men tribute (闷贡/清贡)",
    "place": "place tribute (落贡/拉贡)",
    "sweep": "sweep tribute (串三户贡)",
}


@dataclass
class Summary:
    """What a hand decided, line by line: ``facts`` (what was entered) and ``next`` (what follows)."""

    places: str
    points: str
    facts: list[str] = field(default_factory=list)
    next: list[str] = field(default_factory=list)


def who(names: list[str], seat: int, lang: str) -> str:
    """A player as people at the table read them: the name, the seat counted 1–6."""
    return f"{names[seat]}（{seat + 1}号）" if lang == "zh" else f"{names[seat]} (seat {seat + 1})"


def _list(names: list[str], seats: list[int], lang: str) -> str:
    return ("、" if lang == "zh" else ", ").join(who(names, s, lang) for s in seats)


def of_scored(event: Tournament, sc: club.Scored, lang: str) -> Summary:
    """The summary of an entry the engine has just checked and settled."""
    st = sc.settlement
    debts = [d.__dict__ for d in sc.debts]
    return _summary(event, sc.result, sc.names, list(st.scores), st.sweep, st.next_leader, debts, lang)


def of_stored(
    event: Tournament, record: dict[str, Any], result: dict[str, Any], names: list[str], lang: str
) -> Summary:
    """The summary of a stored hand, from the settlement stored with it."""
    return _summary(
        event,
        result,
        names,
        list(record["scores"]),
        record.get("sweep"),
        int(record["next_leader"]),
        list(record.get("debts_next", [])),
        lang,
    )


def _summary(
    event: Tournament,
    result: dict[str, Any],
    names: list[str],
    scores: list[int],
    sweep: int | None,
    leader: int,
    debts: list[dict[str, Any]],
    lang: str,
) -> Summary:
    zh = lang == "zh"
    rules = event.variant.rules
    place_names = list(rules.places_names)
    finish = [int(s) for s in result["finish"]]
    sep = " · "
    places = sep.join(f"{place_names[i]} {who(names, s, lang)}" for i, s in enumerate(finish))
    sides = [" ".join(names[s] for s in side_seats(team)) for team in (0, 1)]
    if zh:
        points = f"得分：A方（{sides[0]}）{scores[0]} : B方（{sides[1]}）{scores[1]}"
        if sweep is not None:
            points += f"；{'AB'[sweep]}方串三户"
    else:
        points = f"Points: side A ({sides[0]}) {scores[0]} : side B ({sides[1]}) {scores[1]}"
        if sweep is not None:
            points += f"; 串三户 (sweep) by side {'AB'[sweep]}"
    out = Summary(places, points)
    f = out.facts
    for a, b in result.get("burns", []):
        f.append(
            f"烧：{who(names, a, lang)} 烧了 {who(names, b, lang)}"
            if zh
            else f"Burn (烧): {who(names, a, lang)} burned {who(names, b, lang)}"
        )
    fails = [int(s) for s in result.get("burn_fails", [])]
    if fails:
        f.append(
            f"诈烧（烧牌失败）：{_list(names, fails, lang)}"
            if zh
            else f"Failed burn (诈烧): {_list(names, fails, lang)}"
        )
    for v, by in result.get("men", []):
        f.append(
            f"闷/清：{who(names, v, lang)} 被 {who(names, by, lang)} 闷"
            if zh
            else f"Men (闷/清): {who(names, v, lang)}, by {who(names, by, lang)}"
        )
    no_three = [int(s) for s in result.get("no_three", [])]
    if no_three:
        f.append(
            f"买不到3（算做大落）：{_list(names, no_three, lang)}"
            if zh
            else f"No 3 after buying (placed last): {_list(names, no_three, lang)}"
        )
    geming = [int(s) for s in result.get("geming", [])]
    if geming:
        f.append(f"革命：{_list(names, geming, lang)}" if zh else f"Geming (革命): {_list(names, geming, lang)}")
    for s, how in result.get("chongdian", []):
        ok = how == "ok"
        if zh:
            f.append(f"冲点：{who(names, int(s), lang)} {'成功' if ok else '失败'}")
        else:
            f.append(f"Chongdian (冲点): {who(names, int(s), lang)} {'succeeded' if ok else 'failed'}")
    if rules.has_open_point():
        opened = {int(s) for s in result.get("opened", [])}
        playing = [s for s in range(6) if s not in geming and s not in no_three]
        yes = [s for s in playing if s in opened]
        no = [s for s in playing if s not in opened]
        if zh:
            f.append("开点：都开了" if not no else "开点：" + (_list(names, yes, lang) or "无人开点"))
            if no and yes:
                f.append(f"没开点：{_list(names, no, lang)}")
        else:
            f.append("Opened (开点): everyone" if not no else "Opened (开点): " + (_list(names, yes, lang) or "nobody"))
            if no and yes:
                f.append(f"Not opened: {_list(names, no, lang)}")
    for kind, s in result.get("declarations", []):
        k = KIND_ZH.get(kind, kind)
        f.append(f"{k}：{who(names, int(s), lang)}" if zh else f"{kind} ({k}): {who(names, int(s), lang)}")
    for g, r in result.get("waived", []):
        if zh:
            f.append(f"免贡：{who(names, g, lang)} 不给同伴 {who(names, r, lang)} 进贡")
        else:
            f.append(f"Waived tribute (免贡): {who(names, g, lang)} to partner {who(names, r, lang)}")
    entries = club_entries()
    for name, pairs in result.get("choices", {}).items():
        p = entries.get(name)
        title = (p.entry.zh if zh else p.entry.en) if p is not None and p.entry is not None else name
        for a, b in pairs:
            f.append(
                f"{title}：{who(names, a, lang)} → {who(names, b, lang)}"
                if zh
                else f"{title}: {who(names, a, lang)} → {who(names, b, lang)}"
            )
    n = out.next
    n.append(f"下一局由 {who(names, leader, lang)} 先出牌" if zh else f"Next hand: {who(names, leader, lang)} leads")
    if not debts:
        n.append("下一局没有进贡" if zh else "No tribute next hand")
    for d in debts:
        giver, receiver, count, kind = int(d["giver"]), int(d["receiver"]), int(d["count"]), str(d["kind"])
        back = bool(d.get("returned"))
        if zh:
            line = f"进贡：{who(names, giver, lang)} 给 {who(names, receiver, lang)} {count} 张（{club.DEBT_NAMES.get(kind, kind)}）"
            n.append(line + ("，对方还贡" if back else ""))
        else:
            line = f"Tribute: {who(names, giver, lang)} gives {who(names, receiver, lang)} {count} card{'s' if count != 1 else ''}"
            n.append(f"{line}, {TRIBUTE_EN.get(kind, kind)}" + (", handed back (还贡)" if back else ""))
    return out
