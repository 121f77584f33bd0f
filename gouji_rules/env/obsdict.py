"""An observation dict whose entries are built when read, not at every step.

Why: a step of the environment used to build the observation vector, the legal indices, one
feature row per legal action and a 164,087-entry mask, whatever the agent read; a random or
index-choosing agent reads only the legal indices, a learner the vector and the features, and
the mask is for tools that insist on one.  Building all four at every step made a step of the
environment cost five (pure build) to twelve (compiled) times the engine's own.

What is fixed when the dict is made: the seat's engine ``Observation``, how many of its events
there were, and the ``Legal`` of the decision.  The engine changes neither afterwards, except that
the event log an Observation refers to grows (hence the count), so an entry read many steps later
is the one the step would have given.  Each entry
is built once, on first read, and is the caller's own array (a fresh one per dict).  Anything
that looks at the whole dict (``keys()``, ``items()``, ``==``, ``repr``, ``copy``, pickling)
builds every entry first, in the order of :data:`DICT_KEYS`, so the dict then behaves and
compares as the plain dict earlier releases returned.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..game.legal import Legal
from ..play.observe import Observation
from .encoding import ActionEncoding
from .features import ObservationEncoder

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

DICT_KEYS = ("observation", "legal_actions", "action_features", "action_mask")
"""The entries of the rich observation dict, in their order (``action_mask`` only with a dense mask)."""
LEGAL_KEYS = DICT_KEYS[1:]
"""The entries of the acting seat's ``info`` under ``observation="vector"`` (the classic form's: the
first two)."""
CLASSIC_KEYS = ("observation", "action_mask")
"""The entries of the classic observation dict, PettingZoo's classic games' two."""


class ObservationDict(dict[str, Any]):
    """A ``dict`` of a seat's observation entries, each built from a fixed snapshot when first read.

    >>> from gouji_rules.env import GoujiEnv
    >>> env = GoujiEnv("dagang", observation="rich")
    >>> env.reset(seed=1)
    >>> obs = env.observe(env.agent_selection)
    >>> len(obs), "action_mask" in obs, obs["legal_actions"].dtype
    (4, True, dtype('int64'))
    """

    __slots__ = ("_encoder", "_encoding", "_events", "_keys", "_legal", "_obs")

    def __init__(
        self,
        keys: tuple[str, ...],
        encoding: ActionEncoding,
        legal: Legal,
        encoder: ObservationEncoder | None = None,
        obs: Observation | None = None,
    ) -> None:
        # dict.__init__ is not called: with no arguments it does nothing (this runs at every step)
        self._keys = keys
        """the entries it holds, in DICT_KEYS order; those not in the dict yet are built when read
        (empty once every entry is built, or the caller removed one: from then on a plain dict)"""
        self._encoding = encoding
        self._legal = legal
        self._encoder = encoder
        self._obs = obs
        self._events = len(obs.events) if obs is not None else 0

    def _build(self, key: str) -> Any:
        if key == "legal_actions":
            return self._encoding.indices(self._legal)
        if key == "action_features":
            return self._encoding.action_features(self._legal)
        if key == "action_mask":
            return self._encoding.dense_mask(self._encoding.indices(self._legal))
        assert self._encoder is not None and self._obs is not None  # "observation" is pending only with both
        return self._encoder.encode(self._obs, self._events)

    def __missing__(self, key: str) -> Any:
        if key not in self._keys:
            if self._keys == CLASSIC_KEYS and key in DICT_KEYS:
                # the rich form's entry read from the classic form (the default since issue 30)
                raise KeyError(
                    f"{key}: the classic observation holds observation and action_mask only; "
                    "the acting seat's info holds legal_actions and action_features, "
                    'and GoujiEnv(observation="rich") gives all four in the observation'
                )
            raise KeyError(key)
        # the legal indices are what most agents read, at every step: no further call for them
        value = self._encoding.indices(self._legal) if key == "legal_actions" else self._build(key)
        dict.__setitem__(self, key, value)
        return value

    def _pending(self) -> list[str]:
        return [k for k in self._keys if not dict.__contains__(self, k)]

    def _fill(self) -> None:
        """Build every pending entry and put all in DICT_KEYS order (then a plain dict's behaviour holds)."""
        if not self._keys:
            return
        for key in self._pending():
            dict.__setitem__(self, key, self._build(key))
        self._keys = ()
        built = {k: dict.__getitem__(self, k) for k in DICT_KEYS if dict.__contains__(self, k)}
        extra = {k: v for k, v in dict.items(self) if k not in built}
        dict.clear(self)
        dict.update(self, built)
        dict.update(self, extra)

    # -- answered without building -----------------------------------------------------------

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self._keys

    def __len__(self) -> int:
        return dict.__len__(self) + len(self._pending())

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def get(self, key: str, default: Any = None) -> Any:
        """As dict.get, but builds a pending entry first (dict.get would skip it): the lazy dict must read like a full
        one."""
        if key in self:
            return self[key]  # builds a pending entry (dict.get would not)
        return default

    # -- the whole dict: every entry built first -----------------------------------------------

    def keys(self) -> dict_keys[str, Any]:
        """Every key, pending entries built first, so iteration sees the whole observation."""
        self._fill()
        return dict.keys(self)

    def values(self) -> dict_values[str, Any]:
        """Every value, pending entries built first."""
        self._fill()
        return dict.values(self)

    def items(self) -> dict_items[str, Any]:
        """Every item, pending entries built first."""
        self._fill()
        return dict.items(self)

    def copy(self) -> ObservationDict:
        """A full, independent copy (pending entries built), so a caller may keep it past the next step."""
        self._fill()
        return built(dict(dict.items(self)))

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, ObservationDict):
            other._fill()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # a dict is unhashable

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied with every entry built (the snapshot it was built from stays behind)."""
        self._fill()
        return (built, (dict(dict.items(self)),))

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return self.__reduce__()

    # -- changes: nothing pending may reappear under a key the caller set or removed ------------------------

    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)  # a key of its own now: never built (removing it fills first)

    def __delitem__(self, key: str) -> None:
        self._fill()
        dict.__delitem__(self, key)

    def pop(self, key: str, *default: Any) -> Any:
        """As dict.pop, after building pending entries, so the popped value is the real one."""
        self._fill()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        """As dict.popitem, after building pending entries."""
        self._fill()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        """As dict.setdefault, after building pending entries, so an existing entry is never shadowed."""
        self._fill()
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        """As dict.update, after building pending entries, so a pending entry never overwrites the caller's value
        later."""
        self._fill()
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        """Empty the dict, pending entries included."""
        self._keys = ()
        dict.clear(self)

    def __ior__(self, other: Any) -> ObservationDict:  # type: ignore[override]  # dict's signature
        self.update(other)
        return self

    def __or__(self, other: Any) -> dict[str, Any]:  # type: ignore[override]
        return {**self.copy(), **other}

    def __ror__(self, other: Any) -> dict[str, Any]:  # type: ignore[override]
        return {**other, **self.copy()}


def built(entries: dict[str, Any]) -> ObservationDict:
    """An ObservationDict holding ``entries``, nothing pending (what a copy or an unpickling gives)."""
    out = ObservationDict.__new__(ObservationDict)
    dict.update(out, entries)
    out._keys = ()
    out._encoder = out._obs = None
    out._events = 0
    return out
