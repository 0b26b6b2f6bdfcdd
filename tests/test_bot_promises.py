"""Each bot level does what the README says it does: one test per promise.

``standard``: bids on control cards, leads low (the lowest card, in the play that sheds the
most cards with it), answers with the smallest play that beats, keeps its bombs (never spent as
plain plays) for an opponent about to go out. ``medium``: bids by expected score under the
ruleset's stakes, and weighs what a bomb or a spring pays. ``extreme``: plays better than
``medium``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from ddz_rules import cards, load
from ddz_rules.bots import make_bot
from ddz_rules.bots.base import control_points
from ddz_rules.bots.standard import BID_AT, StandardBot
from ddz_rules.compare.runner import Task, play_task
from ddz_rules.game import PASS, Hand, Phase

from .positions import load_positions, play_view

STANDARD = load_positions("standard")


@pytest.mark.parametrize("position", STANDARD, ids=[p["promise"] for p in STANDARD])
def test_standard_keeps_its_promise(position: dict[str, Any]) -> None:
    ruleset = load(position.get("ruleset", "classic"))
    view = play_view(ruleset, position["hand"], position["sizes"], position.get("to_beat"),
                     position.get("by"), position.get("landlord", 0))
    choice = StandardBot(ruleset).choose(view, random.Random(0))
    shown = choice if isinstance(choice, str) else cards.key_text(choice.key)
    assert shown == position["expect"]


def _lead_types(level: str, deals: int) -> Counter[str]:
    ruleset = load("classic")
    bot = make_bot(level, ruleset)
    led: Counter[str] = Counter()
    for seed in range(deals):
        hand = Hand.new(ruleset, seed)
        rng = random.Random(seed)
        while hand.result is None:
            assert hand.to_act is not None
            view = hand.view(hand.to_act)
            choice = bot.choose(view, rng)
            if view.phase is Phase.PLAY and view.to_beat is None:
                assert not isinstance(choice, str)
                led[choice.reading.type] += 1
            hand.apply(choice)
    return led


def test_standard_leads_chains_and_never_a_four_with_two() -> None:
    """Over whole hands, leading low leads chains (a chain holding the lowest card sheds the
    most cards with it), and keeping bombs never leads four of a rank with kickers."""
    led = _lead_types("standard", 60)
    chains = sum(led[t] for t in ("straight", "pair_straight", "airplane", "airplane_singles",
                                  "airplane_pairs"))
    assert chains >= 0.08 * sum(led.values())
    assert led["four_two_singles"] == led["four_two_pairs"] == 0


def test_standard_bids_on_control_cards() -> None:
    """Its word follows the hand's control points: the more it holds, the higher it bids."""
    ruleset = load("classic")
    bot = StandardBot(ruleset)
    checked = 0
    for seed in range(60):
        hand = Hand.new(ruleset, seed)
        view = hand.view(hand.to_act)  # the first bidder: every bid is open
        points = control_points(cards.unpack(view.hand))
        wanted = sum(1 for t in BID_AT if points >= t)
        assert bot.choose(view, random.Random(0)) == (str(wanted) if wanted else PASS)
        checked += 1
    assert checked == 60


def _landlord_scores(ruleset_id: str, deals: int, **seats: str) -> list[int]:
    """The landlord's score on hands 0..deals-1 of seed 7, ``medium`` bidding everywhere and
    the landlord and peasants played by the levels ``seats`` names (``medium`` by default)."""
    tasks = [Task(ruleset_id, "medium", 7, i, **seats) for i in range(deals)]
    return [t["scores"][t["landlord"]] for t in map(play_task, tasks)]


@pytest.mark.parametrize(("ruleset_id", "deals"), [("classic", 120), ("two-player", 160)])
def test_extreme_plays_the_landlord_better_than_medium(ruleset_id: str, deals: int) -> None:
    """``extreme`` is the strongest level: on the same deals and auctions, the landlord it
    plays scores more than the one ``medium`` plays (about +1.9 points a classic deal and +0.8
    a two-player deal over 600 in ``benchmarks/bench_extreme.py``; here fewer, seeded)."""
    baseline = _landlord_scores(ruleset_id, deals)
    searched = _landlord_scores(ruleset_id, deals, landlord_bot="extreme")
    gains = [a - b for a, b in zip(searched, baseline, strict=True)]
    assert sum(gains) > 0
    assert sum(g > 0 for g in gains) > sum(g < 0 for g in gains)
