"""Shared fixtures and the Hypothesis profiles.

The ``ci`` profile (the default) keeps the whole suite within minutes on two cores; set
``HYPOTHESIS_PROFILE=thorough`` for a long local run.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from ddz_rules import PlayTable, bundled_ids, compile_table, load

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Outlooks that ``medium`` fits for rulesets that are not bundled are kept here for the
# session, never in the user's cache: a test run fits them from scratch.
os.environ["DDZ_CACHE_DIR"] = tempfile.mkdtemp(prefix="ddz-test-cache-")

FIXTURES = Path(__file__).parent / "fixtures"
RULESETS = bundled_ids()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Make pytest's last garbage collections cheap.

    A test process meets over a hundred rulesets, and the caches of compiled tables (and of
    what holds them, as the environments' action spaces) keep millions of their plays and
    readings. pytest collects five times as it ends, which over that heap outlasted the five
    seconds pytest-xdist allows a worker to finish before interrupting it (seen as a
    ``KeyboardInterrupt`` ignored in Hypothesis's garbage-collection callback). So the
    package's caches are emptied, one collection finds what garbage there is (pytest's hook
    for errors in finalizers still listens), and what survives it, all live, is frozen out of
    the collections that follow; garbage made after this is still collected by them."""
    for name, module in list(sys.modules.items()):
        if name == "ddz_rules" or name.startswith("ddz_rules."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
    gc.collect()
    gc.freeze()


@pytest.fixture(params=RULESETS)
def table(request: pytest.FixtureRequest) -> PlayTable:
    """The compiled table of each bundled ruleset in turn."""
    return compile_table(load(request.param))


def table_of(ruleset_id: str) -> PlayTable:
    return compile_table(load(ruleset_id))


def local_cluster(**options: Any) -> Any:
    """An in-process Dask ``LocalCluster`` for the tests that run on one.

    Earlier tests leave threads behind on purpose: a client connecting to a silent server or
    to no server at all cannot be cancelled, so ``ddz_rules.compare.executors.connect`` gives
    up on it and lets its daemon thread run out. While such threads still run, a new cluster's
    event-loop thread can miss distributed's fixed ten-second start (``LoopRunner`` raises a
    bare AssertionError). This waits, boundedly, for them to end, and tries a cluster whose
    loop did not start once more: the cluster is the tests' machinery, not what they test.
    """
    import gc
    import threading

    import distributed

    for thread in threading.enumerate():
        if thread.name == "ddz-dask-connect":
            thread.join(20)
    # A Dask object an earlier test left unreachable closes itself when collected; collected
    # inside the new cluster's start (a thread's start can trigger it), its close waits on the
    # lock that start holds, and both hang. Collect now, while no such lock is held.
    gc.collect()
    try:
        return distributed.LocalCluster(dashboard_address=None, processes=False, **options)
    except AssertionError:  # the loop thread missed its start; the cause is gone or not
        return distributed.LocalCluster(dashboard_address=None, processes=False, **options)
