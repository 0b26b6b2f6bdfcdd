#!/usr/bin/env python3
"""How much better each bot level plays Run Fast than a weaker one: paired duels.

Usage::

    python benchmarks/duel_run_fast.py [--deals N] [--seed S] [--json FILE]

For each ruleset without a landlord (every player for himself) and each pair of levels
(medium-random, standard-random, medium-standard), ``ddz_rules.compare.duels.duel`` plays N
deals, each once per seat with the stronger level in that seat and the weaker in the others,
so what the cards give a seat cancels out. It prints the stronger level's mean score per hand
and its lead over the weaker seats (its mean minus theirs), each with a 95% interval over the
deals, and the time taken.
"""

from __future__ import annotations

import argparse
import json
import time

from ddz_rules.compare.duels import duel
from ddz_rules.ruleset import bundled_ids, load

PAIRS = (("medium", "random"), ("standard", "random"), ("medium", "standard"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    rows = []
    print("| ruleset | pairing | stronger level's score per hand | its lead over the weaker "
          "| time |")
    print("|---|---|---|---|---|")
    for ruleset_id in bundled_ids():
        ruleset = load(ruleset_id)
        if ruleset.has_landlord:
            continue
        for level, against in PAIRS:
            start = time.perf_counter()
            result = duel(ruleset, level, against, args.deals, args.seed)
            took = time.perf_counter() - start
            score, lead = result.score, result.lead
            rows.append({"ruleset": ruleset_id, "level": level, "against": against,
                         "deals": args.deals, "seed": args.seed,
                         "score": [score.mean, score.low, score.high],
                         "lead": [lead.mean, lead.low, lead.high], "seconds": round(took, 1)})
            print(f"| {ruleset_id} | {level} vs {against} | {score.mean:.2f} "
                  f"[{score.low:.2f}, {score.high:.2f}] | {lead.mean:.2f} "
                  f"[{lead.low:.2f}, {lead.high:.2f}] | {took:.0f} s |", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=2)


if __name__ == "__main__":
    main()
