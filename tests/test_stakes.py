"""Bots that play to the stakes: expected-score auction words from a fitted outlook, and play
that weighs what a bomb or a spring pays (``ddz_rules.bots.stakes``, ``bots.outlook``)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from ddz_rules import load
from ddz_rules.bots.medium import MediumBot, fit_outlook
from ddz_rules.bots.outlook import (
    BUNDLED,
    FIT_HANDS,
    Outlook,
    Terms,
    _read,
    features,
    needs_outlook,
    outlook,
    outlook_key,
    signals,
    write,
)
from ddz_rules.bots.stakes import Judge
from ddz_rules.game import PASS, Hand, Phase
from ddz_rules.ruleset import bundled_ids

from .conftest import FIXTURES
from .positions import play_view

SENSITIVITY = Path(__file__).parent.parent / "benchmarks" / "sensitivity"


def _auction_words(ruleset_id: str, deals: int) -> list[str]:
    """Every auction word medium says over ``deals`` deals (each seat medium)."""
    ruleset = load(ruleset_id)
    bot = MediumBot(ruleset)
    words = []
    for seed in range(deals):
        hand = Hand.new(ruleset, seed, dealer=seed % ruleset.players)
        while hand.phase is Phase.AUCTION:
            assert hand.to_act is not None
            word = bot.choose(hand.view(hand.to_act), random.Random(seed))
            words.append(str(word))
            hand.apply(word)
    return words


def test_a_bid_that_does_not_raise_the_stake_is_the_top_bid() -> None:
    """scoring.base one: every bid is worth the same, so a seat that wants the hand bids 3,
    which also keeps the others from taking it."""
    words = _auction_words(str(SENSITIVITY / "classic-base-one.yaml"), 120)
    assert set(words) == {PASS, "3"}


def test_a_bid_that_is_the_base_is_graded_by_the_hand() -> None:
    """scoring.base bid: a hand expected to win more than it loses bids the top, one offered
    for though expected to lose bids the lowest stake."""
    bids = {w for w in _auction_words("classic", 200) if w.isdigit()}
    assert {"1", "3"} <= bids


def _robs(ruleset_id: str, deals: int) -> int:
    return _auction_words(ruleset_id, deals).count("rob")


def test_robs_follow_the_advantage_line() -> None:
    """ending.peasant_goal: with the advantage line a rob moves the peasant's finishing line
    against the robber; without it a rob only doubles the stake, so seats rob more."""
    assert _robs(str(SENSITIVITY / "two-player-empty-hand.yaml"), 150) > _robs("two-player", 150)


def test_a_words_value_is_its_mean_score() -> None:
    """Under classic a landlord at bid 2 who wins with 0.75 and never multiplies scores +4 or
    -4, a mean of 2; each peasant then scores -2 or +2, a mean of -1."""
    ruleset = load("classic")
    flat = dataclasses.replace(outlook(ruleset, fit_outlook), won=((1, 1.0),), lost=((1, 1.0),))
    judge = Judge(ruleset, flat)
    assert judge.value(Terms(2), 0.75, True) == pytest.approx(2.0)
    assert judge.value(Terms(2), 0.75, False) == pytest.approx(-1.0)


def test_a_cap_bounds_the_stake_a_word_is_valued_at() -> None:
    """scoring.cap 8: a bid of 3 multiplied by 8 is worth 8, not 24."""
    ruleset = load(str(FIXTURES / "variants" / "capped.yaml"))
    eights = dataclasses.replace(outlook(load("classic"), fit_outlook), won=((8, 1.0),),
                                 lost=((8, 1.0),))
    assert Judge(ruleset, eights).value(Terms(3), 1.0, True) == pytest.approx(16.0)


def test_an_outlook_is_the_same_from_the_same_seed() -> None:
    ruleset = load("two-player")
    assert fit_outlook(ruleset, hands=24, seed=3) == fit_outlook(ruleset, hands=24, seed=3)


def test_a_kept_outlook_is_read_back_and_a_stale_one_is_not(tmp_path: Path) -> None:
    found = fit_outlook(load("two-player"), hands=24, seed=3)
    path = tmp_path / "outlook.json"
    write(path, found)
    assert _read(path, found.key) == found
    assert _read(path, "another-key") is None
    path.write_text("{not json")
    assert _read(path, found.key) is None


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_every_bundled_ruleset_ships_its_current_outlook(ruleset_id: str) -> None:
    """The outlooks in ddz_rules/bots/outlooks/ were fitted from the rules as they are now
    (after a rule change, `python benchmarks/fit_outlooks.py RULESET` fits it again); a
    ruleset with no auction and no partner call needs none."""
    ruleset = load(ruleset_id)
    kept = _read(BUNDLED / f"{ruleset_id}.json", outlook_key(ruleset))
    if not needs_outlook(ruleset):
        assert kept is None and not (BUNDLED / f"{ruleset_id}.json").exists()
        return
    assert kept is not None
    assert isinstance(kept, Outlook) and kept.hands == FIT_HANDS


#: The 99.9% point of the chi-square distribution with 5 degrees of freedom.
CHI2_5_999 = 20.52


@pytest.mark.parametrize("ruleset_id", ["classic", "two-player", "four-player", "laizi"])
def test_a_bundled_outlook_is_calibrated_on_held_out_hands(ruleset_id: str) -> None:
    """On the held-out quarter of the fit's hands, split in fifths by predicted chance, the
    observed win rates stay within chance of the predictions: the sum over the fifths of the
    squared gap in binomial standard errors is below the 99.9% point of chi-square(5)."""
    kept = outlook(load(ruleset_id), fit_outlook)
    assert len(kept.calibration) == 5
    gaps = sum((observed - predicted) ** 2 / (predicted * (1.0 - predicted) / hands)
               for predicted, observed, hands in kept.calibration)
    assert gaps < CHI2_5_999


def test_the_words_of_other_seats_are_read_as_signals() -> None:
    assert signals([(0, "1"), (1, "2"), (2, "pass")], {1, 2}) == (2 / 3, 0.0)
    assert signals([(1, "call"), (0, "rob"), (1, "rob")], {1}) == (0.0, 2.0)


def test_a_bomb_that_doubles_is_worth_more_to_the_side_ahead() -> None:
    classic = MediumBot(load("classic"))
    bomb = classic.table.play("5555")
    ahead = play_view(classic.ruleset, "55557", [5, 15, 15])
    behind = play_view(classic.ruleset, "55557JQKA2", [10, 3, 15])
    assert classic._doubling(ahead, bomb) == 1
    assert classic._doubling(behind, bomb) == -1
    single = MediumBot(load(str(SENSITIVITY / "classic-bombs-single.yaml")))
    assert single._doubling(ahead, bomb) == 0
    capped = MediumBot(load(str(FIXTURES / "variants" / "capped.yaml")))
    at_cap = dataclasses.replace(ahead, multiplier=8)
    assert capped._doubling(at_cap, bomb) == 0 and capped._doubling(ahead, bomb) == 1


def _spring_passes(ruleset_id: str, deals: int) -> tuple[int, int]:
    """(decisions a peasant faced with no peasant card played yet and a play in hand,
    of which passes) over ``deals`` hands played (deals thrown in not counted)."""
    ruleset = load(ruleset_id)
    bot = MediumBot(ruleset)
    faced = passed = played = seed = 0
    while played < deals:
        seed += 1
        hand = Hand.new(ruleset, seed, dealer=seed % 3)
        rng = random.Random(seed)
        while hand.result is None:
            assert hand.to_act is not None
            view = hand.view(hand.to_act)
            choice = bot.choose(view, rng)
            if (view.phase is Phase.PLAY and view.seat != view.landlord
                    and view.to_beat_seat == view.landlord and len(view.legal) > 1
                    and not any(p is not None and s != view.landlord for s, p in view.plays)):
                faced += 1
                passed += choice == PASS
            hand.apply(choice)
        played += not hand.result.redeal
    return faced, passed


def test_a_spring_is_at_stake_for_a_peasant_side_that_has_not_played() -> None:
    """scoring.multipliers: while no peasant has played a card and a spring would double the
    stake, medium counts it at stake for a peasant, never for the landlord, and no longer once
    a peasant has played or where a spring doubles nothing."""
    classic = MediumBot(load("classic"))
    first = play_view(classic.ruleset, "34567", [5, 17, 20], "9", by=0, landlord=0, seat=1)
    assert classic._spring_at_stake(first)
    assert not classic._spring_at_stake(dataclasses.replace(first, seat=0))
    answered = dataclasses.replace(first, plays=(*first.plays, (2, classic.table.play("T"))),
                                   side_plays=first.side_plays.counted(False))
    assert not classic._spring_at_stake(answered)
    free = MediumBot(load(str(SENSITIVITY / "classic-no-spring.yaml")))
    assert not free._spring_at_stake(first)


def test_a_peasant_plays_to_prevent_a_spring_that_would_double_the_stake() -> None:
    """Before any peasant card, a peasant who can answer the landlord does."""
    faced, passed = _spring_passes("classic", 60)
    assert faced > 20 and passed == 0


@pytest.mark.parametrize("ruleset_id", ["classic", "laizi", "no-kitty"])
def test_a_seat_offers_for_an_unclaimed_hand_among_the_best_one_in_players(
        ruleset_id: str) -> None:
    """Before anyone claims the hand, the first seat to speak claims it exactly when its chance
    as landlord reaches the ruleset's take_chance, however the hand's expected score falls:
    even where landlords mostly lose, about one dealt hand in three is offered for."""
    ruleset = load(ruleset_id)
    bot = MediumBot(ruleset)
    kept = bot.judge.outlook
    offered = 0
    for seed in range(150):
        hand = Hand.new(ruleset, seed, dealer=seed % 3)
        assert hand.to_act is not None
        view = hand.view(hand.to_act)
        chance = kept.landlord_chance(features(view.hand, view.wild), Terms())
        word = bot.choose(view, random.Random(seed))
        assert (word != PASS and word != "no-call") == (chance >= kept.take_chance)
        offered += word != PASS and word != "no-call"
    assert 25 <= offered <= 75


def test_hands_are_played_where_landlords_mostly_lose() -> None:
    """laizi: medium's landlords win about a third of its hands, yet most deals are taken."""
    words = _auction_words("laizi", 100)
    assert words.count(PASS) < 0.8 * len(words)
