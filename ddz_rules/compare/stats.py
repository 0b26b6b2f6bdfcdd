"""Confidence intervals: means, proportions, and differences between rulesets.

95% intervals throughout. A proportion uses Wilson's interval; a mean uses the normal
approximation (the runs are hundreds of hands or more); a difference between rulesets uses the
per-hand differences when the hands are paired (same deals) and Welch's interval otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% interval and sample size."""

    mean: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        return {"mean": round(self.mean, 6), "low": round(self.low, 6),
                "high": round(self.high, 6), "n": self.n}


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean and its normal-approximation interval.

    >>> mean_interval([1.0, 2.0, 3.0]).mean
    2.0
    """
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def proportion_interval(successes: int, n: int) -> Estimate:
    """Wilson's interval for a proportion.

    >>> e = proportion_interval(50, 100)
    >>> round(e.low, 3), round(e.high, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, centre - half, centre + half, n)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """Mean of ``a[i] - b[i]`` over paired hands, with its interval."""
    return mean_interval([x - y for x, y in zip(a, b, strict=True)])


def welch_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """Difference of means of two independent samples, with Welch's interval."""
    ea, eb = mean_interval(a), mean_interval(b)
    if ea.n < 2 or eb.n < 2:
        return Estimate(ea.mean - eb.mean, math.nan, math.nan, min(ea.n, eb.n))
    va = sum((x - ea.mean) ** 2 for x in a) / (ea.n - 1)
    vb = sum((x - eb.mean) ** 2 for x in b) / (eb.n - 1)
    half = Z95 * math.sqrt(va / ea.n + vb / eb.n)
    diff = ea.mean - eb.mean
    return Estimate(diff, diff - half, diff + half, min(ea.n, eb.n))
