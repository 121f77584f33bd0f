"""The room's host page (docs/room.md, "The host page"): its link's secret opens the room's code, a QR per
person's seat, who plays each seat and the scores; no other secret opens it; ``gouji room serve`` prints it."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.catalog import dagang
from gouji_rules.room import PERSON, Room
from gouji_rules.web.room_app import create_room_app
from gouji_rules.web.room_host import SECRET_HEADER, host_link


def _served(people: int = 2) -> tuple[Room, TestClient]:
    room = Room(dagang(), [PERSON] * people + ["greedy"] * (6 - people), hands=1, seed=3, takeover=None)
    app = create_room_app(room, delay=0)
    app.state.rooms.base = "http://192.168.1.5:8030"
    return room, TestClient(app)


def _state(client: TestClient, room: Room, secret: str) -> dict:  # type: ignore[type-arg]
    r = client.get(f"/r/{room.code}/host/state", headers={SECRET_HEADER: secret})
    assert r.status_code == 200
    return r.json()  # type: ignore[no-any-return]


def test_the_host_link_shows_the_code_a_qr_per_person_and_who_plays_each_seat() -> None:
    room, client = _served(people=2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert host_link("http://192.168.1.5:8030/", hub) == f"http://192.168.1.5:8030/r/{room.code}/host#{hub.host_secret}"
    with client:
        page = client.get(f"/r/{room.code}/host")
        assert page.status_code == 200 and hub.host_secret not in page.text and "房主" in page.text
        s = _state(client, room, hub.host_secret)
    assert s["room"] == room.code and s["hands"] == 1 and s["scores"] == list(room.match.scores)
    assert [seat["who"] for seat in s["seats"]] == [PERSON] * 2 + ["greedy"] * 4
    for i in (0, 1):
        link = f"http://192.168.1.5:8030/r/{room.code}#{room.seats[i].secret}"
        assert s["seats"][i]["link"] == link and s["seats"][i]["qr"].startswith("<svg")
    assert all("link" not in seat and "qr" not in seat for seat in s["seats"][2:])


def test_no_seat_secret_or_guess_opens_the_host_state() -> None:
    room, client = _served()
    with client:
        for secret in (b"", b"guess", room.seats[0].secret.encode(), "é".encode(), b"x" * 100_000):
            r = client.get(f"/r/{room.code}/host/state", headers={SECRET_HEADER: secret})
            assert r.status_code == 403 and room.seats[0].secret not in r.text
        assert client.get(f"/r/{room.code}/host/state").status_code == 403
        assert client.get("/r/nope/host").status_code == 404
        assert client.get("/r/nope/host/state", headers={SECRET_HEADER: "x"}).status_code == 404


def test_the_host_sees_the_scores_and_who_is_connected_as_the_match_goes() -> None:
    room, client = _served(people=1)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client:
        assert _state(client, room, hub.host_secret)["seats"][0]["connected"] == 0
        with client.websocket_connect(f"/r/{room.code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
            while True:
                f = json.loads(ws.receive_text())
                if f["type"] != "view":
                    continue
                if f["over"]:
                    break
                assert _state(client, room, hub.host_secret)["seats"][0]["connected"] == 1
                if f["yours"]:
                    ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))
        s = _state(client, room, hub.host_secret)
    assert s["over"] and s["scores"] == list(room.match.scores) and any(s["scores"])


def test_room_serve_prints_the_host_link_first_then_each_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from click.testing import CliRunner

    from gouji_rules.cli import main, serve

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.setattr(serve, "_listen", lambda host, port: None)
    r = CliRunner().invoke(main, ["room", "serve", "dagang", "--people", "2", "--seed", "1"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("host: http://127.0.0.1:") and "/host#" in lines[0]
    assert [line.split(":")[0] for line in lines[1:]] == ["seat 1", "seat 2"]


def _room_of_programs(program: str) -> tuple[Room, list[str], list]:  # type: ignore[type-arg]
    from gouji_rules.cli.room import seat_programs

    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None)
    bots = seat_programs(room, program, 1)
    said: list[str] = []
    app = create_room_app(room, delay=0, log=said.append)
    with TestClient(app) as client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        while True:
            f = json.loads(ws.receive_text())
            if f["type"] == "view" and f["over"]:
                break
            if f["type"] == "view" and f["yours"]:
                ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))
    for bot in bots:
        bot.close()
    return room, said, bots


def test_a_bot_program_plays_the_agents_seats_through_the_bot_protocol() -> None:
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "bot.py"
    room, said, _ = _room_of_programs(f"{sys.executable} {example}")
    assert room.match.is_over and said == [] and [s.who for s in room.seats] == [PERSON] + ["bot"] * 5


def test_a_bot_program_that_crashes_is_replaced_by_greedy_and_logged(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import sys

    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    room, said, _ = _room_of_programs(f"{sys.executable} {crash}")
    assert room.match.is_over and len(said) == 5 and all("greedy plays for it" in line for line in said)
