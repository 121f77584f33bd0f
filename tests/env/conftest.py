"""Helpers shared by the env tests."""

from __future__ import annotations

import doctest
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def doc_examples(page: str) -> doctest.TestResults:
    """Run the examples of ``docs/<page>`` as doctests (``...`` matches anything), as a reader would type them."""
    return doctest.testfile(str(DOCS / page), module_relative=False, optionflags=doctest.ELLIPSIS)
