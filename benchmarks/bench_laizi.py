#!/usr/bin/env python3
"""Legal plays with wild cards (laizi): the cost, and how it grows with the wilds held.

Usage::

    python benchmarks/bench_laizi.py [--hands N] [--seed S] [--json FILE]

For each number of wild cards held, 0 to 4 (``laizi``, one wild rank) and 0 to 8
(``laizi-two``, two), N seeded 20-card hands holding exactly that many wilds are timed:

* **lead**: every (cards, reading) pair the hand can lead, ``PlayTable.leads(hand, wild)``;
* **answer**: every pair that beats a previous play, a random lead of a seeded 17-card hand
  with the same wild rank(s).

Each list is walked to the end and every play's reading looked at (:func:`touch`), so what is
timed is the plays made, whatever form the list takes.

The issue's target is under 2 ms on average for a 20-card ``laizi`` hand holding 4 wilds,
leading and answering. No peer engine implements laizi, so there is no ratio; the 0-wild rows
are the natural game for scale. Timing as in ``bench_four_player.py``: the first batch, then
the best of three, per hand.

Where the play table's compiled kernel was built (``ddz_rules/_kernel.c``, at install where a C
compiler is found), each row is also timed with it switched off, the same hands in the same
run: the ``python`` columns are what a machine without a compiler gets.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from bench_four_player import best_ms  # this script's directory is on sys.path
from bench_plays import machine, machine_line, publish

from ddz_rules import cards, load
from ddz_rules import table as table_module
from ddz_rules.table import Play, PlayTable

DEFAULT_HANDS = 200
DEFAULT_SEED = 20261130
TARGET_MS = 2.0


def hands_with_wilds(table: PlayTable, wild: tuple[int, ...], held: int, n: int,
                     rng: random.Random) -> list[int]:
    """``n`` 20-card hands holding exactly ``held`` wild cards of the ranks ``wild``."""
    copies = table.ruleset.copies
    wild_cards = [r for r in wild for _ in range(copies[r])]
    others = [r for r, c in enumerate(copies) for _ in range(c) if r not in wild]
    return [cards.pack_ranks(rng.sample(wild_cards, held) + rng.sample(others, 20 - held))
            for _ in range(n)]


def touch(plays: list[Play]) -> int:
    """Visit every play listed (and its reading), so a list built lazily could not time as
    free: what is timed is the plays made and read, not a promise of them."""
    return sum(1 for p in plays if p.reading is not None)


def time_row(table: PlayTable, held: int, n: int, seed: int) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{table.ruleset.id}:{held}")
    wild = tuple(rng.sample(table.ruleset.wild_ranks, len(table.ruleset.wild_drawn)))
    hands = hands_with_wilds(table, wild, held, n, rng)
    deck = [r for r, c in enumerate(table.ruleset.copies) for _ in range(c)]
    previous: list[Play] = []
    for _ in range(n):
        other = cards.pack_ranks(rng.sample(deck, 17))
        previous.append(rng.choice(table.leads(other, wild)))
    pairs = list(zip(hands, previous, strict=True))

    def leads() -> None:
        for h in hands:
            touch(table.leads(h, wild))

    def answers() -> None:
        for h, p in pairs:
            touch(table.answers(h, p.reading, wild))

    lead_first, lead = best_ms(leads, n)
    answer_first, answer = best_ms(answers, n)
    python: dict[str, float | None] = {"lead_python_ms": None, "answer_python_ms": None}
    kernel = table_module._kernel
    if kernel is not None:  # the same hands again, the kernel switched off
        table_module._kernel = None  # type: ignore[assignment]
        try:
            python["lead_python_ms"] = best_ms(leads, n)[1]
            python["answer_python_ms"] = best_ms(answers, n)[1]
        finally:
            table_module._kernel = kernel
    return {"ruleset": table.ruleset.id, "wilds_held": held, "lead_ms": lead,
            "lead_first_ms": lead_first, "answer_ms": answer, "answer_first_ms": answer_first,
            **python,
            "plays_per_lead": statistics.fmean(len(table.leads(h, wild)) for h in hands),
            "plays_per_answer": statistics.fmean(len(table.answers(h, p.reading, wild))
                                                 for h, p in pairs)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands per row (default {DEFAULT_HANDS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed (default {DEFAULT_SEED})")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if opts.hands < 1:
        parser.error("--hands must be at least 1")
    compiled = table_module._kernel is not None
    meta = {**machine(), "hands": opts.hands, "seed": opts.seed, "kernel": compiled}
    rows = []
    for ruleset_id, most in (("laizi", 4), ("laizi-two", 8)):
        table = PlayTable(load(ruleset_id))
        rows += [time_row(table, held, opts.hands, opts.seed) for held in range(most + 1)]
    lines = [f"legal plays with wild cards: {opts.hands} seeded 20-card hands per row, seed "
             f"{opts.seed}; ms per hand, best of 3 (first pass in brackets); compiled kernel: "
             + ("built (the python columns: the same hands with it off)" if compiled
                else "not built (every column is the Python path)"),
             machine_line(meta), "",
             f"{'ruleset':<10} {'wilds':>5} {'lead ms':>16} {'python':>7} {'plays':>7} "
             f"{'answer ms':>16} {'python':>7} {'plays':>7}"]

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.3f}"

    for r in rows:
        lines.append(f"{r['ruleset']:<10} {r['wilds_held']:>5} "
                     f"{r['lead_ms']:>7.3f} [{r['lead_first_ms']:>6.3f}] "
                     f"{ms(r['lead_python_ms']):>7} {r['plays_per_lead']:>7.0f} "
                     f"{r['answer_ms']:>7.3f} [{r['answer_first_ms']:>6.3f}] "
                     f"{ms(r['answer_python_ms']):>7} {r['plays_per_answer']:>7.1f}")
    four = next(r for r in rows if r["ruleset"] == "laizi" and r["wilds_held"] == 4)
    met = max(four["lead_ms"], four["answer_ms"]) < TARGET_MS
    lines += ["", f"target: a 20-card laizi hand holding 4 wilds under {TARGET_MS:g} ms leading "
              f"and answering: {'met' if met else 'NOT MET'} (lead {four['lead_ms']:.2f} ms, "
              f"answer {four['answer_ms']:.2f} ms, "
              + ("with the compiled kernel)" if compiled else "in Python)")]
    if compiled:
        slow = max(four["lead_python_ms"], four["answer_python_ms"]) < TARGET_MS
        lines.append(f"without the kernel: {'met' if slow else 'NOT MET'} (lead "
                     f"{four['lead_python_ms']:.2f} ms, answer {four['answer_python_ms']:.2f} ms)")
    publish("\n".join(lines), {"meta": meta, "rows": rows, "target_ms": TARGET_MS}, opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
