"""A hand entered at the table: one side enters it, the other side confirms it, then it counts.

Everything that decides whether a result is acceptable is ``tournament.club``'s:
:func:`~gouji_rules.tournament.club.score_entry` checks and scores an entry, and
:func:`~gouji_rules.tournament.club.record` stores it (a correction goes through
``record(..., correct=True)``, as ``gouji event correct`` does).  This module adds
only the two-step handshake, kept in the event's audit trail:

* ``enter``: one side's entry, waiting for the other side (pending: not counted);
* ``reject``: the other side disputes it, or the entering side withdraws it;
* ``record`` / ``correct``: written by ``club.record`` once the other side confirms
  (``confirm`` when the confirmed result was already stored, so nothing changed).

A hand is pending while its newest audit entry is an ``enter``.  Each step is
decided inside one ``BEGIN IMMEDIATE`` transaction, so of two phones entering the
same hand at once exactly one lands and the other is told.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction
from ..parts.registry import TRIBUTE_KINDS
from ..phases.base import club_entries
from ..tournament import club
from ..tournament.club import Entry
from ..tournament.errors import EventError, HandChanged
from ..tournament.event import Tournament
from ..tournament.storage import EventDB


class HandConflict(EventError):
    """The hand changed under the request: entered by someone else, already confirmed, or recorded."""


class NotAllowed(EventError):
    """The step is not this side's to take (a side cannot confirm its own entry)."""


@dataclass(frozen=True)
class Pending:
    """An entered hand waiting for the other side."""

    audit_id: int
    round: int
    table: int
    hand: int
    side: int
    entry: Entry
    scores: tuple[int, int]
    correct: bool
    at: str


@dataclass
class Offer:
    """What the entry form offers at one table: only the facts the engine accepts there."""

    burns: list[tuple[int, int]] = field(default_factory=list)
    burn_fail: bool = False
    men: list[tuple[int, int]] = field(default_factory=list)
    opened: bool = False
    geming: bool = False
    chongdian: bool = False
    declare: list[str] = field(default_factory=list)
    waive: list[tuple[int, int]] = field(default_factory=list)
    no_three: bool = False
    choices: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """the registered phases' choices the rules play (``ClubEntry``), by name: the pairs offered"""
    choice_titles: dict[str, dict[str, str]] = field(default_factory=dict)
    """each choice's label by language (``zh``, ``en``), from its ``ClubEntry``"""


class Refused(ValueError):
    """The rules refuse an entry: the engine's text, with the IllegalAction (rule, clause) it came from so a
    page can say it in the reader's words."""

    def __init__(self, action: IllegalAction) -> None:
        super().__init__(f"{action.message} (rule {action.rule}{'; ' + action.clause if action.clause else ''})")
        self.action = action


def check(event: Tournament, entry: Entry) -> club.Scored:
    """``club.score_entry``, with a rules refusal (IllegalAction: rule and clause) as a ValueError like the others."""
    try:
        return club.score_entry(event, entry)
    except IllegalAction as e:
        raise Refused(e) from None


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def offer(event: Tournament, rnd: int, tbl: int) -> Offer:
    """Ask the engine which facts this event's rules allow, by the Rules predicates outcome.py checks with.

    A burn pair is offered only where ``Rules.may_burn`` allows it, a declaration only where
    ``Rules.may_declare`` does, and so on; the entry is still checked as a whole
    (``club.score_entry`` → ``outcome.verify_outcome``) when it is submitted.
    """
    rules = event.variant.rules
    pairs = [(a, b) for a in range(6) for b in range(6) if a != b]
    out = Offer()
    if rules.has_burn():
        out.burns = [(a, b) for a, b in pairs if rules.may_burn(a, b)]
        out.burn_fail = True
    if rules.has_men():
        out.men = pairs
    out.opened = rules.has_open_point()
    out.geming = rules.has_geming()
    out.chongdian = rules.has_chongdian()
    out.declare = [k for k in rules.staked_declarations() if rules.may_declare(k)]
    out.waive = [(a, b) for a, b in pairs if any(rules.may_waive(k, a, b) for k in TRIBUTE_KINDS)]
    out.no_three = rules.no_three_places_last()
    for name, phase in club_entries().items():
        if phase.entry is not None and phase.enabled(rules):
            out.choices[name] = pairs
            out.choice_titles[name] = {"zh": phase.entry.zh, "en": phase.entry.en}
    return out


def _entry_json(entry: Entry) -> dict[str, Any]:
    return dataclasses.asdict(entry)


def _entry_of(d: dict[str, Any]) -> Entry:
    return Entry(**{f.name: d[f.name] for f in dataclasses.fields(Entry) if f.name in d})


def pending(event: Tournament, rnd: int, tbl: int, hand: int) -> Pending | None:
    """The hand's entry waiting for confirmation, if its newest audit entry is one."""
    row = event.db.con.execute(
        "SELECT id, action, new, at FROM audit WHERE round = ? AND tbl = ? AND hand = ? AND rotation = 0 "
        "ORDER BY id DESC LIMIT 1",
        (rnd, tbl, hand),
    ).fetchone()
    if row is None or row[1] != "enter":
        return None
    new = json.loads(row[2])
    return Pending(
        int(row[0]),
        rnd,
        tbl,
        hand,
        int(new["side"]),
        _entry_of(new["entry"]),
        (int(new["scores"][0]), int(new["scores"][1])),
        bool(new["correct"]),
        str(row[3]),
    )


def _side_name(side: int) -> str:
    return "AB"[side]


def enter(event: Tournament, side: int, entry: Entry, seen: int | None = None) -> Pending:
    """One side's entry for a hand: scored now (ValueError says why not), counted once the other side confirms.

    A hand already recorded is entered as a correction.  Raises HandConflict when
    the hand already has an entry waiting, and HandChanged when ``seen`` (the hand's revision the
    form was filled in from) is no longer the hand's: it was recorded or corrected meanwhile.
    """
    sc = check(event, entry)
    key = (entry.round, entry.table, entry.hand)
    at = _now()
    with event.db.transaction() as con:
        _same_revision(event, key, seen)
        waiting = pending(event, *key)
        if waiting is not None:
            raise HandConflict(
                f"round {key[0]} table {key[1]} hand {key[2]} was already entered by side "
                f"{_side_name(waiting.side)} at {waiting.at} and waits for the other side"
            )
        old = event.db.hand(*key)
        if old is not None and old.result == sc.result:
            raise ValueError("this is the result recorded already: there is nothing to correct")
        new = {
            "entry": _entry_json(entry),
            "side": side,
            "scores": list(sc.settlement.scores),
            "result": sc.result,
            "correct": old is not None,
        }
        EventDB.put_audit(
            con,
            "enter",
            (*key, 0),
            None if old is None else old.result,
            new,
            f"web: table {key[1]} side {_side_name(side)} entered",
            at,
        )
    got = pending(event, *key)
    assert got is not None
    return got


def confirm(event: Tournament, side: int, rnd: int, tbl: int, hand: int, audit_id: int) -> list[club.Scored]:
    """The other side confirms the entry it was shown (``audit_id``); the hand is then recorded.

    The entry must still be the hand's newest audit entry when the result is written, checked in the
    write's own transaction (the ``guard``): anything done to the hand after it was entered (a
    ``gouji event correct``, ``record --replace``, the organiser's page) makes the confirmation a
    :class:`HandChanged` refusal, nothing written, instead of undoing that change without a word.
    """
    waiting = pending(event, rnd, tbl, hand)
    if waiting is None or waiting.audit_id != audit_id:
        raise HandConflict(f"round {rnd} table {tbl} hand {hand}: the entry you saw is no longer waiting")
    if waiting.side == side:
        raise NotAllowed("the side that entered a hand cannot confirm it; the other side confirms")
    source = (
        f"web: table {tbl} side {_side_name(waiting.side)} entered (audit {audit_id}), "
        f"side {_side_name(side)} confirmed"
    )

    def still_waiting() -> None:
        now = pending(event, rnd, tbl, hand)
        if now is None or now.audit_id != audit_id:
            raise HandChanged(
                f"round {rnd} table {tbl} hand {hand} changed after the entry being confirmed (audit {audit_id}) "
                "was made; nothing was changed"
            )

    scored = _store(event, source, waiting.entry, waiting.correct, guard=still_waiting)
    with event.db.transaction() as con:
        still = pending(event, rnd, tbl, hand)
        if still is not None and still.audit_id == audit_id:
            # the stored result already said the same (typed again at the CLI meanwhile): nothing was written,
            # so the confirmation itself closes the entry
            EventDB.put_audit(con, "confirm", (rnd, tbl, hand, 0), None, None, source + "; nothing changed", _now())
    return scored


def reject(event: Tournament, side: int, rnd: int, tbl: int, hand: int, audit_id: int) -> None:
    """Either side sends a waiting entry back (the other side disputes it, or its own side withdraws it)."""
    with event.db.transaction() as con:
        waiting = pending(event, rnd, tbl, hand)
        if waiting is None or waiting.audit_id != audit_id:
            raise HandConflict(f"round {rnd} table {tbl} hand {hand}: the entry you saw is no longer waiting")
        what = "withdrew" if waiting.side == side else "rejected"
        EventDB.put_audit(
            con,
            "reject",
            (rnd, tbl, hand, 0),
            {"entry": _entry_json(waiting.entry), "side": waiting.side},
            None,
            f"web: table {tbl} side {_side_name(side)} {what} audit {audit_id}",
            _now(),
        )


def _same_revision(event: Tournament, key: tuple[int, int, int], seen: int | None) -> None:
    if seen is not None and event.db.revision(*key) != seen:
        raise HandChanged(
            f"round {key[0]} table {key[1]} hand {key[2]} was recorded or corrected after the form was shown; "
            "nothing was changed"
        )


def _store(
    event: Tournament,
    source: str,
    entry: Entry,
    correction: bool,
    guard: Callable[[], None] | None = None,
    seen: int | None = None,
) -> list[club.Scored]:
    """Record a hand, or correct it as ``gouji event correct --replace`` does: the form always shows the
    whole hand, so what is left out of it was taken out on purpose.  ``guard``: see ``club.record``;
    ``seen``: the hand's revision the form was filled in from (compared in the write transaction)."""
    key = (entry.round, entry.table, entry.hand)
    revisions = None if seen is None else {key: seen}
    if correction:
        done = club.correct(event, [(source, entry)], replace=True, guard=guard, seen=revisions)
        return [c.after for c in done]
    return club.record(event, [(source, entry)], guard=guard, revisions=revisions)


def organiser_record(event: Tournament, entry: Entry, seen: int | None = None) -> list[club.Scored]:
    """The organiser's entry counts at once, as ``gouji event record`` / ``correct --replace`` would;
    refused (HandChanged) when the hand is no longer at revision ``seen``, the one its form showed."""
    stored = event.db.hand(entry.round, entry.table, entry.hand) is not None
    return _store(event, "web: organiser", entry, stored, seen=seen)


def entry_of_result(event: Tournament, rnd: int, tbl: int, hand: int, result: dict[str, Any]) -> Entry:
    """A stored result as the entry that produces it (to pre-fill a correction)."""
    return club.entry_of((rnd, tbl, hand), result, event.variant.rules)
