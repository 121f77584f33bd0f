"""Serving an application from a thread on a port the system picks: how the club's home starts a night,
an editor or a practice room beside itself (and how the editor starts its room), without either page
importing the other."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

from starlette.types import ASGIApp

Launch = Callable[[Callable[[int], ASGIApp]], int]
"""Starts an application on a free port of 127.0.0.1 and returns the port; the application is made for
that port (the editor's cookie and address name it)."""


def _serve(address: str, name: str, make_app: Callable[[int], ASGIApp]) -> int:
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((address, 0))
    sock.listen(128)  # before the redirect: a browser that comes before the thread serves waits, never refused
    port = int(sock.getsockname()[1])
    app = make_app(port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, server_header=False))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=f"{name}-{port}", daemon=True).start()
    return port


def launch_thread(make_app: Callable[[int], ASGIApp]) -> int:
    """The real :data:`Launch`: bind 127.0.0.1 on a port the system picks, then serve from a daemon thread
    (it stops with ``gouji club``)."""
    return _serve("127.0.0.1", "gouji-club", make_app)


def launch_lan_thread(make_app: Callable[[int], ASGIApp]) -> int:
    """A :data:`Launch` for the phones of the room: bind every address (``0.0.0.0``, as ``gouji event serve
    --host 0.0.0.0`` does) on a port the system picks, then serve from a daemon thread."""
    return _serve("0.0.0.0", "gouji-club-lan", make_app)  # every address: the club room's phones must reach it


__all__ = ["Launch", "launch_lan_thread", "launch_thread"]
