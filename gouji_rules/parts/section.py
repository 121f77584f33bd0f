"""Frozen dataclasses without generated code: the variant's sections, declared cheaply.

``dataclasses.dataclass(frozen=True)`` writes six methods of each class (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) as source text and compiles it; for the
twenty classes of :mod:`gouji_rules.variant` that was 14 of the 15 ms its import cost, on every
``gouji validate`` (issue 13).  :func:`dataclass` asks ``dataclasses`` for the class with no methods,
so it still finds the fields, sets the defaults and ``__dataclass_fields__`` (``fields()``,
``replace()``, ``asdict()`` and the metadata the schema and ``gouji explain`` read are the library's
own), then attaches methods made from closures that behave as the generated ones do, as the running
Python writes them (3.13 compares field by field where 3.11 compares tuples).  ``__init__`` is the
one method whose signature is per class: its code is a fixed template's with the parameter names
swapped in, so Python itself binds the arguments, fills the defaults and words the errors for
missing or unknown ones, exactly as for the generated ``__init__``.  ``tests/test_section.py`` holds
every section to a real frozen dataclass built from the same class body.

Type checkers are shown ``dataclasses.dataclass`` itself (``variant.py`` imports it under
``TYPE_CHECKING``), so what mypy knows of the sections is unchanged.  Only ``dataclass(frozen=True)``
on a class with plain fields takes this path; other options, and a class with a dataclass base, are
handed to ``dataclasses.dataclass``, and a class the closures could not reproduce (``__post_init__``,
``InitVar``, keyword-only or ``init=False`` fields) is refused with a ``TypeError`` at import.
"""

from __future__ import annotations

import abc
import dataclasses
import inspect
import sys
from _thread import get_ident
from collections.abc import Callable
from operator import attrgetter
from types import FunctionType
from typing import Any, TypeVar

T = TypeVar("T")

# the default that stands for a default_factory in a generated __init__'s signature (shown "<factory>")
_FACTORY: Any = vars(dataclasses)["_HAS_DEFAULT_FACTORY"]


def dataclass(cls: type[T] | None = None, /, **options: Any) -> Any:
    """``dataclasses.dataclass`` for ``frozen=True`` alone, built without code generation; any other
    options go to ``dataclasses.dataclass`` unchanged."""
    if options != {"frozen": True}:
        return dataclasses.dataclass(cls, **options)
    if cls is None:
        return _frozen
    return _frozen(cls)


def _frozen(cls: type[T]) -> type[T]:
    if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]):
        return dataclasses.dataclass(cls, frozen=True)  # inherited fields and frozenness: the library's way
    had_doc = bool(cls.__dict__.get("__doc__"))
    explicit_hash = cls.__dict__.get("__hash__", dataclasses.MISSING)
    has_explicit_hash = not (
        explicit_hash is dataclasses.MISSING or (explicit_hash is None and "__eq__" in cls.__dict__)
    )
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)  # fields, defaults, __match_args__; no code
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = tuple(f.name for f in fields)
    if (
        hasattr(cls, "__post_init__")
        or "self" in names
        or any(not f.init or f.kw_only for f in fields)
        or getattr(cls, "__match_args__", None) != names  # an InitVar is a parameter but not a field
    ):
        raise TypeError(f"{cls.__qualname__}: section.dataclass takes plain fields only; use dataclasses.dataclass")
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")

    methods: dict[str, Callable[..., Any]] = {
        "__init__": _init(cls, fields),
        "__repr__": _repr([f.name for f in fields if f.repr]),
        "__eq__": _eq([f.name for f in fields if f.compare]),
    }
    for name, method in methods.items():
        if name not in cls.__dict__:
            _attach(cls, name, method)
    for method in _frozen_setattr(cls, names):
        _attach(cls, method.__name__, method)
    if not has_explicit_hash:
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        _attach(cls, "__hash__", _hash(_values(hashed)))

    params = vars(cls)["__dataclass_params__"]  # as dataclass(frozen=True) would have recorded them
    params.init = params.repr = params.eq = params.frozen = True
    if not had_doc:
        try:
            cls.__doc__ = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
        except (TypeError, ValueError):
            cls.__doc__ = cls.__name__
    abc.update_abstractmethods(cls)
    return cls


def _attach(cls: type, name: str, method: Callable[..., Any]) -> None:
    method.__name__ = name
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    method.__module__ = cls.__module__
    setattr(cls, name, method)


def _init_template(self: Any) -> None:
    # Never called: its code, with the fields as parameters, is each section's __init__ (see _init);
    # _assign is a name in that function's own globals.
    _assign(self, locals())  # type: ignore[name-defined]  # noqa: F821


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    names = tuple(f.name for f in fields)
    plan = tuple((f.name, None if f.default_factory is dataclasses.MISSING else f.default_factory) for f in fields)
    setattr_ = object.__setattr__

    def _assign(self: object, values: dict[str, Any]) -> None:
        for name, factory in plan:
            value = values[name]
            if factory is not None and value is _FACTORY:
                value = factory()
            setattr_(self, name, value)

    code = _init_template.__code__.replace(
        co_argcount=1 + len(names),
        co_nlocals=1 + len(names),
        co_varnames=("self", *names),
        co_name="__init__",
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    defaults, last_default = [], ""
    for f in fields:
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            defaults.append(f.default if f.default is not dataclasses.MISSING else _FACTORY)
            last_default = f.name
        elif defaults:
            which = f" {last_default!r}" if sys.version_info >= (3, 13) else ""  # 3.13 names it
            raise TypeError(f"non-default argument {f.name!r} follows default argument{which}")
    init = FunctionType(code, {"_assign": _assign, "locals": locals}, "__init__", tuple(defaults) or None)
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    return init


def _values(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these fields' values, as the generated methods build it: ``(self.a, self.b,)``."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


def _repr(names: list[str]) -> Callable[[Any], str]:
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:  # a section that contains itself, as dataclasses' recursive_repr shows it
            return "..."
        running.add(key)
        try:
            return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"
        finally:
            running.discard(key)

    return __repr__


def _eq(names: list[str]) -> Callable[[Any, Any], Any]:
    if sys.version_info < (3, 13):
        values = _values(names)

        def eq_tuples(self: Any, other: Any) -> Any:  # as 3.11 and 3.12 generate it: tuples compared
            if other.__class__ is self.__class__:
                return values(self) == values(other)
            return NotImplemented

        return eq_tuples
    getters = [attrgetter(name) for name in names]

    def eq_fields(self: Any, other: Any) -> Any:  # as 3.13 generates it: `self.a == other.a and …`
        if self is other:
            return True
        if other.__class__ is self.__class__:
            result: Any = True
            for get in getters:
                result = get(self) == get(other)
                if not result:
                    break
            return result
        return NotImplemented

    return eq_fields


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen_setattr(cls: type[Any], fields: tuple[str, ...]) -> tuple[Callable[..., None], Callable[..., None]]:
    names = fields if sys.version_info < (3, 13) else frozenset(fields)  # 3.13 tests `name in {'a', …}`

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__
