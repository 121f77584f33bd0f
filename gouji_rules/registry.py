"""Registries for the parts of 够级 that regions vary: beat strategies, tribute kinds, declarations
and match phases.

One registry per kind of thing (python-chess style: a table plus a ``find`` function).  A
registered class carries its own name, its Chinese and English description, the variant fields
it reads, and its behaviour; everything else (the choices the JSON Schema offers, the rule
sheet's words, warnings about unused fields, the compare metrics) is derived from the registry.
A class registered later, from a club's or a test's module, shows up everywhere at once.

>>> from gouji_rules.registry import BEAT_STRATEGIES
>>> sorted(BEAT_STRATEGIES)[:2]
['card_by_card', 'cover']
>>> BEAT_STRATEGIES.find("cover").zh[:4]
'大花盖小'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar

from .errors import VariantError, near_miss


class Registered(Protocol):
    """What every registered class has: a name (the id in variant files) and two descriptions."""

    name: str
    zh: str
    en: str


T = TypeVar("T", bound=Registered)


class Registry(Mapping[str, T], Generic[T]):
    """Registered classes by name, in registration order (which is also their default order).

    ``loader`` names the module that registers the built-in entries; it is imported the first
    time the registry is read, so reading a registry never depends on import order.  The
    extensions of installed packages (:mod:`gouji_rules.plugins`) are loaded then too.
    """

    def __init__(self, what: str, loader: str) -> None:
        self.what = what
        self.loader = loader
        self._entries: dict[str, T] = {}
        self._loaded = False

    def _load(self) -> dict[str, T]:
        if not self._loaded:
            self._loaded = True
            importlib.import_module(self.loader)
        if not _plugins_loaded:
            _load_plugins()
        return self._entries

    def register(self, entry: T) -> T:
        """Add ``entry`` (usable as a class decorator).  A name already taken is an error."""
        name = getattr(entry, "name", "")
        if not name or not isinstance(name, str):
            raise VariantError(f"a {self.what} needs a non-empty name")
        if name in self._entries and self._entries[name] is not entry:
            raise VariantError(f"{self.what} {name!r} is already registered")
        self._entries[name] = entry
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (tests that register one clean up with this)."""
        self._entries.pop(name, None)

    def registered(self) -> dict[str, T]:
        """The entries registered so far, the installed extensions loaded, without importing the
        built-in entries' module (the phases' imports the engine, which ``gouji validate`` does
        without; the built-in phases declare no options, so what reads options needs only these)."""
        if not _plugins_loaded:
            _load_plugins()
        return dict(self._entries)

    def find(self, name: str) -> T:
        """The entry called ``name``; an unknown name raises VariantError with the nearest name."""
        entries = self._load()
        hit = entries.get(name)
        if hit is not None:
            return hit
        close = near_miss(name, entries)
        hint = f"; did you mean {close!r}?" if close else f"; known: {', '.join(entries)}"
        raise VariantError(f"unknown {self.what} {name!r}{hint}")

    @property
    def choices(self) -> Choices:
        """A live ``name -> (zh, en)`` view, for ``metadata["choices"]`` of the variant fields."""
        return Choices(self)

    def __getitem__(self, name: str) -> T:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._load()))

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return f"Registry({self.what!r}, {list(self._load())})"


_plugins_loaded = False


def _load_plugins() -> None:
    """The installed extensions (:mod:`gouji_rules.plugins`), once they load; a failure is raised
    at every read until then.

    Not while a module of this package is still being imported: the built-in phases register (and
    so read the registries) while ``gouji_rules.match`` imports them, and an extension that imports
    ``gouji_rules.match`` at its top would find it half made.  The first read after the imports
    loads them."""
    global _plugins_loaded
    if _importing_package():
        return
    from .plugins import load_installed

    load_installed()
    _plugins_loaded = True


def _importing_package() -> bool:
    """Is a module of this package being imported right now (its spec marked as initialising)?"""
    return any(
        getattr(getattr(module, "__spec__", None), "_initializing", False)
        for name, module in list(sys.modules.items())
        if name == "gouji_rules" or name.startswith("gouji_rules.")
    )


class Choices(Mapping[str, tuple[str, str]]):
    """``value -> (zh, en)`` of a registry, read at the moment it is asked (never a stale copy)."""

    def __init__(self, registry: Registry[Any]) -> None:
        self.registry = registry

    def __getitem__(self, name: str) -> tuple[str, str]:
        e = self.registry[name]
        return (e.zh, e.en)

    def __iter__(self) -> Iterator[str]:
        return iter(self.registry)

    def __len__(self) -> int:
        return len(self.registry)

    def __repr__(self) -> str:
        return f"Choices({dict(self)!r})"


def choices(**values: tuple[str, str]) -> dict[str, tuple[str, str]]:
    """A fixed ``value -> (zh, en)`` table for a field whose values are not a registry."""
    return dict(values)


BEAT_STRATEGIES: Registry[Any] = Registry("beat strategy", "gouji_rules.beat")
"""``sets.beat``: what beats what (:mod:`gouji_rules.beat`)."""
TRIBUTE_KINDS: Registry[Any] = Registry("tribute kind", "gouji_rules.tributes")
"""``tribute.order`` / ``returned`` / ``waivable``: the kinds of tribute (:mod:`gouji_rules.tributes`)."""
DECLARATIONS: Registry[Any] = Registry("declaration", "gouji_rules.declarations")
"""宣点 / 和点 / 明点 / 预点 (:mod:`gouji_rules.declarations`)."""
PHASES: Registry[Any] = Registry("match phase", "gouji_rules.phases")
"""The phases of a match before and after each hand, in order (:mod:`gouji_rules.phases`)."""
DECISION_KINDS: Registry[Any] = Registry("decision kind", "gouji_rules.phases")
"""What a match asks between hands (``Match.phase``): each kind is declared by the phase that asks it
(:class:`~gouji_rules.phases.base.DecisionKind`)."""
PHASE_WORDS: dict[str, Any] = {}
"""text -> action, for the words the phases offer (``buy4``, ``last2``, ``with_head``), filled as
phases register; read it through :func:`phase_words`"""


def phase_words() -> dict[str, Any]:
    """The registered phases' words by their text (what ``actions.parse_action`` reads)."""
    len(PHASES)  # reading the registry loads the shipped phases
    return PHASE_WORDS
