"""Summaries of a comparison: per-ruleset estimates, differences, and their outputs.

Rulesets that share a deck are compared hand by hand on the same deals (paired); others by
Welch's interval. Output: a terminal table, JSON, CSV, and PNG charts.
"""

from __future__ import annotations

import csv
import io
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from ddz_rules.compare.measures import BY_KEY, MEASURES, Trace, values
from ddz_rules.compare.stats import (
    Estimate,
    mean_interval,
    paired_difference,
    proportion_interval,
    welch_difference,
)
from ddz_rules.errors import UsageError

#: Measures shown in the terminal table (all are in JSON and CSV).
TABLE = ("landlord_win", "landlord_score", "peasant_score", "multiplier", "bombs", "rockets",
         "spring", "anti_spring", "redeals", "bid", "robs", "grabs", "decisions", "tricks",
         "first_bidder_win", "lead_changes", "decisive_at")


def estimate(key: str, traces: list[Trace]) -> Estimate:
    measure = BY_KEY[key]
    got = values(measure, traces)
    if measure.proportion:
        return proportion_interval(round(sum(got)), len(got))
    return mean_interval(got)


def summarize(spec: dict[str, Any], results: dict[str, list[Trace]],
              decks: dict[str, tuple[int, ...]]) -> dict[str, Any]:
    """Everything a report shows, as plain data.

    ``decks`` gives each ruleset's deck, as loaded for the run (never reloaded here): rulesets
    with one deck are compared on paired deals.
    """
    names = list(results)
    out: dict[str, Any] = {"run": spec, "rulesets": {}, "differences": []}
    for name, traces in results.items():
        entry: dict[str, Any] = {m.key: estimate(m.key, traces).to_json() for m in MEASURES
                                 if values(m, traces)}
        entry["multiplier_distribution"] = _histogram(t["multiplier"] for t in traces)
        entry["bid_distribution"] = _histogram(t["bid"] for t in traces if t["bid"])
        out["rulesets"][name] = entry
    base = names[0]
    for other in names[1:]:
        paired = decks[base] == decks[other]
        diff: dict[str, Any] = {"a": other, "b": base, "paired": paired}
        for m in MEASURES:
            a_traces, b_traces = results[other], results[base]
            if paired:
                pairs = [(m.of(x), m.of(y)) for x, y in zip(a_traces, b_traces, strict=True)]
                kept = [(x, y) for x, y in pairs if x is not None and y is not None]
                if kept:
                    est = paired_difference([x for x, _ in kept], [y for _, y in kept])
                    diff[m.key] = est.to_json()
            else:
                a_vals, b_vals = values(m, a_traces), values(m, b_traces)
                if a_vals and b_vals:
                    diff[m.key] = welch_difference(a_vals, b_vals).to_json()
        out["differences"].append(diff)
    return out


def _histogram(items: Any) -> dict[str, int]:
    return {str(k): v for k, v in sorted(Counter(items).items())}


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
    caption = (f"{run['hands']} hands per ruleset, bots: {run['bots']}, seed {run['seed']}; "
               "mean [95% interval]")
    if summary["differences"]:
        caption += ("; differences are paired hand by hand on the same deals"
                    if len(paired) == len(summary["differences"]) else
                    "; differences between rulesets with the same deck are paired on the "
                    "same deals, others are unpaired (Welch)")
    table = Table(title="ddz compare", caption=caption, show_lines=False)
    table.add_column("measure")
    names = list(summary["rulesets"])
    for name in names:
        table.add_column(name, justify="right")
    for d in summary["differences"]:
        table.add_column(f"{d['a']} - {d['b']}{'' if d['paired'] else ' (unpaired)'}",
                         justify="right")
    for key in TABLE:
        measure = BY_KEY[key]
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
                     "n"])
    for name, entry in summary["rulesets"].items():
        for m in MEASURES:
            if m.key in entry:
                e = entry[m.key]
                writer.writerow(["ruleset", name, "", "", m.key, e["mean"], e["low"],
                                 e["high"], e["n"]])
    for d in summary["differences"]:
        for m in MEASURES:
            if m.key in d:
                e = d[m.key]
                writer.writerow(["difference", d["a"], d["b"], d["paired"], m.key, e["mean"],
                                 e["low"], e["high"], e["n"]])
    return buffer.getvalue()


def pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or a one-line error if it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--plots needs matplotlib: pip install 'ddz-rules[plots]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plots_folder(folder: Path) -> None:
    """Refuse, before a run, a charts folder that cannot be made or written to."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--plots {folder} is a file; name a folder for the charts")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise UsageError(f"--plots {folder}: cannot write charts there: "
                         f"{exc.strerror or exc}") from None


def plots(summary: dict[str, Any], folder: Path) -> list[Path]:
    """PNG charts of the main measures, with their 95% intervals."""
    plt = pyplot()
    check_plots_folder(folder)
    names = list(summary["rulesets"])
    written = []
    for key in ("landlord_win", "landlord_score", "multiplier", "bombs", "decisions",
                "lead_changes"):
        measure = BY_KEY[key]
        entries = [summary["rulesets"][n].get(key) for n in names]
        means = [e["mean"] if e else 0.0 for e in entries]
        errors = [[e["mean"] - e["low"] if e else 0.0 for e in entries],
                  [e["high"] - e["mean"] if e else 0.0 for e in entries]]
        fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(names)), 3.2))
        ax.bar(names, means, yerr=errors, capsize=6, color="#4c72b0")
        ax.set_title(f"{measure.label} (95% interval)")
        ax.tick_params(axis="x", labelrotation=15)
        fig.tight_layout()
        path = folder / f"{key}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    fig, ax = plt.subplots(figsize=(6.0, 3.2))
    for name in names:
        dist = summary["rulesets"][name]["multiplier_distribution"]
        total = sum(dist.values())
        ax.plot([int(k) for k in dist], [v / total for v in dist.values()], marker="o",
                label=name)
    ax.set_xscale("log", base=2)
    ax.set_title("multiplier distribution")
    ax.set_xlabel("multiplier")
    ax.set_ylabel("share of hands")
    ax.legend()
    fig.tight_layout()
    path = folder / "multiplier_distribution.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    return written
