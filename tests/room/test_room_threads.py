"""A room's agents think off the event loop every room shares (docs/room.md, "Many rooms"): a bot program
that hangs holds up its own room only."""

from __future__ import annotations

import json
import shlex
import sys

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from gouji_rules.catalog import dagang
from gouji_rules.room import PERSON, Room
from gouji_rules.tournament.bot_agent import BotAgent
from gouji_rules.web.room_app import Rooms, create_rooms_app

HANG = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"


def test_a_hanging_bot_program_stalls_only_its_own_room() -> None:
    said: list[str] = []
    rooms = Rooms(log=said.append)
    stuck = Room(dagang(), ["greedy"] * 6, hands=1, seed=5, takeover=None)
    bots = [BotAgent(HANG, time_limit=2.0) for _ in range(6)]
    for seat, bot in zip(stuck.seats, bots, strict=True):
        seat.agent, seat.who = bot, "bot"
    live = Room(dagang(), [PERSON] + ["greedy"] * 5, hands=1, seed=3, takeover=None)
    rooms.add(stuck, delay=0)
    rooms.add(live, delay=0)
    try:
        with TestClient(create_rooms_app(rooms)) as client, client.websocket_connect(f"/r/{live.code}/ws") as ws:
            ws.send_text(json.dumps({"type": "join", "secret": live.seats[0].secret}))
            acted = 0
            while acted < 8:
                f = json.loads(ws.receive_text())
                if f["type"] == "view" and f["over"]:
                    break
                if f["type"] == "view" and f["yours"]:
                    ws.send_text(json.dumps({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]}))
                    acted += 1
            # the other room's bot is still thinking (its hello waits 10 s): nothing has given up on it yet
            assert stuck.seq == 0 and not said
            assert acted == 8 or live.match.is_over
            for bot in bots:  # before the server stops: its shutdown waits for the thread asking the bot
                bot.close()
    finally:
        for bot in bots:
            bot.close()
