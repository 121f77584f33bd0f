"""Options that a registered extension brings with it, and where a variant file writes them.

A beat strategy, tribute kind, declaration or phase declares its own options as a class attribute
``options``: a tuple of :class:`Option` (type, default, legacy value, Chinese and English words,
clause).  A class without the attribute takes none: the built-in classes read their section's
own fields (``tribute.point_count`` …), whose paths stay as they were.  The options live under the
thing's own section, one mapping per entry (:func:`homes`)::

    sets:    {beat: top_card, strategies: {top_card: {...}}}
    tribute: {order: [..., last_to_first], kinds: {last_to_first: {count: 2}}}
    declare: {kinds: {baodian: {stake: 3}}}
    phases:  {forgive: {...}}

What switches an entry on is the variant naming it: ``sets.beat`` a strategy, ``tribute.order`` a
tribute kind (or the kind it ``sorts_as``), and for a declaration or a phase that takes options its
own key in the mapping above.  The JSON Schema, ``gouji explain``, the checks and
:func:`markdown_table` read the declarations, so an extension's options need no edit of
``variant.py``.  A variant's data holds the options of every entry it switches on, each at its
value or default, so a record's copy of its rules says what was played; a copy written before an
option existed reads it at its ``legacy`` value (:func:`with_legacy`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import VariantError, near_miss
from .registry import BEAT_STRATEGIES, REGISTRIES, TRIBUTE_KINDS, Registry

if TYPE_CHECKING:
    from .sections import Sections  # what options read of a Variant, named below it


def homes() -> tuple[tuple[Registry[Any], str, str], ...]:
    """Each registry whose entries may take options, with the section and key under which a variant
    file writes them (``""``: the section itself is the mapping, the top-level ``phases``), in the
    order the registries were made.  Read from the registries' own ``home``: a registry is the one
    place that says where its entries' options live."""
    out = []
    for registry in REGISTRIES:
        if registry.home:
            section, _, key = registry.home.partition(".")
            out.append((registry, section, key))
    return tuple(out)


def home_words(path: str) -> tuple[str, str]:
    """The words of the mapping at ``path`` (``tribute.kinds``), from its registry."""
    for registry in REGISTRIES:
        if registry.home == path:
            return registry.words
    raise VariantError(f"no registry keeps its options at {path!r}")


TYPES: dict[type, str] = {bool: "boolean", int: "integer", str: "string"}
WORDS: dict[type, str] = {bool: "true or false", int: "a whole number", str: "a text"}
NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,39}\Z")
INT_CAP = 1000
TEXT_CAP = 200


class Option:
    """One option of an extension: its name (the key in the entry's mapping), type (``bool``, ``int``
    or ``str``), default, legacy value (what plays as before the option existed: a record's copy of
    its rules written then is read with it), words, and the clause it reads.  ``choices`` (``value
    -> (zh, en)``) makes a ``str`` option an enumeration; ``minimum`` / ``maximum`` bound an ``int``.

    >>> Option("count", int, 1, "张数", "cards", legacy=1, minimum=0).problem(-1)
    'count: -1 is below the minimum 0'
    """

    __slots__ = ("choices", "clause", "default", "en", "legacy", "maximum", "minimum", "name", "type", "zh")

    def __init__(
        self,
        name: str,
        type: type,
        default: Any,
        zh: str,
        en: str,
        *,
        legacy: Any,
        clause: str = "",
        choices: Mapping[str, tuple[str, str]] | None = None,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> None:
        if not NAME_RE.match(name):
            raise VariantError(f"option {name!r}: a name is lower-case letters, digits and '_'")
        if type not in TYPES:
            raise VariantError(f"option {name!r}: the type is bool, int or str, not {type!r}")
        self.name = name
        self.type = type
        self.zh = zh
        self.en = en
        self.clause = clause
        self.choices = dict(choices) if choices else None
        self.minimum = minimum
        self.maximum = maximum
        for what, value in (("default", default), ("legacy value", legacy)):
            problem = self.problem(value)
            if problem is not None:
                raise VariantError(f"option {name!r}: its {what} is invalid ({problem})")
        self.default = default
        self.legacy = legacy

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this option, or None."""
        ok = isinstance(value, self.type) and (self.type is bool or not isinstance(value, bool))
        if not ok:
            return f"{self.name}: {value!r} is not {WORDS[self.type]}"
        if self.choices is not None and value not in self.choices:
            return f"{self.name}: {value!r} is not one of {', '.join(self.choices)}"
        if self.type is int:
            if self.minimum is not None and value < self.minimum:
                return f"{self.name}: {value} is below the minimum {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return f"{self.name}: {value} is above the maximum {self.maximum}"
        return None

    def schema(self, path: str) -> dict[str, Any]:
        """This option's JSON Schema (draft-07), as the section fields' are written."""
        out: dict[str, Any] = {"type": TYPES[self.type]}
        if self.choices is not None:
            out["enum"] = list(self.choices)
            out["enumDescriptions"] = [f"{zh}\n{en}" for zh, en in self.choices.values()]
            out["markdownEnumDescriptions"] = [f"{zh}  \n{en}" for zh, en in self.choices.values()]
        elif self.type is int:
            out["minimum"] = -INT_CAP if self.minimum is None else self.minimum
            out["maximum"] = INT_CAP if self.maximum is None else self.maximum
        elif self.type is str:
            out["maxLength"] = TEXT_CAP
        out["title"] = path
        clause = f"（{self.clause}）" if self.clause else ""
        out["description"] = f"{self.zh}{clause}\n{self.en}" + (f" ({self.clause})" if self.clause else "")
        out["default"] = self.default
        return out

    def words(self, value: Any, lang: str) -> str:
        """``value`` in words, for the rule sheet."""
        zh = lang == "zh"
        if isinstance(value, bool):
            return ("是" if value else "否") if zh else ("yes" if value else "no")
        if self.choices is not None and value in self.choices:
            return self.choices[value][0 if zh else 1]
        return str(value)

    def __repr__(self) -> str:
        return f"Option({self.name!r}, {self.type.__name__}, {self.default!r}, legacy={self.legacy!r})"


def declared(entry: Any) -> tuple[Option, ...] | None:
    """The options ``entry`` (a registered class, or a registered phase) declares; None when it takes
    none, as the built-in classes (their options are their section's fields)."""
    options = getattr(entry, "options", None)
    if options is None:
        return None
    if not isinstance(options, tuple) or not all(isinstance(o, Option) for o in options):
        raise VariantError(f"{getattr(entry, 'name', entry)!r}: options must be a tuple of Option")
    names = [o.name for o in options]
    if len(set(names)) != len(names):
        raise VariantError(f"{getattr(entry, 'name', entry)!r}: two options share a name")
    return options


def home_path(registry: Registry[Any]) -> str:
    """Where ``registry``'s entries keep their options in a variant file (``tribute.kinds``)."""
    if not registry.home:
        raise VariantError(f"the {registry.what} registry keeps no options")
    return registry.home


def with_options(registry: Registry[Any]) -> list[str]:
    """The entries of ``registry`` that take options, in registration order."""
    return [name for name, entry in registry.items() if declared(entry) is not None]


def registry_of(entry: Any) -> Registry[Any]:
    """The registry that holds ``entry`` (a class, or an instance of one, or a registered phase)."""
    name = getattr(entry, "name", "")
    for reg, _, _ in homes():
        hit = reg.get(name) if name in reg else None
        if hit is not None and (hit is entry or hit is type(entry)):
            return reg
    raise VariantError(f"{name!r} is not a registered strategy, tribute kind, declaration or phase")


def given(variant: Sections, registry: Registry[Any]) -> Mapping[str, Mapping[str, Any]]:
    """The options the variant writes for ``registry``'s entries, by entry (as written)."""
    return variant.extensions.get(home_path(registry), {})


def switched_on(variant: Sections, registry: Registry[Any], name: str) -> bool:
    """Does ``variant`` name the entry ``name`` of ``registry``: ``sets.beat`` a strategy,
    ``tribute.order`` a kind (or the kind it sorts as), its own key a declaration or a phase?"""
    if registry is BEAT_STRATEGIES:
        return variant.sets.beat == name
    if registry is TRIBUTE_KINDS:
        order = variant.tribute.order
        return name in order or (name in TRIBUTE_KINDS and (TRIBUTE_KINDS[name].sorts_as or name) in order)
    return name in given(variant, registry)


def named_only(registry: Registry[Any]) -> bool:
    """Are ``registry``'s entries switched on only by being written under its home (declarations and
    phases, :func:`switched_on`)?  Then a variant that writes none there needs no read of it."""
    return registry is not BEAT_STRATEGIES and registry is not TRIBUTE_KINDS


def values(variant: Sections, entry: Any) -> dict[str, Any]:
    """``entry``'s options under ``variant``: each at the value written, else its default."""
    registry = registry_of(entry)
    written = given(variant, registry).get(entry.name, {})
    options = declared(entry) or ()
    path = f"{home_path(registry)}.{entry.name}"
    for key in written:
        if key not in {o.name for o in options}:
            close = near_miss(str(key), [o.name for o in options])
            hint = (
                f"; did you mean {close!r}?" if close else f"; it has: {', '.join(o.name for o in options) or 'none'}"
            )
            raise VariantError(f"{path} has no option {key!r}{hint}")
    out = {o.name: written.get(o.name, o.default) for o in options}
    for o in options:
        problem = o.problem(out[o.name])
        if problem is not None:
            raise VariantError(f"{path}.{problem}")
    return out


def data(variant: Sections) -> dict[str, dict[str, dict[str, Any]]]:
    """The options as a variant's data holds them, by home path and entry: every entry written or
    switched on that takes options, each option at its value or default; homes with none left out
    (so a variant that names no extension has the data, and the fingerprint, it always had)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for registry, _, _ in homes():
        path = home_path(registry)
        written = variant.extensions.get(path, {})
        if not written and named_only(registry):
            continue  # nothing switched on there (and `gouji validate` of such a file never imports the phases)
        entries: dict[str, dict[str, Any]] = {}
        for name, entry in registry.items():
            options = declared(entry)
            if options is None or not (name in written or (options and switched_on(variant, registry, name))):
                continue
            mine = written.get(name, {})
            entries[name] = {o.name: mine.get(o.name, o.default) for o in options}
        for name, mine in written.items():  # an entry not registered here is kept as written
            entries.setdefault(name, dict(mine))
        if entries:
            out[path] = entries
    return out


def split(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, dict[str, Any]]]]:
    """Rules written as data, less the extensions' options; and those options, by home path."""
    rest = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in data.items()}
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for _, section, key in homes():
        path = f"{section}.{key}" if key else section
        if key:
            holder = rest.get(section)
            mapping = holder.pop(key, None) if isinstance(holder, dict) else None
        else:
            mapping = rest.pop(section, None)
        if isinstance(mapping, Mapping) and mapping:
            found[path] = {str(n): dict(o) if isinstance(o, Mapping) else {} for n, o in mapping.items()}
    return rest, found


def merge_into(out: dict[str, Any], options: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> None:
    """Write ``options`` (by home path) into rules written as data, at their places."""
    for path, entries in options.items():
        section, _, key = path.partition(".")
        if key:
            holder = out.setdefault(section, {})
            if isinstance(holder, dict):
                holder[key] = {n: dict(o) for n, o in entries.items()}
        else:
            out[section] = {n: dict(o) for n, o in entries.items()}


def fill_legacy(data: dict[str, Any]) -> None:
    """In rules written as data, give each registered entry written there every option it declares
    that the copy lacks, at its legacy value (see :func:`gouji_rules.variant.with_legacy`).  The
    mappings it fills are copies: what ``data`` shares with its caller's data is left as it was."""
    for registry, section, key in homes():
        holder = data.get(section)
        mapping = holder.get(key) if key and isinstance(holder, dict) else holder
        if not isinstance(mapping, Mapping):
            continue
        filled: dict[str, Any] = {}
        for name, written in mapping.items():
            options = declared(registry[name]) if name in registry else None
            if options is None or not isinstance(written, Mapping):
                filled[name] = written
                continue
            filled[name] = {**{o.name: o.legacy for o in options}, **written}
        if key and isinstance(holder, dict):
            holder[key] = filled
        else:
            data[section] = filled


def markdown_table() -> str:
    """Every registered extension's options as a Markdown table (path, type, default, legacy value,
    words, clause), for docs/rules.md and a plugin's own docs."""
    rows = ["| option | type | default | legacy | 中文 | English | clause |", "|---|---|---|---|---|---|---|"]
    for registry, _, _ in homes():
        for name in with_options(registry):
            for o in declared(registry[name]) or ():
                path = f"{home_path(registry)}.{name}.{o.name}"
                cells = [f"`{path}`", o.type.__name__, f"`{o.default!r}`", f"`{o.legacy!r}`", o.zh, o.en, o.clause]
                rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) + "\n"


def main() -> None:
    """``python -m gouji_rules.parts.options`` (and the old path's): print the table, or exit 1 naming the extension
    whose options cannot be read."""
    # the package's own module, not a copy run as __main__: an extension's Option is that one's
    from gouji_rules.parts import options as _options

    try:
        print(_options.markdown_table(), end="")
    except VariantError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":  # pragma: no cover
    main()
