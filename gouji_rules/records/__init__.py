"""Hand records: read them safely (:mod:`.read`), check them against the rules they carry
(:mod:`.verify`, with the phases before play replayed by :mod:`.preplay`), step through one
(:mod:`.replay`).  The CLI (``gouji verify``, ``gouji replay``, ``gouji event export``) and the
tournaments use this one package.
"""

from __future__ import annotations

from .read import MAX_LINE, RulesBook, is_event_file, read_records, rules_line, schema_problem, schema_text
from .replay import pick, replay, replay_steps
from .verify import Problem, check, deck_problem, export_lines, seed_problem, verify_event, verify_files, verify_record

__all__ = [
    "MAX_LINE",
    "Problem",
    "RulesBook",
    "check",
    "deck_problem",
    "export_lines",
    "is_event_file",
    "pick",
    "read_records",
    "replay",
    "replay_steps",
    "rules_line",
    "schema_problem",
    "schema_text",
    "seed_problem",
    "verify_event",
    "verify_files",
    "verify_record",
]
