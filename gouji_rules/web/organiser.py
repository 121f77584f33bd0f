"""The organiser's secret link: every table of every round, seating a Swiss round, the printed sheets with
each side's QR code, and entering any hand directly."""

from __future__ import annotations

import urllib.parse
from typing import Any

import segno
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..errors import VariantError
from ..game.seats import side_seats
from ..tournament import club
from ..tournament.errors import (
    EventError,
    EventFileError,
    HandChanged,
    ScoreTooBig,
)
from ..tournament.event import Tournament
from . import lan, tables
from .entry_form import (
    changed_form,
    entry_of_form,
    finish_problem,
    form_ctx,
    form_rev,
    hand_number,
    place_names,
    refusal,
    too_big,
)
from .links import Seat
from .pages import fail, page, read_form, reader_lang, state_of
from .public import round_number, round_tables


def _admin(request: Request) -> str:
    token = str(request.path_params["token"])
    if not state_of(request).links.is_admin(token):
        raise fail(403, "this is not the organiser's link", "这不是组织者的链接。")
    return f"/admin/{token}"


def _base_url(request: Request) -> str:
    return (state_of(request).config.public_url or str(request.base_url)).rstrip("/")


def qr_svg(url: str) -> str:
    """A QR code as inline SVG (no image files, no network)."""
    svg: str = segno.make(url, error="m").svg_inline(scale=3, omitsize=True)
    return svg


async def admin_page(request: Request) -> Response:
    st = state_of(request)
    base = _admin(request)
    url = _base_url(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        st.links.refresh(ev)
        rounds = []
        for rnd in ev.db.rounds_seated():
            tabs = []
            for t in round_tables(ev, rnd, reader_lang(request)):
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
    st = state_of(request)
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
    st = state_of(request)
    _admin(request)
    url = _base_url(request)
    lang = reader_lang(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        st.links.refresh(ev)
        rnd = round_number(request, ev)
        sheets = []
        for t in round_tables(ev, rnd, reader_lang(request)):
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
    rnd = round_number(request, ev)
    tbl: int = request.path_params["tbl"]
    if (rnd, tbl) not in ev.db.seating(rnd):
        raise fail(404, f"round {rnd} has no table {tbl}")
    return rnd, tbl, hand_number(request, ev)


async def admin_hand_form(request: Request) -> Response:
    st = state_of(request)
    base = _admin(request)

    def gather(ev: Tournament) -> dict[str, Any]:
        rnd, tbl, hand = _admin_target(request, ev)
        ctx = form_ctx(st, ev, rnd, tbl, hand, None, reader_lang(request))
        return {**ctx, "action": f"{base}/r/{rnd}/t/{tbl}/hand/{hand}"}

    ctx = await st.read(gather)
    return page(request, "hand.html", base=base, admin=True, wait=None, side=-1, **ctx)


async def admin_hand_save(request: Request) -> Response:
    st = state_of(request)
    form = await read_form(request)
    base = _admin(request)
    lang = reader_lang(request)

    def act(ev: Tournament) -> tuple[tuple[int, int, int], dict[str, Any] | None]:
        rnd, tbl, hand = _admin_target(request, ev)
        entry = entry_of_form(form, rnd, tbl, hand, st.offer(ev, rnd, tbl), ev.variant.rules)
        seen = form_rev(form)
        try:
            why = finish_problem(ev, entry, lang)
            if not why:
                tables.check(ev, entry)  # the rules' refusal as it is, for refusals.py to word
                tables.organiser_record(ev, entry, seen)
        except EventFileError:
            raise
        except HandChanged:
            ctx = changed_form(st, ev, rnd, tbl, hand, lang)
            return (rnd, tbl, hand), {**ctx, "action": f"{base}/r/{rnd}/t/{tbl}/hand/{hand}"}
        except (VariantError, ScoreTooBig) as e:
            why = too_big(st, e, lang)
        except (EventError, ValueError) as e:
            why = refusal(ev, entry, e, lang)
        if why:
            ctx = form_ctx(st, ev, rnd, tbl, hand, entry, lang)
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
