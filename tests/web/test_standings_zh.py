"""Standings a club reads: Chinese headers and tiebreak names first, English on request."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from gouji_rules.cli import main as gouji
from gouji_rules.tournament import standings
from gouji_rules.tournament.event import Tournament

from .conftest import make_event


def test_standings_speak_chinese_first(tmp_path: Path) -> None:
    ev = make_event(tmp_path / "e.sqlite")
    r = CliRunner().invoke(
        gouji, ["event", "record", str(ev), "--round", "1", "--table", "1", "--hand", "1", "--finish", "0 1 2 3 4 5"]
    )
    assert r.exit_code == 0, r.output
    text = CliRunner().invoke(gouji, ["event", "standings", str(ev)]).stdout
    header = text.splitlines()[1].split()
    assert header[:2] == ["名次", "选手"] and "赛分" in header and "局分" in header and "MP" not in header
    assert "排名依次比较：赛分（胜2 平1 负0），局分，相互战绩，大落少者，头科多者" in text
    out = tmp_path / "s.html"
    assert CliRunner().invoke(gouji, ["event", "standings", str(ev), "--html", "-o", str(out)]).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in page and "<th>赛分</th>" in page and "<th>MP</th>" not in page
    assert 'name="viewport"' in page and "头科多者" in page
    with Tournament.open(ev) as e:
        en = standings.to_text(e, standings.compute(e), lang="en")
    assert "MP" in en.splitlines()[1] and "Ranked by match points" in en


def test_a_team_event_names_the_team_column() -> None:
    assert standings.headers("zh", by_team=True)[1] == "队"
    assert standings.headers("en", by_team=True)[1] == "team"
    assert standings.tiebreak_names("zh") == ["赛分（胜2 平1 负0）", "局分", "相互战绩", "大落少者", "头科多者"]
    assert standings.tiebreak_names("en", ("buchholz",)) == ["match points", "Buchholz"]
