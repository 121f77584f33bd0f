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

from gouji_rules import cli_events


def group() -> click.Group:
    """A ``gouji`` group with the event commands, whether or not cli.py registers them yet."""

    @click.group()
    def g() -> None:
        pass

    cli_events.register(g)
    return g


def gouji(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(group(), list(args), input=input, catch_exceptions=False)


def module_argv() -> list[str]:
    """How to start ``gouji`` in a subprocess: cli.py once it registers ``event``, else cli_events."""
    from gouji_rules.cli import main

    mod = "gouji_rules.cli" if "event" in main.commands else "gouji_rules.cli_events"
    return [sys.executable, "-m", mod]


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
