"""The shipped variants, and finding a variant by name or path: the one door the CLI uses.

The shipped variants are the files in ``variants/``, read through ``gouji_rules.dsl``; they live
here rather than in ``variant.py`` so that the model of a variant does not import the file reader
that builds one from it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from .errors import UnknownVariant, near_miss
from .variant import Variant

__all__ = ["BUILTIN", "DEFAULT", "Variant", "dagang", "dianshaomenla", "names", "resolve", "trained_variants"]


@functools.cache
def _shipped(name: str) -> Variant:
    from . import dsl

    return dsl.load_shipped(name)


def dagang() -> Variant:
    """S4, the 够级大纲: ``variants/dagang.yaml`` (each key cites its clause).  The defaults of the
    sections in ``variant.py`` are S4's reading too, so a file without ``extends`` starts from it."""
    return _shipped("dagang")


def dianshaomenla() -> Variant:
    """S0, 《点烧闷拉够级规则明细》: ``variants/dianshaomenla.yaml``."""
    return _shipped("dianshaomenla")


BUILTIN: dict[str, Callable[[], Variant]] = {"dagang": dagang, "dianshaomenla": dianshaomenla}
DEFAULT = "dagang"


def names() -> list[str]:
    """Names of the shipped variants."""
    from . import dsl

    return sorted(set(BUILTIN) | set(dsl.shipped_names()))


def resolve(spec: str | None) -> Variant:
    """A shipped variant by name, or a variant file by path."""
    from . import dsl

    spec = spec or DEFAULT
    if spec in dsl.shipped_names():
        return dsl.load_shipped(spec)
    if spec in BUILTIN:
        return BUILTIN[spec]()
    path = Path(spec)
    if path.suffix in (".yaml", ".yml") or os.path.exists(spec):  # never raises for a name over the OS limit
        return dsl.load_file(path)
    close = near_miss(spec, names())
    hint = f"; did you mean {close!r}?" if close else f"; shipped variants: {', '.join(names())}"
    raise UnknownVariant(f"unknown variant {spec!r}{hint}")


def trained_variants(trained: Iterable[str], variant: Variant) -> list[Variant]:
    """The variants that the names a weights file was trained over stand for, where ``variant`` is
    played: each shipped name's, and ``variant`` itself where a club file of its name was trained (a
    club's fine-tuned file, played under its own rules).  Any other name is text, never a path to open."""
    shipped = names()
    trained = [str(n) for n in trained]
    own = [variant] if variant.name in trained and variant.name not in shipped else []
    return [resolve(n) for n in trained if n in shipped] + own
