"""A table side's secret link: its table's page, entering a hand, and confirming or sending back the
other side's entry (an entry made with one side's link is confirmed with the other side's)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..errors import VariantError
from ..game.seats import side_seats
from ..tournament import club
from ..tournament.errors import (
    EventError,
    HandChanged,
    ScoreTooBig,
)
from ..tournament.event import Tournament
from . import tables
from .entry_form import (
    TOO_BIG,
    changed_form,
    entry_of_form,
    finish_problem,
    form_ctx,
    form_rev,
    hand_number,
    refusal,
    step_refused,
    too_big,
)
from .links import Seat
from .pages import fail, one_value, page, read_form, reader_lang, state_of
from .public import table_hands


def _seat(request: Request, ev: Tournament) -> Seat:
    seat = state_of(request).links.seat_of(ev, str(request.path_params["token"]))
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
        "hands": table_hands(ev, seat.round, seat.table, names, lang),
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
    lang = reader_lang(request)
    ctx = await state_of(request).read(lambda ev: _table_ctx(ev, _seat(request, ev), lang))
    return page(request, "table.html", base=base, done=done, refresh=20, **ctx)


async def hand_form(request: Request) -> Response:
    st = state_of(request)
    base = f"/t/{request.path_params['token']}"

    def gather(ev: Tournament) -> dict[str, Any]:
        seat = _seat(request, ev)
        hand = hand_number(request, ev)
        ctx = form_ctx(st, ev, seat.round, seat.table, hand, None, reader_lang(request))
        wait = tables.pending(ev, seat.round, seat.table, hand)
        return {**ctx, "action": f"{base}/hand/{hand}", "wait": wait, "side": seat.side}

    ctx = await st.read(gather)
    return page(request, "hand.html", base=base, admin=False, **ctx)


async def hand_enter(request: Request) -> Response:
    st = state_of(request)
    form = await read_form(request)
    base = f"/t/{request.path_params['token']}"
    lang = reader_lang(request)

    def act(ev: Tournament) -> tuple[Seat, int, dict[str, Any] | None]:
        seat = _seat(request, ev)
        hand = hand_number(request, ev)
        offer = st.offer(ev, seat.round, seat.table)
        entry = entry_of_form(form, seat.round, seat.table, hand, offer, ev.variant.rules)
        seen = form_rev(form)
        try:
            why = finish_problem(ev, entry, lang)
            if not why:
                tables.enter(ev, seat.side, entry, seen)
        except HandChanged:
            return seat, hand, changed_form(st, ev, seat.round, seat.table, hand, lang)
        except ValueError as e:
            why = refusal(ev, entry, e, lang)
        except (VariantError, ScoreTooBig) as e:
            why = too_big(st, e, lang)
        except tables.HandConflict as e:
            raise fail(409, str(e)) from None
        if why:
            ctx = form_ctx(st, ev, seat.round, seat.table, hand, entry, lang)
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
    st = state_of(request)
    form = await read_form(request)
    audit = one_value(form, "audit")
    if not audit.isdigit() or len(audit) > 18:
        raise fail(400, "the form lacks the entry it answers")

    def act(ev: Tournament) -> tuple[Seat, int]:
        seat = _seat(request, ev)
        hand = hand_number(request, ev)
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
            raise step_refused(e) from None
        return seat, hand

    seat, hand = await st.write(act)
    what = "confirmed" if confirm else "sent back"
    st.config.log(f"table {seat.table} side {'AB'[seat.side]} {what} round {seat.round} hand {hand}")
    return RedirectResponse(f"/t/{request.path_params['token']}?done={'confirmed' if confirm else 'rejected'}", 303)
