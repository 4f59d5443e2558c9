"""The intervals of analysis/stats.py against published worked examples and against
their promise: about 95% of intervals cover the true value."""

from __future__ import annotations

import math
import random

import pytest
from cardgame.interpreter.analysis import stats


def close(a: float | None, b: float, tol: float = 5e-5) -> bool:
    return a is not None and abs(a - b) <= tol


def test_wilson_matches_newcombes_worked_examples() -> None:
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion":
    # 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775; 1/29 -> 0.0061 to 0.1718
    e = stats.wilson(81, 263)
    assert close(e.low, 0.2553) and close(e.high, 0.3662) and e.n == 263
    e = stats.wilson(0, 10)
    assert e.low == 0.0 and close(e.high, 0.2775)
    e = stats.wilson(1, 29)
    assert close(e.low, 0.0061) and close(e.high, 0.1718)
    assert stats.wilson(10, 10).high == 1.0
    assert stats.wilson(0, 0).value is None


def test_newcombe_difference_matches_the_published_example() -> None:
    # Newcombe (1998), "Interval estimation for the difference between independent
    # proportions", method 10: 56/70 - 48/80 = 0.2, interval 0.0524 to 0.3339
    e = stats.newcombe(48, 80, 56, 70)  # B - A with A = 48/80, B = 56/70
    assert close(e.value, 0.2, 1e-9) and close(e.low, 0.0524) and close(e.high, 0.3339)
    assert e.significant


def test_the_paired_interval_is_the_unpaired_one_without_correlation() -> None:
    # A and B independent in the 2x2 table (AD - BC = 0): phi is 0 and the paired
    # interval is the square-and-add of the two Wilson intervals on the same n
    pairs = [(True, True)] * 10 + [(True, False)] * 10 + [(False, True)] * 10 \
        + [(False, False)] * 10
    paired = stats.newcombe_paired(pairs)
    unpaired = stats.newcombe(20, 40, 20, 40)
    assert paired.value == 0 and close(paired.low, unpaired.low or 0, 1e-12)
    assert close(paired.high, unpaired.high or 0, 1e-12)


def test_a_positive_correlation_narrows_the_paired_interval() -> None:
    # the same games mostly agree: B wins 5 games more than A out of 200
    pairs = [(True, True)] * 60 + [(False, True)] * 8 + [(True, False)] * 3 \
        + [(False, False)] * 129
    paired = stats.newcombe_paired(pairs)
    unpaired = stats.newcombe(63, 200, 68, 200)
    assert close(paired.value, 0.025, 1e-12) and paired.method == "newcombe-paired"
    assert paired.low is not None and paired.high is not None
    assert unpaired.low is not None and unpaired.high is not None
    assert paired.high - paired.low < 0.5 * (unpaired.high - unpaired.low)


def test_t_quantiles() -> None:
    assert stats.t975(1) == 12.7062 and stats.t975(30) == 2.0423
    assert stats.t975(4.7) == stats.t975(4)  # a Welch df rounds down: a wider interval
    # the expansion beyond the table: t(0.975; 40) = 2.0211, 120 -> 1.9799, inf -> z
    assert close(stats.t975(40), 2.0211, 1e-4) and close(stats.t975(120), 1.9799, 1e-4)
    assert close(stats.t975(1e9), stats.Z, 1e-6)
    assert abs(stats.t975(31) - 2.0395) < 1e-4


def test_mean_ci_by_hand() -> None:
    e = stats.mean_ci([1, 2, 3, 4, 5])
    # sd = sqrt(2.5); half = 2.7764 * sd / sqrt(5)
    half = 2.7764 * math.sqrt(2.5) / math.sqrt(5)
    assert e.value == 3 and close(e.low, 3 - half, 1e-9) and close(e.high, 3 + half, 1e-9)
    assert stats.mean_ci([4.0]).low is None and stats.mean_ci([]).value is None
    assert stats.mean_ci([2, 2, 2]) == stats.Estimate(2, 2, 2, 3, "t")


def test_quantiles_and_their_order_statistic_intervals() -> None:
    vals = sorted(float(i) for i in range(1, 101))  # 1..100
    assert stats.quantile(vals, 0.5) == 50.5 and stats.quantile(vals, 0.1) == 10.9
    e = stats.quantile_ci(vals, 0.5)
    # ranks 50 -+ 1.96 * 5: the 40th and the 61st values
    assert (e.low, e.high) == (40.0, 61.0)
    assert stats.quantile_ci(vals[:10], 0.5).low is None  # under 20 values: no interval


def test_differences_of_means() -> None:
    a = [1.0, 2.0, 3.0, 4.0]
    b = [2.0, 3.5, 3.0, 5.5]
    e = stats.paired_diff(list(zip(a, b, strict=True)))
    assert e.value == 1.0 and e.method == "t-paired"
    w = stats.welch_diff(a, b)
    assert w.value == 1.0 and w.method == "welch"
    assert w.low is not None and e.low is not None and w.low < e.low  # pairing helps here
    assert stats.welch_diff([1, 1], [2, 2]) == stats.Estimate(1, 1, 1, 2, "welch")


@pytest.mark.parametrize("p,n", [(0.3, 40), (0.05, 200)])
def test_wilson_covers_the_true_rate_about_95_percent_of_the_time(p: float, n: int) -> None:
    rng = random.Random(11)
    trials = 2000
    covered = 0
    for _ in range(trials):
        k = sum(rng.random() < p for _ in range(n))
        e = stats.wilson(k, n)
        assert e.low is not None and e.high is not None
        covered += e.low <= p <= e.high
    assert 0.93 <= covered / trials <= 0.975


def test_the_t_interval_covers_a_skewed_mean_about_95_percent_of_the_time() -> None:
    # game lengths are skewed: an exponential with mean 10, 60 games a run
    rng = random.Random(5)
    covered = 0
    for _ in range(1000):
        e = stats.mean_ci([rng.expovariate(0.1) for _ in range(60)])
        assert e.low is not None and e.high is not None
        covered += e.low <= 10 <= e.high
    assert 0.92 <= covered / 1000 <= 0.97
