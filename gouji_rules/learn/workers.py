"""Local self-play worker processes that never outlive the run, and a run that stops when one dies.

Why not ``ProcessPoolExecutor``: with one worker killed (kill -9, the OOM killer) its pool could
hang on Python 3.11 past ``--seconds`` and beyond a ``kill``, and nothing stopped its other worker
when the run itself was killed.  Here each worker is a child process with a pipe of its own; the
run waits on the pipe and on the process together, so a worker's death is seen at once and ends
the run with :class:`WorkerLost`.  A worker dies with the run: on Linux the kernel sends it
SIGKILL when the run's process ends however it ends (``PR_SET_PDEATHSIG``), elsewhere a thread
polls for the parent every half second; and the run kills its workers when it stops.  Workers
ignore Ctrl-C (the terminal sends it to the whole group): the run stops them itself.

A unit is sent to a worker only when that worker is idle, so neither side ever blocks on a full
pipe; units are created (their weights fixed) when submitted and their results taken in
submission order, so a run learns from the same hands with any number of workers.
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from multiprocessing.connection import Connection, wait
from typing import Any

from ..errors import GoujiError
from .selfplay import Samples, SelfPlayUnit

PR_SET_PDEATHSIG = 1


class WorkerLost(GoujiError):
    """A self-play worker process ended while the run needed it (killed, out of memory, crashed)."""


def _die_with(parent: int) -> None:
    """End this process as soon as ``parent`` ends (the run that started it)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    if os.getppid() != parent:  # the run ended before the death signal was asked for
        os._exit(1)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def serve(conn: Connection, parent: int) -> None:
    """A worker's life: play each unit received and send back its samples, until the pipe closes."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .selfplay import run_selfplay

    while True:
        try:
            unit = conn.recv()
        except (EOFError, OSError):
            return
        if unit is None:
            return
        try:
            out: tuple[str, Any] = ("ok", run_selfplay(unit))
        except Exception as e:  # sent to the run, which raises it as its own
            try:
                pickle.dumps(e)
                out = ("error", e)
            except Exception:
                out = ("error", GoujiError(f"self-play failed: {type(e).__name__}: {e}"))
        try:
            conn.send(out)
        except (OSError, ValueError):
            return


class _Ticket:
    def __init__(self, pool: LocalWorkers, unit: SelfPlayUnit) -> None:
        self.pool, self.unit, self.index = pool, unit, unit.index
        self.done = False
        self.value: Samples | None = None

    def result(self) -> Samples:
        self.pool.wait_for(self)
        assert self.value is not None
        return self.value


class _Worker:
    def __init__(self, ctx: Any, n: int) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=serve, args=(child, os.getpid()), name=f"gouji-selfplay-{n}", daemon=True)
        self.proc.start()
        child.close()
        self.ticket: _Ticket | None = None


class LocalWorkers:
    """``n`` worker processes (see the module's docstring)."""

    def __init__(self, n: int) -> None:
        ctx = mp.get_context("spawn")  # a fresh interpreter: no copied threads, locks or signal handlers
        self.workers: list[_Worker] = []
        self.queued: deque[_Ticket] = deque()
        try:
            for i in range(n):
                self.workers.append(_Worker(ctx, i))
        except BaseException:
            self.close()
            raise

    def submit(self, unit: SelfPlayUnit) -> _Ticket:
        """Hand ``unit`` to the next idle worker process; the ticket waits for its samples or the worker's death."""
        t = _Ticket(self, unit)
        self.queued.append(t)
        return t

    def _lost(self, w: _Worker) -> WorkerLost:
        w.proc.join(0.5)
        code = w.proc.exitcode
        if code is None:
            how = "stopped answering"
        elif code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        unit = w.ticket.index if w.ticket is not None else "?"
        return WorkerLost(f"self-play worker {w.proc.pid} {how} while playing unit {unit}; the run stopped")

    def _dispatch(self) -> None:
        for w in self.workers:
            if w.ticket is None and self.queued:
                t = self.queued.popleft()
                w.ticket = t
                try:
                    w.conn.send(t.unit)
                except (OSError, ValueError):
                    raise self._lost(w) from None

    def _receive(self, w: _Worker) -> None:
        try:
            status, value = w.conn.recv()
        except (EOFError, OSError):
            raise self._lost(w) from None
        t, w.ticket = w.ticket, None
        assert t is not None
        if status != "ok":
            raise value
        t.value, t.done = value, True

    def wait_for(self, ticket: _Ticket) -> None:
        """Run the queue until ``ticket``'s result is in; :class:`WorkerLost` if a busy worker dies."""
        while not ticket.done:
            self._dispatch()
            busy = [w for w in self.workers if w.ticket is not None]
            ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=1.0)
            for w in busy:
                if w.conn in ready or w.conn.poll():
                    self._receive(w)
                elif w.proc.sentinel in ready or not w.proc.is_alive():
                    raise self._lost(w)

    def close(self) -> None:
        """Kill every worker and wait for each (a unit in play is thrown away: it was not learned from)."""
        for w in self.workers:
            if w.proc.is_alive():
                w.proc.kill()
        for w in self.workers:
            w.proc.join(5)
            w.conn.close()
        self.workers = []


__all__ = ["LocalWorkers", "WorkerLost", "serve"]
