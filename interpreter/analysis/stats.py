"""Confidence intervals and differences, at 95%: the one place `simulate`, `compare` and
(later) `solve --deals` compute uncertainty. Pure Python, deterministic: the same values
give the same interval whatever the order they were computed in (no resampling, so no
second seed and no dependence on --jobs or batch size).

- a rate (k successes of n games): Wilson's score interval;
- a win share (per-game values in [0, 1] that are mostly 0 or 1): Wilson's score
  interval on the sum of the values, which is the rate's interval when every value is 0
  or 1 (a t interval there is too narrow for small samples and falls below 0);
- a mean of per-game values: Student's t interval;
- a quantile: the distribution-free order-statistic interval;
- B - A for a rate: Newcombe's square-and-add interval (paired with the phi correction
  when A and B were measured on the same games, unpaired otherwise);
- B - A for a mean: the paired t interval on per-game differences (same games), else
  Welch's t interval.

docs/analysis.md gives the formulas and why these methods.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from .. import intervals

LEVEL, Z = intervals.LEVEL, intervals.Z  # 95%, 1.959963...

# t quantiles at 0.975 for 1..30 degrees of freedom; beyond 30 the Cornish-Fisher
# expansion below is within 1e-5 of them
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
         2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
         2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


@attrs.frozen
class Estimate:
    """A figure with its 95% interval. `low`/`high` are None where no interval exists
    (fewer than two values for a mean, no value at all); `value` is None without data."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    method: str  # wilson, t, order, newcombe, newcombe-paired, t-paired, welch, none

    @property
    def significant(self) -> bool:
        """For a difference: does the interval exclude 0?"""
        return (self.low is not None and self.high is not None
                and (self.low > 0 or self.high < 0))

    def to_json(self, digits: int = 6) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        return {"value": r(self.value), "low": r(self.low), "high": r(self.high),
                "n": self.n, "method": self.method}


NONE = Estimate(None, None, None, 0, "none")


def t975(df: float) -> float:
    """The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError("t needs at least one degree of freedom")
    if df <= 30:
        return _T975[int(df) - 1]  # a fractional (Welch) df rounds down: a wider interval
    z = Z
    v = df
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z)
            / (92160 * v**4))


# ---------------------------------------------------------------------- one sample
def wilson(k: int, n: int) -> Estimate:
    """k successes in n trials: the rate k/n and Wilson's score interval."""
    if n == 0:
        return Estimate(None, None, None, 0, "wilson")
    low, high = intervals.wilson(k, n)
    return Estimate(k / n, low, high, n, "wilson")


def share_ci(values: Sequence[float]) -> Estimate:
    """The mean of per-game values in [0, 1] and Wilson's score interval with k = their
    sum: exact Wilson for 0/1 values; for values between, conservative, since a value in
    [0, 1] with mean p has a variance of at most p(1 - p), the variance the score
    interval assumes."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, "wilson")
    k = math.fsum(values)
    low, high = intervals.wilson(k, n)
    return Estimate(k / n, low, high, n, "wilson")


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (n - 1); two passes, for accuracy."""
    n = len(values)
    m = math.fsum(values) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(math.fsum((x - m) ** 2 for x in values) / (n - 1))


def mean_ci(values: Sequence[float]) -> Estimate:
    """The mean of per-game values and its t interval."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, "t")
    m, sd = mean_sd(values)
    if n < 2:
        return Estimate(m, None, None, n, "t")
    half = t975(n - 1) * sd / math.sqrt(n)
    return Estimate(m, m - half, m + half, n, "t")


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile by linear interpolation between order statistics (numpy's default,
    Hyndman and Fan's type 7)."""
    n = len(sorted_values)
    h = (n - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def quantile_ci(sorted_values: Sequence[float], q: float) -> Estimate:
    """The q-quantile and its distribution-free interval: the order statistics whose
    ranks bound the binomial(n, q) count of values below the quantile (normal
    approximation to the binomial; no interval under 20 values)."""
    n = len(sorted_values)
    if n == 0:
        return Estimate(None, None, None, 0, "order")
    v = quantile(sorted_values, q)
    if n < 20:
        return Estimate(v, None, None, n, "order")
    spread = Z * math.sqrt(n * q * (1 - q))
    lo = max(1, math.floor(n * q - spread))
    hi = min(n, math.ceil(n * q + spread) + 1)
    return Estimate(v, sorted_values[lo - 1], sorted_values[hi - 1], n, "order")


# ---------------------------------------------------------------------- differences B - A
def newcombe(ka: int, na: int, kb: int, nb: int) -> Estimate:
    """B's rate minus A's, independent samples: Newcombe's hybrid score interval (his
    method 10, 1998), from the two Wilson intervals by square-and-add."""
    if na == 0 or nb == 0:
        return Estimate(None, None, None, 0, "newcombe")
    a, b = wilson(ka, na), wilson(kb, nb)
    return _square_and_add(a, b, 0.0, min(na, nb), "newcombe")


def newcombe_paired(pairs: Sequence[tuple[bool, bool]]) -> Estimate:
    """B's rate minus A's when each game i gave one 0/1 outcome under A and one under B:
    Newcombe's paired square-and-add interval with the phi correction for the
    correlation of the pairs (his method 10 for paired data, 1998)."""
    n = len(pairs)
    if n == 0:
        return Estimate(None, None, None, 0, "newcombe-paired")
    both = sum(1 for x, y in pairs if x and y)
    only_a = sum(1 for x, y in pairs if x and not y)
    only_b = sum(1 for x, y in pairs if y and not x)
    neither = n - both - only_a - only_b
    a = wilson(both + only_a, n)
    b = wilson(both + only_b, n)
    # phi of the 2x2 table, with Newcombe's correction toward 0 for a positive association
    marg = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = 0.0
    if marg > 0:
        cross = both * neither - only_a * only_b
        c = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
        phi = c / math.sqrt(marg)
    return _square_and_add(a, b, phi, n, "newcombe-paired")


def _square_and_add(a: Estimate, b: Estimate, phi: float, n: int, method: str) -> Estimate:
    assert a.value is not None and a.low is not None and a.high is not None
    assert b.value is not None and b.low is not None and b.high is not None
    d = b.value - a.value
    # the lower limit of B - A comes from B's lower and A's upper error, and vice versa
    eb_lo, ea_hi = b.value - b.low, a.high - a.value
    eb_hi, ea_lo = b.high - b.value, a.value - a.low
    low = d - math.sqrt(max(0.0, eb_lo**2 - 2 * phi * eb_lo * ea_hi + ea_hi**2))
    high = d + math.sqrt(max(0.0, eb_hi**2 - 2 * phi * eb_hi * ea_lo + ea_lo**2))
    return Estimate(d, max(-1.0, low), min(1.0, high), n, method)


def paired_diff(pairs: Sequence[tuple[float, float]]) -> Estimate:
    """Mean of B - A over games measured under both: the t interval on the differences."""
    diffs = [y - x for x, y in pairs]
    e = mean_ci(diffs)
    return Estimate(e.value, e.low, e.high, e.n, "t-paired")


def welch_diff(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """Mean of B minus mean of A, independent samples: Welch's t interval with the
    Welch-Satterthwaite degrees of freedom."""
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        return Estimate(None, None, None, 0, "welch")
    ma, sa = mean_sd(a)
    mb, sb = mean_sd(b)
    d = mb - ma
    if na < 2 or nb < 2:
        return Estimate(d, None, None, min(na, nb), "welch")
    va, vb = sa * sa / na, sb * sb / nb
    se = math.sqrt(va + vb)
    if se == 0:
        return Estimate(d, d, d, min(na, nb), "welch")
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    half = t975(max(1.0, df)) * se
    return Estimate(d, d - half, d + half, min(na, nb), "welch")
