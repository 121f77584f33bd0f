"""Exact streaming sums, intervals and Student's t."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from gouji_rules.compare.stats import Histogram, Moments, t975


def test_moments_match_statistics_module() -> None:
    rng = random.Random(5)
    ys = [rng.randint(-20, 20) for _ in range(500)]
    acc = Moments()
    for y in ys:
        acc.add(y)
    est = acc.estimate()
    assert est.mean == pytest.approx(statistics.fmean(ys))
    half = t975(len(ys) - 1) * statistics.stdev(ys) / math.sqrt(len(ys))
    assert est.high is not None and est.low is not None
    assert (est.high - est.low) / 2 == pytest.approx(half)


def test_merge_is_exact_in_any_order() -> None:
    rng = random.Random(9)
    chunks = [[rng.randint(-1000, 1000) for _ in range(rng.randint(1, 40))] for _ in range(30)]
    estimates = []
    for order in (chunks, chunks[::-1], sorted(chunks, key=len)):
        total = Moments()
        for chunk in order:
            part = Moments()
            for y in chunk:
                part.add(y)
            total.merge(part)
        estimates.append(total.estimate(2))
    assert estimates[0] == estimates[1] == estimates[2]


def test_scale_divides_mean_and_interval() -> None:
    acc = Moments()
    for y in (2, 4, 6, 8):
        acc.add(y)
    one, two = acc.estimate(1), acc.estimate(2)
    assert two.mean == one.mean / 2
    assert two.low == pytest.approx(one.low / 2)  # type: ignore[operator]


def test_constant_values_give_a_zero_width_interval_that_is_not_clear() -> None:
    acc = Moments()
    for _ in range(10):
        acc.add(0)
    est = acc.estimate()
    assert (est.mean, est.low, est.high, est.clear) == (0.0, 0.0, 0.0, False)


def test_one_observation_has_no_interval() -> None:
    acc = Moments()
    acc.add(3)
    est = acc.estimate()
    assert est.low is None and not est.clear


def test_clear_means_interval_excludes_zero() -> None:
    acc = Moments()
    for y in (5, 6, 7, 5, 6, 7):
        acc.add(y)
    assert acc.estimate().clear


@pytest.mark.parametrize(
    ("df", "value"),
    [(1, 12.7062), (5, 2.5706), (30, 2.0423), (31, 2.0395), (40, 2.0211), (60, 2.0003), (120, 1.9799), (1000, 1.9623)],
)
def test_t975_against_tables(df: int, value: float) -> None:
    assert t975(df) == pytest.approx(value, abs=2e-4)


def test_histogram_merge() -> None:
    a, b = Histogram(), Histogram()
    for v in (0, 2, 2):
        a.add(v)
    b.add(-2)
    a.merge(b)
    assert a.items() == [(-2, 1), (0, 1), (2, 2)] and a.total == 4
