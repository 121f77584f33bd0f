"""The club night against the store's attacks (issue 30 item 4): points the rules make too big to store are
a Chinese refusal, never a 500."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from gouji_rules.dsl import expr
from gouji_rules.tournament import event as eventmod
from gouji_rules.tournament.event import Tournament
from gouji_rules.web.app import TOO_BIG, Config, create_app

from .test_app import FINISH, Club

HUGE = 'extends: dagang\nname: huge\nhooks:\n  team_score: "sum(points) * 99999999999 * 99999999999"\n'
PLAYERS = [f"p{i}" for i in range(12)]


def _alert(text: str) -> str:
    return html.unescape(text.split('role="alert">')[1].split("</p>")[0])


@pytest.fixture(name="huge")
def _huge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Club, list[str]]]:
    """An event under rules whose hook makes numbers out of range, made as before ``event new`` tried every
    finish (it refuses these rules now); the server's log lines."""
    rules = tmp_path / "club.yaml"
    rules.write_text(HUGE, encoding="utf-8")
    with monkeypatch.context() as m:
        m.setattr(eventmod, "check_scores", lambda variant: None, raising=False)
        eventmod.create(tmp_path / "cup.sqlite", eventmod.Settings("杯赛", str(rules)), players=PLAYERS).close()
    log: list[str] = []
    app = create_app(Config(event_path=tmp_path / "cup.sqlite", log=log.append))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield Club(c, tmp_path / "cup.sqlite"), log


def _organiser(club: Club, lang: str = "") -> Any:
    path = f"{club.admin}/r/1/t/1/hand/1"
    return club.post(path + lang, {"csrf": club.csrf(path), **FINISH})


def test_a_hand_a_hook_scores_out_of_range_is_refused_in_chinese(huge: tuple[Club, list[str]]) -> None:
    club, log = huge
    r = club.enter(1, 0)
    assert r.status_code == 422 and _alert(r.text) == TOO_BIG[0]
    r = _organiser(club)
    assert r.status_code == 422 and _alert(r.text) == TOO_BIG[0]
    r = _organiser(club, "?lang=en")
    assert r.status_code == 422 and _alert(r.text) == TOO_BIG[1]
    assert club.stored() == 0
    assert any("hook team_score gave" in line and "club.yaml:4:15" in line for line in log)  # the organiser's why


def test_points_beyond_64_bits_are_refused_in_chinese(
    huge: tuple[Club, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook's bound raised (a later change, an extension): the file's own limit refuses the points."""
    club, log = huge
    monkeypatch.setattr(expr, "HOOK_INT_MAX", 10**30)
    r = club.enter(1, 0)
    assert r.status_code == 422 and _alert(r.text) == TOO_BIG[0]
    assert _organiser(club).status_code == 422
    assert club.stored() == 0
    with Tournament.open(club.event) as ev:
        assert not ev.db.audit()  # not even a waiting entry
    assert any("are too big to store" in line for line in log)
