"""Hand records: read them safely, check them against the rules they carry, step through one.

A record (docs/records.md, the format is ``gouji_rules/data/record.schema.json``)
holds the cards as dealt, the setup the phases before play left behind, and every
action.  It stands on its own: it names its rules by their fingerprint
(``variant_hash``) and carries them, inline (``rules``) or on a ``"kind": "rules"``
line that heads the file (``event export`` and ``simulate --records`` write one).
Nothing in a record is ever opened as a path; a shipped variant is found by name
only when its fingerprint is the record's.

Checking a record, in order: the file is read in bounded lines (a huge line, deep
nesting or a 500,000-digit number is one clear problem, never a traceback); the
record must match the schema; its rules are found and their fingerprint must be
the record's; the deal must be the variant's deck (every card, no more, no fewer)
and, when a seed is given, the deal that seed makes; then the actions are replayed
with :meth:`Hand.from_record` and the first one the rules refuse is reported with
its rule and clause, and a replay that ends differently (places, scores) is
reported too.  Results entered at real tables (``"kind": "result"``) carry no
actions; they are checked by scoring them again.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GoujiError, IllegalAction, VariantError
from ..game.actions import parse_action
from ..game.cards import NRANKS, SYMBOLS, parse_hand
from ..inputs import InputFileError
from ..play.engine import Hand, counts_of_cards, deal_cards
from ..play.match import hand_result
from ..play.outcome import settle_outcome
from ..rules.settlement import settle
from ..tournament.club import entry_of, outcome_of
from ..tournament.errors import EventError, InputError
from ..tournament.storage import HandRow, schema_uri
from ..variant import Variant
from .preplay import Before, after_record, pre_play_problem, tribute_places
from .read import RulesBook, is_event_file, read_records, rules_line, schema_problem

if TYPE_CHECKING:
    from ..tournament.event import Tournament


# -- checks -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a record, where it is (file and line, or the event's round, table and hand) and what, so
    ``gouji verify`` points at it."""

    file: str
    line: int
    hand: int
    message: str
    at: str = ""  # where in an event file (round, table, hand) when there is no line

    def __str__(self) -> str:
        if self.at:
            return f"{self.file}: {self.at}: {self.message}"
        if not self.hand:
            return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"
        sep = " " if self.message.startswith("action ") else ": "
        return f"{self.file}:{self.line}: hand {self.hand}{sep}{self.message}"


def _counts(text: str, what: str) -> list[int]:
    try:
        return list(parse_hand(text))
    except GoujiError as e:
        raise ValueError(f"{what}: bad card notation: {e}") from None


def _symbol(rank: int) -> str:
    return SYMBOLS[rank] if rank < len(SYMBOLS) else str(rank)


def deck_problem(variant: Variant, record: dict[str, Any]) -> str | None:
    """The cards dealt must be the variant's deck: every card, no more, no fewer, in the right hand sizes.

    A match hand records both the cards the seed dealt (``dealt``) and the cards each
    seat held when play began (``deal``, after tribute and buying); the cards in play and
    the discards must then be the cards dealt.  A single hand's ``deal`` is what was dealt.
    """
    rules = variant.rules
    deck = rules.deck_counts
    key = "dealt" if "dealt" in record else "deal"
    try:
        hands = [_counts(h, f"{key} seat {s}") for s, h in enumerate(record[key])]
        total = [sum(h[r] for h in hands) for r in range(NRANKS)]
        for s, h in enumerate(hands):
            for r in range(NRANKS):
                if h[r] > deck[r]:
                    return f"{key} gives seat {s} {h[r]} × {_symbol(r)}, but the deck of {variant.name} has {deck[r]}"
        for r in range(NRANKS):
            if total[r] > deck[r]:
                return f"{key} holds {total[r]} × {_symbol(r)}, but the deck of {variant.name} has {deck[r]}"
        if sum(rules.hand_sizes) == len(rules.deck):  # every card is dealt
            for r in range(NRANKS):
                if total[r] < deck[r]:
                    return (
                        f"{key} holds {total[r]} × {_symbol(r)}, but the deck of {variant.name} has {deck[r]} "
                        "and every card is dealt"
                    )
        sizes = [sum(h) for h in hands]
        if sorted(sizes) != sorted(rules.hand_sizes):
            return f"{key} gives the seats {sizes} cards, but {variant.name} deals {sorted(rules.hand_sizes)}"
        if key == "dealt":
            play = [_counts(h, f"deal seat {s}") for s, h in enumerate(record["deal"])]
            out = _counts(str(record.get("discards", "")), "discards")
            in_play = [sum(h[r] for h in play) + out[r] for r in range(NRANKS)]
            if in_play != total:
                diff = [r for r in range(NRANKS) if in_play[r] != total[r]]
                r = diff[0]
                return (
                    f"the cards in play (deal and discards) are not the cards dealt: {in_play[r]} × "
                    f"{_symbol(r)} in play, {total[r]} dealt"
                )
    except ValueError as e:
        return str(e)
    return None


def seed_problem(variant: Variant, record: dict[str, Any]) -> str | None:
    """When a seed is given, the cards dealt must be the ones that seed deals (docs/rng.md).

    A single hand is dealt by ``Hand.deal(variant, seed)``.  A match hand's first drawer
    depends on the hand before, so any of the six is accepted; the shuffle is the seed's.
    """
    seed = record.get("seed")
    if seed is None:
        return None
    key = "dealt" if "dealt" in record else "deal"
    try:
        want = [_counts(h, f"{key} seat {s}") for s, h in enumerate(record[key])]
    except ValueError as e:
        return str(e)
    if key == "dealt":
        for drawer in range(6):
            cards, _ = deal_cards(variant, int(seed), drawer)
            if [counts_of_cards(c) for c in cards] == want:
                return None
        return f"the cards dealt are not the ones seed {seed} deals under {variant.name}"
    cards, leader = deal_cards(variant, int(seed))
    if [counts_of_cards(c) for c in cards] != want:
        return f"the deal is not the one seed {seed} deals under {variant.name}"
    if "pre_play" not in record and int(record["leader"]) != leader:
        return f"seat {record['leader']} leads, but seed {seed} makes seat {leader} lead"
    return None


def _illegal_text(where: str, e: IllegalAction) -> str:
    """``WHERE: illegal: MESSAGE (rule RULE) [CLAUSE]``: the rule and its clause, as every refusal names them."""
    clause = f" [{e.clause}]" if e.clause else ""
    return f"{where}: illegal: {e.message} (rule {e.rule}){clause}"


def hand_of_record(variant: Variant, record: dict[str, Any], doing: str = "verify") -> Hand:
    """The hand a played record starts from (its deal, leader and setup), for ``doing`` (``verify``,
    ``review``, ``step through``).  InputError for a result entered at a table (no actions) or a record
    the hand cannot be set up from."""
    if "actions" not in record:
        raise InputError(f"this record has no actions to {doing} (a result entered at a table)")
    try:
        return Hand.from_record(variant, record)
    except (GoujiError, ValueError, KeyError, TypeError, IndexError) as e:
        raise InputError(f"cannot set up the hand: {e}") from None


def verify_record(variant: Variant, record: dict[str, Any], before: Before | None = None) -> str | None:
    """None when the record replays to the same end under ``variant``; otherwise what is wrong.

    The record is assumed to match the schema (:func:`schema_problem`).  ``before`` is what a match
    hand started from (the hand before it left it); given, its events before play are replayed too
    (:func:`~gouji_rules.records.preplay.pre_play_problem`).
    """
    if record.get("kind") == "result":
        return _verify_result(variant, record)
    problem = deck_problem(variant, record) or seed_problem(variant, record)
    if problem:
        return problem
    try:
        hand = hand_of_record(variant, record)
    except InputError as e:
        return e.message
    actions = record["actions"]
    for k, text in enumerate(actions, start=1):
        seat_text, colon, act = str(text).partition(":")
        where = f"action {k} ({text})"
        try:
            seat = int(seat_text)
            if not colon:
                raise ValueError
        except ValueError:
            return f"{where}: not SEAT:ACTION"
        try:
            action = parse_action(act)
        except GoujiError as e:
            return f"{where}: bad notation: {e}"
        try:
            hand.apply(action, seat)
        except IllegalAction as e:
            return _illegal_text(where, e)
        except (GoujiError, ValueError, IndexError) as e:
            return f"{where}: cannot be applied: {e}"
    if not hand.is_over:
        return f"the actions end after action {len(actions)} but the hand is not over (seat {hand.turn} to act)"
    problem = _same_end(hand, record) or _same_debts(variant, hand, record)
    if problem is None and before is not None and "pre_play" in record:
        return pre_play_problem(variant, record, hand, before)
    return problem


def _same_end(hand: Hand, record: dict[str, Any]) -> str | None:
    """Every outcome the record states (places, scores, finish, 开点 states, cards left, events) is the replay's."""
    got = hand.record()
    for key in ("places", "scores", "finish", "opened"):
        if key in record and list(record[key]) != list(got[key]):
            return f"replay does not reproduce the record: {key} {got[key]} != recorded {record[key]}"
    if "end" in record:
        try:
            end = [_counts(h, f"end seat {s}") for s, h in enumerate(record["end"])]
        except ValueError as e:
            return str(e)
        if end != [list(parse_hand(h)) for h in got["end"]]:
            return f"replay does not reproduce the record: cards left {got['end']} != recorded {record['end']}"
    if "events" in record and record["events"] != got["events"]:
        mine, theirs = got["events"], record["events"]
        k = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b), min(len(mine), len(theirs)))
        a = json.dumps(mine[k], ensure_ascii=False) if k < len(mine) else "no event"
        b = json.dumps(theirs[k], ensure_ascii=False) if k < len(theirs) else "no event"
        return f"replay does not reproduce the record: event {k + 1} is {a}, the record has {b}"
    return None


def _debt_text(debts: list[dict[str, Any]]) -> str:
    """``[point 3->0 x1, ...]``: a debt list short enough for a one-line error."""
    return (
        "[" + ", ".join(f"{d.get('kind')} {d.get('giver')}->{d.get('receiver')} x{d.get('count')}" for d in debts) + "]"
    )


def _same_debts(variant: Variant, hand: Hand, record: dict[str, Any]) -> str | None:
    """A match record's ``debts_next`` is what the replayed hand leaves: settled again from the replay,
    with the declarations and 商定大落 its ``pre_play`` events name (:func:`~gouji_rules.play.match.hand_result`)."""
    if "debts_next" not in record:
        return None
    rules = variant.rules
    declarations: list[tuple[str, int]] = []
    staked = rules.staked_declarations()  # the bets that price 点贡; 和点 only opens both
    try:
        for e in record.get("pre_play", []):
            kind = e.get("type")
            if kind == "redeal":  # a void deal (革命, 冲点) is dealt again: its declarations go with it
                declarations.clear()
            elif kind in staked:
                declarations.append((kind, int(e["seat"])))
        places = tribute_places(hand.places, record.get("pre_play", []))
        geming = [int(s) for s in record.get("setup", {}).get("geming", [])]
        got = [d.__dict__ for d in settle(rules, hand_result(hand, declarations, geming, places)).debts]
    except (GoujiError, AttributeError, KeyError, TypeError, ValueError, IndexError) as e:
        return f"cannot settle the replay again: {e}"
    return _debts_differ(variant, record, got)


def _debts_differ(variant: Variant, record: dict[str, Any], got: list[dict[str, Any]]) -> str | None:
    """None when the record states no ``debts_next`` or states ``got``; otherwise both, on one line."""
    if "debts_next" not in record:
        return None
    stated = list(record["debts_next"])
    if stated == got:
        return None
    return f"debts_next {_debt_text(stated)} is not what the hand leaves under {variant.name}: {_debt_text(got)}"


def _check_places(record: dict[str, Any]) -> str | None:
    """Places are 1..6 once each, and every finishing order given agrees with them."""
    places = record.get("places")
    if not isinstance(places, list) or sorted(places) != [1, 2, 3, 4, 5, 6]:
        return f"places {places!r} are not the places 1 to 6, once each"
    expected = sorted(range(6), key=lambda s: places[s])
    r = record.get("result") or {}
    for where, finish in (("finish", record.get("finish")), ("result.finish", r.get("finish"))):
        if finish is not None and list(finish) != expected:
            return f"{where} {finish!r} does not agree with places {places!r} (expected {expected})"
    return None


def _verify_result(variant: Variant, record: dict[str, Any]) -> str | None:
    """A result entered at a table: judged and settled again the way the club judged it when it was
    entered (:func:`~gouji_rules.tournament.club.score_entry`), then its points and debts compared."""
    problem = _check_places(record)
    if problem:
        return problem
    rules = variant.rules
    stated = {**(record.get("result") or {}), "finish": sorted(range(6), key=lambda s: record["places"][s])}
    try:
        outcome = outcome_of(entry_of((0, 0, 0), stated, rules), [str(s) for s in range(6)])
        st, debts = settle_outcome(rules, outcome)
    except IllegalAction as e:
        return _illegal_text("the result", e)
    except (GoujiError, KeyError, TypeError, ValueError, IndexError) as e:
        return f"cannot score the result: {e}"
    if list(st.scores) != list(record.get("scores", [])):
        return f"scores {list(st.scores)} under {variant.name} != recorded {record.get('scores')}"
    return _debts_differ(variant, record, [d.__dict__ for d in debts])


def check(book: RulesBook, record: dict[str, Any], before: Before | None = None) -> tuple[Variant | None, str | None]:
    """Schema, rules and the replay of one record: (its variant, None) or (maybe None, the problem)."""
    problem = schema_problem(record)
    if problem:
        return None, problem
    try:
        variant = book.for_record(record)
    except GoujiError as e:
        return None, f"error: {e}"
    try:
        return variant, verify_record(variant, record, before)
    except VariantError as e:  # the rules themselves fail on this hand (a hook's number out of range)
        return variant, f"error: {e}"


UNKNOWN_START = (
    "the debts hand {hand} started with are unknown (the record before it is not the hand before it in its "
    "match, or did not verify), so its events before play are not replayed"
)
"""The note ``verify`` gives once per file when a match hand's start cannot be known."""


@dataclass
class _Chain:
    """Follows one match through consecutive records: what the next hand must be and starts from.

    The first hand whose start is unknown is noted in ``notes`` (:data:`UNKNOWN_START`), once."""

    notes: list[str] | None = None
    expect: tuple[Any, ...] | None = None
    before: Before | None = None
    noted: bool = False

    def start(self, key: tuple[Any, ...], first: bool, where: str, hand: int) -> Before | None:
        """What the hand ``key`` (numbered ``hand``, found at ``where``) started from: nothing owed when
        it starts its match, else what the record before it left when that was the hand before it in the
        same match, else unknown (None)."""
        if first:
            return Before()
        if self.expect == key:
            return self.before
        if not self.noted and self.notes is not None:
            self.noted = True
            self.notes.append(f"{where}: " + UNKNOWN_START.format(hand=hand))
        return None

    def follow(
        self, variant: Variant | None, problem: str | None, record: dict[str, Any], before: Before | None, key: Any
    ) -> None:
        """After ``record`` (started from ``before``) was checked (``problem``: None when it verified):
        what the hand ``key`` starts from."""
        self.expect = self.before = None
        if variant is None or problem is not None or before is None:
            return
        try:
            self.before, self.expect = after_record(variant.rules, record, before), key
        except (GoujiError, KeyError, TypeError, ValueError, IndexError):
            return


def verify_files(
    paths: list[str], override: Variant | None = None, notes: list[str] | None = None
) -> tuple[int, list[Problem]]:
    """Verify every record of every file (or every stored hand of an event file).

    Returns how many records were read and the problems found; what could not be checked (a match
    hand whose start is unknown) is added to ``notes``, once per file.
    """
    book = RulesBook(override)
    count = 0
    problems: list[Problem] = []
    for path in paths:
        try:
            if is_event_file(path):
                n, found = verify_event(path, override, notes)
                count += n
                problems += found
                continue
            hand_no = 0
            chain = _Chain(notes)
            for line, rec, err in read_records(path):
                if rec is None:
                    hand_no += 1  # numbered as replay --hand numbers it
                    problems.append(Problem(path, line, 0, f"error: {err}"))
                    continue
                if rec.get("kind") == "rules":
                    problem = schema_problem(rec)
                    if problem is None:
                        try:
                            book.learn(rec)
                        except GoujiError as e:
                            problem = f"error: {e}"
                    if problem:
                        problems.append(Problem(path, line, 0, problem))
                    continue
                hand_no += 1
                count += 1
                before, key = None, None
                if "pre_play" in rec:
                    index = rec.get("hand")
                    key = (rec.get("match"), index, rec.get("variant_hash"))
                    before = chain.start(key, type(index) is int and index == 0, f"{path}:{line}", hand_no)
                variant, msg = check(book, rec, before)
                if key is not None and type(key[1]) is int:
                    chain.follow(variant, msg, rec, before, (key[0], key[1] + 1, key[2]))
                if msg is not None:
                    problems.append(Problem(path, line, hand_no, msg))
        except InputFileError as e:
            problems.append(Problem(path, 0, 0, f"error: {e.message}"))
    return count, problems


def _not_an_event(path: str) -> str:
    """Why an SQLite file is not an event, judged read-only ("" when it has an event's tables).

    Checked before the event is opened, so another program's database is never touched.
    """
    try:
        con = sqlite3.connect(schema_uri(Path(path)), uri=True, timeout=5.0)
    except sqlite3.Error as e:
        return str(e)
    try:
        names = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as e:
        return str(e)
    finally:
        con.close()
    lacking = sorted({"meta", "hands", "schema_version"} - names)
    return f"it has no {', '.join(lacking)} table" if lacking else ""


def verify_event(
    path: str, override: Variant | None = None, notes: list[str] | None = None
) -> tuple[int, list[Problem]]:
    """Check every hand stored in an event file under the event's own copy of the rules."""
    from ..tournament.event import Tournament

    problems: list[Problem] = []
    missing = _not_an_event(path)
    if missing:
        return 0, [Problem(path, 0, 0, f"error: not an event file ({missing}); nothing was changed")]
    try:
        event = Tournament.open(path, write=False)
    except GoujiError as e:
        return 0, [Problem(path, 0, 0, f"error: {e}")]
    with event:
        try:
            variant = override or event.variant
        except GoujiError as e:
            return 0, [Problem(path, 0, 0, f"error: {e}")]
        book = RulesBook(variant)
        try:
            rows = _stored_rows(event)
        except EventError as e:
            return 0, [Problem(path, 0, 0, f"error: {e}")]
        chain = _Chain(notes)
        for row in rows:
            at = f"round {row.round} table {row.tbl} hand {row.hand}" + (
                f" rotation {row.rotation}" if row.rotation else ""
            )
            if not isinstance(row.record, dict):
                problems.append(Problem(path, 0, 0, "the stored record is not a JSON object", at=at))
                continue
            rec = dict(row.record)
            rec.setdefault("variant_hash", variant.rules.fingerprint)
            before, key = None, (row.round, row.tbl, row.rotation, row.hand)
            if "pre_play" in rec:
                before = chain.start(key, row.hand == 1, f"{path}: {at}", row.hand)
            checked, msg = check(book, rec, before)
            chain.follow(checked, msg, rec, before, (*key[:3], row.hand + 1))
            if msg is None and (
                list(rec.get("places", [])) != list(row.places) or list(rec.get("scores", [])) != list(row.scores)
            ):
                msg = f"the stored places {row.places} and points {list(row.scores)} are not the record's"
            if msg is not None:
                problems.append(Problem(path, 0, 0, msg, at=at))
    return len(rows), problems


def _stored_rows(event: Tournament) -> list[HandRow]:
    """An event's stored hands, or an EventError when the hands table is damaged (never json's own error)."""
    try:
        return event.db.hands()
    except (sqlite3.Error, ValueError, TypeError, RecursionError) as e:
        raise EventError(f"the stored hands cannot be read: {str(e)[:200]}") from None


def export_lines(event: Tournament) -> list[dict[str, Any]]:
    """``event export --records``: the rules line, then every stored hand's record with the event's fingerprint."""
    head = rules_line(event.variant, event=event.name)
    out = [head]
    for row in _stored_rows(event):
        if not isinstance(row.record, dict):
            raise EventError(f"round {row.round} table {row.tbl} hand {row.hand}: the stored record is not an object")
        out.append({"variant_hash": head["variant_hash"], **row.record})
    return out
