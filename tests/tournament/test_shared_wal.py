"""Two processes on one event: a command that ends never takes the other's WAL away (issue 30 item 4).

Closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's shared lock
included.  The server opens the event twice (a writer and a reader); when the second open read the file's
header through a descriptor of its own and closed it, the server was left holding no lock, so the next
``gouji event record`` to exit took itself for the last user, checkpointed and deleted the ``-wal`` and
``-shm`` under the server: from then on each wrote its own WAL, and a change both had acknowledged was
lost at the next checkpoint.
"""

from __future__ import annotations

from pathlib import Path

from gouji_rules.tournament.club import Entry, record
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.storage import EventDB

from .conftest import gouji, run_gouji


def test_a_command_run_while_the_event_is_held_open_twice_loses_nothing(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "cup.sqlite"
    assert gouji("event", "new", str(ev), "--name", "cup", "--players", str(players_csv)).exit_code == 0
    writer = Tournament(EventDB(ev, write=True))
    reader = EventDB(ev, write=False)  # as `gouji event serve` opens it
    try:
        for hand in (1, 3):  # another process, each time ending while this one holds the file
            r = run_gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", str(hand),
                          "--finish", "0 1 2 3 4 5")  # fmt: skip
            assert r.returncode == 0, r.stderr
            record(writer, [("here", Entry(1, 1, hand + 1, ["5", "4", "3", "2", "1", "0"]))])
            assert [h.hand for h in reader.hands()] == list(range(1, hand + 2))
    finally:
        reader.close()
        writer.close()
    with Tournament.open(ev, write=False) as e:
        assert [h.hand for h in e.db.hands()] == [1, 2, 3, 4]
        assert [a["action"] for a in e.db.audit()] == ["record"] * 4
