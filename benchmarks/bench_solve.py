#!/usr/bin/env python3
"""Exact play (``ddz solve``) measured: the published 13-against-12 expert puzzle, two-seat
positions against ``doudizhu-resolver`` in the same run, random three-seat positions, and
whole classic deals.

Usage::

    pip install -e '.[peers]'      # doudizhu-resolver, the two-seat peer
    python benchmarks/bench_solve.py [--positions N] [--sizes 8,10,...] [--per-size K]
                                     [--deals D] [--deal-rulesets classic,...] [--budget S]
                                     [--deal-memory MB] [--json FILE]

1. The expert puzzle (the robot's thirteen cards against the player's twelve, the player to
   move) under the ``puzzle`` ruleset: whether the player wins and his winning plays, the
   best of three solves, and the peak memory of a process that only solves it.
2. ``--peer-positions`` random two-seat positions (three to five cards a seat, the seat to
   move leading: the peer takes up to a minute at six), each answered by ``ddz solve`` and by
   ``doudizhu_resolver.is_winable``: the answers compared one by one, and the times (the
   peer's cache cleared between positions, as ours is a new search each time).
3. ``--positions`` random three-seat classic positions of up to eight cards a seat (a random
   landlord and seat to act): the median and the 95th percentile of the solve time.
4. ``--sizes`` classic positions dealt at random, the landlord to lead with N cards and each
   peasant with N - 3 (a whole deal is 20 against 17 and 17), ``--per-size`` of each, each
   asked only whether the landlord wins (``landlord_wins``: the answer, not every winning
   play) within ``--budget`` seconds and ``--deal-memory`` megabytes: how many are answered,
   the median and slowest times, positions a second (``--only-sizes`` measures these alone).
5. ``--deals`` whole deals of each of ``--deal-rulesets`` (classic: 20, 17 and 17 cards;
   ``all``: every bundled ruleset whose deal's sides are known before play, so not
   four-player's called partner), as ``ddz solve --deal`` asks them (``solver.of_deal``: the
   first bidder taking the kitty as the landlord and leading; Run Fast: the first leader,
   asked whether he goes out first), each with the same budget: how many are answered, and
   the times (``--only-deals`` measures these alone).
6. With ``--commands`` (or ``--only-commands``, alone), the ``ddz solve`` command itself on the
   same deals of each of ``--command-rulesets``, with its default settings, each stopped after
   ``--command-timeout`` seconds: the wall time a person waits, from start to exit.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from ddz_rules import bundled_ids, cards, compile_table, load
from ddz_rules.errors import OutOfBudget
from ddz_rules.solver import Position, deal_sides_known, of_deal, search_for, solve

EXPERT = ("R A Q Q J J 10 9 9 9 8 4 4", "B 2 2 A A 10 8 8 6 6 3 3")
#: doudizhu-resolver's card names (it needs suits: they are given in turn).
PEER_RANKS = {"T": "10", "B": "BJ", "R": "CJ"}
SUITS = "shdc"


def peer_text(key: int) -> str:
    """A packed card set in doudizhu-resolver's notation: ``3s-3h-BJ``."""
    out, seen = [], {}
    for rank in cards.ranks_of(key):
        char = cards.RANKS[rank]
        name = PEER_RANKS.get(char, char)
        if name in ("BJ", "CJ"):
            out.append(name)
            continue
        n = seen.get(name, 0)
        seen[name] = n + 1
        out.append(name + SUITS[n])
    return "-".join(out)


def expert(repeats: int = 3) -> dict[str, Any]:
    position = Position.from_text(load("puzzle"), "/".join(EXPERT), 1)
    best, solution = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        solution = solve(position)
        best = min(best, time.perf_counter() - started)
    assert solution is not None
    # the peak memory of a process that loads the package and solves the puzzle, alone
    child = subprocess.run([sys.executable, "-c", (
        "import resource; from ddz_rules import load; from ddz_rules.solver import Position, "
        "solve; p = Position.from_text(load('puzzle'), " + repr("/".join(EXPERT)) + ", 1); "
        "s = solve(p); print(s.wins, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")],
        capture_output=True, text=True, check=True)
    wins, peak_kb = child.stdout.split()
    return {"wins": solution.wins, "winning": sorted(position.table.notation(p)
                                                      for p in solution.winning if p),
            "seconds": round(best, 4), "positions": solution.positions,
            "engine": solution.engine, "child_wins": wins == "True",
            "peak_mb": round(int(peak_kb) / 1024, 1)}


def two_seat(count: int, rng: random.Random) -> dict[str, Any]:
    try:
        import doudizhu_resolver
    except ImportError:
        return {"skipped": "doudizhu-resolver is not installed (pip install -e '.[peers]')"}
    ruleset = load("puzzle")
    deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
    ours, theirs, agree, rows = [], [], 0, []
    for _ in range(count):
        rng.shuffle(deck)
        a, b = rng.randint(3, 5), rng.randint(3, 5)
        hands = (cards.pack_ranks(deck[:a]), cards.pack_ranks(deck[a:a + b]))
        position = Position(ruleset, hands, 0, landlord=0)
        started = time.perf_counter()
        mine = solve(position, line_length=0).wins
        ours.append(time.perf_counter() - started)
        doudizhu_resolver.clear_cache()
        started = time.perf_counter()
        peer = doudizhu_resolver.is_winable(peer_text(hands[0]), peer_text(hands[1]))
        theirs.append(time.perf_counter() - started)
        agree += mine == peer
        if mine != peer:
            rows.append({"hands": [cards.key_text(h) for h in hands], "ours": mine,
                         "peer": peer})
    return {"positions": count, "agree": agree, "disagreements": rows[:10],
            "ours_total_s": round(sum(ours), 3), "peer_total_s": round(sum(theirs), 3),
            "ratio": round(sum(theirs) / sum(ours), 1)}


def three_seat(count: int, rng: random.Random) -> dict[str, Any]:
    ruleset = load("classic")
    compile_table(ruleset).compiled()
    deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
    times, sizes = [], []
    for _ in range(count):
        rng.shuffle(deck)
        hands, at = [], 0
        for _ in range(3):
            n = rng.randint(1, 8)
            hands.append(cards.pack_ranks(deck[at:at + n]))
            at += n
        position = Position(ruleset, tuple(hands), rng.randrange(3),
                            landlord=rng.randrange(3))
        started = time.perf_counter()
        solve(position, line_length=0)
        times.append(time.perf_counter() - started)
        sizes.append(sum(cards.size(h) for h in hands))
    times.sort()
    return {"positions": count, "median_s": round(statistics.median(times), 5),
            "p95_s": round(times[int(0.95 * (count - 1))], 5), "max_s": round(times[-1], 4),
            "cards_mean": round(statistics.mean(sizes), 1)}


def answer(position: Position, budget: float, memory_mb: float) -> dict[str, Any]:
    """Whether the landlord wins ``position`` (None past the budget), the seconds and the
    positions it took."""
    search = search_for(position, memory_mb, budget)
    started = time.perf_counter()
    try:
        wins: bool | None = search.wins(position, 0)
        stopped = None
    except OutOfBudget as exc:
        wins, stopped = None, str(exc)
    return {"wins": wins, "stopped": stopped,
            "seconds": round(time.perf_counter() - started, 3), "positions": search.positions}


def by_size(sizes: list[int], count: int, budget: float, memory_mb: float,
            rng: random.Random) -> list[dict[str, Any]]:
    ruleset = load("classic")
    compile_table(ruleset).compiled()
    deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
    found = []
    for size in sizes:
        rows = []
        for _ in range(count):
            rng.shuffle(deck)
            a, b = size, size - 3
            hands = (cards.pack_ranks(deck[:a]), cards.pack_ranks(deck[a:a + b]),
                     cards.pack_ranks(deck[a + b:a + 2 * b]))
            rows.append(answer(Position(ruleset, hands, 0, landlord=0), budget, memory_mb))
        times = sorted(r["seconds"] for r in rows)
        found.append({"landlord": size, "peasants": size - 3, "positions_dealt": count,
                      "answered": sum(r["wins"] is not None for r in rows),
                      "landlord_wins": sum(r["wins"] is True for r in rows),
                      "median_s": statistics.median(times), "max_s": times[-1],
                      "positions_per_s": round(sum(r["positions"] for r in rows)
                                               / max(sum(times), 1e-9))})
    return found


def commands(ruleset_id: str, count: int, timeout: float) -> dict[str, Any]:
    """``ddz solve --json --deal SEED`` itself, with its default settings (no budget for the
    answer, a million positions after it), on deals 0 to ``count`` - 1 (those
    :func:`whole_deals` asks), each process stopped after ``timeout`` seconds: its wall time
    from start to exit, the answer, the line's length, the winning plays found and what
    stopped the rest."""
    rows = []
    for seed in range(count):
        command = [sys.executable, "-m", "ddz_rules.cli", "solve", "-r", ruleset_id, "--json",
                   "--deal", str(seed)]
        started = time.perf_counter()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                  check=True)
        except subprocess.TimeoutExpired:
            rows.append({"seed": seed, "ended": False, "wall_s": timeout})
            continue
        found = json.loads(done.stdout)
        rows.append({"seed": seed, "ended": True,
                     "wall_s": round(time.perf_counter() - started, 2), "wins": found["wins"],
                     "line": len(found["line"]), "winning": len(found["winning"]),
                     "positions": found["positions"], "stopped": found.get("stopped")})
    walls = sorted(r["wall_s"] for r in rows)
    return {"ruleset": ruleset_id, "deals": count, "timeout_s": timeout,
            "ended": sum(r["ended"] for r in rows), "median_wall_s": statistics.median(walls),
            "max_wall_s": walls[-1], "rows": rows}


def whole_deals(ruleset_id: str, count: int, budget: float,
                memory_mb: float) -> dict[str, Any]:
    """Deals 0 to ``count`` - 1 of the ruleset (``game.deal``), the first bidder taking the
    kitty as the landlord and leading (cards not dealt are out of play; in Run Fast, which
    has no landlord, the first leader is asked whether he goes out first, his first play
    holding the lead card where the ruleset says so; with wild cards, the deal's wild ranks
    are the hand's)."""
    ruleset = load(ruleset_id)
    compile_table(ruleset).compiled()
    rows = []
    for seed in range(count):
        position = of_deal(ruleset, seed)
        rows.append({"seed": seed, "cards": [cards.size(h) for h in position.hands],
                     **answer(position, budget, memory_mb)})
    answered = sorted(r["seconds"] for r in rows if r["wins"] is not None)
    times = sorted(r["seconds"] for r in rows)
    return {"ruleset": ruleset_id, "deals": count, "budget_s": budget, "memory_mb": memory_mb,
            "solved": len(answered), "landlord_wins": sum(r["wins"] is True for r in rows),
            "median_s": statistics.median(times), "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--peer-positions", type=int, default=20)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--deal-rulesets", default="classic,two-player,no-kitty,happy,run-fast",
                        help="the rulesets whose whole deals are measured, or all for every "
                             "bundled one (default classic,two-player,no-kitty,happy,run-fast)")
    parser.add_argument("--sizes", default="8,10,12,14,16,20",
                        help="the landlord's cards in the positions by size (default "
                             "8,10,12,14,16,20)")
    parser.add_argument("--per-size", type=int, default=20)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--deal-memory", type=float, default=256.0,
                        help="megabytes of table for each position by size and whole deal "
                             "(default 256)")
    parser.add_argument("--only-deals", action="store_true",
                        help="measure the whole deals alone")
    parser.add_argument("--only-sizes", action="store_true",
                        help="measure the positions by size alone")
    parser.add_argument("--commands", action="store_true",
                        help="also time the ddz solve command itself, default settings, on the "
                             "whole deals of --command-rulesets")
    parser.add_argument("--only-commands", action="store_true",
                        help="time the ddz solve command alone")
    parser.add_argument("--command-rulesets",
                        default="two-player,run-fast,run-fast-15,run-fast-45",
                        help="the rulesets whose deals the command is timed on (default "
                             "two-player,run-fast,run-fast-15,run-fast-45)")
    parser.add_argument("--command-timeout", type=float, default=60.0,
                        help="seconds after which a command is stopped (default 60)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deal_rulesets = ([r for r in bundled_ids() if deal_sides_known(load(r))]
                     if args.deal_rulesets == "all" else args.deal_rulesets.split(","))
    if args.commands or args.only_commands:
        for ruleset_id in args.command_rulesets.split(","):
            print("ddz solve:", json.dumps(commands(ruleset_id, args.deals,
                                                    args.command_timeout)), flush=True)
        if args.only_commands:
            return
    if args.only_deals:
        for ruleset_id in deal_rulesets:
            print("whole deals:", json.dumps(whole_deals(ruleset_id, args.deals, args.budget,
                                                         args.deal_memory)), flush=True)
        return
    sizes = [int(x) for x in args.sizes.split(",")]
    if args.only_sizes:
        for row in by_size(sizes, args.per_size, args.budget, args.deal_memory, rng):
            print("by size:", json.dumps(row), flush=True)
        return
    found: dict[str, Any] = {"expert": expert()}
    print("expert puzzle:", json.dumps(found["expert"]), flush=True)
    found["two_seat"] = two_seat(args.peer_positions, rng)
    print("two seats against doudizhu-resolver:", json.dumps(found["two_seat"]), flush=True)
    found["three_seat"] = three_seat(args.positions, rng)
    print("three seats:", json.dumps(found["three_seat"]), flush=True)
    found["sizes"] = by_size(sizes, args.per_size, args.budget, args.deal_memory, rng)
    for row in found["sizes"]:
        print("by size:", json.dumps(row), flush=True)
    found["deals"] = []
    for ruleset_id in deal_rulesets:
        deals = whole_deals(ruleset_id, args.deals, args.budget, args.deal_memory)
        found["deals"].append(deals)
        print("whole deals:", json.dumps({k: v for k, v in deals.items() if k != "rows"}),
              flush=True)
        for row in deals["rows"]:
            print("  ", json.dumps(row), flush=True)
    found["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(found, out, indent=1)


if __name__ == "__main__":
    main()
