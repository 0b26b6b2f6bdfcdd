"""Confidence intervals: means, proportions, and differences between rulesets.

95% intervals throughout, each inside the range its measure can take. A proportion uses
Wilson's interval. A mean uses the normal approximation (the runs are hundreds of hands or
more), taken on a scale that respects the measure's range: the log of the distance to the
bound for a measure bounded on one side (bombs per hand cannot be negative), the logit for one
bounded on both; so an interval never reaches outside what the measure can be. A difference
between rulesets uses the per-hand differences when the hands are paired (same deals) and
Welch's interval otherwise.
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


def interval_name(low: float | None, high: float | None) -> str:
    """Which interval :func:`mean_interval` uses for a measure with this range."""
    if low is None and high is None:
        return "normal"
    if low is not None and high is not None:
        return "logit-normal"
    return "log-normal"


def mean_interval(values: Sequence[float], low: float | None = None,
                  high: float | None = None) -> Estimate:
    """The mean and its normal-approximation interval, kept inside ``[low, high]``.

    With a bound, the interval is computed on the log (one bound) or logit (two bounds) scale
    of the mean's distance to it (the delta method) and mapped back, so it cannot cross the
    bound; without one, it is the plain normal interval.

    >>> mean_interval([1.0, 2.0, 3.0]).mean
    2.0
    >>> rare = [0.0] * 999 + [1.0]
    >>> round(mean_interval(rare).low, 5), round(mean_interval(rare, low=0).low, 5)
    (-0.00096, 0.00014)
    """
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    se = math.sqrt(var / n)
    if low is not None and high is not None and high > low:
        p = (mean - low) / (high - low)
        if not 0 < p < 1:
            return Estimate(mean, mean, mean, n)
        half = Z95 * se / ((high - low) * p * (1 - p))
        logit = math.log(p / (1 - p))
        lo, hi = (low + (high - low) / (1 + math.exp(-(logit + d))) for d in (-half, half))
        return Estimate(mean, lo, hi, n)
    if low is not None or high is not None:
        bound, sign = (low, 1.0) if low is not None else (high, -1.0)
        assert bound is not None
        gap = sign * (mean - bound)
        if gap <= 0:
            return Estimate(mean, mean, mean, n)
        half = Z95 * se / gap
        a, b = (bound + sign * gap * math.exp(d) for d in (-half, half))
        return Estimate(mean, min(a, b), max(a, b), n)
    return Estimate(mean, mean - Z95 * se, mean + Z95 * se, n)


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
