"""The catalogue: every part and every option, as registered now, and the keys of a variant's rules.

Nothing here is a list kept by hand.  The parts come from the registries that give their entries a
home for options (``Registry.home``); the options from each part's own ``options``; the top-level keys
of a variant's rules from the fields of :class:`~gouji_rules.variant.Variant` and the registries
whose options sit at the top level (``phases``).  So a part added from a club's or a test's module is
in the catalogue the moment it is registered, and so in every consumer that reads it:

* the variant schema (:mod:`gouji_rules.dsl.schema`) and the record schema's ``rules``
  (:func:`record_rules_schema`, read by :mod:`gouji_rules.records.read`);
* ``gouji explain`` and ``gouji edit`` (through ``variant.SECTIONS`` and :func:`gouji_rules.parts.options.homes`);
* the docs tables (:func:`markdown_table`, ``python -m gouji_rules.parts.catalogue``);
* the env's mode columns (:func:`decision_kinds`, each kind with its column);
* the events a part declares with its own words (:func:`events`), which docs/events.md's table of
  who sees each event leaves to them.

Nothing is pinned either: the env's mode columns are every registered decision kind in the order of
its ``listed`` number (:func:`observed_kinds`; today's kinds keep the order they always had, 10 … 140),
and trained weights read those columns by name (``mode.<kind>``), so a kind added anywhere in that
order moves nothing a model learned.

>>> from gouji_rules.parts import catalogue
>>> [p.name for p in catalogue.parts() if p.kind == "tribute kind"][:2]
['point', 'burn']
>>> "phases" in catalogue.rules_keys()
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..variant import SECTIONS, Variant
from .options import Option, declared, homes
from .registry import DECISION_KINDS, Registry

if TYPE_CHECKING:
    from dataclasses import dataclass
else:  # the same classes without generated code: `gouji validate` imports this module (issue 13)
    from .section import dataclass

PLAY_MODES: tuple[str, ...] = ("lead", "follow", "burn", "kou", "consent", "over")
"""the modes of play and its end (``Hand``'s), the observation's first mode columns"""


@dataclass(frozen=True)
class OptionRow:
    """One option of one part: where a variant file and a record's rules write it, and the option."""

    path: str
    """its key in a variant file and in a record's ``rules`` (``phases.amnesty.limit``)"""
    part: str
    option: Option

    @property
    def record_key(self) -> str:
        """Where a hand record holds it: ``rules.`` and its path."""
        return f"rules.{self.path}"


@dataclass(frozen=True)
class Part:
    """One registered part: its kind (the registry's ``what``), name, words and options."""

    kind: str
    name: str
    zh: str
    en: str
    home: str
    """where a variant file writes the options of parts of its kind (``tribute.kinds``)"""
    options: tuple[Option, ...] | None
    """what it declares; None for a part whose options are its section's fields (the built-in ones)"""
    decisions: tuple[str, ...] = ()
    """the decision kinds it asks (a phase's)"""

    @property
    def path(self) -> str:
        """Where its own options are written (``phases.amnesty``)."""
        return f"{self.home}.{self.name}"


@dataclass(frozen=True)
class KindRow:
    """One decision kind a match asks between hands, and its column in the observation's modes."""

    name: str
    zh: str
    en: str
    listed: int
    column: int
    """its place among ``env.features.MODES`` (an env imported after the kind was registered)"""


def registries() -> list[Registry[Any]]:
    """The registries of parts: those whose entries may take options, in the order they were made."""
    return [registry for registry, _, _ in homes()]


def parts() -> list[Part]:
    """Every registered part, by kind then registration order (each registry read whole)."""
    out = []
    for registry in registries():
        for name, entry in registry.items():
            decisions = tuple(str(k) for k in getattr(entry, "decisions", ()) or ())
            out.append(Part(registry.what, name, entry.zh, entry.en, registry.home, declared(entry), decisions))
    return out


def option_rows() -> list[OptionRow]:
    """Every option every registered part declares, in the order of :func:`parts`."""
    return [OptionRow(f"{p.path}.{o.name}", p.name, o) for p in parts() for o in p.options or ()]


def sections() -> tuple[tuple[str, type], ...]:
    """The sections of a variant file, ``(key, class)`` (``variant.SECTIONS``)."""
    return SECTIONS


def rules_keys() -> tuple[str, ...]:
    """Every top-level key of a variant's rules written as data (a record's ``rules``, ``to_dict``):
    the fields of :class:`~gouji_rules.variant.Variant` (its ``extensions`` are written inside the
    sections, or as keys of their own: ``phases``)."""
    keys = [f.name for f in dataclasses.fields(Variant) if f.name != "extensions"]
    keys += [section for _, section, key in homes() if not key and section not in keys]
    return tuple(keys)


def text_keys() -> tuple[str, ...]:
    """The keys of a variant's rules that are texts (``name``, ``title``, ``source``): its ``str`` fields."""
    texts = {f.name for f in dataclasses.fields(Variant) if f.type is str}  # variant.py's types are objects
    return tuple(k for k in rules_keys() if k in texts)


TEXT_CAP = 4000
"""Longest ``title``, ``source`` and hook text a record's rules may carry."""
MAX_KEYS = 64


def record_rules_schema() -> dict[str, Any]:
    """``$defs.rules`` of ``data/record.schema.json``: the shape a record's copy of its rules takes."""
    props: dict[str, Any] = {}
    texts = text_keys()  # the texts first, then hooks, then the sections
    for key in [*texts, "hooks", *(k for k in rules_keys() if k not in texts and k != "hooks")]:
        if key == "name":
            props[key] = {"$ref": "#/$defs/name"}
        elif key in texts:
            props[key] = {"type": "string", "maxLength": TEXT_CAP}
        elif key == "hooks":
            props[key] = {
                "type": "object",
                "maxProperties": MAX_KEYS,
                "additionalProperties": {"type": "string", "maxLength": TEXT_CAP},
            }
        else:
            props[key] = {"type": "object", "maxProperties": MAX_KEYS}
    return {
        "description": "every rule of the variant in a variant file's shape (docs/variants.md), hooks as "
        "expression text; no 'extends': nothing in a record names a file",
        "type": "object",
        "propertyNames": {"enum": sorted(props)},
        "required": ["name"],
        "properties": props,
    }


def with_record_rules(record_schema: Mapping[str, Any]) -> dict[str, Any]:
    """``record_schema`` (the record schema as data) with its ``rules`` part derived now."""
    out = dict(record_schema)
    out["$defs"] = {**record_schema["$defs"], "rules": record_rules_schema()}
    return out


def _kinds() -> list[Any]:
    return sorted(DECISION_KINDS.values(), key=lambda k: (k.listed, str(k)))


def observed_kinds() -> tuple[str, ...]:
    """Every registered decision kind, by its ``listed`` number (then name): the env's mode columns
    after the modes of play (``env.features.MODES``), derived whenever the env is imported."""
    return tuple(str(k) for k in _kinds())


def decision_kinds() -> list[KindRow]:
    """Every registered decision kind, by ``listed``, each with its column among the observation's modes
    (as an env imported now lays them out)."""
    return [KindRow(str(k), k.zh, k.en, k.listed, len(PLAY_MODES) + i) for i, k in enumerate(_kinds())]


@dataclass(frozen=True)
class EventRow:
    """An event id, its place among the events (``listed``) and its own words: empty for the engine's and
    the built-in phases' events, which docs/events.md describes by hand with who sees them and why."""

    name: str
    zh: str
    en: str
    listed: int


def events() -> list[EventRow]:
    """Every registered event id, by ``listed``.  One a part declares with its words
    (``EventKind(name, listed, zh, en)``) is described by them, here, and seen by every seat: so a phase
    added to the package edits no doc."""
    from ..game.events import EVENTS  # here: reading it imports the phases, which `gouji validate` does not need

    return [EventRow(e.name, e.zh, e.en, e.listed) for e in sorted(EVENTS.values(), key=lambda e: e.listed)]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def markdown_table() -> str:
    """Every registered part as a Markdown table (kind, name, 中文, English, where its options go,
    its options), for docs/rules.md."""
    rows = ["| kind | name | 中文 | English | options |", "|---|---|---|---|---|"]
    for p in parts():
        opts = "section fields" if p.options is None else ", ".join(f"`{p.path}.{o.name}`" for o in p.options) or "none"
        rows.append(_row([p.kind, f"`{p.name}`", p.zh, p.en, opts]))
    return "\n".join(rows) + "\n"


def kinds_table() -> str:
    """Every registered decision kind with its observation column, as a Markdown table."""
    rows = ["| decision kind | 中文 | English | mode column |", "|---|---|---|---|"]
    for k in decision_kinds():
        rows.append(_row([f"`{k.name}`", k.zh, k.en, str(k.column)]))
    return "\n".join(rows) + "\n"


def events_table() -> str:
    """The events a part declares with its own words, as a Markdown table (the rest are docs/events.md's)."""
    rows = ["| event | 中文 | English | listed |", "|---|---|---|---|"]
    for e in events():
        if e.zh or e.en:
            rows.append(_row([f"`{e.name}`", e.zh, e.en, str(e.listed)]))
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # pragma: no cover
    import sys

    from ..errors import VariantError

    try:
        print(markdown_table() + "\n" + kinds_table() + "\n" + events_table(), end="")
    except VariantError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(1) from None
