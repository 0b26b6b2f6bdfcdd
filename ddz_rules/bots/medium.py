"""A planning player: keeps its hand easy to shed, counts control cards, cooperates.

Every candidate play is scored by how many plays the rest of the hand would still need
(:func:`ddz_rules.bots.split.moves`), with a cost for spending control cards and bombs early.
It never overtakes a teammate (the other peasants, or the landlord and the partner who joined
him) and leads low to a teammate about to go out; in the
two-player game it plays to the advantage line.
"""

from __future__ import annotations

import random

from ddz_rules import cards
from ddz_rules.bots.base import (
    Bot,
    auction_word,
    control_cards,
    control_points,
    distance,
    joins,
    keeps_out,
    opponents,
    plays_of,
    wild_cards,
)
from ddz_rules.bots.split import moves_of
from ddz_rules.game import PASS, Action, Phase, View
from ddz_rules.table import Play

#: Strength needed to bid 1, 2, 3 (or to call, then to rob or grab).
BID_AT = (3.0, 6.0, 9.0)
#: An opponent this close to its goal must be stopped at any price.
DANGER = 3


class MediumBot(Bot):
    """Fewest-plays planning, control counting, peasant cooperation."""

    level = "medium"

    def strength(self, hand: int) -> float:
        counts = cards.unpack(hand)
        return control_points(counts) - 0.8 * max(0, moves_of(hand) - 5)

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.AUCTION:
            return auction_word(view.legal, self.strength(view.hand), BID_AT)
        if view.phase is Phase.CALL:
            return self.call(view)
        ranked = self.rank(view)
        return ranked[0] if ranked else PASS

    def rank(self, view: View) -> list[Action]:
        """Legal actions, best first (what ``extreme`` searches among).

        A peasant who could still join the landlord (by playing the called rank) keeps out
        while it can as long as the peasants lead the race (:func:`keeps_out`).
        """
        ranked = self._rank(view)
        if not keeps_out(view):
            return ranked
        joining = [a for a in ranked if not isinstance(a, str) and joins(view, a)]
        first = ranked[0]
        if not joining or (not isinstance(first, str) and cards.size(first.key)
                           >= view.hand_sizes[view.seat] - view.goal(view.seat)):
            return ranked  # nothing to keep out of, or the best play goes out anyway
        staying = [a for a in ranked if a not in joining]
        if not staying and PASS in view.legal:
            staying = [PASS]
        return [*staying, *joining]

    def _rank(self, view: View) -> list[Action]:
        plays = plays_of(view.legal)
        can_pass = PASS in view.legal
        goal = view.goal(view.seat)
        finishing = [p for p in plays if view.hand_sizes[view.seat] - cards.size(p.key) <= goal]
        if finishing:
            return [*finishing, *(p for p in plays if p not in finishing)]
        danger = any(distance(view, s) <= DANGER for s in opponents(view))
        if view.to_beat is not None and view.to_beat_seat in view.teammates:
            return [PASS, *plays] if can_pass else list(plays)
        ordered = sorted(plays, key=lambda p: self._score(view, p, danger))
        scored: list[Action] = list(ordered)
        if view.to_beat is None:
            lead = self._lead_to_partner(view, plays)
            return [*lead, *(p for p in ordered if p not in lead)]
        if not scored:
            return [PASS]
        base = moves_of(view.hand)
        best = ordered[0]
        breaks_hand = moves_of(view.hand - best.key) > base
        costly = best.reading.level > 0 or control_cards(best.key) + wild_cards(view,
                                                                             best.key) > 0
        if can_pass and not danger and costly and (breaks_hand or (
                view.seat == view.landlord and len(view.hand_sizes) > 2)):
            return [PASS, *scored]
        return scored

    def _score(self, view: View, play: Play, danger: bool) -> tuple[float, int]:
        rest = view.hand - play.key
        score = float(moves_of(rest))
        if play.reading.level > 0:
            score += 0.0 if danger else 3.0
        score += (0.0 if danger else 0.6) * (control_cards(play.key) + wild_cards(view, play.key))
        if danger and view.to_beat is None and cards.size(play.key) == 1:
            score += 1.5  # a lone single is what a nearly finished opponent wants
        return score, play.reading.rank_index

    def _lead_to_partner(self, view: View, plays: list[Play]) -> list[Play]:
        near = [s for s in view.teammates if distance(view, s) <= 2]
        if not near:
            return []
        size = min(distance(view, s) for s in near)
        fitting = [p for p in plays if cards.size(p.key) == size and p.reading.level == 0]
        fitting.sort(key=lambda p: p.reading.rank_index)
        return fitting[:1]
