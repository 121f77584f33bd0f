"""保存图片: what the standings, the season and the rule sheet give ``static/share.js`` to draw.

A club posts its results in a group chat.  Club laptops rarely have Chromium (``--png`` needs it), so
the page draws the picture itself on a canvas, from a JSON block the server writes beside the
button: a title, a line under it, tables (columns and rows) or numbered lists, and a footnote.  The
data is plain text; the script escapes nothing because a canvas interprets nothing.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import Any

from ..dsl.explain import Sheet, heading
from ..tournament import standings
from ..tournament.event import Tournament
from .i18n import word

SCRIPT = "/static/share.js"
BUTTON = "保存图片"
FOOT = "够级 · gouji_rules"

_UNSAFE_FILE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def file_name(*words: str) -> str:
    """A download name from ``words`` ("春季赛-排名.png"): characters no file system takes become ``_``."""
    stem = "-".join(w for w in words if w)
    return (_UNSAFE_FILE.sub("_", stem).strip(" .") or "gouji")[:80] + ".png"


def table(cols: Sequence[str], rows: Sequence[Sequence[object]], heading: str = "", align: str = "") -> dict[str, Any]:
    """One table of the picture; ``align`` gives each column ``l`` or ``r`` (default: the name left, numbers right)."""
    block: dict[str, Any] = {"heading": heading, "cols": list(cols), "rows": [[str(c) for c in r] for r in rows]}
    if align:
        block["align"] = list(align)
    return block


def picture(title: str, subtitle: str, blocks: list[dict[str, Any]], file: str, foot: str = FOOT) -> dict[str, Any]:
    """Everything ``share.js`` draws, and the name the download gets."""
    return {"title": title, "subtitle": subtitle, "blocks": blocks, "foot": foot, "file": file}


def as_json(data: dict[str, Any]) -> str:
    """``data`` for a ``<script type="application/json">`` block: no ``<``, ``>`` or ``&`` can end it early."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


PHONE_FIRST = ("rank", "name", "match_points", "hand_points")
"""The standings' columns a phone shows first, and the picture shows: what decides the ranking."""


def standings_picture(ev: Tournament, lines: list[standings.Line], cols: list[str], lang: str) -> dict[str, Any]:
    """The standings as a picture: the phone's columns under their ``cols`` headers, a player not yet seated
    marked as on the page, the tiebreaks under the table."""
    rows = []
    for line in lines:
        cells = [str(getattr(line, c)) for c in PHONE_FIRST]
        if line.hands == 0 and line.played == 0 and line.byes == 0:
            cells[2:] = ["—", word("not_played", lang)]
        rows.append(cells)
    progress = word("progress", lang, done=len(ev.db.hands()), all=ev.scheduled_hands())
    sep = "，" if lang == "zh" else ", "
    foot = word("tiebreaks", lang, list=sep.join(standings.tiebreak_names(lang, ev.tiebreaks)))
    title = f"{ev.name} · {word('standings', lang)}"
    data = picture(title, progress, [table(cols, rows)], file_name(ev.name, word("standings", lang)))
    data["foot"] = f"{foot} · {FOOT}"
    return data


def standings_headers(ev: Tournament, lang: str) -> list[str]:
    """The headers of :data:`PHONE_FIRST` in ``lang``, as the standings page words them."""
    label = dict(zip(standings.column_ids(), standings.headers(lang, by_team=ev.by_team), strict=True))
    return [label[c] for c in PHONE_FIRST]


def sheet_picture(s: Sheet, file_stem: str) -> dict[str, Any]:
    """The rule sheet as a picture: every section that is on, its rules numbered; the sections off in one line."""
    star = "★ "
    blocks: list[dict[str, Any]] = []
    off = [heading(p, s.lang) for p in s.parts if p.off]
    for part in s.parts:
        if part.off:
            continue
        items = [f"{i.number}. {star if i.changed else ''}{' '.join(i.text.split())}" for i in part.items]
        mark = star if part.changed else ""
        blocks.append({"heading": mark + heading(part, s.lang), "items": items})
    if off:
        blocks.append({"heading": "不用的部分：" + "、".join(off), "muted": True, "items": []})
    subtitle = "；".join(x for x in (("出处：" + s.source) if s.source else "", s.legend) if x)
    return picture(s.title, subtitle, blocks, file_name(file_stem, "规则"))


def sheet_page(page: str, s: Sheet, file_stem: str) -> str:
    """The printable sheet (``gouji explain --html``'s page) with a 保存图片 button, hidden on paper.

    The page written by ``explain --html`` stays script-free; only the club home's copy gets the button."""
    data = as_json(sheet_picture(s, file_stem))
    button = (
        "<style>@media print { .share { display: none; } } .share { font-size: 1em; padding: 6px 14px; "
        "margin: 6px 0; }</style>"
        f'<p class="share"><button type="button" data-share="share-data" hidden>{html.escape(BUTTON)}</button></p>'
    )
    tail = f'<script type="application/json" id="share-data">{data}</script><script src="{SCRIPT}"></script>'
    head, sep, rest = page.partition("</h1>")
    page = head + sep + button + rest if sep else button + page
    return page.replace("</body>", tail + "</body>", 1)


__all__ = [
    "BUTTON",
    "as_json",
    "file_name",
    "picture",
    "sheet_page",
    "sheet_picture",
    "standings_headers",
    "standings_picture",
    "table",
]
