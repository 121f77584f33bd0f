"""Seats played by bots: the built-in agents, and external programs speaking JSON lines.

The protocol is in docs/bot-protocol.md.  A bot answers a ``hello`` when it starts
(the handshake), then gets one request per decision and must answer within the
time limit with one line ``{"id": ID, "action": "..."}`` (or ``{"id": ID, "index": K}``).  Every message carries
an ``id``; a line that does not answer the request being waited for is skipped
and noted (a stray line), so one stray line never puts a bot out of step.  The bot's hello
answer chooses the version of the messages (:mod:`.protocol`: 2, or 3 with 64-bit values as strings).

Everything that can go wrong with a program someone else wrote is caught here
and reported as a :class:`BotFault` (``crash``, ``timeout``, ``invalid_reply``,
``illegal``, ``error``): any reply, however long, deep or malformed, becomes a
fault whose detail is clipped (:func:`clip`), never an exception.  The runner then
lets a fallback agent decide (or, under ``play.wrong_play: lose_turn``, the seat
loses its turn) and logs the fault.

Each bot runs in its own process group (a new session), so the whole group, the
bot's own children included, is killed when the bot crashes, hangs or the event
ends.  Replies and stderr are read with ``select`` and ``os.read`` into bounded
buffers: a bot that prints half a line and stops cannot block the event, and one
that floods stderr keeps only its last :data:`STDERR_KEEP` bytes (the size is
noted), which go into the fault's detail.  Messages to the bot are written without
blocking, under the same time limit as its reply, while its output is read: a bot
that writes without reading its input fills both pipes and is a ``timeout``, never
a runner stuck in ``write()``.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import time
from collections import deque
from typing import Any, Protocol

from .. import inputs
from ..errors import GoujiError
from ..game.actions import Action, parse_action
from ..game.cards import SYMBOLS, format_hand, format_set
from ..game.legal import Legal
from ..play.agents import make_agent
from ..play.observe import Observation
from . import protocol
from .protocol import PROTOCOL_VERSION

MAX_LINE = 64 * 1024  # a reply line longer than this is garbage: the bot is stopped and started again
MAX_RESTARTS = 20  # per match: after this many restarts the seat is played by the fallback only
FAILED_STARTS_MAX = 2  # restarts in a row whose hello failed, after which the seat is retired for the match
HANDSHAKE_LIMIT = 10.0  # seconds a bot has to start and answer hello
DETAIL_KEEP = 200  # characters of a bot's output kept in a fault's detail
STDERR_KEEP = 4096  # the last bytes of a bot's stderr kept (per process); the rest is counted, not stored
CLOSE_GRACE = 1.0  # seconds a bot has to exit once its stdin is closed
LEGAL_LIST_MAX = 256  # at most this many legal actions are listed as text in an act message
EXIT_POLL = 0.1  # seconds between checks that a bot still runs while its reply is awaited
BOM = b"\xef\xbb\xbf"
MAX_PENDING = 4096  # lines read and not yet taken, at most (more while a message is written are stray)


class BotFault(GoujiError):
    """A bot that did not give a usable decision; ``kind`` says how."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def clip(data: bytes | str, keep: int = DETAIL_KEEP) -> str:
    """At most ``keep`` characters of a bot's output, with the full size noted when cut."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if len(text) <= keep:
        return repr(text)
    size = f"{len(data):,} bytes" if isinstance(data, bytes) else f"{len(text):,} characters"
    return f"{text[:keep]!r}… ({size})"


def legal_json(legal: Legal) -> dict[str, Any]:
    """The legal actions compactly: lead boxes as ranges, following sets and the other actions as text.

    Index ``k`` (``"index": k`` in a reply) counts boxes first, each in mixed radix (``count`` outermost,
    then ``twos``, ``sj``, ``bj``, ``top``), then ``sets``, then ``extras``: the order of :class:`Legal`.
    """
    boxes = [
        {
            "rank": SYMBOLS[b[0]],
            "count": [b[1], b[2]],
            "twos": [0, b[3]],
            "sj": [b[4], b[5]],
            "bj": [b[6], b[7]],
            "top": [b[8], b[9]],
            "size": n,
        }
        for b, n in zip(legal.boxes, legal.sizes, strict=True)
    ]
    return {
        "kind": "burn" if legal.burn else "play",
        "boxes": boxes,
        "sets": [format_set(cs) for cs in legal.sets],
        "extras": [str(a) for a in legal.extras],
    }


def observation_json(obs: Observation, legal: Legal) -> dict[str, Any]:
    """The request for one decision: what the seat may see, and the legal actions.

    ``legal_count`` and ``legal_compact`` describe every legal action; ``legal`` lists them all as text
    when there are at most :data:`LEGAL_LIST_MAX`, otherwise an even spread of that many (all legal), so
    a bot that picks from ``legal`` keeps working while a big lead no longer costs hundreds of kilobytes.
    """
    n = len(legal)
    if n <= LEGAL_LIST_MAX:
        listed = [str(a) for a in legal]
    else:
        listed = [str(legal[i * n // LEGAL_LIST_MAX]) for i in range(LEGAL_LIST_MAX)]
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
        "legal_count": n,
        "legal_compact": legal_json(legal),
        "legal": listed,
    }


def reply_action(reply: dict[str, Any], legal: Legal, mid: int, mode: str) -> Action:
    """The action a reply names, by ``"action"`` text or by ``"index"`` into the legal actions; checked legal."""
    if "index" in reply and "action" not in reply:
        k = reply["index"]
        if not isinstance(k, int) or isinstance(k, bool):
            raise BotFault("invalid_reply", f"index should be an integer, got {clip(json.dumps(k))}")
        if not 0 <= k < len(legal):
            raise BotFault("illegal", f"index {clip(str(k))} is outside 0..{len(legal) - 1} (mode {mode})")
        return legal[k]
    text = reply.get("action")
    if not isinstance(text, str):
        raise BotFault(
            "invalid_reply",
            f'expected {{"id": {mid}, "action": "..."}} or {{"id": {mid}, "index": K}}, got {clip(json.dumps(reply))}',
        )
    try:
        action = parse_action(text)
    except GoujiError as e:
        raise BotFault("invalid_reply", f"cannot parse action {clip(text)}: {clip(str(e))}") from None
    if action not in legal:
        raise BotFault("illegal", f"{clip(text)} is not legal now (mode {mode})")
    return action


class Player(Protocol):
    """Who decides for one seat: ``start_hand`` at each new hand, ``decide`` per decision."""

    name: str

    def start_hand(self, seed: int, seat: int, info: dict[str, Any]) -> None:
        """A new hand begins at this seat: the player learns its seed and seat before its first decision."""
        ...

    def decide(self, obs: Observation, legal: Legal) -> Action:
        """The player's action for this decision; raises BotFault when it fails, so the event's fallback plays the seat
        instead."""
        ...

    def notes(self) -> list[tuple[str, str]]:
        """Faults noted during the last decision that did not stop it (stray lines): (kind, detail)."""
        return []

    def end_match(self) -> None:
        """Called after each match; external bots keep their process across matches."""
        return None

    def close(self) -> None:
        """Release what the player holds (an external bot's process group)."""
        return None


class BuiltinPlayer(Player):
    """A built-in agent (``random``, ``greedy``).  Its own exceptions count as faults too."""

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind
        self.agent = make_agent(kind)

    def start_hand(self, seed: int, seat: int, info: dict[str, Any]) -> None:
        """Pass the hand's start to the built-in agent."""
        self.agent.start_hand(seed, seat)

    def decide(self, obs: Observation, legal: Legal) -> Action:
        """The agent's action; an exception inside the agent becomes a BotFault, since a bug in one bot must not stop
        the event."""
        try:
            return self.agent.act(obs, legal)
        except Exception as e:  # a bug in an agent must not stop the event
            raise BotFault("error", f"{type(e).__name__}: {clip(str(e))}") from None


class _Stderr:
    """A bot's stderr, drained as it comes: the last STDERR_KEEP bytes and the total size.

    The last bytes, because the error that explains a crash (a traceback, ``node``'s stack) is
    what a dying program writes last; the first line of a traceback may be lost, its end is not."""

    def __init__(self) -> None:
        self.tail = b""
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        self.tail = (self.tail + chunk[-STDERR_KEEP:])[-STDERR_KEEP:]

    def summary(self) -> str:
        """``stderr (N bytes[, the last K kept]):`` and the kept text on the lines below, made safe
        to print (control characters escaped, bytes that are not UTF-8 replaced)."""
        text = self.tail.decode("utf-8", "replace").strip()
        if not text:
            return ""
        more = f", the last {STDERR_KEEP:,} kept" if self.size > STDERR_KEEP else ""
        safe = "".join(c if c.isprintable() or c in "\n\t" else ascii(c)[1:-1] for c in text)
        return f"stderr ({self.size:,} bytes{more}):\n{safe}"


def _looks_like(line: bytes) -> str:
    """A word on a stray line that is a reply in the wrong encoding (UTF-16, as some runtimes write)."""
    if line.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in line:
        return ", which looks like UTF-16: replies are UTF-8"
    return ""


def _may_reply(line: bytes) -> bool:
    """Whether a line could be a reply at all: a ``{`` first (after a byte order mark) and an ``"id"``."""
    return line.lstrip().removeprefix(BOM).lstrip().startswith(b"{") and b'"id"' in line


def _reply_of(line: bytes) -> dict[str, Any] | None:
    """A reply line as a JSON object, or None for anything else (never an exception of json's own; a key
    given twice raises :class:`~gouji_rules.inputs.DuplicateKey`).

    Lines that cannot be a reply (not starting with ``{``, no ``"id"``) are turned away before
    parsing, so a bot printing thousands of lines costs little.  A UTF-8 byte order mark before
    the ``{`` (what some runtimes write first on Windows) is tolerated.
    """
    if not _may_reply(line):
        return None
    text = line.strip().removeprefix(BOM).lstrip()
    try:
        reply = inputs.loads_strict(text.decode("utf-8"))
    except inputs.DuplicateKey:
        raise  # which copy the bot meant cannot be known: the caller refuses the reply
    except (UnicodeDecodeError, RecursionError, ValueError):  # ValueError: bad JSON, or 4300+ digit numbers
        return None
    return reply if isinstance(reply, dict) else None


class ExternalPlayer(Player):
    """An external program: one process group, JSON lines with ids on stdin/stdout, a time limit per decision."""

    def __init__(self, name: str, command: str, time_limit: float, cwd: str | None = None) -> None:
        self.name = name
        self.argv = shlex.split(command)
        self.time_limit = time_limit
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr = _Stderr()
        self.lines: deque[bytes] = deque()  # complete lines read and not yet taken
        self.partial = b""  # the start of a line still being written
        self.next_id = 0
        self.hello_id = -1
        self.protocol = PROTOCOL_VERSION  # the version agreed at the last hello (docs/bot-protocol.md, Versions)
        self.hand_start: tuple[int, int, dict[str, Any]] | None = None  # seed, seat, info: framed when sent
        self.start_sent = False
        self.spawned = False
        self.restarts = 0
        self.failed_starts = 0  # restarts in a row whose hello failed (see _restart)
        self.deadline: float | None = None  # the run's budget ends then (time.monotonic()), if it has one
        self.retired = False
        self.stray: list[bytes] = []
        self.stray_count = 0
        self.wants_end = False  # the bot's hello answer asked for the end message ("end": true)
        self.out_closed = False  # its stdout (stderr) reached end of file while a message was written
        self.err_closed = False

    # -- the process ------------------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                bufsize=0,
                start_new_session=True,  # its own process group: ended as a whole
            )
        except (OSError, ValueError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            raise BotFault("crash", f"cannot start {clip(' '.join(self.argv))}: {reason}") from None
        if proc.stdin is not None:
            os.set_blocking(proc.stdin.fileno(), False)  # see _send
        self.lines.clear()
        self.partial = b""
        self.out_closed = self.err_closed = False
        self.stderr = _Stderr()
        self.proc = proc
        self.spawned = True
        self.protocol = PROTOCOL_VERSION  # until the new process answers
        self._send({**protocol.hello(), "name": self.name}, self.hello_limit)
        self.hello_id = self.next_id - 1
        return proc

    def _kill(self) -> None:
        """End the bot's whole process group now and reap the bot."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        for fh in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if fh is not None:
                    fh.close()
            except OSError:
                pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def end(self, result: dict[str, Any]) -> None:
        """The run is over: tell a bot that asked for it (``"end": true`` in its hello answer) its result.

        Opt-in, because protocol 2 lists its messages and promised no ``end``: a bot that refuses a
        message it does not know must keep working.  Nothing is read back; :meth:`close` follows.
        """
        if self.wants_end and self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(BotFault):
                self._send(protocol.end(self.protocol, result))

    def close(self) -> None:
        """End of the event: close stdin (the bot should exit on EOF), wait a moment, then end the group."""
        proc = self.proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=CLOSE_GRACE)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()  # children the bot left behind go with the group

    def _restart(self) -> None:
        """Start the bot again and wait for its hello: a bot that loads a model may take seconds, so it
        has the hello's limit, not the decision's (cut at the run's ``deadline``, so a budget ends
        at most one time limit late). Two restarts in a row without a proper hello retire the seat
        for the match: a bot that cannot start costs the run seconds, not minutes."""
        limit = self.hello_limit
        if self.deadline is not None:
            limit = min(limit, max(self.time_limit, self.deadline - time.monotonic()))
        try:
            self.handshake(limit)
        except BotFault as f:
            self.failed_starts += 1
            if self.failed_starts >= FAILED_STARTS_MAX:
                self.retired = True  # the next decision of this match is the fallback's, one `retired` fault
            raise BotFault(f.kind, f"restarted, at hello: {f.detail}") from None
        self.failed_starts = 0

    def end_match(self) -> None:
        """Reset the restart counts at a match's end: a bot retired in one match gets a fresh start in the next."""
        self.restarts = 0
        self.failed_starts = 0
        self.retired = False

    def _fault(self, kind: str, detail: str) -> BotFault:
        """Stop the process group after a crash or a hang; the bot is started again for the next decision."""
        self._drain_stderr()
        err = self.stderr.summary()
        self._kill()
        return BotFault(kind, f"{detail}; {err}" if err else detail)

    def _drain_stderr(self) -> None:
        proc = self.proc
        if proc is None or proc.stderr is None:
            return
        fd = proc.stderr.fileno()
        for _ in range(64):
            ready, _, _ = select.select([fd], [], [], 0)
            if not ready:
                return
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.stderr.add(chunk)

    @property
    def hello_limit(self) -> float:
        """How long the bot may take to say hello: at least the handshake limit, longer if its move limit is longer (a
        slow start is not a fault)."""
        return max(HANDSHAKE_LIMIT, self.time_limit)

    def _send(self, msg: dict[str, Any], limit: float | None = None, deadline: float | None = None) -> int:
        """Write one message by ``deadline`` (``limit`` seconds from now, the time limit by default),
        reading the bot's output meanwhile; a bot that does not take it in time is a ``timeout``."""
        proc = self.proc
        assert proc is not None and proc.stdin is not None
        mid = self.next_id
        self.next_id += 1
        line = (json.dumps({**msg, "id": mid}, ensure_ascii=False) + "\n").encode("utf-8")
        if self.protocol >= 3 and protocol.may_be_wide(line):
            line = (json.dumps({**protocol.exact(msg), "id": mid}, ensure_ascii=False) + "\n").encode("utf-8")
        data = memoryview(line)
        limit = self.time_limit if limit is None else limit
        deadline = time.monotonic() + limit if deadline is None else deadline
        fd = proc.stdin.fileno()
        while data:
            try:
                n = os.write(fd, data)
            except BlockingIOError:
                n = 0
            except OSError:  # EPIPE: the bot is gone
                code = proc.poll()
                raise self._fault("crash", f"the bot exited (code {code})") from None
            data = data[n:]
            if not data:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fault("timeout", f"the bot did not read its input within {limit:g} s")
            self._pump(fd, min(left, EXIT_POLL))
        return mid

    def _pump(self, stdin: int, wait: float) -> None:
        """Wait until the bot's stdin takes more, reading whatever it writes meanwhile, so that a bot
        blocked writing to us (its stdout full) is not waited on while we are blocked writing to it."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.fileno(), proc.stderr.fileno()
        readable = [fd for fd, done in ((out, self.out_closed), (err, self.err_closed)) if not done]
        ready, _, _ = select.select(readable, [stdin], [], wait)
        if err in ready:
            chunk = os.read(err, 65536)
            self.stderr.add(chunk)
            self.err_closed = not chunk
        if out in ready:
            chunk = os.read(out, 65536)
            if chunk:
                self._take(chunk)
            else:
                self.out_closed = True

    def _take(self, chunk: bytes) -> None:
        """Output read from the bot, split into the lines waiting to be taken."""
        parts = (self.partial + chunk).split(b"\n")
        self.partial = parts.pop()
        for line in parts:
            if len(line) > MAX_LINE or _may_reply(line):
                self.lines.append(line)
            elif line.strip():
                self._stray(line)
        while len(self.lines) > MAX_PENDING:  # a flood of would-be replies: the oldest are stray
            self._stray(self.lines.popleft())
        if len(self.partial) > MAX_LINE:
            raise self._fault("invalid_reply", f"a reply line longer than {MAX_LINE:,} bytes")

    def _read_line(self, deadline: float, limit: float) -> bytes:
        """The next complete line from the bot; stderr is drained meanwhile.  Raises BotFault."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.fileno(), proc.stderr.fileno()
        while not self.lines:
            if self.out_closed:
                try:
                    code = proc.wait(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                except subprocess.TimeoutExpired:
                    code = None
                raise self._fault("crash", f"the bot closed its stdout (exit code {code})")
            left = deadline - time.monotonic()
            if left <= 0:
                skipped = ""
                if self.stray_count:
                    first = f", the first: {clip(self.stray[0])}{_looks_like(self.stray[0])}" if self.stray else ""
                    skipped = f" ({self.stray_count:,} stray line(s) skipped{first})"
                raise self._fault("timeout", f"no reply within {limit:g} s{skipped}")
            watch = [out] if self.err_closed else [out, err]
            ready, _, _ = select.select(watch, [], [], min(left, EXIT_POLL))
            if err in ready:
                chunk = os.read(err, 65536)
                self.stderr.add(chunk)
                self.err_closed = not chunk
            if out not in ready:
                if not ready and proc.poll() is not None:
                    # exited, though something it started may still hold its stdout open
                    raise self._fault("crash", f"the bot exited (code {proc.returncode})")
                continue
            chunk = os.read(out, 65536)
            if chunk:
                self._take(chunk)
            else:
                self.out_closed = True
        line = self.lines.popleft()
        if len(line) > MAX_LINE:
            raise self._fault("invalid_reply", f"a reply line of {len(line):,} bytes (at most {MAX_LINE:,})")
        return line

    def _await(self, mid: int, deadline: float, limit: float) -> dict[str, Any]:
        """The reply carrying id ``mid``; other lines are skipped and noted, not taken as the answer."""
        while True:
            line = self._read_line(deadline, limit)
            if not line.strip():
                continue
            try:
                reply = _reply_of(line)
            except inputs.DuplicateKey as e:
                raise self._fault("invalid_reply", f"a reply whose {e}") from None
            rid = reply.get("id") if reply is not None else None
            if reply is not None and rid == mid and isinstance(rid, int) and not isinstance(rid, bool):
                return reply
            if rid == self.hello_id and isinstance(rid, int) and mid != self.hello_id:
                continue  # a restarted bot's answer to its hello
            if self.protocol >= 3 and rid == str(mid):  # it took "64-bit values as strings" to mean the id too
                raise BotFault("invalid_reply", f"the reply's id is the string {clip(rid)}: an id is a number")
            self._stray(line)

    def _stray(self, line: bytes) -> None:
        self.stray_count += 1
        if len(self.stray) < 1:
            self.stray.append(line[: DETAIL_KEEP * 4])

    def handshake(self, limit: float | None = None) -> None:
        """Start the bot and wait for its answer to hello (``limit`` seconds, the hello's limit when
        None); a BotFault says why it cannot play."""
        if self.proc is None or self.proc.poll() is not None:
            self._kill()
            self._spawn()
        limit = self.hello_limit if limit is None else limit
        deadline = time.monotonic() + limit
        reply = self._await(self.hello_id, deadline, limit)
        if reply.get("type") != "hello":
            raise self._fault(
                "invalid_reply", f'the answer to hello should be {{"type": "hello", "id": {self.hello_id}}}'
            )
        try:
            self.protocol = protocol.agree(reply)
        except protocol.VersionRefused as e:
            raise self._fault("invalid_reply", str(e)) from None
        self.wants_end = reply.get("end") is True
        self.stray.clear()
        self.stray_count = 0

    # -- the player -------------------------------------------------------------------------

    def notes(self) -> list[tuple[str, str]]:
        """Lines the bot wrote that answered no request, summed up once and cleared, so the director sees a chatty bot
        without a flood in the report."""
        if not self.stray_count:
            return []
        first = clip(self.stray[0]) if self.stray else "''"
        n = self.stray_count
        self.stray.clear()
        self.stray_count = 0
        return [("stray", f"{n:,} line{'s' if n != 1 else ''} that answered no request skipped; the first: {first}")]

    def start_hand(self, seed: int, seat: int, info: dict[str, Any]) -> None:
        """Tell the bot a hand begins (now, if it is running; else when it is next started), so a restarted bot still
        knows its seat."""
        self.hand_start = (seed, seat, info)
        self.start_sent = False
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._send(protocol.start_hand(self.protocol, *self.hand_start))
                self.start_sent = True
            except BotFault:
                pass  # reported at the next decision, when the bot is started again

    def decide(self, obs: Observation, legal: Legal) -> Action:
        """Ask the bot for its action, starting or restarting it as needed; a retired bot, a timeout or a bad answer
        raises BotFault, so the fallback plays the seat."""
        if self.retired:
            if self.failed_starts >= FAILED_STARTS_MAX:
                why = f"restarted {FAILED_STARTS_MAX} times in a row without a proper hello in this match"
            else:
                why = "too many restarts in this match"
            raise BotFault("retired", f"{why}; the fallback plays this seat")
        if self.proc is None or self.proc.poll() is not None:
            self._kill()
            if self.restarts >= MAX_RESTARTS:
                self.retired = True
                raise BotFault("retired", f"restarted {MAX_RESTARTS} times in this match; the fallback plays on")
            if self.spawned:
                self.restarts += 1
            self.start_sent = False
            self._restart()
        if self.hand_start is not None and not self.start_sent:
            # a bot started mid-hand still learns the hand it is in, in the version it chose this time
            self._send(protocol.start_hand(self.protocol, *self.hand_start))
            self.start_sent = True
        deadline = time.monotonic() + self.time_limit
        mid = self._send(observation_json(obs, legal), deadline=deadline)
        reply = self._await(mid, deadline, self.time_limit)
        return reply_action(reply, legal, mid, obs.mode)


def make_player(name: str, spec: str, time_limit: float) -> Player:
    """A seat's player from its stored spec: ``random``, ``greedy`` or ``cmd:COMMAND``."""
    if spec.startswith("cmd:"):
        return ExternalPlayer(name, spec[4:], time_limit)
    return BuiltinPlayer(name, spec)
