"""Auction decisions by expected score under the ruleset's stakes.

A seat deciding what to say in the auction weighs two futures: taking the hand as landlord at
the stake the word leads to, or letting another take it and playing as a peasant at the stake
already standing. For each it needs the chance that the landlord's side wins, which comes from
an :class:`~ddz_rules.bots.outlook.Outlook` fitted for the ruleset from simulated hands (its
features are those of :func:`features`), and the stake, which comes from the ruleset alone:
``scoring.base`` (the bid or one), the factor of each rob or grab, the multipliers the play
brings (their distribution as simulated, separately for wins and losses), ``scoring.cap`` and
``scoring.settlement`` (:func:`ddz_rules.scoring.settle`). A robbed two-player landlord also
moves the advantage line against himself, which the fitted chance sees through the robs.

Each future is valued at its mean score. A hand whose expected score as landlord is above
what it expects otherwise bids the stake that maximises it: the top bid where the bid is the
base, any bid where it is not (the top one, which also keeps the others from taking the
hand); a hand offered for with a negative expected score bids the lowest stake. (Counting the
score's variance against a hand, which would grade bids more finely, made ``medium`` weaker
against ``standard`` in whole matches, so it is not done.)

One choice is not expected score alone: whether to claim a hand nobody has claimed yet.
Letting it go then leads to another seat's claim or to a new deal, which is worth nothing, and
in a ruleset whose landlords mostly lose (with these bots, laizi's or no-kitty's) no hand
would ever be worth claiming, so none would be played. A seat therefore offers to take an
unclaimed hand when its chance as landlord is among the best one in ``players`` of the
ruleset's dealt hands (:attr:`~ddz_rules.bots.outlook.Outlook.take_chance`), and offers the
stake with the best value; once a seat has claimed the hand, every word (a higher bid, a rob,
a grab, a pass) is chosen by value against playing as a peasant against that seat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ddz_rules.bots.outlook import CLAIMS, Outlook, Terms, features, signals
from ddz_rules.game import ALONE, PASS, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import base_of, settle


def standing(ruleset: Ruleset, view: View) -> Terms:
    """The terms the auction stands at now, from the words said so far (public)."""
    words = [w for _, w in view.auction]
    bids = [int(w) for w in words if w.isdigit()]
    high = max(bids, default=0)
    if not high and ruleset.bids:
        high = min(ruleset.bids)  # another seat must bid at least this to take the hand
    return Terms(high, words.count("rob"), words.count("grab"))


def candidate(view: View) -> int | None:
    """The seat that stands to become landlord if this one lets the hand go: the last to bid,
    call, rob or grab. Before anyone has, letting the hand go is valued at zero: if nobody
    takes it, it is dealt again, and a seat cannot tell whether another will."""
    claims = [s for s, w in view.auction if w.isdigit() or w in CLAIMS]
    return claims[-1] if claims else None


def word_terms(ruleset: Ruleset, view: View, word: str) -> Terms | None:
    """The terms under which ``word`` makes this seat the landlord, or None when it leaves the
    hand to another seat (a pass, a refusal)."""
    now = standing(ruleset, view)
    if word.isdigit():
        return Terms(int(word))
    if word == "call":
        return Terms(0, now.robs, now.grabs)
    if word == "rob":
        return Terms(0, now.robs + 1, now.grabs)
    if word == "grab":
        return Terms(0, now.robs, now.grabs + 1)
    return None


def stake(ruleset: Ruleset, terms: Terms, multiplier: int) -> int:
    """The stake of a hand played under ``terms`` whose play and deal multiplied it by
    ``multiplier``: the base times every factor, capped as ``scoring.cap`` says."""
    factors = ruleset.factors
    value: int = (base_of(ruleset, terms.bid) * factors.get("rob", 1) ** terms.robs
             * factors.get("grab", 1) ** terms.grabs * multiplier)
    return value if ruleset.cap is None else min(value, ruleset.cap)


def _settled(ruleset: Ruleset, side: tuple[int, ...], won: bool, amount: int,
             seat: int) -> int:
    return settle(ruleset, side, won, amount, []).scores[seat]


@dataclass(frozen=True)
class Judge:
    """Values auction words for one ruleset from its fitted outlook."""

    ruleset: Ruleset
    outlook: Outlook
    _means: dict[tuple[Terms, bool], tuple[float, float]] = field(
        default_factory=dict, compare=False, repr=False)

    def value(self, terms: Terms, p_win: float, as_landlord: bool) -> float:
        """The mean score of this seat, as the landlord (``as_landlord``) or as a peasant,
        when the landlord's side wins with ``p_win``."""
        won, lost = self.means(terms, as_landlord)
        return p_win * won + (1.0 - p_win) * lost

    def means(self, terms: Terms, as_landlord: bool) -> tuple[float, float]:
        """This seat's mean score when the landlord's side wins, then when it loses: they
        depend on the terms alone, so each is computed once."""
        key = (terms, as_landlord)
        found = self._means.get(key)
        if found is None:
            found = self._means[key] = (self._moment(terms, as_landlord, True),
                                        self._moment(terms, as_landlord, False))
        return found

    def _moment(self, terms: Terms, as_landlord: bool, won: bool) -> float:
        ruleset = self.ruleset
        partnered = ruleset.partner_rule == "called_rank" and not terms.alone
        share = self.outlook.partner_rate if partnered else 0.0
        mean = 0.0
        for multiplier, weight in self.outlook.multipliers(won):
            amount = stake(ruleset, terms, multiplier)
            if as_landlord:
                alone = _settled(ruleset, (0,), won, amount, 0)
                paired = _settled(ruleset, (0, 2 % ruleset.players), won, amount, 0) \
                    if share else alone
                mean += weight * ((1.0 - share) * alone + share * paired)
            else:
                mean += weight * _settled(ruleset, (0,), won, amount, 1)
        return mean

    def word(self, view: View) -> str:
        """The auction word with the best value for the seat to act."""
        x = features(view.hand, view.wild)
        now = standing(self.ruleset, view)
        holder = candidate(view)
        others = signals(view.auction, set(range(len(view.hand_sizes))) - {view.seat})
        if holder is None:
            # Nobody has claimed the hand: a seat offers to take it when its chance is among
            # the best one in ``players`` of the ruleset's dealt hands, whatever the sign of
            # its expected score (else nobody would take a hand in a ruleset whose landlords
            # mostly lose, and no hand would be played); the stake it offers is still the one
            # with the best value.
            offers = self.outlook.landlord_chance(x, Terms(), others) >= self.outlook.take_chance
            as_peasant = -math.inf if offers else math.inf
        else:
            as_peasant = self.value(
                now, self.outlook.peasant_chance(x, now, signals(view.auction, {holder})), False)
        best, best_value = None, 0.0
        for word in (w for w in view.legal if isinstance(w, str)):
            terms = word_terms(self.ruleset, view, word)
            value = as_peasant if terms is None else self.value(
                terms, self.outlook.landlord_chance(x, terms, others), True)
            if best is None or value > best_value + 1e-12 or (
                    abs(value - best_value) <= 1e-12 and terms is not None):
                best, best_value = word, value
        return best if best is not None else PASS

    def plays_alone(self, view: View) -> bool:
        """Whether the landlord does better alone than calling a partner."""
        x = features(view.hand, view.wild)
        words = [w for _, w in view.auction]
        bids = [int(w) for w in words if w.isdigit()]
        terms = Terms(max(bids, default=0), words.count("rob"), words.count("grab"))
        alone = Terms(terms.bid, terms.robs, terms.grabs, alone=True)
        others = signals(view.auction, set(range(len(view.hand_sizes))) - {view.seat})
        return ALONE in view.legal and self.value(
            alone, self.outlook.landlord_chance(x, alone, others), True) > self.value(
            terms, self.outlook.landlord_chance(x, terms, others), True)

