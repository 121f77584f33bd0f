"""The room's host page (issue 33): the room code, a QR per person's seat, who plays each seat, the
match's length and scores as it goes.

The host's link is ``/r/{code}/host#SECRET`` (:attr:`Hub.host_secret`): the secret stays in the ``#``,
so it reaches no log; the page sends it as a header when it asks ``/r/{code}/host/state``.  The state
carries every seat's link and QR, so only the host secret opens it — a seat's secret does not.
"""

from __future__ import annotations

import functools
import html
import secrets
from collections.abc import Mapping, Sized
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from ..room.core import PERSON, Room
from .organiser import qr_svg


class Hub(Protocol):
    """What the host page reads of a served room (:class:`~gouji_rules.web.room_app.Hub` is one): the
    room, its host secret and the sockets open on each seat."""

    @property
    def room(self) -> Room:
        """The room served."""
        ...

    @property
    def host_secret(self) -> str:
        """The secret of the host page's link."""
        ...

    @property
    def sockets(self) -> Mapping[int, Sized]:
        """Each seat's open sockets."""
        ...

    @property
    def watchers(self) -> Sized:
        """The spectators' open sockets."""
        ...


SECRET_HEADER = "X-Host-Secret"


@functools.lru_cache(maxsize=256)
def _qr(link: str) -> str:
    """A seat link's QR, drawn once (4 ms each, on the event loop every room shares; the page polls)."""
    return qr_svg(link)


def seat_link(base: str, room: Room, seat: int) -> str:
    """The link a seat's person opens: the room's page, the seat's secret after ``#``."""
    return f"{base.rstrip('/')}/r/{room.code}#{room.seats[seat].secret}"


def watch_link(base: str, room: Room) -> str:
    """The spectators' page of ``room`` (no secret: it shows nothing hidden)."""
    return f"{base.rstrip('/')}/r/{room.code}/watch"


def host_link(base: str, hub: Hub) -> str:
    """The link the host opens: the room's host page, the host secret after ``#``."""
    return f"{base.rstrip('/')}/r/{hub.room.code}/host#{hub.host_secret}"


def is_host(hub: Hub, secret: object) -> bool:
    """Whether ``secret`` is the room's host secret (compared in constant time)."""
    return isinstance(secret, str) and secrets.compare_digest(secret.encode(), hub.host_secret.encode())


def host_state(hub: Hub, base: str) -> dict[str, Any]:
    """What the host page shows now: the room, each seat (who, connected sockets, a person's link and QR)
    and the match's progress."""
    room = hub.room
    m = room.match
    seats = []
    for i, seat in enumerate(room.seats):
        entry: dict[str, Any] = {
            "seat": i + 1,
            "who": seat.who,
            "connected": len(hub.sockets[i]),
            "taken_over": seat.taken_over,
        }
        if seat.who == PERSON:
            link = seat_link(base, room, i)
            entry["link"] = link
            entry["qr"] = _qr(link)
        seats.append(entry)
    return {
        "room": room.code,
        "title": room.variant.title or room.variant.name,
        "hands": m.n_hands,
        "hand_number": room.hand_number,
        "scores": list(m.scores),
        "over": m.is_over,
        "seq": room.seq,
        "seats": seats,
        "watch": watch_link(base, room),
        "watchers": len(hub.watchers),
    }


def no_room(headers: dict[str, str]) -> Response:
    """The answer to a room code this server does not hold."""
    return PlainTextResponse("没有这个房间。 No such room.", status_code=404, headers=headers)


def host_page(hub: Hub | None, headers: dict[str, str]) -> Response:
    """GET /r/{code}/host: the page (it holds nothing secret; its script asks for the state)."""
    if hub is None:
        return no_room(headers)
    title = hub.room.variant.title or hub.room.variant.name
    return HTMLResponse(HOST_PAGE.replace("{{title}}", html.escape(title)), headers=headers)


def host_state_response(hub: Hub | None, request: Request, base: str | None, headers: dict[str, str]) -> Response:
    """GET /r/{code}/host/state: the state as JSON, to the host secret only (403 otherwise)."""
    if hub is None:
        return no_room(headers)
    if not is_host(hub, request.headers.get(SECRET_HEADER)):
        return PlainTextResponse("这不是房主的链接。 Not the host's link.", status_code=403, headers=headers)
    return JSONResponse(host_state(hub, base or str(request.base_url)), headers=headers)


HOST_PAGE = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>房主 · {{title}}</title>
<style>
body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:0;padding:12px;max-width:900px}
h1{font-size:20px;margin:4px 0}.muted{color:#666;font-size:13px}#msg{color:#b00}
#seats{display:flex;flex-wrap:wrap;gap:12px}.seat{border:1px solid #ccc;border-radius:6px;padding:8px;width:260px}
.seat svg{width:200px;height:200px}.link{font-size:11px;word-break:break-all}
</style></head><body>
<h1>{{title}}　房间 <span id="code">…</span></h1>
<div id="progress" class="muted">读取中…</div>
<div id="msg" role="alert"></div>
<div id="seats"></div>
<p class="muted">观战链接（看不到任何人的牌）：<a id="watch" target="_blank" rel="noreferrer"></a>　<span id="watchers"></span></p>
<script>
const secret = decodeURIComponent(location.hash.slice(1));
const $ = (id) => document.getElementById(id);
const names = {person: "真人", learned: "学习型机器人", ismcts: "ISMCTS 机器人", greedy: "贪心机器人",
  simple: "简单机器人", random: "随机机器人"};
async function refresh() {
  let r;
  try { r = await fetch(location.pathname + "/state", {headers: {"X-Host-Secret": secret}, cache: "no-store"}); }
  catch (e) { $("msg").textContent = "连不上服务器。"; return; }
  if (!r.ok) { $("msg").textContent = r.status === 403 ? "这个链接不是房主的链接。" : "没有这个房间。"; return; }
  const s = await r.json(); $("msg").textContent = "";
  $("code").textContent = s.room;
  $("progress").textContent = (s.over ? "这一场打完了。" : "第 " + s.hand_number + " / " + s.hands + " 局") +
    "　比分 " + s.scores.join(" : ");
  const box = $("seats"); box.textContent = "";
  s.seats.forEach((seat) => {
    const d = document.createElement("div"); d.className = "seat"; d.dataset.seat = seat.seat;
    const h = document.createElement("div");
    h.textContent = "座位 " + seat.seat + "：" + (names[seat.who] || seat.who) +
      (seat.who === "person" ? (seat.connected ? "（已连接）" : "（未连接）") : "") + (seat.taken_over ? "　托管中" : "");
    d.appendChild(h);
    if (seat.qr) {
      const q = document.createElement("div"); q.innerHTML = seat.qr; d.appendChild(q);
      const a = document.createElement("a"); a.className = "link"; a.href = seat.link; a.textContent = seat.link;
      a.target = "_blank"; a.rel = "noreferrer"; d.appendChild(a);
    }
    box.appendChild(d);
  });
  $("watch").href = s.watch; $("watch").textContent = s.watch;
  $("watchers").textContent = s.watchers ? s.watchers + " 人在看" : "";
  if (!s.over) setTimeout(refresh, 2000);
}
refresh();
</script></body></html>
"""
