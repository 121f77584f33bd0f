"""The rules editor's door: no request reaches it without the secret ``gouji edit`` printed.

The editor reads and writes the organiser's files, and 127.0.0.1 is reachable by every account
and every program of the machine, so being local proves nothing.  As Jupyter does, each start
makes a new token (``secrets.token_urlsafe``: 256 bits); the address printed at start carries it
(``?token=…``).  The first visit with it gets a cookie holding it (HttpOnly, SameSite=Strict,
Path=/) and is sent on to the same address without the token, so that it stays neither in the
history nor in a Referer.  Every later request, the page, its posts, the live check, the report
frame and the static files alike, must carry the cookie; anything else gets 403 and a short page
in Chinese saying to open the address ``gouji edit`` printed.  Tokens are compared in constant time.
"""

from __future__ import annotations

import hmac
import urllib.parse
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_PARAM = "token"


def denied_page(name: str, command: str, short: str, english: str) -> str:
    """The 403 page of a token gate: which printed address to open, Chinese first.  ``name`` is the page's
    title and heading, ``short`` what the Chinese sentence calls it, ``english`` the paragraph in English."""
    return f"""<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{name}：需要启动时的地址</title></head>
<body><main>
<h1>{name}</h1>
<p>请打开 <code>{command}</code> 启动时打印的地址（带 <code>?token=…</code> 的那一行）。
没有这个地址就不能打开{short}：它会读写这台电脑上的文件。</p>
<p lang="en">{english}</p>
</main></body></html>
"""


DENIED = denied_page(
    "规则编辑器",
    "gouji edit",
    "编辑器",
    "Open the address <code>gouji edit</code> printed when it started (the one with\n"
    "<code>?token=…</code>): the editor reads and writes this machine's files, so it opens for no one else.",
)


def cookie_name(port: int) -> str:
    """One cookie per port: browsers share cookies between the ports of 127.0.0.1, so two editors
    started side by side must not overwrite each other's."""
    return f"gouji_edit_{port}"


def same_secret(sent: str, token: str) -> bool:
    """Whether ``sent`` is the token, compared in constant time so that a guesser learns nothing from how long a
    refusal takes; a token sent with characters UTF-8 cannot hold is simply wrong, not a 500."""
    return hmac.compare_digest(sent.encode("utf-8", "replace"), token.encode("utf-8"))


class TokenGate:
    """ASGI middleware: lets through only requests that carry ``token`` (first in the URL, then as a cookie)."""

    def __init__(self, app: ASGIApp, token: str, port: int, hosts: tuple[str, ...], headers: Mapping[str, str]) -> None:
        self.app = app
        self.token = token
        self.cookie = cookie_name(port)
        self.hosts = hosts
        self.headers = dict(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # no websockets here: closed before anything is read
            await send({"type": "websocket.close", "code": 1008})
            return
        answer = self.answer(Request(scope))
        if answer is None:
            await self.app(scope, receive, send)
        else:
            await answer(scope, receive, send)

    def answer(self, request: Request) -> Response | None:
        """The gate's own answer (a refusal, or the redirect after the first visit), or None: let it through."""
        if host_of(request) not in self.hosts:
            return self.denied()
        sent = request.query_params.getlist(TOKEN_PARAM)
        if sent:
            if len(sent) != 1 or not same_secret(sent[0], self.token):
                return self.denied()
            if request.method not in ("GET", "HEAD"):
                return None
            rest = [(k, v) for k, v in request.query_params.multi_items() if k != TOKEN_PARAM]
            where = urllib.parse.quote(request.url.path) + ("?" + urllib.parse.urlencode(rest) if rest else "")
            resp = RedirectResponse(where, status_code=303, headers={**self.headers, "Referrer-Policy": "no-referrer"})
            resp.set_cookie(self.cookie, self.token, httponly=True, samesite="strict", path="/")
            return resp
        if same_secret(request.cookies.get(self.cookie, ""), self.token):
            return None
        return self.denied()

    def denied(self) -> Response:
        """The 403 page in Chinese first, saying to open the address ``gouji edit`` printed: a visitor without the
        token learns how to get in, and nothing else."""
        return HTMLResponse(DENIED, status_code=403, headers=self.headers)


def host_of(request: Request) -> str:
    """The name the request asked for, without its port (``[::1]`` keeps its brackets)."""
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.split(":", 1)[0]


__all__ = ["TOKEN_PARAM", "TokenGate", "cookie_name", "denied_page", "host_of", "same_secret"]
