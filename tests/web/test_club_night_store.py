"""The club night against the store's last three attacks (issue 30 item 4): points the rules make too big to
store are a Chinese refusal, never a 500; a confirmation that lost a race with ``gouji event correct`` says
the hand changed under it and changes nothing."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from gouji_rules.cli import main as gouji_main
from gouji_rules.dsl import expr
from gouji_rules.tournament import club as clubmod
from gouji_rules.tournament import event as eventmod
from gouji_rules.tournament.event import Tournament
from gouji_rules.web import tables
from gouji_rules.web.app import Config, create_app
from gouji_rules.web.entry_form import CHANGED, FORM_CHANGED, TOO_BIG

from .conftest import Server, stop_server
from .test_app import FINISH, Club, _NoRedirect, _post

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


def test_a_confirmation_that_lost_to_event_correct_says_so_in_chinese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Side B has the waiting entry on its screen and taps 确认 just as the organiser runs ``event correct``:
    the correction lands between the confirmation's read and its write.  The confirmation is refused."""
    ev = tmp_path / "cup.sqlite"
    eventmod.create(ev, eventmod.Settings("杯赛", "dagang"), players=PLAYERS).close()
    cli = CliRunner()
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    assert cli.invoke(gouji_main, ["event", "record", str(ev), *key, "--finish", "0 1 2 3 4 5"]).exit_code == 0
    with TestClient(create_app(Config(event_path=ev, log=lambda msg: None)), raise_server_exceptions=False) as c:
        club = Club(c, ev)
        assert club.enter(1, 0).status_code == 303  # a correction to FINISH, waiting for side B
        audit = club.pending_audit(1, 1)
        store = tables._store

        def correct_first(*args: Any, **kw: Any) -> list[clubmod.Scored]:
            r = cli.invoke(gouji_main, ["event", "correct", str(ev), *key, "--finish", "1 0 2 3 4 5"])
            assert r.exit_code == 0, r.output
            return store(*args, **kw)

        monkeypatch.setattr(tables, "_store", correct_first)
        r = club.post(f"{club.link(1, 1, 1)}/hand/1/confirm", {"csrf": club.csrf(), "audit": audit})
        assert r.status_code == 409 and CHANGED[0] in r.text
    with Tournament.open(ev) as e:
        row = e.db.hand(1, 1, 1)
        assert row is not None and row.result["finish"] == [1, 0, 2, 3, 4, 5]  # the correction stands
        assert [a["action"] for a in e.db.audit()] == ["record", "enter", "correct"]


def _rev(page: str) -> str:
    m = re.search(r'name="rev" value="(\d+)"', page)
    assert m, "the form carries the revision it is filled in from"
    return m[1]


@pytest.mark.parametrize("who", ["phone", "organiser"])
@pytest.mark.parametrize("recorded", [True, False])
def test_a_form_filled_in_before_the_command_line_changed_the_hand_saves_nothing(
    tmp_path: Path, who: str, recorded: bool
) -> None:
    """A phone (or the organiser) opens the hand's form; ``gouji event record``/``correct`` changes the hand;
    the form is submitted: 409, nothing saved or waiting, and the form comes back filled in from the hand now."""
    ev = tmp_path / "cup.sqlite"
    eventmod.create(ev, eventmod.Settings("杯赛", "dagang"), players=PLAYERS).close()
    cli = CliRunner()
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    if recorded:
        assert cli.invoke(gouji_main, ["event", "record", str(ev), *key, "--finish", "0 1 2 3 4 5"]).exit_code == 0
    with TestClient(create_app(Config(event_path=ev, log=lambda msg: None)), raise_server_exceptions=False) as c:
        club = Club(c, ev)
        path = f"{club.link(1, 1, 0)}/hand/1" if who == "phone" else f"{club.admin}/r/1/t/1/hand/1"
        form = c.get(path).text
        command = ["correct", str(ev), *key, "--finish", "1 0 2 3 4 5"]
        if not recorded:
            command[0] = "record"
        assert cli.invoke(gouji_main, ["event", *command]).exit_code == 0
        r = club.post(path, {"csrf": club.csrf(path), "rev": _rev(form), **FINISH})
        assert r.status_code == 409 and _alert(r.text) == FORM_CHANGED[0]
        assert 'id="p1s1" value="1" checked' in r.text  # filled in from the hand as it is now
        again = club.post(path, {"csrf": club.csrf(path), "rev": _rev(r.text), **FINISH})
        assert again.status_code == 303  # checked and submitted again from the fresh form: taken
    with Tournament.open(ev) as e:
        actions = [a["action"] for a in e.db.audit()]
    by_command = ["record", "correct"] if recorded else ["record"]
    assert actions == [*by_command, "enter" if who == "phone" else "correct"]  # the resubmission, after them


def test_a_forged_revision_is_a_bad_request(tmp_path: Path) -> None:
    ev = tmp_path / "cup.sqlite"
    eventmod.create(ev, eventmod.Settings("杯赛", "dagang"), players=PLAYERS).close()
    with TestClient(create_app(Config(event_path=ev, log=lambda msg: None)), raise_server_exceptions=False) as c:
        club = Club(c, ev)
        path = f"{club.link(1, 1, 0)}/hand/1"
        for rev in ("-1", "1e9", "9" * 19, "\u0661"):
            assert club.post(path, {"csrf": club.csrf(path), "rev": rev, **FINISH}).status_code == 400
        assert club.stored() == 0


def test_a_correction_typed_while_the_server_runs_is_never_overwritten(served: Server) -> None:
    """Real processes: ``gouji event serve`` and ``gouji event correct``.  Side A's correction waits; the
    organiser corrects the hand at the command line; side B confirms: refused, the command's change stands
    (the server once lost it: the command, ending, deleted the WAL the server was writing to)."""
    urllib.request.install_opener(urllib.request.build_opener(_NoRedirect))
    cookie = "c" * 43
    key = ["--round", "1", "--table", "1", "--hand", "1"]
    argv = [sys.executable, "-m", "gouji_rules.cli", "event"]
    done = subprocess.run([*argv, "record", str(served.event), *key, "--finish", "0 1 2 3 4 5"], capture_output=True)
    assert done.returncode == 0
    assert _post(f"{served.link(1, 1, 'A')}/hand/1", {"csrf": cookie, **FINISH}, cookie) == 303
    page = urllib.request.urlopen(served.link(1, 1, "B"), timeout=30).read().decode()
    audit = re.findall(r'action="[^"]*/hand/1/confirm".*?name="audit" value="(\d+)"', page, re.S)[0]
    done = subprocess.run([*argv, "correct", str(served.event), *key, "--finish", "1 0 2 3 4 5"], capture_output=True)
    assert done.returncode == 0
    assert _post(f"{served.link(1, 1, 'B')}/hand/1/confirm", {"csrf": cookie, "audit": audit}, cookie) == 409
    stop_server(served)
    with Tournament.open(served.event, write=False) as e:
        row = e.db.hand(1, 1, 1)
        assert row is not None and row.result["finish"] == [1, 0, 2, 3, 4, 5]
        assert [a["action"] for a in e.db.audit()] == ["record", "enter", "correct"]
