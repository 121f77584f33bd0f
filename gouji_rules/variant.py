"""The Variant: every rule decision the engine makes, as data.

A Variant is plain, frozen data in sections that mirror the YAML file a club
writes (``deck``, ``sets``, ``gouji``, ``play`` …).  Each field carries its
Chinese and English description in ``metadata``; the JSON Schema and
``gouji explain`` read them from here, so the model, the schema and the rule
sheet cannot drift apart.

Nothing outside the variant and DSL layer reads a Variant's fields for behaviour:
the engine, the match phases, settlement and statistics ask ``variant.rules``
(:class:`~gouji_rules.rules.Rules`, the compiled form, built once), and a test
holds them to it.  The shipped variants are the files in ``variants/``
(``dagang``, the default, is S4; ``dianshaomenla`` is S0), loaded by ``gouji_rules.catalog``: this
module knows nothing of files.
"""

# no `from __future__ import annotations`: the field types are objects at once, so the schema reads
# them without compiling each annotation's text (`gouji validate` builds the schema on every run)
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from .parts.sections import (  # the sections' home; each stays importable from here (__all__)
    BurnRules,
    BuyRules,
    ChongdianRules,
    DeckRules,
    DeclareRules,
    FreeForAllRules,
    GemingRules,
    GoujiRules,
    JiefengRules,
    KangRules,
    MatchRules,
    MenRules,
    OpenPointRules,
    PlacesRules,
    PlayRules,
    ScoringRules,
    SetsRules,
    TableRules,
    TributeRules,
    doc,
)

if TYPE_CHECKING:
    from dataclasses import dataclass  # what a Variant is, to mypy and to readers

    from .rules import Rules
else:
    from .parts.section import dataclass  # the same class, built without generating code (issue 13)


Hook = Callable[..., Any]


@dataclass(frozen=True)
class Variant:
    """A complete rule set.  Build with :func:`make_variant` or load a file with ``gouji_rules.dsl``."""

    name: str
    title: str = ""
    source: str = ""
    deck: DeckRules = field(default_factory=DeckRules)
    table: TableRules = field(default_factory=TableRules)
    sets: SetsRules = field(default_factory=SetsRules)
    gouji: GoujiRules = field(default_factory=GoujiRules)
    play: PlayRules = field(default_factory=PlayRules)
    free_for_all: FreeForAllRules = field(default_factory=FreeForAllRules)
    jiefeng: JiefengRules = field(default_factory=JiefengRules)
    burn: BurnRules = field(default_factory=BurnRules)
    open_point: OpenPointRules = field(default_factory=OpenPointRules)
    men: MenRules = field(default_factory=MenRules)
    places: PlacesRules = field(default_factory=PlacesRules)
    scoring: ScoringRules = field(default_factory=ScoringRules)
    kang: KangRules = field(default_factory=KangRules)
    declare: DeclareRules = field(default_factory=DeclareRules)
    buy: BuyRules = field(default_factory=BuyRules)
    tribute: TributeRules = field(default_factory=TributeRules)
    geming: GemingRules = field(default_factory=GemingRules)
    chongdian: ChongdianRules = field(default_factory=ChongdianRules)
    match: MatchRules = field(default_factory=MatchRules)
    hooks: Mapping[str, Hook] = field(default_factory=dict)
    """Compiled expression hooks by name (``is_gouji``, ``team_score`` …); see ``hooks.HOOKS``."""
    extensions: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    """The options of registered extensions as written, by home path (``tribute.kinds``) and entry
    (:mod:`gouji_rules.parts.options`); in a file and in :meth:`to_dict` they sit inside their section."""

    @property
    def rules(self) -> "Rules":
        """The compiled rules (:class:`~gouji_rules.rules.Rules`), built on first use and kept."""
        cached: Rules | None = self.__dict__.get("_rules")
        if cached is None:
            from . import rules

            cached = rules.Rules(self)
            object.__setattr__(self, "_rules", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the cached compiled rules (they are rebuilt from the sections on use)."""
        return {k: v for k, v in self.__dict__.items() if k != "_rules"}

    def fingerprint(self) -> str:
        """A short hash of every rule (sections and hook texts, not the name): hand records carry
        it, so a record can be checked against the rules it was played under."""
        data = self.to_dict()
        data["hooks"] = {k: _hook_text(f) for k, f in sorted(self.hooks.items())}
        return rules_fingerprint(data)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (no hooks), in the shape of a variant file."""
        from .parts import options

        out: dict[str, Any] = {"name": self.name, "title": self.title, "source": self.source}
        for key, _ in SECTIONS:
            out[key] = dataclasses.asdict(getattr(self, key))
        options.merge_into(out, options.data(self))
        return out

    def replace(self, **sections: Mapping[str, Any] | Any) -> "Variant":
        """A copy with some fields changed: ``v.replace(burn={"enabled": False}, name="x")``; an
        extension's options are given in their section too (``tribute={"kinds": {...}}``)."""
        from .parts import options

        rest, written = options.split(sections)
        changes: dict[str, Any] = {}
        if written:
            merged = {path: dict(entries) for path, entries in self.extensions.items()}
            for path, entries in written.items():
                merged[path] = {**merged.get(path, {}), **entries}
            changes["extensions"] = merged
        for key, value in rest.items():
            current = getattr(self, key)
            if dataclasses.is_dataclass(current) and isinstance(value, Mapping):
                changes[key] = dataclasses.replace(current, **value)  # type: ignore[type-var]
            else:
                changes[key] = value
        return dataclasses.replace(self, **changes)


SECTIONS: tuple[tuple[str, type], ...] = tuple(
    (f.name, f.type)
    for f in dataclasses.fields(Variant)
    if isinstance(f.type, type) and dataclasses.is_dataclass(f.type)
)
"""The sections of a variant file, ``(key, class)`` in the file's order: the fields of
:class:`Variant` that are sections (a new section is its class and its field, nothing else)."""


def rules_fingerprint(data: Mapping[str, Any]) -> str:
    """The fingerprint of rules written as data in a variant file's shape (:meth:`Variant.fingerprint`):
    the sections and hook texts, not the name, title or source.  A record's or an event's copy of
    its rules is checked with it as it was written, even after options were added to the model."""
    import hashlib
    import json

    body = {k: v for k, v in data.items() if k not in ("name", "title", "source")}
    body.setdefault("hooks", {})
    text = json.dumps(body, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def with_legacy(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of rules written as data (an event's or a record's), with each option added to the model
    since it was written set to its ``legacy`` value: the value that plays the game as the engine did
    before the option existed (which is not always its default).  Such a copy holds every option of
    its day, so an option it lacks is one added since."""
    from .parts import options

    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in data.items()}
    options.fill_legacy(out)
    for key, cls in SECTIONS:
        section = out.get(key, {})  # a section missing whole was added since, with all its options
        if not isinstance(section, dict):
            continue
        for f in dataclasses.fields(cls):
            if f.name not in section and "legacy" in f.metadata:
                legacy = f.metadata["legacy"]
                section[f.name] = list(legacy) if isinstance(legacy, list) else legacy  # never the field's own list
        if section:
            out[key] = section
    return out


def _hook_text(fn: Hook) -> str:
    """An expression hook's own text; a hook written in Python is named by its function."""
    source = getattr(fn, "source", None)
    return str(source) if source is not None else str(getattr(fn, "__qualname__", repr(fn)))


def make_variant(data: Mapping[str, Any], hooks: Mapping[str, Hook] | None = None) -> Variant:
    """Build a Variant from plain (already validated) data in the file's shape."""
    from .parts import options

    data, written = options.split(data)
    kwargs: dict[str, Any] = {k: data[k] for k in ("name", "title", "source") if k in data}
    for key, cls in SECTIONS:
        if key in data:
            kwargs[key] = cls(**data[key])
    return Variant(hooks=dict(hooks or {}), extensions=written, **kwargs)


__all__ = [
    "SECTIONS",
    "BurnRules",
    "BuyRules",
    "ChongdianRules",
    "DeckRules",
    "DeclareRules",
    "FreeForAllRules",
    "GemingRules",
    "GoujiRules",
    "Hook",
    "JiefengRules",
    "KangRules",
    "MatchRules",
    "MenRules",
    "OpenPointRules",
    "PlacesRules",
    "PlayRules",
    "ScoringRules",
    "SetsRules",
    "TableRules",
    "TributeRules",
    "Variant",
    "doc",
    "make_variant",
    "rules_fingerprint",
    "with_legacy",
]
"""What this module exports: its own names and the sections it keeps the old home of."""
