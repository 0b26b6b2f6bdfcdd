"""Whole matches played by bots, one level per seat: ``ddz match``.

Match ``index`` of a run seeded ``seed`` deals its ``d``-th deal from :func:`match_deal_seed`;
its first dealer is ``index`` modulo the number of seats, and after that the ruleset's
``match.rotation`` decides (:class:`~ddz_rules.match.MatchState`). A match's result depends
only on the ruleset, the seats' levels, the seed and the index, so matches run anywhere (local
processes, a Dask cluster) and resume exactly, as comparison hands do.
"""

from __future__ import annotations

import random
import reprlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from ddz_rules.bots import LEVELS
from ddz_rules.compare.results import RowKind
from ddz_rules.compare.run import MAX_WORKERS, Entrant, RunSpec, entrant_of, run_tasks
from ddz_rules.compare.runner import bot_for, check_bots, loaded, prepare_bots
from ddz_rules.compare.stats import mean_interval, proportion_interval
from ddz_rules.errors import Named, UsageError
from ddz_rules.game import Hand
from ddz_rules.match import MAX_REDEALS, MatchState, first_dealer, hand_winners
from ddz_rules.records import to_record
from ddz_rules.ruleset import Ruleset

#: Most matches in one run (each result is kept for the summary).
MAX_MATCHES = 100_000

_seats = {"type": "array", "items": {"type": "integer"}}
#: One line per match in a results file.
MATCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["ruleset", "index", "seats", "hands", "totals", "hands_won", "winners", "tie",
                 "counted", "led_alone_from", "deals"],
    "properties": {
        "ruleset": {"type": "string"}, "index": {"type": "integer", "minimum": 0},
        "seats": {"type": "array", "items": {"enum": list(LEVELS)}},
        "hands": {"type": "array", "items": {
            "type": "object", "required": ["dealer", "scores", "winners", "redeal", "counted"],
            "properties": {"dealer": {"type": "integer", "minimum": 0}, "scores": _seats,
                           "winners": _seats, "redeal": {"type": "boolean"},
                           "counted": {"type": "boolean"}}}},
        "totals": _seats, "hands_won": _seats, "winners": _seats, "tie": {"type": "boolean"},
        "counted": {"type": "integer", "minimum": 0},
        "led_alone_from": {"type": ["integer", "null"], "minimum": 0},
        "deals": {"type": "integer", "minimum": 0},
        "focus": {"type": "integer", "minimum": 0},
    },
}
MATCHES = RowKind("ddz-match-results/2", MATCH_SCHEMA)

_SHORT = reprlib.Repr()
_SHORT.maxlist = 8


def match_row_fault(row: dict[str, Any], ruleset: Ruleset, seats: Sequence[str],
                    focus: int | None = None) -> str | None:
    """What is wrong with a match row read back from a results file, or None.

    The row must be seated as the run seats its index (``seats``, and ``focus`` where the run
    has one), and its hands must be a match of ``ruleset`` as :class:`MatchState` plays it:
    each hand a score per seat and winners among the seats, dealt by the seat
    ``match.rotation`` names, counted as ``match.redeal`` says, ending where ``match.length``
    ends it; its totals, hands won, winners, tie, counts and deals the ones its hands give.
    The same rules a match record's replay checks, so no damaged row reaches a summary.
    """
    at = f"match {row['index']}"
    if list(row["seats"]) != list(seats):
        return (f"{at}: field seats: {_SHORT.repr(row['seats'])}, not as this run seats it "
                f"({list(seats)})")
    if row.get("focus") != focus:
        return f"{at}: field focus: {row.get('focus')}, but this run gives it {focus}"
    players = ruleset.players
    state = MatchState(ruleset, first_dealer=first_dealer(ruleset, row["index"]))
    for number, hand in enumerate(row["hands"]):
        where = f"{at}: field hands.{number}"
        if state.over:
            return f"{where}: the match was already over; this hand is one too many"
        if len(hand["scores"]) != players:
            return (f"{where}.scores: {len(hand['scores'])} scores, but {ruleset.id} has "
                    f"{players} seats")
        outside = [s for s in hand["winners"] if not 0 <= s < players]
        if outside:
            return f"{where}.winners: seat {outside[0]}, but seats are 0 to {players - 1}"
        if hand["dealer"] != state.dealer:
            return (f"{where}.dealer: seat {hand['dealer']}, but match.rotation "
                    f"({ruleset.match.rotation}) has seat {state.dealer} deal it")
        state.add(tuple(hand["scores"]), tuple(hand["winners"]), hand["redeal"])
        if hand["counted"] != state.hands[-1].counted:
            return (f"{where}.counted: {hand['counted']}, but match.redeal "
                    f"({ruleset.match.redeal}) says {state.hands[-1].counted}")
    if not state.over:
        return (f"{at}: field hands: {len(state.hands)} deals, {state.counted} counted: the "
                f"match stops before its match rules end it (match.length "
                f"{ruleset.match.length}, match.hands {ruleset.match.hands})")
    outcome = state.outcome()
    for name, actual in (("totals", list(outcome.totals)),
                         ("hands_won", list(outcome.hands_won)),
                         ("winners", list(outcome.winners)), ("tie", outcome.tie),
                         ("counted", outcome.counted), ("led_alone_from", outcome.led_alone_from),
                         ("deals", len(state.hands))):
        if row[name] != actual:
            return f"{at}: field {name}: {_SHORT.repr(row[name])}, but its hands give {actual}"
    return None


def match_deal_seed(seed: int, index: int, deal: int) -> int:
    """The seed of deal ``deal`` (0, 1, ...) of match ``index`` of a run seeded ``seed``."""
    return (seed * 1_000_003 + index) * 1_000_000 + deal


@dataclass(frozen=True)
class MatchTask:
    """One match to play: the ruleset (bundled id or absolute path), each seat's level."""

    ruleset: str
    seats: tuple[str, ...]
    seed: int
    index: int
    digest: str | None = None
    focus: int | None = None

    @property
    def levels(self) -> tuple[str, ...]:
        return self.seats


def play_match(task: MatchTask, records: bool = False) -> dict[str, Any]:
    """Play one match and return its result row (with every hand's record if ``records``)."""
    ruleset = loaded(task.ruleset, task.digest)
    bots = [bot_for(task.ruleset, level, task.digest) for level in task.seats]
    state = MatchState(ruleset, first_dealer=first_dealer(ruleset, task.index))
    written: list[dict[str, Any]] = []
    deal = thrown_in = 0
    while not state.over:
        seed = match_deal_seed(task.seed, task.index, deal)
        hand = Hand.new(ruleset, seed, dealer=state.dealer)
        rng = random.Random(seed ^ 0xB075)
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            hand.apply(bots[seat].choose(hand.view(seat), rng))
        result = hand.result
        state.add(result.scores, hand_winners(result), result.redeal)
        thrown_in = thrown_in + 1 if result.redeal and not state.hands[-1].counted else 0
        if thrown_in > MAX_REDEALS:
            raise UsageError(f"{ruleset.id}: {MAX_REDEALS} deals in a row were thrown in "
                             f"(match {task.index}); the bots never take the hand")
        if records:
            written.append(to_record(hand))
        deal += 1
    outcome = state.outcome()
    row: dict[str, Any] = {
        "ruleset": ruleset.id, "index": task.index, "seats": list(task.seats),
        "hands": [{"dealer": h.dealer, "scores": list(h.scores), "winners": list(h.winners),
                   "redeal": h.redeal, "counted": h.counted} for h in state.hands],
        "totals": list(outcome.totals), "hands_won": list(outcome.hands_won),
        "winners": list(outcome.winners), "tie": outcome.tie, "counted": outcome.counted,
        "led_alone_from": outcome.led_alone_from, "deals": deal,
    }
    if task.focus is not None:
        row["focus"] = task.focus
    if records:
        row["records"] = written
    return row


def play_matches(tasks: list[MatchTask]) -> list[dict[str, Any]]:
    """Play several matches (one unit of work for a process or a Dask worker)."""
    return [play_match(t) for t in tasks]


@dataclass(frozen=True)
class MatchSpec:
    """A run of matches: the ruleset, each seat's level, the seed, how many matches."""

    ruleset: str
    seats: tuple[str, ...]
    seed: int
    matches: int = 1

    def resolve(self) -> Entrant:
        """Load and check everything before a hand is played (once: the run's ruleset)."""
        return self._entrant

    @cached_property
    def _entrant(self) -> Entrant:
        return checked_run(self.ruleset, self.seats, self.matches)

    @property
    def identity(self) -> dict[str, Any]:
        entrant = self.resolve()
        return {"rulesets": [entrant.id], "bots": list(self.seats), "seed": self.seed,
                "digests": {entrant.id: entrant.digest}}

    def tasks(self) -> list[MatchTask]:
        entrant = self.resolve()
        return [MatchTask(entrant.reference, self.seats, self.seed, i, entrant.digest)
                for i in range(self.matches)]

    def check_row(self, row: dict[str, Any]) -> str | None:
        """A row read back on resuming, checked against this run (:func:`match_row_fault`)."""
        return match_row_fault(row, self.resolve().ruleset, self.seats)


def check_matches(matches: int) -> None:
    """``--matches``: between 1 and :data:`MAX_MATCHES`."""
    if not 1 <= matches <= MAX_MATCHES:
        raise UsageError(Named("matches"), f" must be between 1 and {MAX_MATCHES:,}, got {matches}")


def checked_run(ruleset: str, levels: Sequence[str], matches: int) -> Entrant:
    """The ruleset of a run of matches, loaded once, with its levels and count checked."""
    check_matches(matches)
    entrant = entrant_of(ruleset)
    check_bots(entrant.ruleset, list(levels))
    prepare_bots(entrant.ruleset, list(levels))
    return entrant


def seats_of(levels: str, players: int) -> tuple[str, ...]:
    """``--bots``: one level for every seat, or one per seat, comma-separated."""
    named = tuple(level.strip() for level in levels.split(","))
    if len(named) == 1:
        return named * players
    if len(named) != players:
        raise UsageError(Named("bots"), f" names {len(named)} levels for {players} seats; name one "
                         "level for every seat, or one per seat")
    return named


def execute_matches(spec: MatchSpec, *, workers: int = 1, scheduler: str | None = None,
                    out: Path | None = None, resume: bool = False,
                    progress: Any = None) -> list[dict[str, Any]]:
    """Play the run's matches (or what is left of them); their rows by index."""
    entrant = spec.resolve()
    slowest = min(LEVELS[level].hands_per_batch for level in spec.seats)
    size = max(1, slowest // entrant.ruleset.match.hands)
    done = run_tasks(spec.tasks(), lambda t: (entrant.id, t.index), spec.identity,
                     workers=min(workers, MAX_WORKERS) if workers >= 1 else workers,
                     scheduler=scheduler, out=out, resume=resume, progress=progress,
                     play=play_matches, size=size, kind=MATCHES, check=spec.check_row)
    return [done[(entrant.id, i)] for i in range(spec.matches)]


def summarize_matches(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Over many matches: each seat's and level's share of wins (ties counted apart), the tie
    rate, and the match's length in counted hands and in deals, with 95% intervals."""
    n = len(rows)
    seats = rows[0]["seats"]
    outright = [[s in r["winners"] and not r["tie"] for r in rows] for s in range(len(seats))]
    by_level: Counter[str] = Counter()
    places: Counter[str] = Counter()
    for r in rows:
        for s, level in enumerate(r["seats"]):
            places[level] += 1
            by_level[level] += s in r["winners"] and not r["tie"]
    return {
        "matches": n,
        "seats": [{"seat": s, "level": level,
                   "wins": proportion_interval(sum(outright[s]), n).to_json()}
                  for s, level in enumerate(seats)],
        "levels": {level: {"wins": by_level[level], "seats_played": places[level],
                           "win_rate": proportion_interval(by_level[level],
                                                           places[level]).to_json()}
                   for level in sorted(places)},
        "ties": proportion_interval(sum(r["tie"] for r in rows), n).to_json(),
        "hands": mean_interval([float(r["counted"]) for r in rows], low=0).to_json(),
        "deals": mean_interval([float(r["deals"]) for r in rows], low=0).to_json(),
        "led_alone_before_last": proportion_interval(
            sum(1 for r in rows if r["led_alone_from"] is not None
                and r["led_alone_from"] < r["counted"]), n).to_json(),
    }


@dataclass(frozen=True)
class MatchComparison:
    """``ddz compare --match-levels STRONGER,WEAKER``: matches per ruleset with the stronger
    level in one seat (seat ``index`` modulo the players) and the weaker in the others.

    Rulesets that share a deck play the same deals match by match, so their differences are
    paired, as hands are in a comparison of hands.
    """

    rulesets: tuple[str, ...]
    stronger: str
    weaker: str
    matches: int
    seed: int

    @cached_property
    def run_spec(self) -> RunSpec:
        """The rulesets as a comparison of hands loads and checks them (once)."""
        return RunSpec(self.rulesets, self.matches, self.stronger, self.seed)

    def resolve(self) -> tuple[Entrant, ...]:
        """Load and check everything before a hand is played (once)."""
        return self._entrants

    @cached_property
    def _entrants(self) -> tuple[Entrant, ...]:
        if self.stronger == self.weaker:
            raise UsageError(Named("match_levels"), f" names {self.stronger!r} twice; name "
                             "a stronger and a weaker level, such as medium,standard")
        check_matches(self.matches)
        entrants = self.run_spec.resolve()
        for entrant in entrants:
            check_bots(entrant.ruleset, [self.weaker])
            prepare_bots(entrant.ruleset, [self.stronger, self.weaker])
        return entrants

    @property
    def identity(self) -> dict[str, Any]:
        entrants = self.resolve()
        return {"rulesets": [e.id for e in entrants], "bots": [self.stronger, self.weaker],
                "seed": self.seed, "digests": {e.id: e.digest for e in entrants}}

    def header(self) -> dict[str, Any]:
        return {"run": {"rulesets": [e.id for e in self.resolve()], "matches": self.matches,
                        "stronger": self.stronger, "weaker": self.weaker, "seed": self.seed}}

    def seats(self, players: int, index: int) -> tuple[str, ...]:
        """The seats of match ``index``: the stronger level in seat ``index`` modulo the
        players, the weaker in the others."""
        return tuple(self.stronger if s == index % players else self.weaker
                     for s in range(players))

    def tasks(self) -> list[MatchTask]:
        found = []
        for entrant in self.resolve():
            n = entrant.ruleset.players
            for i in range(self.matches):
                found.append(MatchTask(entrant.reference, self.seats(n, i), self.seed, i,
                                       entrant.digest, focus=i % n))
        return found

    def check_row(self, row: dict[str, Any]) -> str | None:
        """A row read back on resuming, checked against this run (:func:`match_row_fault`)."""
        ruleset = next(e.ruleset for e in self.resolve() if e.id == row["ruleset"])
        n = ruleset.players
        return match_row_fault(row, ruleset, self.seats(n, row["index"]), row["index"] % n)


def execute_comparison(spec: MatchComparison, *, workers: int = 1,
                       scheduler: str | None = None, out: Path | None = None,
                       resume: bool = False, progress: Any = None
                       ) -> dict[str, list[dict[str, Any]]]:
    """Play every ruleset's matches; each ruleset's rows by index."""
    entrants = spec.resolve()
    by_reference = {e.reference: e.id for e in entrants}
    done = run_tasks(spec.tasks(), lambda t: (by_reference[t.ruleset], t.index),
                     spec.identity, workers=workers, scheduler=scheduler, out=out,
                     resume=resume, progress=progress, play=play_matches, size=1,
                     kind=MATCHES, check=spec.check_row)
    return {e.id: [done[(e.id, i)] for i in range(spec.matches)] for e in entrants}
