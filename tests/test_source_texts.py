"""Every worked example and named case of the source texts, one test per clause.

Test names say which text (S0..S4, the files 000..004 in the seeds) and which clause.
"""

from __future__ import annotations

import pytest

from ddz_rules import load
from ddz_rules.auction import AuctionOutcome, new_auction
from ddz_rules.cards import pack_ranks, parse, size
from ddz_rules.records import read_record, replay
from ddz_rules.simulate import random_hands

from .conftest import FIXTURES, table_of


def readings(ruleset: str, cards: str) -> list[str]:
    return [r.short() for r in table_of(ruleset).classify(cards)]


def beats(ruleset: str, play: str, previous: str) -> bool:
    table = table_of(ruleset)
    return any(r.beats(table.play(previous).reading) for r in table.classify(play))


# ------------------------------------------------------------------ S0, the classic text


def test_s0_kickers_never_count_kkk_3_beats_qqq_big_joker() -> None:
    assert beats("classic", "KKK3", "QQQR")
    assert not beats("classic", "QQQR", "KKK3")


def test_s0_four_with_two_is_not_a_bomb_555566_beats_444433() -> None:
    assert readings("classic", "555566") == ["four_two_singles/1/5"]
    assert beats("classic", "555566", "444433")


def test_s0_restriction_1_444455_and_44445566_are_not_bombs() -> None:
    assert readings("classic", "444455") == ["four_two_singles/1/4"]
    assert readings("classic", "44445566") == ["four_two_pairs/1/4"]
    assert not beats("classic", "444455", "KKK3")
    assert not beats("classic", "44445566", "33")


def test_s0_restriction_2_44445555_is_illegal_because_quads_are_blocks() -> None:
    table = table_of("classic")
    assert table.classify("44445555") == ()
    assert "kickers.quads_are_blocks" in table.explain(table.key_of("44445555"))


def test_s0_restriction_2_limits_the_play_not_the_hand() -> None:
    table = table_of("classic")
    leads = {p.cards for p in table.leads(pack_ranks(parse("77773")))}
    assert {"3777", "7777", "777"} <= leads
    assert "37777" not in leads


def test_s0_restriction_3_3333_is_only_a_bomb() -> None:
    assert readings("classic", "3333") == ["bomb/1/3"]


def test_s0_restriction_4_333444555666_has_one_reading() -> None:
    assert readings("classic", "333444555666") == ["airplane/4/6"]


def test_s0_restriction_4_jokers_never_both_kickers() -> None:
    assert readings("classic", "333B") == ["trio_single/1/3"]
    table = table_of("classic")
    assert table.classify("333444BR") == ()
    assert "both_jokers_as_kickers" in table.explain(table.key_of("333444BR"))


def test_s0_straights_run_5_to_12_and_stop_at_the_ace() -> None:
    assert readings("classic", "34567") == ["straight/5/7"]
    assert readings("classic", "3456789TJQKA") == ["straight/12/A"]
    assert readings("classic", "TJQKA2") == []
    assert readings("classic", "3456") == []


def test_s0_same_type_and_count_a_six_straight_does_not_beat_a_five() -> None:
    assert not beats("classic", "456789", "34567")
    assert not beats("classic", "34567", "33444")


def test_s0_bomb_beats_any_plain_play_and_higher_bomb_wins() -> None:
    assert beats("classic", "3333", "3456789TJQKA")
    assert beats("classic", "4444", "3333")
    assert not beats("classic", "3333", "4444")


def test_s0_rocket_beats_everything_including_bombs() -> None:
    assert beats("classic", "BR", "2222")
    assert not beats("classic", "2222", "BR")


def test_s0_the_two_jokers_are_not_a_pair() -> None:
    assert readings("classic", "BR") == ["rocket/1/R"]


# ------------------------------------------------------------------ S1, marked-card


def test_s1_worked_example_888_3_beats_666_4_on_the_trio() -> None:
    assert beats("marked-card", "8883", "6664")


def test_s1_worked_example_bomb_5555_beats_a_higher_trio() -> None:
    assert beats("marked-card", "5555", "8883")


def test_s1_four_with_two_singles_of_different_ranks_only() -> None:
    assert readings("marked-card", "444456") == ["four_two_singles/1/4"]
    assert readings("marked-card", "444455") == []


def test_s1_single_kickers_may_repeat_but_not_match_the_trios() -> None:
    assert readings("marked-card", "33344477") == ["airplane_singles/2/4"]
    assert readings("marked-card", "33344434") == []


def test_s1_a_2_may_be_a_kicker() -> None:
    assert readings("marked-card", "33342") == [] and readings("marked-card", "3332") == [
        "trio_single/1/3"]


def test_s1_taken_literally_333444555666_reads_three_ways() -> None:
    assert readings("marked-card", "333444555666") == [
        "airplane/4/6", "airplane_singles/3/5", "airplane_singles/3/6"]


def test_s1_equal_bodies_do_not_beat() -> None:
    assert not beats("marked-card", "8884", "8883")


def test_s1_a_player_who_passed_may_still_bid_later_in_the_auction() -> None:
    # Interpretation: a pass in the auction is not final (the text says so only of the play).
    auction = new_auction(load("marked-card"), first=0)
    for word in ["pass", "1", "pass"]:  # seats 0, 1, 2
        auction.apply(word)
    assert not auction.done and auction.to_act == 0 and "2" in auction.legal()
    auction.apply("2")  # seat 0, who passed, bids after all
    auction.apply("pass")
    assert not auction.done  # one pass after the bid does not end it
    auction.apply("pass")
    assert auction.done and auction.outcome() == AuctionOutcome(landlord=0, bid=2)
    # Two passes in a row after a bid end it, whoever passed before.
    auction = new_auction(load("marked-card"), first=0)
    for word in ["pass", "1", "pass", "pass"]:
        auction.apply(word)
    assert auction.done and auction.outcome() == AuctionOutcome(landlord=1, bid=1)
    # Before any bid it takes three passes in a row, and the cards are dealt again.
    auction = new_auction(load("marked-card"), first=0)
    for word in ["pass", "pass"]:
        auction.apply(word)
    assert not auction.done and auction.to_act == 2
    auction.apply("pass")
    assert auction.done and auction.outcome().landlord is None
    # Text 003's open auction reads the other way: a player who passed is skipped.
    auction = new_auction(load("open-auction"), first=0)
    for word in ["pass", "1"]:
        auction.apply(word)
    assert auction.to_act == 2
    auction.apply("2")
    assert auction.to_act == 1


# ------------------------------------------------------------------ S2, two-player


def test_s2_kickers_never_count_kkk_5_beats_qqq_big_joker() -> None:
    assert beats("two-player", "KKK5", "QQQR")


def test_s2_straights_run_5_to_ace_ten_at_most() -> None:
    assert readings("two-player", "56789TJQKA") == ["straight/10/A"]


def test_s2_four_of_a_rank_is_used_together_in_one_play() -> None:
    assert readings("two-player", "55556666") == []


def test_s2_four_with_two_is_not_a_bomb() -> None:
    assert readings("two-player", "555566") == ["four_two_singles/1/5"]


# ------------------------------------------------------------------ S3, open-auction


def test_s3_a_lead_of_777_is_answered_by_a_higher_trio_bomb_or_rocket() -> None:
    assert beats("open-auction", "888", "777")
    assert beats("open-auction", "3333", "777")
    assert beats("open-auction", "BR", "777")
    assert not beats("open-auction", "8889", "777")


def test_s3_airplane_wings_example_333444_with_78_or_7788() -> None:
    assert readings("open-auction", "33344478") == ["airplane_singles/2/4"]
    assert readings("open-auction", "3334447788") == ["airplane_pairs/2/4"]


def test_s3_four_with_two_singles_differ_in_rank_and_carry_no_joker() -> None:
    assert readings("open-auction", "444456") == ["four_two_singles/1/4"]
    assert readings("open-auction", "444455") == []
    assert readings("open-auction", "44445B") == []


def test_s3_jokers_may_be_trio_kickers() -> None:
    assert readings("open-auction", "777B") == ["trio_single/1/7"]


def test_s3_jokers_may_be_airplane_kickers_but_never_both_together() -> None:
    # Interpretation: the text is silent on both jokers; the classic rule is kept.
    table = table_of("open-auction")
    assert [(r.short(), r.kickers) for r in table.classify("3334445B")] == [
        ("airplane_singles/2/4", "5B")]
    assert [(r.short(), r.kickers) for r in table.classify("3334445R")] == [
        ("airplane_singles/2/4", "5R")]
    assert table.classify("333444BR") == ()
    assert "kickers.both_jokers_as_kickers" in table.explain(table.key_of("333444BR"))
    assert table.classify("333444555BR6") == ()
    assert readings("open-auction", "BR") == ["rocket/1/R"]


def test_s3_unplayed_cards_stay_in_the_losers_hands_but_never_count() -> None:
    # Interpretation: the score is base x multiplier, whatever the losers still hold.
    done = replay(read_record(str(FIXTURES / "records" / "s3-bid-3-two-bombs.json")))
    hand, result = done.hand, done.hand.result
    assert done.valid and result is not None and result.landlord is not None
    left = [size(hand.hands[seat]) for seat in range(3) if seat != result.landlord]
    assert sum(left) > 0
    assert result.scores == (-12, -12, 24) and result.base * result.multiplier == 12
    # Over many hands, hands worth the same stake score the same however many cards the
    # losers keep: the cards left change nothing.
    scores_by_stake: dict[tuple[str, int], set[tuple[int, ...]]] = {}
    left_by_stake: dict[tuple[str, int], set[int]] = {}
    for played in random_hands(load("open-auction"), 300, seed=3):
        res = played.result
        if res is None or res.redeal or res.landlord is None:
            continue
        stake = res.base * res.multiplier
        losers = ([s for s in range(3) if s != res.landlord] if res.winner == "landlord"
                  else [res.landlord])
        key = (str(res.winner), stake)
        scores_by_stake.setdefault(key, set()).add(res.scores)
        left_by_stake.setdefault(key, set()).add(sum(size(played.hands[s]) for s in losers))
        sign = 1 if res.winner == "landlord" else -1
        assert res.scores[res.landlord] == sign * 2 * stake
    assert all(len({tuple(sorted(s)) for s in group}) == 1
               for group in scores_by_stake.values())
    assert any(len(left) > 5 for left in left_by_stake.values())


# ------------------------------------------------------------------ S4, turned-card


@pytest.mark.parametrize(("cards", "legal"), [("34567", True), ("345678", False),
                                              ("9TJQK", True), ("TJQKA", False)])
def test_s4_a_run_is_five_in_a_row_without_aces_or_2s(cards: str, legal: bool) -> None:
    assert bool(readings("turned-card", cards)) is legal


def test_s4_sisters_are_three_pairs_in_a_row() -> None:
    assert readings("turned-card", "445566") == ["pair_straight/3/6"]
    assert readings("turned-card", "44556677") == []


def test_s4_no_airplane_carries_pairs() -> None:
    assert readings("turned-card", "3334447788") == []
    assert readings("turned-card", "33344478") == ["airplane_singles/2/4"]


def test_s4_triple_run_plus_single_takes_one_single_per_trio() -> None:
    # Interpretation: "+ any card" is read as one single for each trio of the run.
    assert readings("turned-card", "3334445") == []
    assert readings("turned-card", "33344456") == ["airplane_singles/2/4"]
    assert readings("turned-card", "3334445556") == []
    assert readings("turned-card", "333444555678") == ["airplane_singles/3/5"]


def test_s4_same_type_higher_value_needs_the_same_chain_length() -> None:
    # Interpretation: a longer run of trios does not beat a shorter one, nor the reverse.
    assert not beats("turned-card", "444555666", "333444")
    assert not beats("turned-card", "444555", "333444555")
    assert beats("turned-card", "444555", "333444")
    assert not beats("turned-card", "444555666789", "33344456")
    assert beats("turned-card", "3333", "333444555")


# ------------------------------------------------------------------ text 003's variants


def test_s3_happy_a_seat_dealt_both_jokers_or_a_full_straight_is_paid_by_each_other_seat(
) -> None:
    from ddz_rules.cards import BIG_JOKER, SMALL_JOKER, unpack
    from ddz_rules.records import to_record

    seen = set()
    for hand in random_hands(load("happy"), 400, seed=3):
        result = hand.result
        assert result is not None and sum(result.scores) == 0
        assert not {e.name for e in result.events} & {"double_joker", "full_straight"}
        for paid in result.payments:
            seen.add(paid.name)
            dealt = unpack(hand.deal.hands[paid.seat])
            holds = (dealt[SMALL_JOKER] and dealt[BIG_JOKER]) if paid.name == "double_joker" \
                else all(dealt[r] for r in range(12))
            assert holds and paid.amount == 1
            replayed = replay(to_record(hand))
            assert replayed.valid
            assert replayed.hand.result.payments == result.payments
            assert replayed.hand.result.scores == result.scores
    assert seen == {"double_joker", "full_straight"}


def test_s3_no_kitty_deals_eighteen_cards_each_and_the_first_call_takes_the_hand() -> None:
    from ddz_rules.game import Hand

    hand = Hand.new(load("no-kitty"), 5)
    assert [size(h) for h in hand.deal.hands] == [18, 18, 18]
    assert size(hand.deal.kitty) == 0
    first = hand.to_act
    hand.apply("1")
    assert hand.landlord == first and hand.phase.value == "play"
