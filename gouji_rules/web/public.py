"""The pages anyone who reaches the server may read: the standings, the season and each round's tables
with each hand's result (stored, waiting for confirmation, or not yet entered)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ..errors import GoujiError, IllegalAction
from ..tournament import club, season, standings
from ..tournament.event import Tournament
from ..tournament.storage import HandRow
from . import share, summary, tables
from .i18n import word
from .pages import REFRESH_SECONDS, fail, page, reader_lang, state_of

# on a phone what decides the ranking comes first; the other columns follow and scroll sideways
PHONE_FIRST = share.PHONE_FIRST


async def standings_page(request: Request) -> Response:
    """The standings anyone at the night may see: the columns a phone shows first, the rest a tap away, reloaded every
    few seconds while hands come in."""
    lang = reader_lang(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        lines = standings.compute(ev)
        label = dict(zip(standings.column_ids(), standings.headers(lang, by_team=ev.by_team), strict=True))
        rest = [c for c in label if c not in PHONE_FIRST]
        return {
            "cols": [label[c] for c in PHONE_FIRST],
            "rows": [
                {
                    "cells": [str(getattr(line, c)) for c in PHONE_FIRST],
                    "more": [(label[c], str(getattr(line, c))) for c in rest],
                    "unplayed": line.hands == 0 and line.played == 0 and line.byes == 0,
                    "members": " ".join(line.members) if ev.by_team else "",
                    "all": [str(getattr(line, c)) for c in (*PHONE_FIRST, *rest)],
                }
                for line in lines
            ],
            "all_cols": [label[c] for c in (*PHONE_FIRST, *rest)],
            "next_round": _next_round(ev, lang),
            "done": len(ev.db.hands()),
            "total": ev.scheduled_hands(),
            "tiebreaks": standings.tiebreak_names(lang, ev.tiebreaks),
            "rounds": list(range(1, ev.rounds + 1)),
            "seated": ev.db.rounds_seated(),
            "share": _standings_picture(ev, lines, [label[c] for c in PHONE_FIRST], lang),
        }

    ctx = await state_of(request).read(gather)
    return page(request, "standings.html", refresh=REFRESH_SECONDS, **ctx)


def _standings_picture(ev: Tournament, lines: list[standings.Line], cols: list[str], lang: str) -> str:
    """The standings as 保存图片 draws them (``gouji event standings --png`` draws the same)."""
    return share.as_json(share.standings_picture(ev, lines, cols, lang))


SEASON_MAX = 1000
"""The largest --window or minimum attendance /season takes from its address (twenty years of weekly nights)."""


SEASON_COLUMNS = [
    ("rank", "名次", "#"),
    ("name", "选手", "player"),
    ("nights", "出勤", "nights"),
    ("sure", "名次把握", "how sure"),
]
"""What a phone shows of a season line; the rest is a tap away, as on the standings."""
SEASON_MORE = [
    ("ordinal", "实力分", "skill score"),
    ("hands", "局数", "hands"),
    ("points_per_hand", "局均分", "points a hand"),
    ("match_points_per_night", "晚均赛分", "match points a night"),
    ("average_rank", "平均名次", "average place"),
]


async def _season(request: Request) -> season.Season:
    """The season of the event files (``*.sqlite``) in the folder named at ``serve --season``, by file name.

    Files named by date sort oldest first, as ``gouji event season`` wants them; ``?window=N&min=M``
    choose as its options do.  Each file is opened read-only, in a worker thread.
    """
    folder = state_of(request).config.season_folder
    if folder is None:
        raise fail(
            404, "this server was started without --season FOLDER", "服务器启动时没有指定赛季文件夹（--season）。"
        )
    given: dict[str, int | None] = {}
    for key in ("window", "min"):
        raw = request.query_params.get(key, "")
        if raw and (not raw.isdigit() or not 1 <= int(raw) <= SEASON_MAX):
            raise fail(400, f"{key} is a whole number from 1 to {SEASON_MAX}", f"{key} 应为 1 到 {SEASON_MAX} 的整数。")
        given[key] = int(raw) if raw else None
    window, min_nights = given["window"], given["min"]

    def gather() -> season.Season:
        files = sorted(str(p) for p in folder.glob("*.sqlite") if p.is_file())
        return season.build(files, window=window, min_nights=min_nights)

    try:
        return await run_in_threadpool(gather)
    except season.MissingExtra as e:  # the install, not the files: say which package, not "a bad file"
        state_of(request).config.log(f"season: {e}")
        raise fail(503, str(e), season.zh_refusal(e)) from None
    except GoujiError as e:  # an event error, or rules in a file that no longer build
        state_of(request).config.log(f"season: {e}")
        shown = str(e).replace(f"{folder}{os.sep}", "")  # the file's name, not where the server keeps it
        zh = season.zh_refusal(e) if isinstance(e, season.SeasonError) else ""
        why = "赛季无法计算（文件夹里有不能用的文件、重复的赛事或规则不同的赛事）。"
        raise fail(422, shown, (zh.replace(f"{folder}{os.sep}", "") if zh else why)) from None


async def season_page(request: Request) -> Response:
    """The season in plain words: rank, name, nights and how sure each rank is; the rating's terms on /season/about."""
    s = await _season(request)
    lang = reader_lang(request)
    zh = lang == "zh"

    def row(x: season.SeasonLine, ranked: bool) -> dict[str, Any]:
        shown = dict(zip([c for c, _, _ in season.COLUMNS], season.cells(x, ranked), strict=True))
        return {
            "cells": [shown["rank"], x.name, f"{x.nights} 晚" if zh else str(x.nights), season.sureness(x, s, lang)],
            "more": [(z if zh else e, shown[c]) for c, z, e in SEASON_MORE],
        }

    return page(
        request,
        "season.html",
        cols=[z if zh else e for _, z, e in SEASON_COLUMNS],
        nights=[(n.name, Path(n.file).name, n.hands) for n in s.nights],
        given=s.given,
        min_nights=s.min_nights,
        ranked=[row(x, True) for x in s.ranked],
        unranked=[row(x, False) for x in s.unranked],
        query=request.url.query,
        share=_season_picture(s, [row(x, True) for x in s.ranked], [row(x, False) for x in s.unranked], lang),
    )


def _season_picture(s: season.Season, ranked: list[dict[str, Any]], unranked: list[dict[str, Any]], lang: str) -> str:
    """The season as 保存图片 draws it: the ranked players, then those with too few nights, as the page lists them."""
    zh = lang == "zh"
    cols = [z if zh else e for _, z, e in SEASON_COLUMNS]
    blocks = [share.table(cols, [r["cells"] for r in ranked], align="rlrl")] if ranked else []
    if unranked:
        head = f"出勤不足 {s.min_nights} 晚，暂不排名" if zh else f"Fewer than {s.min_nights} night(s), not ranked yet"
        blocks.append(share.table(cols, [r["cells"] for r in unranked], heading=head, align="rlrl"))
    word_season = word("season", lang)
    if zh:
        sub = f"最近 {len(s.nights)} 晚（共 {s.given} 晚）；出勤满 {s.min_nights} 晚才排名"
    else:
        sub = f"The last {len(s.nights)} night(s) of {s.given}; ranked from {s.min_nights} night(s) attended"
    last = s.nights[-1].name if s.nights else ""
    return share.as_json(
        share.picture(word_season + (f" · {last}" if last else ""), sub, blocks, share.file_name(word_season, last))
    )


async def season_about_page(request: Request) -> Response:
    """How the season's rating is worked out, in its technical terms, with each player's μ and σ."""
    s = await _season(request)
    return page(
        request,
        "season_about.html",
        model=season.MODEL,
        z=season.Z,
        sure=season.SURE,
        rows=[(x.name, f"{x.mu:.2f}", f"{x.sigma:.2f}", f"{x.ordinal:.2f}") for x in [*s.ranked, *s.unranked]],
        query=request.url.query,
    )


def _next_round(ev: Tournament, lang: str) -> dict[str, Any] | None:
    """Once a round is complete and the next has not begun: the next round's tables (or that it waits to be
    paired).  Read only: a Swiss round is paired by the organiser's button, never by a page being read."""
    seated = ev.db.rounds_seated()
    started = {h.round for h in ev.db.hands()}
    done = [r for r in seated if r in started and not club.round_complete(ev, r)]
    if not done:
        return None
    last = max(done)
    nxt = last + 1
    if nxt > ev.rounds or nxt in started:
        return None
    if nxt not in seated:
        return {"round": nxt, "after": last, "tables": []}
    return {"round": nxt, "after": last, "tables": [t for t in club.seating_sheet(ev, nxt) if "bye" not in t]}


def table_hands(ev: Tournament, rnd: int, tbl: int, names: list[str], lang: str) -> list[dict[str, Any]]:
    """Each hand of a table: its stored result, or the entry waiting for confirmation, or nothing yet, each
    with its summary in words (summary.py: the engine's settlement, never worked out here)."""
    out = []
    stored = {h.hand: h for h in ev.db.hands(rnd) if h.tbl == tbl and h.rotation == 0}
    for n in range(1, ev.hands_per_match + 1):
        row = stored.get(n)
        wait = tables.pending(ev, rnd, tbl, n)
        out.append(
            {
                "hand": n,
                "finish": [names[s] for s in row.result["finish"]] if row else [],
                "scores": list(row.scores) if row else None,
                "online": bool(row and row.result.get("online")),
                "takeover": int(row.result.get("takeover") or 0) if row else 0,
                # an online hand's facts are in its record (the engine's), not in entered fields to summarise
                "summary": _stored_summary(ev, row, names, lang) if row and not row.result.get("online") else None,
                "pending": wait,
                "pending_finish": [names[int(s)] for s in wait.entry.finish] if wait else [],
                "pending_summary": _pending_summary(ev, wait, lang) if wait else None,
            }
        )
    return out


def _stored_summary(ev: Tournament, row: HandRow, names: list[str], lang: str) -> summary.Summary | None:
    if "next_leader" in row.record and "scores" in row.record:
        return summary.of_stored(ev, row.record, row.result, names, lang)
    try:  # a hand stored without its settlement: settle it again, as the engine does
        entry = tables.entry_of_result(ev, row.round, row.tbl, row.hand, row.result)
        return summary.of_scored(ev, tables.check(ev, entry), lang)
    except (ValueError, IllegalAction):
        return None


def _pending_summary(ev: Tournament, wait: tables.Pending, lang: str) -> summary.Summary | None:
    try:
        return summary.of_scored(ev, tables.check(ev, wait.entry), lang)
    except (ValueError, IllegalAction):  # entered under rules the event no longer has: the points say it
        return None


def round_tables(ev: Tournament, rnd: int, lang: str) -> list[dict[str, Any]]:
    """Each table of round ``rnd`` with its players by seat and the hands played there, or a bye: the round page
    and the organiser's page show the same tables."""
    out = []
    for t in club.seating_sheet(ev, rnd):
        if "bye" in t:
            out.append({"bye": t["bye"]})
            continue
        names = [s["player"] for s in t["seats"]]
        out.append({"table": t["table"], "seats": t["seats"], "hands": table_hands(ev, rnd, t["table"], names, lang)})
    return out


def round_number(request: Request, ev: Tournament) -> int:
    """The round an address names, or a 404 that lists the rounds seated, so that a stale link says why it leads
    nowhere."""
    rnd: int = request.path_params["rnd"]
    seated = ev.db.rounds_seated()
    if rnd not in seated:
        raise fail(404, f"round {rnd} is not seated (rounds seated: {seated})")
    return rnd


async def round_page(request: Request) -> Response:
    """One round's seating, public, for the players to find their tables without asking the organiser."""

    def gather(ev: Tournament) -> dict[str, Any]:
        rnd = round_number(request, ev)
        return {
            "rnd": rnd,
            "tables": round_tables(ev, rnd, reader_lang(request)),
            "rounds": list(range(1, ev.rounds + 1)),
            "seated": ev.db.rounds_seated(),
        }

    ctx = await state_of(request).read(gather)
    return page(request, "round.html", refresh=REFRESH_SECONDS, **ctx)
