"""A comparison run: which rulesets and hands to play, where results go, and how a run resumes.

Every ruleset is loaded and checked once, before any hand is played (:meth:`RunSpec.resolve`);
results are keyed by the ruleset's id, and two different rulesets with one id, or one ruleset
named twice, are refused rather than merged. Workers load a ruleset by the reference resolved
here (a bundled id or an absolute path) and check its content digest, so a file edited during
a run is caught instead of mixing hands of two rulesets.

With ``out``, results go to a JSON Lines file (:mod:`ddz_rules.compare.results`): a header
naming the run, then one line per finished hand. ``resume`` continues such a file: no hand is
lost or counted twice, and the results equal an uninterrupted run's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ddz_rules.compare import executors
from ddz_rules.compare.results import TRACES, ResultsFile, RowCheck, RowKind, Trace
from ddz_rules.compare.runner import (
    MAX_WHOLE_POSITIONS,
    Task,
    check_bots,
    prepare_bots,
    ruleset_digest,
)
from ddz_rules.dealsets import DealSet, read_deals
from ddz_rules.errors import DdzError, Named, RunFailed, UsageError
from ddz_rules.ruleset import Ruleset, load, names_a_file


@dataclass(frozen=True)
class Entrant:
    """One ruleset of a run: as the user named it, as loaded, and how a worker loads it."""

    name: str
    ruleset: Ruleset
    reference: str
    digest: str

    @property
    def id(self) -> str:
        return self.ruleset.id


def entrant_of(name: str) -> Entrant:
    """Load a ruleset for a run: as named, as loaded, and how a worker will load it."""
    ruleset = load(name)
    reference = str(Path(name).resolve()) if names_a_file(name) else name
    return Entrant(name, ruleset, reference, ruleset_digest(ruleset))


@dataclass(frozen=True)
class RunSpec:
    """What a run plays: rulesets (ids or files), hands per ruleset, bot level, seed."""

    rulesets: tuple[str, ...]
    #: Hands per ruleset; None with ``deals``: every deal of the set.
    hands: int | None
    bots: str
    seed: int
    #: Whether each hand's endgame is judged with every card open (the open-hand measure).
    open_hand: bool = False
    #: A deal set (:mod:`ddz_rules.dealsets`) whose deals the hands are dealt, in order,
    #: instead of seeded deals, and its format (None: the one its first byte shows).
    deals: str | None = None
    deals_format: str | None = None
    #: With ``open_hand``, the positions each whole deal's judgement may search (None: the
    #: runner's default, :data:`~ddz_rules.compare.runner.WHOLE_POSITIONS`).
    whole_positions: int | None = None

    def resolve(self) -> tuple[Entrant, ...]:
        """Load every ruleset once and check the run: hands, bots, and one id per ruleset."""
        return self._entrants

    @property
    def played(self) -> int:
        """Hands played per ruleset: ``hands``, or every deal of the deal set."""
        hands = self.hands
        if hands is None:
            sets = self._dealsets
            if not sets:
                raise UsageError(Named("hands"), " is needed where no deal set is given")
            hands = len(next(iter(sets.values())).deals)
        return hands

    @cached_property
    def _dealsets(self) -> dict[str, DealSet]:
        """The deal set as each ruleset deals it (empty without one)."""
        if self.deals is None:
            return {}
        return {e.id: read_deals(self.deals, e.ruleset, self.deals_format)
                for e in self._entrants}

    def _check_hands(self) -> None:
        hands = self.played
        if not 1 <= hands <= MAX_HANDS:
            raise UsageError(Named("hands"), f" must be between 1 and {MAX_HANDS:,}, got "
                             f"{hands} "
                             "(every hand's result is held for the paired differences; for "
                             "more, run several seeds)")
        for dealset in self._dealsets.values():
            if hands > len(dealset.deals):
                raise UsageError(Named("hands"), f" is {hands}, but {self.deals} holds "
                                 f"{len(dealset.deals)} deals")

    @cached_property
    def _entrants(self) -> tuple[Entrant, ...]:
        if self.hands is not None and not 1 <= self.hands <= MAX_HANDS:
            raise UsageError(Named("hands"), f" must be between 1 and {MAX_HANDS:,}, got "
                             f"{self.hands} "
                             "(every hand's result is held for the paired differences; for "
                             "more, run several seeds)")
        if not self.rulesets:
            raise UsageError("name at least one ruleset to compare")
        entrants: list[Entrant] = []
        for name in self.rulesets:
            entrant = entrant_of(name)
            check_bots(entrant.ruleset, [self.bots])
            for seen in entrants:
                if seen.digest == entrant.digest:
                    raise UsageError(f"'{seen.name}' and '{name}' are the same ruleset; name "
                                     "each ruleset once")
                if seen.id == entrant.id:
                    raise UsageError(
                        f"'{seen.name}' and '{name}' are different rulesets with the same id "
                        f"'{entrant.id}' ({entrant.ruleset.where('id')}); give each its own id "
                        "so their results are kept apart")
            entrants.append(entrant)
        for entrant in entrants:
            prepare_bots(entrant.ruleset, [self.bots])
        return tuple(entrants)

    def check(self) -> None:
        """Refuse a run that cannot be played, before anything is played: every ruleset,
        the bots, the hands, the deal set and the whole deal's budget."""
        self.resolve()
        self._check_hands()
        if self.whole_positions is not None:
            if not self.open_hand:
                raise UsageError(Named("whole_positions"), " is a budget for judging whole "
                                 "deals with every card open, which only an open-hand run does")
            if not 1 <= self.whole_positions <= MAX_WHOLE_POSITIONS:
                raise UsageError(Named("whole_positions"), " must be between 1 and "
                                 f"{MAX_WHOLE_POSITIONS:,}, got {self.whole_positions:,}")

    @property
    def identity(self) -> dict[str, Any]:
        """What makes two runs' hands the same hands: rulesets (by content), bots, seed."""
        found = {"rulesets": [e.id for e in self.resolve()], "bots": self.bots,
                 "seed": self.seed, "digests": {e.id: e.digest for e in self.resolve()}}
        if self.deals is not None:
            found["deals"] = next(iter(self._dealsets.values())).digest
        if self.whole_positions is not None:
            found["whole_positions"] = self.whole_positions
        return {**found, "open_hand": True} if self.open_hand else found

    def header(self) -> dict[str, Any]:
        """The run as reports show it (the number of hands included)."""
        run = {"rulesets": [e.id for e in self.resolve()], "hands": self.played,
               "bots": self.bots, "seed": self.seed}
        if self.whole_positions is not None:
            run["whole_positions"] = self.whole_positions
        return {"run": {**run, "deals": self.deals} if self.deals else run}

    def loaded(self) -> dict[str, Ruleset]:
        """Each ruleset by id, as loaded once for the run."""
        return {e.id: e.ruleset for e in self.resolve()}

    def tasks(self) -> list[Task]:
        """Hand 0 of every ruleset, then hand 1 of each, and so on: each batch is a sample of
        every ruleset, so the rate the first batches are played at (which estimates the
        run's time) is the whole run's, not that of its first ruleset. A hand's trace
        depends only on its task, so the order changes no result."""
        entrants = self.resolve()
        self._check_hands()
        sets = self._dealsets
        return [Task(e.reference, self.bots, self.seed, i, digest=e.digest,
                     open_hand=self.open_hand,
                     deal=sets[e.id].deals[i] if sets else None,
                     whole_positions=self.whole_positions)
                for i in range(self.played) for e in entrants]


#: Most hands per ruleset in one run: each hand's trace is kept in memory (about 1.5 kB) for
#: the paired differences, so a run of three rulesets stays under a gigabyte.
MAX_HANDS = 200_000
#: Most local worker processes (each holds its own compiled tables).
MAX_WORKERS = 64


def execute(spec: RunSpec, *, workers: int = 1, scheduler: str | None = None,
            out: Path | None = None, resume: bool = False,
            progress: Callable[[int, int], None] | None = None) -> dict[str, list[Trace]]:
    """Play the run (or what is left of it); return each ruleset's traces by index."""
    entrants = spec.resolve()
    by_reference = {e.reference: e.id for e in entrants}
    done = run_tasks(spec.tasks(), lambda t: (by_reference[t.ruleset], t.index),
                     spec.identity, workers=workers, scheduler=scheduler, out=out,
                     resume=resume, progress=progress)
    return {e.id: [done[(e.id, i)] for i in range(spec.played)] for e in entrants}


def run_tasks(tasks: Sequence[Any], key: Callable[[Any], tuple[str, int]],
              identity: dict[str, Any], *, workers: int = 1, scheduler: str | None = None,
              out: Path | None = None, resume: bool = False,
              progress: Callable[[int, int], None] | None = None,
              play: Callable[[list[Any]], list[Trace]] | None = None, size: int | None = None,
              kind: RowKind = TRACES, check: RowCheck | None = None
              ) -> dict[tuple[str, int], Trace]:
    """Play ``tasks`` (those ``out`` does not already hold when resuming) and return every
    result by ``key``: ``(ruleset id, index)``, which each result row also holds.

    The one loop behind ``ddz compare`` and ``ddz match``: arguments checked before anything
    is played, results appended to ``out`` batch by batch, and a fault or an interrupt ends in
    one line that says what was kept. On ``resume``, every row read back is checked against
    the run (:meth:`~ddz_rules.compare.results.ResultsFile.reopen`, with ``check``).
    """
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(Named("workers"), f" must be between 1 and {MAX_WORKERS}, got "
                         f"{workers}")
    if resume and out is None:
        raise UsageError(Named("resume"), " needs ", Named("out"),
                         " FILE, the results file to continue")
    if scheduler is not None:
        executors.check_address(scheduler)
    done: dict[tuple[str, int], Trace] = {}
    results: ResultsFile | None = None
    if out is not None:
        results = (ResultsFile.reopen(out, identity, kind, check) if resume
                   else ResultsFile.create(out, identity, kind))
        done = results.done
    try:
        todo = [t for t in tasks if key(t) not in done]
        total = len(tasks)
        finished = total - len(todo)
        if progress:
            progress(finished, total)
        try:
            for batch in executors.run(todo, workers, scheduler, play=play, size=size):
                if results is not None:
                    results.append(batch)
                for row in batch:
                    done[(row["ruleset"], row["index"])] = row
                finished += len(batch)
                if progress:
                    progress(finished, total)
        except DdzError as exc:  # ExecutorFault among them
            raise RunFailed(*exc.args, "; ", *_kept(results, finished, total)) from None
        except KeyboardInterrupt:
            raise KeyboardInterrupt(RunFailed(*_kept(results, finished, total))) from None
    finally:
        if results is not None:
            results.close()
    return done


def _kept(results: ResultsFile | None, finished: int, total: int) -> tuple[str | Named, ...]:
    """What an interrupted or failed run kept, and how to go on: an interrupt carries it as a
    :class:`RunFailed` of its own, so the words name the run's arguments (``out``)."""
    if results is None:
        return (f"{finished} of {total} hands were played and not saved (use ", Named("out"),
                " FILE to keep finished hands across a failure)")
    return (f"{results.rows} hands are kept in {results.path}: rerun the same command with ",
            Named("resume"), " to play the rest")
