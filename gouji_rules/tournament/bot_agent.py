"""An external bot as an :class:`~gouji_rules.play.agents.Agent`: try a bot outside an event.

``gouji simulate --agents cmd:COMMAND`` and ``gouji compare --agents "cmd:COMMAND,greedy"``
seat a bot program next to the shipped agents.  The bot speaks the event's protocol
(docs/bot-protocol.md) through the event's own client, :class:`ExternalPlayer`; this
module only adapts it.  Outside an event there is no fallback agent and no fault log, so
the first fault stops the run: :class:`BotError` names the bot, the seat and the fault,
and carries the end of the bot's stderr, where a dying program writes its reason.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..errors import GoujiError
from ..game.actions import Action
from ..game.legal import Legal
from ..play.observe import Observation
from .bots import STDERR_KEEP, BotFault, ExternalPlayer, _Stderr
from .run import DEFAULT_TIME_LIMIT

TAIL_KEEP = STDERR_KEEP
"""Bytes of a bot's stderr kept for its error: the last ones, which explain a crash."""


LINE_KEEP = 300
"""Characters of one stderr line shown; a longer line is cut, its length noted."""


class BotError(GoujiError):
    """A bot's fault outside an event.  ``str()`` is one line naming bot, seat and fault,
    then the end of the bot's stderr (if it wrote any) on the lines below."""

    def __init__(self, bot: str, seat: int, kind: str, detail: str, stderr_tail: str = "") -> None:
        line = f"bot {bot} (seat {seat}): {kind}: {detail}"
        super().__init__(f"{line}\n{stderr_tail}" if stderr_tail else line)
        self.bot = bot
        self.seat = seat
        self.kind = kind
        self.detail = detail
        self.stderr_tail = stderr_tail

    def __reduce__(self) -> tuple[Any, ...]:
        # raised in a `compare --workers` process and pickled back to the parent
        return (BotError, (self.bot, self.seat, self.kind, self.detail, self.stderr_tail))


class _TailStderr(_Stderr):
    """The player's stderr record, also keeping the last :data:`TAIL_KEEP` bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.last = b""

    def add(self, chunk: bytes) -> None:
        super().add(chunk)
        self.last = (self.last + chunk[-TAIL_KEEP:])[-TAIL_KEEP:]

    def tail_text(self) -> str:
        """The kept end as printable lines (control characters escaped), headed by the size."""
        text = self.last.decode("utf-8", "replace").rstrip()
        if not text:
            return ""
        safe = "".join(c if c.isprintable() or c in "\n\t" else ascii(c)[1:-1] for c in text)
        more = f", the last {TAIL_KEEP:,} kept" if self.size > TAIL_KEEP else ""
        lines = (s if len(s) <= LINE_KEEP else f"{s[:LINE_KEEP]}… ({len(s):,} characters)" for s in safe.splitlines())
        return f"stderr of the bot ({self.size:,} bytes{more}):\n" + "\n".join("  | " + s for s in lines)


class _Client(ExternalPlayer):
    """The event's client, with a stderr record that keeps the end and faults that leave it out
    of their detail (the error shows it whole instead)."""

    def __init__(self, name: str, command: str, time_limit: float) -> None:
        super().__init__(name, command, time_limit)
        self.stderr = _TailStderr()
        self.fault_tail = ""  # the stderr kept when the last fault ended the process

    def _spawn(self) -> Any:
        proc = super()._spawn()
        self.stderr = _TailStderr()  # nothing is read from the new process before this
        return proc

    def _fault(self, kind: str, detail: str) -> BotFault:
        self._drain_stderr()
        err = self.stderr
        self.fault_tail = err.tail_text() if isinstance(err, _TailStderr) else ""
        self._kill()
        return BotFault(kind, detail)


class BotAgent:
    """An external bot program for one seat: started at its first decision, asked each decision
    within ``time_limit`` seconds, and stopped by :meth:`close`.  A fault raises :class:`BotError`."""

    def __init__(self, command: str, name: str = "", time_limit: float = DEFAULT_TIME_LIMIT) -> None:
        self.name = name or f"cmd:{command}"
        self.client = _Client(self.name, command, time_limit)
        self.seed = 0
        self.seat = 0
        self.started = False

    def start_hand(self, seed: int, seat: int) -> None:
        """Noted; ``start_hand`` goes to the bot before the hand's first decision, with the variant's name."""
        self.seed, self.seat, self.started = seed, seat, False

    def act(self, obs: Observation, legal: Legal) -> Action:
        """The bot's answer, checked legal by the event's rules of the protocol."""
        c = self.client
        if c.proc is None:
            try:
                c.handshake()
            except BotFault as e:
                raise BotError(
                    self.name, self.seat, e.kind, f"at hello: {e.detail}", c.fault_tail or self._tail_now()
                ) from None
        try:
            if not self.started:
                c.start_hand(self.seed, self.seat, {"variant": obs.rules.name})
                self.started = True
            return c.decide(obs, legal)
        except BotFault as e:
            tail = c.fault_tail or self._tail_now()
            raise BotError(self.name, self.seat, e.kind, e.detail, tail) from None

    def _tail_now(self) -> str:
        """The stderr of a bot still running (an illegal or unreadable reply): what it wrote so far."""
        c = self.client
        if c.proc is not None:
            c._drain_stderr()
        err = c.stderr
        return err.tail_text() if isinstance(err, _TailStderr) else ""

    def hang_up(self) -> None:
        """Close the bot's stdin, its sign to exit; :meth:`close` then waits for it.  Hanging up every
        bot first lets six bots take their grace second together."""
        proc = self.client.proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()

    def close(self) -> None:
        """Close the bot's stdin, give it a moment to exit, then end its whole process group."""
        self.client.close()


__all__ = ["BotAgent", "BotError"]
