"""A room served to browsers and bots: one WebSocket per seat, the room's view pushed after every change.

The seat protocol (docs/room.md): the client opens ``/r/{code}/ws`` and sends ``{"type": "join",
"secret": K}`` (the secret of its seat's link); the server answers with a ``view`` frame
(:meth:`Room.view`) and sends a new one to every seat after each decision.  The client acts with
``{"type": "act", "seq": N, "action": "..."}``.  A spectator sends ``{"type": "watch"}`` instead of a
join and is sent ``watch`` frames (:meth:`Room.spectator_view`: the table, no hand).  A refused frame is answered ``{"type": "refused",
"code": ..., "zh": ...}`` to that socket only, and the game is unchanged.  Agents (and 托管) are
played by one task of each room, ``delay`` seconds a decision so people can follow.  One server holds
many rooms (:class:`Rooms`, by code): ``gouji room serve`` serves one, a club's online round several.

A socket that sends more than :data:`MAX_FRAMES` frames in a second that the game did not take (refused
frames, joins), or a frame over :data:`MAX_FRAME` bytes, is closed: a flood never reaches the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import GoujiError
from ..play.agents import make_agent
from ..room.core import Room, RoomRefused
from ..variant import Variant
from .room_host import host_page, host_state_response, no_room, seat_link
from .room_page import seat_page
from .room_watch import watch_page

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

MAX_WATCHERS = 64
"""spectators one room holds at once; the next is refused"""


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
        self.lock = asyncio.Lock()
        """held while an agent thinks (in a thread): a person's action waits for its answer"""
        self.watchers: set[WebSocket] = set()
        """the spectators' sockets"""
        self.after: Callable[[Room], object] | None = None
        """called with the room after each change it broadcasts (``--records`` writes the ended hands)"""
        self.sheet: str | None = None
        """the rules sheet's page, made at its first request"""
        self.adviser: Any = None
        """the learned agent's ranking of a seat's choices (AI建议), made at its first request"""
        self.advising = asyncio.Lock()
        self.reviewing = asyncio.Lock()
        """held while a seat's 复盘 is searched (one at a time a room: each takes seconds of a core)"""

    async def send(self, seat: int, *sockets: WebSocket) -> None:
        """Send ``sockets`` (of ``seat``; every socket of the seat when none is named) the seat's view now,
        built and encoded once however many sockets (phone and laptop) the seat has."""
        sockets = sockets or tuple(self.sockets[seat])
        if sockets:
            await _deliver(sockets, self.room.view(seat))

    async def broadcast(self) -> None:
        """Send every connected seat its own view (never another's), and the spectators theirs; then tell
        ``after`` (the records file) that the room changed."""
        for seat in self.sockets:
            await self.send(seat)
        await self.show()
        if self.after is not None:
            self.after(self.room)

    async def show(self, *sockets: WebSocket) -> None:
        """Send ``sockets`` (every spectator when none is named) the spectator's view, encoded once."""
        sockets = sockets or tuple(self.watchers)
        if sockets:
            await _deliver(sockets, self.room.spectator_view())


async def _deliver(sockets: tuple[WebSocket, ...], frame: dict[str, Any]) -> None:
    """Send ``frame`` to ``sockets``, encoded once; a socket that went away is dropped by its own loop."""
    text = json.dumps(frame, ensure_ascii=False)
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.send_text(text)


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


async def play_agents(hub: Hub, log: Callable[[str], None] = _stderr) -> None:
    """Let the agents (and 托管) decide as they are due, ``hub.delay`` seconds a decision, until the match
    ends; between decisions it waits for a person's action (``hub.wake``) or for 托管 to fall due.

    An agent thinks in a thread, off the event loop every room shares: a bot program that hangs stalls
    only its own room (its people's frames wait on ``hub.lock`` until it answers or overruns its time),
    never the other rooms."""
    room = hub.room
    while not room.match.is_over:
        if room.agent_due():
            # even with no delay, let the loop serve the other rooms and the people's frames between decisions
            await asyncio.sleep(hub.delay)
            async with hub.lock:
                question = room.agent_question()
                if question is None:
                    continue
                seq, agent, obs, legal = question
                try:
                    action = await asyncio.to_thread(agent.act, obs, legal)
                except Exception as e:  # an agent that fails (a missing extra, a bug) must not hang the room
                    seat = room.seats[room.match.turn]
                    log(f"room {room.code}: the {seat.who} agent failed ({e}); greedy plays for it")
                    seat.agent = make_agent("greedy")
                    continue
                try:
                    stepped = room.agent_answer(seq, action)
                except GoujiError as e:  # the room's store refused the decision (disk full, another server)
                    log(f"room {room.code}: {e}; trying again in 5 s")
                    await asyncio.sleep(5)
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
                    hub.watchers.discard(ws)
                    hub.sockets[seat].add(ws)
                    await hub.send(seat, ws)
                elif kind == "watch" and seat < 0:
                    if ws not in hub.watchers and len(hub.watchers) >= MAX_WATCHERS:
                        raise RoomRefused("full", "观战的人太多了，请稍后再来。", "too many spectators in this room")
                    hub.watchers.add(ws)
                    await hub.show(ws)
                elif kind == "act" and seat >= 0:
                    async with hub.lock:
                        room.act(room.seats[seat].secret, frame)
                    times.pop()  # an action the game took is no flood: only a seat's own turns bound those
                    hub.wake.set()
                    await hub.broadcast()
                elif kind == "hint" and seat >= 0:
                    await _advise(hub, ws, seat, frame.get("seq"))
                elif kind == "review" and seat >= 0:
                    await _review(hub, ws, seat, frame.get("hand"))
                elif kind == "records" and seat >= 0:
                    await ws.send_text(json.dumps({"type": "records", "jsonl": _records(room)}, ensure_ascii=False))
                else:
                    raise RoomRefused(
                        "malformed", "看不懂这条消息。", "expected a join, watch, act, hint, review or records frame"
                    )
            except RoomRefused as e:
                refusal = {"type": "refused", "code": e.code, "zh": e.zh, "en": str(e)}
                await ws.send_text(json.dumps(refusal, ensure_ascii=False))
            except GoujiError as e:  # the room's store refused the decision: it was not made
                refusal = {
                    "type": "refused",
                    "code": "server",
                    "zh": "服务器没能保存这一步，请稍后再出。",
                    "en": str(e),
                }
                await ws.send_text(json.dumps(refusal, ensure_ascii=False))
    except WebSocketDisconnect:
        pass
    finally:
        hub.watchers.discard(ws)
        if seat >= 0:
            hub.sockets[seat].discard(ws)


async def _advise(hub: Hub, ws: WebSocket, seat: int, seq: object) -> None:
    """Answer a seat's ``hint`` frame, on its own decision in a room that gives advice, with the learned
    agent's three first choices in words (by its Q, no search: milliseconds)."""
    room = hub.room
    if not room.advice:
        raise RoomRefused("off", "这个房间不给 AI 建议（比赛中关闭）。", "this room gives no advice")
    if room.match.is_over or room.match.turn != seat or seq != room.seq:
        raise RoomRefused("turn", "轮到你的时候才能看 AI 建议。", "advice is for the seat's own decision now")
    obs, legal = room.match.observation(seat), room.match.legal_actions()
    async with hub.advising:
        if hub.adviser is None:
            try:
                from ..review import Reviewer

                hub.adviser = await asyncio.to_thread(Reviewer)
            except ImportError as e:
                raise RoomRefused("unavailable", "这台服务器不能给 AI 建议（缺少 numpy）。", str(e)) from None
        choices = await asyncio.to_thread(hub.adviser.hint, obs, legal)
    answer = {"type": "hint", "seq": seq, "choices": [{"action": c.action, "zh": c.zh} for c in choices]}
    await ws.send_text(json.dumps(answer, ensure_ascii=False))


async def _review(hub: Hub, ws: WebSocket, seat: int, hand: object) -> None:
    """Answer a seat's ``review`` frame with the 复盘 page of its decisions in that finished hand, reviewed
    in a thread (seconds of search); one review at a time a room, the next refused as ``busy``."""
    from ..room.review import hand_record, review_page

    room = hub.room
    number, record = hand_record(room, hand)
    if hub.reviewing.locked():
        raise RoomRefused("busy", "正在复盘另一局，请稍等再点。", "a review of this room is already running")
    async with hub.reviewing:
        page = await asyncio.to_thread(review_page, room.variant, record, seat, number)
    await ws.send_text(json.dumps({"type": "review", "hand": number, "html": page}, ensure_ascii=False))


def _records(room: Room) -> str:
    """The match's records for a seat that asks, once the match is over (a hand's record holds every dealt
    hand, so before the end it would show a seat what the room does not), one record a line: sent as text,
    because a browser's JSON numbers lose the digits of a 63-bit seed past 2**53, and the record would no
    longer replay."""
    if not room.match.is_over:
        raise RoomRefused("notyet", "这一场打完后才能下载记录。", "the records are given once the match is over")
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in room.records())


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
            return no_room(HEADERS)
        title = hub.room.variant.title or hub.room.variant.name
        return HTMLResponse(seat_page(title), headers=HEADERS)

    async def rules(request: Request) -> Response:
        """GET /r/{code}/rules: the room's rules sheet, every rule in words (``gouji explain --html``)."""
        hub = rooms.find(request.path_params["code"])
        if hub is None:
            return no_room(HEADERS)
        if hub.sheet is None:
            from ..dsl.explain import sheet
            from ..dsl.printable import to_html

            hub.sheet = await asyncio.to_thread(lambda: to_html(sheet(hub.room.variant, "zh")))
        return HTMLResponse(hub.sheet, headers=HEADERS)

    async def watch(request: Request) -> Response:
        """GET /r/{code}/watch: the spectators' page (no secret: it shows nothing hidden)."""
        hub = rooms.find(request.path_params["code"])
        if hub is None:
            return no_room(HEADERS)
        return HTMLResponse(watch_page(hub.room.variant.title or hub.room.variant.name), headers=HEADERS)

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
            Route("/r/{code}/watch", watch, methods=["GET"]),
            Route("/r/{code}/rules", rules, methods=["GET"]),
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


def practice_room(variant: Variant, port: int, log: Callable[[str], None] = _stderr) -> tuple[Starlette, str]:
    """A room to try ``variant`` in (试打一局, 用这套规则打一局): the person at seat 1 and five ``simple``
    agents (numpy-free, stronger than greedy), one match of the variant's length, no 托管, served on
    127.0.0.1:``port``; its application and seat 1's link."""
    from ..room.core import PERSON

    room = Room(variant, [PERSON] + ["simple"] * 5, seed=secrets.randbits(63), takeover=None, advice=True)
    base = f"http://127.0.0.1:{port}"
    log(f"{variant.name}: a room at {base}/r/{room.code}")
    return create_room_app(room, delay=1.0, log=log), seat_link(base, room, 0)
