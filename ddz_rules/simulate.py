"""Whole hands with uniformly random legal players: a smoke test of every ruleset at scale.

Hand ``i`` of a run with seed ``S`` is dealt from seed ``hand_seed(S, i)`` with the deal
passing round the table, so a run is reproducible hand by hand. Given a deal set
(:mod:`ddz_rules.dealsets`), hand ``i`` is its deal ``i`` instead, played once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddz_rules.errors import Named, UsageError
from ddz_rules.game import Deal, Hand
from ddz_rules.match import next_dealer
from ddz_rules.outputs import write_new
from ddz_rules.records import record_text, ruleset_beside, to_record
from ddz_rules.ruleset import Ruleset
from ddz_rules.runner import play_random as play_random  # the reference loop, re-exported
from ddz_rules.scoring import Result


def hand_seed(seed: int, index: int) -> int:
    """The deal seed of hand ``index`` in a run seeded ``seed``."""
    return seed * 1_000_003 + index


def random_hands(ruleset: Ruleset, hands: int, seed: int) -> Iterator[Hand]:
    """``hands`` played hands (redeals included in the stream, each its own deal)."""
    played = 0
    index = 0
    dealer = 0
    while played < hands:
        hand = play_random(ruleset, hand_seed(seed, index), dealer=dealer)
        index += 1
        assert hand.result is not None
        if not hand.result.redeal:
            played += 1
        dealer = next_dealer(ruleset, dealer, hand.result.redeal)  # match.rotation
        yield hand


@dataclass
class Summary:
    """Counts over a run: wins, scores by role, multipliers, redeals; where there is no
    landlord (``teams.sides: each_alone``), the first players out, the seats shut out, the
    bombs paid at once and the liable seats instead of the landlord's figures."""

    ruleset: str
    hands: int = 0
    redeals: int = 0
    landlord_wins: int = 0
    landlord_score: int = 0
    peasant_score: int = 0
    multipliers: Counter[int] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    #: Without a landlord: hands each seat went out first, what the first player out won,
    #: the cards left in the losers' hands, the seats shut out, bombs paid, liable seats.
    first_out: Counter[int] = field(default_factory=Counter)
    first_out_score: int = 0
    cards_left: int = 0
    shut_out: int = 0
    shut_out_hands: int = 0
    bombs_paid: Counter[str] = field(default_factory=Counter)
    liable: int = 0

    def add(self, result: Result) -> None:
        if result.redeal:
            self.redeals += 1
            return
        self.hands += 1
        if result.first_out is not None:
            self.first_out[result.first_out] += 1
            self.first_out_score += result.scores[result.first_out]
            self.cards_left += sum(result.cards_left)
            self.shut_out += len(result.shut_out)
            self.shut_out_hands += bool(result.shut_out)
            self.bombs_paid.update(p.name for p in result.bombs_paid)
            self.liable += result.liable is not None
            return
        assert result.landlord is not None
        self.landlord_wins += result.winner == "landlord"
        self.landlord_score += result.scores[result.landlord]
        self.peasant_score += sum(result.scores) - result.scores[result.landlord]
        self.multipliers[result.multiplier] += 1
        self.events.update(e.name for e in result.events)

    def to_json(self, peasants: int) -> dict[str, Any]:
        n = max(self.hands, 1)
        if self.first_out:
            losers = n * peasants  # every seat but the first out, each hand
            return {
                "ruleset": self.ruleset,
                "hands": self.hands,
                "redeals": self.redeals,
                "first_out": {str(k): v for k, v in sorted(self.first_out.items())},
                "mean_score": {"first_out": round(self.first_out_score / n, 4),
                               "other": round(-self.first_out_score / losers, 4)},
                "mean_cards_left": round(self.cards_left / losers, 4),
                "shut_out": {"seats": self.shut_out, "hands": self.shut_out_hands},
                "bombs_paid": dict(sorted(self.bombs_paid.items())),
                "liable": self.liable,
            }
        return {
            "ruleset": self.ruleset,
            "hands": self.hands,
            "redeals": self.redeals,
            "landlord_wins": self.landlord_wins,
            "landlord_win_rate": round(self.landlord_wins / n, 4),
            "mean_score": {"landlord": round(self.landlord_score / n, 4),
                           "peasant": round(self.peasant_score / n / peasants, 4)},
            "multipliers": {str(k): v for k, v in sorted(self.multipliers.items())},
            "events": dict(sorted(self.events.items())),
        }


def dealt_hands(ruleset: Ruleset, deals: Sequence[Deal], seed: int) -> Iterator[Hand]:
    """Each of ``deals`` played once (a deal thrown in is counted so, not dealt again), the
    choices of hand ``i`` drawn as those of the seeded run's hand ``i``."""
    for index, dealt in enumerate(deals):
        yield play_random(ruleset, hand_seed(seed, index), dealt=dealt)


def simulate(ruleset: Ruleset, hands: int, seed: int, records: Path | None = None,
             deals: Sequence[Deal] | None = None) -> Summary:
    """Play ``hands`` hands at random (with ``deals``, its first ``hands`` deals); write
    every deal's record to ``records`` if given.

    Each record is written whole or not at all, and never over a file that is there already
    unless that file is the same record (:func:`~ddz_rules.outputs.write_new`: running the same
    command again is harmless). A ruleset that is not bundled is written beside the records as
    ``ID.yaml`` (merged, so it stands alone) and the records name that file, so ``ddz replay``
    can check them anywhere.
    """
    summary = Summary(ruleset.id)
    named = ruleset.id
    if records is not None:
        named = _prepare(records, ruleset)
    written = 0
    if deals is not None and hands > len(deals):
        raise UsageError(Named("hands"), f" is {hands}, but the deal set holds {len(deals)} "
                         "deals")
    played = (random_hands(ruleset, hands, seed) if deals is None
              else dealt_hands(ruleset, deals[:hands], seed))
    for index, hand in enumerate(played):
        assert hand.result is not None
        summary.add(hand.result)
        if records is not None:
            record = {**to_record(hand), "ruleset": named}
            path = records / f"{ruleset.id}-{seed}-{index:06d}.json"
            _write(path, record_text(record, path), written)
            written += 1
    return summary


def _prepare(records: Path, ruleset: Ruleset) -> str:
    """Make the records folder (or say why not); the name the records give their ruleset."""
    if records.exists() and not records.is_dir():
        raise UsageError(Named("records"), f" {records} is a file; name a folder for the records")
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(Named("records"), f" {records}: cannot create the folder: "
                         f"{exc.strerror or exc}") from None
    return ruleset_beside(records, ruleset)


def _write(path: Path, text: str, kept: int) -> None:
    write_new(path, text, ("write the records to another folder (", Named("records"), ")"),
              f"the {kept} records written before it are complete")
