"""docs/research.md: every example on the page runs and shows what it says."""

import pytest

from .conftest import doc_examples

pytest.importorskip("pettingzoo")


def test_the_research_page_examples_run() -> None:
    result = doc_examples("research.md")
    assert result.attempted >= 15
    assert result.failed == 0
