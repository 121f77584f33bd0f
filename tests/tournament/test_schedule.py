"""Fair schedules: rotating partners avoid meeting the same 对头 or partner again; Swiss has the fewest rematches."""

from __future__ import annotations

from pathlib import Path

import pytest

from gouji_rules.tournament.schedule import (
    DUITOU,
    OPPONENT,
    PARTNER,
    relation,
    repeats,
    rotating,
    swiss,
    swiss_rematches,
)

from .conftest import gouji


def test_seats_meet_as_partners_duitou_or_opponents() -> None:
    assert relation(0, 2) == relation(1, 5) == PARTNER
    assert relation(0, 3) == relation(2, 5) == relation(4, 1) == DUITOU  # 对头 is seat + 3
    assert relation(0, 1) == relation(0, 5) == OPPONENT


def test_repeats_count_each_meeting_after_the_first() -> None:
    six = [0, 1, 2, 3, 4, 5]
    assert repeats([[six]]) == {"partners": 0, "duitou": 0, "opponents": 0}
    again = repeats([[six], [six]])
    assert again == {"partners": 6, "duitou": 3, "opponents": 6}


@pytest.mark.parametrize("seed", range(8))
def test_twelve_players_three_rounds_never_meet_the_same_duitou_or_partner_twice(seed: int) -> None:
    plan = rotating(12, 3, seed)
    assert len(plan) == 3 and all(sorted(p for t in r for p in t) == list(range(12)) for r in plan)
    got = repeats(plan)
    assert got["partners"] == 0 and got["duitou"] == 0, got


def test_a_big_event_has_no_repeats_and_is_the_same_every_time() -> None:
    plan = rotating(504, 3, 11)
    assert repeats(plan) == {"partners": 0, "duitou": 0, "opponents": 0}
    assert plan == rotating(504, 3, 11)


def test_swiss_takes_the_one_rematch_that_cannot_be_avoided() -> None:
    """22 teams: t0 has met everyone, and every pair of neighbours has met.  One rematch suffices (t0's)."""
    teams = [f"t{i}" for i in range(22)]
    played = {frozenset((teams[0], t)) for t in teams[1:]}
    played |= {frozenset((teams[i], teams[i + 1])) for i in range(0, 22, 2)}
    pairs, byes = swiss(teams, played, set())
    assert byes == []
    assert sorted(t for p in pairs for t in p) == sorted(teams)
    assert swiss_rematches(pairs, played) == 1


def test_swiss_pairs_neighbours_when_nobody_has_met() -> None:
    teams = [f"t{i}" for i in range(8)]
    pairs, _ = swiss(teams, set(), set())
    assert pairs == [("t0", "t1"), ("t2", "t3"), ("t4", "t5"), ("t6", "t7")]


def test_swiss_bye_goes_to_the_lowest_team_without_one() -> None:
    teams = ["a", "b", "c", "d", "e"]
    pairs, byes = swiss(teams, set(), {"e"})
    assert byes == ["d"] and pairs == [("a", "b"), ("c", "e")]


def test_event_new_prints_the_repeats(tmp_path: Path, players_csv: Path) -> None:
    r = gouji("event", "new", str(tmp_path / "e.sqlite"), "--name", "e", "--players", str(players_csv), "--seed", "3")
    assert r.exit_code == 0, r.output
    assert "schedule: 0 repeated partners, 0 repeated 对头," in r.stdout
