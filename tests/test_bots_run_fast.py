"""Bots in Run Fast: no landlord, every player for himself, must beat, the last-card warning."""

from __future__ import annotations

import random

import pytest

from ddz_rules import load
from ddz_rules.bots import make_bot
from ddz_rules.bots.base import lets_out
from ddz_rules.bots.belief import Belief
from ddz_rules.bots.medium import MediumBot
from ddz_rules.bots.worlds import replayed, sample_deal
from ddz_rules.compare.duels import duel, seating_scores
from ddz_rules.errors import IllegalActionError
from ddz_rules.game import Hand

from .positions import advanced

#: Deals (each played once per seat) in the duel below: medium leads random by about 14 points
#: a hand with a standard error near 1.4 at this size (ten standard errors).
DEALS = 40


@pytest.mark.parametrize("ruleset_id", ["run-fast", "run-fast-15"])
def test_medium_outscores_random_over_paired_deals_with_the_seats_rotated(ruleset_id: str
                                                                          ) -> None:
    result = duel(load(ruleset_id), "medium", "random", DEALS, seed=0)
    assert len(result.scores) == DEALS
    assert result.lead.low > 0 and result.score.low > 0


def test_a_duel_plays_each_deal_once_per_seat_and_its_scores_sum_to_zero() -> None:
    played = seating_scores(load("run-fast"), "medium", "random", seed=0, index=3)
    assert len(played) == 3
    assert all(sum(scores) == 0 for scores in played)


@pytest.mark.parametrize("level", ["standard", "medium"])
def test_no_low_single_to_a_next_opponent_holding_one_card_while_another_play_will_do(
        level: str) -> None:
    """Under run-fast-15 (liability, no forced highest single) a bot whose next player holds
    one card never plays him a single below its own highest rank if it has another play."""
    ruleset = load("run-fast-15")
    bot = make_bot(level, ruleset)
    tempted = 0
    for seed in range(80):
        hand = Hand.new(ruleset, seed)
        rng = random.Random(seed)
        while hand.result is None:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            choice = bot.choose(view, rng)
            plays = [a for a in view.legal if not isinstance(a, str)]
            risky = [p for p in plays if lets_out(view, ruleset, p)]
            if risky and len(risky) < len(plays):
                tempted += 1
                assert isinstance(choice, str) or not lets_out(view, ruleset, choice)
            hand.apply(choice)
    assert tempted > 0


@pytest.mark.parametrize("ruleset_id", ["run-fast", "run-fast-15"])
def test_a_sampled_world_the_referee_accepts_replays_to_the_same_view(ruleset_id: str) -> None:
    """A world is drawn without the duties (a pass under must-beat says its player held no
    answer), so the referee may refuse the story in it; one it accepts, set-aside cards and
    the lead card included, gives the seat the very view it has."""
    accepted = 0
    for seed in range(30):
        hand = advanced(ruleset_id, seed, seed % 12)
        if hand.result is not None:
            continue
        assert hand.to_act is not None
        view = hand.view(hand.to_act)
        for draw in range(20):
            world = sample_deal(view, hand.ruleset, random.Random(draw))
            assert sum(world.hands) + world.undealt == hand.ruleset.deck_key
            try:
                replay = replayed(view, hand.ruleset, world, hand.table)
            except IllegalActionError:
                continue
            assert replay.view(hand.to_act) == view
            accepted += 1
            break
    assert accepted >= 25


def test_the_belief_keeps_worlds_that_explain_every_pass_under_must_beat() -> None:
    """Every world the belief holds agrees with the view, whatever the duties refused."""
    ruleset = load("run-fast")
    belief = Belief(ruleset, Hand.new(ruleset, 0).table, MediumBot(ruleset))
    checked = 0
    for seed in range(6):
        hand = advanced("run-fast", seed, 14)
        if hand.result is not None:
            continue
        assert hand.to_act is not None
        view = hand.view(hand.to_act)
        for world in belief.worlds(view):
            assert world.view(view.seat) == view
            checked += 1
    assert checked > 0


def test_a_run_fast_comparison_row_is_valid_and_its_table_shows_no_landlord_measure() -> None:
    """A hand without a landlord gives a results row the schema takes (winner "first_out",
    cards left, shut-outs, bombs played, and the liable seat where liability applies), and a
    report that leaves out every measure of the landlord's game."""
    from ddz_rules.compare.report import render_table, summarize
    from ddz_rules.compare.results import TRACES
    from ddz_rules.compare.run import RunSpec, execute

    spec = RunSpec(("run-fast", "run-fast-15"), 12, "standard", 0)
    results = execute(spec)
    for ruleset_id, rows in results.items():
        for row in rows:
            assert next(iter(TRACES.validator.iter_errors(row)), None) is None
            assert row["winner"] == "first_out" and row["cards_left"][row["first_out"]] == 0
            assert ("liable" in row) == (ruleset_id == "run-fast-15")
    summary = summarize(spec.header()["run"], results, spec.loaded())
    table = render_table(summary)
    for shown in ("cards left per loser", "shut-out rate", "first player out's score",
                  "first leader goes out first", "bombs per hand"):
        assert shown in table
    for hidden in ("landlord", "peasant", "multiplier", "spring", "redeals", "winning bid"):
        assert hidden not in table.split("mean [95% interval]")[0]
