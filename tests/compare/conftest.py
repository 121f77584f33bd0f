"""Helpers for the compare tests: the command registered on a fresh click group."""

from __future__ import annotations

import json
from typing import Any

import click
import pytest
from click.testing import CliRunner

from gouji_rules.cli.compare import register


@pytest.fixture
def gouji() -> click.Group:
    """A ``gouji``-like group with only ``compare`` on it (gouji_rules.cli registers the same function)."""
    group = click.Group("gouji")
    register(group)
    return group


def run_json(group: click.Group, *args: str) -> dict[str, Any]:
    """Run ``compare ARGS --json`` and return the document; stdout must be JSON and nothing else."""
    result = CliRunner().invoke(group, ["compare", *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def without_timing(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "timing"}
