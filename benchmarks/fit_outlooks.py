#!/usr/bin/env python3
"""Fit the outlooks that ship with ddz-rules (``ddz_rules/bots/outlooks/``).

Usage::

    python benchmarks/fit_outlooks.py [RULESET ...]

Fits every bundled ruleset's outlook (or those named) with ``ddz_rules.bots.outlook.fit`` and
writes it where ``medium`` looks first; run it after changing a bundled ruleset's rules, the
features or the play ``medium`` simulates (then raise ``outlook.MODEL_VERSION``).
``tests/test_stakes.py`` fails while a shipped outlook is stale. Each line gives the
ruleset, the hands fitted, the held-out Brier score and the largest gap between a fifth's mean
prediction and its observed win rate.
"""

from __future__ import annotations

import sys
import time

from ddz_rules.bots.outlook import write_bundled

if __name__ == "__main__":
    started = time.perf_counter()
    for line in write_bundled(sys.argv[1:]):
        print(line, flush=True)
    print(f"{time.perf_counter() - started:.0f} s")
