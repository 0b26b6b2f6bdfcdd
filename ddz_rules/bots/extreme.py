"""Search: sample worlds consistent with the view, play each candidate out with ``medium``.

For each decision with a real choice (``medium``'s rules settle going out and letting a
partner's play stand), ``extreme`` takes ``medium``'s best few candidates,
deals the cards it cannot see at random a few times (:mod:`ddz_rules.bots.worlds`), and in each
world plays every candidate out to the end with ``medium`` in every seat. It picks the
candidate with the best mean score for its own seat. Bidding follows ``medium``.
"""

from __future__ import annotations

import random

from ddz_rules import cards
from ddz_rules.bots.base import Bot
from ddz_rules.bots.medium import MediumBot
from ddz_rules.bots.worlds import replayed, sample_deal
from ddz_rules.game import Action, Hand, Phase, View
from ddz_rules.ruleset import Ruleset

CANDIDATES = 3
WORLDS = 8


class ExtremeBot(Bot):
    """Determinized playouts over ``medium``."""

    level = "extreme"

    def __init__(self, ruleset: Ruleset, candidates: int = CANDIDATES,
                 worlds: int = WORLDS) -> None:
        super().__init__(ruleset)
        self.medium = MediumBot(ruleset)
        self.candidates = candidates
        self.worlds = worlds

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.AUCTION:
            return self.medium.choose(view, rng)
        ranked = self.medium.rank(view)
        if self._settled_by_rule(view, ranked[0]):
            return ranked[0]
        options = ranked[:self.candidates]
        if len(options) < 2:
            return ranked[0]
        totals = [0.0] * len(options)
        for _ in range(self.worlds):
            world = replayed(view, self.ruleset, sample_deal(view, self.ruleset, rng), self.table)
            for i, option in enumerate(options):
                totals[i] += self._playout(world, option, view.seat, rng)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]

    @staticmethod
    def _settled_by_rule(view: View, best: Action) -> bool:
        """Choices ``medium`` makes by rule, not by judgement: going out, and letting a
        partner's play stand. Sampling a few worlds is too noisy to overrule them."""
        if view.to_beat is not None and view.to_beat_seat == view.partner:
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
