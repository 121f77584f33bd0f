"""Helpers for the tournament tests: the CLI as a click group, and as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from gouji_rules.cli import main as gouji_main


def group() -> click.Group:
    """The ``gouji`` group, with every command."""
    return gouji_main


def gouji(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(group(), list(args), input=input, catch_exceptions=False)


def module_argv() -> list[str]:
    """How to start ``gouji`` in a subprocess: ``-P`` keeps the working folder off ``sys.path``, so a
    command run in the checkout imports the installed build (the compiled one in CI), not the sources."""
    return [sys.executable, "-P", "-m", "gouji_rules.cli"]


def run_gouji(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*module_argv(), *args], capture_output=True, text=True, timeout=timeout)


def standings_json(path: Path) -> list[dict[str, Any]]:
    r = gouji("event", "standings", str(path), "--json")
    assert r.exit_code == 0, r.output
    rows: list[dict[str, Any]] = json.loads(r.stdout)["standings"]
    return rows


@pytest.fixture
def players_csv(tmp_path: Path) -> Path:
    p = tmp_path / "players.csv"
    names = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九", "吴十", "郑一", "冯二", "陈三", "褚四"]
    p.write_text("name,club\n" + "".join(f"{n},青岛\n" for n in names), encoding="utf-8")
    return p
