"""An absent player's seat in an online round (``gouji event serve --online --absent NAME``): the agent plays
it, and since the hand counts in that player's standings, every one of its decisions is marked 托管 — in the
record, in the journal (a restart keeps the marks), and in ``gouji event standings`` and ``season``."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.event import Tournament
from gouji_rules.web.online import open_round

NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]


def gouji(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gouji_rules.cli", *args], capture_output=True, text=True, timeout=120)


def _play(ev: Path, person: str) -> tuple[list[str], list[dict[str, int]]]:
    """One online table: the person picks the first legal action each turn, the five absent seats the agent's."""
    event = Tournament.open(str(ev))
    try:
        absent = [n for n in NAMES if n != person]
        (table,) = open_round(event, 1, b"k" * 32, absent=absent, takeover=None)
        names = event.seat_names(event.db.seating(1)[(1, table.tbl)])
        mine = names.index(person)
        while not table.match.is_over:
            if not table.run_agents():
                view = table.view(mine)
                table.act(table.seats[mine].secret, {"type": "act", "seq": view["seq"], "index": 0})
        (row,) = event.db.hands()
        return names, row.record["takeover"]
    finally:
        event.db.con.close()


def test_an_absent_players_moves_are_takeover_in_the_record_standings_and_season(tmp_path: Path) -> None:
    (tmp_path / "p.csv").write_text("name\n" + "".join(f"{n}\n" for n in NAMES), encoding="utf-8")
    ev = tmp_path / "ev.db"
    made = gouji("event", "new", str(ev), "--name", "线上赛", "--variant", "dagang", "--players",
                 str(tmp_path / "p.csv"), "--rounds", "1", "--hands", "1")  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert gouji("event", "seat", str(ev), "--round", "1").returncode == 0

    names, takeover = _play(ev, NAMES[0])
    by_seat = {s: sum(t["seat"] == s for t in takeover) for s in range(6)}
    mine = names.index(NAMES[0])
    assert by_seat[mine] == 0  # the person played every one of their own decisions
    assert all(by_seat[s] > 0 for s in range(6) if s != mine)  # each absent seat: all its moves 托管

    standings = gouji("event", "standings", str(ev))
    assert standings.returncode == 0, standings.stderr
    for s in range(6):
        if s != mine:
            assert f"{names[s]} {by_seat[s]} 步" in standings.stdout
    assert f"{NAMES[0]} " not in standings.stdout.split("托管")[-1]
    english = gouji("event", "standings", str(ev), "--lang", "en")
    assert "托管 (moves the agent made)" in english.stdout

    season = gouji("event", "season", str(ev), "--min-nights", "1")
    assert season.returncode == 0, season.stderr
    note = next(line for line in season.stdout.splitlines() if line.startswith("托管"))
    assert all(f"{names[s]} {by_seat[s]} 步" in note for s in range(6) if s != mine)


def test_a_second_server_on_the_event_file_is_refused_until_the_first_is_gone(tmp_path: Path) -> None:
    """Two servers would each replay the journal and play the same tables; the second is one clear error."""
    (tmp_path / "p.csv").write_text("name\n" + "".join(f"{n}\n" for n in NAMES), encoding="utf-8")
    ev = tmp_path / "ev.db"
    gouji("event", "new", str(ev), "--name", "线上赛", "--variant", "dagang", "--players", str(tmp_path / "p.csv"),
          "--rounds", "1", "--hands", "1")  # fmt: skip
    gouji("event", "seat", str(ev), "--round", "1")
    first, second = Tournament.open(str(ev)), Tournament.open(str(ev))
    try:
        tables = open_round(first, 1, b"k" * 32)
        with pytest.raises(EventError, match="another server is already playing an online round"):
            open_round(second, 1, b"k" * 32)
        del tables
        gc.collect()
        assert open_round(second, 1, b"k" * 32)  # the first server gone, the file is free
    finally:
        first.db.con.close()
        second.db.con.close()
