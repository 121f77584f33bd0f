"""Data files shipped with the package (the JSON Schema); variants/ and grammar/ are mapped in here."""

from __future__ import annotations

import importlib
from pathlib import Path


def folder(package: str) -> Path:
    """The folder a data package's files are in: ``variants/`` or ``grammar/`` in a checkout (an editable
    install maps them there), ``gouji_rules/data/...`` when installed.

    Read through the package's own ``__file__`` rather than ``importlib.resources``, whose import alone
    costs a club's ``gouji validate`` several milliseconds; the package is never zipped (its compiled
    modules could not be imported from a zip), so its files are always on disk."""
    file = importlib.import_module(package).__file__
    if file is None:  # pragma: no cover - a namespace package: these all have an __init__.py
        raise FileNotFoundError(f"data package {package} has no folder")
    return Path(file).parent
