"""Tiebreaks are chosen per event: Buchholz, head-to-head and the rest, in the event's order, printed with the standings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gouji_rules.tournament import tiebreaks
from gouji_rules.tournament.errors import EventError
from gouji_rules.tournament.standings import Line

from .conftest import gouji


def line(name: str, mp: int, hp: int, opponents: list[tuple[int, str]]) -> Line:
    x = Line(name, [name], match_points=mp, hand_points=hp)
    x.results = [(won, frozenset({opp})) for won, opp in opponents]
    return x


def field() -> list[Line]:
    # a beat c and d; b beat d and lost to c; c beat b, lost to a; d lost twice.  a 4, b 2, c 2, d 0 match points.
    return [
        line("a", 4, 5, [(2, "c"), (2, "d")]),
        line("b", 2, 9, [(2, "d"), (0, "c")]),
        line("c", 2, 1, [(0, "a"), (2, "b")]),
        line("d", 0, 0, [(0, "a"), (0, "b")]),
    ]


def test_buchholz_sums_the_opponents_match_points() -> None:
    lines = field()
    tiebreaks.buchholz(lines)
    assert {x.name: x.buchholz for x in lines} == {"a": 2, "b": 2, "c": 6, "d": 6}


def test_the_chosen_order_decides_between_entrants_level_on_match_points() -> None:
    by_points = tiebreaks.rank(field(), ("hand_points",))
    assert [x.name for x in by_points] == ["a", "b", "c", "d"]  # b has more hand points than c
    by_buchholz = tiebreaks.rank(field(), ("buchholz", "hand_points"))
    assert [x.name for x in by_buchholz] == ["a", "c", "b", "d"]  # c met the stronger opposition
    by_h2h = tiebreaks.rank(field(), ("head_to_head",))
    assert [x.name for x in by_h2h] == ["a", "c", "b", "d"]  # c beat b
    assert [x.rank for x in by_h2h] == [1, 2, 3, 4]


def test_entrants_still_level_share_the_rank() -> None:
    lines = [line("x", 2, 3, []), line("y", 2, 3, []), line("z", 0, 0, [])]
    ranked = tiebreaks.rank(lines, ("hand_points", "buchholz"))
    assert [(x.name, x.rank) for x in ranked] == [("x", 1), ("y", 1), ("z", 3)]


def test_unknown_or_repeated_tiebreaks_are_refused() -> None:
    assert tiebreaks.parse("buchholz, hand_points") == ("buchholz", "hand_points")
    with pytest.raises(EventError, match="did you mean 'buchholz'"):
        tiebreaks.parse("bucholz")
    with pytest.raises(EventError, match="named twice"):
        tiebreaks.parse("wins,wins")


def test_an_event_keeps_its_tiebreaks_and_prints_them(tmp_path: Path, players_csv: Path) -> None:
    ev = tmp_path / "e.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", "e", "--players", str(players_csv), "--tiebreaks", "buchholz,hand_points"
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    r = gouji("event", "standings", str(ev))
    assert (
        r.exit_code == 0 and "ranked by match points, Buchholz, hand points" in r.stdout and "对手分" in r.stdout
    )  # the Buchholz column, headed in Chinese
    doc = json.loads(gouji("event", "standings", str(ev), "--json").stdout)
    assert doc["tiebreaks"] == ["match_points", "buchholz", "hand_points"]
    assert all("buchholz" in row for row in doc["standings"])
    r = gouji(
        "event", "new", str(tmp_path / "f.sqlite"), "--name", "f", "--players", str(players_csv), "--tiebreaks", "x"
    )
    assert r.exit_code == 1 and "unknown tiebreak 'x'" in r.stderr and not (tmp_path / "f.sqlite").exists()
