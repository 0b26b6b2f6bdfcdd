#!/usr/bin/env python3
"""How long ``ddz botzone`` takes to answer Botzone's requests, by bot level.

Usage::

    python benchmarks/bench_botzone.py [--hands H] [--levels standard,medium,extreme]
                                       [--starts N] [--json FILE]

Plays ``H`` whole hands of each Botzone game (FightTheLandlord2 under the ``botzone`` preset,
FightTheLandlord under ``botzone-ftl1``) with every seat answered by the level, each request
made as the judge makes it (``tests/botzone_judge.py``), and times every answer in this
process: the game rebuilt from the input, then the bot's choice. Botzone starts a bot afresh
each turn (unless it keeps running), so the start of a whole ``ddz botzone`` process
answering one request is timed too, ``N`` times. Reported: answers timed, median, 95th
percentile and slowest answer per level and game; the median and slowest start.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench_plays import machine, machine_line, publish

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ddz_rules import load  # noqa: E402
from ddz_rules.bots.botzone import respond  # noqa: E402
from tests.botzone_judge import play_hand  # noqa: E402

GAMES = (("FightTheLandlord2", "botzone", True), ("FightTheLandlord", "botzone-ftl1", False))
REQUEST = ROOT / "tests" / "fixtures" / "botzone" / "ftl2-landlord-leads.json"


def time_level(level: str, ruleset_id: str, two: bool, hands: int) -> list[float]:
    """Every answer's time over ``hands`` hands, in seconds."""
    times: list[float] = []

    def answer(text: str) -> Any:
        start = time.perf_counter()
        value = respond(text, level)
        times.append(time.perf_counter() - start)
        return value

    ruleset = load(ruleset_id)
    for seed in range(hands):
        play_hand(ruleset, seed, answer, two)
    return times


def time_starts(level: str, starts: int) -> list[float]:
    """Wall time of a whole ``ddz botzone`` process answering one request."""
    out = []
    for _ in range(starts):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ddz_rules.cli", "botzone", "--level", level,
                        str(REQUEST)], check=True, capture_output=True, cwd=ROOT)
        out.append(time.perf_counter() - start)
    return out


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"answers": len(ordered), "median": statistics.median(ordered),
            "p95": ordered[int(0.95 * (len(ordered) - 1))], "slowest": ordered[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20, help="hands per game and level")
    parser.add_argument("--levels", default="standard,medium,extreme")
    parser.add_argument("--starts", type=int, default=5, help="whole processes timed")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    meta = machine()
    rows = []
    for level in args.levels.split(","):
        for game, ruleset_id, two in GAMES:
            rows.append({"level": level, "game": game,
                         **summary(time_level(level, ruleset_id, two, args.hands))})
    starts = summary(time_starts("extreme", args.starts))
    lines = [f"ddz botzone: {args.hands} whole hands per game and level, every answer timed",
             machine_line(meta), "",
             "| level | game | answers | median | 95th percentile | slowest |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['level']} | {r['game']} | {r['answers']} | {1000 * r['median']:.1f} ms "
              f"| {1000 * r['p95']:.1f} ms | {1000 * r['slowest']:.1f} ms |" for r in rows]
    lines += ["", f"A whole `ddz botzone` process answering one request (extreme): median "
              f"{starts['median']:.2f} s, slowest {starts['slowest']:.2f} s over "
              f"{starts['answers']} starts"]
    publish("\n".join(lines), {"meta": meta, "rows": rows, "starts": starts}, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
