"""Hand records: step through one in the terminal, and verify files of them against the rules.

A record (docs/records.md) holds the cards as dealt for play, the setup the
phases before play left behind, and every action.  Verifying replays the
actions with :meth:`Hand.from_record` under the record's variant; the first
action the rules refuse is reported with the rule and the seed clause it
breaks, and a replay that ends differently from the record (other places or
scores) is reported too.  Records of hands entered from real tables (``"kind":
"result"``) carry no actions; they are verified by scoring their result again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import catalog
from ..actions import parse_action
from ..engine import Hand
from ..errors import GoujiError, IllegalAction
from ..settle import HandResult, settle
from ..variant import Variant
from .errors import InputError


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    hand: int
    message: str

    def __str__(self) -> str:
        if not self.hand:
            return f"{self.file}:{self.line}: {self.message}"
        sep = " " if self.message.startswith("action ") else ": "
        return f"{self.file}:{self.line}: hand {self.hand}{sep}{self.message}"


def read_records(path: str) -> Iterator[tuple[int, dict[str, Any] | None, str]]:
    """(line number, record or None, the JSON error) for each non-blank line of a JSONL file.

    A file holding one pretty-printed JSON object (not JSONL) is read as one record on line 1.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise InputError(e.strerror or "cannot read the file", file=path) from None
    stripped = text.strip()
    if stripped.startswith("{") and "\n" in stripped:
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError:
            whole = None
        if isinstance(whole, dict):
            yield 1, whole, ""
            return
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            yield n, None, f"not JSON: {e.msg} (column {e.colno})"
            continue
        if not isinstance(rec, dict):
            yield n, None, "a hand record is a JSON object"
            continue
        yield n, rec, ""


class Variants:
    """Variants by name, resolved once; ``override`` (a --variant FILE) wins over every record's name."""

    def __init__(self, override: Variant | None = None) -> None:
        self.override = override
        self.cache: dict[str, Variant] = {}

    def get(self, record: dict[str, Any]) -> Variant:
        if self.override is not None:
            return self.override
        name = str(record.get("variant") or "")
        if name not in self.cache:
            self.cache[name] = catalog.resolve(name)
        return self.cache[name]


def verify_record(variant: Variant, record: dict[str, Any]) -> str | None:
    """None when the record replays to the same end under ``variant``; otherwise what is wrong."""
    if record.get("kind") == "result":
        return _verify_result(variant, record)
    for key in ("deal", "leader", "actions"):
        if key not in record:
            return f"not a hand record: no {key!r}"
    recorded = record.get("variant_hash")
    if recorded and recorded != variant.rules.fingerprint:
        return (
            f"the record was played under other rules (variant_hash {recorded}, "
            f"{variant.name} is {variant.rules.fingerprint}); give the right file with --variant"
        )
    try:
        hand = Hand.from_record(variant, record)
    except (GoujiError, ValueError, KeyError, TypeError) as e:
        return f"cannot set up the hand: {e}"
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
            clause = f" [{e.clause}]" if e.clause else ""
            return f"{where}: illegal: {e.message} (rule {e.rule}){clause}"
    if not hand.is_over:
        return f"the actions end after action {len(actions)} but the hand is not over (seat {hand.turn} to act)"
    for key, got in (("places", list(hand.places)), ("scores", list(hand.scores()))):
        if key in record and list(record[key]) != got:
            return f"replay does not reproduce the record: {key} {got} != recorded {record[key]}"
    return None


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
    """A result entered at a table: settle it again and compare the points."""
    r = record.get("result") or {}
    problem = _check_places(record)
    if problem:
        return problem
    try:
        places = list(record["places"])
        opened = [s in r.get("opened", []) for s in range(6)]
        res = HandResult(
            places=places,
            opened=opened,
            burns=[tuple(x) for x in r.get("burns", [])],
            men=[tuple(x) for x in r.get("men", [])],
            declarations=[(str(k), int(s)) for k, s in r.get("declarations", [])],
            geming=list(r.get("geming", [])),
        )
        st = settle(variant, res)
    except (GoujiError, KeyError, TypeError, ValueError, IndexError) as e:
        return f"cannot score the result: {e}"
    if list(st.scores) != list(record.get("scores", [])):
        return f"scores {list(st.scores)} under {variant.name} != recorded {record.get('scores')}"
    return None


def verify_files(paths: list[str], override: Variant | None = None) -> tuple[int, list[Problem]]:
    """Verify every record of every file; returns how many records were read and the problems."""
    variants = Variants(override)
    count = 0
    problems: list[Problem] = []
    for path in paths:
        hand_no = 0
        if not Path(path).is_file():
            problems.append(Problem(path, 0, 0, "error: no such file"))
            continue
        for line, rec, err in read_records(path):
            hand_no += 1
            if rec is None:
                problems.append(Problem(path, line, 0, f"error: {err}"))
                continue
            count += 1
            try:
                variant = variants.get(rec)
            except GoujiError as e:
                problems.append(Problem(path, line, hand_no, f"error: {e}"))
                continue
            msg = verify_record(variant, rec)
            if msg is not None:
                problems.append(Problem(path, line, hand_no, msg))
    return count, problems


def pick(path: str, hand: int) -> dict[str, Any]:
    """The ``hand``-th record (1-based) of a file."""
    n = 0
    for line, rec, err in read_records(path):
        n += 1
        if n == hand:
            if rec is None:
                raise InputError(err, file=path, line=line)
            return rec
    raise InputError(f"the file has {n} record{'s' if n != 1 else ''}, not {hand}", file=path)


def replay_steps(variant: Variant, record: dict[str, Any]) -> Iterator[str]:
    """The hand as text, one block per step: the deal first, then each action and what it caused."""
    from ..cards import format_hand

    if "actions" not in record:
        raise InputError("this record has no actions to step through (a result entered at a table)")
    hand = Hand.from_record(variant, record)
    head = [f"{variant.name}, seed {record.get('seed')}, seat {record['leader']} leads"]
    for s in range(6):
        who = ""
        players = record.get("players")
        if isinstance(players, list) and len(players) == 6:
            who = f" {players[s]}"
        head.append(f"  seat {s}{who}: {format_hand(hand.hands[s])}")
    yield "\n".join(head)
    seen = len(hand.events)
    for k, text in enumerate(record["actions"], start=1):
        seat_text, _, act = str(text).partition(":")
        try:
            hand.apply(parse_action(act), int(seat_text))
        except IllegalAction as e:
            yield f"{k:>4}. seat {seat_text}: {act}   ILLEGAL: {e}"
            return
        new = [e for e in hand.events[seen:] if e.type not in ("play", "pass")]
        seen = len(hand.events)
        notes = "; ".join(_event_text(e.to_json()) for e in new)
        left = " ".join(str(n) for n in hand.cards_left())
        yield f"{k:>4}. seat {seat_text}: {act:<12} left [{left}]" + (f"   {notes}" if notes else "")
    if hand.is_over:
        yield f"places {list(hand.places)}, scores {list(hand.scores())}"


def _event_text(e: dict[str, Any]) -> str:
    parts = [str(e["type"])]
    if "seat" in e:
        parts.append(f"seat {e['seat']}")
    if "cards" in e:
        parts.append(str(e["cards"]))
    if "other" in e:
        parts.append(f"→ {e['other']}")
    if "value" in e:
        parts.append(f"({e['value']})")
    return " ".join(parts)


def replay(
    variant: Variant, record: dict[str, Any], emit: Callable[[str], None], wait: Callable[[], bool] | None = None
) -> bool:
    """Emit each step; ``wait`` is called between steps and returns False to stop (q).

    Returns False when the record holds an illegal action (the step that says so is emitted)."""
    for i, step in enumerate(replay_steps(variant, record)):
        if i and wait is not None and not wait():
            return True
        emit(step)
        if "   ILLEGAL: " in step:
            return False
    return True
