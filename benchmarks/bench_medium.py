#!/usr/bin/env python3
"""``medium`` against the ``medium`` it replaced: its play on the paired ladder, its bidding.

Usage::

    python benchmarks/bench_medium.py [--deals D] [--ladder-deals L] [--seed S] [--workers K]
                                      [--rulesets classic,two-player] [--json FILE]

The former ``medium`` (level ``medium-former``, defined here) is ``medium`` with what the
stakes work changed taken out again:

* its auction: ``auction_word`` on the strength ``control_points - 0.8 * max(0, moves - 5)``
  with the thresholds 3, 6, 9 (bid 1, 2, 3; call at 3, rob or grab at 6), whatever the ruleset
  pays, where ``medium`` now chooses every word by expected score under the ruleset
  (:mod:`ddz_rules.bots.stakes`);
* its play: every bomb costs three plays to spend early, with no term for whether it doubles
  the stake (``_doubling`` is 0), and a peasant may pass to save cards while a spring is at
  stake (``_spring_at_stake`` is False).

**Play** is measured on the paired ladder of ``bench_bots.py`` (``bench_bots.ladder``): the
former level bids in every seat, so the deal and the auction are the same in three arms, and
``medium`` plays as the landlord in one, as the peasants in another, on L deals.

**Bidding**: deal ``d`` is hand ``d`` of ``ddz compare`` with seed S (``deal_seed(S, d,
attempt)``, dealt by seat ``d mod players``, dealt again from the next attempt while every
seat passes), with ``medium``'s play in every seat. For each deal and each seat ``s`` the hand
is played four times:

* **at a table of thresholds**: seat ``s`` bids to the stakes, the others by thresholds;
  against every seat bidding by thresholds. The difference of seat ``s``'s score is what the
  new bidding gains a seat at a table of the old.
* **at a table of stakes**: every seat bids to the stakes; against seat ``s`` alone bidding by
  thresholds. What the new bidding gains a seat at a table of the new.

Reported per ruleset: the mean gain per seat-hand with its 95% interval (normal approximation
over the D x players paired differences, ``compare.stats.mean_interval``; > 0 when bidding to
the stakes did better), and how often the seat's first word differed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench_bots import Ladder, _ladder_json, ladder, render_ladder
from bench_plays import machine, machine_line, publish

from ddz_rules import cards, load
from ddz_rules.bots import LEVELS
from ddz_rules.bots.base import Bot, auction_word, control_points
from ddz_rules.bots.medium import MediumBot
from ddz_rules.compare.stats import Estimate, mean_interval
from ddz_rules.dealsets import deal_seed
from ddz_rules.game import Action, Hand, Phase, View
from ddz_rules.match import MAX_REDEALS, next_dealer
from ddz_rules.ruleset import Ruleset
from ddz_rules.split import moves_of
from ddz_rules.table import Play

DEFAULT_DEALS = 2000
DEFAULT_LADDER_DEALS = 1000
DEFAULT_SEED = 20261130
RULESETS = ("classic", "two-player")
#: The former ``medium``'s strength needed to bid 1, 2, 3 (or to call, then to rob or grab).
BID_AT = (3.0, 6.0, 9.0)


class ThresholdBidder(MediumBot):
    """``medium``'s play with the auction it had before bidding to the stakes."""

    level = "medium-thresholds"

    @staticmethod
    def strength(hand: int) -> float:
        return control_points(cards.unpack(hand)) - 0.8 * max(0, moves_of(hand) - 5)

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.AUCTION:
            return auction_word(view.legal, self.strength(view.hand), BID_AT)
        return super().choose(view, rng)


class FormerMedium(ThresholdBidder):
    """The former ``medium``: thresholds in the auction, and no stakes in the play."""

    level = "medium-former"

    def _doubling(self, view: View, play: Play) -> int:
        return 0

    def _spring_at_stake(self, view: View) -> bool:
        return False


LEVELS[FormerMedium.level] = FormerMedium  # forked ladder workers inherit it


def scores_of(ruleset: Ruleset, seats: Sequence[Bot], seed: int,
              index: int) -> tuple[tuple[int, ...], tuple[Action | None, ...]]:
    """The scores of hand ``index`` with ``seats[i]`` bidding and playing in seat ``i``, and
    each seat's first auction word, dealt (and dealt again) as ``compare.runner.play_task``
    deals it."""
    dealer = index % ruleset.players
    first: list[Action | None] = [None] * ruleset.players
    for redeals in range(MAX_REDEALS):
        deal = deal_seed(seed, index, redeals)
        hand = Hand.new(ruleset, deal, dealer=dealer)
        rng = random.Random(deal ^ 0xB075)
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            action = seats[seat].choose(hand.view(seat), rng)
            if redeals == 0 and hand.phase is Phase.AUCTION and first[seat] is None:
                first[seat] = action
            hand.apply(action)
        if not hand.result.redeal:
            break
        dealer = next_dealer(ruleset, dealer, thrown_in=True)
    assert hand.result is not None
    return hand.result.scores, tuple(first)


def duel(ruleset_id: str, deals: int, seed: int) -> dict[str, Any]:
    """Both tables' paired gains of bidding to the stakes, per seat-hand."""
    ruleset = load(ruleset_id)
    stakes, thresholds = MediumBot(ruleset), ThresholdBidder(ruleset)
    players = ruleset.players
    among_old: list[float] = []
    among_new: list[float] = []
    differs = 0
    started = time.perf_counter()
    for d in range(deals):
        all_old, old_words = scores_of(ruleset, [thresholds] * players, seed, d)
        all_new, new_words = scores_of(ruleset, [stakes] * players, seed, d)
        for s in range(players):
            one_new: list[Bot] = [thresholds] * players
            one_new[s] = stakes
            one_old: list[Bot] = [stakes] * players
            one_old[s] = thresholds
            among_old.append(scores_of(ruleset, one_new, seed, d)[0][s] - all_old[s])
            among_new.append(all_new[s] - scores_of(ruleset, one_old, seed, d)[0][s])
            differs += old_words[s] != new_words[s]
    return {"ruleset": ruleset_id, "deals": deals, "seat_hands": deals * players,
            "among_thresholds": _estimate(mean_interval(among_old)),
            "among_stakes": _estimate(mean_interval(among_new)),
            "first_word_differs": differs / (deals * players),
            "seconds": round(time.perf_counter() - started, 1)}


def _estimate(e: Estimate) -> dict[str, float]:
    return {"mean": e.mean, "low": e.low, "high": e.high}


def render(meta: dict[str, Any], ladders: Sequence[Ladder],
           rows: Sequence[dict[str, Any]]) -> str:
    def interval(e: dict[str, float]) -> str:
        return f"{e['mean']:+.3f} [{e['low']:+.3f}, {e['high']:+.3f}]"

    lines = [f"ddz-rules medium against the former medium, {meta['date']}: seed {meta['seed']}, "
             f"ladder on {meta['ladder_deals'] or 'no'} deals, bidding on "
             f"{meta['deals'] or 'no'} deals per ruleset",
             machine_line(meta), ""]
    if ladders:
        lines += ["Play, on the paired ladder (the former medium bids everywhere):",
                  *render_ladder(ladders), ""]
    if rows:
        lines += ["Bidding: gain per seat-hand of bidding to the stakes over the former "
                  "thresholds, medium's play everywhere (> 0: the stakes bid better):", "",
                  f"{'ruleset':<11} {'seat-hands':>10}  {'at a table of thresholds':<28}"
                  f"{'at a table of stakes':<28}{'1st word differs':>16}  seconds",
                  "-" * 106]
        for r in rows:
            lines.append(f"{r['ruleset']:<11} {r['seat_hands']:>10}  "
                         f"{interval(r['among_thresholds']):<28}"
                         f"{interval(r['among_stakes']):<28}"
                         f"{r['first_word_differs']:>15.1%}  {r['seconds']:>7.1f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                        help=f"deals per ruleset for the bidding (default {DEFAULT_DEALS}; "
                        "0: none)")
    parser.add_argument("--ladder-deals", type=int, default=DEFAULT_LADDER_DEALS,
                        help=f"deals per ruleset for the ladder (default {DEFAULT_LADDER_DEALS}; "
                        "0: none)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the deals (default {DEFAULT_SEED})")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes for the ladder (default 2)")
    parser.add_argument("--rulesets", default=",".join(RULESETS),
                        help=f"comma-separated rulesets (default {','.join(RULESETS)})")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if any(n < 0 or n == 1 for n in (opts.deals, opts.ladder_deals)) or opts.seed < 0 \
            or opts.workers < 1:
        parser.error("--deals and --ladder-deals must be 0 or at least 2, --workers at least 1, "
                     "--seed not negative")
    meta: dict[str, Any] = {**machine(), "seed": opts.seed, "deals": opts.deals,
                            "ladder_deals": opts.ladder_deals}
    rulesets = [r for r in opts.rulesets.split(",") if r]
    ladders: list[Ladder] = []
    rows: list[dict[str, Any]] = []
    for ruleset in rulesets:
        if opts.ladder_deals:
            print(f"[{time.strftime('%H:%M:%S')}] {ruleset}: ladder on {opts.ladder_deals} "
                  "deals", file=sys.stderr, flush=True)
            ladders.append(ladder(ruleset, "medium", FormerMedium.level, opts.ladder_deals,
                                  opts.seed, opts.workers))
        if opts.deals:
            print(f"[{time.strftime('%H:%M:%S')}] {ruleset}: bidding on {opts.deals} deals",
                  file=sys.stderr, flush=True)
            rows.append(duel(ruleset, opts.deals, opts.seed))
    publish(render(meta, ladders, rows),
            {"meta": meta, "ladder": [_ladder_json(row) for row in ladders], "bidding": rows},
            opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
