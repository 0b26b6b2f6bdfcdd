"""Ratings of bot levels from many seeded matches: ``ddz rate``.

The method, step by step:

* **Seating.** The levels to rate are named once each (at least two). Match ``index`` seats
  them by :func:`seating`: the run cycles through every ordered assignment of levels to the
  ruleset's seats that uses at least two different levels (:func:`assignments`, in a fixed
  order), playing each assignment once with every first dealer (a match's first dealer is its
  index modulo the number of seats). Over a full cycle (:func:`cycle_length` matches) every
  level sits in every seat, and meets every other level in every pair of seats, equally often,
  whoever deals first. A match's seats follow from its index alone, so matches run anywhere
  and a run resumes exactly, as ``ddz match`` runs do.
* **Outcomes.** Each match gives one pairwise result for every two seats held by different
  levels (:func:`pairwise`): the seat with the higher final total (or more hands won, where
  the match is best of N) beats the other; equal totals count half a win each way.
* **Fit.** A Bradley-Terry model, P(a beats b) = 1 / (1 + exp(s_b - s_a)), fitted by maximum
  likelihood with the ``choix`` library (:func:`choix.ilsr_pairwise_dense`, iterative Luce
  spectral ranking, which takes the fractional counts of half wins) and a small
  regularisation :data:`ALPHA`, so that a level that never loses still gets a finite rating.
* **Scale.** Ratings are on the Elo scale, ``400 / ln 10`` (about 173.7) points per unit of
  strength, so a rating difference ``d`` means P(win) = 1 / (1 + 10 ** (-d / 400)), and are
  anchored so that the *first level listed* is at :data:`ANCHOR` (1000): only differences
  are measured.
* **Intervals.** 95% percentile bootstrap over matches: the matches are resampled with
  replacement :data:`RESAMPLES` times (from a generator seeded by the run seed, so the same
  run gives the same intervals), the model is refitted on each resample, and each level's
  interval is the 2.5th to 97.5th percentile of its refitted ratings. Matches, not pairwise
  results, are resampled, because the results of one match are not independent (two peasants
  share a hand's result). The anchor's interval is ``[1000, 1000]`` by construction; the
  others' are intervals for their difference from it.

Needs ``choix`` (``pip install 'ddz-rules[ratings]'``); seating and outcomes do not.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddz_rules.bots import LEVELS
from ddz_rules.compare.matches import (
    MATCH_SCHEMA,
    MatchTask,
    checked_run,
    match_row_fault,
    play_matches,
)
from ddz_rules.compare.results import RowKind
from ddz_rules.compare.run import Entrant, run_tasks
from ddz_rules.errors import Named, UsageError
from ddz_rules.match import ranked_by

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Rating points per unit of Bradley-Terry strength: the Elo scale.
ELO = 400 / math.log(10)
#: The rating of the first level listed.
ANCHOR = 1000.0
#: choix's regularisation: every transition rate of the I-LSR Markov chain starts at ALPHA,
#: which pulls each level's strength a little towards the others'. It keeps the fit finite
#: when a level never loses (30 wins and no loss put one level about 1,270 points above
#: another, where an unregularised fit would diverge); otherwise its pull fades as matches
#: are added (measured against an unregularised fit, for random, standard and medium in
#: classic: about 5 points with 144 matches, under 0.2 points with the README's 3,600).
ALPHA = 0.01
#: Bootstrap resamples behind each interval.
RESAMPLES = 200
#: The seating rule's name, recorded in a results file: a resume refuses another rule.
SEATING = "every-assignment-every-first-dealer/1"
#: One line per match in a ``ddz rate`` results file (the rows of ``ddz match``).
RATINGS = RowKind("ddz-rate-results/2", MATCH_SCHEMA)


def require_choix() -> None:
    """Refuse, in one line, a ratings run without ``choix`` (before anything is played)."""
    try:
        import choix  # noqa: F401
    except ImportError:
        raise UsageError("ddz rate needs choix: pip install 'ddz-rules[ratings]'") from None


# ----------------------------------------------------------------------------- seating


@cache
def assignments(levels: tuple[str, ...], players: int) -> tuple[tuple[str, ...], ...]:
    """Every ordered assignment of ``levels`` to ``players`` seats with at least two
    different levels, in a fixed order (lexicographic in the order the levels are listed).

    >>> assignments(("random", "medium"), 2)
    (('random', 'medium'), ('medium', 'random'))
    >>> len(assignments(("random", "standard", "medium"), 3))  # 3 ** 3 - 3
    24
    """
    return tuple(seats for seats in itertools.product(levels, repeat=players)
                 if len(set(seats)) > 1)


def cycle_length(levels: tuple[str, ...], players: int) -> int:
    """Matches in a full seating cycle: every assignment once with every first dealer."""
    return len(assignments(levels, players)) * players


def seating(levels: tuple[str, ...], players: int, index: int) -> tuple[str, ...]:
    """The seats of match ``index``: each assignment is played ``players`` times in a row,
    once with each first dealer (match ``index`` is first dealt by seat ``index % players``).

    >>> [seating(("random", "medium"), 2, i) for i in range(4)]
    [('random', 'medium'), ('random', 'medium'), ('medium', 'random'), ('medium', 'random')]
    """
    order = assignments(levels, players)
    return order[(index // players) % len(order)]


# ----------------------------------------------------------------------------- outcomes


def pairwise(row: dict[str, Any], by: str = "totals") -> list[tuple[str, str, float]]:
    """A match's pairwise results, ``(winner, loser, weight)``, one for every two seats of
    different levels: the seat with more ``by`` (``totals``, or ``hands_won`` for a best-of
    match) beats the other with weight 1; equal counts give half a win each way.

    >>> pairwise({"seats": ["medium", "random", "random"], "totals": [8, -4, -4]})
    [('medium', 'random', 1.0), ('medium', 'random', 1.0)]
    >>> pairwise({"seats": ["random", "medium"], "totals": [0, 0]})
    [('random', 'medium', 0.5), ('medium', 'random', 0.5)]
    """
    seats, key = row["seats"], row[by]
    results: list[tuple[str, str, float]] = []
    for s, t in itertools.combinations(range(len(seats)), 2):
        if seats[s] == seats[t]:
            continue
        if key[s] == key[t]:
            results += [(seats[s], seats[t], 0.5), (seats[t], seats[s], 0.5)]
        elif key[s] > key[t]:
            results.append((seats[s], seats[t], 1.0))
        else:
            results.append((seats[t], seats[s], 1.0))
    return results


@dataclass(frozen=True)
class Record:
    """One level's pairwise record: matches it sat in, and results won, lost and tied."""

    matches: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0


def records(rows: Sequence[dict[str, Any]], levels: Sequence[str], by: str = "totals"
            ) -> dict[str, Record]:
    """Each level's record over ``rows``: a tie counts once for each side (not twice)."""
    matches: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    losses: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    for row in rows:
        matches.update(set(row["seats"]))
        for winner, loser, weight in pairwise(row, by):
            if weight == 1.0:
                wins[winner] += 1
                losses[loser] += 1
            else:  # each tie appears in both directions: count it once, for the winner side
                ties[winner] += 1
    return {level: Record(matches[level], wins[level], losses[level], ties[level])
            for level in levels}


def comparisons(rows: Sequence[dict[str, Any]], levels: Sequence[str], by: str = "totals"
                ) -> npt.NDArray[np.float64]:
    """Per match, its wins matrix: ``[m, i, j]`` is how often level ``i`` beat level ``j``
    in match ``m`` (halves for ties)."""
    import numpy as np

    where = {level: i for i, level in enumerate(levels)}
    counts = np.zeros((len(rows), len(levels), len(levels)))
    for m, row in enumerate(rows):
        for winner, loser, weight in pairwise(row, by):
            counts[m, where[winner], where[loser]] += weight
    return counts


# ----------------------------------------------------------------------------- the fit


def fit(wins: npt.NDArray[np.float64], alpha: float = ALPHA) -> npt.NDArray[np.float64]:
    """Bradley-Terry ratings from a wins matrix (``wins[i, j]``: how often ``i`` beat ``j``),
    on the Elo scale with level 0 at :data:`ANCHOR`."""
    import choix
    import numpy as np

    strengths = choix.ilsr_pairwise_dense(wins, alpha=alpha, max_iter=10_000)
    return np.asarray(ANCHOR + ELO * (strengths - strengths[0]), dtype=np.float64)


def separated(wins: npt.NDArray[np.float64]) -> bool:
    """Whether the results split the levels into groups one of which never lost to another
    (the wins graph is not strongly connected): then an unregularised fit diverges, and the
    gaps between the groups are set by :data:`ALPHA` rather than measured.

    >>> import numpy as np
    >>> separated(np.array([[0.0, 3.0], [0.0, 0.0]])), separated(np.array([[0.0, 3.0], [1.0, 0.0]]))
    (True, False)
    """
    count = int(wins.shape[0])

    def reached(beat: Callable[[int, int], bool]) -> set[int]:
        seen, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for j in range(count):
                if j not in seen and beat(i, j):
                    seen.add(j)
                    todo.append(j)
        return seen

    return (len(reached(lambda i, j: bool(wins[i, j] > 0))) < count
            or len(reached(lambda i, j: bool(wins[j, i] > 0))) < count)


def bootstrap(per_match: npt.NDArray[np.float64], seed: int, resamples: int = RESAMPLES,
              alpha: float = ALPHA) -> npt.NDArray[np.float64]:
    """Ratings refitted on ``resamples`` resamples of the matches (with replacement), one row
    per resample; the generator is seeded from ``seed`` alone."""
    import numpy as np

    rng = np.random.default_rng([0x44445A, seed % 2**64])
    n = per_match.shape[0]
    flat = per_match.reshape(n, -1)
    fits = []
    for _ in range(resamples):
        weights = np.bincount(rng.integers(0, n, n), minlength=n).astype(float)
        fits.append(fit((weights @ flat).reshape(per_match.shape[1:]), alpha))
    return np.array(fits)


def summarize_ratings(rows: Sequence[dict[str, Any]], levels: Sequence[str], seed: int,
                      by: str = "totals", resamples: int = RESAMPLES, alpha: float = ALPHA
                      ) -> dict[str, Any]:
    """The ladder: each level's rating, its 95% bootstrap interval and its record, strongest
    first, with how the ratings were made."""
    import numpy as np

    per_match = comparisons(rows, levels, by)
    wins = per_match.sum(axis=0)
    ratings = fit(wins, alpha)
    low, high = np.percentile(bootstrap(per_match, seed, resamples, alpha), [2.5, 97.5],
                              axis=0)
    record = records(rows, levels, by)
    strongest = sorted(range(len(levels)), key=lambda i: -float(ratings[i]))
    ladder = [{"level": levels[i], "rating": round(float(ratings[i]), 2),
               "low": round(float(low[i]), 2), "high": round(float(high[i]), 2),
               "matches": record[levels[i]].matches, "wins": record[levels[i]].wins,
               "losses": record[levels[i]].losses, "ties": record[levels[i]].ties}
              for i in strongest]
    return {"levels": list(levels), "matches": len(rows), "seed": seed, "outcome": by,
            "method": "Bradley-Terry, maximum likelihood (choix I-LSR)", "alpha": alpha,
            "scale": {"anchor": levels[0], "rating": ANCHOR, "points_per_unit": ELO},
            "interval": {"level": 0.95, "method": "percentile bootstrap over matches",
                         "resamples": resamples},
            "separated": separated(wins), "ladder": ladder}


# ----------------------------------------------------------------------------- the run


def levels_of(text: str) -> tuple[str, ...]:
    """``--levels``: comma-separated, each named once."""
    return tuple(level.strip() for level in text.split(","))


@dataclass(frozen=True)
class RatingSpec:
    """A ratings run: the ruleset, the levels to rate (the first is the anchor), the seed and
    the number of matches."""

    ruleset: str
    levels: tuple[str, ...]
    seed: int
    matches: int

    def resolve(self) -> Entrant:
        """Load and check everything before a hand is played."""
        return self._entrant

    @cached_property
    def _entrant(self) -> Entrant:
        named = ",".join(self.levels)
        if any(not level for level in self.levels):
            raise UsageError(Named("levels"), f" '{named}' has an empty name; name the levels "
                             "separated by commas, e.g. random,standard,medium")
        repeated = [level for level, n in Counter(self.levels).items() if n > 1]
        if repeated:
            raise UsageError(Named("levels"), f" names '{repeated[0]}' more than once; name each "
                             "level once")
        if len(self.levels) < 2:
            raise UsageError(Named("levels"), f" needs at least two different levels to rate, got "
                             f"'{named}'")
        return checked_run(self.ruleset, self.levels, self.matches)

    @property
    def players(self) -> int:
        return self.resolve().ruleset.players

    @property
    def identity(self) -> dict[str, Any]:
        """What makes two runs' matches the same: the ruleset (by content), the levels, the
        seating rule and the seed."""
        entrant = self.resolve()
        return {"rulesets": [entrant.id], "levels": list(self.levels), "seating": SEATING,
                "seed": self.seed, "digests": {entrant.id: entrant.digest}}

    def seats(self, index: int) -> tuple[str, ...]:
        return seating(self.levels, self.players, index)

    def check_row(self, row: dict[str, Any]) -> str | None:
        """A row read back on resuming, checked against this run: seated as this run seats
        its index, and a match of the run's ruleset (:func:`match_row_fault`)."""
        return match_row_fault(row, self.resolve().ruleset, self.seats(row["index"]))

    def tasks(self) -> list[MatchTask]:
        entrant = self.resolve()
        return [MatchTask(entrant.reference, self.seats(i), self.seed, i, entrant.digest)
                for i in range(self.matches)]

    @property
    def outcome(self) -> str:
        return ranked_by(self.resolve().ruleset)


def execute_ratings(spec: RatingSpec, *, workers: int = 1, scheduler: str | None = None,
                    out: Path | None = None, resume: bool = False,
                    progress: Callable[[int, int], None] | None = None
                    ) -> list[dict[str, Any]]:
    """Play the run's matches (or what is left of them) through the shared run loop
    (:func:`~ddz_rules.compare.run.run_tasks`); their rows by index."""
    entrant = spec.resolve()
    slowest = min(LEVELS[level].hands_per_batch for level in spec.levels)
    size = max(1, slowest // entrant.ruleset.match.hands)
    done = run_tasks(spec.tasks(), lambda t: (entrant.id, t.index), spec.identity,
                     workers=workers, scheduler=scheduler, out=out, resume=resume,
                     progress=progress, play=play_matches, size=size, kind=RATINGS,
                     check=spec.check_row)
    return [done[(entrant.id, i)] for i in range(spec.matches)]


def rate(spec: RatingSpec, *, workers: int = 1, scheduler: str | None = None,
         out: Path | None = None, resume: bool = False,
         progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play a ratings run (or what is left of it) and summarise it: :func:`summarize_ratings`
    with the ruleset, the seating rule and the match rules."""
    require_choix()  # before playing: a missing choix must not waste the run
    entrant = spec.resolve()
    rows = execute_ratings(spec, workers=workers, scheduler=scheduler, out=out, resume=resume,
                           progress=progress)
    rules = entrant.ruleset.match
    return {"ruleset": entrant.id,
            "seating": {"rule": SEATING, "cycle": cycle_length(spec.levels, spec.players)},
            "match": {"length": rules.length, "hands": rules.hands, "ties": rules.ties},
            **summarize_ratings(rows, spec.levels, spec.seed, spec.outcome)}


def ladder_text(summary: dict[str, Any]) -> str:
    """The ladder as ``ddz rate`` prints it: strongest first, with the run line."""
    scale, interval = summary["scale"], summary["interval"]
    lines = [f"{summary['ruleset']}: Bradley-Terry ratings of {len(summary['levels'])} bot "
             f"levels from "
             f"{summary['matches']} matches, seed {summary['seed']}",
             f"  seating: every ordered assignment of the levels to the seats with at least "
             f"two different levels, each once with every first dealer (a cycle of "
             f"{summary['seating']['cycle']} matches)",
             f"  Elo scale, {scale['anchor']} anchored at {scale['rating']:.0f}; 95% "
             f"intervals: {interval['method']} ({interval['resamples']} resamples); pairwise "
             f"results by {summary['outcome'].replace('_', ' ')}",
             "",
             f"  {'rank':>4}  {'level':<10} {'rating':>6}  {'95% interval':<14} "
             f"{'matches':>7}  {'won':>6} {'lost':>6} {'tied':>6}"]
    for rank, e in enumerate(summary["ladder"], start=1):
        span = f"[{e['low']:.0f}, {e['high']:.0f}]"
        lines.append(f"  {rank:>4}  {e['level']:<10} {e['rating']:>6.0f}  {span:<14} "
                     f"{e['matches']:>7}  {e['wins']:>6} {e['losses']:>6} {e['ties']:>6}")
    if summary["separated"]:
        lines.append("  note: some levels never lost to others, so the gaps between them (and "
                     "their intervals) are set by the regularisation, alpha, not measured; play "
                     "more matches")
    return "\n".join(lines)
