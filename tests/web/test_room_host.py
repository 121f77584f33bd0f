"""用这套规则打一局 (issue 33 item 2): the editor opens a room with the draft as typed, one tap to open it
and one to enter it; a draft with errors is refused in Chinese; the editor's token and cookies stay out
of the room's link."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.room.core import PERSON

from .test_editor import CLUB, client, post, refusal


def _launched() -> tuple[list[Any], Any]:
    apps: list[Any] = []

    def launch(make_app: Any) -> int:
        apps.append(make_app(8123))
        return 8123

    return apps, launch


def test_the_editor_opens_a_room_with_the_draft_as_typed(tmp_path: Path) -> None:
    club = tmp_path / "qingdao.yaml"
    club.write_text(CLUB, encoding="utf-8")
    apps, launch = _launched()
    c = client(club, launch=launch)
    typed = CLUB + 'title: "青岛试打"\n'  # typed, not saved: the room plays it all the same
    r = post(c, c.get("/").text, "room", text=typed)
    assert r.status_code == 200 and not refusal(r.text)
    link = html.unescape(re.search(r'id="room-link" href="([^"]+)"', r.text)[1])  # type: ignore[index]
    assert link.startswith("http://127.0.0.1:8123/r/") and "token" not in link and "#" in link
    assert club.read_text(encoding="utf-8") == CLUB  # nothing written
    room = apps[0].state.room
    assert room.variant.title == "青岛试打" and [s.who for s in room.seats] == [PERSON] + ["simple"] * 5
    code, secret = link.split("/r/")[1].split("#")
    with TestClient(apps[0]) as rc:
        page = rc.get(f"/r/{code}")
        assert page.status_code == 200 and "set-cookie" not in page.headers
        with rc.websocket_connect(f"/r/{code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": secret}))
            assert json.loads(ws.receive_text())["seat"] == 0


def test_a_draft_with_errors_opens_no_room_and_says_why_in_chinese(tmp_path: Path) -> None:
    apps, launch = _launched()
    c = client(None, launch=launch)
    r = post(c, c.get("/").text, "room", text="extends: dagang\ndeck: {packs: -1}\n")
    assert r.status_code == 200 and "规则有错，不能开房间打" in refusal(r.text) and apps == []
    assert 'id="room-link"' not in r.text
