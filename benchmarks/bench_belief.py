#!/usr/bin/env python3
"""How well ``extreme``'s belief places the cards it cannot see, against uniform worlds.

Usage::

    python benchmarks/bench_belief.py [--hands N] [--seed S] [--rulesets classic,rlcard]
                                      [--opponents medium,standard] [--json FILE]

Hand ``d`` is dealt from ``deal_seed(S, d, attempt)`` by seat ``d mod players``, and dealt
again (the next attempt, the next dealer) while every seat passes. Seat ``d mod players``
believes: it plays ``medium``, every other seat plays the ``--opponents`` level, and at each of
its play decisions ``extreme``'s belief (its sizes, its model) is asked for its worlds. Each
world is scored by :func:`ddz_rules.bots.belief.placed`: the share of the other seats' cards
it gives to the seat that really holds them, rank by rank. Uniform worlds (every hidden card
drawn at random among the hidden places, as :func:`~ddz_rules.bots.worlds.sample_deal` draws
them, then the public story replayed) are scored the same way, ``--uniform`` of them a
decision; cards the seat sees (a shown kitty, plays) are placed right by both.

Reported per ruleset and opponents, by the cards left in all hands at the decision: how many
decisions, and the share placed right by the likeliest world, by the worlds ``extreme``
searches (the first :data:`~ddz_rules.bots.extreme.WORLDS`, on average), and by uniform
worlds. A belief is worth what it adds to the uniform share; 1.0 would be the true deal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from bench_plays import machine, machine_line, publish

from ddz_rules import cards, load
from ddz_rules.bots import LEVELS, make_bot
from ddz_rules.bots.belief import placed
from ddz_rules.bots.extreme import WORLDS, ExtremeBot
from ddz_rules.bots.medium import MediumBot
from ddz_rules.bots.worlds import replayed, sample_deal
from ddz_rules.dealsets import deal_seed
from ddz_rules.errors import UsageError
from ddz_rules.game import Hand, Phase
from ddz_rules.match import MAX_REDEALS, next_dealer

DEFAULT_HANDS = 200
DEFAULT_SEED = 20240601
DEFAULT_RULESETS = ("classic", "rlcard")
DEFAULT_OPPONENTS = ("medium", "standard")
DEFAULT_UNIFORM = 4
#: Decisions are grouped by the cards left in all hands, ten at a time.
BUCKET = 10


@dataclass
class Bucket:
    """The cards placed right, and in all, over the decisions of one bucket."""

    decisions: int = 0
    held: int = 0
    top: int = 0
    searched: float = 0.0
    uniform: float = 0.0

    def add(self, top: tuple[int, int], searched: list[tuple[int, int]],
            uniform: list[tuple[int, int]]) -> None:
        self.decisions += 1
        self.held += top[1]
        self.top += top[0]
        self.searched += sum(r for r, _ in searched) / len(searched)
        self.uniform += sum(r for r, _ in uniform) / len(uniform)

    def shares(self) -> dict[str, float]:
        held = self.held or 1
        return {"top": self.top / held, "searched": self.searched / held,
                "uniform": self.uniform / held}


@dataclass
class Row:
    """One ruleset against one opponents' level."""

    ruleset: str
    opponents: str
    hands: int
    buckets: dict[int, Bucket] = field(default_factory=dict)
    seconds: float = 0.0

    def total(self) -> Bucket:
        out = Bucket()
        for b in self.buckets.values():
            out.decisions += b.decisions
            out.held += b.held
            out.top += b.top
            out.searched += b.searched
            out.uniform += b.uniform
        return out


def measure(ruleset_id: str, opponents: str, hands: int, seed: int, uniform: int) -> Row:
    """Play ``hands`` hands and score the belief at each of the believing seat's decisions."""
    ruleset = load(ruleset_id)
    row = Row(ruleset_id, opponents, hands)
    start = time.perf_counter()
    for index in range(hands):
        seat = index % ruleset.players
        bots = [MediumBot(ruleset) if s == seat else make_bot(opponents, ruleset)
                for s in range(ruleset.players)]
        believer = ExtremeBot(ruleset).belief  # a fresh belief a hand
        draws = random.Random(seed * 7919 + index)
        dealer = index % ruleset.players
        for attempt in range(MAX_REDEALS):  # dealt again while every seat passes
            hand = Hand.new(ruleset, deal_seed(seed, index, attempt), dealer=dealer)
            rng = random.Random(attempt)
            while hand.result is None:
                actor = hand.to_act
                assert actor is not None
                view = hand.view(actor)
                if actor == seat and view.phase is Phase.PLAY and len(view.legal) > 1:
                    worlds = [p.hand for p in believer.believe(view)]
                    uniforms = [placed(replayed(view, ruleset, sample_deal(view, ruleset, draws),
                                                hand.table), hand, seat)
                                for _ in range(uniform)]
                    left = sum(cards.size(h) for h in hand.hands) // BUCKET * BUCKET
                    row.buckets.setdefault(left, Bucket()).add(
                        placed(worlds[0], hand, seat),
                        [placed(w, hand, seat) for w in worlds[:WORLDS]], uniforms)
                hand.apply(bots[actor].choose(view, rng))
            if not hand.result.redeal:
                break
            dealer = next_dealer(ruleset, dealer, thrown_in=True)
    row.seconds = time.perf_counter() - start
    return row


def render(rows: list[Row], meta: dict[str, Any]) -> str:
    lines = [f"ddz-rules belief benchmark, {meta['date']}: seed {meta['seed']}, "
             f"{meta['hands']} hands per line, {meta['uniform']} uniform worlds a decision",
             machine_line(meta), "",
             "Share of the other seats' cards a world gives to the seat that holds them "
             "(rank by rank), at the believing seat's play decisions:", "",
             "| ruleset | opponents | cards left | decisions | likeliest world | "
             f"searched worlds (first {WORLDS}) | uniform worlds | gain over uniform |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        for left in sorted(row.buckets, reverse=True):
            b = row.buckets[left]
            sh = b.shares()
            lines.append(f"| {row.ruleset} | {row.opponents} | {left}-{left + BUCKET - 1} | "
                         f"{b.decisions} | {sh['top']:.3f} | {sh['searched']:.3f} | "
                         f"{sh['uniform']:.3f} | {sh['searched'] - sh['uniform']:+.3f} |")
        sh = row.total().shares()
        lines.append(f"| **{row.ruleset}** | **{row.opponents}** | all | "
                     f"{row.total().decisions} | {sh['top']:.3f} | {sh['searched']:.3f} | "
                     f"{sh['uniform']:.3f} | **{sh['searched'] - sh['uniform']:+.3f}** |")
    lines.append("")
    lines.append("Seconds per line: " + ", ".join(
        f"{r.ruleset}/{r.opponents} {r.seconds:.0f}" for r in rows))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS, help="hands per line")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the run's seed")
    parser.add_argument("--rulesets", default=",".join(DEFAULT_RULESETS),
                        help="comma-separated ruleset ids")
    parser.add_argument("--opponents", default=",".join(DEFAULT_OPPONENTS),
                        help="comma-separated bot levels for the other seats")
    parser.add_argument("--uniform", type=int, default=DEFAULT_UNIFORM,
                        help="uniform worlds scored a decision")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    args = parser.parse_args(argv)
    opponents = [o for o in args.opponents.split(",") if o]
    unknown = [o for o in opponents if o not in LEVELS]
    if unknown:
        print(f"bench_belief: --opponents: unknown level {unknown[0]!r}; expected one of "
              f"{', '.join(LEVELS)}", file=sys.stderr)
        return 2
    if args.hands < 1 or args.uniform < 1:
        print("bench_belief: --hands and --uniform must be at least 1", file=sys.stderr)
        return 2
    rulesets = [r for r in args.rulesets.split(",") if r]
    try:
        for ruleset_id in rulesets:
            load(ruleset_id)
    except UsageError as exc:
        print(f"bench_belief: --rulesets: {exc}", file=sys.stderr)
        return 2
    meta = {**machine(), "seed": args.seed, "hands": args.hands, "uniform": args.uniform}
    rows = [measure(r, o, args.hands, args.seed, args.uniform)
            for r in rulesets for o in opponents]
    data = {"meta": meta, "rows": [
        {"ruleset": r.ruleset, "opponents": r.opponents, "hands": r.hands,
         "seconds": r.seconds, "all": {"decisions": r.total().decisions, **r.total().shares()},
         "by_cards_left": {str(k): {"decisions": b.decisions, **b.shares()}
                           for k, b in sorted(r.buckets.items())}} for r in rows]}
    publish(render(rows, meta), data, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
