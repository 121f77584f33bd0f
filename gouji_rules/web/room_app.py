"""A room served to browsers and bots: one WebSocket per seat, the room's view pushed after every change.

The seat protocol (docs/room.md): the client opens ``/r/{code}/ws`` and sends ``{"type": "join",
"secret": K}`` (the secret of its seat's link); the server answers with a ``view`` frame
(:meth:`Room.view`) and sends a new one to every seat after each decision.  The client acts with
``{"type": "act", "seq": N, "action": "..."}``; a refused frame is answered ``{"type": "refused",
"code": ..., "zh": ...}`` to that socket only, and the game is unchanged.  Agents (and 托管) are
played by one task of each room, ``delay`` seconds a decision so people can follow.  One server holds
many rooms (:class:`Rooms`, by code): ``gouji room serve`` serves one, a club's online round several.

A socket that sends more than :data:`MAX_FRAMES` frames in a second that the game did not take (refused
frames, joins), or a frame over :data:`MAX_FRAME` bytes, is closed: a flood never reaches the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..play.agents import make_agent
from ..room.core import Room, RoomRefused
from .room_host import host_page, host_state_response

MAX_FRAME = 4096
"""bytes a seat's frame may have (an action's text is a few dozen)"""
MAX_FRAMES = 20
"""frames a socket may send in one second, besides the actions the game took"""
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "connect-src 'self'",
}


class Hub:
    """One room served: the sockets of each seat, sending each its view, and the task of its agents."""

    def __init__(self, room: Room, delay: float = 1.0) -> None:
        self.room = room
        self.delay = delay
        """seconds an agent's decision, so people can follow (0: none)"""
        self.sockets: dict[int, set[WebSocket]] = {s: set() for s in range(6)}
        self.host_secret = secrets.token_urlsafe(16)
        """the secret of the host page's link (:mod:`.room_host`), a seat's secret opens no host page"""
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        """set when a person acts, so the agents' task need not poll to see that an agent is due"""

    async def send(self, seat: int, ws: WebSocket) -> None:
        """Send ``ws`` (a socket of ``seat``) the seat's view now."""
        with contextlib.suppress(Exception):  # a socket that went away is dropped by its own loop
            await ws.send_text(json.dumps(self.room.view(seat), ensure_ascii=False))

    async def broadcast(self) -> None:
        """Send every connected seat its own view (never another's), built and encoded once per seat however
        many sockets (phone and laptop) the seat has."""
        for seat, sockets in self.sockets.items():
            if not sockets:
                continue
            text = json.dumps(self.room.view(seat), ensure_ascii=False)
            for ws in list(sockets):
                with contextlib.suppress(Exception):  # a socket that went away is dropped by its own loop
                    await ws.send_text(text)


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


async def play_agents(hub: Hub, log: Callable[[str], None] = _stderr) -> None:
    """Let the agents (and 托管) decide as they are due, ``hub.delay`` seconds a decision, until the match
    ends; between decisions it waits for a person's action (``hub.wake``) or for 托管 to fall due."""
    room = hub.room
    while not room.match.is_over:
        if room.agent_due():
            # even with no delay, let the loop serve the other rooms and the people's frames between decisions
            await asyncio.sleep(hub.delay)
            try:
                stepped = room.step_agent()
            except Exception as e:  # an agent that fails (a missing extra, a bug) must not hang the room
                seat = room.seats[room.match.turn]
                log(f"room {room.code}: the {seat.who} agent failed ({e}); greedy plays for it")
                seat.agent = make_agent("greedy")
                continue
            if stepped:
                await hub.broadcast()
            continue
        hub.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(hub.wake.wait(), 0.2)


class Rooms:
    """The rooms one server holds, by code (python-chess's registry shape: add, find).  A room added while
    the server runs starts its agents at once; rooms added before start with the server."""

    def __init__(self, log: Callable[[str], None] = _stderr) -> None:
        self.hubs: dict[str, Hub] = {}
        self.log = log
        self.running = False
        self.base: str | None = None
        """the address the phones reach the server at, for the host page's QR codes (None: the host's own)"""

    def add(self, room: Room, delay: float = 1.0) -> Hub:
        """Serve ``room`` (its agents ``delay`` seconds a decision); its hub."""
        hub = Hub(room, delay)
        self.hubs[room.code] = hub
        if self.running:
            self.start(hub)
        return hub

    def find(self, code: str) -> Hub | None:
        """The hub of the room ``code``, or None."""
        return self.hubs.get(code) if isinstance(code, str) else None

    def start(self, hub: Hub) -> None:
        """Start ``hub``'s agents (in the running event loop)."""
        if hub.task is None:
            hub.wake = asyncio.Event()  # of this loop: a test's client may run the app in a loop of its own
            hub.task = asyncio.get_running_loop().create_task(play_agents(hub, self.log))

    async def stop(self) -> None:
        """Stop every room's agents (the server is going down; the rooms stay as they are)."""
        self.running = False
        for hub in self.hubs.values():
            if hub.task is not None:
                hub.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await hub.task
                hub.task = None


def _no_room() -> Response:
    return PlainTextResponse("没有这个房间。 No such room.", status_code=404, headers=HEADERS)


async def _socket(hub: Hub, ws: WebSocket) -> None:
    """The seat protocol (the module's docstring) on one accepted socket of ``hub``'s room."""
    room = hub.room
    seat = -1
    times: list[float] = []
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if not isinstance(text, str):  # a binary frame: the protocol is JSON text
                text = ""
            now = time.monotonic()
            times = [t for t in times if now - t < 1.0] + [now]
            if len(text) > MAX_FRAME or len(times) > MAX_FRAMES:
                await ws.close(code=4429)
                return
            try:
                frame: Any = json.loads(text)
            except ValueError:
                frame = None
            kind = frame.get("type") if isinstance(frame, dict) else None
            try:
                if kind == "join":
                    seat = room.seat_of(frame.get("secret", ""))
                    hub.sockets[seat].add(ws)
                    await hub.send(seat, ws)
                elif kind == "act" and seat >= 0:
                    room.act(room.seats[seat].secret, frame)
                    times.pop()  # an action the game took is no flood: only a seat's own turns bound those
                    hub.wake.set()
                    await hub.broadcast()
                elif kind == "records" and seat >= 0:
                    await ws.send_text(json.dumps({"type": "records", "records": _records(room)}, ensure_ascii=False))
                else:
                    raise RoomRefused("malformed", "看不懂这条消息。", "expected a join, act or records frame")
            except RoomRefused as e:
                refusal = {"type": "refused", "code": e.code, "zh": e.zh, "en": str(e)}
                await ws.send_text(json.dumps(refusal, ensure_ascii=False))
    except WebSocketDisconnect:
        pass
    finally:
        if seat >= 0:
            hub.sockets[seat].discard(ws)


def _records(room: Room) -> list[dict[str, Any]]:
    """The match's records for a seat that asks, once the match is over: a hand's record holds every dealt
    hand, so before the end it would show a seat what the room does not (in an event room, at all)."""
    if not room.match.is_over:
        raise RoomRefused("notyet", "这一场打完后才能下载记录。", "the records are given once the match is over")
    return room.records()


def create_rooms_app(rooms: Rooms) -> Starlette:
    """The application of a server of rooms: each room's seat page and sockets, and its agents' task."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        rooms.running = True
        for hub in rooms.hubs.values():
            rooms.start(hub)
        try:
            yield
        finally:
            await rooms.stop()

    async def page(request: Request) -> Response:
        """GET /r/{code}: the seat's page (its secret travels in the link's ``#`` part, never to a log)."""
        hub = rooms.find(request.path_params["code"])
        if hub is None:
            return _no_room()
        title = hub.room.variant.title or hub.room.variant.name
        return HTMLResponse(PAGE.replace("{{title}}", html.escape(title)), headers=HEADERS)

    async def host(request: Request) -> Response:
        """GET /r/{code}/host: the host page (its secret in the link's ``#``)."""
        return host_page(rooms.find(request.path_params["code"]), HEADERS)

    async def host_state(request: Request) -> Response:
        """GET /r/{code}/host/state: the host page's state, to the host secret only."""
        return host_state_response(rooms.find(request.path_params["code"]), request, rooms.base, HEADERS)

    async def socket(ws: WebSocket) -> None:
        """GET /r/{code}/ws: the seat protocol."""
        await ws.accept()
        hub = rooms.find(ws.path_params["code"])
        if hub is None:
            await ws.close(code=4404)
            return
        await _socket(hub, ws)

    app = Starlette(
        routes=[
            Route("/r/{code}", page, methods=["GET"]),
            Route("/r/{code}/host", host, methods=["GET"]),
            Route("/r/{code}/host/state", host_state, methods=["GET"]),
            WebSocketRoute("/r/{code}/ws", socket),
        ],
        lifespan=lifespan,
    )
    app.state.rooms = rooms
    return app


def create_room_app(room: Room, delay: float = 1.0, log: Callable[[str], None] = _stderr) -> Starlette:
    """The application of one room (``gouji room serve``): a server of rooms holding just this one
    (``log`` hears of an agent that failed)."""
    rooms = Rooms(log)
    app = create_rooms_app(rooms)
    app.state.hub = rooms.add(room, delay)
    app.state.room = room
    return app


def seat_link(base: str, room: Room, seat: int) -> str:
    """The link a seat's person opens: the room's page, the seat's secret after ``#``."""
    return f"{base.rstrip('/')}/r/{room.code}#{room.seats[seat].secret}"


PAGE = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{title}}</title>
<style>
body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:0;padding:12px;max-width:640px}
h1{font-size:18px;margin:4px 0}.muted{color:#666;font-size:13px}
#hand{font-size:20px;letter-spacing:1px;word-break:break-all;margin:8px 0}
#acts button{font-size:17px;margin:4px;padding:10px 12px;min-width:56px}
#msg{color:#b00;min-height:1.2em}
</style></head><body>
<h1>{{title}}</h1>
<div class="muted" id="status">连接中…</div>
<div>桌上：<span id="table">—</span></div>
<div>我的牌：</div><div id="hand"></div>
<div id="msg" role="alert"></div>
<div id="acts"></div>
<div class="muted" id="scores"></div>
<script>
const secret = decodeURIComponent(location.hash.slice(1));
const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname + "/ws");
let view = null;
const $ = (id) => document.getElementById(id);
ws.onopen = () => ws.send(JSON.stringify({type: "join", secret: secret}));
ws.onclose = () => { $("status").textContent = "连接断开，请刷新页面。"; };
ws.onmessage = (ev) => {
  const f = JSON.parse(ev.data);
  if (f.type === "refused") { $("msg").textContent = f.zh; return; }
  if (f.type === "records") {  // one record a line: the file gouji verify and gouji replay read
    const text = f.records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], {type: "application/x-ndjson"}));
    a.download = "room-" + view.room + ".jsonl"; document.body.appendChild(a); a.click(); a.remove();
    return;
  }
  view = f; $("msg").textContent = "";
  const o = f.observation;
  $("status").textContent = f.over ? "这一场打完了。" :
    (f.yours ? "轮到你了：" + f.mode_zh : (f.taken_over[f.seat] ? "托管中：机器人替你出牌，出一手就收回。" : "等待座位 " + (f.turn + 1) + "…"));
  $("table").textContent = o.table || "—";
  $("hand").textContent = o.hand || "（没有牌）";
  $("scores").textContent = "第 " + f.hand_number + " / " + f.hands + " 局　比分 " + f.scores.join(" : ") + "　我是座位 " + (f.seat + 1);
  const acts = $("acts"); acts.textContent = "";
  if (f.over) {
    const b = document.createElement("button");
    b.id = "records"; b.textContent = "下载记录";
    b.onclick = () => ws.send(JSON.stringify({type: "records"}));
    acts.appendChild(b);
  }
  if (f.yours) {
    o.legal.forEach((a, i) => {
      const b = document.createElement("button");
      b.textContent = f.labels[i] || a;
      b.onclick = () => ws.send(JSON.stringify({type: "act", seq: f.seq, action: a}));
      acts.appendChild(b);
    });
  }
};
</script></body></html>
"""
