"""The variant's sections behave exactly as the frozen dataclasses they are declared as.

``gouji_rules.parts.section.dataclass`` builds the classes of ``variant.py`` without generating code (issue
13: it was most of ``gouji validate``'s import).  Nobody may see the difference: a club's tooling
constructs sections, compares, hashes, pickles and ``replace()``s them, and ``gouji explain`` and the
schema read ``fields()`` and their metadata.  So ``variant.py`` and the sections' module
(``parts/sections.py``) are executed a second time with the real ``dataclasses.dataclass`` in place of
the fast one, and every class of the two executions is held to the other, point by point.
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import importlib.util
import inspect
import pickle
import re
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, ClassVar

import pytest

from gouji_rules import catalog, variant
from gouji_rules.parts import section, sections

REFERENCE = "gouji_rules._variant_as_dataclasses"
REFERENCE_SECTIONS = "gouji_rules.parts._sections__variant_as_dataclasses"


def _as_shipped(text: str) -> str:
    """A text of the reference classes with their modules named as the shipped classes' are."""
    return text.replace(REFERENCE_SECTIONS, "gouji_rules.parts.sections").replace(REFERENCE, "gouji_rules.variant")


def _load_variant(
    name: str, decorator: Callable[..., Any] | None = None, keep: pytest.MonkeyPatch | None = None
) -> ModuleType:
    """``variant.py`` executed afresh as module ``name`` (with ``decorator`` as its ``dataclass``), over the
    sections' own module (``parts/sections.py``) executed afresh beside it, so that every class is built
    again.  ``keep`` keeps both modules in ``sys.modules`` for as long as it lasts (their instances pickle)."""
    with pytest.MonkeyPatch.context() as mp:
        if decorator is not None:
            mp.setattr(section, "dataclass", decorator)
        both = keep or mp
        again = _exec(both, f"gouji_rules.parts._sections_{name.rsplit('.', 1)[-1]}", sections.__file__)
        mp.setitem(sys.modules, "gouji_rules.parts.sections", again)  # variant.py's import finds it
        return _exec(both, name, variant.__file__)


def _exec(mp: pytest.MonkeyPatch, name: str, path: str | None) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    mp.setitem(sys.modules, name, module)  # dataclasses reads the class's module as it builds it
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def reference() -> Iterator[ModuleType]:
    with pytest.MonkeyPatch.context() as mp:
        yield _load_variant(REFERENCE, dataclasses.dataclass, keep=mp)


CLASSES = [cls.__name__ for _, cls in variant.SECTIONS] + ["Variant"]


@pytest.fixture(params=CLASSES)
def pair(request: pytest.FixtureRequest, reference: ModuleType) -> tuple[type, type]:
    """(the class as variant.py builds it, the same class body as a real frozen dataclass)."""
    return getattr(variant, request.param), getattr(reference, request.param)


def _other(value: Any) -> Any:
    """A value unequal to ``value`` (the constructors check no types, so any will do)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, "x"]
    if isinstance(value, dict):
        return {**value, "x": 1}
    return "x" if value is None else None


def _outcome(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, str]:
    """What a call gives, as text: its repr, or its exception's type and message."""
    try:
        return "value", repr(call(*args, **kwargs))
    except Exception as e:
        return type(e).__name__, str(e)


def _type(tp: Any) -> Any:
    """A field's type, comparable across the two executions of variant.py (a section class is named)."""
    return tp.__qualname__ if isinstance(tp, type) else tp


def _fields(cls: type) -> list[tuple[Any, ...]]:
    out = []
    for f in dataclasses.fields(cls):
        factory = None if f.default_factory is dataclasses.MISSING else repr(f.default_factory())
        out.append(
            (
                f.name,
                _type(f.type),
                repr(f.default),
                factory,
                f.init,
                f.repr,
                f.hash,
                f.compare,
                dict(f.metadata),
                f.kw_only,
            )
        )
        out.append(f._field_type)  # type: ignore[attr-defined]
    return out


def _required(cls: type) -> dict[str, Any]:
    """A value for each field without a default (a Variant's name)."""
    missing = dataclasses.MISSING
    return {f.name: "v" for f in dataclasses.fields(cls) if f.default is missing and f.default_factory is missing}


def _instances(cls: type) -> Iterator[Any]:
    """The default instance, then one with each field given another value (by keyword)."""
    base = cls(**_required(cls))
    yield base
    for f in dataclasses.fields(cls):
        if f.name not in {"hooks"} and not dataclasses.is_dataclass(getattr(base, f.name)):
            yield dataclasses.replace(base, **{f.name: _other(getattr(base, f.name))})


def assert_same_class(fast: type, real: type) -> None:
    """Everything the two classes say about themselves, compared."""
    assert dataclasses.is_dataclass(fast) and dataclasses.is_dataclass(real)
    assert repr(fast.__dataclass_params__) == repr(real.__dataclass_params__)  # type: ignore[attr-defined]
    assert _fields(fast) == _fields(real)
    assert list(fast.__dataclass_fields__) == list(real.__dataclass_fields__)  # type: ignore[attr-defined]
    assert fast.__match_args__ == real.__match_args__  # type: ignore[attr-defined]
    assert fast.__doc__ == _as_shipped(real.__doc__ or "") or fast.__doc__ == real.__doc__
    assert str(inspect.signature(fast)) == _as_shipped(str(inspect.signature(real)))
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        mine, theirs = fast.__dict__.get(name), real.__dict__.get(name)
        assert (mine is None) == (theirs is None), name
        if mine is not None:
            assert (mine.__name__, mine.__qualname__) == (theirs.__name__, theirs.__qualname__)
    assert fast.__init__.__defaults__ == real.__init__.__defaults__  # type: ignore[misc]
    ann_fast, ann_real = ({k: _type(t) for k, t in c.__init__.__annotations__.items()} for c in (fast, real))
    assert ann_fast == ann_real
    assert set(vars(fast)) == set(vars(real))  # the same attributes, dunders included (3.13's __replace__ …)
    for k in vars(real):
        if not k.startswith("__") and not callable(getattr(real, k)) and not isinstance(vars(real)[k], property):
            assert getattr(fast, k) == getattr(real, k), k  # the fields' defaults as class attributes


def test_every_section_declares_what_a_frozen_dataclass_declares(pair: tuple[type, type]) -> None:
    assert_same_class(*pair)


def test_constructors_take_the_same_arguments_and_fill_the_same_defaults(pair: tuple[type, type]) -> None:
    fast, real = pair
    for made in _instances(real):
        values = [getattr(made, f.name) for f in dataclasses.fields(real)]
        by_name = {f.name: v for f, v in zip(dataclasses.fields(real), values, strict=True)}
        for args, kwargs in ((values, {}), ([], by_name), (values[:1], dict(list(by_name.items())[1:]))):
            assert repr(fast(*args, **kwargs)) == repr(real(*args, **kwargs)) == repr(made)
    first, second = fast(**_required(fast)), fast(**_required(fast))
    for f in dataclasses.fields(fast):
        if f.default_factory is not dataclasses.MISSING:  # a fresh value each time, never a shared one
            assert getattr(first, f.name) is not getattr(second, f.name)
        elif f.default is not dataclasses.MISSING:
            assert getattr(first, f.name) is f.default


def test_wrong_arguments_raise_the_frozen_dataclass_errors_word_for_word(pair: tuple[type, type]) -> None:
    fast, real = pair
    n = len(dataclasses.fields(real))
    first = dataclasses.fields(real)[0].name
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
        ((), {}),
        ((1,) * (n + 1), {}),
        ((1,) * (n + 3), {}),
        ((), {"nonsense": 1}),
        ((), {"nonsense": 1, "other": 2}),
        ((1,), {first: 1}),
        ((), {"self": 1}),
        ((), {first: 1, "nonsense": 2}),
    ]
    for args, kwargs in calls:
        assert _outcome(fast, *args, **kwargs) == _outcome(real, *args, **kwargs), (args, kwargs)
    assert _outcome(fast.__init__) == _outcome(real.__init__)  # type: ignore[misc]


def test_equality_and_hash_are_the_frozen_dataclass_ones(pair: tuple[type, type]) -> None:
    fast, real = pair
    fasts, reals = list(_instances(fast)), list(_instances(real))
    assert len(fasts) == len(reals) > 1
    for i, (a, ra) in enumerate(zip(fasts, reals, strict=True)):
        for j, (b, rb) in enumerate(zip(fasts, reals, strict=True)):
            assert (a == b) == (ra == rb) == (i == j)
            assert (a != b) == (ra != rb) == (i != j)
        assert a == copy.copy(a) and (a != copy.copy(a)) is False
        assert a.__eq__(ra) is NotImplemented and ra.__eq__(a) is NotImplemented and a != ra
        assert a.__eq__(object()) is NotImplemented
        assert _outcome(hash, a) == _outcome(hash, ra)


def test_repr_is_the_frozen_dataclass_repr_even_for_a_section_inside_itself(pair: tuple[type, type]) -> None:
    fast, real = pair
    for a, ra in zip(_instances(fast), _instances(real), strict=True):
        assert repr(a) == repr(ra)
        name = dataclasses.fields(a)[0].name
        object.__setattr__(a, name, [a])
        object.__setattr__(ra, name, [ra])
        assert repr(a) == repr(ra) and "[...]" in repr(a)


def test_sections_are_immutable_as_frozen_dataclasses_are(pair: tuple[type, type]) -> None:
    fast, real = pair
    a, ra = next(_instances(fast)), next(_instances(real))
    for name in [f.name for f in dataclasses.fields(real)] + ["new_attribute", "__dict__"]:
        assert _outcome(setattr, a, name, 1) == _outcome(setattr, ra, name, 1) != ("value", "None")
        assert _outcome(delattr, a, name) == _outcome(delattr, ra, name) != ("value", "None")
    assert repr(a) == repr(ra)

    class Fast(fast):  # type: ignore[valid-type, misc]
        pass

    class Real(real):  # type: ignore[valid-type, misc]
        pass

    sub, rsub = next(_instances(Fast)), next(_instances(Real))
    for name in [dataclasses.fields(real)[0].name, "new_attribute"]:  # a subclass may add attributes
        assert _outcome(setattr, sub, name, 1) == _outcome(setattr, rsub, name, 1)
        assert _outcome(delattr, sub, name) == _outcome(delattr, rsub, name)


def test_a_club_may_extend_a_section_with_its_own_frozen_dataclass(pair: tuple[type, type]) -> None:
    fast, real = pair
    fast_sub, real_sub = (
        dataclasses.dataclass(frozen=True)(
            type("HouseRules", (base,), {"__annotations__": {"house": "int"}, "house": dataclasses.field(default=1)})
        )
        for base in (fast, real)
    )
    assert_same_class(fast_sub, real_sub)
    a, ra = fast_sub(**_required(fast_sub)), real_sub(**_required(real_sub))
    assert repr(a) == repr(ra) and a == fast_sub(**_required(fast_sub)) and a != dataclasses.replace(a, house=2)
    assert _outcome(setattr, a, "house", 3) == _outcome(setattr, ra, "house", 3) != ("value", "None")


def test_replace_asdict_astuple_and_fields_agree(pair: tuple[type, type]) -> None:
    fast, real = pair
    for a, ra in zip(_instances(fast), _instances(real), strict=True):
        assert dataclasses.asdict(a) == dataclasses.asdict(ra)
        assert repr(dataclasses.astuple(a)) == repr(dataclasses.astuple(ra))
        assert dataclasses.is_dataclass(a) and not isinstance(a, type)
        for f in dataclasses.fields(ra):
            value = _other(getattr(ra, f.name))
            assert repr(dataclasses.replace(a, **{f.name: value})) == repr(dataclasses.replace(ra, **{f.name: value}))
        assert _outcome(dataclasses.replace, a, nonsense=1) == _outcome(dataclasses.replace, ra, nonsense=1)


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy"])
def test_sections_pickle_and_copy_as_frozen_dataclasses_do(pair: tuple[type, type], how: str) -> None:
    fast, real = pair
    twin: Callable[[Any], Any] = {
        "pickle": lambda x: pickle.loads(pickle.dumps(x)),
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
    }[how]
    for a, ra in zip(_instances(fast), _instances(real), strict=True):
        b, rb = twin(a), twin(ra)
        assert type(b) is fast and type(rb) is real
        assert b == a and rb == ra and repr(b) == repr(rb)
        assert vars(b) == vars(a)
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            mine, theirs = a.__reduce_ex__(protocol), ra.__reduce_ex__(protocol)
            assert mine[0] is theirs[0] and mine[1][0] is fast and theirs[1][0] is real
            assert repr(mine[2:]) == repr(theirs[2:])  # the state: a Variant's holds sections of its own module


def test_a_variant_built_either_way_has_the_same_rules(reference: ModuleType) -> None:
    for name in catalog.BUILTIN:
        v = catalog.BUILTIN[name]()
        rv = reference.make_variant(v.to_dict(), v.hooks)
        assert repr(v) == repr(rv)
        assert v.to_dict() == rv.to_dict() and v.fingerprint() == rv.fingerprint()
        assert v.rules is v.rules and "_rules" not in v.__getstate__()
        assert v.replace(burn={"enabled": False}).burn == variant.BurnRules(**{**v.to_dict()["burn"], "enabled": False})
        assert pickle.loads(pickle.dumps(v)) == v


def test_the_sections_are_built_without_generating_code(monkeypatch: pytest.MonkeyPatch) -> None:
    generated: list[str] = []  # the methods dataclasses writes as text and exec's
    real_exec = builtins.exec

    def counting_exec(source: Any, *args: Any) -> None:
        if isinstance(source, str):  # source text (the loader runs variant.py's own code object)
            generated.extend(re.findall(r"^ +def (\w+)\(", source, re.MULTILINE))
        real_exec(source, *args)

    monkeypatch.setattr(builtins, "exec", counting_exec)
    _load_variant("gouji_rules._variant_again")
    assert generated == []
    _load_variant("gouji_rules._variant_as_dataclasses_again", dataclasses.dataclass)
    assert len(generated) == 6 * len(CLASSES)  # what dataclass(frozen=True) costs: six methods a class


def _both(body: Callable[[Callable[..., Any]], type]) -> tuple[type, type]:
    """The class that ``body`` declares, decorated by section.dataclass and by dataclasses.dataclass."""
    return body(section.dataclass), body(dataclasses.dataclass)


def test_a_class_with_no_field_or_one_field_compares_as_a_tuple_does() -> None:
    empty = _both(lambda dc: dc(frozen=True)(type("Empty", (), {"__doc__": None})))
    assert_same_class(*empty)
    assert empty[0]() == empty[0]() and hash(empty[0]()) == hash(empty[1]()) and repr(empty[0]()) == "Empty()"

    def one(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class One:
            x: float = 0.0

        return One

    fast, real = _both(one)
    assert_same_class(fast, real)
    nan = float("nan")
    # (nan,) == (nan,) holds (the same object) where 3.11 and 3.12 compare tuples; nan == nan does not on 3.13
    assert (fast(nan) == fast(nan)) is (real(nan) == real(nan)) is (sys.version_info < (3, 13))
    assert fast(nan) != fast(float("nan")) and real(nan) != real(float("nan"))
    one, real_one = fast(nan), real(nan)
    assert one == one and real_one == real_one  # the same object: (nan,) == (nan,), or 3.13's `self is other`
    assert hash(fast(1.5)) == hash(real(1.5)) == hash((1.5,))


def test_methods_a_class_writes_itself_are_kept() -> None:
    def own(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class Own:
            x: int = 0
            y: list[int] = dataclasses.field(default_factory=list, repr=False, compare=False)
            z: int = dataclasses.field(default=3, hash=False)
            k: ClassVar[int] = 7

            def __repr__(self) -> str:
                return "own"

            def __hash__(self) -> int:
                return 5

        return Own

    fast, real = _both(own)
    assert_same_class(fast, real)
    assert repr(fast()) == "own" and hash(fast()) == 5 and fast(1, [1]) == fast(1, [2]) != fast(1, [1], 4)
    assert [f.name for f in dataclasses.fields(fast)] == ["x", "y", "z"] and fast.k == 7

    def no_hash_field(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class H:
            x: int = 0
            z: int = dataclasses.field(default=3, hash=False)

        return H

    fast, real = _both(no_hash_field)
    assert hash(fast(1, 2)) == hash(real(1, 9)) == hash((1,))


def test_what_section_dataclass_cannot_reproduce_is_refused_or_handed_on() -> None:
    def post_init(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class P:
            x: int = 0

            def __post_init__(self) -> None:
                pass

        return P

    def kw_only(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class K:
            x: int = dataclasses.field(default=0, kw_only=True)

        return K

    def not_init(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class N:
            x: int = dataclasses.field(default=0, init=False)

        return N

    def initvar(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class V:
            x: dataclasses.InitVar[int] = 0

        return V

    def named_self(dc: Callable[..., Any]) -> type:
        return dc(frozen=True)(type("S", (), {"__annotations__": {"self": int}}))

    for body in (post_init, kw_only, not_init, initvar, named_self):
        with pytest.raises(TypeError, match="plain fields only"):
            body(section.dataclass)
        body(dataclasses.dataclass)  # which builds them

    def own_setattr(dc: Callable[..., Any]) -> type:
        @dc(frozen=True)
        class A:
            x: int = 0

            def __setattr__(self, name: str, value: Any) -> None:
                pass

        return A

    def default_first(dc: Callable[..., Any]) -> type:
        return dc(frozen=True)(type("O", (), {"__annotations__": {"x": int, "y": int}, "x": 0}))

    for body in (own_setattr, default_first):  # refused by both, in the same words
        assert _outcome(body, section.dataclass) == _outcome(body, dataclasses.dataclass) != ("value", "None")

    # other options, and subclasses of dataclasses, are dataclasses.dataclass's own work
    plain = section.dataclass(type("Plain", (), {"__annotations__": {"x": int}}))
    assert not plain.__dataclass_params__.frozen and "__setattr__" not in vars(plain)
    fast_base, real_base = _both(lambda dc: dc(frozen=True)(type("B", (), {"__annotations__": {"x": int}})))
    assert_same_class(
        section.dataclass(frozen=True)(type("C", (fast_base,), {"__annotations__": {"y": int}})),
        dataclasses.dataclass(frozen=True)(type("C", (real_base,), {"__annotations__": {"y": int}})),
    )
    assert _outcome(section.dataclass, type("D", (fast_base,), {})) == _outcome(
        dataclasses.dataclass, type("D", (real_base,), {})
    )
