#!/usr/bin/env python3
"""Fit the outlooks that ship with ddz-rules (``ddz_rules/bots/outlooks/``).

Usage::

    python benchmarks/fit_outlooks.py [RULESET ...]

Fits every bundled ruleset's outlook (or those named) with ``medium``'s own play
(``ddz_rules.bots.medium.fit_outlook``, which drives ``ddz_rules.bots.fitting.fit``) and writes
it where ``medium`` looks first; run it after changing a bundled ruleset's rules, the features
or the play ``medium`` simulates (then raise ``outlook.MODEL_VERSION``).
``tests/test_stakes.py`` fails while a shipped outlook is stale. Each line gives the
ruleset, the hands fitted, the held-out Brier score and the largest gap between a fifth's mean
prediction and its observed win rate.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from ddz_rules.bots.medium import fit_outlook
from ddz_rules.bots.outlook import BUNDLED, needs_outlook, write
from ddz_rules.ruleset import bundled_ids, load_bundled


def write_bundled(ids: Sequence[str] = ()) -> list[str]:
    """Fit the outlook of each bundled ruleset (or of ``ids``) and write it to ``BUNDLED``;
    the lines say what was fitted and how well it is calibrated."""
    lines = []
    for ruleset_id in ids or bundled_ids():
        ruleset = load_bundled(ruleset_id)
        if not needs_outlook(ruleset):
            (BUNDLED / f"{ruleset_id}.json").unlink(missing_ok=True)
            lines.append(f"{ruleset_id}: no auction and no partner call, no outlook needed")
            continue
        found = fit_outlook(ruleset)
        write(BUNDLED / f"{ruleset_id}.json", found)
        worst = max(abs(p - o) for p, o, _ in found.calibration)
        lines.append(f"{ruleset_id}: {found.hands} hands, Brier {found.brier:.3f}, held-out "
                     f"fifths off by at most {worst:.3f}")
    return lines


if __name__ == "__main__":
    started = time.perf_counter()
    for line in write_bundled(sys.argv[1:]):
        print(line, flush=True)
    print(f"{time.perf_counter() - started:.0f} s")
