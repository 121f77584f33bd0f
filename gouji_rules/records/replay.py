"""Stepping through a hand record (``gouji replay``): the record's actions one at a time, as text."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import GoujiError
from ..game.actions import parse_action
from ..game.cards import format_hand
from ..tournament.errors import InputError
from ..variant import Variant
from .read import RulesBook, read_records, schema_problem
from .verify import deck_problem, hand_of_record, seed_problem

if TYPE_CHECKING:
    pass


# -- replay -------------------------------------------------------------------------------------


def pick(path: str, hand: int, override: Variant | None = None) -> tuple[Variant, dict[str, Any]]:
    """The ``hand``-th hand record (1-based) of a file, checked, with the rules it was played under."""
    book = RulesBook(override)
    n = 0
    for line, rec, err in read_records(path):
        if rec is not None and rec.get("kind") == "rules":
            problem = schema_problem(rec)
            if problem:
                raise InputError(problem, file=path, line=line)
            book.learn(rec)
            continue
        n += 1
        if n == hand:
            if rec is None:
                raise InputError(err, file=path, line=line)
            problem = schema_problem(rec)
            if problem:
                raise InputError(problem, file=path, line=line)
            try:
                variant = book.for_record(rec)
            except GoujiError as e:
                raise InputError(str(e), file=path, line=line) from None
            if rec.get("kind") != "result":
                problem = deck_problem(variant, rec) or seed_problem(variant, rec)
                if problem:
                    raise InputError(problem, file=path, line=line)
            return variant, rec
    raise InputError(f"the file has {n} hand record{'s' if n != 1 else ''}, not {hand}", file=path)


def replay_steps(variant: Variant, record: dict[str, Any]) -> Iterator[tuple[str, bool]]:
    """The hand as text, one block per step: the deal first, then each action and what it caused;
    each with whether it stands (False for the illegal action that ends the replay)."""
    hand = hand_of_record(variant, record, "step through")
    head = [f"{variant.name}, seed {record.get('seed')}, seat {record['leader']} leads"]
    for s in range(6):
        who = ""
        players = record.get("players")
        if isinstance(players, list) and len(players) == 6:
            who = f" {players[s]}"
        head.append(f"  seat {s}{who}: {format_hand(hand.hands[s])}")
    yield "\n".join(head), True
    seen = len(hand.events)
    for k, text in enumerate(record["actions"], start=1):
        seat_text, _, act = str(text).partition(":")
        try:
            hand.apply(parse_action(act), int(seat_text))
        except (GoujiError, ValueError) as e:
            yield f"{k:>4}. seat {seat_text}: {act}   ILLEGAL: {e}", False
            return
        new = [e for e in hand.events[seen:] if e.type not in ("play", "pass")]
        seen = len(hand.events)
        notes = "; ".join(_event_text(e.to_json()) for e in new)
        left = " ".join(str(n) for n in hand.cards_left())
        yield f"{k:>4}. seat {seat_text}: {act:<12} left [{left}]" + (f"   {notes}" if notes else ""), True
    if hand.is_over:
        yield f"places {list(hand.places)}, scores {list(hand.scores())}", True


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
    for i, (step, stands) in enumerate(replay_steps(variant, record)):
        if i and wait is not None and not wait():
            return True
        emit(step)
        if not stands:
            return False
    return True
