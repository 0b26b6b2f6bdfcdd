"""Fitting a ruleset's outlook from simulated hands: a tool that uses a bot.

For each ruleset, :func:`fit` plays :data:`~ddz_rules.bots.outlook.FIT_HANDS` hands with the
given player in every seat after an exploratory auction (each word is ``standard``'s, chosen
on control cards, or with :data:`EXPLORE_WORDS` drawn uniformly, so that peasants face the
landlords a sensible player makes and landlords of every strength are seen; with a partner
rule, one landlord in four plays alone), and fits the two logistic regressions of
:class:`~ddz_rules.bots.outlook.Outlook` on the seats' dealt hands. The fit is checked on the
last quarter of the simulated hands, held out.

The player is given, not imported: ``medium`` fits the outlooks it bids by with its own play
(:func:`ddz_rules.bots.medium.fit_outlook`), and this module knows no bot level.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ddz_rules import cards
from ddz_rules.bots.base import Bot, auction_word, control_points, partner_call
from ddz_rules.bots.outlook import (
    FIT_HANDS,
    FIT_SEED,
    Outlook,
    Terms,
    _logistic,
    features,
    fit_logistic,
    outlook_key,
    signals,
)
from ddz_rules.bots.standard import BID_AT
from ddz_rules.game import ALONE, Deal, Hand, Phase, Said, View, deal
from ddz_rules.ruleset import Ruleset

#: The share of auction words drawn uniformly; the others are ``standard``'s, so that the
#: landlords peasants face are chosen as a sensible player chooses them.
EXPLORE_WORDS = 0.3
#: Where a partner may be called, the share of exploratory landlords who play alone.
EXPLORE_ALONE = 0.25
#: Deals per simulated hand at most (all-pass auctions are dealt again).
MAX_REDEALS = 64
#: What speaks at a simulated auction: an auction word for the view.
Speaker = Callable[[View], str]


@dataclass(frozen=True)
class Sample:
    """One simulated hand: the seats' features, the landlord, the terms and the outcome."""

    seats: tuple[tuple[float, ...], ...]
    landlord: int
    auction: tuple[tuple[int, str], ...]
    terms: Terms
    won: bool
    multiplier: int
    partnered: bool


def simulate(ruleset: Ruleset, hands: int, seed: int, player: Bot,
             speaker: Speaker | None = None) -> list[Sample]:
    """``hands`` hands (redeals not counted), ``player`` playing every seat, after an
    exploratory auction: each word drawn uniformly with :data:`EXPLORE_WORDS`, else said by
    ``speaker`` (by default ``standard``'s rule on control cards)."""

    def by_control_cards(view: View) -> str:
        return auction_word(view.legal, control_points(cards.unpack(view.hand)), BID_AT)

    speak = speaker or by_control_cards
    samples: list[Sample] = []
    attempt = 0
    while len(samples) < hands:
        if attempt >= hands * MAX_REDEALS:
            raise ValueError(f"{ruleset.id}: {attempt} deals gave only {len(samples)} hands "
                             "with a landlord")  # pragma: no cover - every auction can bid
        rng = random.Random(f"{seed}:{attempt}")
        hand = Hand(ruleset, _deal(ruleset, seed, attempt), player.table)
        attempt += 1
        wild = [r for r, when in zip(hand.deal.wild, ruleset.wild_drawn, strict=True)
                if when == "before_auction"]
        seats = tuple(features(h, wild) for h in hand.deal.hands)
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            if hand.phase is Phase.AUCTION:
                action = (rng.choice(list(view.legal)) if rng.random() < EXPLORE_WORDS
                          else speak(view))
            elif hand.phase is Phase.CALL:
                action = partner_call(view, alone=rng.random() < EXPLORE_ALONE)
            else:
                action = player.choose(view, rng)
            hand.apply(action)
        result = hand.result
        if result.redeal or result.landlord is None:
            continue
        words = [op.word for op in hand.log if isinstance(op, Said)]
        auction_factor = 1
        for e in result.events:
            if e.name in ("rob", "grab"):
                auction_factor *= e.factor
        terms = Terms(hand.bid, words.count("rob"), words.count("grab"),
                      hand.partner_call == ALONE)
        said = tuple((op.seat, op.word) for op in hand.log if isinstance(op, Said))
        samples.append(Sample(seats, result.landlord, said, terms, result.winner == "landlord",
                              result.multiplier // auction_factor, result.partner is not None))
    return samples


def _deal(ruleset: Ruleset, seed: int, attempt: int) -> Deal:
    return deal(ruleset, seed * 1_000_003 + attempt, dealer=attempt % ruleset.players)


def _rows(samples: Sequence[Sample]) -> tuple[list[tuple[float, ...]], list[int],
                                              list[tuple[float, ...]], list[int]]:
    landlord_rows, landlord_wins, peasant_rows, peasant_wins = [], [], [], []
    for s in samples:
        shifted = float(s.terms.robs + s.terms.grabs)
        others = signals(s.auction, set(range(len(s.seats))) - {s.landlord})
        landlord_rows.append((*s.seats[s.landlord], shifted, float(s.terms.alone), *others))
        landlord_wins.append(int(s.won))
        told = signals(s.auction, {s.landlord})
        for seat, x in enumerate(s.seats):
            if seat != s.landlord:
                peasant_rows.append((*x, shifted, *told))
                peasant_wins.append(int(s.won))
    return landlord_rows, landlord_wins, peasant_rows, peasant_wins


def _shares(values: Sequence[int]) -> tuple[tuple[int, float], ...]:
    counts = Counter(values)
    return tuple((m, n / len(values)) for m, n in sorted(counts.items()))


def fit(ruleset: Ruleset, player: Bot, bidding: Callable[[Outlook], Speaker],
        hands: int = FIT_HANDS, seed: int = FIT_SEED) -> Outlook:
    """Fit the ruleset's outlook (see the module's text), ``player`` playing every seat: a
    first fit from ``hands // 2`` hands whose auctions ``standard`` speaks, then the outlook
    from ``hands`` hands whose auctions ``bidding`` speaks with that first fit (the bidding
    the outlook is for)."""
    first = _fitted(ruleset, simulate(ruleset, max(1, hands // 2), seed, player))
    return _fitted(ruleset, simulate(ruleset, hands, seed + 1, player, bidding(first)))


def _fitted(ruleset: Ruleset, samples: Sequence[Sample]) -> Outlook:
    cut = len(samples) * 3 // 4
    train_rows, train_wins, _, _ = _rows(samples[:cut])
    test_rows, test_wins, _, _ = _rows(samples[cut:])
    held_out = fit_logistic(train_rows, train_wins)
    predicted = sorted((_logistic(held_out, x), y)
                       for x, y in zip(test_rows, test_wins, strict=True))
    fifths = [predicted[i * len(predicted) // 5:(i + 1) * len(predicted) // 5]
              for i in range(5)]
    calibration = tuple((sum(p for p, _ in part) / len(part), sum(y for _, y in part)
                         / len(part), len(part)) for part in fifths if part)
    brier = sum((p - y) ** 2 for p, y in predicted) / max(1, len(predicted))
    landlord_rows, landlord_wins, peasant_rows, peasant_wins = _rows(samples)
    landlord_weights = fit_logistic(landlord_rows, landlord_wins)
    extra = len(landlord_rows[0]) - len(samples[0].seats[0])
    dealt = sorted(_logistic(landlord_weights, (*x, *[0.0] * extra))
                   for s in samples for x in s.seats)
    top_share = 1.0 / len(samples[0].seats)
    return Outlook(
        key=outlook_key(ruleset), hands=len(samples),
        landlord_weights=landlord_weights,
        peasant_weights=fit_logistic(peasant_rows, peasant_wins),
        won=_shares([s.multiplier for s in samples if s.won]),
        lost=_shares([s.multiplier for s in samples if not s.won]),
        partner_rate=sum(s.partnered for s in samples if not s.terms.alone)
        / max(1, sum(1 for s in samples if not s.terms.alone)),
        calibration=calibration, brier=brier,
        take_chance=dealt[int(len(dealt) * (1.0 - top_share))])
