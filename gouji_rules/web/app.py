"""The Starlette application behind ``gouji event serve``.

Anyone who can reach the server may read: the standings, each round's seating
and each hand's result.  Changing anything needs a secret link (links.py): a
table side's link enters and confirms that table's hands, the organiser's link
sees every table, prints the sheets and enters directly.  Every form carries a
CSRF token that must match a ``SameSite=Strict`` cookie, and a request whose
``Origin`` or ``Sec-Fetch-Site`` says it comes from another site is refused.
Pages use no JavaScript and no web fonts; QR codes are inline SVG.

No SQLite call runs on the event loop.  The event is opened twice when the server
starts: a connection for reading and one for writing, each used by one worker
thread at a time.  A change waits at most :data:`BUSY_SECONDS` for another
writer (``gouji event record`` typed at the same moment, a second server); then
that phone gets a 503 page in its reader's language while the standings and the
other phones go on being served from the reading connection.  Each change is
one ``BEGIN IMMEDIATE`` transaction; a full disk is a 507 page with nothing
written, and an event file deleted or replaced under the server takes no entry
(503).  Every error page, 413 included, is the project's own, in the reader's
language, with the security headers of every other page.
"""

from __future__ import annotations

import hmac
import os
import secrets
import sys
import threading
import urllib.parse
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import jinja2
import segno
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import GoujiError, IllegalAction, VariantError
from ..outcome import opened_in_play
from ..rules import Rules
from ..seats import side_seats
from ..tournament import club, season, standings
from ..tournament.club import Entry
from ..tournament.errors import (
    EventBusy,
    EventError,
    EventFileChanged,
    EventFileError,
    EventFileFull,
    HandChanged,
    ScoreTooBig,
)
from ..tournament.event import Tournament
from ..tournament.storage import EventDB, HandRow
from . import lan, refusals, summary, tables
from .i18n import WORDS, lang_of, word
from .links import Links, Seat, event_secret

MAX_BODY = 16 * 1024  # an entry form is well under 2 KiB
BUSY_SECONDS = 2.0
"""How long a phone's change waits for another writer to finish before its 503 page."""
MAX_FIELDS = 200
MAX_VALUE = 64
REFRESH_SECONDS = 30
CSRF_COOKIE = "gouji_csrf"
# on a phone what decides the ranking comes first; the other columns follow and scroll sideways
PHONE_FIRST = ("rank", "name", "match_points", "hand_points")
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


@dataclass
class Config:
    """How the server was started."""

    event_path: Path
    public_url: str | None = None
    admin_token: str | None = None
    new_links: bool = False
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr))
    busy_seconds: float = BUSY_SECONDS
    season_folder: Path | None = None  # serve --season: the folder whose event files /season ranks


T = TypeVar("T")


class State:
    """The open event (a reading and a writing connection) and its links, created when the server starts.

    Opening writes nothing: the link secret is drawn (or, with ``--new-links``, replaced)
    by :meth:`start`, once the server knows it can listen.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        path, wait, weak = config.event_path, config.busy_seconds, config.new_links
        writer = Tournament(EventDB(path, write=True, timeout=wait, weak_secret=weak, threads=True))
        try:
            if writer.mode != "club":
                raise EventError(f"{path}: a bot event is played by 'gouji event run', not served")
            writer.db.checkpoint_after_commit = True
            reader_db = EventDB(path, write=False, timeout=wait, weak_secret=weak, threads=True)
            if reader_db.identity != writer.db.identity:
                reader_db.close()
                raise EventFileChanged(f"{path}: the event file was replaced while the server opened it; start again")
            self.reader = Tournament(reader_db, variant=writer.variant)
        except BaseException:
            writer.close()
            raise
        self.writer = writer
        self.name = writer.name
        self.links = Links(config.admin_token)
        self.offers: dict[tuple[int, int], tables.Offer] = {}
        self._reading = threading.Lock()
        self._writing = threading.Lock()

    def start(self) -> None:
        """Draw the link secret if the event has none, or a new one with ``--new-links`` (every old link dies)."""
        self.links.secret = event_secret(self.writer, renew=self.config.new_links)

    def close(self) -> None:
        self.reader.close()
        self.writer.close()

    def offer(self, event: Tournament, rnd: int, tbl: int) -> tables.Offer:
        if (rnd, tbl) not in self.offers:
            self.offers[(rnd, tbl)] = tables.offer(event, rnd, tbl)
        return self.offers[(rnd, tbl)]

    async def read(self, work: Callable[[Tournament], T]) -> T:
        """Run ``work`` on the reading connection in a worker thread (never on the event loop)."""
        return await run_in_threadpool(self._run, self._reading, self.reader, work)

    async def write(self, work: Callable[[Tournament], T]) -> T:
        """Run ``work`` on the writing connection in a worker thread; a busy file is EventBusy within a bound."""
        return await run_in_threadpool(self._run, self._writing, self.writer, work)

    def _run(self, lock: threading.Lock, event: Tournament, work: Callable[[Tournament], T]) -> T:
        if not lock.acquire(timeout=2 * self.config.busy_seconds + 1):
            raise EventBusy(f"{self.config.event_path}: the server's other requests hold the event file; try again")
        try:
            event.db.check_same_file()  # a vanished file is said, not shown as if it still held the evening
            return work(event)
        finally:
            lock.release()


_env = jinja2.Environment(
    loader=jinja2.PackageLoader("gouji_rules.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)


def _state(request: Request) -> State:
    st: State = request.app.state.gouji
    return st


def _lang(request: Request) -> str:
    return lang_of(request.query_params.get("lang") or request.cookies.get("lang"))


def page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    """Render a page in the reader's language, with the security headers and the CSRF cookie."""
    lang = _lang(request)
    csrf = request.cookies.get(CSRF_COOKIE) or ""
    if len(csrf) != 43:
        csrf = secrets.token_urlsafe(32)
    st = _state(request)

    def t(key: str, **kw: Any) -> str:
        return word(key, lang, **kw)

    body = _env.get_template(template).render(
        t=t,
        lang=lang,
        other_lang="en" if lang == "zh" else "zh",
        path=request.url.path,
        csrf=csrf,
        event_name=st.name,
        refresh=ctx.pop("refresh", 0),
        **ctx,
    )
    resp = HTMLResponse(body, status_code=status, headers=HEADERS)
    resp.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict", max_age=12 * 3600)
    if "lang" in request.query_params:
        resp.set_cookie("lang", lang, samesite="lax", max_age=365 * 86400)
    return resp


class PageError(HTTPException):
    """A 4xx answer: the reason in English (``detail``) and, where it helps a player, in Chinese."""

    def __init__(self, status: int, message: str, zh: str = "") -> None:
        super().__init__(status_code=status, detail=message)
        self.zh = zh or HEADLINES_ZH.get(status, "")


HEADLINES_ZH = {
    400: "表单有误，请返回重新填写。",
    403: "不允许这样做。",
    404: "找不到这个页面。",
    405: "不能这样访问这个页面。",
    409: "这一局刚刚有了变化（别人已经录入、确认或退回），请返回本桌页面看最新情况。",
    413: "表单内容太多。",
    415: "表单格式不对。",
    503: "活动文件暂时不能写入：这次什么也没有保存，请稍后再试。",
    507: "磁盘已满：这次什么也没有保存。请组织者腾出空间后再试。",
}


def fail(status: int, message: str, zh: str = "") -> PageError:
    return PageError(status, message, zh)


# -- reading ----------------------------------------------------------------------------------


async def standings_page(request: Request) -> Response:
    lang = _lang(request)

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
        }

    ctx = await _state(request).read(gather)
    return page(request, "standings.html", refresh=REFRESH_SECONDS, **ctx)


SEASON_MAX = 1000
"""The largest --window or minimum attendance /season takes from its address (twenty years of weekly nights)."""


async def season_page(request: Request) -> Response:
    """The season of the event files (``*.sqlite``) in the folder named at ``serve --season``, by file name.

    Files named by date sort oldest first, as ``gouji event season`` wants them; ``?window=N&min=M``
    choose as its options do.  Each file is opened read-only, in a worker thread.
    """
    folder = _state(request).config.season_folder
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
    window, min_nights = given["window"], given["min"] or 1

    def gather() -> season.Season:
        files = sorted(str(p) for p in folder.glob("*.sqlite") if p.is_file())
        return season.build(files, window=window, min_nights=min_nights)

    try:
        s = await run_in_threadpool(gather)
    except GoujiError as e:  # an event error, or rules in a file that no longer build
        _state(request).config.log(f"season: {e}")
        shown = str(e).replace(f"{folder}{os.sep}", "")  # the file's name, not where the server keeps it
        raise fail(422, shown, "赛季无法计算（文件夹里有不能用的文件、重复的赛事或规则不同的赛事）。") from None
    lang = _lang(request)
    return page(
        request,
        "season.html",
        cols=[zh if lang == "zh" else en for _, zh, en in season.COLUMNS],
        nights=[(n.name, Path(n.file).name, n.hands) for n in s.nights],
        given=s.given,
        min_nights=s.min_nights,
        ranked=[season.cells(x, True) for x in s.ranked],
        unranked=[season.cells(x, False) for x in s.unranked],
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


def _hands(ev: Tournament, rnd: int, tbl: int, names: list[str], lang: str) -> list[dict[str, Any]]:
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
                "summary": _stored_summary(ev, row, names, lang) if row else None,
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


def _round_tables(ev: Tournament, rnd: int, lang: str) -> list[dict[str, Any]]:
    out = []
    for t in club.seating_sheet(ev, rnd):
        if "bye" in t:
            out.append({"bye": t["bye"]})
            continue
        names = [s["player"] for s in t["seats"]]
        out.append({"table": t["table"], "seats": t["seats"], "hands": _hands(ev, rnd, t["table"], names, lang)})
    return out


def _round_number(request: Request, ev: Tournament) -> int:
    rnd: int = request.path_params["rnd"]
    seated = ev.db.rounds_seated()
    if rnd not in seated:
        raise fail(404, f"round {rnd} is not seated (rounds seated: {seated})")
    return rnd


async def round_page(request: Request) -> Response:
    def gather(ev: Tournament) -> dict[str, Any]:
        rnd = _round_number(request, ev)
        return {
            "rnd": rnd,
            "tables": _round_tables(ev, rnd, _lang(request)),
            "rounds": list(range(1, ev.rounds + 1)),
            "seated": ev.db.rounds_seated(),
        }

    ctx = await _state(request).read(gather)
    return page(request, "round.html", refresh=REFRESH_SECONDS, **ctx)


# -- a table side's link --------------------------------------------------------------------


def _seat(request: Request, ev: Tournament) -> Seat:
    seat = _state(request).links.seat_of(ev, str(request.path_params["token"]))
    if seat is None:
        raise fail(
            403,
            "this link does not open any table: ask the organiser for your table's QR code",
            "这个链接打不开任何一桌：请向组织者要本桌的二维码。",
        )
    return seat


def _table_ctx(ev: Tournament, seat: Seat, lang: str) -> dict[str, Any]:
    seats = ev.db.seating(seat.round)[(seat.round, seat.table)]
    names = ev.seat_names(seats)
    return {
        "rnd": seat.round,
        "tbl": seat.table,
        "side": seat.side,
        "side_name": "AB"[seat.side],
        "side_seats": " ".join(str(s + 1) for s in side_seats(seat.side)),
        "names": names,
        "hands": _hands(ev, seat.round, seat.table, names, lang),
        "next_seats": _next_seats(ev, seat.round, seat.table, seats, names),
    }


def _next_seats(ev: Tournament, rnd: int, tbl: int, seats: list[int], names: list[str]) -> list[tuple[str, int, int]]:
    """Once this table's match is complete and the next round is seated: where each of its players sits next
    (name, table, seat 1–6), as a table is told at the end of a round."""
    if tbl in club.round_complete(ev, rnd) or rnd + 1 not in ev.db.rounds_seated():
        return []
    where = {e: (t, i + 1) for (_r, t), ids in ev.db.seating(rnd + 1).items() for i, e in enumerate(ids)}
    return [(names[i], *where[e]) for i, e in enumerate(seats) if e in where]


async def table_page(request: Request) -> Response:
    done = {"entered": "entered_wait", "confirmed": "confirmed_ok", "rejected": "rejected_ok"}.get(
        request.query_params.get("done", ""), ""
    )
    base = f"/t/{request.path_params['token']}"
    lang = _lang(request)
    ctx = await _state(request).read(lambda ev: _table_ctx(ev, _seat(request, ev), lang))
    return page(request, "table.html", base=base, done=done, refresh=20, **ctx)


def _hand_number(request: Request, ev: Tournament) -> int:
    n: int = request.path_params["hand"]
    if not 1 <= n <= ev.hands_per_match:
        raise fail(404, f"hand {n} is not in a match (hands 1 to {ev.hands_per_match})")
    return n


def place_names(event: Tournament, lang: str) -> list[str]:
    """The six places as the event's rules name them (S4 头科…大落, S0 头客…大拉).  In English, the
    ordinal with the rules' own name in brackets, as the pages name every term of the game: ``1st (头科)``."""
    names = list(event.variant.rules.places_names)
    if lang == "en":
        return [f"{en} ({zh})" for en, zh in zip(WORDS["place_names"]["en"].split(","), names, strict=True)]
    return names


def _form_ctx(
    st: State, ev: Tournament, rnd: int, tbl: int, hand: int, entry: Entry | None, lang: str
) -> dict[str, Any]:
    seats = ev.db.seating(rnd)[(rnd, tbl)]
    names = ev.seat_names(seats)
    if entry is None:
        row = ev.db.hand(rnd, tbl, hand)
        entry = tables.entry_of_result(ev, rnd, tbl, hand, row.result) if row else None
    return {
        "rnd": rnd,
        "tbl": tbl,
        "hand": hand,
        "names": names,
        "offer": st.offer(ev, rnd, tbl),
        "place_names": place_names(ev, lang),
        "entry": entry,
        "is_correction": ev.db.hand(rnd, tbl, hand) is not None,
        "rev": ev.db.revision(rnd, tbl, hand),  # what the form is filled in from: a save compares it
        "error": "",
        "error_zh": "",
    }


async def hand_form(request: Request) -> Response:
    st = _state(request)
    base = f"/t/{request.path_params['token']}"

    def gather(ev: Tournament) -> dict[str, Any]:
        seat = _seat(request, ev)
        hand = _hand_number(request, ev)
        ctx = _form_ctx(st, ev, seat.round, seat.table, hand, None, _lang(request))
        wait = tables.pending(ev, seat.round, seat.table, hand)
        return {**ctx, "action": f"{base}/hand/{hand}", "wait": wait, "side": seat.side}

    ctx = await st.read(gather)
    return page(request, "hand.html", base=base, admin=False, **ctx)


def _table_names(ev: Tournament, entry: Entry) -> list[str]:
    return ev.seat_names(ev.db.seating(entry.round)[(entry.round, entry.table)])


def _finish_problem(ev: Tournament, entry: Entry, lang: str) -> str:
    """A finishing order that is not the six players once each, said with their names (before the engine)."""
    return refusals.finish_problem(entry.finish, _table_names(ev, entry), place_names(ev, lang), lang)


TOO_BIG = (
    "这一手的得分太大，无法保存：本活动规则的计分（例如 team_score 钩子）算出的分数超出了能保存的范围。"
    "这次什么也没有记下，请组织者修改规则。",
    "This hand's points are too big to store: the event's scoring (a hook such as team_score) makes a number "
    "out of range. Nothing was saved; the organiser must change the rules.",
)
CHANGED = (
    "你确认的结果录入之后，这一局已被别处改过（组织者或命令行）：这次确认没有生效，什么也没有改变。请返回本桌页面看最新结果。",
    "This hand was changed elsewhere (the organiser or the command line) after the entry you confirm was made: "
    "the confirmation did not count and nothing was changed. Go back to the table's page to see the hand now.",
)

FORM_CHANGED = (
    "你打开这张表之后，这一局已被别处录入或改过（另一桌的手机、组织者或命令行）：这次没有保存。"
    "下面是现在的结果，请核对后再提交。",
    "This hand was recorded or changed elsewhere after this form was opened (another phone, the organiser or "
    "the command line): nothing was saved. The form now shows the hand as it is; check it and submit again.",
)


def _form_rev(form: dict[str, list[str]]) -> int | None:
    """The hand's revision the form was filled in from; None from a page that did not carry one."""
    rev = _one(form, "rev")
    if not rev:
        return None
    if not (rev.isascii() and rev.isdigit()) or len(rev) > 18:
        raise fail(400, "the form's revision is not a number")
    return int(rev)


def _changed_form(st: State, ev: Tournament, rnd: int, tbl: int, hand: int, lang: str) -> dict[str, Any]:
    """The form again, filled in from the hand as it is now, saying why the submitted one was not saved (409)."""
    ctx = _form_ctx(st, ev, rnd, tbl, hand, None, lang)
    ctx["error"] = FORM_CHANGED[0] if lang == "zh" else FORM_CHANGED[1]
    ctx["status"] = 409
    return ctx


def _too_big(st: State, e: Exception, lang: str) -> str:
    """A hand the rules score out of range (a hook's number, 64 bits): the reader's refusal, the reason logged."""
    st.config.log(f"refused a hand: {e}")
    return TOO_BIG[0] if lang == "zh" else TOO_BIG[1]


def _refusal(ev: Tournament, entry: Entry, e: Exception, lang: str) -> str:
    """Why an entry was not taken, in the reader's language: the rules' refusal worded by refusals.py."""
    if isinstance(e, tables.Refused):
        return refusals.refusal(e.action, _table_names(ev, entry), lang, list(ev.variant.rules.places_names))
    if "nothing to correct" in str(e):
        return word("same_result", lang)
    return word("not_taken", lang) if lang == "zh" else f"{word('refused', lang)} {e}"


def _refused(e: EventError) -> Exception:
    """A step the event refuses (409), unless the file itself could not take it (503/507 pages say so)."""
    if isinstance(e, EventFileError):
        return e
    if isinstance(e, ScoreTooBig):
        return fail(422, TOO_BIG[1], TOO_BIG[0])
    if isinstance(e, HandChanged):
        return fail(409, CHANGED[1], CHANGED[0])
    return fail(409, str(e))


async def hand_enter(request: Request) -> Response:
    st = _state(request)
    form = await read_form(request)
    base = f"/t/{request.path_params['token']}"
    lang = _lang(request)

    def act(ev: Tournament) -> tuple[Seat, int, dict[str, Any] | None]:
        seat = _seat(request, ev)
        hand = _hand_number(request, ev)
        offer = st.offer(ev, seat.round, seat.table)
        entry = entry_of_form(form, seat.round, seat.table, hand, offer, ev.variant.rules)
        seen = _form_rev(form)
        try:
            why = _finish_problem(ev, entry, lang)
            if not why:
                tables.enter(ev, seat.side, entry, seen)
        except HandChanged:
            return seat, hand, _changed_form(st, ev, seat.round, seat.table, hand, lang)
        except ValueError as e:
            why = _refusal(ev, entry, e, lang)
        except (VariantError, ScoreTooBig) as e:
            why = _too_big(st, e, lang)
        except tables.HandConflict as e:
            raise fail(409, str(e)) from None
        if why:
            ctx = _form_ctx(st, ev, seat.round, seat.table, hand, entry, lang)
            ctx["error"] = why
            if seen is not None:
                ctx["rev"] = seen  # the entry shown again is still the one filled in from that revision
            return seat, hand, ctx
        return seat, hand, None

    seat, hand, refused = await st.write(act)
    if refused is not None:
        action = f"{base}/hand/{hand}"
        status = refused.pop("status", 422)
        return page(
            request, "hand.html", status, base=base, action=action, admin=False, wait=None, side=seat.side, **refused
        )
    st.config.log(f"table {seat.table} side {'AB'[seat.side]} entered round {seat.round} hand {hand}")
    return RedirectResponse(f"{base}?done=entered", status_code=303)


async def hand_confirm(request: Request) -> Response:
    return await _decide(request, confirm=True)


async def hand_reject(request: Request) -> Response:
    return await _decide(request, confirm=False)


async def _decide(request: Request, *, confirm: bool) -> Response:
    st = _state(request)
    form = await read_form(request)
    audit = _one(form, "audit")
    if not audit.isdigit() or len(audit) > 18:
        raise fail(400, "the form lacks the entry it answers")

    def act(ev: Tournament) -> tuple[Seat, int]:
        seat = _seat(request, ev)
        hand = _hand_number(request, ev)
        try:
            if confirm:
                tables.confirm(ev, seat.side, seat.round, seat.table, hand, int(audit))
            else:
                tables.reject(ev, seat.side, seat.round, seat.table, hand, int(audit))
        except tables.NotAllowed as e:
            raise fail(403, str(e), "录入的一方不能自己确认，请另一方确认。") from None
        except VariantError as e:  # entered under rules that scored it then: an event made before the check
            st.config.log(f"refused a hand: {e}")
            raise fail(422, TOO_BIG[1], TOO_BIG[0]) from None
        except EventError as e:
            if isinstance(e, ScoreTooBig):
                st.config.log(f"refused a hand: {e}")
            raise _refused(e) from None
        return seat, hand

    seat, hand = await st.write(act)
    what = "confirmed" if confirm else "sent back"
    st.config.log(f"table {seat.table} side {'AB'[seat.side]} {what} round {seat.round} hand {hand}")
    return RedirectResponse(f"/t/{request.path_params['token']}?done={'confirmed' if confirm else 'rejected'}", 303)


# -- the organiser --------------------------------------------------------------------------


def _admin(request: Request) -> str:
    token = str(request.path_params["token"])
    if not _state(request).links.is_admin(token):
        raise fail(403, "this is not the organiser's link", "这不是组织者的链接。")
    return f"/admin/{token}"


def _base_url(request: Request) -> str:
    return (_state(request).config.public_url or str(request.base_url)).rstrip("/")


def qr_svg(url: str) -> str:
    """A QR code as inline SVG (no image files, no network)."""
    svg: str = segno.make(url, error="m").svg_inline(scale=3, omitsize=True)
    return svg


async def admin_page(request: Request) -> Response:
    st = _state(request)
    base = _admin(request)
    url = _base_url(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        st.links.refresh(ev)
        rounds = []
        for rnd in ev.db.rounds_seated():
            tabs = []
            for t in _round_tables(ev, rnd, _lang(request)):
                if "bye" in t:
                    continue
                links = [f"{url}/t/{st.links.token(Seat(rnd, t['table'], side))}" for side in (0, 1)]
                tabs.append({**t, "links": links})
            rounds.append({"round": rnd, "tables": tabs})
        nxt = max(ev.db.rounds_seated(), default=0) + 1
        return {"rounds": rounds, "can_seat": nxt if ev.fmt == "swiss" and nxt <= ev.rounds else 0}

    ctx = await st.read(gather)
    ctx["lan"] = await run_in_threadpool(_lan_offer, request, url)
    return page(request, "admin.html", base=base, refresh=0, **ctx)


async def admin_seat(request: Request) -> Response:
    st = _state(request)
    await read_form(request)
    base = _admin(request)

    def act(ev: Tournament) -> None:
        try:
            club.ensure_round(ev, int(request.path_params["rnd"]))
        except EventFileError:
            raise
        except EventError as e:
            raise fail(409, str(e), "上一轮还没有全部录完（或轮次不对），现在不能排这一轮。") from None

    await st.write(act)
    return RedirectResponse(base, status_code=303)


async def print_page(request: Request) -> Response:
    """One page per side of each table: its seating, its own QR code and a score sheet.

    The sides' pages are printed apart so that each side holds only its own link; an
    entry made with one side's link is confirmed with the other side's.
    """
    st = _state(request)
    _admin(request)
    url = _base_url(request)
    lang = _lang(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        st.links.refresh(ev)
        rnd = _round_number(request, ev)
        sheets = []
        for t in _round_tables(ev, rnd, _lang(request)):
            if "bye" in t:
                continue
            for side in (0, 1):
                link = f"{url}/t/{st.links.token(Seat(rnd, t['table'], side))}"
                sheets.append(
                    {
                        **t,
                        "side": "AB"[side],
                        "other": "AB"[1 - side],
                        "side_seats": " ".join(str(s + 1) for s in side_seats(side)),
                        "url": link,
                        "svg": qr_svg(link),
                    }
                )
        return {
            "rnd": rnd,
            "sheets": sheets,
            "places": place_names(ev, lang),
            "hands": range(1, ev.hands_per_match + 1),
        }

    ctx = await st.read(gather)
    ctx["lan"] = await run_in_threadpool(_lan_offer, request, url)
    return page(request, "print.html", **ctx)


def _lan_offer(request: Request, url: str) -> dict[str, Any] | None:
    """Where the printed links point at this machine only: its LAN addresses, and whether the server answers there."""
    if not lan.is_loopback(url):
        return None
    port = urllib.parse.urlsplit(url).port or (443 if url.startswith("https") else 80)
    addrs = lan.lan_addresses()
    return {
        "host": urllib.parse.urlsplit(url).hostname,
        "links": [lan.with_host(str(request.url), a) for a in addrs],
        "listening": any(lan.listening(a, port) for a in addrs),
        "none": not addrs,
    }


def _admin_target(request: Request, ev: Tournament) -> tuple[int, int, int]:
    rnd = _round_number(request, ev)
    tbl: int = request.path_params["tbl"]
    if (rnd, tbl) not in ev.db.seating(rnd):
        raise fail(404, f"round {rnd} has no table {tbl}")
    return rnd, tbl, _hand_number(request, ev)


async def admin_hand_form(request: Request) -> Response:
    st = _state(request)
    base = _admin(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        rnd, tbl, hand = _admin_target(request, ev)
        ctx = _form_ctx(st, ev, rnd, tbl, hand, None, _lang(request))
        return {**ctx, "action": f"{base}/r/{rnd}/t/{tbl}/hand/{hand}"}

    ctx = await st.read(gather)
    return page(request, "hand.html", base=base, admin=True, wait=None, side=-1, **ctx)


async def admin_hand_save(request: Request) -> Response:
    st = _state(request)
    form = await read_form(request)
    base = _admin(request)
    lang = _lang(request)

    def act(ev: Tournament) -> tuple[tuple[int, int, int], dict[str, Any] | None]:
        rnd, tbl, hand = _admin_target(request, ev)
        entry = entry_of_form(form, rnd, tbl, hand, st.offer(ev, rnd, tbl), ev.variant.rules)
        seen = _form_rev(form)
        try:
            why = _finish_problem(ev, entry, lang)
            if not why:
                tables.check(ev, entry)  # the rules' refusal as it is, for refusals.py to word
                tables.organiser_record(ev, entry, seen)
        except EventFileError:
            raise
        except HandChanged:
            ctx = _changed_form(st, ev, rnd, tbl, hand, lang)
            return (rnd, tbl, hand), {**ctx, "action": f"{base}/r/{rnd}/t/{tbl}/hand/{hand}"}
        except (VariantError, ScoreTooBig) as e:
            why = _too_big(st, e, lang)
        except (EventError, ValueError) as e:
            why = _refusal(ev, entry, e, lang)
        if why:
            ctx = _form_ctx(st, ev, rnd, tbl, hand, entry, lang)
            ctx["error"] = why
            if seen is not None:
                ctx["rev"] = seen
            return (rnd, tbl, hand), {**ctx, "action": f"{base}/r/{rnd}/t/{tbl}/hand/{hand}"}
        return (rnd, tbl, hand), None

    (rnd, tbl, hand), refused = await st.write(act)
    if refused is not None:
        status = refused.pop("status", 422)
        return page(request, "hand.html", status, base=base, admin=True, wait=None, side=-1, **refused)
    st.config.log(f"organiser saved round {rnd} table {tbl} hand {hand}")
    return RedirectResponse(base, status_code=303)


# -- forms ----------------------------------------------------------------------------------


async def read_form(
    request: Request, max_body: int = MAX_BODY, max_value: int = MAX_VALUE, max_fields: int = MAX_FIELDS
) -> dict[str, list[str]]:
    """A small url-encoded form from this site, or a 4xx: the body is capped, the origin and CSRF token checked.

    ``max_body``, ``max_value`` and ``max_fields`` are the caps (the rules editor's form carries a whole variant file)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise fail(403, "a form from another site is refused", "拒绝来自其他网站的表单。")
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if origin != own:
            raise fail(403, "a form from another site is refused", "拒绝来自其他网站的表单。")
    ctype = request.headers.get("content-type", "").split(";")[0].strip()
    if ctype != "application/x-www-form-urlencoded":
        raise fail(415, "send the form as application/x-www-form-urlencoded")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise fail(413, f"the form is larger than {max_body} bytes")
    try:
        pairs = urllib.parse.parse_qsl(
            body.decode("ascii"), keep_blank_values=True, strict_parsing=False, max_num_fields=max_fields
        )
    except (UnicodeDecodeError, ValueError):
        raise fail(400, "the form cannot be read") from None
    form: dict[str, list[str]] = {}
    for k, v in pairs:
        if len(k) > MAX_VALUE or len(v) > max_value:
            raise fail(413, "a form field is too long")
        form.setdefault(k, []).append(v)
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = _one(form, "csrf")
    if not cookie or not hmac.compare_digest(cookie.encode(), sent.encode()):
        raise fail(
            403,
            "the form's security token does not match: reload the page and try again",
            "页面已过期：请重新打开页面再提交。",
        )
    return form


def _one(form: dict[str, list[str]], key: str) -> str:
    values = form.get(key, [])
    if len(values) > 1:
        raise fail(400, f"the form field {key!r} is given twice")
    return values[0] if values else ""


def entry_of_form(
    form: dict[str, list[str]], rnd: int, tbl: int, hand: int, offer: tables.Offer, rules: Rules | None = None
) -> Entry:
    """The entry a form describes; a value the form never offered is a forged request (400)."""
    seats = [str(s) for s in range(6)]

    def pick(key: str, allowed: set[str]) -> list[str]:
        values = [v for v in form.get(key, []) if v]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise fail(400, f"{key}: {bad[0][:20]!r} is not one of the choices offered")
        return values

    finish = []
    for place in range(1, 7):
        v = _one(form, f"p{place}")
        if v not in seats and v != "":
            raise fail(400, f"place {place}: not a seat")
        finish.append(v)
    left = [s for s in seats if s not in finish]
    if finish.count("") == 1 and len(left) == 1:
        finish[finish.index("")] = left[0]  # five players tapped: the sixth takes the place left
    pair = "{}:{}".format

    def pickers(first: str, second: str) -> list[str]:
        """Pairs chosen with two pickers per row ("who burned whom"): the engine judges each pair."""
        a, b = form.get(first, []), form.get(second, [])
        if len(a) != len(b) or any(v not in seats and v != "" for v in a + b):
            raise fail(400, f"{first}/{second}: not seats of this table")
        out = []
        for x, y in zip(a, b, strict=True):
            if bool(x) != bool(y):
                raise fail(
                    400,
                    f"{first}/{second}: choose both players of the pair, or neither",
                    "请选全一对里的两个人，或者都不选。",
                )
            if x:
                out.append(pair(x, y))
        return out

    burns = pick("burn", {pair(a, b) for a, b in offer.burns})
    if offer.burns:
        burns += pickers("burn_by", "burn_on")
    men = pick("men", {pair(a, b) for a, b in offer.men})
    if offer.men:
        men += pickers("men_victim", "men_by")
    geming = pick("geming", set(seats) if offer.geming else set())
    no_three = pick("no_three", set(seats) if offer.no_three else set())
    opened = pick("opened", set(seats) if offer.opened else set())
    chong = []
    declare = []
    for s in seats:
        c = _one(form, f"chong{s}")
        if c:
            if not offer.chongdian or c not in ("ok", "fail"):
                raise fail(400, "chongdian: not one of the choices offered")
            chong.append(f"{s}:{c}")
        d = _one(form, f"declare{s}")
        if d:
            if d not in offer.declare:
                raise fail(400, "declare: not one of the choices offered")
            declare.append(f"{d}:{s}")
    if offer.opened and _one(form, "open_form") == "except":
        # the table says who did NOT open: everyone else who played the hand opened (冲点 decides its own)
        not_opened = set(pick("not_opened", set(seats)))
        sat_out = set(geming) | set(no_three)  # placed before play: they do not play the hand
        opened = [s for s in seats if s not in not_opened and s not in sat_out]
        if rules is not None and chong:
            played = opened_in_play(rules, [int(s) for s in opened], [(int(c[0]), c[2:] == "ok") for c in chong])
            opened = [str(s) for s in played]
    return Entry(
        rnd,
        tbl,
        hand,
        [v or "?" for v in finish],
        burns=burns,
        burn_fail=pick("burn_fail", set(seats) if offer.burn_fail else set()),
        men=men,
        opened=opened,
        geming=geming,
        chongdian=chong,
        declare=declare,
        waive=pick("waive", {pair(a, b) for a, b in offer.waive}),
        no_three=no_three,
        choices={
            name: chosen
            for name, items in offer.choices.items()
            if (chosen := pick(f"choice_{name}", {pair(a, b) for a, b in items}))
        },
    )


# -- errors ---------------------------------------------------------------------------------


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    zh = exc.zh if isinstance(exc, PageError) else HEADLINES_ZH.get(exc.status_code, "")
    lang = _lang(request)
    # in Chinese the page says it in Chinese only: the English reason is the organiser's, in the log
    headline, detail = (zh, "") if lang == "zh" and zh else (exc.detail, "")
    return page(request, "message.html", exc.status_code, title=word("error", lang), message=headline, detail=detail)


UNAVAILABLE: list[tuple[type[EventError], int, str, str]] = [
    (
        EventBusy,
        503,
        "the event file is busy: another program is writing to it. Nothing was saved; try again in a moment",
        "活动文件正忙：另一个程序正在写入。这次什么也没有保存，请稍等片刻再试。",
    ),
    (
        EventFileFull,
        507,
        "the disk is full. Nothing was saved; the organiser must free some space",
        "磁盘已满：这次什么也没有保存。请组织者腾出空间后再试。",
    ),
    (
        EventFileChanged,
        503,
        "the event file was deleted or replaced while the server ran. Nothing was saved; "
        "the organiser must check the file and start the server again",
        "服务器运行期间活动文件被删除或替换了：这次什么也没有保存。请组织者检查文件后重新启动服务器。",
    ),
]


async def event_error(request: Request, exc: Exception) -> Response:
    """The event file could not take or give what was asked: a page for the reader, the reason in the log."""
    assert isinstance(exc, EventError)
    status, en, zh = (
        503,
        "the event file cannot be used now. Nothing was saved; the organiser sees why",
        HEADLINES_ZH[503],
    )
    for kind, code, en_, zh_ in UNAVAILABLE:
        if isinstance(exc, kind):
            status, en, zh = code, en_, zh_
            break
    _state(request).config.log(f"refused {request.method} {request.url.path}: {exc}")
    lang = _lang(request)
    headline, detail = (zh, "") if lang == "zh" else (en, "")
    return page(request, "message.html", status, title=word("error", lang), message=headline, detail=detail)


class OneLineErrors:
    """An unexpected error becomes a 500 page for the reader and one line in the organiser's log.

    Starlette's own error middleware would log a traceback after its handler; this one sits
    inside it and answers before the error gets there.  A body announced larger than
    :data:`MAX_BODY` is refused here with the project's 413 page, before it is read.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Request(scope).headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            response = await http_error(Request(scope), fail(413, f"the form is larger than {MAX_BODY} bytes"))
            await response(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            if started:
                raise
            request = Request(scope)
            _state(request).config.log(f"error: {type(exc).__name__}: {exc} ({request.method} {request.url.path})")
            response = page(
                request,
                "message.html",
                500,
                title=word("error", _lang(request)),
                message=word("server_error", _lang(request)),
                detail="",
            )
            await response(scope, receive, send)


def create_app(config: Config, state: State | None = None) -> Starlette:
    """The application; the event is opened (unless ``state`` is given) when the server starts, closed when it stops."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if state is None:
            own = State(config)
            try:
                own.start()
            except BaseException:
                own.close()
                raise
            app.state.gouji = own
        else:
            app.state.gouji = state
        try:
            yield
        finally:
            app.state.gouji.close()

    hand = "/t/{token}/hand/{hand:int}"
    admin_hand = "/admin/{token}/r/{rnd:int}/t/{tbl:int}/hand/{hand:int}"
    routes = [
        Route("/", standings_page),
        Route("/rounds/{rnd:int}", round_page),
        Route("/season", season_page),
        Route("/t/{token}", table_page),
        Route(hand, hand_form, methods=["GET"]),
        Route(hand, hand_enter, methods=["POST"]),
        Route(hand + "/confirm", hand_confirm, methods=["POST"]),
        Route(hand + "/reject", hand_reject, methods=["POST"]),
        Route("/admin/{token}", admin_page),
        Route("/admin/{token}/seat/{rnd:int}", admin_seat, methods=["POST"]),
        Route("/admin/{token}/print/{rnd:int}", print_page),
        Route(admin_hand, admin_hand_form, methods=["GET"]),
        Route(admin_hand, admin_hand_save, methods=["POST"]),
        Mount("/static", StaticFiles(packages=[("gouji_rules.web", "static")]), name="static"),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, EventError: event_error},
        middleware=[Middleware(OneLineErrors)],
    )
