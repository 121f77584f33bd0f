"""Points that do not fit the event file's 64-bit integers: refused with the reason, nothing written (issue 30).

A hook's number is bounded where it is made (``HOOK_INT_MAX``), so today's rules cannot pass 64 bits;
these tests raise the bound, as a later change or an extension could, and check that the file refuses
the points by name instead of SQLite's ``OverflowError`` escaping as a traceback (or an HTTP 500).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import Result

from gouji_rules.dsl import expr
from gouji_rules.tournament import event
from gouji_rules.tournament.errors import ScoreTooBig
from gouji_rules.tournament.event import Tournament
from gouji_rules.tournament.storage import EventDB, HandRow

from .conftest import gouji

HUGE = 'extends: dagang\nname: huge\nhooks:\n  team_score: "sum(points) * 99999999999 * 99999999999"\n'


@pytest.fixture(name="club")
def _club(tmp_path: Path) -> Path:
    club = tmp_path / "club.yaml"
    club.write_text(HUGE, encoding="utf-8")
    return club


def _new(tmp_path: Path, club: Path, players_csv: Path) -> tuple[Path, Result]:
    ev = tmp_path / "cup.sqlite"
    r = gouji("event", "new", str(ev), "--name", "cup", "--players", str(players_csv), "--variant", str(club))
    return ev, r


def test_event_new_refuses_rules_whose_points_pass_64_bits(
    tmp_path: Path, club: Path, players_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(expr, "HOOK_INT_MAX", 10**30)
    _, r = _new(tmp_path, club, players_csv)
    assert r.exit_code == 1
    err = r.stderr
    assert err.count("\n") == 1 and "no event was created" in err and "are too big to store" in err
    assert "for the finish 0 1 2 3 4 5" in err and "19,999,999,999,600,000,000,002" in err
    assert not list(tmp_path.glob("cup.sqlite*"))


def test_event_record_refuses_points_beyond_64_bits_in_one_line(
    tmp_path: Path, club: Path, players_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event made before ``event new`` tried every finish: the hand is refused when it is scored."""
    monkeypatch.setattr(expr, "HOOK_INT_MAX", 10**30)
    monkeypatch.setattr(event, "check_scores", lambda variant: None, raising=False)
    ev, r = _new(tmp_path, club, players_csv)
    assert r.exit_code == 0
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    r = gouji("event", "record", str(ev), *key, "--finish", "0 1 2 3 4 5")
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "round 1 table 1 hand 1: the points " in r.stderr
    assert "are too big to store" in r.stderr and "nothing was stored" in r.stderr
    with Tournament.open(ev, write=False) as e:
        assert not e.db.hands() and not e.db.audit()


@pytest.mark.parametrize("score", [2**63, -(2**63) - 1, 10**4000], ids=["2**63", "-2**63-1", "10**4000"])
def test_the_file_refuses_points_it_cannot_hold_and_keeps_the_rest(
    tmp_path: Path, players_csv: Path, score: int
) -> None:
    ev = tmp_path / "cup.sqlite"
    assert gouji("event", "new", str(ev), "--name", "cup", "--players", str(players_csv)).exit_code == 0
    row = HandRow(1, 1, 1, 0, [1, 2, 3, 4, 5, 6], (0, 0), {}, {})
    with Tournament.open(ev) as e:
        with pytest.raises(ScoreTooBig, match="too big to store"), e.db.transaction() as con:
            EventDB.put_hand(con, row)
            EventDB.put_hand(con, HandRow(1, 1, 2, 0, [1, 2, 3, 4, 5, 6], (score, 0), {}, {}))
        assert not e.db.hands()  # the whole change rolled back, the hand before it too
        with e.db.transaction() as con:
            EventDB.put_hand(con, HandRow(1, 1, 1, 0, [1, 2, 3, 4, 5, 6], (2**63 - 1, -(2**63)), {}, {}))
        assert e.db.hands()[0].scores == (2**63 - 1, -(2**63))  # the bounds themselves are stored
