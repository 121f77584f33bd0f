"""Seats played by bots: the built-in agents, and external programs speaking JSON lines.

The protocol is in docs/bot-protocol.md.  A bot gets one request per decision
and must answer within the time limit with one line ``{"action": "..."}``.
Everything that can go wrong with a program someone else wrote is caught here
and reported as a :class:`BotFault` (``crash``, ``timeout``, ``invalid_reply``,
``illegal``, ``error``); the runner then lets a fallback agent decide and logs
the fault.  A process that crashed or hung is killed and reaped at once (no
zombies) and started again for its next decision.

Replies are read with ``select`` on the pipe and ``os.read`` into our own
buffer, so a bot that prints half a line and stops cannot block the event.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import tempfile
import time
from typing import IO, Any, Protocol

from ..actions import Action, parse_action
from ..agents import make_agent
from ..cards import format_hand, format_set
from ..engine import Observation
from ..errors import GoujiError
from ..legal import Legal

PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20  # a reply longer than this is garbage
MAX_RESTARTS = 20  # per match: after this many restarts the seat is played by the fallback only


class BotFault(GoujiError):
    """A bot that did not give a usable decision; ``kind`` says how."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def observation_json(obs: Observation, legal: Legal) -> dict[str, Any]:
    """The request for one decision: what the seat may see, and the legal actions in text notation."""
    return {
        "type": "act",
        "seat": obs.seat,
        "mode": obs.mode,
        "hand": format_hand(obs.hand),
        "table": format_set(obs.table) if obs.table is not None else None,
        "table_owner": obs.table_owner,
        "cards_left": list(obs.cards_left),
        "active": list(obs.active),
        "finish": list(obs.finish),
        "point": list(obs.point),
        "no_head": list(obs.no_head),
        "burning": obs.burning,
        "free_for_all": obs.free_for_all,
        "events": [e.to_json() for e in obs.events],
        "legal": [str(a) for a in legal],
    }


class Player(Protocol):
    """Who decides for one seat: ``start_hand`` at each new hand, ``decide`` per decision."""

    name: str

    def start_hand(self, seed: int, seat: int, info: dict[str, Any]) -> None: ...

    def decide(self, obs: Observation, legal: Legal) -> Action: ...

    def end_match(self) -> None:
        """Called after each match; external bots keep their process across matches."""
        return None

    def close(self) -> None:
        """Release what the player holds (an external bot's process)."""
        return None


class BuiltinPlayer(Player):
    """A built-in agent (``random``, ``greedy``).  Its own exceptions count as faults too."""

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind
        self.agent = make_agent(kind)

    def start_hand(self, seed: int, seat: int, info: dict[str, Any]) -> None:
        self.agent.start_hand(seed, seat)

    def decide(self, obs: Observation, legal: Legal) -> Action:
        try:
            return self.agent.act(obs, legal)
        except Exception as e:  # a bug in an agent must not stop the event
            raise BotFault("error", f"{type(e).__name__}: {e}") from None


class ExternalPlayer(Player):
    """An external program: one process, JSON lines on stdin/stdout, a time limit per decision."""

    def __init__(self, name: str, command: str, time_limit: float, cwd: str | None = None) -> None:
        self.name = name
        self.argv = shlex.split(command)
        self.time_limit = time_limit
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr: IO[bytes] | None = None
        self.buffer = b""
        self.hand_start: dict[str, Any] | None = None
        self.start_sent = False
        self.spawned = False
        self.restarts = 0
        self.retired = False

    # -- the process ------------------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process; closed in _kill
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=self.cwd,
                bufsize=0,
            )
        except OSError as e:
            raise BotFault("crash", f"cannot start {' '.join(self.argv)!r}: {e.strerror or e}") from None
        self.buffer = b""
        self.proc = proc
        return proc

    def _stderr_tail(self) -> str:
        if self.stderr is None:
            return ""
        try:
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - 400))
            tail = self.stderr.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""
        return tail.splitlines()[-1] if tail else ""

    def _kill(self) -> None:
        """Stop the process now and reap it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for fh in (proc.stdin, proc.stdout):
            try:
                if fh is not None:
                    fh.close()
            except OSError:
                pass
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None

    def close(self) -> None:
        """End of the event: close stdin (the bot should exit on EOF), wait a moment, then kill."""
        proc = self.proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()

    def end_match(self) -> None:
        self.restarts = 0
        self.retired = False

    def _fault(self, kind: str, detail: str) -> BotFault:
        """Kill the process after a crash or a hang; it is started again for the next decision."""
        tail = self._stderr_tail()
        self._kill()
        return BotFault(kind, f"{detail}; stderr: {tail}" if tail else detail)

    def _send(self, msg: dict[str, Any]) -> None:
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        data = (json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            proc.stdin.write(data)
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            code = proc.poll()
            raise self._fault("crash", f"the bot exited (code {code})") from None

    def _read_line(self, deadline: float) -> bytes:
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fault("timeout", f"no reply within {self.time_limit:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                code = proc.wait()
                raise self._fault("crash", f"the bot exited (code {code})")
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                raise self._fault("invalid_reply", f"a reply line longer than {MAX_LINE} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    # -- the player -------------------------------------------------------------------------

    def start_hand(self, seed: int, seat: int, info: dict[str, Any]) -> None:
        self.hand_start = {"type": "start_hand", "protocol": PROTOCOL_VERSION, "seed": seed, "seat": seat, **info}
        self.start_sent = False
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._send(self.hand_start)
                self.start_sent = True
            except BotFault:
                pass  # reported at the next decision, when the bot is started again

    def decide(self, obs: Observation, legal: Legal) -> Action:
        if self.retired:
            raise BotFault("retired", "too many restarts in this match; the fallback plays this seat")
        if self.proc is None or self.proc.poll() is not None:
            self._kill()
            if self.restarts >= MAX_RESTARTS:
                self.retired = True
                raise BotFault("retired", f"restarted {MAX_RESTARTS} times in this match; the fallback plays on")
            if self.spawned:
                self.restarts += 1
            self.spawned = True
            self._spawn()
            self.start_sent = False
        if self.hand_start is not None and not self.start_sent:
            self._send(self.hand_start)  # a bot started mid-hand still learns the hand it is in
            self.start_sent = True
        deadline = time.monotonic() + self.time_limit
        self._send(observation_json(obs, legal))
        line = self._read_line(deadline)
        try:
            reply = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BotFault("invalid_reply", f"not JSON: {line[:80]!r}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("action"), str):
            raise BotFault("invalid_reply", f'expected {{"action": "..."}}, got {line[:80]!r}')
        text = reply["action"]
        try:
            action = parse_action(text)
        except GoujiError as e:
            raise BotFault("invalid_reply", f"cannot parse action {text!r}: {e}") from None
        if action not in legal:
            raise BotFault("illegal", f"{text!r} is not legal now (mode {obs.mode})")
        return action


def make_player(name: str, spec: str, time_limit: float) -> Player:
    """A seat's player from its stored spec: ``random``, ``greedy`` or ``cmd:COMMAND``."""
    if spec.startswith("cmd:"):
        return ExternalPlayer(name, spec[4:], time_limit)
    return BuiltinPlayer(name, spec)
