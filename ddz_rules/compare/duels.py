"""One bot level against another, hand by hand, on paired deals with the seats rotated.

Deal ``i`` of a duel seeded ``seed`` is the deal of hand ``i`` of a comparison run with that
seed (:func:`~ddz_rules.compare.runner.deal_seed`, dealt by seat ``i`` modulo the seats). It is
played once for every seat: ``level`` in that seat, ``against`` in all the others. Over the
seatings every seat holds each level, so what the cards give a seat cancels out, and the deal's
value is the mean score per hand of ``level``'s seat minus that of the ``against`` seats. The
mean over the deals comes with its 95% interval (:func:`~ddz_rules.compare.stats.mean_interval`);
the deals are independent, the seatings of one deal are not, so the deal is the unit.

It needs no landlord (every seat plays for itself in Run Fast), and works as well where there
is one: a deal thrown in is dealt again (the next attempt's seed), as in a comparison run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ddz_rules.bots import make_bot
from ddz_rules.compare.runner import check_bots
from ddz_rules.compare.stats import Estimate, mean_interval
from ddz_rules.dealsets import deal_seed
from ddz_rules.game import Hand
from ddz_rules.match import MAX_REDEALS, next_dealer
from ddz_rules.ruleset import Ruleset


@dataclass(frozen=True)
class Duel:
    """The outcome of a duel: per deal, ``level``'s mean score per hand over the seatings,
    and its lead over the ``against`` seats (its mean score minus theirs)."""

    level: str
    against: str
    scores: tuple[float, ...]
    leads: tuple[float, ...]

    @property
    def score(self) -> Estimate:
        """``level``'s mean score per hand, with its 95% interval."""
        return mean_interval(self.scores)

    @property
    def lead(self) -> Estimate:
        """``level``'s mean score per hand minus the ``against`` seats', with its interval."""
        return mean_interval(self.leads)


def seating_scores(ruleset: Ruleset, level: str, against: str, seed: int,
                   index: int) -> list[tuple[int, ...]]:
    """The scores of deal ``index`` played once per seat, ``level`` in that seat and
    ``against`` in the others (seat order: ``level`` in seat 0 first)."""
    bots = {name: make_bot(name, ruleset) for name in (level, against)}
    out = []
    for seat in range(ruleset.players):
        seats = [bots[level] if s == seat else bots[against] for s in range(ruleset.players)]
        dealer = index % ruleset.players
        for attempt in range(MAX_REDEALS):
            dealt = deal_seed(seed, index, attempt)
            hand = Hand.new(ruleset, dealt, dealer=dealer)
            rng = random.Random(dealt ^ 0xB075)
            while hand.result is None:
                actor = hand.to_act
                assert actor is not None
                hand.apply(seats[actor].choose(hand.view(actor), rng))
            if not hand.result.redeal:
                break
            dealer = next_dealer(ruleset, dealer, thrown_in=True)
        assert hand.result is not None
        out.append(hand.result.scores)
    return out


def duel(ruleset: Ruleset, level: str, against: str, deals: int, seed: int = 0) -> Duel:
    """``level`` against ``against`` over ``deals`` deals, each played once per seat."""
    check_bots(ruleset, [level, against])
    n = ruleset.players
    scores, leads = [], []
    for index in range(deals):
        played = seating_scores(ruleset, level, against, seed, index)
        mine = sum(s[seat] for seat, s in enumerate(played)) / n
        theirs = sum(s[other] for seat, s in enumerate(played) for other in range(n)
                     if other != seat) / (n * (n - 1))
        scores.append(mine)
        leads.append(mine - theirs)
    return Duel(level, against, tuple(scores), tuple(leads))
