"""Where work units run: in this process, in a local process pool, or on a Dask cluster.

Every backend runs the same :class:`~gouji_rules.compare.work.WorkUnit` values with the
same function and yields their results *in unit order*, so the caller merges them
in one fixed order whatever finished first.  (The sums are exact integers, so the
order could not change a number anyway; the fixed order keeps that true even for
any float statistic added later.)  At most a small window of units is in flight,
so memory does not grow with the number of deals.

Dask is optional: ``distributed`` is imported only when ``--scheduler`` is given,
and a missing package is reported as an error that says how to install it.
"""

from __future__ import annotations

import importlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from types import TracebackType
from typing import Any, Protocol

from ..errors import GoujiError
from .work import Tally, WorkUnit, run_unit


class BackendError(GoujiError):
    """A backend that cannot run: a missing optional package, an unreachable scheduler."""


class Backend(Protocol):
    """Where a comparison's work units run (one process, a pool, a dask cluster): the results are the same whichever
    runs them."""

    name: str
    workers: int

    def run(self, units: Iterable[WorkUnit]) -> Iterator[Tally]:
        """Run the units and yield their tallies, in any order: the totals do not depend on it."""
        ...

    def __enter__(self) -> Backend: ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class _Closing:
    def __enter__(self) -> Any:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        return None


def ordered(submit: Callable[[WorkUnit], Any], units: Iterable[WorkUnit], window: int) -> Iterator[Tally]:
    """Submit units through ``submit`` keeping ``window`` in flight; yield results in submission order.

    ``submit`` returns anything with ``.result()`` (a concurrent.futures or a Dask future).
    """
    it = iter(units)
    pending: deque[Any] = deque()
    for unit in it:
        pending.append(submit(unit))
        if len(pending) >= window:
            break
    while pending:
        result: Tally = pending.popleft().result()
        for unit in it:
            pending.append(submit(unit))
            break
        yield result


class SerialBackend(_Closing):
    """Units one after another in this process: the reference every other backend must match."""

    name = "serial"
    workers = 1

    def run(self, units: Iterable[WorkUnit]) -> Iterator[Tally]:
        """Run the units one after another in this process."""
        return (run_unit(u) for u in units)


class ProcessBackend(_Closing):
    """A local ``ProcessPoolExecutor`` of ``workers`` processes."""

    name = "process"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = ProcessPoolExecutor(max_workers=workers)

    def run(self, units: Iterable[WorkUnit]) -> Iterator[Tally]:
        """Run the units on the pool, a few per worker in flight, yielding tallies in the units' order (memory stays bounded)."""

        def submit(unit: WorkUnit) -> Future[Tally]:
            return self.pool.submit(run_unit, unit)

        return ordered(submit, units, window=4 * self.workers)

    def close(self) -> None:
        """Shut the pool down, cancelling what has not started, so an interrupted comparison leaves no workers behind."""
        self.pool.shutdown(cancel_futures=True)


class DaskBackend(_Closing):
    """A Dask distributed cluster reached at ``address`` (``tcp://host:8786``).

    The workers must have ``gouji_rules`` installed, and a variant given as a file must be
    readable at the same absolute path on every worker (a shared file system).
    """

    name = "dask"

    def __init__(self, address: str, timeout: float = 30.0) -> None:
        try:
            distributed = importlib.import_module("distributed")
        except ImportError:
            raise BackendError(
                "--scheduler needs Dask distributed, which is not installed: pip install 'dask[distributed]'"
            ) from None
        try:
            self.client = distributed.Client(address, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise BackendError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        self.address = address
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})))

    def run(self, units: Iterable[WorkUnit]) -> Iterator[Tally]:
        """Run the units on the dask cluster, a few per worker in flight, yielding tallies in the units' order."""

        def submit(unit: WorkUnit) -> Any:
            return self.client.submit(run_unit, unit, pure=False)

        return ordered(submit, units, window=4 * self.workers)

    def close(self) -> None:
        """Close the client (the cluster itself is the caller's)."""
        self.client.close()


def make_backend(workers: int = 1, scheduler: str | None = None) -> Backend:
    """The backend the options ask for: Dask if a scheduler is given, else a pool if workers > 1."""
    if scheduler:
        return DaskBackend(scheduler)
    if workers > 1:
        return ProcessBackend(workers)
    return SerialBackend()
