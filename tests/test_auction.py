"""Every auction family, with its edge cases: all pass, a top bid at once, the last rob, a pass
then a bid; and family none, where the deal names the landlord and nobody says a word."""

from __future__ import annotations

import json
import random

import pytest

from ddz_rules import RulesetError, cards, load
from ddz_rules.auction import Auction, AuctionOutcome, new_auction
from ddz_rules.bots import make_bot
from ddz_rules.cli import main
from ddz_rules.errors import IllegalActionError
from ddz_rules.game import PASS, Hand, KittyTaken, Phase, Said
from ddz_rules.records import read_record, replay, to_record
from ddz_rules.simulate import hand_seed, play_random

from .conftest import FIXTURES


def run(ruleset: str, words: list[str], first: int = 0) -> Auction:
    auction = new_auction(load(ruleset), first)
    for word in words:
        assert not auction.done, f"auction ended before {word!r}"
        auction.apply(word)
    return auction


def outcome(ruleset: str, words: list[str], first: int = 0) -> AuctionOutcome:
    auction = run(ruleset, words, first)
    assert auction.done
    return auction.outcome()


# ---------------------------------------------------------------- S0 single round (classic)


def test_s0_each_player_speaks_once_and_the_highest_bid_wins() -> None:
    assert outcome("classic", ["1", "pass", "2"], first=1) == AuctionOutcome(0, 2)


def test_s0_a_bid_of_3_ends_the_auction_at_once() -> None:
    assert outcome("classic", ["3"], first=2) == AuctionOutcome(2, 3)


def test_s0_all_pass_means_a_redeal() -> None:
    assert outcome("classic", ["pass", "pass", "pass"]).landlord is None


def test_s0_a_bid_must_be_strictly_higher() -> None:
    auction = run("classic", ["2"])
    assert auction.legal() == ["pass", "3"]
    with pytest.raises(IllegalActionError, match="may not say '2'"):
        auction.apply("2")
    assert auction.history == [(0, "2")]


def test_s0_nobody_speaks_twice() -> None:
    auction = run("classic", ["1", "pass", "pass"])
    assert auction.done and auction.outcome() == AuctionOutcome(0, 1)


# ---------------------------------------------------------------- S1 consecutive passes


def test_s1_a_pass_is_not_final_a_pass_then_a_bid() -> None:
    # seat 0 passes, seat 1 bids, seat 2 passes, seat 0 comes back and outbids
    assert outcome("marked-card", ["pass", "1", "pass", "2", "pass", "pass"]) == \
        AuctionOutcome(0, 2)


def test_s1_two_passes_in_a_row_after_a_bid_end_it() -> None:
    assert outcome("marked-card", ["1", "pass", "pass"]) == AuctionOutcome(0, 1)


def test_s1_all_pass_means_a_redeal() -> None:
    assert outcome("marked-card", ["pass", "pass", "pass"]).landlord is None


def test_s1_a_bid_of_3_ends_it() -> None:
    assert outcome("marked-card", ["pass", "3"]) == AuctionOutcome(1, 3)


# ---------------------------------------------------------------- S3 until two have passed


def test_s3_a_pass_is_final_and_passed_players_are_skipped() -> None:
    auction = run("open-auction", ["1", "pass", "2"])
    assert auction.to_act == 0  # seat 1 passed and is skipped
    auction.apply("pass")
    assert auction.done and auction.outcome() == AuctionOutcome(2, 2)


def test_s3_two_passes_before_any_bid_leave_the_last_player_to_choose() -> None:
    auction = run("open-auction", ["pass", "pass"])
    assert not auction.done and auction.to_act == 2
    auction.apply("1")
    assert auction.outcome() == AuctionOutcome(2, 1)


def test_s3_all_pass_means_a_redeal() -> None:
    assert outcome("open-auction", ["pass", "pass", "pass"]).landlord is None


def test_s3_bidding_goes_round_until_two_have_passed() -> None:
    assert outcome("open-auction", ["1", "2", "pass", "pass"]) == AuctionOutcome(1, 2)


# ---------------------------------------------------------------- S2 call and rob


def test_s2_a_call_then_no_rob_makes_the_caller_landlord() -> None:
    assert outcome("two-player", ["call", "no-rob"]) == AuctionOutcome(0, robs=0)


def test_s2_robs_alternate_and_the_first_refusal_decides() -> None:
    assert outcome("two-player", ["call", "rob", "rob", "no-rob"], first=1) == \
        AuctionOutcome(1, robs=2)


def test_s2_the_fourth_rob_wins_at_once() -> None:
    # seat 0 calls; seats 1, 0, 1, 0 rob in turn: seat 0's second rob is the fourth
    assert outcome("two-player", ["call", "rob", "rob", "rob", "rob"]) == \
        AuctionOutcome(0, robs=4)


def test_s2_the_second_player_may_call_if_the_first_does_not() -> None:
    assert outcome("two-player", ["no-call", "call", "no-rob"]) == AuctionOutcome(1)


def test_s2_if_nobody_calls_the_first_speaker_is_landlord_with_no_robs() -> None:
    assert outcome("two-player", ["no-call", "no-call"], first=1) == AuctionOutcome(1)


def test_s2_auction_words_are_the_familys_own() -> None:
    auction = run("two-player", [])
    with pytest.raises(IllegalActionError, match="legal: call, no-call"):
        auction.apply("2")


# ---------------------------------------------------------------- S3 variant call and grab


def test_call_grab_each_other_player_may_grab_then_the_caller_grabs_back() -> None:
    assert outcome("call-and-grab", ["call", "grab", "grab", "grab"]) == \
        AuctionOutcome(0, grabs=3)


def test_call_grab_no_grabs_leave_the_caller_landlord() -> None:
    assert outcome("call-and-grab", ["call", "no-grab", "no-grab"]) == AuctionOutcome(0)
    assert outcome("call-and-grab", ["no-call", "call", "no-grab"]) == AuctionOutcome(1)


def test_call_grab_a_player_who_declined_may_not_grab() -> None:
    # seat 0 said no-call: after seat 1's call only seat 2 is asked, then the caller
    auction = run("call-and-grab", ["no-call", "call"])
    assert auction.to_act == 2
    auction.apply("grab")
    assert auction.to_act == 1 and auction.legal() == ["grab", "no-grab"]
    auction.apply("grab")
    assert auction.done and auction.outcome() == AuctionOutcome(1, grabs=2)
    assert [seat for seat, word in auction.history if "grab" in word] == [2, 1]


def test_call_grab_the_last_players_call_cannot_be_grabbed() -> None:
    assert outcome("call-and-grab", ["no-call", "no-call", "call"], first=1) == \
        AuctionOutcome(0)


def test_call_grab_a_player_who_declined_is_never_offered_a_grab_in_random_hands() -> None:
    ruleset = load("call-and-grab")
    asked_after_a_decline = 0
    for seed in range(300):
        hand = Hand.new(ruleset, seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        declined: set[int] = set()
        while hand.phase is Phase.AUCTION:
            legal = hand.legal_actions()
            if "grab" in legal:
                assert hand.to_act not in declined, (seed, hand.auction.history)
                asked_after_a_decline += bool(declined)
            word = rng.choice(legal)
            assert isinstance(word, str)
            if word == "no-call":
                assert hand.to_act is not None
                declined.add(hand.to_act)
            hand.apply(word)
        grabs = [w for _, w in hand.auction.history].count("grab")
        assert grabs <= ruleset.players - len(declined) <= ruleset.max_grabs
    assert asked_after_a_decline > 20  # the seats that may grab after a no-call are asked


def test_call_grab_any_other_offers_the_grab_to_a_player_who_declined() -> None:
    ruleset = load(str(FIXTURES / "variants" / "grab-after-no-call.yaml"))
    auction = new_auction(ruleset, first=0)
    for word in ["no-call", "call", "no-grab"]:
        auction.apply(word)
    assert auction.to_act == 0 and auction.legal() == ["grab", "no-grab"]


def test_a_record_in_which_a_player_who_declined_grabs_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    record = FIXTURES / "records" / "bad" / "declined-player-grabs.json"
    assert main(["replay", str(record)]) == 1
    out = capsys.readouterr().out.strip()
    assert "\n" not in out and "action 3 ('grab')" in out
    assert "seat 1 said no-call, and a player who said no-call may not grab" in out


def test_call_grab_the_last_grabber_wins_when_the_caller_declines() -> None:
    assert outcome("call-and-grab", ["call", "no-grab", "grab", "no-grab"]) == \
        AuctionOutcome(2, grabs=1)


def test_call_grab_nobody_calling_means_a_redeal() -> None:
    assert outcome("call-and-grab", ["no-call", "no-call", "no-call"]).landlord is None


def test_an_ended_auction_takes_no_more_words() -> None:
    auction = run("classic", ["3"])
    with pytest.raises(IllegalActionError, match="over"):
        auction.apply("pass")


# ---------------------------------------------------------------- family none (RLCard, DouZero)

NO_AUCTION = FIXTURES / "no-auction"


def test_none_is_over_before_any_word_and_takes_none() -> None:
    auction = run("rlcard", [], first=2)
    assert auction.done and auction.legal() == [] and auction.history == []
    assert auction.outcome() == AuctionOutcome(2, 1)
    with pytest.raises(IllegalActionError, match="there is no auction") as info:
        auction.apply("pass")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("ruleset_id", ["rlcard", "douzero"])
def test_none_a_hand_never_asks_for_an_auction_word(ruleset_id: str) -> None:
    for seed in range(5):
        hand = Hand.new(load(ruleset_id), seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        while hand.result is None:
            assert hand.phase is Phase.PLAY
            legal = hand.legal_actions()
            assert all(not isinstance(a, str) or a == PASS for a in legal)
            assert all(hand.view(s).auction == () for s in range(3))
            hand.apply(rng.choice(legal))
        assert not any(isinstance(op, Said) for op in hand.log)


@pytest.mark.parametrize("ruleset_id", ["rlcard", "douzero"])
def test_none_the_first_bidder_is_the_landlord_and_takes_the_kitty(ruleset_id: str) -> None:
    for seed in range(20):
        hand = Hand.new(load(ruleset_id), seed=seed)
        first = hand.deal.first_bidder
        assert hand.landlord == first and hand.to_act == first
        assert hand.log[1] == KittyTaken(first, hand.deal.kitty, True)
        assert hand.hands[first] == hand.deal.hands[first] + hand.deal.kitty
        assert cards.size(hand.hands[first]) == 20
        assert hand.view(first).kitty == hand.deal.kitty == hand.view((first + 1) % 3).kitty


def test_none_the_first_bidder_follows_auction_first_bidder_at_random() -> None:
    seats = {Hand.new(load("rlcard"), seed=seed).landlord for seed in range(40)}
    assert seats == {0, 1, 2}


@pytest.mark.parametrize(("ruleset", "bid"), [("rlcard", 1), ("douzero", 1),
                                              (str(NO_AUCTION / "fixed-bid-3.yaml"), 3)])
def test_none_the_base_is_the_fixed_bid(ruleset: str, bid: int) -> None:
    hand = play_random(load(ruleset), hand_seed(0, 0), dealer=0)
    assert hand.result is not None and hand.bid == bid and hand.result.base == bid


def test_none_records_have_no_auction_words_and_round_trip() -> None:
    hand = play_random(load("douzero"), hand_seed(3, 0), dealer=0)
    record = json.loads(json.dumps(to_record(hand)))
    assert record["auction"] == []
    again = replay(record)
    assert again.valid and again.hand.result == hand.result
    stored = replay(read_record(str(NO_AUCTION / "rlcard-hand.json")))
    assert stored.valid, stored.reason


def test_none_an_auction_word_in_a_record_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(NO_AUCTION / "rlcard-auction-word.json")
    outcome = replay(read_record(path))
    assert not outcome.valid and outcome.index == 0 and outcome.action == "pass"
    assert outcome.reason is not None and "\n" not in outcome.reason
    assert outcome.reason.startswith("there is no auction (auction.family: none)")
    assert main(["replay", path]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "there is no auction" in out


def test_none_needs_a_fixed_bid_and_only_none_takes_one() -> None:
    with pytest.raises(RulesetError, match=r"auction\.family none needs 'auction\.fixed_bid'"):
        load(str(NO_AUCTION / "no-auction-without-a-bid.yaml"))
    with pytest.raises(RulesetError, match="a fixed bid is the bid of family none") as info:
        load(str(NO_AUCTION / "fixed-bid-in-an-auction.yaml"))
    assert "fixed-bid-in-an-auction.yaml:8: key 'auction.fixed_bid.value'" in str(info.value)
    back = load(str(NO_AUCTION / "back-to-an-auction.yaml"))
    assert back.auction_family == "single_round" and back.fixed_bid is None
    assert Hand.new(back, seed=1).phase is Phase.AUCTION


@pytest.mark.parametrize("level", ["random", "standard", "medium"])
def test_none_bots_are_never_asked_an_auction_word(level: str) -> None:
    ruleset = load("rlcard")
    bot = make_bot(level, ruleset)
    for seed in range(3):
        hand = Hand.new(ruleset, seed=seed)
        rng = random.Random(seed)
        while hand.result is None:
            assert hand.to_act is not None
            view = hand.view(hand.to_act)
            assert view.phase is Phase.PLAY and view.auction == ()
            hand.apply(bot.choose(view, rng))
        assert hand.result.base == 1 and not any(isinstance(op, Said) for op in hand.log)
