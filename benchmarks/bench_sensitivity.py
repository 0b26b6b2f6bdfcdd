#!/usr/bin/env python3
"""The sensitivity suite: does a comparison see each rule of the auction and the scoring?

Usage::

    python benchmarks/bench_sensitivity.py [--hands N] [--seed S] [--workers K] [--bots LEVEL]
                                           [--out FILE]

For each case, a one-change variant of a bundled ruleset (``benchmarks/sensitivity/*.yaml``)
is compared with its base by ``ddz compare BASE VARIANT --hands N --bots LEVEL --seed S``,
paired on the same deals. Each case names the measure that expected-score play should move
and the direction, argued in a sentence, before the run; the verdict says whether the paired
difference's 95% interval lies on that side of 0 (**moved as argued**), on the other side
(**moved the other way**), or contains 0 (**did not move**, with the reason where it is
known). The results go to ``benchmarks/sensitivity.json`` (``--out``), which the rules book's
sensitivity page shows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "sensitivity"


@dataclass(frozen=True)
class Case:
    """A one-change variant, the measure it should move, the direction and why."""

    variant: str
    base: str
    rule: str
    measure: str
    direction: int
    argument: str
    #: Said when the measure does not move as argued: why.
    otherwise: str = ""


CASES = (
    Case("classic-base-one", "classic", "scoring.base", "bid", +1,
         "The bid no longer raises the stake, so the top bid costs nothing and secures the "
         "hand: every seat that wants the hand bids 3."),
    Case("classic-open-auction", "classic", "auction.family", "bid", +1,
         "A seat outbid in an open auction may bid again, so two seats that both want the "
         "hand drive the bid up where a single round gave each one word.",
         "A seat that expects to gain bids the top at once, which ends either auction, and "
         "one that does not bids the lowest or passes, so a second turn to bid is seldom "
         "used."),
    Case("classic-cap-4", "classic", "scoring.cap", "bid", -1,
         "A cap cuts the largest stakes, which come more often in hands the landlord wins "
         "(with his bombs and the rocket), so his expected score falls and fewer hands are "
         "worth the top bid.",
         "A cap of 4 binds only where a bid of 2 or 3 meets a bomb or the rocket, too seldom "
         "to turn a hand's expected score from gain to loss."),
    Case("classic-bombs-single", "classic", "scoring.multipliers", "bid", -1,
         "Bombs and the rocket come more often in hands the landlord wins, so when they no "
         "longer double the stake his expected score falls and fewer hands are worth the top "
         "bid.",
         "Bombs and the rocket double wins and losses alike often enough that leaving them "
         "out moves few hands' expected scores across zero."),
    Case("classic-no-spring", "classic", "scoring.multipliers", "bid", -1,
         "A spring is a landlord's win, so without its doubling his expected score falls a "
         "little and a few hands are no longer worth the top bid.",
         "Springs and anti-springs together happen in about 1% of classic hands, so their "
         "doubling barely changes what a hand is worth."),
    Case("two-player-empty-hand", "two-player", "ending.peasant_goal", "robs", +1,
         "Without the advantage line a rob only doubles the stake and no longer brings the "
         "peasant's finishing line closer, so a seat that expects to win robs more."),
    Case("two-player-robs-single", "two-player", "scoring.multipliers", "robs", -1,
         "A rob that does not double the stake still moves the peasant's finishing line "
         "against the robber, so robbing gains nothing and costs something: fewer robs.",
         "The argument was wrong. A seat asked to rob is usually choosing the lesser of two "
         "losses: a peasant against a candidate strong enough to have called or robbed, or a "
         "landlord with the finishing line moved against him. The doubling made the second "
         "the costlier; without it, seats rob more."),
)


def run_case(case: Case, hands: int, seed: int, workers: int, bots: str) -> dict[str, Any]:
    """Compare the case's variant with its base and judge the measured difference."""
    command = ["ddz", "compare", case.base, str(CASES_DIR / f"{case.variant}.yaml"),
               "--hands", str(hands), "--bots", bots, "--seed", str(seed),
               "--workers", str(workers), "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    pair = next(d for d in report["differences"] if d["a"] == case.variant)
    diff = pair[case.measure]
    per: dict[str, Any] = report["rulesets"]
    if diff["low"] > 0 or diff["high"] < 0:
        side = 1 if diff["low"] > 0 else -1
        verdict = "moved as argued" if side == case.direction else "moved the other way"
    else:
        verdict = "did not move"
    return {"variant": case.variant, "base": case.base, "rule": case.rule,
            "measure": case.measure, "direction": case.direction, "argument": case.argument,
            "otherwise": case.otherwise if verdict != "moved as argued" else "",
            "difference": diff, "paired": pair["paired"], "rules_differ": pair["rules_differ"],
            "identical": pair["identical"], "verdict": verdict, "seconds": round(seconds, 1),
            "values": {name: per[name].get(case.measure) for name in per}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bots", default="medium")
    parser.add_argument("--out", type=Path, default=HERE / "sensitivity.json")
    args = parser.parse_args(argv)
    results = []
    for case in CASES:
        row = run_case(case, args.hands, args.seed, args.workers, args.bots)
        d = row["difference"]
        arrow = "up" if case.direction > 0 else "down"
        print(f"{case.variant:26} {case.measure:8} expected {arrow:4} {d['mean']:+.3f} "
              f"[{d['low']:+.3f}, {d['high']:+.3f}]  {row['verdict']}"
              f"  ({row['seconds']} s)", flush=True)
        results.append(row)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                            text=True, check=False, cwd=HERE).stdout.strip()
    document = {"hands": args.hands, "seed": args.seed, "bots": args.bots,
                "workers": args.workers, "commit": commit,
                "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "load": os.getloadavg()[0], "cases": results}
    part = args.out.with_name(args.out.name + ".part")
    part.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    part.replace(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
