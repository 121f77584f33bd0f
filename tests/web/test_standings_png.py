"""``gouji event standings --png``: the page's 保存图片 picture, where a Chromium is at hand (issue 34 item 5)."""

from __future__ import annotations

import os
import stat
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_rules.cli import main
from gouji_rules.dsl.printable import find_chromium

from .test_club_story import PLAYERS


@pytest.fixture
def night(tmp_path: Path) -> Path:
    csv = tmp_path / "players.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in PLAYERS), encoding="utf-8")
    ev = tmp_path / "spring.sqlite"
    r = CliRunner().invoke(
        main, ["event", "new", str(ev), "--name", "春季赛", "--players", str(csv), "--rounds", "1", "--hands", "2"]
    )
    assert r.exit_code == 0, r.output
    return ev


def gouji(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.skipif(find_chromium() is None, reason="needs chromium (apt-get install chromium)")
def test_png_writes_the_pages_picture(night: Path, tmp_path: Path) -> None:
    out = tmp_path / "排名.png"
    code, stdout, stderr = gouji("event", "standings", str(night), "--png", str(out))
    assert code == 0 and stdout == "" and stderr.strip() == f"已写入 {out}"
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1080 and 0.5 <= height / width <= 2.5  # what the page's 保存图片 saves


def test_png_without_chromium_says_so_in_one_line_and_writes_nothing(
    night: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    out = tmp_path / "排名.png"
    code, _stdout, stderr = gouji("event", "standings", str(night), "--png", str(out))
    assert code == 1 and "needs Chromium" in stderr and "保存图片" in stderr and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1 and not out.exists()


def test_a_browser_that_draws_nothing_leaves_no_file(
    night: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "chromium"
    fake.write_text("#!/bin/sh\necho '<html><body><pre id=\"out\">data:,</pre></body></html>'\necho crashed >&2\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(bin_dir) + os.pathsep + "/nonexistent")
    out = tmp_path / "排名.png"
    out.write_bytes(b"the picture of last week")
    code, _stdout, stderr = gouji("event", "standings", str(night), "--png", str(out))
    assert code == 1 and "drew no picture: crashed" in stderr
    assert out.read_bytes() == b"the picture of last week"  # last week's picture kept, no part file beside it
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("spring.sqlite")) == [
        "bin",
        "players.csv",
        "排名.png",
    ]


def test_png_is_its_own_output(night: Path, tmp_path: Path) -> None:
    code, _o, _e = gouji("event", "standings", str(night), "--png", str(tmp_path / "a.png"), "-o", "b.txt")
    assert code == 2
    code, _o, _e = gouji("event", "standings", str(night), "--png", str(tmp_path / "a.png"), "--json")
    assert code == 2
    code, _o, stderr = gouji("event", "standings", str(night), "--png", str(night))
    assert code == 1 and "never overwritten" in stderr
