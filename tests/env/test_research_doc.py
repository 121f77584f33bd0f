"""docs/research.md: every example on the page runs and shows what it says."""

import doctest
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_the_research_page_examples_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 15
    assert result.failed == 0
