"""Servers started as their users start them, for the tests that open what they print."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def room_serve(*args: str, lines: int = 2) -> Iterator[dict[str, str]]:
    """``gouji room serve ARGS`` on a free port, its first ``lines`` lines of stdout as ``{who: link}``
    (``host``, ``seat 1`` …, in the order printed); the server is stopped on leaving."""
    cmd = [sys.executable, "-P", "-m", "gouji_rules.cli", "room", "serve", *args, "--port", str(free_port())]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        printed = [proc.stdout.readline().rstrip("\n") for _ in range(lines)]
        yield dict(line.split(": ", 1) for line in printed if ": " in line)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def killed(proc: subprocess.Popen[str]) -> Iterator[None]:
    """Run the block, then end the server with SIGKILL (mid-hand, nothing shut down cleanly), whatever
    the block did: the restart tests resume from what a killed server left."""
    try:
        yield
    finally:
        proc.kill()
        proc.wait()
