#!/usr/bin/env python3
"""The open-hand table: for seeded deals of each ruleset, whether the landlord's side wins the
whole deal with every hand open and perfect play, as the bots' auction leaves it, and how
often the kitty decides it. Kept in ``benchmarks/open_hand.json``, which the rules book's
"Open-hand values" page shows (solving takes hours, too long for a site build).

Usage::

    python benchmarks/open_hand_table.py [--rulesets two-player:10000000,classic:1000000]
                                         [--hands 1000] [--seed 0] [--workers 1]
                                         [--work DIR]
                                         [--json benchmarks/open_hand.json]

Each ruleset is a ``ddz compare RULESET --open-hand --whole-positions N`` run (``medium``
bots bid, and play the hand on, which no whole-deal value depends on), its results file kept
under ``--work`` and resumed where a run was stopped: every finished hand stays, none is
played twice. A deal the search does not answer within its budget is counted as such, never as
a result: the table gives the win rate over the deals answered, and bounds over every deal
(each unanswered deal counted as a loss, then as a win).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ddz_rules.compare.report import summarize
from ddz_rules.compare.run import RunSpec, execute
from ddz_rules.compare.stats import proportion_interval

HERE = Path(__file__).resolve().parent


def study(ruleset_id: str, hands: int, positions: int, seed: int, work: Path,
          workers: int = 1) -> dict[str, Any]:
    """One ruleset's row: its run played (or resumed), then counted."""
    spec = RunSpec((ruleset_id,), hands, "medium", seed, True, whole_positions=positions)
    spec.check()
    out = work / f"{ruleset_id}.jsonl"
    started = time.perf_counter()
    done = execute(spec, workers=workers, out=out, resume=out.exists())
    seconds = time.perf_counter() - started
    traces = done[ruleset_id]
    dealt = [t for t in traces if "open_whole" in t]  # a hand thrown in has no play
    answered = [t["open_whole"] for t in dealt if t["open_whole"] is not None]
    wins = sum(answered)
    both = [t for t in dealt if t.get("open_whole") is not None
            and t.get("open_whole_bare") is not None]
    decided = [t for t in both if t["open_whole"] != t["open_whole_bare"]]
    summary = summarize(spec.header()["run"], {ruleset_id: traces}, spec.loaded())
    rate = proportion_interval(wins, len(answered)) if answered else None
    kitty = proportion_interval(len(decided), len(both)) if both else None
    return {
        "ruleset": ruleset_id, "hands": len(traces), "deals_played": len(dealt),
        "whole_positions": positions, "answered": len(answered), "landlord_wins": wins,
        "win_rate": None if rate is None else [rate.mean, rate.low, rate.high],
        "bounds": [wins / len(dealt), (wins + len(dealt) - len(answered)) / len(dealt)],
        "kitty_answered": len(both), "kitty_decides": len(decided),
        "kitty_won_it": sum(t["open_whole"] == 1 for t in decided),
        "kitty_rate": None if kitty is None else [kitty.mean, kitty.low, kitty.high],
        "bots_landlord_win": summary["rulesets"][ruleset_id]["landlord_win"],
        "seconds_this_sitting": round(seconds, 1),
    }


#: The most bytes an earlier results file may hold (a thousand-deal row is about 1 kB).
MAX_RESULTS_BYTES = 1 << 20


def earlier_rows(target: Path, seed: int) -> list[dict[str, Any]]:
    """The rows of an earlier table at ``target`` of the same seed, each with the date and
    checkout of its own run (none where there is no such table)."""
    if not target.is_file() or target.stat().st_size > MAX_RESULTS_BYTES:
        return []
    earlier = json.loads(target.read_text(encoding="utf-8"))
    if earlier.get("seed") != seed:
        return []
    return [{"date": earlier["date"], "commit": earlier["commit"], **row}
            for row in earlier["rows"]]


def merged(earlier: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The earlier table's rows with those of this run in their place (a ruleset run again
    replaces its row; a new one comes last): running one ruleset again keeps the others."""
    fresh = {row["ruleset"]: row for row in rows}
    kept = [fresh.pop(row["ruleset"], row) for row in earlier]
    return kept + [row for row in rows if row["ruleset"] in fresh]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default="two-player:10000000,classic:1000000",
                        help="RULESET:POSITIONS,... (default two-player:10000000,"
                             "classic:1000000)")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--work", default="open-hand-runs",
                        help="folder of the runs' results files (default open-hand-runs)")
    parser.add_argument("--json", default=str(HERE / "open_hand.json"))
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    for item in args.rulesets.split(","):
        ruleset_id, _, positions = item.partition(":")
        row = study(ruleset_id, args.hands, int(positions), args.seed, work, args.workers)
        print(json.dumps(row), flush=True)
        rows.append(row)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=HERE).stdout.strip()
    date = time.strftime("%Y-%m-%d")
    for row in rows:
        row["date"], row["commit"] = date, commit
    target = Path(args.json)
    found = {"date": date, "commit": commit, "seed": args.seed,
             "bots": "medium", "machine": f"{platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores, Python {platform.python_version()}",
             "rows": merged(earlier_rows(target, args.seed), rows)}
    temporary = target.with_suffix(".tmp")
    temporary.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    temporary.replace(target)  # whole or not at all
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
