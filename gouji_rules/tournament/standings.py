"""Standings: match points, then hand points, then head-to-head, then fewest last places.

A *match* is what one table plays in one round: ``hands`` hands (twice, with the
cards swapped between the sides, in a duplicate bot event).  The side with more
hand points over the whole match wins it: 2 match points, a draw 1 each, a
loss 0.  A match counts for match points only once all its hands are recorded;
its hands count for hand points as they come in.  In a team event a bye is a
won match with no hand points.

Ties are broken in this order (docs/tournaments.md):

1. match points;
2. hand points (each hand's points of the entrant's side, as settle() scores it);
3. head-to-head: match points won in matches against the other entrants tied
   on 1 and 2 (for individuals: matches in which one of them sat on the other side);
4. fewest last places (大落 / 拉客);
5. most first places (头科 / 头客).

Entrants still equal after that share the rank and are listed by name.
"""

from __future__ import annotations

import csv
import html
import io
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..game.seats import side_seats
from ..outputs import spreadsheet_cell
from . import tiebreaks
from .event import Tournament

SCHEMA_VERSION = 1
WIN, DRAW, LOSS = 2, 1, 0


@dataclass
class Line:
    """One entrant's standings line: what it played, won and scored, and the tiebreak numbers that order it."""

    name: str
    members: list[str]
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    hand_points: int = 0
    head_to_head: int = 0
    firsts: int = 0
    lasts: int = 0
    hands: int = 0
    buchholz: int = 0
    rank: int = 0
    # (match points won, the opponents' keys) per finished match
    results: list[tuple[int, frozenset[str]]] = field(default_factory=list)

    def key(self) -> tuple[int, int, int, int, int]:
        """The default ranking key (match points, hand points, head-to-head, fewest lasts, most firsts), for callers
        that sort without an event's tiebreaks."""
        return (-self.match_points, -self.hand_points, -self.head_to_head, self.lasts, -self.firsts)


def compute(event: Tournament) -> list[Line]:
    """Every entrant's line, in ranking order, from the hands stored so far."""
    by_team = event.by_team
    lines: dict[str, Line] = {}
    for e in event.entrants.values():
        k = e.team if by_team and e.team else e.name
        line = lines.setdefault(k, Line(k, []))
        line.members.append(e.name)

    def key_of(eid: int) -> str:
        e = event.entrants[eid]
        return e.team if by_team and e.team else e.name

    per_match: dict[tuple[int, int], list[Any]] = {}
    for row in event.db.hands():
        per_match.setdefault((row.round, row.tbl), []).append(row)
    expected = event.hands_per_match * len(event.rotations)
    for (rnd, tbl), seats in event.db.seating().items():
        rows = per_match.get((rnd, tbl), [])
        sides = [sorted({key_of(seats[s]) for s in side_seats(team)}) for team in (0, 1)]
        totals = [0, 0]
        for row in rows:
            for side in (0, 1):
                totals[side] += row.scores[side]
                for k in sides[side]:
                    lines[k].hand_points += row.scores[side]
                    lines[k].hands += 1
            for s in range(6):
                line = lines[key_of(seats[s])]
                if row.places[s] == 1:
                    line.firsts += 1
                elif row.places[s] == 6:
                    line.lasts += 1
        if len(rows) < expected:
            continue
        for side in (0, 1):
            mine, theirs = totals[side], totals[1 - side]
            mp = WIN if mine > theirs else DRAW if mine == theirs else LOSS
            for k in sides[side]:
                line = lines[k]
                line.played += 1
                line.match_points += mp
                line.won += mp == WIN
                line.drawn += mp == DRAW
                line.lost += mp == LOSS
                line.results.append((mp, frozenset(sides[1 - side])))
    under_way = {h.round for h in event.db.hands()}
    for rnd, team in event.db.byes():
        if team in lines and rnd in under_way:  # a bye scores once its round has begun
            lines[team].byes += 1
            lines[team].match_points += WIN
    return tiebreaks.rank(list(lines.values()), event.tiebreaks)  # the event's own order (tiebreaks.py)


COLUMNS = [
    ("rank", "#"),
    ("name", "name"),
    ("played", "P"),
    ("won", "W"),
    ("drawn", "D"),
    ("lost", "L"),
    ("match_points", "MP"),
    ("hand_points", "pts"),
    ("head_to_head", "h2h"),
    ("buchholz", "Bhz"),
    ("lasts", "last"),
    ("firsts", "1st"),
    ("hands", "hands"),
]
# What a club reads: the column headers and tiebreak names, Chinese first ("zh"), English on request.
HEADERS_ZH = {
    "rank": "名次",
    "name": "选手",
    "played": "场",
    "won": "胜",
    "drawn": "平",
    "lost": "负",
    "match_points": "赛分",
    "hand_points": "局分",
    "head_to_head": "相互",
    "buchholz": "对手分",
    "lasts": "大落",
    "firsts": "头科",
    "hands": "局数",
}
TEAM_NAME = {"zh": "队", "en": "team"}


def column_ids() -> list[str]:
    """The standings columns by id, in order: the header of every format (text, CSV, JSON, HTML)."""
    return [c for c, _ in COLUMNS]


def headers(lang: str = "zh", *, by_team: bool = False) -> list[str]:
    """The standings' column headers in ``lang`` ("zh" or "en")."""
    out = [HEADERS_ZH[c] if lang == "zh" else h for c, h in COLUMNS]
    if by_team:
        out[1] = TEAM_NAME["zh" if lang == "zh" else "en"]
    return out


def tiebreak_names(lang: str = "zh", order: Sequence[str] = tiebreaks.DEFAULT) -> list[str]:
    """The ranking order, named for readers: match points first, then each of the event's tiebreaks."""
    return tiebreaks.names(order, lang)


def to_json(event: Tournament, lines: list[Line]) -> str:
    """The standings as one JSON document with how many hands are recorded of those scheduled, for other programs."""
    rows = []
    for line in lines:
        d = asdict(line)
        d.pop("results")
        rows.append(d)
    stored = len(event.db.hands())
    doc = {
        "schema_version": SCHEMA_VERSION,
        "event": event.describe(),
        "hands_recorded": stored,
        "hands_scheduled": event.scheduled_hands(),
        "tiebreaks": ["match_points", *event.tiebreaks],
        "standings": rows,
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def to_csv(lines: list[Line]) -> str:
    """The standings as CSV for a spreadsheet; every cell made safe, since names come from players' files."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([c for c, _ in COLUMNS] + ["members"])
    for line in lines:
        # names come from players' CSVs: a name such as =HYPERLINK(…) must stay text in a spreadsheet
        w.writerow(
            [spreadsheet_cell(getattr(line, c)) for c, _ in COLUMNS] + [spreadsheet_cell(" ".join(line.members))]
        )
    return out.getvalue()


def width(text: str) -> int:
    """Display width in a terminal: CJK characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, w: int, right: bool = False) -> str:
    """``text`` padded to ``w`` display columns (Chinese characters are two wide), so the text table lines up."""
    gap = " " * max(0, w - width(text))
    return gap + text if right else text + gap


def table(headers: list[str], rows: list[list[str]], numeric: set[int] | None = None) -> str:
    """A plain text table aligned by display width."""
    numeric = numeric or set()
    widths = [max([width(h)] + [width(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = ["  ".join(pad(h, widths[i], i in numeric) for i, h in enumerate(headers)).rstrip()]
    for r in rows:
        lines.append("  ".join(pad(c, widths[i], i in numeric) for i, c in enumerate(r)).rstrip())
    return "\n".join(lines) + "\n"


def takeover_steps(event: Tournament) -> dict[str, int]:
    """Each player's decisions made for them by the agent (托管) in the hands stored, from the records of an
    online round (``takeover``, with ``players`` by seat); a player with none is left out."""
    steps: dict[str, int] = {}
    for row in event.db.hands():
        players = row.record.get("players") if isinstance(row.record, dict) else None
        if not isinstance(players, list):
            continue
        for t in row.record.get("takeover") or ():
            name = str(players[t["seat"]])
            steps[name] = steps.get(name, 0) + 1
    return steps


def takeover_note(steps: dict[str, int], lang: str = "zh") -> str:
    """One line naming who had 托管 moves and how many (empty when nobody did)."""
    if not steps:
        return ""
    if lang == "zh":
        return "托管（代打）：" + "，".join(f"{n} {k} 步" for n, k in sorted(steps.items())) + "\n"
    return "托管 (moves the agent made): " + ", ".join(f"{n} {k}" for n, k in sorted(steps.items())) + "\n"


def to_text(event: Tournament, lines: list[Line], lang: str = "zh") -> str:
    """The standings as a text table, with how many hands are in and what ranks ties, Chinese first unless ``lang`` is
    English."""
    done, scheduled = len(event.db.hands()), event.scheduled_hands()
    if lang == "zh":
        head = f"{event.name}：已录入 {done} / {scheduled} 局 ({done} of {scheduled} hands recorded)\n"
        foot = (
            "排名依次比较：" + "，".join(tiebreak_names("zh", event.tiebreaks))
            + f" (ranked by {tiebreaks.describe(event.tiebreaks)})\n"
        )  # fmt: skip
    else:
        head = f"{event.name}: {done} of {scheduled} hands recorded\n"
        foot = "Ranked by " + ", ".join(tiebreak_names("en", event.tiebreaks)) + "\n"
    rows = [[str(getattr(line, c)) for c, _ in COLUMNS] for line in lines]
    numeric = {i for i, (c, _) in enumerate(COLUMNS) if c != "name"}
    return (
        head
        + table(headers(lang, by_team=event.by_team), rows, numeric)
        + foot
        + takeover_note(takeover_steps(event), lang)
    )


def to_html(event: Tournament, lines: list[Line], lang: str = "zh") -> str:
    """The standings as an HTML page (escaped), for the club's screen and the public pages."""
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in headers(lang, by_team=event.by_team))
    body = "\n".join(
        "<tr>" + "".join(f"<td>{e(str(getattr(line, c)))}</td>" for c, _ in COLUMNS) + "</tr>" for line in lines
    )
    done, scheduled = len(event.db.hands()), event.scheduled_hands()
    if lang == "zh":
        note = f"已录入 {done} / {scheduled} 局。排名依次比较：{'，'.join(tiebreak_names('zh', event.tiebreaks))}。"
    else:
        note = f"{done} of {scheduled} hands recorded. Ranked by {', '.join(tiebreak_names('en', event.tiebreaks))}."
    return (
        f'<!DOCTYPE html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(event.name)}</title>"
        '<style>body{font-family:system-ui,"Noto Sans CJK SC","Source Han Sans SC","PingFang SC",'
        '"Microsoft YaHei",sans-serif}div.scroll{overflow-x:auto}table{border-collapse:collapse}'
        "td,th{border:1px solid #999;padding:2px 8px;text-align:right}td:nth-child(2){text-align:left}</style>"
        f"</head><body>\n<h1>{e(event.name)}</h1>\n"
        f"<p>{e(note)}</p>\n"
        f'<div class="scroll"><table>\n<tr>{head}</tr>\n{body}\n</table></div>\n</body></html>\n'
    )
