"""Hand records read safely: the format, bounded lines, and the rules a record carries.

A record (docs/records.md, the format is ``gouji_rules/data/record.schema.json``) names its rules by
their fingerprint (``variant_hash``) and carries them, inline (``rules``) or on a ``"kind": "rules"``
line that heads the file.  Nothing in a record is ever opened as a path; a shipped variant is found by
name only when its fingerprint is the record's.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from .. import catalog
from ..inputs import MIB, DuplicateKey, InputFileError, loads_strict, open_regular
from ..parts.catalogue import rules_keys, with_record_rules
from ..tournament.errors import EventError
from ..tournament.variant_copy import rules_data, variant_from_rules
from ..variant import Variant, rules_fingerprint

MAX_LINE = 8 * MIB
"""The longest line read from a records file; a longer one is a problem, not a record."""

SQLITE_MAGIC = b"SQLite format 3\x00"


# -- the format ---------------------------------------------------------------------------------


@functools.cache
def _shipped_schema() -> str:
    return resources.files("gouji_rules.data").joinpath("record.schema.json").read_text(encoding="utf-8")


def schema_text() -> str:
    """The published JSON Schema of a records file's lines (``gouji verify --schema`` prints it): the
    shipped ``data/record.schema.json`` with its ``rules`` part derived now from the catalogue
    (:func:`gouji_rules.parts.catalogue.record_rules_schema`), so a key the model gains is a record's
    key at once.  A test holds the shipped file to it (``python -m gouji_rules.dsl.write_schema``)."""
    return json.dumps(with_record_rules(json.loads(_shipped_schema())), ensure_ascii=False, indent=2) + "\n"


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with every local ``$ref`` replaced by its definition (the record schema has no cycles).

    jsonschema resolves a ``$ref`` on every visit; inlined, checking a record of a few hundred
    actions and events takes milliseconds instead of a tenth of a second.
    """
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) <= 2:
            extra = {k: v for k, v in node.items() if k != "$ref"}
            return {**_inline(defs[ref.removeprefix("#/$defs/")], defs), **extra}
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _validator() -> Draft202012Validator:
    return _validator_for(rules_keys())


@functools.cache
def _validator_for(keys: tuple[str, ...]) -> Draft202012Validator:
    """The validator while the rules have ``keys`` (built again only when the model gains a key)."""
    schema = json.loads(schema_text())
    return Draft202012Validator(_inline(schema, schema["$defs"]))


def schema_problem(record: dict[str, Any]) -> str | None:
    """None when ``record`` matches the schema; otherwise where and how it does not."""
    err = best_match(_validator().iter_errors(record))
    if err is None:
        return None
    where = "/".join(str(p) for p in err.absolute_path) or "the record"
    message = err.message if len(err.message) <= 160 else err.message[:150] + f"… ({len(err.message):,} characters)"
    return f"not a valid record (docs/records.md) at {where}: {message}"


def rules_line(variant: Variant, **extra: Any) -> dict[str, Any]:
    """The ``"kind": "rules"`` line that heads a records file: every rule the records below were played under."""
    return {
        "kind": "rules",
        "schema_version": 1,
        "variant": variant.name,
        "variant_hash": variant.rules.fingerprint,
        **extra,
        "rules": rules_data(variant),
    }


# -- reading ------------------------------------------------------------------------------------


def _parse(raw: bytes) -> tuple[dict[str, Any] | None, str]:
    """A line's JSON object, or why it is not one (never an exception); a key given twice is refused."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return None, f"not UTF-8 text (byte {e.start + 1} of the line); records are written in UTF-8"
    try:
        rec = loads_strict(text)
    except json.JSONDecodeError as e:
        return None, f"not JSON: {e.msg} (column {e.colno})"
    except DuplicateKey as e:  # which copy a reader keeps differs: neither is the record
        return None, str(e)
    except RecursionError:
        return None, "not a record: the JSON is nested too deeply"
    except ValueError:  # Python refuses to convert an integer of more than 4300 digits
        return None, "not a record: a number with too many digits"
    if not isinstance(rec, dict):
        return None, "a hand record is a JSON object"
    return rec, ""


def _whole(head: bytes) -> tuple[dict[str, Any] | None, str]:
    """A file holding one pretty-printed object: the object; else why not when a key is given twice (the
    object's fault, to be said once), else nothing (the file is then read line by line)."""
    try:
        text = head.decode("utf-8-sig")
        if not isinstance(json.loads(text), dict):  # first: is the file one object at all (not JSONL)?
            return None, ""
        rec = loads_strict(text)
    except DuplicateKey as e:
        return None, str(e)
    except (ValueError, RecursionError):
        return None, ""
    return rec if isinstance(rec, dict) else None, ""


def read_records(path: str) -> Iterator[tuple[int, dict[str, Any] | None, str]]:
    """(line number, record or None, why not) for each non-blank line of a JSONL file.

    The file must be a regular file (a FIFO or a device is refused by its type) and is
    streamed: a line longer than :data:`MAX_LINE` is reported and skipped, never held.
    A file holding one pretty-printed JSON object (not JSONL) is read as one record on line 1.
    """
    with open_regular(path) as fh:
        try:
            head = fh.read(MAX_LINE + 1)
            if len(head) <= MAX_LINE and head.strip().startswith(b"{") and b"\n" in head.strip():
                whole, why = _whole(head)
                if whole is not None or why:
                    yield 1, whole, why
                    return
            fh.seek(0)
            n = 0
            while True:
                raw = fh.readline(MAX_LINE + 1)
                if not raw:
                    return
                n += 1
                if len(raw) > MAX_LINE:
                    size = len(raw)
                    while not raw.endswith(b"\n"):
                        raw = fh.readline(MIB)
                        if not raw:
                            break
                        size += len(raw)
                    yield n, None, f"a line of {size:,} bytes; a record is at most {MAX_LINE:,} bytes"
                    continue
                if not raw.strip():
                    continue
                rec, err = _parse(raw)
                yield n, rec, err
        except OSError as e:
            raise InputFileError(path, e.strerror or "cannot be read") from None


def is_event_file(path: str) -> bool:
    """True when ``path`` is an SQLite file (an event), judged by its first bytes."""
    with open_regular(path) as fh:
        try:
            return fh.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
        except OSError as e:
            raise InputFileError(path, e.strerror or "cannot be read") from None


# -- the rules of a record ----------------------------------------------------------------------


class RulesBook:
    """Where a record's rules come from: ``--variant``, the rules lines and inline rules seen, shipped variants.

    A record is matched to its rules by fingerprint (``variant_hash``).  Its ``variant``
    name is looked up only among the shipped variants, and only used when that
    variant's fingerprint is the record's: a name is never opened as a path.
    """

    def __init__(self, override: Variant | None = None) -> None:
        self.override = override
        self.by_hash: dict[str, Variant] = {}
        self.shipped: dict[str, list[Variant]] = {}
        if override is not None:
            self.by_hash[override.rules.fingerprint] = override

    def learn(self, record: dict[str, Any]) -> Variant:
        """Rules carried by a record or a rules line; their fingerprint must be the one the record gives."""
        variant = variant_from_rules(record["rules"])
        got = variant.rules.fingerprint
        given = record.get("variant_hash")
        # rules written by an earlier version lack the options added since: their fingerprint is the
        # one they had as written (variant_from_rules gave the missing options their legacy values)
        if given is not None and given != got and given != rules_fingerprint(record["rules"]):
            raise EventError(f"the rules carried have the fingerprint {got}, but the record says variant_hash {given}")
        self.by_hash.setdefault(got, variant)
        if given is not None:
            self.by_hash.setdefault(given, variant)
        return variant

    def _shipped(self, name: str, fingerprint: str) -> Variant | None:
        """The shipped variant (file or built in) of that name whose fingerprint is the record's."""
        if name not in catalog.names():
            return None
        if name not in self.shipped:
            found = [catalog.resolve(name)]  # a shipped name: catalog.names() holds no paths
            if name in catalog.BUILTIN:
                found.append(catalog.BUILTIN[name]())
            self.shipped[name] = found
        return next((v for v in self.shipped[name] if v.rules.fingerprint == fingerprint), None)

    def for_record(self, record: dict[str, Any]) -> Variant:
        """The rules ``record`` was played under; raises EventError saying what to give when unknown."""
        fingerprint = record.get("variant_hash")
        if self.override is not None:
            if fingerprint and fingerprint != self.override.rules.fingerprint:
                raise EventError(
                    f"the record was played under other rules (variant_hash {fingerprint}, "
                    f"{self.override.name} is {self.override.rules.fingerprint}); give the right file with --variant"
                )
            return self.override
        if not fingerprint:
            raise EventError(
                "the record has no rules fingerprint (variant_hash), so the rules it was played under are "
                "unknown; give them with --variant FILE"
            )
        if "rules" in record:
            return self.learn(record)
        known = self.by_hash.get(fingerprint) or self._shipped(str(record.get("variant", "")), fingerprint)
        if known is None:
            raise EventError(
                f"the rules of this record (variant {str(record.get('variant', ''))[:60]!r}, variant_hash "
                f"{fingerprint}) are not in the file: it has no rules line with them and no shipped variant has "
                "them; give the rules with --variant FILE"
            )
        return known
