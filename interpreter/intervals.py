"""The 95% interval of a rate, shared by every layer that reports one (the solver's
winnability, the analysis's win rates): one formula, written once."""

from __future__ import annotations

import math
from statistics import NormalDist

LEVEL = 0.95
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)  # 1.959963...


def wilson(k: float, n: int) -> tuple[float, float]:
    """Wilson's score interval for k successes in n trials; (0, 1) when n is 0. A k that
    is not whole is the sum of n values in [0, 1] (a win share): the interval is then the
    score interval under the largest variance a value in [0, 1] with that mean can have."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at k = 0 or k = n the interval touches 0 or 1 exactly (rounding may miss it)
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high
