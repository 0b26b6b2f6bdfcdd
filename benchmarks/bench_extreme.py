#!/usr/bin/env python3
"""Time the ``extreme`` bot and check that it still beats ``medium``.

Usage::

    python benchmarks/bench_extreme.py [--hands N] [--deals D] [--seed S] [--workers K]
                                       [--rulesets classic,two-player] [--skip-throughput]
                                       [--skip-duel] [--json FILE]

Every hand is a ``ddz_rules.compare.runner.Task`` played by ``play_task``, as ``ddz compare``
and ``bench_bots.py`` play it, and the measuring code is ``bench_bots.py``'s, imported:

1. **Throughput**: hands per second with every seat ``extreme`` (and, for scale, ``medium``)
   on each ruleset, in this process: one warm-up hand (an index outside the batch), then the
   best of three timed passes over N hands with garbage collection off
   (``bench_bots.throughput``). The CPU seconds of the whole measurement (warm-up and every
   pass) per hand played are printed beside it: on a shared machine the wall time of a pass
   grows with the load, its CPU time much less.
2. **Duel**: on D paired deals per ruleset, ``medium`` bids in every seat; then the hand is
   played out with ``medium`` everywhere (baseline), with ``extreme`` as the landlord only,
   and with ``extreme`` as the peasants only (``bench_bots.ladder``). The paired differences
   of the landlord's score (and of his wins), with 95% intervals
   (``compare.stats.paired_difference``), are > 0 when ``extreme`` did better in its seat(s).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from bench_bots import (
    REPEATS,
    Ladder,
    Report,
    Throughput,
    _bots_digest,
    _ladder_json,
    _load,
    ladder,
    render_ladder,
    render_throughput,
    summarize,
    throughput,
)
from bench_plays import machine, machine_line, publish

from ddz_rules.compare.runner import Task, play_task

DEFAULT_HANDS = 30
DEFAULT_DEALS = 300
DEFAULT_SEED = 20240601  # bench_bots.py's, so the duel's deals are the ladder's
RULESETS = ("classic", "two-player")
LEVEL = "extreme"
OPPONENT = "medium"


def timed(ruleset: str, level: str, hands: int, seed: int) -> tuple[Throughput, float]:
    """``bench_bots.throughput``, and the CPU seconds per hand it played (warm-up included).

    One hand is played first, untimed, so that loading the ruleset and making the bots is
    not counted in the CPU time."""
    play_task(Task(ruleset, level, seed, hands + 1))
    before = os.times()
    row = throughput(ruleset, level, hands, seed)
    after = os.times()
    cpu = (after.user - before.user) + (after.system - before.system)
    return row, cpu / (REPEATS * hands + 1)


def render(meta: dict[str, Any], rows: Sequence[tuple[Throughput, float]],
           duels: Sequence[Ladder], summary: Sequence[str]) -> str:
    lines = [
        f"ddz-rules extreme benchmark, {meta['date']}: seed {meta['seed']}, "
        f"{meta['hands'] or 'no'} hands per throughput line, duel on "
        f"{meta['deals'] or 'no'} deals per ruleset",
        f"{machine_line(meta)}, bots {meta['bots_digest']}; load average "
        f"{meta['load_before']} before, {meta.get('load_after', '-')} after",
        "",
    ]
    if rows:
        lines += render_throughput([r for r, _ in rows])
        lines += ["", "CPU seconds per hand over the whole measurement (warm-up and "
                  f"{REPEATS} passes):"]
        lines += [f"  {r.ruleset:<11} {r.level:<9} {cpu * 1e3:9.1f} ms/hand "
                  f"({1 / cpu:,.1f} hands per CPU second)" for r, cpu in rows]
        lines.append("")
    if duels:
        lines += [*render_ladder(duels), ""]
    lines += ["Summary:", *[f"  {s}" for s in summary]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands per throughput line (default {DEFAULT_HANDS})")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                        help=f"paired deals of the duel per ruleset (default {DEFAULT_DEALS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the deals (default {DEFAULT_SEED})")
    parser.add_argument("--workers", type=int, default=1,
                        help="worker processes for the duel, which is not timed (default 1)")
    parser.add_argument("--rulesets", default=",".join(RULESETS),
                        help=f"comma-separated rulesets (default {','.join(RULESETS)})")
    parser.add_argument("--skip-throughput", action="store_true", help="no throughput lines")
    parser.add_argument("--skip-duel", action="store_true", help="no duel")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if opts.hands < 1 or opts.deals < 2 or opts.workers < 1 or opts.seed < 0:
        parser.error("--hands and --workers must be at least 1, --deals at least 2, "
                     "--seed not negative")
    rulesets = [r for r in opts.rulesets.split(",") if r]

    meta: dict[str, Any] = {
        **machine(), "seed": opts.seed,
        "hands": None if opts.skip_throughput else opts.hands,
        "deals": None if opts.skip_duel else opts.deals, "repeats": REPEATS,
        "workers": opts.workers, "rulesets": rulesets, "bots_digest": _bots_digest(),
        "load_before": _load(), "load_by_step": [],
    }
    started = time.perf_counter()

    def step(message: str) -> None:
        meta["load_by_step"].append([message, _load()])
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    rows: list[tuple[Throughput, float]] = []
    if not opts.skip_throughput:
        for ruleset in rulesets:
            for level in (OPPONENT, LEVEL):
                step(f"throughput {ruleset} {level}: {opts.hands} hands x {REPEATS}")
                rows.append(timed(ruleset, level, opts.hands, opts.seed))
    duels: list[Ladder] = []
    if not opts.skip_duel:
        for ruleset in rulesets:
            step(f"duel {ruleset} {LEVEL} > {OPPONENT}: {opts.deals} deals x 3 arms")
            duels.append(ladder(ruleset, LEVEL, OPPONENT, opts.deals, opts.seed, opts.workers))

    meta["load_after"] = _load()
    meta["wall_s"] = round(time.perf_counter() - started, 1)
    summary = summarize(Report(meta, ladder=duels))
    summary += [f"{r.ruleset} {r.level}: {r.hands_per_s:,.2f} hands/s "
                f"({r.ms_per_hand:,.0f} ms a hand; {cpu * 1e3:,.0f} CPU ms)"
                for r, cpu in rows]
    summary.append(f"Whole run: {meta['wall_s']:.0f} s.")
    data = {"meta": meta,
            "throughput": [{**asdict(r), "hands_per_s": r.hands_per_s,
                            "ms_per_hand": r.ms_per_hand, "cpu_s_per_hand": cpu}
                           for r, cpu in rows],
            "duel": [_ladder_json(d) for d in duels], "summary": summary}
    publish(render(meta, rows, duels, summary), data, opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
