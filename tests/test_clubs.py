"""examples/clubs/: three club files that pass ``gouji validate`` and that ``gouji train`` keeps out of training."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gouji_rules import catalog

CLUBS = sorted((Path(__file__).resolve().parents[1] / "examples" / "clubs").glob("*.yaml"))


def gouji(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", *args], capture_output=True, text=True, timeout=timeout
    )


def test_three_club_files_each_with_a_title() -> None:
    assert len(CLUBS) == 3
    for f in CLUBS:
        v = catalog.resolve(str(f))
        assert v.title and v.name == f.stem


@pytest.mark.parametrize("club", CLUBS, ids=lambda p: p.stem)
def test_club_file_validates(club: Path) -> None:
    r = gouji("validate", str(club))
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("section", ["burn", "scoring", "declare", "tribute"])
def test_each_club_differs_from_its_base_in(section: str) -> None:
    for f in CLUBS:
        club = catalog.resolve(str(f)).to_dict()
        base = catalog.resolve(_base_of(f)).to_dict()
        assert club[section] != base[section], f"{f.name}: {section} as its base's"


def _base_of(f: Path) -> str:
    for line in f.read_text(encoding="utf-8").splitlines():
        if line.startswith("extends:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{f}: no extends")


def test_train_refuses_a_held_out_club_file(tmp_path: Path) -> None:
    r = gouji("train", "--variant", str(CLUBS[0]), "--out", str(tmp_path / "run"), "--decisions", "1")
    assert r.returncode == 1
    assert "--allow-held-out" in r.stderr and str(CLUBS[0]) in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()


def test_train_refuses_a_renamed_copy_of_a_held_out_club(tmp_path: Path) -> None:
    copy = tmp_path / "mine.yaml"
    shutil.copy(CLUBS[0], copy)
    text = copy.read_text(encoding="utf-8").replace(f"name: {CLUBS[0].stem}", "name: mine")
    copy.write_text(text, encoding="utf-8")
    r = gouji("train", "--variant", str(copy), "--out", str(tmp_path / "run"), "--decisions", "1")
    assert r.returncode == 1 and CLUBS[0].name in r.stderr


def test_allow_held_out_lets_training_start(tmp_path: Path) -> None:
    from gouji_rules.cli.train import held_out

    assert held_out(str(CLUBS[0])) is not None
    assert held_out("dagang") is None and held_out("dianshaomenla") is None
    r = gouji(
        "train", "--variant", str(CLUBS[0]), "--allow-held-out", "--out", str(tmp_path / "run"), "--decisions", "64",
        "--hidden", "8,8,8", "--batch", "16", "--hands-per-unit", "1", "--eval-pairs", "1", "--eval-every", "100000",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
