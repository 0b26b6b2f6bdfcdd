#!/usr/bin/env python3
"""Time the bots by level, check the 10,000-hand target, and play the ladder between levels.

Usage::

    python benchmarks/bench_bots.py [--hands N] [--ladder-hands M] [--seed S] [--json FILE]
                                    [--skip-extreme] [--extreme-ladder-hands E] [--workers K]

Every hand is a ``ddz_rules.compare.runner.Task`` played by ``play_task``, as ``ddz compare``
plays it: hand ``i`` of seed ``S`` is dealt from ``deal_seed(S, i, attempt)``, dealt again
after an all-pass auction (up to 64 attempts), so every level sees the same deals.

1. **Throughput**: hands per second of each level (random, standard, medium, extreme) with
   every seat that level, under ``classic`` and ``two-player``, in this process: one warm-up
   hand (an index outside the batch), then the best of three timed batches with garbage
   collection off. Extreme plays N/20 hands (at least 10): it searches.
2. **Scaling**: the same medium ``classic`` hands through ``executors.run`` with 1 worker
   (in this process) and 2 worker processes; the traces must be identical.
3. **10,000 hands**: 10,000 medium ``classic`` hands with 2 workers, timed once (when
   ``--hands`` is below the default, 2,000 hands are timed and the time is extrapolated).
4. **Ladder**: for each pair of adjacent levels, on M paired deals (the extreme pair on E,
   by default as many), the lower level bids in every seat; then the same deal and auction
   are played out three ways: baseline (lower level everywhere), the higher level as
   landlord, and the higher level as the peasants. Per-hand paired differences of the
   landlord's score and of the landlord's win, with 95% intervals, say whether the higher
   level beats the lower.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench_plays import machine, machine_line, publish

from ddz_rules.compare import executors
from ddz_rules.compare.runner import Task, play_task
from ddz_rules.compare.stats import Estimate, paired_difference, proportion_interval
from ddz_rules.match import MAX_REDEALS
from ddz_rules.split import python_moves_of

Trace = dict[str, Any]

DEFAULT_HANDS = 300
DEFAULT_LADDER_HANDS = 300
DEFAULT_EXTREME_LADDER_HANDS = 300
DEFAULT_SEED = 20240601
REPEATS = 3
LEVELS = ("random", "standard", "medium", "extreme")
RULESETS = ("classic", "two-player")
LADDER_RULESETS = ("classic", "two-player")
#: (higher, lower): each level against the one below it.
LADDER = (("standard", "random"), ("medium", "standard"), ("extreme", "medium"))
#: Extreme plays this fraction of --hands in the throughput lines, and at least EXTREME_MIN.
EXTREME_SHARE = 20
EXTREME_MIN = 10
#: Scaling: at least this many hands, so that starting the worker processes does not dominate.
SCALING_MIN = 1000
SCALING_WORKERS = 2
#: The issue's target: this many medium classic hands in "a few minutes" on two cores.
TARGET_HANDS = 10_000
SMALL_CHECK_HANDS = 2_000
FEW_MINUTES_S = 180.0  # "a few minutes", taken as at most three


# ---------------------------------------------------------------------------- results


@dataclass
class Throughput:
    """One level on one ruleset, every seat that level, in this process."""

    ruleset: str
    level: str
    hands: int
    best_s: float
    first_s: float
    repeats: int
    redeals: int  # all-pass auctions dealt again, over all hands
    no_landlord: int  # hands still without a landlord after MAX_REDEALS deals
    decisions_per_hand: float | None
    landlord_win_rate: float | None

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.best_s

    @property
    def ms_per_hand(self) -> float:
        return self.best_s / self.hands * 1e3


@dataclass
class Scaling:
    """The same hands with 1 worker and with ``workers`` worker processes."""

    ruleset: str
    level: str
    hands: int
    workers: int
    one_s: float  # best of the 1-worker passes
    many_s: float  # best of the many-worker passes
    repeats: int
    identical: bool
    one_cpu_s: float = 0.0  # CPU time of the best 1-worker pass
    many_cpu_s: float = 0.0  # CPU time of the best many-worker pass, this process and workers

    @property
    def one_cores_used(self) -> float:
        return self.one_cpu_s / self.one_s

    @property
    def cores_used(self) -> float:
        return self.many_cpu_s / self.many_s

    @property
    def speedup(self) -> float:
        return self.one_s / self.many_s


@dataclass
class Check:
    """The 10,000-hand target: medium classic hands with ``workers`` workers."""

    ruleset: str
    level: str
    workers: int
    hands: int  # hands actually timed
    seconds: float
    extrapolated: bool
    cpu_s: float = 0.0  # CPU time, this process and the workers
    target_hands: int = TARGET_HANDS
    limit_s: float = FEW_MINUTES_S

    @property
    def target_s(self) -> float:
        return self.seconds * self.target_hands / self.hands

    @property
    def fits(self) -> bool:
        return self.target_s <= self.limit_s


@dataclass
class Arm:
    """One way of playing the ladder deals: who plays the landlord and who the peasants."""

    name: str
    landlord_bot: str
    peasant_bot: str
    landlord_score: float | None = None  # mean over the kept deals
    landlord_win_rate: float | None = None
    seconds: float = 0.0


@dataclass
class Ladder:
    """The higher level against the lower on paired deals, the lower level bidding."""

    ruleset: str
    higher: str
    lower: str
    deals: int
    kept: int = 0
    skipped: int = 0  # no landlord after MAX_REDEALS deals in some arm
    auction_mismatches: int = 0  # deals whose auction differed between arms (should be 0)
    arms: list[Arm] = field(default_factory=list)
    #: Paired differences, > 0 when the higher level does better (see render_ladder).
    as_landlord_score: Estimate | None = None
    as_landlord_win: Estimate | None = None
    as_peasants_score: Estimate | None = None
    as_peasants_win: Estimate | None = None
    baseline_win: Estimate | None = None  # Wilson interval of the baseline landlord win rate


@dataclass
class Report:
    meta: dict[str, Any]
    throughput: list[Throughput] = field(default_factory=list)
    scaling: Scaling | None = None
    check: Check | None = None
    ladder: list[Ladder] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"meta": self.meta}
        out["throughput"] = [{**asdict(t), "hands_per_s": t.hands_per_s,
                              "ms_per_hand": t.ms_per_hand} for t in self.throughput]
        out["scaling"] = (None if self.scaling is None
                          else {**asdict(self.scaling), "speedup": self.scaling.speedup,
                             "one_cores_used": self.scaling.one_cores_used,
                             "cores_used": self.scaling.cores_used})
        out["check"] = (None if self.check is None
                        else {**asdict(self.check), "target_s": self.check.target_s,
                              "fits": self.check.fits})
        out["ladder"] = [_ladder_json(row) for row in self.ladder]
        out["summary"] = self.summary
        out["notes"] = self.notes
        return out


def _ladder_json(row: Ladder) -> dict[str, Any]:
    data: dict[str, Any] = {
        "ruleset": row.ruleset, "higher": row.higher, "lower": row.lower, "deals": row.deals,
        "kept": row.kept, "skipped": row.skipped, "auction_mismatches": row.auction_mismatches,
        "arms": [asdict(a) for a in row.arms],
    }
    for name in ("as_landlord_score", "as_landlord_win", "as_peasants_score",
                 "as_peasants_win", "baseline_win"):
        est: Estimate | None = getattr(row, name)
        data[name] = None if est is None else {**est.to_json(), "verdict": verdict(est)}
    return data


# ---------------------------------------------------------------------------- playing


def play_sorted(tasks: Sequence[Task], workers: int) -> list[Trace]:
    """Play ``tasks`` through ``executors.run``; the traces in task order."""
    traces = [t for batch in executors.run(tasks, workers) for t in batch]
    traces.sort(key=lambda t: (t["ruleset"], t["index"]))
    return traces


def throughput(ruleset: str, level: str, hands: int, seed: int) -> Throughput:
    """One warm-up hand, then the best of REPEATS timed batches in this process, gc off."""
    tasks = [Task(ruleset, level, seed, i) for i in range(hands)]
    play_task(Task(ruleset, level, seed, hands))  # warm-up: an index outside the batch
    times: list[float] = []
    traces: list[Trace] = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(REPEATS):
            traces = []
            _cold()
            start = time.perf_counter()
            traces = [play_task(t) for t in tasks]
            times.append(time.perf_counter() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    played = [t for t in traces if t["winner"] is not None]
    return Throughput(
        ruleset, level, hands, min(times), times[0], REPEATS,
        redeals=sum(t["redeals"] for t in traces),
        no_landlord=len(traces) - len(played),
        decisions_per_hand=(sum(t["decisions"] for t in played) / len(played)
                            if played else None),
        landlord_win_rate=(sum(t["winner"] == "landlord" for t in played) / len(played)
                           if played else None),
    )


def scaling(ruleset: str, level: str, hands: int, seed: int, workers: int) -> Scaling:
    """Best of REPEATS with 1 worker and with ``workers``; gc as usual (as ``ddz compare``).

    The passes alternate (1, k, 1, k, ...) so that load from other processes falls on both.
    """
    tasks = [Task(ruleset, level, seed, i) for i in range(hands)]
    best = {k: (float("inf"), 0.0) for k in (1, workers)}
    traces: dict[int, list[Trace]] = {}
    for _ in range(REPEATS):
        for k in (1, workers):
            _cold()
            cpu = _cpu_s()
            start = time.perf_counter()
            traces[k] = play_sorted(tasks, k)
            wall = time.perf_counter() - start
            if wall < best[k][0]:
                best[k] = (wall, _cpu_s() - cpu)
    return Scaling(ruleset, level, hands, workers, best[1][0], best[workers][0], REPEATS,
                   identical=traces[1] == traces[workers], one_cpu_s=best[1][1],
                   many_cpu_s=best[workers][1])


def check(ruleset: str, level: str, hands: int, seed: int, workers: int) -> Check:
    """Time ``hands`` hands once with ``workers`` workers (pool start included)."""
    tasks = [Task(ruleset, level, seed, i) for i in range(hands)]
    _cold()
    cpu = _cpu_s()
    start = time.perf_counter()
    traces = play_sorted(tasks, workers)
    seconds = time.perf_counter() - start
    assert len(traces) == hands
    return Check(ruleset, level, workers, hands, seconds, extrapolated=hands != TARGET_HANDS,
                 cpu_s=_cpu_s() - cpu)


def _cold() -> None:
    """Forget the hand splits ``medium`` remembers (``split.python_moves_of``; the compiled
    split remembers none), so that a timed pass over hands played before is not faster than a
    pass over new hands would be."""
    python_moves_of.cache_clear()


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _landlord_score(trace: Trace) -> float:
    return float(trace["scores"][trace["landlord"]])


def _landlord_won(trace: Trace) -> float:
    return 1.0 if trace["winner"] == "landlord" else 0.0


def _auction(trace: Trace) -> tuple[Any, ...]:
    return (trace["deal_seed"], trace["redeals"], trace["landlord"], trace["bid"],
            trace["robs"], trace["grabs"])


def ladder(ruleset: str, higher: str, lower: str, deals: int, seed: int,
           workers: int) -> Ladder:
    """Play the three arms on the same ``deals`` deals and compare them hand by hand."""
    row = Ladder(ruleset, higher, lower, deals)
    arms = [Arm("baseline", lower, lower), Arm("as landlord", higher, lower),
            Arm("as peasants", lower, higher)]
    traces: list[list[Trace]] = []
    for arm in arms:
        tasks = [Task(ruleset, lower, seed, i, landlord_bot=arm.landlord_bot,
                      peasant_bot=arm.peasant_bot) for i in range(deals)]
        start = time.perf_counter()
        traces.append(play_sorted(tasks, workers))
        arm.seconds = time.perf_counter() - start
    row.arms = arms
    kept: list[tuple[Trace, ...]] = []
    for hands in zip(*traces, strict=True):
        if any(t["winner"] is None for t in hands):
            row.skipped += 1
            continue
        if len({_auction(t) for t in hands}) != 1:
            row.auction_mismatches += 1
            continue
        kept.append(hands)
    row.kept = len(kept)
    if not kept:
        return row
    base, as_ll, as_p = ([h[i] for h in kept] for i in range(3))
    for arm, arm_traces in zip(arms, (base, as_ll, as_p), strict=True):
        arm.landlord_score = sum(map(_landlord_score, arm_traces)) / len(arm_traces)
        arm.landlord_win_rate = sum(map(_landlord_won, arm_traces)) / len(arm_traces)
    score = {name: [_landlord_score(t) for t in ts]
             for name, ts in (("base", base), ("ll", as_ll), ("p", as_p))}
    won = {name: [_landlord_won(t) for t in ts]
           for name, ts in (("base", base), ("ll", as_ll), ("p", as_p))}
    # > 0 means the higher level did better in its seat(s):
    row.as_landlord_score = paired_difference(score["ll"], score["base"])
    row.as_landlord_win = paired_difference(won["ll"], won["base"])
    row.as_peasants_score = paired_difference(score["base"], score["p"])
    row.as_peasants_win = paired_difference(won["base"], won["p"])
    row.baseline_win = proportion_interval(int(sum(won["base"])), len(kept))
    return row


def verdict(est: Estimate) -> str:
    """'beats' when the interval is above 0, 'LOSES' below 0, else 'not shown'."""
    if est.n < 2:
        return "too few"
    if est.low > 0:
        return "beats"
    if est.high < 0:
        return "LOSES"
    return "not shown"


# ---------------------------------------------------------------------------- output


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _interval(est: Estimate | None, spec: str, scale: float = 1.0) -> str:
    if est is None:
        return "-"
    return (f"{format(est.mean * scale, spec)} [{format(est.low * scale, spec)}, "
            f"{format(est.high * scale, spec)}]")


def render_throughput(rows: Sequence[Throughput]) -> list[str]:
    lines = [
        "Throughput: every seat the same level, one process, best of "
        f"{REPEATS} after a warm-up hand, gc off",
        "redeals: all-pass auctions dealt again (inside the hands). decisions: play decisions "
        "per hand. LL wins: landlord wins.",
        "",
    ]
    header = (f"{'ruleset':<11} {'level':<9} {'hands':>6} {'hands/s':>9} {'1st pass':>9} "
              f"{'ms/hand':>9} {'redeals':>7} {'decisions':>9} {'LL wins':>7}")
    lines += [header, "-" * len(header)]
    ruleset = ""
    for r in rows:
        if ruleset and r.ruleset != ruleset:
            lines.append("")
        ruleset = r.ruleset
        lines.append(
            f"{r.ruleset:<11} {r.level:<9} {r.hands:>6} {r.hands_per_s:>9,.1f} "
            f"{r.hands / r.first_s:>9,.1f} {r.ms_per_hand:>9.2f} {r.redeals:>7} "
            f"{_fmt(r.decisions_per_hand, '.1f'):>9} {_pct(r.landlord_win_rate):>7}")
    return lines


def render_scaling(s: Scaling) -> list[str]:
    same = "identical" if s.identical else "DIFFERENT (a bug: each trace depends only on its task)"
    return [
        f"Scaling: {s.hands} {s.level} {s.ruleset} hands through executors.run, best of "
        f"{s.repeats} alternating passes, pool start included",
        "  cores busy: CPU seconds of the pass (this process and its workers) / wall seconds; "
        "below 1 (or 2) means other processes took CPU",
        f"  1 worker (this process)  {s.one_s:8.2f} s  {s.hands / s.one_s:8.1f} hands/s  "
        f"cores busy {s.one_cores_used:.2f}",
        f"  {s.workers} workers (processes)   {s.many_s:8.2f} s  "
        f"{s.hands / s.many_s:8.1f} hands/s  cores busy {s.cores_used:.2f}",
        f"  speed-up {s.speedup:.2f}x on {s.workers} workers; traces {same}",
    ]


def render_check(c: Check) -> list[str]:
    fits = "fits" if c.fits else "does NOT fit"
    if c.extrapolated:
        timed = (f"{c.hands:,} hands timed in {c.seconds:.1f} s, extrapolated to "
                 f"{c.target_hands:,}: about {c.target_s:.0f} s ({c.target_s / 60:.1f} min)")
    else:
        timed = f"{c.hands:,} hands in {c.seconds:.1f} s ({c.seconds / 60:.1f} min)"
    return [
        f"{c.target_hands:,}-hand check: {c.level} {c.ruleset}, {c.workers} workers, one pass, "
        "pool start included",
        f"  {timed}, {c.hands / c.seconds:,.0f} hands/s; {c.cpu_s / c.seconds:.2f} cores busy "
        "on average",
        f"  target: {c.target_hands:,} hands in a few minutes (at most "
        f"{c.limit_s / 60:.0f} min) on two cores: {fits}"
        + (" (EXTRAPOLATED)" if c.extrapolated else ""),
    ]


def render_ladder(rows: Sequence[Ladder]) -> list[str]:
    lines = [
        "Ladder: the lower level bids in every seat; the same deal and auction are then played "
        "by",
        "  baseline:    lower level as landlord and as peasants",
        "  as landlord: higher level as landlord, lower level as peasants",
        "  as peasants: lower level as landlord, higher level as the peasants",
        "Paired differences over the kept deals, mean [95% interval], > 0 when the higher "
        "level does better:",
        "  as landlord  score = LL score(as landlord) - LL score(baseline)     win = LL win "
        "rate(as landlord) - LL win rate(baseline)",
        "  as peasants  score = LL score(baseline) - LL score(as peasants)     win = LL win "
        "rate(baseline) - LL win rate(as peasants)",
        "  (the peasants' side gains what the landlord loses: 'as peasants score' is the "
        "peasants' total gain, 'win' their win-rate gain, in percentage points)",
        "verdict: beats = interval above 0; not shown = interval contains 0; LOSES = interval "
        "below 0.",
        "",
    ]
    header = (f"{'ruleset':<11} {'higher > lower':<19} {'deals':>5} {'kept':>5} "
              f"{'base LL':>7} {'base LL':>7}  {'arm':<12} {'score diff':<24} "
              f"{'verdict':<10} {'win diff (pp)':<22} verdict")
    sub = (f"{'':<11} {'':<19} {'':>5} {'':>5} {'wins':>7} {'score':>7}")
    lines += [header, sub, "-" * (len(header) + 3)]
    for row in rows:
        pair = f"{row.higher} > {row.lower}"
        base = row.arms[0] if row.arms else None
        first = (f"{row.ruleset:<11} {pair:<19} {row.deals:>5} {row.kept:>5} "
                 f"{_pct(base.landlord_win_rate if base else None):>7} "
                 f"{_fmt(base.landlord_score if base else None, '+.2f'):>7}  ")
        for i, (arm, score_est, win_est) in enumerate((
                ("as landlord", row.as_landlord_score, row.as_landlord_win),
                ("as peasants", row.as_peasants_score, row.as_peasants_win))):
            prefix = first if i == 0 else " " * len(first)
            lines.append(
                f"{prefix}{arm:<12} {_interval(score_est, '+.2f'):<24} "
                f"{verdict(score_est) if score_est else '-':<10} "
                f"{_interval(win_est, '+.1f', 100):<22} "
                f"{verdict(win_est) if win_est else '-':<10}".rstrip())
    skipped = [r for r in rows if r.skipped or r.auction_mismatches]
    lines.append("")
    if skipped:
        for r in skipped:
            lines.append(f"{r.ruleset} {r.higher} > {r.lower}: {r.skipped} deals skipped "
                         f"(no landlord after {MAX_REDEALS} deals), {r.auction_mismatches} "
                         "with differing auctions")
    else:
        lines.append(f"No deal skipped: every deal found a landlord within {MAX_REDEALS} "
                     "attempts, and every auction was the same in the three arms.")
    lines.append("Mean landlord score and win rate per arm:")
    for row in rows:
        arms = "; ".join(f"{a.name} {_fmt(a.landlord_score, '+.2f')} "
                         f"{_pct(a.landlord_win_rate)} ({a.seconds:.1f} s)" for a in row.arms)
        lines.append(f"  {row.ruleset:<11} {row.higher} > {row.lower}: {arms}")
    return lines


def summarize(report: Report) -> list[str]:
    lines: list[str] = []
    if report.check is not None:
        c = report.check
        lines.append(
            f"{c.target_hands:,} medium classic hands on {c.workers} workers: about "
            f"{c.target_s:.0f} s{' (extrapolated)' if c.extrapolated else ''}; "
            f"{'fits' if c.fits else 'does NOT fit'} in a few minutes.")
    if report.scaling is not None:
        s = report.scaling
        lines.append(f"Scaling: {s.speedup:.2f}x on {s.workers} workers, traces "
                     f"{'identical' if s.identical else 'DIFFERENT'}.")
    for row in report.ladder:
        if row.as_landlord_score is None or row.as_peasants_score is None:
            lines.append(f"{row.ruleset} {row.higher} > {row.lower}: no deal kept.")
            continue
        parts = []
        for arm, est in (("as landlord", row.as_landlord_score),
                         ("as peasants", row.as_peasants_score)):
            parts.append(f"{arm} {verdict(est)} ({est.mean:+.2f} [{est.low:+.2f}, "
                         f"{est.high:+.2f}] points)")
        lines.append(f"{row.ruleset} {row.higher} > {row.lower} on {row.kept} deals: "
                     + "; ".join(parts) + ".")
    return lines


def render(report: Report) -> str:
    meta = report.meta
    skipped = "skipped"
    lines = [
        f"ddz-rules bot benchmark, {meta['date']}: seed {meta['seed']}, {meta['hands']} hands "
        f"per throughput line (extreme {meta['extreme_hands'] or skipped}), ladder "
        f"{meta['ladder_hands']} deals (extreme pair {meta['extreme_ladder_hands'] or skipped})",
        f"{machine_line(meta)}, bots {meta['bots_digest']}; load average "
        f"{meta['load_before']} before, {meta.get('load_after', '-')} after",
        "",
    ]
    if report.throughput:
        lines += [*render_throughput(report.throughput), ""]
    if report.scaling is not None:
        lines += [*render_scaling(report.scaling), ""]
    if report.check is not None:
        lines += [*render_check(report.check), ""]
    if report.ladder:
        lines += [*render_ladder(report.ladder), ""]
    lines += ["Summary:", *[f"  {s}" for s in report.summary]]
    if report.notes:
        lines += ["", "Notes:", *[f"  - {n}" for n in report.notes]]
    return "\n".join(lines)


def _notes(opts: argparse.Namespace) -> list[str]:
    notes = [
        "hands: Task(ruleset, level, seed, i) played by compare.runner.play_task, as ddz "
        "compare plays them; an all-pass auction is dealt again inside the same hand (up to "
        f"{MAX_REDEALS} deals), so a hand's time includes its redeals.",
        "throughput lines run in this process with gc off; the scaling and 10,000-hand runs "
        "go through compare.executors.run with gc on and include starting the worker pool "
        f"(fork), as ddz compare --workers does. Batches are {executors.BATCH} hands.",
        "ladder: the arms are three separate runs of the same tasks (same seed and index, so "
        "the same deals and, as the lower level bids everywhere, the same auction; this is "
        "checked); they differ only in the play, from the first card on.",
        "score: the landlord's settled score (scores[landlord]) in points; win: 1 when the "
        "landlord's side wins. Intervals: compare.stats.paired_difference (normal "
        "approximation over the per-deal differences).",
    ]
    if opts.skip_extreme:
        notes.append("--skip-extreme: the extreme throughput lines and the extreme > medium "
                     "ladder were not run.")
    return notes


def _bots_digest() -> str:
    """A short hash of the bot and runner sources measured (others may edit them)."""
    root = Path(__file__).resolve().parent.parent / "ddz_rules"
    digest = hashlib.sha256()
    for path in sorted([*(root / "bots").glob("*.py"), *(root / "bots").glob("*.c"),
                        root / "compare" / "runner.py"]):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _progress(report: Report, message: str) -> None:
    """Say on stderr what starts now; keep the load average at its start in the meta."""
    report.meta.setdefault("load_by_step", []).append([message, _load()])
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands per throughput line (default {DEFAULT_HANDS}; extreme "
                             f"plays 1/{EXTREME_SHARE}, at least {EXTREME_MIN})")
    parser.add_argument("--ladder-hands", type=int, default=DEFAULT_LADDER_HANDS,
                        help=f"paired deals per ladder pair (default {DEFAULT_LADDER_HANDS})")
    parser.add_argument("--extreme-ladder-hands", type=int, default=None,
                        help="paired deals for extreme > medium (default "
                             f"{DEFAULT_EXTREME_LADDER_HANDS}, or --ladder-hands if smaller)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the deals (default {DEFAULT_SEED})")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes for the ladder, which is not timed (default 2)")
    parser.add_argument("--skip-extreme", action="store_true",
                        help="leave out the extreme level (throughput and ladder)")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if opts.hands < 1 or opts.ladder_hands < 1:
        parser.error("--hands and --ladder-hands must be at least 1")
    if opts.extreme_ladder_hands is None:
        opts.extreme_ladder_hands = min(DEFAULT_EXTREME_LADDER_HANDS, opts.ladder_hands)
    if opts.extreme_ladder_hands < 1 or opts.workers < 1:
        parser.error("--extreme-ladder-hands and --workers must be at least 1")
    if opts.seed < 0:
        parser.error("--seed must not be negative")

    extreme_hands = max(EXTREME_MIN, opts.hands // EXTREME_SHARE)
    levels = [lv for lv in LEVELS if not (opts.skip_extreme and lv == "extreme")]
    pairs = [p for p in LADDER if not (opts.skip_extreme and "extreme" in p)]
    report = Report(meta={
        **machine(), "hands": opts.hands,
        "extreme_hands": None if opts.skip_extreme else extreme_hands,
        "ladder_hands": opts.ladder_hands,
        "extreme_ladder_hands": None if opts.skip_extreme else opts.extreme_ladder_hands,
        "seed": opts.seed, "repeats": REPEATS, "ladder_workers": opts.workers,
        "skip_extreme": opts.skip_extreme, "bots_digest": _bots_digest(), "load_before": _load(),
    })
    started = time.perf_counter()

    for ruleset in RULESETS:
        for level in levels:
            hands = extreme_hands if level == "extreme" else opts.hands
            _progress(report, f"throughput {ruleset} {level}: {hands} hands x {REPEATS}")
            report.throughput.append(throughput(ruleset, level, hands, opts.seed))

    scaling_hands = max(SCALING_MIN, opts.hands)
    _progress(report, f"scaling: {scaling_hands} medium classic hands, 1 and "
                      f"{SCALING_WORKERS} workers")
    report.scaling = scaling("classic", "medium", scaling_hands, opts.seed, SCALING_WORKERS)

    check_hands = TARGET_HANDS if opts.hands >= DEFAULT_HANDS else SMALL_CHECK_HANDS
    _progress(report, f"check: {check_hands} medium classic hands on {SCALING_WORKERS} workers")
    report.check = check("classic", "medium", check_hands, opts.seed, SCALING_WORKERS)

    for ruleset in LADDER_RULESETS:
        for higher, lower in pairs:
            deals = opts.extreme_ladder_hands if higher == "extreme" else opts.ladder_hands
            _progress(report, f"ladder {ruleset} {higher} > {lower}: {deals} deals x 3 arms")
            report.ladder.append(ladder(ruleset, higher, lower, deals, opts.seed,
                                        opts.workers))

    report.meta["load_after"] = _load()
    report.meta["wall_s"] = round(time.perf_counter() - started, 1)
    report.summary = summarize(report)
    report.summary.append(f"Whole run: {report.meta['wall_s']:.0f} s.")
    report.notes = _notes(opts)
    publish(render(report), report.to_json(), opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
