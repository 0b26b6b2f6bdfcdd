"""Every auction family, with its edge cases: all pass, a top bid at once, the last rob, a pass
then a bid."""

from __future__ import annotations

import pytest

from ddz_rules import load
from ddz_rules.auction import Auction, AuctionOutcome, IllegalActionError, new_auction


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
    assert outcome("call-and-grab", ["no-call", "call", "no-grab", "no-grab"]) == \
        AuctionOutcome(1)


def test_call_grab_the_last_grabber_wins_when_the_caller_declines() -> None:
    assert outcome("call-and-grab", ["call", "no-grab", "grab", "no-grab"]) == \
        AuctionOutcome(2, grabs=1)


def test_call_grab_nobody_calling_means_a_redeal() -> None:
    assert outcome("call-and-grab", ["no-call", "no-call", "no-call"]).landlord is None


def test_an_ended_auction_takes_no_more_words() -> None:
    auction = run("classic", ["3"])
    with pytest.raises(IllegalActionError, match="over"):
        auction.apply("pass")
