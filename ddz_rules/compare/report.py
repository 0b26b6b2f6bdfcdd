"""Summaries of a comparison: per-ruleset estimates, differences, and their outputs.

Rulesets that share a deck are compared hand by hand on the same deals (paired); others by
Welch's interval. Output: a terminal table, JSON, CSV, and PNG charts.
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ddz_rules.compare.measures import (
    BY_KEY,
    MATCH_BY_KEY,
    MATCH_MEASURES,
    MEASURES,
    Measure,
    Trace,
    values,
)
from ddz_rules.compare.stats import (
    Estimate,
    mean_interval,
    paired_difference,
    proportion_interval,
    welch_difference,
)
from ddz_rules.errors import Named, UsageError
from ddz_rules.outputs import write_new
from ddz_rules.rulepoints import differences
from ddz_rules.ruleset import Ruleset

#: Measures shown in the terminal table (all are in JSON and CSV); a row that applies to none
#: of the rulesets compared (a fourth seat, a partner) is left out.
TABLE = ("landlord_win", "open_value", "open_whole", "open_whole_answered",
         "kitty_decides", "landlord_score",
         "peasant_score", "partnered", "multiplier", "first_out_score", "cards_left",
         "shut_out", "paid_for_all", "bombs",
         "soft_bombs", "wild_plays", "rockets", "spring", "anti_spring", "redeals", "unplayed",
         "bid", "robs", "grabs", "decisions", "tricks", "seat0_win", "seat1_win", "seat2_win",
         "seat3_win", "first_bidder_win", "first_leader_out", "lead_changes", "decisive_at")
#: Rows of the terminal table left out where they are 0 for every ruleset compared.
SHOWN_WHEN_SEEN = ("unplayed",)


#: Measures of matches shown in the terminal table and charted (all of them).
MATCH_TABLE = tuple(m.key for m in MATCH_MEASURES)


def measure_of(key: str) -> Measure:
    """A measure of hands or of matches, by key."""
    return BY_KEY.get(key) or MATCH_BY_KEY[key]


def _measures(summary: dict[str, Any]) -> tuple[Measure, ...]:
    return MATCH_MEASURES if summary.get("kind") == "matches" else MEASURES


def _shown(summary: dict[str, Any]) -> tuple[str, ...]:
    return MATCH_TABLE if summary.get("kind") == "matches" else TABLE


def estimate(key: str, traces: list[Trace]) -> Estimate:
    measure = measure_of(key)
    got = values(measure, traces)
    if measure.proportion:
        return proportion_interval(round(sum(got)), len(got))
    return mean_interval(got, measure.low, measure.high)


def _with_interval(est: Estimate, name: str) -> dict[str, Any]:
    return {**est.to_json(), "interval": name}


def summarize(spec: dict[str, Any], results: dict[str, list[Trace]],
              rulesets: Mapping[str, Ruleset],
              measures: tuple[Measure, ...] = MEASURES) -> dict[str, Any]:
    """Everything a report shows, as plain data.

    ``rulesets`` are the rulesets as loaded for the run (never reloaded here): those with one
    deck are compared on paired deals. A paired difference also lists the rule points that
    differ and the measures that came out identical on every deal. ``measures`` are those of
    hands (:data:`MEASURES`) or of whole matches (:data:`MATCH_MEASURES`).
    """
    kind = "matches" if measures is MATCH_MEASURES else "hands"
    names = list(results)
    # Rulesets whose decks are shuffled alike see the same shuffles: with one hand size they
    # deal the same hands, with another (run-fast's 16 cards, run-fast-15's 15) hands that
    # share every card but the last dealt, so their hands are paired deal by deal.
    decks = {name: (rulesets[name].copies, rulesets[name].suited_deck) for name in names}
    out: dict[str, Any] = {"run": spec, "kind": kind, "rulesets": {}, "differences": []}
    for name, traces in results.items():
        entry: dict[str, Any] = {m.key: _with_interval(estimate(m.key, traces), m.interval)
                                 for m in measures if values(m, traces)}
        if kind == "hands":
            entry["multiplier_distribution"] = _histogram(t["multiplier"] for t in traces)
            entry["bid_distribution"] = _histogram(t["bid"] for t in traces if t["bid"])
        out["rulesets"][name] = entry
    base = names[0]
    for other in names[1:]:
        paired = decks[base] == decks[other]
        diff: dict[str, Any] = {"a": other, "b": base, "paired": paired,
                                "rules_differ": [p.dotted for p in differences(rulesets[base],
                                                                            rulesets[other])],
                                "identical": [], "kind": kind}
        for m in measures:
            a_traces, b_traces = results[other], results[base]
            if paired:
                pairs = [(m.of(x), m.of(y)) for x, y in zip(a_traces, b_traces, strict=True)]
                kept = [(x, y) for x, y in pairs if x is not None and y is not None]
                if kept:
                    est = paired_difference([x for x, _ in kept], [y for _, y in kept])
                    diff[m.key] = _with_interval(est, "paired-normal")
                if kept and all(x == y for x, y in pairs):  # a measure that applies
                    diff["identical"].append(m.key)
            else:
                a_vals, b_vals = values(m, a_traces), values(m, b_traces)
                if a_vals and b_vals:
                    diff[m.key] = _with_interval(welch_difference(a_vals, b_vals), "welch")
        out["differences"].append(diff)
    return out


def _histogram(items: Any) -> dict[str, int]:
    return {str(k): v for k, v in sorted(Counter(items).items())}


def _identical_note(d: dict[str, Any]) -> str:
    """Why a paired difference shows nothing: the measures equal on every deal, and the rules."""
    rules = d["rules_differ"]
    shown = ", ".join(rules[:4]) + (f" and {len(rules) - 4} more" if len(rules) > 4 else "")
    if not rules:
        return f"{d['a']} and {d['b']} state the same rules: every measure is identical"
    table = MATCH_TABLE if d.get("kind") == "matches" else TABLE
    same = [measure_of(k).label for k in d["identical"] if k in table]
    if not same:
        return f"{d['a']} vs {d['b']}: they differ in {shown}"
    if len(same) == len([k for k in table if k in d]):
        return (f"{d['a']} vs {d['b']}: they differ only in {shown}, and every measure came "
                "out identical on every deal: the bots made the same choices under both, so "
                "these rules changed nothing they measure")
    return (f"{d['a']} vs {d['b']}: they differ in {shown}; identical on every deal: "
            f"{', '.join(same)}")


def _cell(e: dict[str, Any] | None, percent: bool) -> str:
    if e is None:
        return "-"
    scale = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    return (f"{e['mean'] * scale:.2f}{unit} "
            f"[{e['low'] * scale:.2f}, {e['high'] * scale:.2f}]")


def render_table(summary: dict[str, Any]) -> str:
    """The terminal table: one column per ruleset, then one per difference."""
    from rich.console import Console
    from rich.table import Table

    run = summary["run"]
    paired = [d for d in summary["differences"] if d["paired"]]
    caption = f"{run_line(run)}; mean [95% interval]"
    if summary["differences"]:
        caption += ("; differences are paired hand by hand on the same deals"
                    if len(paired) == len(summary["differences"]) else
                    "; differences between rulesets with the same deck are paired on the "
                    "same deals, others are unpaired (Welch)")
    for d in paired:
        caption += "\n" + _identical_note(d)
    table = Table(title="ddz compare", caption=caption, show_lines=False)
    table.add_column("measure")
    names = list(summary["rulesets"])
    for name in names:
        table.add_column(name, justify="right")
    for d in summary["differences"]:
        table.add_column(f"{d['a']} - {d['b']}{'' if d['paired'] else ' (unpaired)'}",
                         justify="right")
    for key in _shown(summary):
        if all(summary["rulesets"][n].get(key) is None for n in names):
            continue
        if key in SHOWN_WHEN_SEEN and not any(
                (summary["rulesets"][n].get(key) or {}).get("mean") for n in names):
            continue
        measure = measure_of(key)
        row = [measure.label]
        row += [_cell(summary["rulesets"][n].get(key), measure.proportion) for n in names]
        row += [_cell(d.get(key), measure.proportion) for d in summary["differences"]]
        table.add_row(*row)
    buffer = io.StringIO()
    Console(file=buffer, width=max(100, 34 + 26 * (len(names) + len(summary["differences"]))),
            force_terminal=False).print(table)
    return buffer.getvalue().rstrip()


def to_csv(summary: dict[str, Any]) -> str:
    """One row per ruleset and measure, then one per difference and measure."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["kind", "ruleset", "versus", "paired", "measure", "mean", "low", "high",
                     "n", "interval"])
    for name, entry in summary["rulesets"].items():
        for m in _measures(summary):
            if m.key in entry:
                e = entry[m.key]
                writer.writerow(["ruleset", name, "", "", m.key, e["mean"], e["low"],
                                 e["high"], e["n"], e["interval"]])
    for d in summary["differences"]:
        for m in _measures(summary):
            if m.key in d:
                e = d[m.key]
                writer.writerow(["difference", d["a"], d["b"], d["paired"], m.key, e["mean"],
                                 e["low"], e["high"], e["n"], e["interval"]])
    return buffer.getvalue()


def pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or a one-line error if it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError(Named("plots"),
                         " needs matplotlib: pip install 'ddz-rules[plots]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plots_folder(folder: Path) -> None:
    """Refuse, before a run, a charts folder that cannot be made or written to."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(Named("plots"), f" {folder} is a file; name a folder for the charts")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise UsageError(Named("plots"), f" {folder}: cannot write charts there: "
                         f"{exc.strerror or exc}") from None


#: The measures charted one per file (with their paired differences in ``differences.png``),
#: those that apply to some ruleset of the run: the landlord's where there is one, the first
#: player out's and the losers' cards where there is none.
CHARTED = ("landlord_win", "landlord_score", "multiplier", "first_out_score", "cards_left",
           "bombs", "decisions", "lead_changes")


def run_line(run: dict[str, Any]) -> str:
    """The run a chart or table comes from, in one line."""
    if "matches" in run:
        return (f"{', '.join(run['rulesets'])}: {run['matches']} matches each, "
                f"{run['stronger']} against {run['weaker']} (one seat {run['stronger']}, "
                f"the others {run['weaker']}, the seat rotating), seed {run['seed']}")
    dealt = f", the deals of {run['deals']}" if run.get("deals") else ""
    return (f"{', '.join(run['rulesets'])}: {run['hands']} hands each, bots {run['bots']}, "
            f"seed {run['seed']}{dealt}")


def plots(summary: dict[str, Any], folder: Path) -> list[Path]:
    """PNG charts: each main measure per ruleset, the differences, the multiplier's spread.

    Every chart names the run it comes from. Intervals are 95%. All or none: where one
    chart cannot be written (a full disk), those this call wrote before it are removed.
    """
    plt = pyplot()
    check_plots_folder(folder)
    created: list[Path] = []
    try:
        return _charts(plt, summary, folder, created)
    except BaseException:
        for path in created:
            path.unlink(missing_ok=True)
        raise


def _charts(plt: Any, summary: dict[str, Any], folder: Path, created: list[Path]) -> list[Path]:
    """The charts of :func:`plots`, each file this call creates listed in ``created``."""
    names = list(summary["rulesets"])
    subtitle = run_line(summary["run"])
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    written = []

    def save(fig: Any, name: str, title: str) -> None:
        fig.suptitle(title, fontsize=11)
        fig.text(0.5, 0.005, subtitle, ha="center", va="bottom", fontsize=7, color="#555555")
        fig.tight_layout(rect=(0, 0.04, 1, 1))
        path = folder / f"{name}.png"
        image = io.BytesIO()
        fig.savefig(image, format="png", dpi=110)
        plt.close(fig)
        if write_new(path, image.getvalue(),
                     ("remove it, or give ", Named("plots"), " a folder of its own")):
            created.append(path)
        written.append(path)

    charted = MATCH_TABLE if summary.get("kind") == "matches" else tuple(
        k for k in CHARTED if any(summary["rulesets"][n].get(k) for n in names))
    for key in charted:
        measure = measure_of(key)
        scale = 100.0 if measure.proportion else 1.0
        shown = [n for n in names if summary["rulesets"][n].get(key)]
        entries = [summary["rulesets"][n][key] for n in shown]
        means = [e["mean"] * scale for e in entries]
        errors = [[(e["mean"] - e["low"]) * scale for e in entries],
                  [(e["high"] - e["mean"]) * scale for e in entries]]
        fig, ax = plt.subplots(figsize=(max(4.5, 1.6 * len(shown)), 3.4))
        ax.bar(shown, means, yerr=errors, capsize=6,
               color=[colours[names.index(n) % len(colours)] for n in shown])
        ax.set_ylabel("%" if measure.proportion else measure.label)
        ax.tick_params(axis="x", labelrotation=15)
        save(fig, key, f"{measure.label} (95% interval)")

    diffs = summary["differences"]
    if diffs:
        fig, axes = plt.subplots(len(charted), 1, figsize=(6.5, 1.1 + 0.9 * len(charted)
                                                                * max(1, len(diffs)) ** 0.5),
                                 squeeze=False)
        labels = [f"{d['a']} - {d['b']}{'' if d['paired'] else ' (unpaired)'}" for d in diffs]
        for ax, key in zip(axes[:, 0], charted, strict=True):
            measure = measure_of(key)
            scale = 100.0 if measure.proportion else 1.0
            for row, d in enumerate(diffs):
                e = d.get(key)
                if e is None or e["low"] != e["low"]:  # not measured, or no interval (NaN)
                    continue
                ax.errorbar([e["mean"] * scale], [row],
                            xerr=[[(e["mean"] - e["low"]) * scale],
                                  [(e["high"] - e["mean"]) * scale]],
                            fmt="o", capsize=4, color=colours[(row + 1) % len(colours)])
            ax.axvline(0.0, color="#888888", linewidth=0.8)
            ax.set_yticks(range(len(diffs)), labels, fontsize=7)
            ax.set_ylim(-0.6, len(diffs) - 0.4)
            ax.set_title(measure.label + (" (points of %)" if measure.proportion else ""),
                         fontsize=8, loc="left")
            ax.tick_params(axis="x", labelsize=7)
        save(fig, "differences", "differences between rulesets (95% interval; 0 = no change)")

    if summary.get("kind") == "matches":
        return written
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    values = sorted({int(k) for n in names
                     for k in summary["rulesets"][n]["multiplier_distribution"]})
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        dist = summary["rulesets"][name]["multiplier_distribution"]
        total = sum(dist.values()) or 1
        xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(values))]
        ax.bar(xs, [dist.get(str(v), 0) / total for v in values], width=width, label=name,
               color=colours[i % len(colours)])
    ax.set_xticks(range(len(values)), [f"x{v}" for v in values], fontsize=7)
    ax.set_xlabel("multiplier")
    ax.set_ylabel("share of hands")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    save(fig, "multiplier_distribution", "multiplier distribution")
    return written
