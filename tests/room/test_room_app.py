"""The seat protocol over WebSockets (docs/room.md): join with the link's secret, a view after every change,
refusals to the sender only, agents played by the server; a flood is cut off."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gouji_rules.catalog import dagang
from gouji_rules.room import PERSON, Room
from gouji_rules.web.room_app import create_room_app, seat_link


def _room() -> tuple[Room, TestClient]:
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None)
    return room, TestClient(create_room_app(room, delay=0))


def _until_mine(ws) -> dict:
    while True:
        f = json.loads(ws.receive_text())
        if f["type"] == "view" and (f["yours"] or f["over"]):
            return f


def _play_seat_0(room: Room, client: TestClient) -> None:
    """Seat 0's person joins and plays the first action offered until the match is over."""
    with client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        while True:
            f = _until_mine(ws)
            if f["over"]:
                break
            ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))


def test_a_person_plays_a_whole_hand_over_the_socket_with_five_agents() -> None:
    room, client = _room()
    _play_seat_0(room, client)
    assert room.match.is_over and len(room.records()) == 1


def test_a_wrong_secret_another_seats_turn_and_a_stale_frame_are_refused_to_the_sender() -> None:
    room, client = _room()
    with client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": "guess"}))
        assert json.loads(ws.receive_text())["code"] == "secret"
        ws.send_text(json.dumps({"type": "act", "seq": 0, "action": "pass"}))  # not joined: nothing applied
        assert json.loads(ws.receive_text())["code"] == "malformed"
        ws.send_text("not json")
        assert json.loads(ws.receive_text())["code"] == "malformed"
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        f = _until_mine(ws)
        seq = room.seq
        ws.send_text(json.dumps({"type": "act", "seq": f["seq"] - 1, "action": f["observation"]["legal"][0]}))
        r = json.loads(ws.receive_text())
        assert r["type"] == "refused" and r["code"] == "stale" and room.seq == seq


def test_a_dropped_phone_that_comes_back_gets_the_same_view() -> None:
    room, client = _room()
    with client:
        with client.websocket_connect(f"/r/{room.code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
            first = _until_mine(ws)
        with client.websocket_connect(f"/r/{room.code}/ws") as again:
            again.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
            assert json.loads(again.receive_text()) == first


def test_a_flood_of_frames_closes_the_socket_and_the_game_goes_on() -> None:
    room, client = _room()
    with client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        f = _until_mine(ws)
        with pytest.raises(WebSocketDisconnect):
            for _ in range(200):
                ws.send_text(json.dumps({"type": "act", "seq": -1, "action": "pass"}))
                ws.receive_text()
    assert room.seq == f["seq"] and not room.match.is_over


def test_the_page_and_the_seat_link() -> None:
    room, client = _room()
    link = seat_link("http://127.0.0.1:8030", room, 0)
    assert link.endswith(f"/r/{room.code}#{room.seats[0].secret}")
    with client:
        page = client.get(f"/r/{room.code}")
        assert page.status_code == 200 and "WebSocket" in page.text and room.seats[0].secret not in page.text
        assert client.get("/r/nope").status_code == 404


def test_room_serve_refuses_a_bad_variant_or_agent_in_one_line() -> None:
    from click.testing import CliRunner

    from gouji_rules.cli import main

    r = CliRunner().invoke(main, ["room", "serve", "nosuch", "--port", "1"])
    assert r.exit_code == 1 and "unknown variant" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["room", "serve", "dagang", "--agents", "bogus"])
    assert r.exit_code == 2 and "--agents" in r.output


def test_an_agent_that_fails_is_replaced_and_the_room_goes_on() -> None:
    room, client = _room()

    class Broken:
        name = "broken"

        def start_hand(self, seed: int, seat: int) -> None:
            pass

        def act(self, obs, legal):  # type: ignore[no-untyped-def]
            raise RuntimeError("a bug in the agent")

    room.seats[1].agent = Broken()  # type: ignore[assignment]
    _play_seat_0(room, client)
    assert room.match.is_over


def test_a_binary_frame_is_refused_as_malformed_and_the_socket_stays() -> None:
    room, client = _room()
    with client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_bytes(b"\x00\x01")
        assert json.loads(ws.receive_text())["code"] == "malformed"
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        assert _until_mine(ws)["seat"] == 0


def test_one_server_holds_many_rooms_and_a_seat_link_opens_only_its_own() -> None:
    from gouji_rules.web.room_app import Rooms, create_rooms_app

    rooms = Rooms()
    a = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None)
    b = Room(dagang(), [PERSON] * 2 + ["greedy"] * 4, hands=1, seed=4, takeover=None)
    rooms.add(a, delay=0)
    rooms.add(b, delay=0)
    with TestClient(create_rooms_app(rooms)) as client:
        assert client.get(f"/r/{a.code}").status_code == 200 and client.get("/r/nope").status_code == 404
        with client.websocket_connect(f"/r/{b.code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": a.seats[0].secret}))
            assert json.loads(ws.receive_text())["code"] == "secret"
            ws.send_text(json.dumps({"type": "join", "secret": b.seats[1].secret}))
            view = json.loads(ws.receive_text())
            assert view["room"] == b.code and view["seat"] == 1
    with (
        TestClient(create_rooms_app(rooms)) as client,
        client.websocket_connect("/r/nope/ws") as ws,
        pytest.raises(WebSocketDisconnect),
    ):
        ws.receive_text()


def test_a_player_downloads_the_match_records_when_it_ends_and_gouji_verify_checks_them(tmp_path) -> None:
    import subprocess
    import sys

    room, client = _room()
    with client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        f = _until_mine(ws)
        ws.send_text(json.dumps({"type": "records"}))  # mid-match: the records would show every hand
        assert json.loads(ws.receive_text())["code"] == "notyet"
        while not f["over"]:
            ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))
            f = _until_mine(ws)
        ws.send_text(json.dumps({"type": "records"}))
        while (answer := json.loads(ws.receive_text()))["type"] != "records":
            pass
    assert len(answer["records"]) == 1
    path = tmp_path / "room.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in answer["records"]), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
