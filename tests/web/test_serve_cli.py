"""``gouji event serve`` refuses what it cannot serve with one line and exit 1 (2 for usage), before listening."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from .conftest import make_event


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", "event", "serve", *args], capture_output=True, text=True, timeout=60
    )


def test_serve_refuses_files_it_cannot_serve(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_text("name\nA\n", encoding="utf-8")
    bots = tmp_path / "bots.sqlite"
    made = subprocess.run(
        [sys.executable, "-m", "gouji_rules.cli", "event", "new", str(bots), "--name", "b",
         "--bots", "a=random,b=random,c=random,d=random,e=random,f=random"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    cases = {
        str(tmp_path / "missing.sqlite"): "no such event file",
        str(tmp_path / "x.csv"): "not an event file",
        str(bots): "a bot event is played by 'gouji event run', not served",
    }
    for path, message in cases.items():
        r = serve(path)
        assert r.returncode == 1 and message in r.stderr and "Traceback" not in r.stderr, (path, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1


def test_serve_says_when_it_cannot_listen(tmp_path: Path) -> None:
    event = make_event(tmp_path / "e.sqlite")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = serve(str(event), "--port", str(port))
    assert r.returncode == 1 and f"cannot listen on 127.0.0.1 port {port}" in r.stderr
    assert "Traceback" not in r.stderr
    usage = serve(str(event), "--public-url", "ftp://x")
    assert usage.returncode == 2
