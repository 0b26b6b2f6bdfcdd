"""A variant states only what changes, and what it states is what runs.

A rule point in a variant replaces the base's whole (its value is never merged into the
base's), so prose that leaves a rule out, as turned-card's "the text has no spring" does, is
what the referee runs. Over every bundled ruleset: each multiplier event it names can happen
in its hands, and an event it does not name never does.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddz_rules import bundled_ids, compile_table, load
from ddz_rules.cli import main
from ddz_rules.docs.book import lookup
from ddz_rules.game import Hand
from ddz_rules.match import MatchHand, MatchState
from ddz_rules.rulepoints import differences
from ddz_rules.ruleset import INERT, Ruleset, inert_points, possible_events, stated_inert
from ddz_rules.ruleset import schema as ruleset_schema
from ddz_rules.scoring import Result, SidePlays, closing_events
from ddz_rules.simulate import hand_seed, play_random, random_hands

from .conftest import FIXTURES


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
    paid: set[str] = set()
    for hand in random_hands(ruleset, 150, seed=11):
        assert hand.result is not None
        seen |= {e.name for e in hand.result.events}
        paid |= {p.name for p in hand.result.bombs_paid}
    assert seen <= set(ruleset.factors)
    assert paid <= {name for name, _ in ruleset.bomb_payments}
    if ruleset.has_landlord:
        assert seen & {"bomb", "rocket"}, "the sample should see some play-class events"
    else:  # no stake to multiply: a bomb is paid at once instead (scoring.bomb_payments)
        assert not seen, "a hand without a landlord has no multiplier event"
        assert "bomb" in paid, "the sample should see some bombs paid at once"


# --------------------------------------------------------------------------- inert points


def _other_value(key: str, value: Any) -> Any:
    """A value of rule point ``key`` other than ``value`` that the schema allows; ``...``
    where it allows only one (``scoring.spring``: a ruleset without a spring factor has no
    spring, as the first test of this file shows)."""
    section, name = key.split(".")
    node = ruleset_schema()["properties"][section].get("properties", {}).get(name, {})
    enum = node.get("properties", {}).get("value", {}).get("enum")
    if enum:
        return next((v for v in enum if v != value), ...)
    if isinstance(value, bool):
        return not value
    if isinstance(value, list):
        return [1, 2] if value != [1, 2] else [1]
    if value is None:
        return 1
    assert isinstance(value, int), (key, value)
    return value + 1


def _played(ruleset: Ruleset, seed: int) -> tuple[list[tuple[str, ...]], Result | None]:
    """A hand played by random seats: every list of legal actions met, and the result."""
    hand = Hand.new(ruleset, seed, seed % ruleset.players)
    rng = random.Random(seed)
    offered = []
    while hand.result is None:
        legal = tuple(hand.legal_actions())
        offered.append(legal)
        hand.apply(rng.choice(legal))
    return offered, hand.result


def _match(ruleset: Ruleset, seed: int) -> tuple[tuple[int, ...], list[MatchHand]]:
    """A match of random hands, thrown-in deals included: its totals and its deals."""
    state = MatchState(ruleset)
    index = 0
    while not state.over and index < 200:
        hand = play_random(ruleset, hand_seed(seed, index), state.dealer)
        index += 1
        assert hand.result is not None
        state.add(hand.result.scores, side_winners_of(hand), hand.result.redeal)
    return state.totals, state.hands


def side_winners_of(hand: Hand) -> tuple[int, ...]:
    result = hand.result
    assert result is not None
    return tuple(s for s, score in enumerate(result.scores) if score > 0)


INERT_CASES = [(rid, key) for rid in bundled_ids() for key in inert_points(load(rid))]
#: The cases whose point the schema lets take another value.
CHANGEABLE = [(rid, key) for rid, key in INERT_CASES
              if _other_value(key, lookup(load(rid).data, tuple(key.split(".")))["value"])
              is not ...]


def test_every_inert_point_has_a_row_and_bundled_rulesets_have_some() -> None:
    assert {row.point for row in INERT} >= {key for _, key in INERT_CASES}
    assert ("no-kitty", "deal.kitty_shown") in INERT_CASES
    assert ("call-and-grab", "auction.bids") in INERT_CASES
    assert ("two-player", "match.redeal") in INERT_CASES
    assert ("turned-card", "scoring.spring") in INERT_CASES
    assert len(CHANGEABLE) >= len(INERT_CASES) - 1


@pytest.mark.parametrize(("ruleset_id", "key"), CHANGEABLE)
def test_changing_an_inert_point_changes_nothing_the_referee_runs(
        ruleset_id: str, key: str, tmp_path: Path) -> None:
    """The table's condition is right: with the point's value changed, the play table, a few
    seeded hands (every offer of legal actions, and the result) and a seeded match are the
    same."""
    ruleset = load(ruleset_id)
    section, name = key.split(".")
    node = ruleset.data[section][name]
    changed = {"value": _other_value(key, node["value"]),
               "text": "The value is changed, to no effect."}
    overlay = {"id": "changed", "extends": ruleset_id, "title": "t", "summary": "s",
               "source": {"text": "x", "about": "y"}, section: {name: changed}}
    path = tmp_path / "changed.yaml"
    path.write_text(yaml.safe_dump(overlay), encoding="utf-8")
    other = load(str(path))
    assert lookup(other.data, (section, name)) == changed
    assert key in inert_points(other), key  # still inert: the condition is on other values
    if section == "kickers":
        a, b = compile_table(ruleset), compile_table(other)
        assert {k: [r.short() for r in v] for k, v in a.plays.items()} == \
            {k: [r.short() for r in v] for k, v in b.plays.items()}
    for seed in range(4):
        assert _played(ruleset, seed) == _played(other, seed), (key, seed)
    assert _match(ruleset, 7) == _match(other, 7)


def test_a_file_that_states_an_inert_point_itself_is_refused_by_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text((FIXTURES / "inert_kitty_shown.yaml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"{path}:7: key 'deal.kitty_shown'" in err and "there is no kitty" in err


def test_no_bundled_file_states_an_inert_point_itself() -> None:
    for ruleset_id in bundled_ids():
        assert stated_inert(load(ruleset_id)) == [], ruleset_id


def test_ddz_diff_reports_no_difference_in_a_point_inert_on_both_sides() -> None:
    douzero, rlcard = load("douzero"), load("rlcard")
    assert "auction.all_pass" in inert_points(douzero)
    keys = [p.dotted for p in differences(douzero, rlcard)]
    assert "match.redeal" not in keys and "auction.bids" not in keys
    assert "kickers.max_copies_among_kickers" in keys  # a real difference still shows
