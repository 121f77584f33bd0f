"""``gouji club``: 试打一局 opens a room to try a rules file against five agents (issue 34 item 1: "a room to
try the rules"), from the home, with no terminal."""

from __future__ import annotations

import json
import shutil
import urllib.parse
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.web.club_home import ClubConfig, club_url, create_club_app

from .test_club_home import FakeLaunch

ROOT = Path(__file__).resolve().parents[2]


def _home(folder: Path) -> tuple[TestClient, FakeLaunch]:
    launch = FakeLaunch()
    config = ClubConfig(folder=folder, launch=launch, log=lambda _m: None)
    client = TestClient(create_club_app(config), base_url="http://127.0.0.1:8020", follow_redirects=False)
    assert client.get(club_url(config).replace("http://127.0.0.1:8020", "")).status_code == 303
    return client, launch


def test_try_the_rules_opens_a_room_where_the_organiser_plays_against_five_agents(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "clubs" / "qingdao.yaml", tmp_path / "青岛家规.yaml")
    client, launch = _home(tmp_path)
    assert 'action="/rooms/new"' in client.get("/").text and "试打一局" in client.get("/").text
    r = client.post("/rooms/new", data={"file": "青岛家规.yaml"})
    assert r.status_code == 303
    link = r.headers["location"]
    page, secret = link.split("#")
    room_app = launch.apps[urllib.parse.urlsplit(link).port or 0]
    assert room_app.state.room.variant.name == "qingdao"
    assert [s.who for s in room_app.state.room.seats] == ["person"] + ["simple"] * 5
    with TestClient(room_app) as room:
        path = urllib.parse.urlsplit(page).path
        assert room.get(path).status_code == 200
        with room.websocket_connect(path + "/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": secret}))
            view = json.loads(ws.receive_text())
            assert view["type"] == "view" and view["seat"] == 0
    again = client.post("/rooms/new", data={"file": "青岛家规.yaml"}).headers["location"]
    assert again != link  # each tap a new match


def test_a_rules_file_with_an_error_is_refused_in_chinese(tmp_path: Path) -> None:
    (tmp_path / "坏规则.yaml").write_text("extends: dagang\nburn:\n  teammate: maybe\n", encoding="utf-8")
    client, launch = _home(tmp_path)
    r = client.post("/rooms/new", data={"file": "坏规则.yaml"})
    assert r.status_code == 400 and "请先在编辑器里改好" in r.text and not launch.apps


def test_a_stranger_cannot_open_a_room(tmp_path: Path) -> None:
    config = ClubConfig(folder=tmp_path, launch=FakeLaunch(), log=lambda _m: None)
    stranger = TestClient(create_club_app(config), base_url="http://127.0.0.1:8020", follow_redirects=False)
    assert stranger.post("/rooms/new", data={"file": "x.yaml"}).status_code == 403
