"""Variant files: YAML with positions, JSON Schema, extends/merge, and the expression grammar.

Placeholder until the loader lands: shipped variants are the Python ones.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import VariantError
from ..variant import Variant


def shipped_names() -> list[str]:
    return []


def load_shipped(name: str) -> Variant:
    raise VariantError(f"no shipped variant file {name!r}")


def load_file(path: Path) -> Variant:
    raise VariantError(f"{path}: variant files are not supported yet")
