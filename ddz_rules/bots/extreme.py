"""Search: believe worlds consistent with the view, play each candidate out with ``medium``.

For each decision with a real choice (``medium``'s rules settle going out and letting a
partner's play stand), ``extreme`` takes ``medium``'s best few candidates and plays each to
the end, with ``medium`` in every seat, in each world of its belief
(:mod:`ddz_rules.bots.belief`: deals that explain the auction and the play so far). It keeps
``medium``'s first choice unless another candidate scores better for its own seat by more than
one standard error of the paired difference: a few worlds are noisy, and overruling a sound
rule on noise loses points. Bidding follows ``medium``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ddz_rules import cards
from ddz_rules.bots.base import Bot
from ddz_rules.bots.belief import Belief
from ddz_rules.bots.medium import MediumBot
from ddz_rules.game import Action, Hand, Phase, View
from ddz_rules.ruleset import Ruleset

CANDIDATES = 3
WORLDS = 16
#: Standard errors by which a candidate must beat ``medium``'s first choice to replace it.
MARGIN = 1.0


class ExtremeBot(Bot):
    """Playouts over ``medium`` in the worlds of a belief filtered by ``medium``'s play."""

    level = "extreme"
    hands_per_batch = 1  # seconds a hand: report each one

    def __init__(self, ruleset: Ruleset, candidates: int = CANDIDATES,
                 worlds: int = WORLDS) -> None:
        super().__init__(ruleset)
        self.medium = MediumBot(ruleset)
        self.candidates = candidates
        self.belief = Belief(ruleset, self.table, self.medium, particles=worlds)

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase in (Phase.AUCTION, Phase.CALL):
            return self.medium.choose(view, rng)
        ranked = self.medium.rank(view)
        if self._settled_by_rule(view, ranked[0]):
            return ranked[0]
        options = ranked[:self.candidates]
        if len(options) < 2:
            return ranked[0]
        worlds = self.belief.worlds(view)
        values = [[self._playout(world, option, view.seat, rng) for world in worlds]
                  for option in options]
        return options[overruling(values, MARGIN)]

    @staticmethod
    def _settled_by_rule(view: View, best: Action) -> bool:
        """Choices ``medium`` makes by rule, not by judgement: going out, and letting a
        partner's play stand. Sampling a few worlds is too noisy to overrule them."""
        if view.to_beat is not None and view.to_beat_seat in view.teammates:
            return True
        return not isinstance(best, str) and (
            view.hand_sizes[view.seat] - cards.size(best.key) <= view.goal(view.seat))

    def _playout(self, world: Hand, option: Action, seat: int, rng: random.Random) -> float:
        hand = world.clone()
        hand.apply(option)
        while hand.result is None:
            assert hand.to_act is not None
            hand.apply(self.medium.choose(hand.view(hand.to_act), rng))
        return float(hand.result.scores[seat])


def overruling(values: Sequence[Sequence[float]], margin: float) -> int:
    """The option to take: 0 (the default), unless another's mean paired gain over option 0,
    across the same worlds, is the largest and exceeds ``margin`` standard errors.

    >>> overruling([[0, 0, 0], [2, 2, 2]], 1.0)
    1
    >>> overruling([[0, 0, 0, 0], [8, -6, 0, 0]], 1.0)
    0
    """
    best, best_gain = 0, 0.0
    for i, row in enumerate(values[1:], start=1):
        gains = [a - b for a, b in zip(row, values[0], strict=True)]
        k = len(gains)
        mean = sum(gains) / k
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (k - 1)) if k > 1 else 0.0
        if mean > best_gain and mean > margin * spread / math.sqrt(k):
            best, best_gain = i, mean
    return best
