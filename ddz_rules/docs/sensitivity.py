"""The Sensitivity page: does a comparison see each rule of the auction and the scoring?

Shows the last run of ``benchmarks/bench_sensitivity.py`` (kept in
``benchmarks/sensitivity.json``; playing it takes minutes, too long for a site build): for each
one-change variant, the measure expected-score play should move, the direction argued in a
sentence before the run, the paired difference measured and the verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ddz_rules.docs.render import code, number, table, wide

RESULTS = Path("benchmarks") / "sensitivity.json"


def _difference(d: dict[str, Any]) -> str:
    return f"{d['mean']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"


def _value(v: dict[str, Any] | None) -> str:
    return "-" if v is None else f"{v['mean']:.3f}"


def sensitivity_page(root: Path) -> str:
    """The page, from the results file under ``root`` (the checkout)."""
    run = json.loads((root / RESULTS).read_text(encoding="utf-8"))
    rows = []
    notes = []
    for case in run["cases"]:
        values = case["values"]
        rows.append([
            code(case["variant"]), code(case["rule"]), case["measure"],
            "up" if case["direction"] > 0 else "down",
            f"{_value(values.get(case['base']))} → {_value(values.get(case['variant']))}",
            _difference(case["difference"]), f"**{case['verdict']}**"])
        why = f" *Measured:* {case['otherwise']}" if case["otherwise"] else ""
        notes.append(f"- **{case['variant']}** ({code(case['rule'])} changed from "
                     f"{code(case['base'])}): {case['argument']}{why}")
    command = (f"python benchmarks/bench_sensitivity.py --hands {run['hands']} "
               f"--seed {run['seed']} --bots {run['bots']}")
    return "\n".join([
        "# Sensitivity",
        "",
        "A comparison of two rulesets can only show a difference the bots act on. This suite "
        "checks that the comparison-grade bots (`medium`, the default of `ddz compare`) see "
        "each rule point of the auction and the scoring: for each, a variant that changes that "
        "one point, the measure that play to the stakes should move, and the direction, "
        "argued before the run. `medium` chooses every auction word by expected score under "
        "the ruleset (a fitted chance of winning and the stake each word leads to) and "
        "weighs in its play what a bomb or a spring pays; see `ddz_rules/bots/stakes.py` "
        "and `ddz_rules/bots/outlook.py`.",
        "",
        f"Each row is `ddz compare BASE VARIANT --hands {number(run['hands'])} --bots "
        f"{run['bots']} --seed {run['seed']}`, paired hand by hand on the same deals; the "
        "difference is variant minus base with its 95% interval. **moved as argued**: the "
        "interval lies on the argued side of 0; **did not move**: it contains 0; **moved the "
        "other way**: it lies on the other side, and the argument was wrong.",
        "",
        wide(table(["variant", "rule changed", "measure", "argued", "base → variant",
                    "difference", "verdict"], rows)),
        "",
        "Why each should move:",
        "",
        *notes,
        "",
        f"Run with `{command}` on {run['when']} (checkout `{run['commit']}`); the variants are "
        "the files of `benchmarks/sensitivity/`.",
        "",
    ])
