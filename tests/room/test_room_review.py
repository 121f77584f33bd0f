"""复盘 in the room (issue 33, deliver 6): a seat asks for the review of a hand that has ended and is sent
the phone page of its own decisions, valued against the learned agent."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("numpy")
from starlette.testclient import TestClient

from gouji_rules.catalog import dagang
from gouji_rules.room import PERSON, Room
from gouji_rules.web.room_app import create_room_app


def _answer(ws, kind: str) -> dict:
    while (f := json.loads(ws.receive_text()))["type"] not in (kind, "refused"):
        pass
    return f


def test_a_seat_reviews_a_finished_hand_of_its_own_and_not_one_still_being_played() -> None:
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=2, seed=3, takeover=None)
    with TestClient(create_room_app(room, delay=0)) as client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
        ws.send_text(json.dumps({"type": "review", "hand": 1}))
        assert _answer(ws, "review")["code"] == "notyet"  # seat 1 has not acted: hand 1 cannot have ended
        ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))  # the view _answer passed over
        while not room.records():
            f = json.loads(ws.receive_text())
            if f["type"] == "view" and f["yours"]:
                ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))
        for bad in (0, 3, "1", True, None):
            ws.send_text(json.dumps({"type": "review", "hand": bad}))
            assert _answer(ws, "review")["code"] == "malformed"
        ws.send_text(json.dumps({"type": "review", "hand": 1}))
        page = _answer(ws, "review")
    assert page["hand"] == 1 and "复盘 · 第1座" in page["html"] and "与AI一致率" in page["html"]
    assert "失误" in page["html"]


def test_a_spectator_cannot_ask_for_a_review() -> None:
    room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=0.0)
    room.run_agents()
    with TestClient(create_room_app(room, delay=0)) as client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
        ws.send_text(json.dumps({"type": "watch"}))
        ws.send_text(json.dumps({"type": "review", "hand": 1}))
        assert _answer(ws, "review")["code"] == "malformed"


def test_ai_advice_names_three_legal_choices_on_the_seats_own_decision_and_is_off_unless_the_room_gives_it() -> None:
    for advice in (False, True):
        room = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None, advice=advice)
        with TestClient(create_room_app(room, delay=0)) as client, client.websocket_connect(f"/r/{room.code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
            while not (f := json.loads(ws.receive_text()))["yours"]:
                pass
            ws.send_text(json.dumps({"type": "hint", "seq": f["seq"] - 1}))  # an old view's decision
            stale = _answer(ws, "hint")
            ws.send_text(json.dumps({"type": "hint", "seq": f["seq"]}))
            answer = _answer(ws, "hint")
        if not advice:
            assert stale["code"] == "off" and answer["code"] == "off"
            continue
        assert stale["code"] == "turn"
        legal = room.match.legal_actions()
        assert 1 <= len(answer["choices"]) <= 3
        assert all(c["zh"] and any(str(a) == c["action"] for a in legal) for c in answer["choices"])
