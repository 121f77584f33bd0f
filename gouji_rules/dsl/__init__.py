"""Variant files: YAML with positions, JSON Schema, extends/merge, and the expression grammar.

The one path from a file to a :class:`~gouji_rules.variant.Variant`::

    text --yamlpos--> nodes with positions --merge--> one tree (extends resolved)
         --validate--> schema-checked data + compiled hooks --> Variant (+ warnings)

Every user mistake is raised as :class:`VariantErrors` (a list of
:class:`VariantFileError`, each ``FILE:LINE:COL: error: MESSAGE``).
See docs/variants.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import VariantError
from ..variant import Variant
from .errors import VariantErrors, VariantFileError
from .merge import display_path, load_chain, read_file, shipped_chain, shipped_file, shipped_names, shipped_text
from .schema import safe_name
from .validate import Checked, check_chain, raise_if_errors

__all__ = [
    "Checked",
    "VariantErrors",
    "VariantFileError",
    "check_file",
    "check_text",
    "load_file",
    "load_shipped",
    "load_text",
    "shipped_names",
    "shipped_text",
    "validate_paths",
]


def _stem(filename: str) -> str:
    """The default name of a file's variant: its file name without ``.yaml``, made a safe name
    (``qingdao.2024.yaml`` gives ``qingdao_2024``), so that it can be written back as ``name:``."""
    name = Path(filename).name
    for suffix in (".yaml", ".yml"):
        if name.endswith(suffix):
            return safe_name(name[: -len(suffix)])
    return "custom" if name.startswith("<") else safe_name(name)


def check_text(
    text: str,
    filename: str = "<string>",
    base: Path | None = None,
    *,
    schema: dict[str, Any] | None = None,
    root: Path | None = None,
) -> Checked:
    """Check a variant file's text; errors and warnings are in the result, never raised.

    ``schema`` replaces the JSON Schema generated from the model (a test passes a tightened copy);
    ``root`` confines its ``extends:`` chain to that folder's tree (:func:`.merge.load_chain`)."""
    try:
        chain = load_chain(text, filename, base, root=root)
    except VariantErrors as e:
        return Checked(None, list(e.errors))
    return check_chain(chain, _stem(filename), schema)


def check_file(path: str | Path, *, schema: dict[str, Any] | None = None, root: Path | None = None) -> Checked:
    """Check a variant file on disk (see :func:`check_text`; ``root`` confines its chain, not ``path``)."""
    p = Path(path)
    try:
        text, fname = read_file(p)
    except VariantErrors as e:
        return Checked(None, list(e.errors))
    try:
        chain = load_chain(text, fname, p.resolve().parent, str(p.resolve()), root=root)
    except VariantErrors as e:
        return Checked(None, list(e.errors))
    return check_chain(chain, _stem(fname), schema)


def load_text(text: str, filename: str = "<string>", base: Path | None = None) -> Variant:
    """A Variant from a file's text; raises VariantErrors with every error found."""
    return raise_if_errors(check_text(text, filename, base))


def load_file(path: str | Path) -> Variant:
    """A Variant from a file; raises VariantErrors with every error found."""
    return raise_if_errors(check_file(path))


def load_shipped(name: str) -> Variant:
    """A variant shipped in the package, by name (``dagang``, ``dianshaomenla`` …)."""
    if name not in shipped_names():
        raise VariantError(f"no shipped variant file {name!r}")
    return raise_if_errors(_check_shipped(name))


def _check_shipped(name: str) -> Checked:
    """Check a shipped variant file, by name (see :func:`check_text`)."""
    try:
        chain = shipped_chain(name)
    except VariantErrors as e:
        return Checked(None, list(e.errors))
    return check_chain(chain, name)


def shipped_path(name: str) -> str:
    """Where a shipped variant file is, for messages."""
    return display_path(str(shipped_file(name)))


def validate_paths(paths: Iterable[str | Path]) -> list[Checked]:
    """Check every file (all errors of all files); a shipped name is accepted too."""
    out: list[Checked] = []
    for p in paths:
        s = str(p)
        out.append(_check_shipped(s) if not Path(s).exists() and s in shipped_names() else check_file(s))
    return out
