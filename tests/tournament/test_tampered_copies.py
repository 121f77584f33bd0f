"""An event or records file from someone else names no file this machine opens (docs/records.md).

The event's stored copy of its rules (``meta.variant``) and a records file's rules
are tampered to ``extends`` a file the test owns: a secret whose lines must not be
printed and whose access time must not move, a FIFO that would block whoever opened
it, a huge file, and relative and ``../`` paths.  Every command that reads the
event or the records is run against each.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gouji_rules.catalog import dagang
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.variant_copy import rules_data

from .conftest import gouji

SECRET = "root:x:0:0:the-secret-line-of-this-test"


class Bait:
    """Files a tampered copy may name; ``touched()`` says whether any of them was opened or read."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.secret = folder / "secret.yaml"
        self.secret.write_text(f"{SECRET}\nname: stolen\n", encoding="utf-8")
        os.utime(self.secret, (946684800, os.stat(self.secret).st_mtime))  # atime before mtime: a read moves it
        self.atime = os.stat(self.secret).st_atime
        self.huge = folder / "huge.yaml"
        with open(self.huge, "wb") as f:
            f.truncate(8 << 30)  # sparse: 8 GiB that cost nothing unless read
        self.fifo = folder / "fifo.yaml"
        os.mkfifo(self.fifo)
        self.fifo_opened = False
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._unblock, daemon=True)
        self._watch.start()

    def _unblock(self) -> None:
        """A reader blocked opening the FIFO is let go (and noted) instead of hanging the test."""
        while not self._stop.wait(0.05):
            try:
                fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                continue  # ENXIO: nobody has it open for reading
            self.fifo_opened = True
            os.close(fd)

    def targets(self, event_dir: Path) -> dict[str, str]:
        rel = os.path.relpath(self.secret, event_dir)
        return {
            "absolute": str(self.secret),
            "relative": self.secret.name,
            "dotdot": rel if rel.startswith("..") else f"../{self.folder.name}/{self.secret.name}",
            "fifo": str(self.fifo),
            "huge": str(self.huge),
            "passwd": "/etc/passwd",
        }

    def touched(self) -> bool:
        return self.fifo_opened or os.stat(self.secret).st_atime != self.atime

    def close(self) -> None:
        self._stop.set()
        self._watch.join()


@pytest.fixture
def bait(tmp_path: Path) -> Iterator[Bait]:
    folder = tmp_path / "bait"
    folder.mkdir()
    b = Bait(folder)
    yield b
    b.close()


def club_event(folder: Path) -> Path:
    """A club event under ``dagang`` with one hand entered."""
    players = folder / "players.csv"
    players.write_text("name\n" + "".join(f"p{i}\n" for i in range(6)), encoding="utf-8")
    path = folder / "cup.sqlite"
    r = gouji("event", "new", str(path), "--name", "cup", "--players", str(players), "--rounds", "1", "--hands", "2")
    assert r.exit_code == 0, r.output
    r = gouji("event", "record", str(path), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 0, r.output
    return path


def tamper(path: Path, **copy: Any) -> None:
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'variant'", (json.dumps(copy),))
    con.close()


def file_copy(target: str, folder: Path, *, hooks: bool) -> dict[str, Any]:
    """A copy of kind ``file`` whose text extends ``target``, its rules dagang's (hooks stored or not)."""
    copy: dict[str, Any] = {
        "kind": "file",
        "name": "club",
        "filename": "club.yaml",
        "base": str(folder),
        "text": f"extends: {target}\nname: club\n",
        "rules": dagang().to_dict(),
    }
    if hooks:
        copy["hooks"] = {}
    return copy


COMMANDS: dict[str, list[str]] = {
    "verify": ["verify", "{ev}"],
    "record": ["event", "record", "{ev}", "--round", "1", "--table", "1", "--hand", "2", "--finish", "5 4 3 2 1 0"],
    "standings": ["event", "standings", "{ev}"],
    "status": ["event", "status", "{ev}"],
    "export": ["event", "export", "{ev}", "--records", "{out}"],
}


def one_line_error(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if "error" in ln.lower()]
    return len(lines) == 1 and "Traceback" not in text


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("target", ["absolute", "relative", "dotdot", "fifo", "huge", "passwd"])
def test_an_events_copy_that_extends_a_path_opens_nothing(
    tmp_path: Path, bait: Bait, command: str, target: str
) -> None:
    ev = club_event(tmp_path)
    name = bait.targets(tmp_path)[target]
    tamper(ev, **file_copy(name, tmp_path, hooks=False))
    out = tmp_path / "out.jsonl"
    before = ev.read_bytes()
    r = gouji(*(a.format(ev=ev, out=out) for a in COMMANDS[command]))
    text = r.stdout + r.stderr
    assert not bait.touched(), f"{command} opened {name}"
    assert SECRET not in text and "root:" not in text
    if command in ("standings", "status"):
        # they print what is stored and need no rules: nothing is refused, and nothing read
        assert r.exit_code == 0, text
    else:
        assert r.exit_code == 1, text
        assert one_line_error(text), text
        assert "is never opened" in text
        assert not out.exists()
    if command != "record":
        assert ev.read_bytes() == before


@pytest.mark.parametrize("target", ["absolute", "fifo", "huge", "passwd"])
def test_a_copy_holding_its_hooks_is_rebuilt_without_its_parent(tmp_path: Path, bait: Bait, target: str) -> None:
    """A copy made from a file that extends another by path carries its resolved rules and hook texts:
    it plays and verifies on without the parent, which is never opened."""
    ev = club_event(tmp_path)
    tamper(ev, **file_copy(bait.targets(tmp_path)[target], tmp_path, hooks=True))
    r = gouji("verify", str(ev))
    assert r.exit_code == 0, r.output
    assert not bait.touched() and SECRET not in r.output


@pytest.mark.parametrize("name", ["/etc/passwd", "../secret", "secret.yaml"])
def test_a_shipped_copy_naming_a_path_is_refused(tmp_path: Path, bait: Bait, name: str) -> None:
    ev = club_event(tmp_path)
    tamper(ev, kind="shipped", name=str(bait.secret) if name == "secret.yaml" else name, rules=dagang().to_dict())
    r = gouji("verify", str(ev))
    assert r.exit_code == 1 and "not shipped here" in r.output and SECRET not in r.output
    assert not bait.touched()


def test_a_file_event_extending_a_file_verifies_without_reading_it(tmp_path: Path) -> None:
    """A club file that extends its own base file by path: the event keeps working after the base
    file is gone (it was never read after ``event new``) and even if it is changed."""
    base = tmp_path / "base.yaml"
    base.write_text("extends: dagang\nname: base\nscoring:\n  points: [3, 1, 0, 0, -1, -3]\n", encoding="utf-8")
    club = tmp_path / "club.yaml"
    club.write_text("extends: base.yaml\nname: club\n", encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("name\n" + "".join(f"p{i}\n" for i in range(6)), encoding="utf-8")
    ev = tmp_path / "cup.sqlite"
    r = gouji("event", "new", str(ev), "--name", "cup", "--players", str(players), "--variant", str(club))
    assert r.exit_code == 0, r.output
    base.write_text("extends: dagang\nname: base\nscoring:\n  points: [9, 1, 0, 0, -1, -9]\n", encoding="utf-8")
    r = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 0, r.output
    with Tournament.open(ev, write=False) as t:
        assert list(t.variant.scoring.points) == [3, 1, 0, 0, -1, -3]  # the stored points, not the changed file's
    base.unlink()
    r = gouji("verify", str(ev))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("where", ["rules_line", "inline"])
@pytest.mark.parametrize("target", ["absolute", "fifo", "huge", "passwd", "dotdot"])
def test_records_that_extend_a_path_open_nothing(tmp_path: Path, bait: Bait, where: str, target: str) -> None:
    ev = club_event(tmp_path)
    out = tmp_path / "records.jsonl"
    r = gouji("event", "export", str(ev), "--records", str(out))
    assert r.exit_code == 0, r.output
    lines = [json.loads(ln) for ln in out.read_text(encoding="utf-8").splitlines()]
    name = bait.targets(tmp_path)[target]
    rules = {**rules_data(dagang()), "extends": name}
    if where == "rules_line":
        lines = [{"kind": "rules", "rules": rules}, *[ln for ln in lines if ln.get("kind") != "rules"]]
    else:
        lines = [dict(ln, rules=rules) for ln in lines if ln.get("kind") != "rules"]
    out.write_text("".join(json.dumps(ln) + "\n" for ln in lines), encoding="utf-8")
    for args in (["verify", str(out)], ["replay", str(out), "--no-pause"]):
        r = gouji(*args)
        text = r.stdout + r.stderr
        assert r.exit_code == 1, text
        assert "Traceback" not in text and SECRET not in text
        assert not bait.touched()
