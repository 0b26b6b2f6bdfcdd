#!/usr/bin/env python3
"""Time ddz-rules against its peer engines on the same seeded hands, in one run.

Usage::

    python benchmarks/bench_plays.py [--hands N] [--seed S] [--json FILE]

What is measured (see ``benchmarks/README.md`` for how to read the numbers):

* **lead**: every legal play of a hand that holds the lead, for N 17-card and N 20-card
  hands. Ours (``PlayTable.leads`` under the ``douzero``, ``rlcard``, ``openspiel`` and
  ``classic`` presets) against the peer whose preset it is.
* **answer**: every play of the hand that beats a previous play picked (seeded) for that hand.
* **classify**: the readings of 5,000 plays of the ``douzero`` preset table, ours warm
  (``readings``: a dict lookup) and cold (``read``: enumerated from the cards), against
  DouZero's ``move_detector.get_move_type``.
* **compile**: ``PlayTable(load(id)).plays`` for every bundled ruleset, on a fresh table.
* **cold start**: ``ddz classify 33344456`` as a subprocess, wall time.
* **cross-check**: whether our plays equal the peer's (through the ``peers.py`` adapters).

Each timing runs the whole batch once to warm up, then three times, and reports the best
batch divided by the number of inputs (garbage collection off while timing, as ``timeit``
does). Both sides of a ratio are timed on exactly the same inputs. A peer is timed on its own
entry point with the input already converted to its native form, so the adapters'
conversion to and from our notation is not counted (``peers.py`` documents each entry point).

Peers that are not installed are skipped with a note; with none installed, only our side is
measured.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import peers  # benchmarks/peers.py: this script's directory is on sys.path when it runs

from ddz_rules import bundled_ids, cards, load
from ddz_rules.table import Play, PlayTable

DEFAULT_HANDS = 1000
DEFAULT_SEED = 20240601
REPEATS = 3
CLASSIFY_SAMPLE = 5000
MAX_PREVIOUS_CARDS = 15
COLD_START_RUNS = 7
COLD_START_PLAY = "33344456"
HAND_SIZES = (17, 20)
#: Presets timed against a peer; each preset id is also its peer's key in ``PEERS``.
PAIRED_PRESETS = ("douzero", "rlcard", "openspiel")
#: Presets whose peer returns plays as integer ids: ours are timed as ids too
#: (``PlayTable.lead_ids``/``answer_ids``), beside the ``Play`` objects.
ID_PRESETS = ("openspiel",)
#: OpenSpiel 2.0.2's two generator quirks that our ``openspiel`` preset does not reproduce (it
#: reproduces OpenSpiel's action list): see ``skipped_chain`` and ``bomb_over_rocket``.
OPENSPIEL_QUIRKS = (
    "its generator skips every chain (straight, pair straight, airplane without kickers) "
    "whose lowest rank the hand holds four of (SearchChainOnlyActions: "
    "`hand[chain_head] == kNumSuits` -> continue)",
    "it offers every bomb in answer to the rocket (SearchForLegalActions pushes the bombs "
    "before looking at the previous play)",
)

Args = tuple[Any, ...]


# ---------------------------------------------------------------------------- peers


@dataclass(frozen=True)
class Peer:
    """A peer engine: how to import it, and its adapters in ``peers.py``."""

    name: str
    label: str
    distribution: str
    modules: tuple[str, ...]
    lead: Callable[[str], list[str]]
    answer: Callable[[str, str], list[str]]


PEERS = {
    "douzero": Peer("douzero", "DouZero", "douzero",
                    ("douzero.env.game", "douzero.env.move_detector"),
                    peers.douzero_lead, peers.douzero_answer),
    "rlcard": Peer("rlcard", "RLCard", "rlcard",
                   ("rlcard.games.doudizhu.judger", "rlcard.games.doudizhu.utils"),
                   peers.rlcard_lead, peers.rlcard_answer),
    "openspiel": Peer("openspiel", "OpenSpiel", "open_spiel", ("pyspiel",),
                      peers.openspiel_lead, peers.openspiel_answer),
}


def peer_status(peer: Peer) -> str | None:
    """The installed version of ``peer``, or None when it cannot be imported."""
    try:
        for module in peer.modules:
            importlib.import_module(module)
    except ImportError:
        return None
    try:
        return importlib.metadata.version(peer.distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown version"


@dataclass
class Batch:
    """One engine's callable and its inputs, ready to time.

    ``kept`` lists the indices of the inputs the engine could take (the others raised in
    its adapter); ``setup_us`` is per-input preparation that the timing excludes.
    """

    call: Callable[..., object]
    args: list[Args]
    kept: list[int]
    setup_us: float | None = None


def _douzero_ints(text: str) -> list[int]:
    return [peers._RANK_TO_DZ[c] for c in text]


def _douzero_batch(situations: Sequence[tuple[str, str | None]]) -> Batch:
    """``GameEnv.get_legal_card_play_actions`` on the three attributes it reads."""
    from douzero.env.game import GameEnv

    args: list[Args] = [(SimpleNamespace(
        info_sets={"landlord": SimpleNamespace(player_hand_cards=_douzero_ints(hand))},
        acting_player_position="landlord",
        card_play_action_seq=[_douzero_ints(prev)] if prev else [],
    ),) for hand, prev in situations]
    return Batch(GameEnv.get_legal_card_play_actions, args, list(range(len(args))))


def _rlcard_card(rank: str) -> SimpleNamespace:
    if rank in "BR":
        return SimpleNamespace(rank="", suit=rank.replace("B", "BJ").replace("R", "RJ"))
    return SimpleNamespace(rank=rank, suit="S")


def _rlcard_batch(situations: Sequence[tuple[str, str | None]]) -> Batch:
    """``playable_cards_from_hand`` (leading) or ``utils.get_gt_cards`` (answering)."""
    from rlcard.games.doudizhu import utils as rl_utils
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    if all(prev is None for _, prev in situations):
        args: list[Args] = [(hand,) for hand, _ in situations]
        return Batch(DoudizhuJudger.playable_cards_from_hand, args, list(range(len(args))))
    args = [(SimpleNamespace(current_hand=[_rlcard_card(c) for c in hand]),
             SimpleNamespace(played_cards=prev)) for hand, prev in situations]
    return Batch(rl_utils.get_gt_cards, args, list(range(len(args))))


def _openspiel_batch(situations: Sequence[tuple[str, str | None]]) -> Batch:
    """``State.legal_actions()`` on states replayed beforehand (the replay is setup).

    OpenSpiel has no entry point that takes a hand: ``peers.openspiel_state`` deals and
    plays a real game up to the situation. That replay is timed separately (best of
    ``REPEATS`` builds) and left out of the comparison.
    """
    states: list[Any] = []
    kept: list[int] = []
    best = float("inf")
    for _ in range(REPEATS):
        states, kept = [], []
        start = time.perf_counter()
        for i, (hand, prev) in enumerate(situations):
            try:
                state, _player = peers.openspiel_state(hand, prev)
            except ValueError:
                continue
            states.append(state)
            kept.append(i)
        best = min(best, time.perf_counter() - start)
    setup = best / len(kept) * 1e6 if kept else None
    call = type(states[0]).legal_actions if states else (lambda state: state.legal_actions())
    return Batch(call, [(s,) for s in states], kept, setup)


NATIVE_BATCH: dict[str, Callable[[Sequence[tuple[str, str | None]]], Batch]] = {
    "douzero": _douzero_batch,
    "rlcard": _rlcard_batch,
    "openspiel": _openspiel_batch,
}

#: What each peer's timed call is, for the printed notes.
NATIVE_CALL = {
    "douzero": "GameEnv.get_legal_card_play_actions on a stub holding the hand (DouZero ints)",
    "rlcard": "DoudizhuJudger.playable_cards_from_hand(str) to lead, "
              "utils.get_gt_cards(player, greater) to answer",
    "openspiel": "state.legal_actions() only (C++ via pybind11)",
}


# ---------------------------------------------------------------------------- timing


def best_us(call: Callable[..., object], args: Sequence[Args]) -> float | None:
    """Microseconds per input: best of ``REPEATS`` timed batches after one warm-up batch."""
    if not args:
        return None
    for a in args:
        call(*a)
    best = float("inf")
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(REPEATS):
            start = time.perf_counter()
            for a in args:
                call(*a)
            best = min(best, time.perf_counter() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return best / len(args) * 1e6


def mean_size(call: Callable[..., Any], args: Sequence[Args]) -> float | None:
    """Mean length of what ``call`` returns (plays, action ids, ...) over ``args``."""
    if not args:
        return None
    return sum(len(call(*a)) for a in args) / len(args)


@dataclass
class Row:
    """One line of the results table; times in microseconds per input."""

    section: str
    measure: str
    inputs: int
    ours_us: float | None
    peer: str | None = None
    peer_us: float | None = None
    ours_mean_plays: float | None = None
    peer_mean_output: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """Peer time over ours: above 1 means ddz-rules is faster."""
        if self.ours_us is None or self.peer_us is None or self.ours_us == 0:
            return None
        return self.peer_us / self.ours_us


@dataclass
class Report:
    """Everything the run measured, as written by ``--json``."""

    meta: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    compile_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    cold_start_ms: dict[str, Any] = field(default_factory=dict)
    crosscheck: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for row, data in zip(self.rows, out["rows"], strict=True):
            data["ratio"] = row.ratio
        return out


# ---------------------------------------------------------------------------- inputs


def key_of(text: str) -> int:
    return cards.pack_ranks(cards.parse(text))


DECK_KEY = key_of(peers.FULL_DECK)


def draw_hands(seed: int, size: int, count: int) -> list[str]:
    """``count`` canonical hands of ``size`` cards from the 54-card deck."""
    rng = random.Random(f"{seed}:hands:{size}")
    return [peers.random_hand(rng, size) for _ in range(count)]


def previous_pool(tables: dict[str, PlayTable]) -> dict[str, list[int]]:
    """Plays legal in every paired preset, with one reading in each, of at most 15 cards.

    Grouped by type (under the ``rlcard`` preset), each group in table order.
    """
    common = set.intersection(*(set(tables[p].plays) for p in PAIRED_PRESETS))
    pool: dict[str, list[int]] = {}
    for key in sorted(common):
        if cards.size(key) > MAX_PREVIOUS_CARDS:
            continue
        if any(len(tables[p].plays[key]) != 1 for p in PAIRED_PRESETS):
            continue
        pool.setdefault(tables["rlcard"].plays[key][0].type, []).append(key)
    return pool


def pick_previous(rng: random.Random, pool: dict[str, list[int]], hand: int) -> int:
    """A previous play for ``hand``: a type uniformly, then a play of it uniformly.

    The play's cards must lie outside the hand (they came from the other players), which is
    also what OpenSpiel's adapter needs to deal the situation.
    """
    outside = DECK_KEY - hand
    types = sorted(pool)
    while True:
        plays = pool[rng.choice(types)]
        for _ in range(200):
            key = rng.choice(plays)
            if cards.contains(outside, key):
                return key


# ---------------------------------------------------------------------------- cross-check


def skipped_chain(hand: str, play: str) -> bool:
    """True when ``play`` is a kicker-free chain whose lowest rank ``hand`` holds four of."""
    counts = Counter(play)
    ranks = sorted(counts, key=peers.RANKS.index)
    idx = [peers.RANKS.index(r) for r in ranks]
    return (len(ranks) >= 2 and len(set(counts.values())) == 1
            and idx == list(range(idx[0], idx[0] + len(idx)))
            and hand.count(ranks[0]) == 4)


def bomb_over_rocket(previous: str | None, play: str) -> bool:
    """True when ``play`` is a bomb offered in answer to the rocket."""
    return previous == "BR" and len(play) == 4 and len(set(play)) == 1


def openspiel_quirks_explain(hand: str, previous: str | None, only_ours: Sequence[str],
                             only_peer: Sequence[str]) -> bool:
    """Whether OpenSpiel's known quirks account for every difference on one input."""
    return (all(skipped_chain(hand, p) for p in only_ours)
            and all(bomb_over_rocket(previous, p) for p in only_peer))


def crosscheck(peer: Peer, kind: str, size: int, situations: Sequence[tuple[str, str | None]],
               ours: Sequence[set[str]]) -> dict[str, Any]:
    """Compare our play sets with the peer adapter's, input by input."""
    checked = differ = quirk_only = 0
    examples: list[dict[str, Any]] = []
    for (hand, prev), mine in zip(situations, ours, strict=True):
        try:
            theirs = set(peer.lead(hand) if prev is None else peer.answer(hand, prev))
        except ValueError:
            continue
        checked += 1
        if theirs == mine:
            continue
        differ += 1
        only_ours, only_peer = sorted(mine - theirs), sorted(theirs - mine)
        if peer.name == "openspiel" and openspiel_quirks_explain(hand, prev, only_ours,
                                                                 only_peer):
            quirk_only += 1
        if len(examples) < 3:
            examples.append({"hand": hand, "previous": prev, "only_ours": only_ours[:10],
                             "only_peer": only_peer[:10]})
    return {"peer": peer.name, "kind": kind, "hand_size": size, "checked": checked,
            "differ": differ, "explained_by_quirk": quirk_only if peer.name == "openspiel"
            else None, "examples": examples}


# ---------------------------------------------------------------------------- sections


def time_leads(report: Report, tables: dict[str, PlayTable], hands: dict[int, list[str]],
               available: dict[str, str]) -> None:
    for size, texts in hands.items():
        keys: list[Args] = [(key_of(h),) for h in texts]
        for preset in (*PAIRED_PRESETS, "classic"):
            table = tables[preset]
            row = Row("lead", f"lead {size}  {preset} preset", len(keys),
                      best_us(table.leads, keys), ours_mean_plays=mean_size(table.leads, keys))
            if preset in PEERS:
                peer = PEERS[preset]
                row.peer = peer.label
                if preset not in available:
                    row.note = f"{peer.label} not installed"
                else:
                    batch = NATIVE_BATCH[preset]([(h, None) for h in texts])
                    row.peer_us = best_us(batch.call, batch.args)
                    row.peer_mean_output = mean_size(batch.call, batch.args)
                    if batch.setup_us is not None:
                        row.note = f"+{batch.setup_us:.0f} {_micro()}/hand deal replay, not counted"
            report.rows.append(row)
            if preset in ID_PRESETS:  # ids against ids: what OpenSpiel's legal_actions returns
                report.rows.append(Row(
                    "lead", f"lead ids {size}  {preset}", len(keys),
                    best_us(table.lead_ids, keys), peer=row.peer, peer_us=row.peer_us,
                    ours_mean_plays=mean_size(table.lead_ids, keys),
                    peer_mean_output=row.peer_mean_output, note=row.note))


def time_answers(report: Report, tables: dict[str, PlayTable],
                 situations: dict[int, list[tuple[str, str]]],
                 available: dict[str, str]) -> None:
    for size, pairs in situations.items():
        for preset in PAIRED_PRESETS:
            table = tables[preset]
            peer = PEERS[preset]
            ours_args: list[Args] = [(key_of(h), table.readings(key_of(p))[0]) for h, p in pairs]
            row = Row("answer", f"answer {size}  {preset} preset", len(pairs), None,
                      peer=peer.label)
            kept = list(range(len(pairs)))
            if preset in available:
                batch = NATIVE_BATCH[preset](pairs)
                kept = batch.kept
                ours_args = [ours_args[i] for i in kept]
                row.inputs = len(batch.kept)
                row.peer_us = best_us(batch.call, batch.args)
                row.peer_mean_output = mean_size(batch.call, batch.args)
                if batch.setup_us is not None:
                    row.note = (f"+{batch.setup_us:.0f} {_micro()}/input deal replay, "
                                "not counted")
                if not batch.kept:
                    row.note = f"{peer.label} adapter raised on every input: not timed"
                elif len(batch.kept) < len(pairs):
                    row.note = (f"{peer.label} adapter raised on {len(pairs) - len(batch.kept)}"
                                f"/{len(pairs)}; both timed on the rest. " + row.note).strip()
            else:
                row.note = f"{peer.label} not installed"
            row.ours_us = best_us(table.answers, ours_args)
            row.ours_mean_plays = mean_size(table.answers, ours_args)
            report.rows.append(row)
            if preset in ID_PRESETS:  # ids against ids, on the same inputs
                id_args: list[Args] = [(hand, table.id_of(Play(key_of(p), reading)))
                                       for (hand, reading), (_, p) in zip(
                                           ours_args, [pairs[i] for i in kept], strict=True)]
                report.rows.append(Row(
                    "answer", f"answer ids {size}  {preset}", row.inputs,
                    best_us(table.answer_ids, id_args), peer=row.peer, peer_us=row.peer_us,
                    ours_mean_plays=mean_size(table.answer_ids, id_args),
                    peer_mean_output=row.peer_mean_output, note=row.note))


def time_classify(report: Report, table: PlayTable, seed: int,
                  available: dict[str, str]) -> None:
    rng = random.Random(f"{seed}:classify")
    keys = rng.sample(sorted(table.plays), min(CLASSIFY_SAMPLE, len(table.plays)))
    report.meta["classify_sample_sizes"] = dict(sorted(Counter(map(cards.size, keys)).items()))
    args: list[Args] = [(k,) for k in keys]
    peer_us = None
    if "douzero" in available:
        from douzero.env.move_detector import get_move_type

        peer_us = best_us(get_move_type, [(_douzero_ints(cards.key_text(k)),) for k in keys])
    note = "" if "douzero" in available else "DouZero not installed"
    for measure, call in (("classify  readings (warm)", table.readings),
                          ("classify  read (cold path)", table.read)):
        report.rows.append(Row("classify", measure, len(keys), best_us(call, args),
                               peer="DouZero", peer_us=peer_us, note=note))


def time_compiles(report: Report) -> None:
    """``PlayTable(load(id)).plays`` on a new table each time, nothing cached but the load.

    ``load`` caches a bundled ruleset, so the first run also parses and validates its YAML
    (unless an earlier section loaded it); the best of ``REPEATS`` is the compile alone.
    """
    for ruleset_id in bundled_ids():
        times = []
        plays = 0
        for _ in range(REPEATS):
            start = time.perf_counter()
            plays = len(PlayTable(load(ruleset_id)).plays)
            times.append(time.perf_counter() - start)
        report.compile_ms[ruleset_id] = {"ms": min(times) * 1e3, "first_ms": times[0] * 1e3,
                                         "plays": plays}


def _median_wall_ms(command: Sequence[str]) -> tuple[float, str]:
    times = []
    out = ""
    for _ in range(COLD_START_RUNS):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        out = done.stdout.strip()
    return statistics.median(times) * 1e3, out


def time_cold_start(report: Report) -> None:
    beside = Path(sys.executable).with_name("ddz")
    found = str(beside) if beside.exists() else shutil.which("ddz")
    if found:
        command = [found, "classify", COLD_START_PLAY]
    else:
        command = [sys.executable, "-c", "import sys; from ddz_rules.cli import main; "
                   "sys.exit(main())", "classify", COLD_START_PLAY]
    ms, output = _median_wall_ms(command)
    baseline_ms, _ = _median_wall_ms([sys.executable, "-c", "pass"])
    report.cold_start_ms = {"command": command, "median_ms": ms, "output": output,
                            "python_baseline_ms": baseline_ms, "runs": COLD_START_RUNS}


# ---------------------------------------------------------------------------- output


def _micro() -> str:
    """``µs``, or ``us`` when standard output cannot encode ``µ``."""
    try:
        "µ".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "us"
    return "µs"


def _fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def render(report: Report) -> str:
    meta = report.meta
    lines = [
        f"ddz-rules benchmark, {meta['date']}: {meta['hands']} hands each of 17 and 20 cards "
        f"(seed {meta['seed']}), best of {REPEATS} after a warm-up pass",
        machine_line(meta),
        "peers: " + ", ".join(f"{name} {meta['peers'][name] or 'not installed'}"
                              for name in PEERS),
        "",
        "Times in microseconds per input; ratio = peer / ours (> 1: ddz-rules is faster).",
    ]
    us = _micro()
    header = (f"{'measure':<30} {'peer':<10} {'inputs':>6} {'ours ' + us:>9} "
              f"{'peer ' + us:>9} {'ratio':>6}  note")
    section = ""
    for row in report.rows:
        if row.section != section:
            section = row.section
            lines += ["", header, "-" * len(header)]
        ratio = row.ratio
        lines.append(f"{row.measure:<30} {row.peer or '-':<10} {row.inputs:>6} "
                     f"{_fmt(row.ours_us):>9} {_fmt(row.peer_us):>9} "
                     f"{'-' if ratio is None else f'{ratio:.2f}':>6}  {row.note}".rstrip())

    lines += ["", f"Compile: PlayTable(load(id)).plays on a fresh table: best of {REPEATS} "
              "(first run, which may include loading the YAML)"]
    for ruleset_id, compiled in report.compile_ms.items():
        lines.append(f"  {ruleset_id:<14} {compiled['plays']:>7,.0f} plays "
                     f"{compiled['ms']:>9.1f} ms  ({compiled['first_ms']:.1f} ms)")

    cold = report.cold_start_ms
    shown = " ".join([Path(cold["command"][0]).name, *cold["command"][1:]])
    lines += ["", f"Cold start: wall time, median of {cold['runs']} runs (ms)",
              f"  {shown:<40} {cold['median_ms']:>7.1f} ms   -> {cold['output']}",
              f"  {'python -c pass (interpreter alone)':<40} "
              f"{cold['python_baseline_ms']:>7.1f} ms"]

    lines += ["", "Cross-check (adapter output as sets of card strings, pass excluded):"]
    if not report.crosscheck:
        lines.append("  no peer installed")
    for entry in report.crosscheck:
        what = f"{entry['kind']} {entry['hand_size']}"
        line = (f"  {entry['peer']:<10} {what:<10} {entry['differ']:>5} of "
                f"{entry['checked']:>5} inputs differ")
        if entry["explained_by_quirk"] is not None and entry["differ"]:
            line += f" ({entry['explained_by_quirk']} explained by OpenSpiel's quirks)"
        lines.append(line)
        for ex in entry["examples"][:1] if entry["differ"] else ():
            prev = f" answering {ex['previous']}" if ex["previous"] else ""
            lines.append(f"      e.g. {ex['hand']}{prev}: only ours {ex['only_ours']}, "
                         f"only peer {ex['only_peer']}")

    if report.notes:
        lines += ["", "Notes:"]
        lines += [f"  - {note}" for note in report.notes]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- main


def machine() -> dict[str, Any]:
    """The facts about this machine and checkout that every benchmark report starts with."""
    return {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "python": platform.python_version(), "platform": platform.platform(terse=True),
            "cpus": os.cpu_count(), "cpu": _cpu_name(), "source": _source_state()}


def machine_line(meta: dict[str, Any]) -> str:
    """The second line of every report: Python, platform, CPUs and the checkout measured."""
    return (f"python {meta['python']} on {meta['platform']}, {meta['cpus']} CPUs "
            f"({meta['cpu']}); ddz-rules {meta['source']}")


def publish(text: str, data: dict[str, Any], path: str | None) -> None:
    """Print the report and, with ``--json PATH``, write its numbers whole or not at all."""
    print(text)
    if path:
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        partial.replace(target)
        print(f"\nwrote {path}")


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _source_state() -> str:
    """The checkout measured: ``git describe --always --dirty``, when git can tell."""
    try:
        done = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                              text=True, check=True, cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands of each size (default {DEFAULT_HANDS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed for hands, previous plays and samples (default {DEFAULT_SEED})")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if opts.hands < 1:
        parser.error("--hands must be at least 1")

    versions = {name: peer_status(peer) for name, peer in PEERS.items()}
    available = {name: v for name, v in versions.items() if v is not None}
    report = Report(meta={
        **machine(), "hands": opts.hands, "seed": opts.seed, "repeats": REPEATS,
        "peers": versions,
    })

    tables = {preset: PlayTable(load(preset)) for preset in (*PAIRED_PRESETS, "classic")}
    for table in tables.values():
        len(table.plays)  # compile now: the warm lookups and the previous-play pool need it

    hands = {size: draw_hands(opts.seed, size, opts.hands) for size in HAND_SIZES}
    pool = previous_pool(tables)
    situations: dict[int, list[tuple[str, str]]] = {}
    for size, texts in hands.items():
        rng = random.Random(f"{opts.seed}:previous:{size}")
        situations[size] = [(h, cards.key_text(pick_previous(rng, pool, key_of(h))))
                            for h in texts]
    report.meta["previous_types"] = {
        size: dict(Counter(tables["rlcard"].readings(key_of(p))[0].type for _, p in pairs))
        for size, pairs in situations.items()}

    time_leads(report, tables, hands, available)
    time_answers(report, tables, situations, available)
    time_classify(report, tables["douzero"], opts.seed, available)
    time_compiles(report)
    time_cold_start(report)

    for name in PAIRED_PRESETS:
        if name not in available:
            continue
        table = tables[name]
        for size in HAND_SIZES:
            leads = [(h, None) for h in hands[size]]
            ours = [{cards.key_text(p.key) for p in table.leads(key_of(h))} for h in hands[size]]
            report.crosscheck.append(crosscheck(PEERS[name], "lead", size, leads, ours))
        for size in HAND_SIZES:
            pairs = situations[size]
            ours = [{cards.key_text(p.key)
                     for p in table.answers(key_of(h), table.readings(key_of(p))[0])}
                    for h, p in pairs]
            report.crosscheck.append(crosscheck(PEERS[name], "answer", size, pairs, ours))

    report.notes += _notes(available, versions)
    publish(render(report), report.to_json(), opts.json)
    return 0


def _notes(available: dict[str, str], versions: dict[str, str | None]) -> list[str]:
    notes = [
        "ours: PlayTable.leads / .answers on a packed hand, returning Play(key, reading) "
        "tuples; the hand is packed before timing. The 'ids' rows: PlayTable.lead_ids / "
        ".answer_ids, the same plays as ints into the table (what legal_actions() returns), "
        "on the same inputs. Both list through the compiled lister where it is built "
        "(ddz --version says), built here during the warm-up pass.",
        "answer inputs: per hand, a previous play drawn (seeded) from the plays legal in the "
        "douzero, rlcard and openspiel presets with one reading in each and at most "
        f"{MAX_PREVIOUS_CARDS} cards, whose cards lie outside the hand: a type uniformly, "
        "then a play of that type uniformly (mix in --json meta.previous_types).",
        "classify: ours readings() is a dict lookup in the compiled table; read() enumerates "
        "the readings from the card set (the path a one-off `ddz classify` takes). "
        "DouZero's get_move_type returns one type for a sorted int list.",
    ]
    for name, peer in PEERS.items():
        if name in available:
            notes.append(f"{peer.label} {versions[name]}: timed {NATIVE_CALL[name]}; input "
                         "converted to its native form before timing, output left as it "
                         "returns it.")
        else:
            notes.append(f"{peer.label} is not installed: its comparisons are skipped.")
    if "openspiel" in available:
        notes.append("OpenSpiel has no entry point taking a hand: peers.openspiel_state replays "
                     "a deal per input. That replay is timed separately (the 'deal replay' note) "
                     "and not counted; the adapter cannot build a 20-card hand answering (no real "
                     "game reaches it), so OpenSpiel answer 20 is empty.")
        notes.append("OpenSpiel cross-check: the openspiel preset reproduces OpenSpiel's "
                     "action list, not two quirks of its generator: (1) "
                     f"{OPENSPIEL_QUIRKS[0]}; (2) {OPENSPIEL_QUIRKS[1]}. Differences are "
                     "counted as explained only when these account for every play.")
    return notes


if __name__ == "__main__":
    sys.exit(main())
