#!/usr/bin/env python3
"""The compiled move lister against the Python path, and both against OpenSpiel, in one run.

Usage::

    python benchmarks/bench_native.py [--hands N] [--bot-hands M] [--seed S] [--json FILE]

The same checkout is measured twice, each time in a fresh child process: once on the Python
path (``DDZ_PURE_PYTHON=1``, what runs where no compiler was found) and once with the compiled
modules (``ddz_rules/_moves.c``, ``_kernel.c``). Each child measures, under ``classic``,
``four-player``, ``laizi`` and the ``openspiel`` preset:

* **leads / answers**: every play of N seeded hands of the ruleset's dealt size and of its
  largest hand (answers: to a play of the table drawn for each hand), as ``Play`` objects
  (``PlayTable.leads``/``answers``) and as ids (``lead_ids``/``answer_ids``); best of three
  batches after a warm-up batch, garbage collection off. Laizi's hands are natural cards
  (its wild ranks are drawn after the auction).
* **random hands**: ``simulate.play_random`` over N hands, deal and auction included.
* **runner**: ``runner.HandRunner.scores`` over the same N hands (the compiled hand runner;
  on the Python path, the same hands played by the Python loop), under the rulesets above,
  ``two-player`` and ``run-fast``; the digest covers every hand's scores and choices.
* **bots**: ``medium`` (N hands) and ``extreme`` (M hands) with every seat that level, under
  ``classic``, ``four-player`` and ``laizi``, as ``compare.runner.play_task`` plays them.
* **the floor of a Python-driven hand**: classic cards shuffled, no auction, then only the
  ids, a random choice and the trick's integers in a Python loop (no ``Hand``, no record):
  what CPython costs a hand before any rule bookkeeping.
* **where the time goes** in a random classic hand: the same hands replayed with each part
  timed alone (the deal, listing the legal actions, the random choice, applying the action),
  each part's best of three passes. Timing each call costs about 0.1 µs a call more.

Each child also digests what it produced (every listing, every record, every bot trace), and
the report says whether the two paths produced the same. OpenSpiel's C++ ``evaluate_bots``
loop is timed in this process as ``bench_hands.py`` times it; ``bench_plays.py`` times our ids
against its ``legal_actions()`` on the same situations.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench_plays import REPEATS, best_us, machine, machine_line, peer_status, publish

HERE = Path(__file__).resolve().parent
DEFAULT_HANDS = 300
DEFAULT_BOT_HANDS = 20
DEFAULT_SEED = 20240601
RULESETS = ("classic", "four-player", "laizi", "openspiel")
#: Rulesets whose random hands are timed through the hand runner too.
RUNNER_RULESETS = (*RULESETS, "two-player", "run-fast")
#: The bots are timed under these (every seat the level).
BOT_RULESETS = ("classic", "four-player", "laizi")


# ---------------------------------------------------------------------------- the child


def situations(ruleset_id: str, size: int, count: int, seed: int) -> list[tuple[int, int]]:
    """``count`` seeded (hand, previous play id) pairs of ``size`` natural cards."""
    from ddz_rules import cards, compile_table, load

    table = compile_table(load(ruleset_id))
    rng = random.Random(f"{seed}:{ruleset_id}:{size}")
    deck = [r for r, n in enumerate(table.ruleset.copies) for _ in range(n)]
    out = []
    for _ in range(count):
        hand = cards.pack_ranks(rng.sample(deck, size))
        out.append((hand, rng.randrange(len(table.by_id))))
    return out


def child_listing(ruleset_id: str, count: int, seed: int) -> dict[str, Any]:
    from ddz_rules import compile_table, load

    table = compile_table(load(ruleset_id))
    table.compiled()  # flatten now, not at the NATIVE_AFTER-th listing inside a timed batch
    sizes = sorted({table.ruleset.hand_size, table.ruleset.max_hand})
    rows: dict[str, Any] = {}
    digest = hashlib.sha256()
    for size in sizes:
        pairs = situations(ruleset_id, size, count, seed)
        hands = [(hand,) for hand, _ in pairs]
        readings = [(hand, table.by_id[previous].reading) for hand, previous in pairs]
        calls: dict[str, tuple[Callable[..., object], list[Any]]] = {
            "leads": (table.leads, hands), "lead ids": (table.lead_ids, hands),
            "answers": (table.answers, readings), "answer ids": (table.answer_ids, pairs)}
        for name, (call, args) in calls.items():
            rows[f"{name} {size}"] = best_us(call, args)
        for hand, previous in pairs:
            digest.update(repr((table.lead_ids(hand), table.answer_ids(hand, previous))).encode())
    return {"us": rows, "digest": digest.hexdigest()[:16]}


def child_hands(ruleset_id: str, count: int, seed: int) -> dict[str, Any]:
    from ddz_rules import compile_table, load
    from ddz_rules.records import to_record
    from ddz_rules.simulate import hand_seed, play_random

    ruleset = load(ruleset_id)
    compile_table(ruleset).compiled()  # not at the NATIVE_AFTER-th listing of a timed batch
    seeds = [hand_seed(seed, i) for i in range(count)]
    us = best_us(play_random, [(ruleset, s) for s in seeds])
    assert us is not None
    digest = hashlib.sha256()
    for s in seeds:
        digest.update(json.dumps(to_record(play_random(ruleset, s)), sort_keys=True).encode())
    return {"hands_per_s": 1e6 / us, "digest": digest.hexdigest()[:16]}


def child_runner(ruleset_id: str, count: int, seed: int) -> dict[str, Any]:
    """``HandRunner.scores`` over the hands of child_hands (the compiled runner, or the same
    hands played in Python where it is switched off), and a digest of every hand's scores and
    choices (``HandRunner.play``)."""
    from ddz_rules import load
    from ddz_rules.runner import HandRunner
    from ddz_rules.simulate import hand_seed

    runner = HandRunner(load(ruleset_id))
    seeds = [hand_seed(seed, i) for i in range(count)]
    us = best_us(runner.scores, [(s,) for s in seeds])
    assert us is not None
    played = [runner.play(s) for s in seeds]
    text = json.dumps([(p.scores, p.redeal, p.choices) for p in played])
    return {"hands_per_s": 1e6 / us, "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
            "python": runner.why_python}


def child_seeding(count: int, seed: int) -> float | None:
    """µs a Python call that seeds the runner's generator and draws nothing
    (``_moves.draws(seed, [])``): a compiled hand seeds two (the deal's and the choices')."""
    from ddz_rules.table import native_modules

    moves = native_modules()
    if moves is None:
        return None
    return best_us(moves.draws, [(seed * 1_000_003 + i, []) for i in range(count)])


def child_bots(ruleset_id: str, level: str, count: int, seed: int) -> dict[str, Any]:
    from ddz_rules import compile_table, load
    from ddz_rules.compare.runner import Task, play_task

    compile_table(load(ruleset_id)).compiled()  # not at the NATIVE_AFTER-th listing, timed
    tasks = [Task(ruleset_id, level, seed, i) for i in range(count)]
    play_task(Task(ruleset_id, level, seed, count))  # warm-up: an index outside the batch
    traces: list[Any] = []
    gc.disable()
    start = time.perf_counter()
    try:
        traces = [play_task(t) for t in tasks]
    finally:
        gc.enable()
    seconds = time.perf_counter() - start
    text = json.dumps(traces, sort_keys=True, default=str)
    return {"hands_per_s": count / seconds,
            "digest": hashlib.sha256(text.encode()).hexdigest()[:16]}


def child_parts(count: int, seed: int) -> dict[str, float]:
    """The classic random hands of child_hands, replayed with each part timed alone (µs a
    hand), so the parts' sum can be checked against the whole."""
    from ddz_rules import load
    from ddz_rules.game import Hand
    from ddz_rules.simulate import hand_seed

    ruleset = load("classic")
    seeds = [hand_seed(seed, i) for i in range(count)]
    games: list[tuple[int, list[int]]] = []  # each hand's seed and the index chosen each time
    for s in seeds:
        hand, rng, chosen = Hand.new(ruleset, s), random.Random(s ^ 0x5EED), []
        while hand.result is None:
            legal = hand.legal_actions()
            i = rng.randrange(len(legal))  # what rng.choice draws
            chosen.append(i)
            hand.apply(legal[i])
        games.append((s, chosen))
    best: dict[str, float] = {}
    clock = time.perf_counter
    for _ in range(REPEATS):  # each part's best pass
        parts = dict.fromkeys(("deal", "legal_actions", "choice", "apply"), 0.0)
        gc.disable()
        try:
            for s, chosen in games:
                t0 = clock()
                hand = Hand.new(ruleset, s)
                rng = random.Random(s ^ 0x5EED)
                parts["deal"] += clock() - t0
                for i in chosen:
                    t0 = clock()
                    legal = hand.legal_actions()
                    t1 = clock()
                    rng.choice(legal)
                    t2 = clock()
                    hand.apply(legal[i])
                    t3 = clock()
                    parts["legal_actions"] += t1 - t0
                    parts["choice"] += t2 - t1
                    parts["apply"] += t3 - t2
        finally:
            gc.enable()
        best = {k: min(v, best.get(k, v)) for k, v in parts.items()}
    decisions = sum(len(c) for _, c in games)
    return {**{k: v / count * 1e6 for k, v in best.items()}, "decisions": decisions / count}


def child_bare_loop(count: int, seed: int) -> dict[str, float]:
    """The least a hand driven from Python costs: classic cards dealt by ``random.shuffle``,
    seat 0 the landlord with the kitty (no auction), then only ``lead_ids``/``answer_ids``, a
    random choice and the trick's integers, no ``Hand`` and no record (µs a hand, best of
    three). No rule is checked here that the listing does not already guarantee."""
    from ddz_rules import cards, compile_table, load

    table = compile_table(load("classic"))
    table.compiled()
    keys = [play.key for play in table.by_id]
    deck = [r for r, n in enumerate(table.ruleset.copies) for _ in range(n)]
    lead_ids, answer_ids = table.lead_ids, table.answer_ids

    def hand(s: int) -> int:
        rng = random.Random(s)
        cards_ = list(deck)
        rng.shuffle(cards_)
        held = [cards.pack_ranks(cards_[i:i + 17]) for i in (0, 17, 34)]
        held[0] += cards.pack_ranks(cards_[51:])
        seat, to_beat, beat_seat, passes, decisions = 0, -1, 0, 0, 0
        while True:
            decisions += 1
            if to_beat < 0:
                legal = lead_ids(held[seat])
                chosen = legal[rng.randrange(len(legal))]
            else:
                legal = answer_ids(held[seat], to_beat)
                i = rng.randrange(len(legal) + 1)
                if i == len(legal):  # pass
                    passes += 1
                    if passes == 2:
                        seat, to_beat, passes = beat_seat, -1, 0
                    else:
                        seat = (seat + 1) % 3
                    continue
                chosen = legal[i]
            held[seat] -= keys[chosen]
            if not held[seat]:
                return decisions
            to_beat, beat_seat, passes, seat = chosen, seat, 0, (seat + 1) % 3

    seeds = [seed * 1_000_003 + i for i in range(count)]
    return {"us": best_us(hand, [(s,) for s in seeds]),
            "decisions": sum(map(hand, seeds)) / count}


def child(opts: argparse.Namespace) -> dict[str, Any]:
    from ddz_rules.table import listing_path

    out: dict[str, Any] = {"path": listing_path(), "listing": {}, "hands": {}, "bots": {},
                           "runner": {}}
    for ruleset_id in RULESETS:
        out["listing"][ruleset_id] = child_listing(ruleset_id, opts.hands, opts.seed)
        out["hands"][ruleset_id] = child_hands(ruleset_id, opts.hands, opts.seed)
    for ruleset_id in RUNNER_RULESETS:
        out["runner"][ruleset_id] = child_runner(ruleset_id, opts.hands, opts.seed)
    out["seeding_us"] = child_seeding(opts.hands, opts.seed)
    for ruleset_id in BOT_RULESETS:
        out["bots"][ruleset_id] = {
            "medium": child_bots(ruleset_id, "medium", opts.hands, opts.seed),
            "extreme": child_bots(ruleset_id, "extreme", opts.bot_hands, opts.seed)}
    out["parts"] = child_parts(opts.hands, opts.seed)
    out["bare"] = child_bare_loop(opts.hands, opts.seed)
    return out


# ---------------------------------------------------------------------------- the peer


def openspiel_hands(count: int, seed: int) -> float | None:
    """OpenSpiel's C++ ``evaluate_bots`` hands per second, as ``bench_hands.py`` times it
    (its ``legal_actions()`` against our ids is in ``bench_plays.py``, on its inputs)."""
    import bench_hands
    import bench_plays

    if peer_status(bench_plays.PEERS["openspiel"]) is None:  # not installed
        return None
    seeds = [seed * 1_000_003 + i for i in range(count)]
    row = bench_hands.measure(bench_hands._openspiel_cpp(), seeds, seed * 1_000_003 + count)
    return row.hands_per_s


# ---------------------------------------------------------------------------- the report


def run_child(pure: bool, opts: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ}
    env.pop("DDZ_PURE_PYTHON", None)
    if pure:
        env["DDZ_PURE_PYTHON"] = "1"
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--hands",
               str(opts.hands), "--bot-hands", str(opts.bot_hands), "--seed", str(opts.seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bench_native: the {'Python-path' if pure else 'compiled'} run "
                         f"failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.2f}"


def render(meta: dict[str, Any], python: dict[str, Any], native: dict[str, Any],
           openspiel: float | None) -> str:
    lines = [f"ddz-rules compiled lister benchmark, {meta['date']}: {meta['hands']} hands a "
             f"line, extreme {meta['bot_hands']} (seed {meta['seed']}), best of {REPEATS}",
             machine_line(meta),
             f"Python path: {python['path']}", f"compiled: {native['path']}", "",
             "Listing, µs an input (speedup = Python / compiled; ids against OpenSpiel's "
             "legal_actions(): bench_plays.py)",
             f"{'ruleset':<12} {'measure':<16} {'Python':>8} {'compiled':>9} {'speedup':>8}  "
             "same"]
    for ruleset_id in RULESETS:
        ours_py, ours = python["listing"][ruleset_id], native["listing"][ruleset_id]
        same = "yes" if ours_py["digest"] == ours["digest"] else "NO"
        for measure, us in ours["us"].items():
            lines.append(f"{ruleset_id:<12} {measure:<16} {ours_py['us'][measure]:>8.2f} "
                         f"{us:>9.2f} {ratio(ours_py['us'][measure], us):>8}  {same}")
    lines += ["", "Whole hands per second (random: deal, auction, play, settlement; bots: "
              "every seat that level)",
              f"{'what':<24} {'Python':>9} {'compiled':>9} {'speedup':>8} {'OpenSpiel C++':>14} "
              f"{'vs OpenSpiel':>12}  same"]
    for kind, label, ids in (("hands", "random", RULESETS), ("runner", "runner", RUNNER_RULESETS)):
        for ruleset_id in ids:
            a, b = python[kind][ruleset_id], native[kind][ruleset_id]
            theirs = openspiel if ruleset_id == "openspiel" else None
            lines.append(f"{label + ' ' + ruleset_id:<24} {a['hands_per_s']:>9,.0f} "
                         f"{b['hands_per_s']:>9,.0f} "
                         f"{ratio(b['hands_per_s'], a['hands_per_s']):>8} "
                         f"{'-' if theirs is None else f'{theirs:,.0f}':>14} "
                         f"{ratio(b['hands_per_s'], theirs):>12}  "
                         f"{'yes' if a['digest'] == b['digest'] else 'NO'}")
    for ruleset_id in BOT_RULESETS:
        for level in ("medium", "extreme"):
            a, b = python["bots"][ruleset_id][level], native["bots"][ruleset_id][level]
            lines.append(f"{level + ' ' + ruleset_id:<24} {a['hands_per_s']:>9,.1f} "
                         f"{b['hands_per_s']:>9,.1f} "
                         f"{ratio(b['hands_per_s'], a['hands_per_s']):>8} {'-':>14} {'-':>12}  "
                         f"{'yes' if a['digest'] == b['digest'] else 'NO'}")
    lines += ["", "Where a random classic hand's time goes (µs a hand, parts timed alone on "
              "replayed hands)", f"{'part':<16} {'Python':>9} {'compiled':>9}"]
    for part in ("deal", "legal_actions", "choice", "apply"):
        lines.append(f"{part:<16} {python['parts'][part]:>9.1f} {native['parts'][part]:>9.1f}")
    total_py = sum(python["parts"][p] for p in ("deal", "legal_actions", "choice", "apply"))
    total = sum(native["parts"][p] for p in ("deal", "legal_actions", "choice", "apply"))
    lines.append(f"{'sum':<16} {total_py:>9.1f} {total:>9.1f}   "
                 f"({native['parts']['decisions']:.1f} decisions a hand)")
    bare = native["bare"]
    theirs = ("" if not openspiel
              else f"; OpenSpiel's whole hand in C++: {1e6 / openspiel:.1f} µs")
    lines += ["", f"The least a hand driven from Python costs (ids, a random choice and the "
              f"trick's integers only; no auction, no Hand): {bare['us']:.1f} µs a hand, "
              f"{bare['decisions']:.1f} decisions{theirs}"]
    classic = native["runner"]["classic"]
    if native.get("seeding_us"):
        per_hand = 1e6 / classic["hands_per_s"]
        lines += [f"A compiled hand (HandRunner.scores, classic): {per_hand:.1f}"
                  f" µs, of which seeding its two generators from Python's seeds (as "
                  f"random.Random does, 1,247 steps each) about {2 * native['seeding_us']:.1f} µs "
                  "(two calls of _moves.draws(seed, []), the Python call included)"]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"inputs and hands a line (default {DEFAULT_HANDS})")
    parser.add_argument("--bot-hands", type=int, default=DEFAULT_BOT_HANDS,
                        help=f"hands of extreme bots (default {DEFAULT_BOT_HANDS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args(argv)
    if opts.hands < 1 or opts.bot_hands < 1:
        parser.error("--hands and --bot-hands must be at least 1")
    if opts.child:
        print(json.dumps(child(opts)))
        return 0
    python = run_child(True, opts)
    native = run_child(False, opts)
    openspiel = openspiel_hands(opts.hands, opts.seed)
    meta = {**machine(), "hands": opts.hands, "bot_hands": opts.bot_hands, "seed": opts.seed}
    publish(render(meta, python, native, openspiel),
            {"meta": meta, "python": python, "compiled": native,
             "openspiel_cpp_hands_per_s": openspiel}, opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
