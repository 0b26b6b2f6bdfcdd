"""Belief: worlds that agree with the view, explain the others' actions, and depend on the view
alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import load
from ddz_rules.bots.belief import Belief
from ddz_rules.bots.medium import MediumBot
from ddz_rules.bots.worlds import replayed, sample_deal, story_of
from ddz_rules.game import Hand, Phase, View
from ddz_rules.table import compile_table

SMALL = {"particles": 4, "draws": 24, "moves": 2}


def _belief(ruleset_id: str, **size: int) -> Belief:
    ruleset = load(ruleset_id)
    return Belief(ruleset, compile_table(ruleset), MediumBot(ruleset), **(size or SMALL))


def _decisions(ruleset_id: str, seed: int) -> Iterator[View]:
    """Every play decision of a hand played by ``medium`` in every seat (a deal nobody takes
    is dealt again, from the next seed, up to 64 times)."""
    ruleset = load(ruleset_id)
    bot = MediumBot(ruleset)
    for attempt in range(64):
        hand = Hand.new(ruleset, seed * 64 + attempt, dealer=seed % ruleset.players)
        rng = random.Random(seed)
        while hand.phase is Phase.AUCTION:
            assert hand.to_act is not None
            hand.apply(bot.choose(hand.view(hand.to_act), rng))
        if hand.result is None:
            break
    while hand.result is None:
        assert hand.to_act is not None
        view = hand.view(hand.to_act)
        if view.phase is Phase.PLAY:
            yield view
        hand.apply(bot.choose(view, rng))


@pytest.mark.parametrize("ruleset_id", ["classic", "two-player", "marked-card"])
@given(seed=st.integers(0, 2**31 - 1), decision=st.integers(0, 30))
@settings(max_examples=8)
def test_every_believed_world_replays_to_the_same_view(ruleset_id: str, seed: int,
                                                       decision: int) -> None:
    views = list(_decisions(ruleset_id, seed))
    if not views:
        return
    view = views[min(decision, len(views) - 1)]
    worlds = _belief(ruleset_id).worlds(view)
    assert len(worlds) == SMALL["particles"]
    for world in worlds:
        assert world.view(view.seat) == view


@pytest.mark.parametrize("ruleset_id", ["classic", "two-player"])
def test_a_belief_built_decision_by_decision_equals_one_built_at_once(ruleset_id: str) -> None:
    """The memo of each seat's last belief only saves time: a belief that has followed the
    hand and a fresh one asked only about the last decision believe the same deals."""
    for seed in range(3):
        views = list(_decisions(ruleset_id, seed))
        seat = views[-1].seat
        mine = [v for v in views if v.seat == seat]
        following = _belief(ruleset_id)
        for view in mine:
            followed = following.worlds(view)
        fresh = _belief(ruleset_id).worlds(mine[-1])
        assert [w.deal for w in followed] == [w.deal for w in fresh]


def test_a_belief_does_not_depend_on_an_earlier_hand() -> None:
    belief = _belief("classic")
    first = list(_decisions("classic", 11))
    second = list(_decisions("classic", 12))
    belief.worlds(first[-1])
    after_other_hand = belief.worlds(second[-1])
    assert [w.deal for w in after_other_hand] == \
        [w.deal for w in _belief("classic").worlds(second[-1])]


def test_believed_worlds_explain_the_others_better_than_uniform_ones() -> None:
    """Under ``medium`` as the model, believed deals account for more of the other seats'
    auction words and plays than deals drawn uniformly from what the view shows."""
    ruleset = load("classic")
    table = compile_table(ruleset)
    model = MediumBot(ruleset)
    belief = Belief(ruleset, table, model, particles=8, draws=80, moves=4)

    def misses(view: View, hand: Hand) -> int:
        replay = Hand(ruleset, hand.deal, table)
        count = 0
        for actor, action in story_of(view):
            if actor != view.seat and model.choose(replay.view(actor), random.Random(0)) != action:
                count += 1
            replay.apply(action)
        return count

    believed = uniform = 0
    for seed in range(6):
        view = list(_decisions("classic", seed))[6]
        believed += sum(misses(view, w) for w in belief.worlds(view))
        rng = random.Random(seed)
        uniform += sum(misses(view, replayed(view, ruleset, sample_deal(view, ruleset, rng), table))
                       for _ in range(8))
    assert believed < uniform / 2
