"""The rules a hand is played under, as numbers the network reads: the ``rule.*`` columns.

Issue 32 item 3: one network for every club's rules reads the option values by name.  The columns
are derived, when this module is imported, from the variant's sections (``variant.SECTIONS``, each
field's type and its declared bounds) and from the catalogue's part options
(:func:`gouji_rules.parts.catalogue.option_rows`); nothing here lists an option by hand, so an
option added to a section or a part is a column the next time the package is imported.

How a value becomes numbers (each in [0, 1], but a list of numbers in [−1, 1]):

* a bool: one column ``rule.<section>.<field>``, 0 or 1;
* a whole number: one column, ``(v − minimum) / (maximum − minimum)`` where both bounds are declared,
  else ``min(v − minimum, INT_SCALE) / INT_SCALE`` (minimum 0 where none is declared); a number that
  may be null (``int | None``) adds ``rule.<section>.<field>=null``;
* an enumeration (a ``Literal`` or declared ``choices``): one column per value, ``rule.x.y=value``;
  a list of enumerated values is the same columns, several of them 1;
* a list of ranks (``sets.bare``, ``tribute.cards`` …): one column per rank, ``rule.x.y=<rank>``;
  a mapping of ranks to counts (``gouji.thresholds``, ``deck.remove``): ``rule.x.y.<rank>``, scaled
  as a whole number;
* a list of numbers (``scoring.points``): one column per element of the default's length,
  ``rule.x.y.<i>``, each divided by the list's largest magnitude (the shape of the scores; 0 for a
  list of zeros).

What fits none of these (``sets.kill``, ``tribute.place``, the names of places, expression hooks,
free text) has no column: :func:`unseen_rules` lists what a variant sets there, so a report can say
what the agent plays without seeing.

The block depends on the rules alone, so it is built once per compiled Rules (:func:`rule_block`
keeps it on the Rules object) and copied into each observation row, never recomputed per decision.
"""

from __future__ import annotations

import collections
import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..env.features import RANKS
from ..parts import catalogue
from ..rules import Rules
from ..variant import Variant

FloatArray = npt.NDArray[np.float32]
INT_SCALE = 10
"""The span an unbounded whole number is read over: ``min(v − minimum, 10) / 10``."""

Reader = Callable[[Any], list[float]]
_RANK_SET = frozenset(RANKS)


def _literal_values(tp: Any) -> tuple[str, ...] | None:
    if typing.get_origin(tp) is typing.Literal:
        return tuple(str(a) for a in typing.get_args(tp))
    return None


def _int(lo: int | None, hi: int | None) -> Callable[[Any], float]:
    low = lo or 0
    if hi is not None and hi > low:
        return lambda v: (int(v) - low) / (hi - low)
    return lambda v: min(max(int(v) - low, 0), INT_SCALE) / INT_SCALE


def _onehot(values: tuple[str, ...]) -> Reader:
    def read(v: Any) -> list[float]:
        have = {str(x) for x in v} if isinstance(v, (list, tuple)) else {str(v)}
        return [float(x in have) for x in values]

    return read


def _numbers(n: int) -> Reader:
    def read(v: Any) -> list[float]:
        xs = [float(x) for x in list(v)[:n]] + [0.0] * max(0, n - len(v))
        top = max((abs(x) for x in xs), default=0.0)
        return [x / top if top else 0.0 for x in xs]

    return read


def _columns_of(path: str, tp: Any, default: Any, meta: Mapping[str, Any]) -> tuple[list[str], Reader] | None:
    """The column names and the reader of one option, or None where the network cannot read it."""
    lo, hi = meta.get("minimum"), meta.get("maximum")
    choices = meta.get("choices")
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is bool:
        return [path], lambda v: [float(bool(v))]
    if tp is int:
        f = _int(lo, hi)
        return [path], lambda v: [min(max(f(v), 0.0), 1.0)]
    if origin in (typing.Union, types.UnionType) and set(args) == {int, type(None)}:
        f = _int(lo, hi)
        return [path, f"{path}=null"], lambda v: [0.0, 1.0] if v is None else [f(v), 0.0]
    values = _literal_values(tp) or (tuple(str(c) for c in choices) if choices and tp is str else None)
    if values:
        return [f"{path}={x}" for x in values], _onehot(values)
    if tp is str and default in _RANK_SET:  # a rank (chongdian.max_rank)
        return [f"{path}={r}" for r in RANKS], _onehot(RANKS)
    if origin in (typing.Union, types.UnionType) and type(None) in args and len(args) == 2:
        inner = next(a for a in args if a is not type(None))
        got = _columns_of(path, inner, default, meta)
        if got is not None:
            cols, read = got
            return [*cols, f"{path}=null"], lambda v: [0.0] * len(cols) + [1.0] if v is None else [*read(v), 0.0]
    if origin is list and args:
        inner = args[0]
        values = _literal_values(inner) or (tuple(str(c) for c in choices) if choices else None)
        if values:
            return [f"{path}={x}" for x in values], _onehot(values)
        if inner is int and isinstance(default, list) and default:
            return [f"{path}.{i}" for i in range(len(default))], _numbers(len(default))
        if inner is str and (meta.get("ranks") or (default and set(default) <= _RANK_SET)):
            return [f"{path}={r}" for r in RANKS], _onehot(RANKS)
    if origin is dict and args == (str, int):
        f = _int(lo, hi)
        return [f"{path}.{r}" for r in RANKS], lambda v: [f(v[r]) if r in v else 0.0 for r in RANKS]
    return None


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


@dataclasses.dataclass(frozen=True)
class RuleInput:
    """One readable option: its path (``burn.enabled``), its columns, and how its value becomes them."""

    path: str
    columns: tuple[str, ...]
    read: Reader
    value: Callable[[Variant], Any]


def _section_value(section: str, name: str) -> Callable[[Variant], Any]:
    return lambda v: getattr(getattr(v, section), name)


def _part_value(home: str, part: str, option: str, default: Any) -> Callable[[Variant], Any]:
    def value(v: Variant) -> Any:
        entries = v.extensions.get(home, {})
        if part not in entries:
            return None  # the part is not played: its columns stay 0
        return entries[part].get(option, default)

    return value


def _or_zeros(read: Reader, n: int) -> Reader:
    """``read``, and zeros for the options of a part the variant does not play (None)."""
    return lambda v: [0.0] * n if v is None else read(v)


Unread = tuple[str, Callable[[Variant], Any], Any]
"""An option with no column: its path, how to read it of a Variant, and its default."""


def _inputs() -> tuple[tuple[RuleInput, ...], tuple[Unread, ...]]:
    """Every readable option, and those the network cannot read."""
    readable: list[RuleInput] = []
    unreadable: list[Unread] = []
    for section, cls in catalogue.sections():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            path = f"{section}.{f.name}"
            got = _columns_of(f"rule.{path}", hints.get(f.name, f.type), _default(f), f.metadata)
            if got is None:
                unreadable.append((path, _section_value(section, f.name), _default(f)))
            else:
                readable.append(RuleInput(path, tuple(got[0]), got[1], _section_value(section, f.name)))
    for row in catalogue.option_rows():
        o = row.option
        meta = {"minimum": o.minimum, "maximum": o.maximum, "choices": o.choices}
        got = _columns_of(f"rule.{row.path}", o.type, o.default, meta)
        home = row.path[: -len(f".{row.part}.{o.name}")]
        if got is None:
            unreadable.append((row.path, _part_value(home, row.part, o.name, o.default), None))
        else:
            cols, read = got
            readable.append(
                RuleInput(
                    row.path,
                    tuple(cols),
                    _or_zeros(read, len(cols)),
                    _part_value(home, row.part, o.name, o.default),
                )
            )
    return tuple(readable), tuple(unreadable)


INPUTS, UNREADABLE = _inputs()
RULE_COLUMNS: tuple[str, ...] = tuple(c for i in INPUTS for c in i.columns)
"""The names of the rule block's columns, in the order of the sections and then the part options."""
RULE_SIZE = len(RULE_COLUMNS)


def encode_rules(variant: Variant) -> FloatArray:
    """The rule block of ``variant``: RULE_SIZE numbers (the module's docstring says how each is read)."""
    out: list[float] = []
    for i in INPUTS:
        out += i.read(i.value(variant))
    return np.asarray(out, np.float32)


_BLOCKS: collections.OrderedDict[int, tuple[Rules, FloatArray]] = collections.OrderedDict()
"""The rule blocks of the compiled rules last used, by the Rules object's id (the object is kept beside its
block, so an id is never reused while its entry lives).  Not an attribute of the Rules: the compiled build's
Rules has no ``__dict__``."""
_KEEP = 64


def rule_block(rules: Rules) -> FloatArray:
    """The rule block of the compiled ``rules``, built on first use and kept for the last :data:`_KEEP`
    Rules objects (read-only: every observation row copies it)."""
    hit = _BLOCKS.get(id(rules))
    if hit is not None and hit[0] is rules:
        _BLOCKS.move_to_end(id(rules))
        return hit[1]
    block = encode_rules(typing.cast(Variant, rules.variant))
    block.setflags(write=False)
    _BLOCKS[id(rules)] = (rules, block)
    if len(_BLOCKS) > _KEEP:
        _BLOCKS.popitem(last=False)
    return block


def unseen_rules(variant: Variant) -> list[str]:
    """What ``variant`` sets that the network cannot see: its expression hooks (``hooks.<name>``),
    then each option with no column whose value is not its default (``tribute.place``; a part's
    option whenever the part is played)."""
    out = [f"hooks.{name}" for name in sorted(variant.hooks)]
    out += [path for path, value, default in UNREADABLE if value(variant) != default]
    known = {i.path for i in INPUTS} | {u[0] for u in UNREADABLE}
    for row in catalogue.option_rows():  # a part registered after the layout was made: no column
        home = row.path[: -len(f".{row.part}.{row.option.name}")]
        if row.path not in known and row.part in variant.extensions.get(home, {}):
            out.append(row.path)
    return out


__all__ = ["INT_SCALE", "RULE_COLUMNS", "RULE_SIZE", "encode_rules", "rule_block", "unseen_rules"]
