"""Benchmark: the speedup of ``gouji compare --workers K`` over one process, and that the numbers agree.

    python -m gouji_rules.compare.bench --hands 2000 --workers 2 --repeat 3

Each repeat runs the same comparison serially and with the pool, checks that the two
documents are identical once their ``timing`` is removed, and prints both times.  The
figures reported are the median over the repeats of (serial time / pool time) and the
best-of ratio (fastest serial run / fastest pool run): other processes on the machine may
slow one run and not the other, and the fastest run of each is the one they disturbed least.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from .backends import ProcessBackend, SerialBackend
from .run import compare, strip_timing


def measure(variants: list[str], deals: int, workers: int, seed: int) -> tuple[float, float]:
    """Seconds for one serial run and one run on ``workers`` processes (pool start-up included)."""
    t0 = time.perf_counter()
    with SerialBackend() as serial:
        one = compare(variants, deals, seed, backend=serial)
    t1 = time.perf_counter()
    with ProcessBackend(workers) as pool:
        many = compare(variants, deals, seed, backend=pool)
    t2 = time.perf_counter()
    if json.dumps(strip_timing(one)) != json.dumps(strip_timing(many)):
        raise SystemExit("the pooled run's numbers differ from the serial run's")
    return t1 - t0, t2 - t1


def main(argv: list[str] | None = None) -> int:
    """The command line of this benchmark: compare the variants with each backend and print how long each took."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*", default=["dagang", "dianshaomenla"])
    ap.add_argument("--hands", type=int, default=2000, help="deals (each played twice per variant)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ratios, serials, pools = [], [], []
    for i in range(args.repeat):
        serial, pooled = measure(args.variants, args.hands, args.workers, args.seed)
        ratios.append(serial / pooled)
        serials.append(serial)
        pools.append(pooled)
        print(
            f"run {i + 1}: serial {serial:.2f} s, {args.workers} workers {pooled:.2f} s, speedup {serial / pooled:.2f}×",
            file=sys.stderr,
        )
    print(
        f"speedup with {args.workers} workers: median {statistics.median(ratios):.2f}×, "
        f"best-of {min(serials) / min(pools):.2f}× ({min(serials):.2f} s / {min(pools):.2f} s), {args.repeat} repeats"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
