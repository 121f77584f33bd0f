"""Streaming statistics for comparisons: exact integer moments, histograms, 95% intervals.

Every per-hand quantity the comparison measures is an integer (a count, a score,
a place, a 0/1 flag), and so is the per-deal value built from it (the sum over
the two seatings of a duplicate deal).  So instead of Welford's running mean and
variance in floating point, an accumulator keeps ``n``, ``Σy`` and ``Σy²`` as
Python integers.  That is still one pass and constant memory, but it is *exact*:
merging accumulators is integer addition, associative and commutative, so a run
split into chunks on any number of processes or machines gives bit-for-bit the
numbers of a serial run.  Welford's update exists to avoid the cancellation of
``Σy² − (Σy)²/n`` in floating point; with exact integers there is no
cancellation, and the one division happens at the end, on the exact numerator.

Intervals are 95% two-sided: ``mean ± t₀.₉₇₅(n−1) · s/√n``, with Student's t
for every n (it tends to the normal 1.96 as n grows, see :func:`t975`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# Student's t, 0.975 quantile, for 1..30 degrees of freedom (standard tables).
_T975 = (
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
)
Z975 = 1.959963984540054


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom.

    A table up to 30, then the Cornish–Fisher expansion around the normal
    quantile (Abramowitz & Stegun 26.7.5), whose error is below 1e-7 there.

    >>> round(t975(1), 3), round(t975(30), 3), round(t975(120), 3), round(t975(10**9), 3)
    (12.706, 2.042, 1.98, 1.96)
    """
    if df < 1:
        raise ValueError("t975 needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z, v = Z975, float(df)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval.  ``low``/``high`` are None when n < 2."""

    mean: float
    low: float | None
    high: float | None
    n: int

    @property
    def clear(self) -> bool:
        """Is the interval clear of zero?  An interval that touches 0 is not."""
        if self.low is None or self.high is None:
            return False
        return self.low > 0 or self.high < 0

    def to_json(self, digits: int = 6) -> dict[str, Any]:
        """The estimate as JSON numbers rounded to ``digits``, so reports stay byte-identical across platforms."""

        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {"mean": r(self.mean), "low": r(self.low), "high": r(self.high)}


@dataclass
class Moments:
    """Count, sum and sum of squares of integer observations, exactly."""

    n: int = 0
    s1: int = 0
    s2: int = 0

    def add(self, y: int) -> None:
        """Count one observation; only sums are kept, so tallies from many workers merge exactly."""
        self.n += 1
        self.s1 += y
        self.s2 += y * y

    def merge(self, other: Moments) -> None:
        """Add another tally's sums (from another worker) to this one."""
        self.n += other.n
        self.s1 += other.s1
        self.s2 += other.s2

    def estimate(self, scale: int = 1) -> Estimate:
        """Mean and 95% interval of ``y / scale`` (scale 2 turns a deal's pair sum into a per-hand mean)."""
        if self.n == 0:
            return Estimate(math.nan, None, None, 0)
        n = self.n
        mean = Fraction(self.s1, n * scale)
        if n < 2:
            return Estimate(float(mean), None, None, n)
        # sample variance of y, exactly: (nΣy² − (Σy)²) / (n(n−1))
        var_y = Fraction(n * self.s2 - self.s1 * self.s1, n * (n - 1))
        se = math.sqrt(float(var_y / (n * scale * scale)))
        half = t975(n - 1) * se
        m = float(mean)
        return Estimate(m, m - half, m + half, n)

    def sd(self, scale: int = 1) -> float | None:
        """Sample standard deviation of ``y / scale`` (None when n < 2)."""
        n = self.n
        if n < 2:
            return None
        return math.sqrt(float(Fraction(n * self.s2 - self.s1 * self.s1, n * (n - 1) * scale * scale)))


Z80 = 0.8416212335729143
"""The normal 0.8 quantile: a change of (z₀.₉₇₅ + z₀.₈)·s/√n gives an interval clear of 0 in 80% of runs."""


def detectable(sd: float, n: int) -> float:
    """The smallest true change per unit that ``n`` deals with deal-to-deal spread ``sd`` show with a
    95% interval clear of 0 four times in five (80% power), the usual "minimum detectable effect".

    >>> round(detectable(1.0, 100), 3)
    0.283
    """
    t = t975(n - 1) if n >= 2 else math.inf
    return (t + Z80) * sd / math.sqrt(n)


def deals_needed(sd: float, change: float) -> int:
    """About how many deals it takes to see a true ``change`` the same way (normal approximation).

    >>> deals_needed(1.0, 0.2)
    197
    """
    return max(2, math.ceil(((Z975 + Z80) * sd / change) ** 2))


@dataclass
class Histogram:
    """Counts of integer values (a score difference has a small, bounded support)."""

    counts: Counter[int] = field(default_factory=Counter)

    def add(self, value: int) -> None:
        """Count one value."""
        self.counts[value] += 1

    def merge(self, other: Histogram) -> None:
        """Add another tally's counts (from another worker) to this one."""
        self.counts.update(other.counts)

    @property
    def total(self) -> int:
        """How many values were counted."""
        return sum(self.counts.values())

    def items(self) -> list[tuple[int, int]]:
        """``(value, count)`` pairs in value order, so reports list them the same way every time."""
        return sorted(self.counts.items())
