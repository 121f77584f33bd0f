"""The hands of a records file to review: checked as ``gouji replay`` checks one, all of one variant.

A match's records file holds its hands one a line, under one rules line; ``--hand K`` picks one.
Every hand is read through :func:`gouji_rules.records.read_records` (bounded lines, a regular file
only), matched to its rules by fingerprint, and verified as ``gouji verify`` does (deck, seed, every
action, the end it states), so a damaged, cut or forged record is refused with its line before
anything is played out.
"""

from __future__ import annotations

from typing import Any

from ..errors import GoujiError
from ..records.read import RulesBook, is_event_file, read_records, schema_problem
from ..records.verify import verify_record
from ..tournament.errors import InputError
from ..variant import Variant

MAX_HANDS = 1000
"""The most hands one review reads (a match is tens; a simulation's file of millions is refused)."""


def hands_to_review(
    path: str, hand: int | None = None, override: Variant | None = None
) -> tuple[Variant, list[tuple[int, dict[str, Any]]]]:
    """The rules and the played hands of ``path`` (each with its number in the file, 1-based):
    every hand, or only the ``hand``-th.  Raises InputError naming the file (and line) for a line that
    is not a record, rules that do not match, a result entered at a table, hands of two variants."""
    if is_event_file(path):
        raise InputError(
            "an event file: write its hands as records first (gouji event export EVENT --records FILE.jsonl)",
            file=path,
        )
    book = RulesBook(override)
    out: list[tuple[int, dict[str, Any]]] = []
    variant: Variant | None = None
    n = 0
    for line, rec, err in read_records(path):
        if rec is None:
            raise InputError(err, file=path, line=line)
        problem = schema_problem(rec)
        if problem:
            raise InputError(problem, file=path, line=line)
        if rec.get("kind") == "rules":
            try:
                book.learn(rec)
            except GoujiError as e:
                raise InputError(str(e), file=path, line=line) from None
            continue
        n += 1
        if hand is not None and n != hand:
            continue
        if rec.get("kind") == "result" or "actions" not in rec:
            if hand is not None:
                raise InputError(
                    f"hand {n} is a result entered at a table: it has no decisions to review", file=path, line=line
                )
            continue
        try:
            v = book.for_record(rec)
        except GoujiError as e:
            raise InputError(str(e), file=path, line=line) from None
        problem = verify_record(v, rec)  # a hand reviewed is one that verifies: deck, seed, every action, its end
        if problem:
            raise InputError(f"hand {n}: {problem}", file=path, line=line)
        if variant is not None and v.rules.fingerprint != variant.rules.fingerprint:
            raise InputError(
                f"hand {n} was played under other rules ({v.name}) than hand {out[0][0]} ({variant.name}); "
                "review one match's hands at a time (--hand K)",
                file=path,
                line=line,
            )
        variant = v
        out.append((n, rec))
        if len(out) > MAX_HANDS:
            raise InputError(f"more than {MAX_HANDS:,} hands; pick one with --hand K", file=path)
    if hand is not None and n < hand:
        raise InputError(f"the file has {n} hand record{'s' if n != 1 else ''}, not {hand}", file=path)
    if variant is None:
        raise InputError("no played hand records to review", file=path)
    return variant, out


__all__ = ["MAX_HANDS", "hands_to_review"]
