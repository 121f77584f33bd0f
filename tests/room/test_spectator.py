"""Spectators (issue 33, deliver 2): 「Spectators see nothing hidden until the hand ends.」  A spectator is
shown the table as every seat knows it, and is witness of no private event (docs/room.md, "What a seat
sees, and when")."""

from __future__ import annotations

import json

import pytest

from gouji_rules import catalog
from gouji_rules.game.cards import format_hand
from gouji_rules.room import PERSON, Room
from gouji_rules.room.scan import spectator_leaks


def _play(variant: str, seed: int) -> int:
    """A match of two hands played by agents, the spectator's view scanned at every decision; how many events the seats were shown differently (a witness saw more) along the way."""
    room = Room(catalog.resolve(variant), ["greedy"] * 6, hands=2, seed=seed, takeover=None)
    private = 0
    while not room.match.is_over:
        assert spectator_leaks(room) == []
        seen = [room.view(s)["observation"]["events"] for s in range(6)]
        private = max(private, sum(len({json.dumps(e) for e in k}) > 1 for k in zip(*seen, strict=True)))
        room.step_agent()
    return private


@pytest.mark.parametrize("variant", ["dagang", "dianshaomenla"])
def test_a_spectator_sees_no_hand_and_no_private_event(variant: str) -> None:
    private = _play(variant, 7)
    if variant == "dianshaomenla":
        assert private > 0  # 点: a 点 call's card reaches its two seats only; the spectator saw it redacted


def test_the_scan_finds_a_spectator_view_that_shows_a_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    room = Room(catalog.resolve("dagang"), ["greedy"] * 6, hands=1, seed=3, takeover=None)
    while sum(room.match.hands_now[2]) < 8:  # 预点 is declared before the deal
        room.step_agent()
    honest = Room.spectator_view

    def leaky(self: Room) -> dict:
        view = honest(self)
        view["observation"]["hand"] = format_hand(self.match.hands_now[2])
        return view

    monkeypatch.setattr(Room, "spectator_view", leaky)
    assert spectator_leaks(room) == ["hand of seat 2"]


def test_a_spectator_is_shown_the_dealt_hands_after_a_hand_only_in_a_friendly_room() -> None:
    for friendly in (True, False):
        room = Room(
            catalog.resolve("dagang"),
            [PERSON] + ["greedy"] * 5,
            hands=2,
            seed=5,
            takeover=0.0,
            show_hands_after=friendly,
        )
        while len(room.match.summaries) < 1:
            room.step_agent()
        shown = room.spectator_view()["last_hands"]
        assert (shown is not None and len(shown) == 6) == friendly


def test_a_spectator_socket_is_sent_the_table_and_cannot_act_or_take_the_records() -> None:
    from starlette.testclient import TestClient

    from gouji_rules.web.room_app import create_room_app

    room = Room(catalog.resolve("dagang"), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None)
    with TestClient(create_room_app(room, delay=0)) as client:
        assert "观战" in client.get(f"/r/{room.code}/watch").text
        with (
            client.websocket_connect(f"/r/{room.code}/ws") as watcher,
            client.websocket_connect(f"/r/{room.code}/ws") as ws,
        ):
            watcher.send_text(json.dumps({"type": "watch"}))
            first = json.loads(watcher.receive_text())
            assert first["type"] == "watch" and first["observation"]["hand"] == ""
            watcher.send_text(json.dumps({"type": "act", "seq": first["seq"], "action": "pass"}))
            assert json.loads(watcher.receive_text())["type"] == "refused"
            watcher.send_text(json.dumps({"type": "records"}))
            assert json.loads(watcher.receive_text())["type"] == "refused"
            ws.send_text(json.dumps({"type": "join", "secret": room.seats[0].secret}))
            checked = 0
            while checked < 3:  # the person plays; each of their moves reaches the spectator as a watch frame
                while not (f := json.loads(ws.receive_text()))["yours"]:
                    pass
                hand = f["observation"]["hand"]
                checked += len(hand) > 20  # dealt (预点 comes before the deal)
                ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))
                while (w := json.loads(watcher.receive_text()))["seq"] <= f["seq"]:
                    pass
                assert w["type"] == "watch" and (not hand or hand not in json.dumps(w, ensure_ascii=False))
