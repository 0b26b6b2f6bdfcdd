"""A planning player that plays to the ruleset's stakes.

Auction: every word (bid, call, rob, grab, pass, and the landlord's choice between calling a
partner and playing alone) is chosen by expected score under the ruleset
(:mod:`ddz_rules.bots.stakes`), from the chance of winning fitted for the ruleset
(:mod:`ddz_rules.bots.outlook`) and the stake each word leads to.

Play: every candidate play is scored by how many plays the rest of the hand would still need
(:func:`ddz_rules.split.moves`), with a cost for spending control cards, wild cards and
bombs early. A bomb that doubles the stake costs less to the side leading the race and more
to the side trailing it, and nothing extra where it multiplies nothing (no factor, or the cap
reached). A peasant whose side has not played a card while a spring would double the stake
answers rather than pass. It never overtakes a teammate (the other peasants, or the landlord
and the partner who joined him) and leads low to a teammate about to go out; in the
two-player game it plays to the advantage line.
"""

from __future__ import annotations

import random
from functools import cached_property

from ddz_rules import cards
from ddz_rules.bots import fitting
from ddz_rules.bots.base import (
    Bot,
    control_cards,
    distance,
    joins,
    keeps_out,
    lets_out,
    opponents,
    partner_call,
    plays_of,
    wild_cards,
)
from ddz_rules.bots.outlook import FIT_HANDS, FIT_SEED, Outlook, needs_outlook, outlook
from ddz_rules.bots.stakes import Judge, standing
from ddz_rules.game import PASS, Action, Phase, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import base_of, bomb_payment, whitewash
from ddz_rules.split import moves_after, moves_of
from ddz_rules.table import Play

#: An opponent this close to its goal must be stopped at any price.
DANGER = 3
#: Plays a bomb that doubles the stake is worth to the side leading the race, and costs the
#: side trailing it, beside the three plays any bomb costs to spend early.
DOUBLING = 1.0
#: Plays a bomb paid for at once (``scoring.bomb_payments``) is worth beside what it sheds.
PAID_BOMB = 1.0
#: With no landlord: plays each card shed is worth, and what a low single to a next opponent
#: holding one card costs (he may go out on it, and it may make its player pay for all).
SHED = 0.05
LETTING_OUT = 6.0


class MediumBot(Bot):
    """Fewest-plays planning, control counting, peasant cooperation."""

    level = "medium"

    @classmethod
    def prepare(cls, ruleset: Ruleset) -> None:
        if needs_outlook(ruleset):
            outlook(ruleset, fit_outlook)

    @cached_property
    def judge(self) -> Judge:
        """Values auction words by expected score under this ruleset (its outlook is fitted
        or loaded on the first auction decision, not before: the fit plays with ``medium``)."""
        return Judge(self.ruleset, outlook(self.ruleset, fit_outlook))

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.AUCTION:
            return self.judge.word(view)
        if view.phase is Phase.CALL:
            return partner_call(view, alone=self.judge.plays_alone(view))
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
        rests = moves_after(view.hand, [p.key for p in plays])  # one call for every candidate
        order = sorted(range(len(plays)),
                       key=lambda i: self._score(view, plays[i], rests[i], danger))
        ordered = [plays[i] for i in order]
        scored: list[Action] = list(ordered)
        if view.to_beat is not None and view.to_beat_seat in view.teammates:
            return [PASS, *scored] if can_pass else scored  # a teammate's play stands
        if view.to_beat is None:
            lead = self._lead_to_partner(view, plays)
            return [*lead, *(p for p in ordered if p not in lead)]
        if not scored:
            return [PASS]
        best = ordered[0]
        breaks_hand = rests[order[0]] > moves_of(view.hand)
        costly = best.reading.level > 0 or control_cards(best.key) + wild_cards(view,
                                                                             best.key) > 0
        if can_pass and not danger and costly and not self._spring_at_stake(view) and (
                breaks_hand or (view.seat == view.landlord and len(view.hand_sizes) > 2)):
            return [PASS, *scored]
        return scored

    def _score(self, view: View, play: Play, rest: int, danger: bool) -> tuple[float, int]:
        """A candidate's cost (lower is better): ``rest``, the plays the hand still needs
        after it, and what it spends; ties go to the lower rank."""
        score = float(rest)
        paid = bomb_payment(self.ruleset, play.reading.type)
        if paid:
            score -= PAID_BOMB  # money now, where a bomb still held may never be played
        elif play.reading.level > 0 and not danger:
            score += 3.0 - DOUBLING * self._doubling(view, play)
        score += (0.0 if danger else 0.6) * (control_cards(play.key) + wild_cards(view, play.key))
        if danger and view.to_beat is None and cards.size(play.key) == 1:
            score += 1.5  # a lone single is what a nearly finished opponent wants
        if not self.ruleset.has_landlord:
            # Each loser pays for the cards he holds: of two plans alike, shed more now.
            score -= SHED * cards.size(play.key)
            if lets_out(view, self.ruleset, play):
                score += LETTING_OUT
        return score, play.reading.rank_index

    def _doubling(self, view: View, play: Play) -> int:
        """What multiplying the stake by ``play`` means to this seat's side: +1 while the side
        leads the race (a doubled stake is likelier won), -1 while it trails, 0 where the play
        multiplies nothing (``scoring.multipliers`` gives its class no factor, or
        ``scoring.cap`` is reached already) or the race is even."""
        ruleset = self.ruleset
        if ruleset.factors.get(ruleset.event_of[play.reading.type], 1) <= 1:
            return 0
        if ruleset.cap is not None and (base_of(ruleset, standing(ruleset, view).bid)
                                        * view.multiplier >= ruleset.cap):
            return 0
        mine = min(distance(view, s) for s in (view.seat, *view.teammates))
        theirs = min(distance(view, s) for s in view.opponents)
        return (mine < theirs) - (mine > theirs)

    def _spring_at_stake(self, view: View) -> bool:
        """Whether this seat is a peasant whose side has not played a card yet while a spring
        would multiply the stake (``scoring.multipliers``): any card it plays prevents it."""
        if self.ruleset.factors.get("spring", 1) <= 1 or view.landlord is None:
            return False
        on_side = view.seat in {view.landlord, view.joined}
        return not on_side and whitewash(True, view.side_plays) == "spring"

    def _lead_to_partner(self, view: View, plays: list[Play]) -> list[Play]:
        near = [s for s in view.teammates if distance(view, s) <= 2]
        if not near:
            return []
        size = min(distance(view, s) for s in near)
        fitting = [p for p in plays if cards.size(p.key) == size and p.reading.level == 0]
        fitting.sort(key=lambda p: p.reading.rank_index)
        return fitting[:1]


def fit_outlook(ruleset: Ruleset, hands: int = FIT_HANDS, seed: int = FIT_SEED) -> Outlook:
    """The outlook ``medium`` bids by, fitted with its own play in every seat and, in the
    second round, its own expected-score bidding (:func:`ddz_rules.bots.fitting.fit`)."""
    return fitting.fit(ruleset, MediumBot(ruleset), lambda first: Judge(ruleset, first).word,
                       hands, seed)
