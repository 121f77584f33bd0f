"""A server the club's home starts in a thread is reachable the moment its port is known: the home sends
the browser there at once (a browser refused once shows an error page and never retries)."""

import socket

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from gouji_rules.web.launch import launch_thread


def _app(port: int) -> Starlette:
    return Starlette(routes=[Route("/", lambda request: PlainTextResponse(str(port)))])


def test_a_launched_night_accepts_a_connection_before_its_thread_serves() -> None:
    refused = 0
    for _ in range(20):
        port = launch_thread(_app)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        except ConnectionRefusedError:
            refused += 1
    assert refused == 0
