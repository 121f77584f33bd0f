"""Registries for the parts of 够级 that regions vary: beat strategies, tribute kinds, declarations
and match phases.

One registry per kind of thing (python-chess style: a table plus a ``find`` function).  A
registered class carries its own name, its Chinese and English description, the variant fields
it reads, and its behaviour; everything else (the choices the JSON Schema offers, the rule
sheet's words, warnings about unused fields, the compare metrics) is derived from the registry.
A class registered later, from a club's or a test's module, shows up everywhere at once.

>>> from gouji_rules.parts.registry import BEAT_STRATEGIES
>>> sorted(BEAT_STRATEGIES)[:2]
['card_by_card', 'cover']
>>> BEAT_STRATEGIES.find("cover").zh[:4]
'大花盖小'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar

from ..errors import VariantError, near_miss


class Registered(Protocol):
    """What every registered class has: a name (the id in variant files) and two descriptions."""

    name: str
    zh: str
    en: str


T = TypeVar("T", bound=Registered)


class Registry(Mapping[str, T], Generic[T]):
    """Registered classes by name, in registration order (which is also their default order).

    ``loader`` names the module that registers the built-in entries.  Every read goes through one
    path, :meth:`_load`: the first imports the loader and the installed extensions
    (:mod:`gouji_rules.parts.plugins`), so what a read answers never depends on what was imported before.
    ``home`` is where a variant file writes the options of the entries (``"tribute.kinds"``;
    ``"phases"``: a top-level key of its own), with its words; ``""`` for a registry whose entries
    take none (:mod:`gouji_rules.parts.options`, :mod:`gouji_rules.parts.catalogue` read it).
    """

    def __init__(self, what: str, loader: str, home: str = "", words: tuple[str, str] = ("", "")) -> None:
        self.what = what
        self.loader = loader
        self.home = home
        self.words = words
        self._entries: dict[str, T] = {}
        self._loaded = False
        REGISTRIES.append(self)

    def _load(self) -> dict[str, T]:
        """The entries: the loader's, the installed extensions' and whatever registered since.

        A read made while the loader is still being imported (the loader reading its own
        registry) gets the entries so far; the extensions are loaded by the first read made
        outside every loader's import, so an extension that imports the package at its top finds
        it whole."""
        global _loading
        if not self._loaded:
            self._loaded = True
            _loading += 1
            try:
                importlib.import_module(self.loader)
            except BaseException:
                self._loaded = False
                raise
            finally:
                _loading -= 1
        if not _plugins_loaded and not _loading:
            _load_plugins()
        return self._entries

    def check(self, entry: T) -> None:
        """Raise VariantError when ``entry`` could not be registered: no name, or a name another
        entry already has.  The registration's own test (it reads nothing, so a class registering
        while its module is imported never loads the extensions)."""
        name = getattr(entry, "name", "")
        if not name or not isinstance(name, str):
            raise VariantError(f"a {self.what} needs a non-empty name")
        if name in self._entries and self._entries[name] is not entry:
            raise VariantError(f"{self.what} {name!r} is already registered")

    def register(self, entry: T) -> T:
        """Add ``entry`` (usable as a class decorator).  A name already taken is an error."""
        self.check(entry)
        self._entries[entry.name] = entry
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (tests that register one clean up with this)."""
        self._entries.pop(name, None)

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


REGISTRIES: list[Registry[Any]] = []
"""Every registry, in the order made (:mod:`gouji_rules.parts.catalogue` lists the parts from it)."""

_plugins_loaded = False
_loading = 0
"""How many loaders' imports are under way (see :meth:`Registry._load`)."""


def _load_plugins() -> None:
    """The installed extensions (:mod:`gouji_rules.parts.plugins`), once they load; a failure is raised
    at every read until then."""
    global _plugins_loaded
    from .plugins import load_installed

    load_installed()
    _plugins_loaded = True


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


BEAT_STRATEGIES: Registry[Any] = Registry(
    "beat strategy",
    "gouji_rules.rules.beat",
    "sets.strategies",
    ("管牌方式自带的选项，按管牌方式", "options of registered beat strategies, by strategy"),
)
"""``sets.beat``: what beats what (:mod:`gouji_rules.rules.beat`)."""
TRIBUTE_KINDS: Registry[Any] = Registry(
    "tribute kind",
    "gouji_rules.rules.tributes",
    "tribute.kinds",
    ("贡的种类自带的选项，按种类", "options of registered tribute kinds, by kind"),
)
"""``tribute.order`` / ``returned`` / ``waivable``: the kinds of tribute (:mod:`gouji_rules.rules.tributes`)."""
DECLARATIONS: Registry[Any] = Registry(
    "declaration",
    "gouji_rules.rules.declarations",
    "declare.kinds",
    (
        "宣点类声明自带的选项，按声明；写出声明名即采用该声明",
        "options of registered declarations, by declaration; naming one here plays it",
    ),
)
"""宣点 / 和点 / 明点 / 预点 (:mod:`gouji_rules.rules.declarations`)."""
PHASES: Registry[Any] = Registry(
    "match phase",
    "gouji_rules.phases",
    "phases",
    (
        "阶段自带的选项，按阶段；写出阶段名即采用该阶段",
        "options of registered match phases, by phase; naming one here plays it",
    ),
)
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
