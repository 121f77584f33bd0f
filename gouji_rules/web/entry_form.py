"""The hand's entry form, shared by a table side's link and the organiser's: filling it in, reading what
was posted (a value the form never offered is a forged request), and the refusals that send it back."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from ..play.outcome import opened_in_play
from ..rules import Rules
from ..tournament.club import Entry
from ..tournament.errors import (
    EventError,
    EventFileError,
    HandChanged,
    ScoreTooBig,
)
from ..tournament.event import Tournament
from . import refusals, tables
from .i18n import WORDS, word
from .night import State
from .pages import fail, one_value


def hand_number(request: Request, ev: Tournament) -> int:
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


def form_ctx(
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


def _table_names(ev: Tournament, entry: Entry) -> list[str]:
    return ev.seat_names(ev.db.seating(entry.round)[(entry.round, entry.table)])


def finish_problem(ev: Tournament, entry: Entry, lang: str) -> str:
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


def form_rev(form: dict[str, list[str]]) -> int | None:
    """The hand's revision the form was filled in from; None from a page that did not carry one."""
    rev = one_value(form, "rev")
    if not rev:
        return None
    if not (rev.isascii() and rev.isdigit()) or len(rev) > 18:
        raise fail(400, "the form's revision is not a number")
    return int(rev)


def changed_form(st: State, ev: Tournament, rnd: int, tbl: int, hand: int, lang: str) -> dict[str, Any]:
    """The form again, filled in from the hand as it is now, saying why the submitted one was not saved (409)."""
    ctx = form_ctx(st, ev, rnd, tbl, hand, None, lang)
    ctx["error"] = FORM_CHANGED[0] if lang == "zh" else FORM_CHANGED[1]
    ctx["status"] = 409
    return ctx


def too_big(st: State, e: Exception, lang: str) -> str:
    """A hand the rules score out of range (a hook's number, 64 bits): the reader's refusal, the reason logged."""
    st.config.log(f"refused a hand: {e}")
    return TOO_BIG[0] if lang == "zh" else TOO_BIG[1]


def refusal(ev: Tournament, entry: Entry, e: Exception, lang: str) -> str:
    """Why an entry was not taken, in the reader's language: the rules' refusal worded by refusals.py."""
    if isinstance(e, tables.Refused):
        return refusals.refusal(e.action, _table_names(ev, entry), lang, list(ev.variant.rules.places_names))
    if "nothing to correct" in str(e):
        return word("same_result", lang)
    return word("not_taken", lang) if lang == "zh" else f"{word('refused', lang)} {e}"


def step_refused(e: EventError) -> Exception:
    """A step the event refuses (409), unless the file itself could not take it (503/507 pages say so)."""
    if isinstance(e, EventFileError):
        return e
    if isinstance(e, ScoreTooBig):
        return fail(422, TOO_BIG[1], TOO_BIG[0])
    if isinstance(e, HandChanged):
        return fail(409, CHANGED[1], CHANGED[0])
    return fail(409, str(e))


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
        v = one_value(form, f"p{place}")
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
        c = one_value(form, f"chong{s}")
        if c:
            if not offer.chongdian or c not in ("ok", "fail"):
                raise fail(400, "chongdian: not one of the choices offered")
            chong.append(f"{s}:{c}")
        d = one_value(form, f"declare{s}")
        if d:
            if d not in offer.declare:
                raise fail(400, "declare: not one of the choices offered")
            declare.append(f"{d}:{s}")
    if offer.opened and one_value(form, "open_form") == "except":
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
