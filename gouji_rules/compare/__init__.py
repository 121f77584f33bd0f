"""Compare variants side by side on the same duplicate deals (``gouji compare``).

``work`` defines the work units and how a hand is measured, ``stats`` the exact
streaming sums and 95% intervals, ``backends`` where units run (serial, process
pool, Dask), ``run`` the comparison document, ``report`` the text table and CSV,
``html`` the self-contained HTML report.  The method is written out in
``docs/compare.md``.
"""

from __future__ import annotations

from .backends import BackendError, DaskBackend, ProcessBackend, SerialBackend, make_backend
from .run import SCHEMA_VERSION, compare, strip_timing
from .work import hand_metrics, metrics_for

__all__ = [
    "SCHEMA_VERSION",
    "BackendError",
    "DaskBackend",
    "ProcessBackend",
    "SerialBackend",
    "compare",
    "hand_metrics",
    "make_backend",
    "metrics_for",
    "strip_timing",
]
