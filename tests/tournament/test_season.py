"""``gouji event season``: several club nights ranked together (docs/tournaments.md, "Season").

Each test builds small events with ``event new`` / ``event record`` and checks the season
against figures worked out here from each night's own seating, scores and standings.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import gouji, standings_json

POOL = ["张三", "李四", "王五", "赵六", "钱七", "孙八", "周九", "吴十"]


def seats_of(ev: Path) -> dict[str, int]:
    r = gouji("event", "seat", str(ev), "--round", "1", "--json")
    assert r.exit_code == 0, r.output
    return {s["player"]: s["seat"] for s in json.loads(r.stdout)["tables"][0]["seats"]}


def night(
    tmp: Path, name: str, players: list[str], winner: str, *, hands: int = 2, seed: int = 0, variant: str = "dagang"
) -> tuple[Path, list[dict[str, Any]]]:
    """An event of six ``players``, one round of ``hands`` hands, in which ``winner``'s side takes places 1-3.

    Returns the file and each hand's recorded points (as ``record --json`` prints them).
    """
    folder = tmp / name
    folder.mkdir()
    csv = folder / "players.csv"
    csv.write_text("name\n" + "".join(f"{p}\n" for p in players), encoding="utf-8")
    ev = folder / "event.sqlite"
    r = gouji(
        "event", "new", str(ev), "--name", name, "--players", str(csv), "--rounds", "1",
        "--hands", str(hands), "--seed", str(seed), "--variant", variant,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    s = seats_of(ev)[winner]
    finish = " ".join(str((s + d) % 6) for d in (0, 2, 4, 1, 3, 5))
    recorded = []
    for h in range(1, hands + 1):
        r = gouji("event", "record", str(ev), "--round", "1", "--table", "1", "--hand", str(h), "--finish", finish,
                  "--json")  # fmt: skip
        assert r.exit_code == 0, r.output
        recorded += json.loads(r.stdout)["hands"]
    return ev, recorded


def season(*args: str) -> dict[str, Any]:
    r = gouji("event", "season", *args, "--json")
    assert r.exit_code == 0, r.output
    doc: dict[str, Any] = json.loads(r.stdout)
    return doc


def by_name(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {x["name"]: x for x in doc["ranked"] + doc["unranked"]}


@pytest.fixture
def three_nights(tmp_path: Path) -> list[tuple[Path, list[dict[str, Any]]]]:
    """Three nights: 张三's side wins every hand; 周九 comes on night 2, 吴十 only on night 3."""
    return [
        night(tmp_path, "第一晚", POOL[:6], "张三", seed=1),
        night(tmp_path, "第二晚", [*POOL[:5], "周九"], "张三", seed=2),
        night(tmp_path, "第三晚", [*POOL[:4], "周九", "吴十"], "张三", seed=3),
    ]


def expected(nights: list[tuple[Path, list[dict[str, Any]]]]) -> dict[str, dict[str, float]]:
    """Each player's season figures, summed here from every night's seating, scores and standings."""
    totals: dict[str, dict[str, float]] = {}
    for ev, hands in nights:
        seats = seats_of(ev)
        lines = {x["name"]: x for x in standings_json(ev)}
        for player, seat in seats.items():
            t = totals.setdefault(player, {"nights": 0, "hands": 0, "points": 0, "mp": 0, "rank": 0})
            t["nights"] += 1
            t["hands"] += len(hands)
            t["points"] += sum(h["scores"][seat % 2] for h in hands)
            t["mp"] += lines[player]["match_points"]
            t["rank"] += lines[player]["rank"]
    return totals


def test_season_averages_by_hand(three_nights: list[tuple[Path, list[dict[str, Any]]]]) -> None:
    doc = season(*(str(ev) for ev, _ in three_nights))
    rows = by_name(doc)
    want = expected(three_nights)
    assert set(rows) == set(want)
    for player, t in want.items():
        row = rows[player]
        assert (row["nights"], row["hands"], row["hand_points"], row["match_points"]) == (
            t["nights"], t["hands"], t["points"], t["mp"],
        ), player  # fmt: skip
        assert row["points_per_hand"] == pytest.approx(t["points"] / t["hands"])
        assert row["match_points_per_night"] == pytest.approx(t["mp"] / t["nights"])
        assert row["average_rank"] == pytest.approx(t["rank"] / t["nights"])
    # the side of 张三 won both hands of every night: each night's match, 2 match points, 3 nights
    assert rows["张三"]["match_points"] == 6 and rows["张三"]["hand_points"] > 0
    assert [n["name"] for n in doc["nights"]] == ["第一晚", "第二晚", "第三晚"]


def test_season_window_keeps_the_last_nights(three_nights: list[tuple[Path, list[dict[str, Any]]]]) -> None:
    files = [str(ev) for ev, _ in three_nights]
    doc = season(*files, "--window", "2")
    assert [n["name"] for n in doc["nights"]] == ["第二晚", "第三晚"]
    assert doc["nights_given"] == 3 and doc["window"] == 2
    rows = by_name(doc)
    want = expected(three_nights[1:])
    assert set(rows) == set(want)  # 孙八 played only night 1, outside the window
    assert "孙八" not in rows
    for player, t in want.items():
        assert (rows[player]["nights"], rows[player]["hand_points"]) == (t["nights"], t["points"]), player
    # the rating too comes from the window only: the same as a season of those two nights
    assert doc["ranked"] == season(*files[1:])["ranked"]


def test_season_min_nights_lists_the_rest_apart(three_nights: list[tuple[Path, list[dict[str, Any]]]]) -> None:
    files = [str(ev) for ev, _ in three_nights]
    doc = season(*files, "--min-nights", "2")
    ranked = {x["name"] for x in doc["ranked"]}
    unranked = {x["name"]: x for x in doc["unranked"]}
    assert ranked == {"张三", "李四", "王五", "赵六", "钱七", "周九"}  # 3, 3, 3, 3, 2 and 2 nights
    assert set(unranked) == {"孙八", "吴十"}  # one night each
    assert all(x["rank"] is None for x in unranked.values())
    assert [x["rank"] for x in doc["ranked"]] == sorted(x["rank"] for x in doc["ranked"])
    text = gouji("event", "season", *files, "--min-nights", "2").stdout
    assert "出勤不足 2 晚，不排名" in text
    assert text.index("吴十") > text.index("出勤不足")


def test_season_rating_ranks_the_winner_first(three_nights: list[tuple[Path, list[dict[str, Any]]]]) -> None:
    doc = season(*(str(ev) for ev, _ in three_nights))
    first = doc["ranked"][0]
    assert first["name"] == "张三" and first["rank"] == 1
    others = doc["ranked"][1:]
    assert all(first["ordinal"] > x["ordinal"] for x in others)
    assert first["mu"] > doc["rating"]["mu"] and first["sigma"] < doc["rating"]["sigma"]
    assert first["ordinal"] == pytest.approx(first["mu"] - 3 * first["sigma"])
    ordinals = [x["ordinal"] for x in doc["ranked"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_season_a_side_that_always_loses_ranks_below(tmp_path: Path) -> None:
    """Two nights, the same seating: 赵六's side wins all four hands, the other side loses them all."""
    a = night(tmp_path, "一", POOL[:6], "赵六", seed=5)[0]
    b = night(tmp_path, "二", POOL[:6], "赵六", seed=5)[0]
    seats = seats_of(a)
    assert seats == seats_of(b)
    winners = {p for p, s in seats.items() if s % 2 == seats["赵六"] % 2}
    doc = season(str(a), str(b))
    rows = by_name(doc)
    assert [x["name"] in winners for x in doc["ranked"]] == [True] * 3 + [False] * 3
    assert {rows[p]["rank"] for p in winners} == {1}  # partners who always played together share the rank
    assert {rows[p]["rank"] for p in set(seats) - winners} == {4}
    assert all(rows[p]["mu"] > 25 for p in winners) and all(rows[p]["mu"] < 25 for p in set(seats) - winners)


def test_season_is_deterministic_and_never_writes(three_nights: list[tuple[Path, list[dict[str, Any]]]]) -> None:
    files = [ev for ev, _ in three_nights]

    def state() -> dict[str, tuple[str, int]]:
        # SQLite's reader may leave its empty -wal/-shm index beside a file (docs/tournaments.md): not the event
        return {str(ev): (hashlib.sha256(ev.read_bytes()).hexdigest(), ev.stat().st_mtime_ns) for ev in files}

    before = state()
    runs = [gouji("event", "season", *map(str, files), *extra) for extra in ((), (), ("--json",), ("--json",))]
    assert all(r.exit_code == 0 for r in runs)
    assert runs[0].stdout == runs[1].stdout and runs[2].stdout == runs[3].stdout
    assert state() == before


def test_season_chinese_first_names_not_seats(three_nights: list[tuple[Path, list[dict[str, Any]]]]) -> None:
    files = [str(ev) for ev, _ in three_nights]
    zh = gouji("event", "season", *files).stdout
    en = gouji("event", "season", *files, "--lang", "en").stdout
    assert "名次" in zh and "保守分" in zh and "张三" in zh and "seat" not in zh
    assert "player" in en and "ordinal" in en and "张三" in en
    assert "±" in zh  # the uncertainty is shown with the rating


def test_season_matches_names_nfkc(tmp_path: Path) -> None:
    wide = ["Ｌｉ", *POOL[1:6]]  # fullwidth, as a phone keyboard may type it
    a = night(tmp_path, "一", ["Li", *POOL[1:6]], "Li", seed=1)[0]
    b = night(tmp_path, "二", wide, "Ｌｉ", seed=2)[0]
    rows = by_name(season(str(a), str(b)))
    assert "Li" not in rows and rows["Ｌｉ"]["nights"] == 2  # one player, named as the latest night spells it
    assert len(rows) == 6


def test_season_writes_csv_through_the_output_rule(
    three_nights: list[tuple[Path, list[dict[str, Any]]]], tmp_path: Path
) -> None:
    files = [str(ev) for ev, _ in three_nights]
    out = tmp_path / "season.csv"
    r = gouji("event", "season", *files, "--min-nights", "2", "--csv", str(out))
    assert r.exit_code == 0, r.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("rank,name,nights,hands,hand_points")
    assert len(lines) == 1 + 8
    assert lines[-1].startswith(",")  # an unranked player has no rank
    before = Path(files[0]).read_bytes()
    r = gouji("event", "season", *files, "--csv", files[0])
    # refused as an input of the command or as an event database, whichever the rule names first
    assert r.exit_code == 1 and ("is also an input" in r.stderr or "is an SQLite database" in r.stderr)
    assert Path(files[0]).read_bytes() == before


def _refused(*args: str, lang: str = "en") -> str:
    r = gouji("event", "season", *args, "--lang", lang)
    assert r.exit_code == 1, r.output
    assert r.stdout == "" and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr


def test_season_refuses_bad_input(three_nights: list[tuple[Path, list[dict[str, Any]]]], tmp_path: Path) -> None:
    ev = three_nights[0][0]
    other = str(three_nights[1][0])
    assert "no such event file" in _refused(str(ev), str(tmp_path / "missing.sqlite"))
    csv = tmp_path / "players.csv"
    csv.write_text("name\n张三\n", encoding="utf-8")
    assert "not an event file" in _refused(str(ev), str(csv))
    assert "same event file" in _refused(str(ev), other, str(ev))
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(ev.read_bytes())
    assert "is a copy of" in _refused(str(ev), str(copy))
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(ev.read_bytes()[:100] + b"\xff" * 3000)
    assert "damaged" in _refused(other, str(garbage))
    tampered = tmp_path / "tampered.sqlite"
    tampered.write_bytes(ev.read_bytes())
    with sqlite3.connect(tampered) as con:
        con.execute("UPDATE meta SET value = '\"many\"' WHERE key = 'rounds'")
    con.close()
    assert "damaged" in _refused(other, str(tampered))


def test_season_refuses_other_rules_unless_mixed(tmp_path: Path) -> None:
    a = night(tmp_path, "一", POOL[:6], "张三", seed=1)[0]
    b = night(tmp_path, "二", POOL[:6], "张三", seed=2, variant="dianshaomenla")[0]
    assert "other rules" in _refused(str(a), str(b))
    doc = season(str(a), str(b), "--mixed")
    assert doc["mixed"] is True and len(doc["nights"]) == 2


def test_season_two_players_one_name_refused(tmp_path: Path) -> None:
    ev = night(tmp_path, "一", ["Li", "Ｌｉ", *POOL[2:6]], "Li")[0]
    assert "one name once normalised" in _refused(str(ev))


def test_season_min_nights_beyond_the_window_is_a_usage_error(
    three_nights: list[tuple[Path, list[dict[str, Any]]]],
) -> None:
    r = gouji("event", "season", str(three_nights[0][0]), "--window", "1", "--min-nights", "2")
    assert r.exit_code == 2


def test_season_without_openskill_says_what_to_install(
    three_nights: list[tuple[Path, list[dict[str, Any]]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert "gouji_rules[season]" in _refused(str(three_nights[0][0]))


def test_season_refuses_in_chinese_by_default(tmp_path: Path) -> None:
    """Issue 22 item 2: the club reads the season's refusals in Chinese unless it asks for English."""
    a = night(tmp_path, "一", POOL[:6], "张三", seed=1)[0]
    b = night(tmp_path, "二", POOL[:6], "张三", seed=2, variant="dianshaomenla")[0]
    r = gouji("event", "season", str(a), str(b))
    assert r.exit_code == 1 and "规则" in r.stderr and "--mixed" in r.stderr and "other rules" not in r.stderr
    assert "同一个比赛文件" in _refused(str(a), str(a), lang="zh")
    assert "读不了" in _refused(str(a), str(tmp_path / "missing.sqlite"), lang="zh")
    ev = night(tmp_path, "三", ["Li", "Ｌｉ", *POOL[2:6]], "Li")[0]
    assert "改名" in _refused(str(ev), lang="zh")


def test_season_by_default_ranks_from_two_nights_so_one_lucky_night_is_listed_apart(
    three_nights: list[tuple[Path, list[dict[str, Any]]]],
) -> None:
    files = [str(ev) for ev, _ in three_nights]
    doc = season(*files)
    assert doc["min_nights"] == 2
    assert {x["name"] for x in doc["unranked"]} == {"孙八", "吴十"}  # one night each
    text = gouji("event", "season", *files).stdout
    assert "出勤至少 2 晚才排名" in text
    first = season(files[0])  # a season of one night: that night is everyone's, all ranked
    assert first["min_nights"] == 1 and first["unranked"] == []
