"""Shared fixtures and the Hypothesis profiles.

The ``ci`` profile (the default) keeps the whole suite within minutes on two cores; set
``HYPOTHESIS_PROFILE=thorough`` for a long local run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from ddz_rules import PlayTable, bundled_ids, compile_table, load

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

FIXTURES = Path(__file__).parent / "fixtures"
RULESETS = bundled_ids()


@pytest.fixture(params=RULESETS)
def table(request: pytest.FixtureRequest) -> PlayTable:
    """The compiled table of each bundled ruleset in turn."""
    return compile_table(load(request.param))


def table_of(ruleset_id: str) -> PlayTable:
    return compile_table(load(ruleset_id))
