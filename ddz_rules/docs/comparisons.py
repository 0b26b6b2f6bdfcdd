"""The Comparisons page: every measure of ``ddz compare`` defined, and a standard run shown.

The run is played at build time (deterministic from its seed), so its tables and charts are
what the command on the page prints.
"""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from ddz_rules.compare import report
from ddz_rules.compare.measures import MATCH_MEASURES, MEASURES
from ddz_rules.compare.run import RunSpec, execute
from ddz_rules.docs.render import code_nowrap, number, plural, table, wide

#: The standard comparison the page shows: small enough to play while the site is built.
STANDARD = RunSpec(("classic", "open-auction", "two-player"), hands=400, bots="medium", seed=1)
#: The larger run the README shows (its first command; seed 0 is the default there), and the
#: worker processes it names, which change nothing in the results.
README_RUN = RunSpec(STANDARD.rulesets, hands=4000, bots="medium", seed=0)
README_WORKERS = 2
CHARTS = ("differences", "landlord_win", "landlord_score", "multiplier", "decisions",
          "lead_changes", "multiplier_distribution")


def command(spec: RunSpec = STANDARD, workers: int = 1) -> str:
    """The ``ddz compare`` command that plays ``spec``."""
    return (f"ddz compare {' '.join(spec.rulesets)} --hands {spec.hands} --bots {spec.bots} "
            f"--seed {spec.seed}" + (f" --workers {workers}" if workers > 1 else ""))


@cache
def standard_summary() -> dict[str, Any]:
    """The standard run's summary (played once per process)."""
    return report.summarize(STANDARD.header()["run"], execute(STANDARD), STANDARD.loaded())


@cache
def charts() -> dict[str, bytes]:
    """The standard run's charts, as PNG bytes by file name."""
    with tempfile.TemporaryDirectory() as folder:
        paths = report.plots(standard_summary(), Path(folder))
        return {p.name: p.read_bytes() for p in paths}


def cell(estimate: dict[str, Any] | None, proportion: bool) -> str:
    """``mean [low, high]`` as the page shows it (percent for proportions)."""
    if estimate is None:
        return "does not apply"
    scale, unit = (100.0, "%") if proportion else (1.0, "")
    return (f"{estimate['mean'] * scale:.2f}{unit} "
            f"[{estimate['low'] * scale:.2f}, {estimate['high'] * scale:.2f}]")


def comparisons_page() -> str:
    summary = standard_summary()
    names = list(summary["rulesets"])
    definitions = table(["measure", "key", "per hand"],
                        [[m.label, code_nowrap(m.key), m.definition] for m in MEASURES])
    results = table(["measure", *names],
                    [[m.label, *(cell(summary["rulesets"][n].get(m.key), m.proportion)
                                 for n in names)] for m in MEASURES])
    diffs = summary["differences"]
    differences = table(
        ["measure", *(f"{d['a']} - {d['b']} ({'paired' if d['paired'] else 'unpaired'})"
                      for d in diffs)],
        [[m.label, *(cell(d.get(m.key), m.proportion) for d in diffs)] for m in MEASURES])
    gallery = "\n\n".join(f"![{name}](charts/{name}.png)" for name in CHARTS)
    match_definitions = table(["measure", "key", "per match"],
                              [[m.label, code_nowrap(m.key), m.definition]
                               for m in MATCH_MEASURES])
    return f"""# Comparisons

`ddz compare` plays many hands of each ruleset with computer players and reports what the rules
change. Every measure below is computed per hand from the hand's log, then averaged over the
run with a 95% interval: Wilson's interval for a share of hands, the normal approximation for a
mean (taken on a log or logit scale for a measure bounded on one side or both, so that no
interval reaches outside what the measure can be).

Rulesets that share a deck play the same seeded deals: hand *i* of every such ruleset starts
from the same shuffle, so their difference is measured hand by hand (paired), which removes
most of the luck of the deal. Rulesets with different decks (the two-player game has no 3s or
4s) are compared by Welch's interval instead, and the report says which is which.

## The measures

{wide(definitions, "wide-table measures")}

A side's distance from its goal is the cards its best-placed player still has to shed (to zero,
or to the advantage line for the two-player peasant). After each play the side with the smaller
distance leads; a tie leaves the lead where it was. *Lead changes* counts how often the leader
changes during the play; the *decisive point* is how far into the hand (as a fraction of the
plays) the eventual winner took the lead for the last time.

## A standard run

```console
$ {command()}
```

{plural(len(names), "ruleset")}, {plural(STANDARD.played, "hand")} each (seed {STANDARD.seed}),
every seat played by the `{STANDARD.bots}` bot. This run is played while this site is built, so it
is kept small. The README shows a run ten times larger, {number(README_RUN.played)} hands of each
ruleset with seed {README_RUN.seed}:

```console
$ {command(README_RUN, README_WORKERS)}
```

The two runs deal different hands, so their figures differ: that is the luck of the deal, and it
stays within their intervals (on every measure both show, this run's interval and the README's
overlap).
This run's intervals are about three times wider than the README's, since ten times fewer hands
widen an interval by about √10. Each command above prints exactly its run's figures, whatever
the machine and however many `--workers` play it: results depend only on the seed.

Mean and [95% interval] per ruleset, this page's run:

{wide(results)}

Differences against `{summary['differences'][0]['b']}` (mean and [95% interval]; an interval
that excludes 0 is a difference the run detects):

{wide(differences)}

{gallery}

## Whole matches

`ddz compare RULESET ... --match-levels STRONGER,WEAKER --matches M` plays M whole matches of
each ruleset under its own match rules (`match.length`, `match.ties`, ...) instead of single
hands: the stronger level sits in one seat, the weaker in every other, and the stronger seat
moves round the table from match to match. Rulesets that share a deck play the same deals in
match *i*, so their differences are paired match by match. It answers a designer's question
that single hands cannot: does this variant let the better player win a match more often, or
is it mostly luck?

{wide(match_definitions, "wide-table measures")}
"""
