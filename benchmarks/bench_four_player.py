#!/usr/bin/env python3
"""The four-player ruleset's cost targets, measured: two decks, 33-card hands.

Usage::

    python benchmarks/bench_four_player.py [--hands N] [--seed S] [--json FILE]

What is measured, against the targets the four-player issue set:

* **lead**: every legal play of a 33-card hand (the landlord's, after the kitty of 8) that
  holds the lead, ``PlayTable.leads``, for N seeded hands: target under 5 ms on average.
* **answer**: every play of such a hand that beats a previous play, ``PlayTable.answers``;
  the previous play is a random legal lead of a seeded 25-card hand (a peasant's deal), so
  answers are timed against the plays a game actually meets: target under 5 ms on average.
* **cold classify**: ``ddz classify -r four-player 33344`` as a fresh process, wall time
  (median of several runs): target under 0.5 s.
* **check**: ``ddz check four-player`` as a fresh process, wall time and peak memory (the
  child's maximum resident set): target under 30 s and 1 GB.

Timings are the best of three batches divided by the batch size, garbage collection off, as
in ``bench_plays.py``. No peer engine plays the four-player game (RLCard, DouZero and
OpenSpiel are three-player engines), so there is no ratio to report: the same numbers for
20-card hands of the three-player ``classic`` ruleset are printed beside them for scale.
"""

from __future__ import annotations

import argparse
import gc
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench_plays import machine, machine_line, publish  # this script's directory is on sys.path

from ddz_rules import cards, load
from ddz_rules.table import Play, PlayTable

DEFAULT_HANDS = 1000
DEFAULT_SEED = 20261130
REPEATS = 3
COLD_RUNS = 7
COLD_PLAY = "33344"
#: The targets, in milliseconds and megabytes.
TARGET_MS = {"lead": 5.0, "answer": 5.0, "cold classify": 500.0, "check": 30_000.0}
TARGET_CHECK_MB = 1024.0


def draw(ruleset_id: str, seed: int, size: int, n: int) -> list[int]:
    """``n`` seeded hands of ``size`` cards from the ruleset's deck, packed."""
    deck = [r for r, c in enumerate(load(ruleset_id).copies) for _ in range(c)]
    rng = random.Random(f"{seed}:{ruleset_id}:{size}")
    return [cards.pack_ranks(rng.sample(deck, size)) for _ in range(n)]


def previous_plays(table: PlayTable, seed: int, n: int) -> list[Play]:
    """``n`` previous plays: each a random lead of a seeded peasant-sized hand."""
    rng = random.Random(f"{seed}:previous")
    hands = draw(table.ruleset.id, seed + 1, table.ruleset.hand_size, n)
    return [rng.choice(table.leads(h)) for h in hands]


def best_ms(call: Callable[[], object], size: int) -> tuple[float, float]:
    """The first batch, then the best of :data:`REPEATS` more, per input, in milliseconds.

    The first batch meets every kicker set and previous play for the first time (the table
    remembers each play it builds); the best is the steady state of a long game.
    """
    start = time.perf_counter()
    call()
    first = time.perf_counter() - start
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(REPEATS):
            start = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return first * 1000 / size, best * 1000 / size


def time_moves(ruleset_id: str, size: int, seed: int, n: int) -> dict[str, float]:
    """Mean time per hand of leading and answering, and the mean number of plays."""
    table = PlayTable(load(ruleset_id))
    hands = draw(ruleset_id, seed, size, n)
    previous = previous_plays(table, seed, n)
    pairs = list(zip(hands, previous, strict=True))
    lead_first, lead_ms = best_ms(lambda: [table.leads(h) for h in hands], n)
    answer_first, answer_ms = best_ms(lambda: [table.answers(h, p.reading) for h, p in pairs], n)
    return {"hand_size": size, "lead_ms": lead_ms, "answer_ms": answer_ms,
            "lead_first_ms": lead_first, "answer_first_ms": answer_first,
            "plays_per_lead": statistics.fmean(len(table.leads(h)) for h in hands),
            "plays_per_answer": statistics.fmean(len(table.answers(h, p.reading))
                                                 for h, p in pairs)}


def ddz_command(*args: str) -> list[str]:
    """The ``ddz`` command beside this Python, else on the PATH, else through the module."""
    beside = Path(sys.executable).with_name("ddz")
    found = str(beside) if beside.exists() else shutil.which("ddz")
    if found:
        return [found, *args]
    return [sys.executable, "-c", "import sys; from ddz_rules.cli import main; sys.exit(main())",
            *args]


#: Runs a command as its child and prints the child's wall time and peak memory: a fresh
#: measuring process per command, so an earlier child's peak cannot be reported for it.
_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(done.returncode, wall, peak_kb)
sys.stderr.write(done.stdout)
"""


def run_measured(command: Sequence[str]) -> tuple[int, float, float, str]:
    """Exit code, wall seconds, peak resident megabytes and output of one fresh process."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True,
                          text=True, check=True)
    code, wall, peak_kb = done.stdout.split()
    return int(code), float(wall), int(peak_kb) / 1024, done.stderr


def time_cold_classify() -> dict[str, Any]:
    command = ddz_command("classify", "-r", "four-player", COLD_PLAY)
    runs = [run_measured(command) for _ in range(COLD_RUNS)]
    return {"command": command, "median_ms": statistics.median(r[1] for r in runs) * 1000,
            "output": runs[0][3].strip(), "runs": COLD_RUNS}


def time_check() -> dict[str, Any]:
    command = ddz_command("check", "four-player")
    code, wall, peak_mb, output = run_measured(command)
    return {"command": command, "exit": code, "wall_ms": wall * 1000, "peak_mb": peak_mb,
            "summary": output.strip().splitlines()[1].strip() if output.strip() else ""}


def verdict(value: float, target: float) -> str:
    return f"{'meets' if value < target else 'MISSES'} the target (< {target:g})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands timed (default {DEFAULT_HANDS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed for hands and previous plays (default {DEFAULT_SEED})")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if opts.hands < 1:
        parser.error("--hands must be at least 1")
    meta = {**machine(), "hands": opts.hands, "seed": opts.seed, "repeats": REPEATS}
    four = time_moves("four-player", 33, opts.seed, opts.hands)
    classic = time_moves("classic", 20, opts.seed, opts.hands)
    cold = time_cold_classify()
    check = time_check()
    data = {"meta": meta, "four_player": four, "classic_for_scale": classic,
            "cold_classify": cold, "check": check,
            "targets_ms": TARGET_MS, "target_check_mb": TARGET_CHECK_MB}
    lines = [
        f"four-player cost targets: {opts.hands} seeded hands, seed {opts.seed}, best of "
        f"{REPEATS} batches",
        machine_line(meta),
        "",
        f"lead, 33-card hand     {four['lead_ms']:8.3f} ms  ({four['plays_per_lead']:.0f} plays "
        f"on average; first pass on a fresh table {four['lead_first_ms']:.3f} ms)  "
        f"{verdict(max(four['lead_ms'], four['lead_first_ms']), TARGET_MS['lead'])}",
        f"answer, 33-card hand   {four['answer_ms']:8.3f} ms  ({four['plays_per_answer']:.1f} "
        f"plays on average; first pass {four['answer_first_ms']:.3f} ms)  "
        f"{verdict(max(four['answer_ms'], four['answer_first_ms']), TARGET_MS['answer'])}",
        f"  for scale, classic 20-card hand: lead {classic['lead_ms']:.3f} ms "
        f"({classic['plays_per_lead']:.0f} plays), answer {classic['answer_ms']:.3f} ms",
        f"cold classify          {cold['median_ms']:8.0f} ms  (median of {COLD_RUNS}: "
        f"{cold['output']})  {verdict(cold['median_ms'], TARGET_MS['cold classify'])}",
        f"ddz check four-player  {check['wall_ms']:8.0f} ms, peak {check['peak_mb']:.0f} MB  "
        f"(exit {check['exit']})  {verdict(check['wall_ms'], TARGET_MS['check'])}; "
        f"{verdict(check['peak_mb'], TARGET_CHECK_MB)} MB",
    ]
    publish("\n".join(lines), data, opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
