"""The room server's latency under load (issue 33): a real uvicorn server on 127.0.0.1 holding ``--rooms``
rooms, each with one scripted person and five agents (delay 0); six sockets per room, one joined for
every seat.  For each of the person's actions: the time from sending it until every seat of that room
has a view at least as new (``seq``).  Prints p50/p95/max over ``--actions`` actions; the target is p95
< 200 ms.  A benchmark, never a test.

    python benchmarks/room_latency.py --rooms 20 --actions 2000 --agents learned

The server runs in a child process (this script with ``--serve``), so the clients' work does not share
its interpreter; the clients speak WebSocket through wsproto (the ``web`` extra's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage


def serve(rooms_n: int, agents: str, hands: int, seed: int) -> None:
    """The child: serve the rooms, print their codes and secrets as one JSON line, run until killed."""
    import uvicorn

    from gouji_rules.catalog import dagang
    from gouji_rules.room import PERSON, Room
    from gouji_rules.web.room_app import Rooms, create_rooms_app

    rooms = Rooms()
    listed = []
    for i in range(rooms_n):
        room = Room(dagang(), [PERSON] + [agents] * 5, hands=hands, seed=seed + i, takeover=None)
        rooms.add(room, delay=0)
        listed.append({"code": room.code, "secrets": [s.secret for s in room.seats]})
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)  # connections wait in the backlog until uvicorn accepts them
    print(json.dumps({"port": sock.getsockname()[1], "rooms": listed}), flush=True)
    app = create_rooms_app(rooms)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, ws="wsproto")).run(sockets=[sock])


class Socket:
    """One client WebSocket over asyncio streams and wsproto."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.parts: list[str] = []
        self.frames: list[str] = []

    @classmethod
    async def open(cls, port: int, path: str) -> Socket:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        s = cls(reader, writer)
        writer.write(s.ws.send(Request(host=f"127.0.0.1:{port}", target=path)))
        while True:
            s.ws.receive_data(await reader.read(65536))
            if any(isinstance(e, AcceptConnection) for e in s._events()):
                return s

    def _events(self) -> list[Any]:
        out = []
        for e in self.ws.events():
            if isinstance(e, TextMessage):
                self.parts.append(e.data)
                if e.message_finished:
                    self.frames.append("".join(self.parts))
                    self.parts = []
            elif isinstance(e, Ping):
                self.writer.write(self.ws.send(e.response()))
            elif isinstance(e, CloseConnection):
                raise ConnectionError(f"closed by the server ({e.code})")
            out.append(e)
        return out

    def send(self, frame: dict[str, Any]) -> None:
        self.writer.write(self.ws.send(TextMessage(data=json.dumps(frame))))

    async def receive(self) -> dict[str, Any]:
        while not self.frames:
            data = await self.reader.read(65536)
            if not data:
                raise ConnectionError("the server went away")
            self.ws.receive_data(data)
            self._events()
        return json.loads(self.frames.pop(0))  # type: ignore[no-any-return]


async def play_room(port: int, code: str, secrets: list[str], want: int, out: list[float]) -> None:
    """One room: six sockets joined; seat 0 plays the first legal action whenever it is its turn; each
    action's latency (until all six seats saw its seq) goes to ``out`` until ``want`` are measured."""
    sockets = [await Socket.open(port, f"/r/{code}/ws") for _ in range(6)]
    for s, sock in zip(sockets, secrets, strict=True):
        s.send({"type": "join", "secret": sock})
    seen = [-1] * 6
    pending: list[tuple[int, float]] = []  # (seq the action makes, when it was sent)
    due: list[dict[str, Any]] = []  # seat 0's turn, played once the last action has reached every seat
    done = asyncio.Event()

    def settle() -> None:
        while pending and min(seen) >= pending[0][0]:
            out.append(time.perf_counter() - pending.pop(0)[1])
            if len(out) >= want:
                done.set()
        if due and not pending and not done.is_set():
            f = due.pop()
            pending.append((f["seq"] + 1, time.perf_counter()))
            sockets[0].send({"type": "act", "seq": f["seq"], "action": f["observation"]["legal"][0]})

    async def reader(seat: int) -> None:
        while not done.is_set():
            f = await sockets[seat].receive()
            if f.get("type") != "view" or f["seq"] < seen[seat]:
                continue
            seen[seat] = f["seq"]
            if seat == 0:
                due[:] = [f] if f["yours"] else []
                if f["over"]:
                    done.set()
            settle()

    tasks = [asyncio.create_task(reader(s)) for s in range(6)]
    await done.wait()
    for t in tasks:
        t.cancel()
    for s in sockets:
        s.writer.close()


async def clients(port: int, rooms: list[dict[str, Any]], actions: int) -> list[float]:
    out: list[float] = []
    each = -(-actions // len(rooms))
    per_room: list[list[float]] = [[] for _ in rooms]
    await asyncio.gather(*(play_room(port, r["code"], r["secrets"], each, per_room[i]) for i, r in enumerate(rooms)))
    for lat in per_room:
        out.extend(lat)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--actions", type=int, default=2000)
    ap.add_argument("--agents", default="learned")
    ap.add_argument("--hands", type=int, default=40, help="hands in each room's match (enough for its actions)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.serve:
        serve(a.rooms, a.agents, a.hands, a.seed)
        return
    print("python " + " ".join([os.path.relpath(__file__), *sys.argv[1:]]))
    child = subprocess.Popen([sys.executable, __file__, "--serve", *sys.argv[1:]], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        info = json.loads(child.stdout.readline())
        started = time.perf_counter()
        lat = asyncio.run(asyncio.wait_for(clients(info["port"], info["rooms"], a.actions), 540))
        took = time.perf_counter() - started
    finally:
        child.terminate()
        child.wait(10)
    if not lat:
        sys.exit("no action measured")
    ms = sorted(x * 1000 for x in lat)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(
        f"{a.rooms} rooms, {a.agents} agents, delay 0: {len(ms)} actions in {took:.1f} s; latency until every seat "
        f"has the update: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms; "
        f"load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
