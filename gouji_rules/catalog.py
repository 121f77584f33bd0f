"""The shipped variants, and finding a variant by name or path: the one door the CLI uses.

New code imports the shipped variants (:func:`dagang`, :func:`dianshaomenla`, ``BUILTIN``) from here.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import UnknownVariant, near_miss
from .variant import BUILTIN, DEFAULT, Variant, dagang, dianshaomenla

__all__ = ["BUILTIN", "DEFAULT", "Variant", "dagang", "dianshaomenla", "names", "resolve"]


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
