"""Variant files are read through the shared input guard: special files refused by type, every read bounded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gouji_rules import dsl


def _gouji(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from gouji_rules.cli import main; main()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("command", ["validate", "explain"])
def test_a_fifo_is_refused_by_its_type_without_hanging(tmp_path: Path, command: str) -> None:
    os.mkfifo(tmp_path / "club.yaml")
    r = _gouji(command, "club.yaml", "--lang", "en", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "club.yaml: error: is a pipe (FIFO), not a regular file" in r.stderr
    zh = _gouji(command, "club.yaml", cwd=tmp_path)
    assert zh.returncode == 1 and "club.yaml: 错误: 是管道（FIFO），不是普通文件" in zh.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_dev_zero_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    r = _gouji("validate", "/dev/zero", "--lang", "en", cwd=tmp_path)
    assert r.returncode == 1 and "/dev/zero: error: is a device, not a regular file" in r.stderr


def test_a_folder_and_a_huge_file_are_refused_with_the_file_named(tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").mkdir()
    with open(tmp_path / "huge.yaml", "wb") as f:
        f.truncate(3 * 1024**3)  # sparse: 3 GiB that would take minutes to read
    r = _gouji("validate", "rules.yaml", "huge.yaml", "--lang", "en", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "rules.yaml: error: is a folder, not a regular file" in r.stderr
    assert "huge.yaml: error: is 3,221,225,472 bytes; files of at most 262,144 bytes are read" in r.stderr
    zh = _gouji("validate", "rules.yaml", "huge.yaml", cwd=tmp_path)
    assert "rules.yaml: 错误: 是文件夹，不是普通文件" in zh.stderr
    assert "huge.yaml: 错误: 有 3,221,225,472 字节；只读最多 262,144 字节的文件" in zh.stderr


def test_an_extends_target_that_is_not_a_regular_file_is_refused_at_the_extends_line(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "parent.yaml")
    (tmp_path / "club.yaml").write_text("burn:\n  teammate: false\nextends: ./parent.yaml\n", encoding="utf-8")
    errors = dsl.check_file(tmp_path / "club.yaml").errors
    assert [(e.line, e.column) for e in errors] == [(3, 10)]
    assert errors[0].message == "extends: cannot read './parent.yaml': it is a pipe (FIFO), not a regular file"
