"""Club events: seating sheets, and results entered from real tables, scored by settle().

At a real table nobody records the play, only what the hand decided: the
finishing order and the events that move points or tribute (烧, 闷, 开点,
宣点/明点/预点, 革命, 冲点, a waived tribute).  :func:`settle` turns that into the
hand's points, the tribute owed next hand and the next leader, exactly as for a
simulated hand.  One command (or one results file) is one transaction; a
correction keeps the old result in the audit table.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction
from ..game.seats import opposite, side, side_seats
from ..parts.registry import DECLARATIONS
from ..phases.base import club_entries
from ..play.outcome import Outcome, opened_in_play, settle_outcome
from ..rules import Rules
from ..rules.settlement import Debt, Settlement
from . import schedule, standings
from .errors import AlreadyRecorded, EventError, HandChanged, InputError, PlayedOnline, ScoreTooBig
from .event import Tournament, _rows, team_seats
from .storage import INT64_MAX, INT64_MIN, EventDB, HandRow

DEBT_NAMES = {
    "point": "点贡",
    "burn": "烧贡",
    "men": "闷贡/清贡",
    "place": "落贡/拉贡",
    "sweep": "串三户贡",
}
RESULT_COLUMNS = (
    "round",
    "table",
    "hand",
    "finish",
    "burn",
    "burn_fail",
    "men",
    "opened",
    "geming",
    "chongdian",
    "declare",
    "waive",
    "no_three",
)


@dataclass
class Entry:
    """One hand's result as typed at the table (seat numbers or player names)."""

    round: int
    table: int
    hand: int
    finish: list[str]
    burns: list[str] = field(default_factory=list)
    burn_fail: list[str] = field(default_factory=list)
    men: list[str] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)
    geming: list[str] = field(default_factory=list)
    chongdian: list[str] = field(default_factory=list)
    declare: list[str] = field(default_factory=list)
    waive: list[str] = field(default_factory=list)
    no_three: list[str] = field(default_factory=list)
    choices: dict[str, list[str]] = field(default_factory=dict)
    """the choices of registered phases (``ClubEntry``), by the entry's name: ``A:B`` pairs"""


@dataclass
class Scored:
    """A hand's entry checked and scored: what is stored and what is printed for the table."""

    entry: Entry
    seats: list[int]
    names: list[str]
    result: dict[str, Any]
    settlement: Settlement
    debts: list[Debt]
    places: list[int]


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def split_list(text: str) -> list[str]:
    """Values of a multi-valued field: separated by spaces or commas."""
    return [t for t in text.replace(",", " ").split() if t]


# -- seating --------------------------------------------------------------------------------


def round_complete(event: Tournament, rnd: int) -> list[int]:
    """The tables of round ``rnd`` that still miss hands (empty when the round is complete)."""
    have: dict[int, int] = {}
    for row in event.db.hands(rnd):
        have[row.tbl] = have.get(row.tbl, 0) + 1
    need = event.hands_per_match * len(event.rotations)
    return [t for (_r, t) in event.db.seating(rnd) if have.get(t, 0) < need]


def ensure_round(event: Tournament, rnd: int) -> dict[tuple[int, int], list[int]]:
    """The seating of round ``rnd``; a Swiss round is paired here once the round before is complete."""
    if not 1 <= rnd <= event.rounds:
        raise EventError(f"round {rnd} is not in this event (rounds 1 to {event.rounds})")
    seating = event.db.seating(rnd)
    if seating:
        return seating
    if event.fmt != "swiss":
        raise EventError(f"round {rnd} has no seating")
    prev = event.db.seating(rnd - 1)
    if not prev:
        raise EventError(f"round {rnd - 1} is not seated yet; seat the rounds in order")
    missing = round_complete(event, rnd - 1)
    if missing:
        raise EventError(
            f"round {rnd} is paired from the standings after round {rnd - 1}, "
            f"which still misses hands at table(s) {', '.join(map(str, missing))}"
        )
    team_of = {e.id: str(e.team) for e in event.entrants.values()}
    played = {frozenset((team_of[s[0]], team_of[s[1]])) for s in event.db.seating().values()}
    had_bye = {t for _r, t in event.db.byes()}
    ranked = [line.name for line in standings.compute(event)]
    pairs, byes = schedule.swiss(ranked, played, had_bye)
    ids = {t: sorted(e.id for e in event.entrants.values() if e.team == t) for t in ranked}
    seats = {t: team_seats(ids[a], ids[b]) for t, (a, b) in enumerate(pairs, start=1)}
    with event.db.transaction() as con:
        if not event.db.seating(rnd):
            EventDB.put_seats(con, rnd, seats, byes)
    return event.db.seating(rnd)


def needs_pairing(event: Tournament, rnd: int) -> bool:
    """True when showing round ``rnd`` would pair it now (a Swiss round not seated yet): a write."""
    return event.fmt == "swiss" and 1 <= rnd <= event.rounds and not event.db.seating(rnd)


def facts_line(result: dict[str, Any], rules: Rules) -> str:
    """A stored result in one line, as the options that enter it: for ``correct``'s before and after."""
    e = entry_of((0, 0, 0), result, rules)
    parts = [f"finish {' '.join(e.finish)}"]
    for name, values in (
        ("burn", e.burns),
        ("burn-fail", e.burn_fail),
        ("men", e.men),
        ("opened", e.opened),
        ("geming", e.geming),
        ("chongdian", e.chongdian),
        ("declare", e.declare),
        ("waive", e.waive),
        ("no-three", e.no_three),
        *((name.replace("_", "-"), values) for name, values in e.choices.items()),
    ):
        if values:
            parts.append(f"{name} {' '.join(values)}")
    return "; ".join(parts)


def seating_sheet(event: Tournament, rnd: int) -> list[dict[str, Any]]:
    """Per table: who sits where (seats 0-5 in order of play), each seat's 对头, and the two sides."""
    out = []
    for (_r, tbl), seats in sorted(ensure_round(event, rnd).items()):
        names = event.seat_names(seats)
        teams = [event.entrants[e].team for e in seats]
        rows = [
            {"seat": s, "player": names[s], "team": teams[s] or "AB"[side(s)], "opposite": opposite(s)}
            for s in range(6)
        ]
        out.append({"round": rnd, "table": tbl, "seats": rows})
    byes = [t for r, t in event.db.byes() if r == rnd]
    if byes:
        out.append({"round": rnd, "bye": byes})
    return out


# -- results --------------------------------------------------------------------------------


def _seat(token: str, names: Sequence[str], what: str) -> int:
    t = unicodedata.normalize("NFC", token.strip())
    if t.isdecimal():
        s = int(t) if len(t) < 4 else 99
        if not 0 <= s <= 5:
            raise InputError(f"{what}: seat {t} is not 0 to 5")
        return s
    if t in names:
        return list(names).index(t)
    raise InputError(f"{what}: {t!r} is neither a seat number 0-5 nor a player at this table ({' '.join(names)})")


def _pair(text: str, names: Sequence[str], what: str) -> tuple[int, int]:
    a, colon, b = text.partition(":")
    if not colon:
        raise InputError(f"{what}: {text!r} should be SEAT:SEAT")
    return _seat(a, names, what), _seat(b, names, what)


def seats_of(event: Tournament, rnd: int, tbl: int, hand: int) -> list[int]:
    """The entrants at a table of a seated round; :class:`InputError` naming what does not exist."""
    if not 1 <= rnd <= event.rounds:
        raise InputError(f"round {rnd} is not in this event (1 to {event.rounds})")
    seating = event.db.seating(rnd)
    if not seating:
        raise InputError(f"round {rnd} is not seated yet (gouji event seat --round {rnd})")
    seats = seating.get((rnd, tbl))
    if seats is None:
        raise InputError(f"round {rnd} has no table {tbl} (tables {', '.join(str(t) for _, t in seating)})")
    if not 1 <= hand <= event.hands_per_match:
        raise InputError(f"hand {hand} is not in a match (hands 1 to {event.hands_per_match})")
    return seats


def outcome_of(entry: Entry, names: Sequence[str]) -> Outcome:
    """Seat numbers and player names turned into the hand's facts (shape only: the rules judge them later)."""
    finish = [_seat(t, names, "finish") for t in entry.finish]
    if len(finish) != 6 or len(set(finish)) != 6:
        raise InputError(f"finish names each of the six seats once, in finishing order; got {' '.join(entry.finish)!r}")
    places = [0] * 6
    for i, s in enumerate(finish):
        places[s] = i + 1
    chong: list[tuple[int, bool]] = []
    for c in entry.chongdian:
        who, colon, how = c.partition(":")
        if not colon or how not in ("ok", "fail"):
            raise InputError(f"chongdian: {c!r} should be SEAT:ok or SEAT:fail")
        chong.append((_seat(who, names, "chongdian"), how == "ok"))
    declarations: list[tuple[str, int]] = []
    for d in entry.declare:
        kind, colon, who = d.partition(":")
        if not colon or kind not in DECLARATIONS:
            raise InputError(f"declare: {d!r} should be KIND:SEAT with KIND one of {', '.join(DECLARATIONS)}")
        declarations.append((kind, _seat(who, names, "declare")))
    return Outcome(
        places=places,
        opened=sorted({_seat(o, names, "opened") for o in entry.opened}),
        burns=[_pair(b, names, "burn") for b in entry.burns],
        burn_fails=[_seat(b, names, "burn-fail") for b in entry.burn_fail],
        men=[_pair(m, names, "men") for m in entry.men],
        geming=[_seat(g, names, "geming") for g in entry.geming],
        chongdian=chong,
        declarations=declarations,
        waived=[_pair(w, names, "waive") for w in entry.waive],
        no_three=[_seat(n, names, "no-three") for n in entry.no_three],
        choices=_choices(entry, names),
    )


def _choices(entry: Entry, names: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    """The registered phases' choices as seat pairs; a name no registered phase takes is refused."""
    known = club_entries()
    out: dict[str, list[tuple[int, int]]] = {}
    for name, values in entry.choices.items():
        if not values:
            continue
        if name not in known:
            raise InputError(f"{name}: no phase takes this choice (known: {', '.join(known) or 'none'})")
        out[name] = [_pair(v, names, name.replace("_", "-")) for v in values]
    return out


def score_entry(event: Tournament, entry: Entry) -> Scored:
    """Check one entry against the event and the rules, and settle it.

    Raises :class:`InputError` when the entry names something that does not exist (a round, a table,
    a seat) and :class:`~gouji_rules.errors.IllegalAction` (rule and clause) when the rules
    could not have produced it: the check is :func:`gouji_rules.play.outcome.verify_outcome`.
    """
    refuse_online(event, entry.round, entry.table)
    seats = seats_of(event, entry.round, entry.table, entry.hand)
    names = event.seat_names(seats)
    o = outcome_of(entry, names)
    settlement, debts = settle_outcome(event.variant.rules, o)
    for score in settlement.scores:  # checked before anything is written: a web entry waits with its scores
        if not INT64_MIN <= score <= INT64_MAX:
            raise ScoreTooBig(score, (entry.round, entry.table, entry.hand))
    stored = {
        "finish": sorted(range(6), key=lambda s: o.places[s]),
        "burns": [list(x) for x in o.burns],
        "men": [list(x) for x in o.men],
        "opened": [s for s, on in enumerate(o.opened_seats(event.variant.rules)) if on],
        "geming": list(o.geming),
        "chongdian": [[s, "ok" if ok else "fail"] for s, ok in o.chongdian],
        "declarations": [list(x) for x in o.declarations],
        "waived": [list(x) for x in o.waived],
    }
    if o.burn_fails:
        stored["burn_fails"] = list(o.burn_fails)
    if o.no_three:
        stored["no_three"] = list(o.no_three)
    if o.choices:
        stored["choices"] = {k: [list(x) for x in v] for k, v in o.choices.items()}
    return Scored(entry, seats, names, stored, settlement, debts, list(o.places))


def refuse_online(event: Tournament, rnd: int, tbl: int) -> None:
    """:class:`PlayedOnline` for a table of an online round: its results come from the server alone."""
    if tbl in event.db.online_tables(rnd):
        raise PlayedOnline(
            f"round {rnd} table {tbl} is played online: its results are stored by the server as each hand ends "
            "and cannot be entered or corrected by hand"
        )


def entry_of(key: tuple[int, int, int], result: dict[str, Any], rules: Rules) -> Entry:
    """A stored result back as the entry that would store it again (seat numbers)."""
    return Entry(
        key[0],
        key[1],
        key[2],
        [str(s) for s in result["finish"]],
        burns=[f"{a}:{b}" for a, b in result.get("burns", [])],
        burn_fail=[str(s) for s in result.get("burn_fails", [])],
        men=[f"{a}:{b}" for a, b in result.get("men", [])],
        opened=[str(s) for s in _opened_by_hand(result, rules)],
        geming=[str(s) for s in result.get("geming", [])],
        chongdian=[f"{a}:{b}" for a, b in result.get("chongdian", [])],
        declare=[f"{k}:{s}" for k, s in result.get("declarations", [])],
        waive=[f"{a}:{b}" for a, b in result.get("waived", [])],
        no_three=[str(s) for s in result.get("no_three", [])],
        choices={k: [f"{a}:{b}" for a, b in v] for k, v in result.get("choices", {}).items()},
    )


def _record_of(event: Tournament, sc: Scored) -> dict[str, Any]:
    st = sc.settlement
    return {
        "kind": "result",
        "variant": event.variant.name,
        "event": event.name,
        "round": sc.entry.round,
        "table": sc.entry.table,
        "hand": sc.entry.hand,
        "players": sc.names,
        "finish": sc.result["finish"],
        "places": sc.places,
        "result": sc.result,
        "scores": list(st.scores),
        "sweep": st.sweep,
        "next_leader": st.next_leader,
        "debts_next": [d.__dict__ for d in sc.debts],
    }


def _check(event: Tournament, entry: Entry, file: str, line: int) -> Scored:
    try:
        if event.fmt == "swiss" and not event.db.seating(entry.round) and event.db.write:
            ensure_round(event, entry.round)  # a Swiss round is paired when its first result comes in
        return score_entry(event, entry)
    except IllegalAction as e:
        raise InputError(
            f"{e.message} (rule {e.rule}{'; ' + e.clause if e.clause else ''})", file=file, line=line
        ) from None
    except InputError as e:
        raise InputError(e.message, file=file, line=line) from None
    except EventError as e:
        raise InputError(str(e), file=file, line=line) from None


def _line(source: str, file: str) -> int:
    tail = source.rsplit(":", 1)[-1]
    return int(tail) if file and tail.isdigit() else 0


def record(
    event: Tournament,
    entries: Sequence[tuple[str, Entry]],
    *,
    replace: bool = False,
    correct: bool = False,
    file: str = "",
    revisions: Mapping[tuple[int, int, int], int] | None = None,
    guard: Callable[[], None] | None = None,
) -> list[Scored]:
    """Check every entry, then store them all in one transaction (or none of them).

    ``entries`` pairs each entry with where it came from (``FILE:LINE`` or
    ``command line``).  Whether a hand is already stored is decided inside the write
    transaction (``BEGIN IMMEDIATE``), so of two scorers entering one hand at once exactly
    one lands and the other gets :class:`AlreadyRecorded`.  An entry for a stored hand is
    refused unless ``replace`` (the whole hand) or ``correct`` (which also requires that
    it exists); either way the old result goes to the audit table.

    ``revisions`` (from :func:`correct`) holds each hand's revision (:meth:`EventDB.revision`) as
    read when the change was worked out, and ``guard`` (the web's confirmation: is the entry it
    confirms still the one waiting?) runs first inside the transaction: a hand changed by another
    command or on the web in between is refused with :class:`HandChanged`, nothing written.
    That compare and the write are one transaction, so of two changes worked out from one
    revision exactly one lands.
    """
    if event.mode == "bots":
        raise EventError("this is a bot event: its hands are played by 'gouji event run', not entered by hand")
    scored: list[tuple[str, Scored]] = []
    seen: dict[tuple[int, int, int], str] = {}
    for source, entry in entries:
        line = _line(source, file)
        sc = _check(event, entry, file, line)
        key = (entry.round, entry.table, entry.hand)
        if key in seen:
            raise InputError(
                f"round {key[0]} table {key[1]} hand {key[2]} is already on {seen[key]}", file=file, line=line
            )
        seen[key] = source
        scored.append((source, sc))
    at = _now()
    with event.db.transaction() as con:
        if guard is not None:
            guard()
        for source, sc in scored:
            en = sc.entry
            line = _line(source, file)
            _same_revision(event, (en.round, en.table, en.hand), revisions)
            refuse_online(event, en.round, en.table)  # again under the lock: the server may have begun since
            old = event.db.hand(en.round, en.table, en.hand)
            where = f"round {en.round} table {en.table} hand {en.hand}"
            if old is not None and not (replace or correct):
                raise AlreadyRecorded(
                    _located(
                        f"{where} is already recorded; change it with 'gouji event correct' "
                        f"(--round {en.round} --table {en.table} --hand {en.hand} and what to change), "
                        "or enter the whole hand again with --replace",
                        file,
                        line,
                    )
                )
            if old is None and correct:
                raise InputError(f"{where} has no result to correct", file=file, line=line)
            if old is not None and old.result == sc.result:
                continue  # nothing changes: no write, no audit entry
            row = HandRow(
                en.round, en.table, en.hand, 0, sc.places, sc.settlement.scores, sc.result, _record_of(event, sc)
            )
            if old is not None:
                con.execute(
                    "DELETE FROM hands WHERE round = ? AND tbl = ? AND hand = ? AND rotation = 0",
                    (en.round, en.table, en.hand),
                )
            EventDB.put_hand(con, row)
            action = "correct" if old is not None else "record"
            EventDB.put_audit(
                con,
                action,
                (en.round, en.table, en.hand, 0),
                None if old is None else old.result,
                sc.result,
                source,
                at,
            )
    return [sc for _, sc in scored]


def _same_revision(
    event: Tournament, key: tuple[int, int, int], revisions: Mapping[tuple[int, int, int], int] | None
) -> None:
    """Refuse (:class:`HandChanged`) a change worked out from a revision of the hand that is no longer its own."""
    if revisions is None or key not in revisions:
        return
    now = event.db.revision(*key)
    if now != revisions[key]:
        raise HandChanged(
            f"round {key[0]} table {key[1]} hand {key[2]} was changed by another command or on the web while "
            f"this correction was worked out (revision {revisions[key]}, now {now}); nothing was changed: "
            "look at the hand again and run the correction again"
        )


def _located(message: str, file: str, line: int) -> str:
    return str(InputError(message, file=file, line=line))


@dataclass
class Correction:
    """What ``correct`` did to one hand: the result before and after, and whether anything changed."""

    key: tuple[int, int, int]
    before: dict[str, Any]
    after: Scored
    changed: bool


FIELDS = ("finish", "burns", "burn_fail", "men", "opened", "geming", "chongdian", "declare", "waive", "no_three")


def merged(old: Entry, given: Entry, *, replace: bool) -> tuple[Entry, list[str]]:
    """The old entry with the fields ``given`` names replaced; the facts that would be dropped.

    ``correct`` changes only what it is given; a given field that leaves out a fact recorded
    before (a burn, an opened seat, …) drops it, which needs ``replace`` (the whole hand).
    """
    if replace:
        return given, []
    out = Entry(old.round, old.table, old.hand, list(old.finish))
    dropped: list[str] = []
    for f in FIELDS:
        new = getattr(given, f)
        before = getattr(old, f)
        if not new:
            setattr(out, f, list(before))
            continue
        setattr(out, f, list(new))
        if f != "finish":
            dropped += [f"{f} {x}" for x in before if x not in new]
    for name in {*old.choices, *given.choices}:
        new, before = given.choices.get(name, []), old.choices.get(name, [])
        out.choices[name] = list(new or before)
        if new:
            dropped += [f"{name} {x}" for x in before if x not in new]
    out.choices = {k: v for k, v in out.choices.items() if v}
    return out, dropped


def correct(
    event: Tournament,
    entries: Sequence[tuple[str, Entry]],
    *,
    replace: bool = False,
    file: str = "",
    guard: Callable[[], None] | None = None,
    seen: Mapping[tuple[int, int, int], int] | None = None,
) -> list[Correction]:
    """Change recorded hands: each entry's given fields replace the recorded ones, the rest stay.

    All in one transaction: every hand must exist; a change that would drop a recorded fact
    is refused unless ``replace`` (then the entry is the whole hand); a hand whose result
    does not change is not written and gets no audit entry.  Each hand's revision is read
    before its result, and :func:`record` refuses the change if the hand has another revision when
    it writes (a change made meanwhile by another command or on the web is never undone silently).
    ``guard``: see :func:`record`; ``seen``: revisions read earlier, when the change was shown to someone
    (a web form carries the revision it was filled in from), used instead of reading them here.
    """
    if event.mode == "bots":
        raise EventError("this is a bot event: its hands are played by 'gouji event run', not entered by hand")
    plans: list[tuple[str, Entry, dict[str, Any]]] = []
    revisions: dict[tuple[int, int, int], int] = {}
    for source, entry in entries:
        line = _line(source, file)
        key = (entry.round, entry.table, entry.hand)
        # read first: a change between the two reads is then caught
        revisions[key] = seen[key] if seen is not None and key in seen else event.db.revision(*key)
        refuse_online(event, key[0], key[1])
        old = event.db.hand(*key)
        if old is None:
            raise InputError(
                f"round {key[0]} table {key[1]} hand {key[2]} has no result to correct", file=file, line=line
            )
        new, dropped = merged(entry_of(key, old.result, event.variant.rules), entry, replace=replace)
        if dropped:
            raise InputError(
                f"round {key[0]} table {key[1]} hand {key[2]}: this would drop what was recorded "
                f"({', '.join(dropped)}); give every fact that stands, or the whole hand with --replace",
                file=file,
                line=line,
            )
        plans.append((source, new, old.result))
    scored = record(event, [(src, e) for src, e, _ in plans], correct=True, file=file, revisions=revisions, guard=guard)
    return [
        Correction((sc.entry.round, sc.entry.table, sc.entry.hand), before, sc, before != sc.result)
        for (_src, _e, before), sc in zip(plans, scored, strict=True)
    ]


def missing_hands(event: Tournament) -> list[tuple[int, int, int, int]]:
    """(round, table, hand, rotation) of every scheduled hand not stored yet, in playing order.

    Rounds not seated yet (later Swiss rounds) are listed with table 0: their tables are
    known only once they are paired.
    """
    stored = {(h.round, h.tbl, h.hand, h.rotation) for h in event.db.hands()}
    seating = event.db.seating()
    out: list[tuple[int, int, int, int]] = []
    for rnd in range(1, event.rounds + 1):
        tables = sorted(t for r, t in seating if r == rnd)
        if not tables:
            out.append((rnd, 0, 0, 0))
            continue
        for tbl in tables:
            for rot in event.rotations:
                for h in range(1, event.hands_per_match + 1):
                    if (rnd, tbl, h, rot) not in stored:
                        out.append((rnd, tbl, h, rot))
    return out


def read_results(path: str, encoding: str | None = None) -> list[tuple[str, Entry]]:
    """results.csv: round,table,hand,finish[,burn,men,opened,geming,chongdian,declare,waive].

    Multi-valued fields hold several values separated by spaces (``burn`` =
    ``"1:2 4:5"``).  Every row is checked for its shape here; its meaning is
    checked against the event by :func:`record`.
    """
    header, rows = _rows(path, encoding)
    for col in ("round", "table", "hand", "finish"):
        if col not in header:
            raise InputError(
                f"the header needs a {col!r} column (columns: {', '.join(RESULT_COLUMNS)})", file=path, line=1
            )
    columns = (*RESULT_COLUMNS, *club_entries())
    unknown = [h for h in header if h and h not in columns]
    if unknown:
        raise InputError(f"unknown column {unknown[0]!r} (columns: {', '.join(columns)})", file=path, line=1)
    out = []
    for line, row in rows:
        nums = []
        for col in ("round", "table", "hand"):
            try:
                if len(row[col]) > 6:
                    raise ValueError(row[col])
                nums.append(int(row[col]))
            except ValueError:
                raise InputError(f"{col} {row[col]!r} is not a number", file=path, line=line) from None
        entry = Entry(
            nums[0],
            nums[1],
            nums[2],
            split_list(row["finish"]),
            burns=split_list(row.get("burn", "")),
            burn_fail=split_list(row.get("burn_fail", "")),
            men=split_list(row.get("men", "")),
            opened=split_list(row.get("opened", "")),
            geming=split_list(row.get("geming", "")),
            chongdian=split_list(row.get("chongdian", "")),
            declare=split_list(row.get("declare", "")),
            waive=split_list(row.get("waive", "")),
            no_three=split_list(row.get("no_three", "")),
            choices={n: split_list(row.get(n) or "") for n in club_entries() if row.get(n)},
        )
        out.append((f"{path}:{line}", entry))
    return out


def describe(event: Tournament, sc: Scored) -> str:
    """What the scorer reads out at the table: places, points, next leader, tribute owed."""
    v = event.variant
    names, st = sc.names, sc.settlement
    place_names = v.rules.places_names
    e = sc.entry
    out = [f"round {e.round}, table {e.table}, hand {e.hand} ({v.name})"]
    order = sorted(range(6), key=lambda s: sc.places[s])
    out.append("places: " + ", ".join(f"{place_names[sc.places[s] - 1]} {names[s]} (seat {s})" for s in order))
    sides = [" ".join(names[s] for s in side_seats(team)) for team in (0, 1)]
    sweep = ""
    if st.sweep is not None:
        sweep = f"   串三户 by seats {'0 2 4' if st.sweep == 0 else '1 3 5'}"
    out.append(f"points: seats 0 2 4 ({sides[0]}) {st.scores[0]}, seats 1 3 5 ({sides[1]}) {st.scores[1]}{sweep}")
    out.append(f"next hand: seat {st.next_leader} ({names[st.next_leader]}) leads")
    if not sc.debts:
        out.append("tribute: none")
    for d in sc.debts:
        back = ", handed back (还贡)" if d.returned else ""
        out.append(
            f"tribute: {names[d.giver]} (seat {d.giver}) gives {d.count} card{'s' if d.count != 1 else ''} "
            f"to {names[d.receiver]} (seat {d.receiver}): {d.kind} {DEBT_NAMES.get(d.kind, '')}{back}".rstrip()
        )
    return "\n".join(out) + "\n"


def results_csv(event: Tournament) -> str:
    """Every recorded club hand in the results.csv format (seat numbers), to re-enter or archive."""
    import csv
    import io

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    extra = list(club_entries())
    w.writerow([*RESULT_COLUMNS, *extra])
    for row in event.db.hands():
        r = row.result
        if "finish" not in r:
            continue
        w.writerow(
            [
                row.round,
                row.tbl,
                row.hand,
                " ".join(map(str, r["finish"])),
                " ".join(f"{a}:{b}" for a, b in r["burns"]),
                " ".join(map(str, r.get("burn_fails", []))),
                " ".join(f"{a}:{b}" for a, b in r["men"]),
                " ".join(map(str, r["opened"]))
                if not r["chongdian"]
                else " ".join(map(str, _opened_by_hand(r, event.variant.rules))),
                " ".join(map(str, r["geming"])),
                " ".join(f"{a}:{b}" for a, b in r["chongdian"]),
                " ".join(f"{k}:{s}" for k, s in r["declarations"]),
                " ".join(f"{a}:{b}" for a, b in r["waived"]),
                " ".join(map(str, r.get("no_three", []))),
                *(" ".join(f"{a}:{b}" for a, b in r.get("choices", {}).get(n, [])) for n in extra),
            ]
        )
    return out.getvalue()


def _opened_by_hand(r: dict[str, Any], rules: Rules) -> list[int]:
    """The seats entered as opened, without those that 冲点 decided (re-entering adds them again)."""
    chong = [(int(s), how == "ok") for s, how in r.get("chongdian", [])]
    return opened_in_play(rules, r["opened"], chong)
