"""Issue 32 item 6: the editor's 试打比较 plays with compare's own agents and cross-check, and its
suggested command (agents and cross-check included) runs as printed."""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_rules.cli import main
from gouji_rules.compare.cross import DEFAULT_AGENTS, DEFAULT_CROSS_CHECK

from .test_editor import client, post, refusal


def test_try_it_plays_as_compare_does_and_its_command_runs_as_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = tmp_path / "house.yaml"
    club.write_text("extends: dagang\nburn:\n  needs_open_point: false\ngeming:\n  enabled: false\n", encoding="utf-8")
    c = client(club, try_deals=2)
    r = post(c, c.get("/").text, "try")
    token = re.search(r'<iframe src="(/report/[^"]+)"', r.text)
    assert token, refusal(r.text)
    note = html.unescape(re.search(r'<p class="muted small">(.*?)</p>', r.text[r.text.index('id="report"') :])[1])
    assert f"{DEFAULT_AGENTS} 机器人，再由 {DEFAULT_CROSS_CHECK} 对照打一遍" in note and "牌少得多" in note

    report = html.unescape(c.get(token[1]).text)
    assert f"同样的牌又由 {DEFAULT_CROSS_CHECK} 打了一遍" in report  # the summary says who cross-checked
    assert '<section class="depends"><h2>取决于打法' in report
    assert "六个座位都由 learned 机器人打" in report

    command = re.search(r"要看，请运行：(gouji compare [^<\n]+)", report)
    assert command, report[:2000]
    words = shlex.split(command[1].strip())
    at = {w: words[i + 1] for i, w in enumerate(words[:-1]) if w.startswith("--")}
    assert (at["--agents"], at["--cross-check"]) == (DEFAULT_AGENTS, DEFAULT_CROSS_CHECK)
    monkeypatch.chdir(tmp_path.parent)
    done = CliRunner().invoke(main, [*words[1:], "--quiet"])
    assert done.exit_code == 0, done.output
    assert "取决于打法 depends on how people play (learned and greedy" in done.stdout
