"""How long a run will take, estimated from the rate its results come in once it has started.

The first result of a run comes late: the worker processes start, import, compile their
rulesets' tables and load the bots' outlooks before any hand is played, and with several
workers the first result is one of several batches finishing together. An estimate made from
the run's start to its first result counts all of that as playing time, and told the README's
first command it would take minutes where it takes seconds. So the rate is measured from the
first result on, and no estimate is given until :attr:`RunClock.MIN_RESULTS` more results
and :attr:`RunClock.MIN_SECONDS` seconds have come in since it. The start-up time is still in
the estimate of the whole run, as time already spent.

>>> clock = RunClock()
>>> clock.tick(0, 100, now=0.0)  # the run starts
>>> clock.tick(10, 100, now=8.0)  # the first result, after 8 s of start-up: no estimate
>>> [clock.tick(10 + 10 * k, 100, now=8.0 + k) for k in (1, 2, 3)]
[None, None, None]
>>> clock.tick(50, 100, now=12.0)
Estimate(per_unit=0.1, whole=17.0)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Estimate:
    """Seconds a unit (hand or match) takes at the rate measured since the first result, and
    the seconds the whole run will take at that rate, the time spent so far included."""

    per_unit: float
    whole: float


class RunClock:
    """The clock of one run: fed ``(done, total, now)`` after each finished batch (the first
    call at the start, with what a resumed run already holds), it returns an
    :class:`Estimate` once enough results have come in since the first, else ``None``."""

    #: Results after the first one before a rate is trusted (every worker has delivered).
    MIN_RESULTS = 4
    #: Seconds after the first result before a rate is trusted.
    MIN_SECONDS = 3.0

    def __init__(self) -> None:
        self.start: tuple[int, float] | None = None
        self.first: tuple[int, float] | None = None
        self.results = 0

    def tick(self, done: int, total: int, now: float) -> Estimate | None:
        """Record that ``done`` of ``total`` units are finished at time ``now`` (seconds)."""
        if self.start is None:
            self.start = (done, now)
            return None
        if self.first is None:
            if done > self.start[0]:
                self.first = (done, now)
            return None
        self.results += 1
        played, elapsed = done - self.first[0], now - self.first[1]
        if self.results < self.MIN_RESULTS or elapsed < self.MIN_SECONDS or played <= 0:
            return None
        per_unit = elapsed / played
        return Estimate(per_unit, now - self.start[1] + per_unit * (total - done))
