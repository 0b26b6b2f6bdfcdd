"""A variant states only what changes, and what it states is what runs.

A rule point in a variant replaces the base's whole (its value is never merged into the
base's), so prose that leaves a rule out, as turned-card's "the text has no spring" does, is
what the referee runs. Over every bundled ruleset: each multiplier event it names can happen
in its hands, and an event it does not name never does.
"""

from __future__ import annotations

import pytest

from ddz_rules import bundled_ids, load
from ddz_rules.ruleset import possible_events
from ddz_rules.scoring import SidePlays, closing_events
from ddz_rules.simulate import random_hands


def test_a_variant_that_leaves_out_the_spring_has_no_spring() -> None:
    turned = load("turned-card")
    assert "spring" not in turned.factors
    # a landlord spring: no event
    assert closing_events(turned, True, SidePlays(landlord_side=5, opponents=0)) == []
    assert [e.name for e in closing_events(turned, False, SidePlays(1, 7))] == ["anti_spring"]


def test_a_rule_point_in_a_variant_replaces_the_bases_whole() -> None:
    for ruleset_id in bundled_ids():
        ruleset = load(ruleset_id)
        overlay_scoring = ruleset.overlay.get("scoring", {})
        if "multipliers" in overlay_scoring:
            stated = overlay_scoring["multipliers"]["value"]
            assert dict(ruleset.multipliers) == stated, ruleset_id


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_every_named_multiplier_event_can_happen(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    assert set(ruleset.factors) <= possible_events(ruleset.combinations,
                                                   ruleset.auction_family, ruleset.copies,
                                                   ruleset.hand_size)


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_an_event_the_ruleset_does_not_name_never_happens(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    seen: set[str] = set()
    for hand in random_hands(ruleset, 150, seed=11):
        assert hand.result is not None
        seen |= {e.name for e in hand.result.events}
    assert seen <= set(ruleset.factors)
    assert seen & {"bomb", "rocket"}, "the sample should see some play-class events"
