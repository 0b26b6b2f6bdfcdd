"""Run Fast (rulesets run-fast and run-fast-15), one test per rule clause.

Positions are deals chosen in ``tests/fixtures/run-fast/positions.yaml``: each seat's suited
cards, the rest of the deck set aside; a :class:`Deal` is built from them as the deal would
make it (rank hands from the suited ones, the first leader from the lead card).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from ddz_rules import cards, load
from ddz_rules.errors import IllegalActionError
from ddz_rules.game import PASS, Action, Deal, Hand, first_leader
from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import BonusPayment, Result

from .conftest import FIXTURES

POSITIONS: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "run-fast" / "positions.yaml").read_text(encoding="utf-8"))
CAPPED = str(FIXTURES / "variants" / "run-fast-15-capped.yaml")
ANY_LOW_SINGLE = str(FIXTURES / "variants" / "run-fast-15-any-low-single.yaml")
BOMB_WINS_TRICK = str(FIXTURES / "variants" / "run-fast-bomb-wins-trick.yaml")


def deal_of(ruleset: Ruleset, name: str) -> Deal:
    """The deal of position ``name``: each seat's suited cards, the rest set aside."""
    order = {card: i for i, card in enumerate(ruleset.suited_deck)}
    held = tuple(tuple(sorted((cards.suited_text(*cards.parse_suited(c)) for c in seat.split()),
                              key=order.__getitem__))
                 for seat in POSITIONS[name]["seats"])
    dealt = {c for seat in held for c in seat}
    assert len(dealt) == sum(len(seat) for seat in held), f"{name}: a card dealt twice"
    rest = tuple(c for c in ruleset.suited_deck if c not in dealt)
    leader, lead = first_leader(ruleset, held)
    return Deal(tuple(_ranks(seat) for seat in held), 0, _ranks(rest), 0, leader,
                suited=held, suited_rest=rest, lead_card=lead)


def _ranks(suited: tuple[str, ...]) -> int:
    return cards.pack_ranks([cards.parse_suited(c)[0] for c in suited])


def hand_at(ruleset: str | Ruleset, name: str, *actions: str) -> Hand:
    """Position ``name`` under ``ruleset``, after ``actions`` (card text or pass)."""
    rules = load(ruleset) if isinstance(ruleset, str) else ruleset
    hand = Hand(rules, deal_of(rules, name))
    for action in actions:
        hand.apply(action)
    return hand


def shown(actions: list[Action]) -> set[str]:
    """Legal actions as text: card text, or pass."""
    return {a if isinstance(a, str) else cards.key_text(a.key) for a in actions}


def result_of(hand: Hand) -> Result:
    assert hand.result is not None, "the hand is not over"
    return hand.result


# --------------------------------------------------------------------------- the first lead


@pytest.mark.parametrize("seed", range(40))
def test_the_holder_of_the_3_of_spades_leads_first(seed: int) -> None:
    hand = Hand.new(load("run-fast"), seed, dealer=seed % 3)
    assert hand.deal.lead_card == "3S"
    assert hand.to_act == hand.deal.first_bidder and "3S" in hand.deal.suited[hand.to_act]
    assert hand.landlord is None and hand.legal_actions()


@pytest.mark.parametrize("seed", range(40))
def test_the_first_play_must_contain_a_3(seed: int) -> None:
    hand = Hand.new(load("run-fast"), seed)
    three = cards.RANK_INDEX["3"]
    first = hand.legal_actions()
    assert first and all(not isinstance(a, str) and cards.unpack(a.key)[three] for a in first)
    assert hand.to_act is not None
    without = next(p for p in hand.table.leads(hand.hands[hand.to_act])
                   if not cards.unpack(p.key)[three])
    with pytest.raises(IllegalActionError, match=r"must contain the lead card, so a 3 "
                                                 r"\(play.first_play_holds_lead_card\)"):
        hand.apply(without)


def test_after_the_first_play_a_lead_need_not_contain_a_3() -> None:
    hand = hand_at("run-fast", "must-beat", "3", "9", PASS, PASS)
    assert hand.to_act == 1 and hand.to_beat is None
    assert shown(hand.legal_actions()) == {"6"}


def test_with_the_3_of_spades_aside_the_lowest_card_dealt_leads_and_first_plays_its_rank() -> None:
    hand = hand_at("run-fast-15", "lowest-card")
    assert {"3S", "3H"} <= set(hand.deal.suited_rest)
    assert hand.deal.lead_card == "3C" and hand.to_act == 1
    assert shown(hand.legal_actions()) == {"3"}
    with pytest.raises(IllegalActionError, match="must contain the lead card, so a 3"):
        hand.apply("6")


def test_in_dealt_run_fast_15_hands_the_lowest_card_dealt_leads_when_the_3_of_spades_is_aside(
) -> None:
    ruleset = load("run-fast-15")
    aside = 0
    for seed in range(300):
        hand = Hand.new(ruleset, seed)
        deal = hand.deal
        lowest = next(c for c in ruleset.suited_deck if c not in deal.suited_rest)
        assert deal.lead_card == ("3S" if "3S" not in deal.suited_rest else lowest)
        assert deal.lead_card in deal.suited[hand.to_act or 0] and hand.to_act == deal.first_bidder
        rank = cards.parse_suited(deal.lead_card)[0]
        assert all(not isinstance(a, str) and cards.unpack(a.key)[rank]
                   for a in hand.legal_actions())
        aside += "3S" in deal.suited_rest
    assert aside >= 10  # 3 of 48 cards are set aside: about one deal in sixteen


# --------------------------------------------------------------------------- must beat


def test_a_player_who_can_beat_may_not_pass() -> None:
    hand = hand_at("run-fast", "must-beat", "3")
    assert shown(hand.legal_actions()) == {"6", "9"}
    with pytest.raises(IllegalActionError, match=r"seat 1 may not pass: a player who can beat "
                                                 r"the last play must \(play.must_beat\)"):
        hand.apply(PASS)
    assert hand.to_act == 1 and cards.size(hand.hands[1]) == 2


def test_a_player_who_cannot_beat_may_pass() -> None:
    hand = hand_at("run-fast", "must-beat", "3", "9")
    assert hand.legal_actions() == [PASS]
    hand.apply(PASS)
    assert hand.to_act == 0


# --------------------------------------------------------------------------- the warning


def test_with_the_next_player_on_one_card_a_single_must_be_the_players_highest_rank() -> None:
    hand = hand_at("run-fast", "warned", "3", "4")
    assert cards.size(hand.hands[0]) == 1 and hand.to_act == 2
    assert shown(hand.legal_actions()) == {"K"}
    with pytest.raises(IllegalActionError, match=r"the next player holds one card, so a single "
                                                 r"must be of your highest rank, K"):
        hand.apply("5")


def test_the_warning_binds_a_lead_too_but_no_other_play() -> None:
    hand = hand_at("run-fast", "warned-to-the-end", "3", "4", "K", PASS, PASS)
    assert hand.to_act == 2 and hand.to_beat is None
    assert shown(hand.legal_actions()) == {"Q"}  # no pair, no straight: the highest single
    hand = hand_at("run-fast", "trio-and-two")
    hand.apply("3")
    # seat 1 answers freely: the next seat holds three cards
    assert shown(hand.legal_actions()) == {"4", "6"}


def test_in_run_fast_15_a_single_to_a_warned_player_is_free() -> None:
    hand = hand_at("run-fast-15", "warned", "3", "4")
    assert shown(hand.legal_actions()) == {"5", "7", "K"}


def test_a_warned_hand_plays_out_to_the_first_player_out() -> None:
    hand = hand_at("run-fast", "warned-to-the-end", "3", "4", "K", PASS, PASS, "Q", PASS, PASS,
                   "J", PASS, PASS, "T")
    result = result_of(hand)
    assert result.first_out == 2 and result.winner == "first_out" and result.landlord is None
    # seat 0, left with his last card, pays nothing for it (scoring.last_card_free)
    assert result.cards_left == (1, 2, 0) and result.scores == (0, -2, 2)
    assert result.winners == (2,) and not result.redeal


# --------------------------------------------------------------------------- last play only


@pytest.mark.parametrize(("name", "last", "not_yet"), [
    ("trio-and-one", "3335", "333"),
    ("trio-and-two", "33356", "3335"),
    ("airplane-alone", "333444", "333"),
    ("airplane-with-singles", "3334449T", "333444"),
])
def test_a_trio_a_trio_with_one_and_an_airplane_without_wings_only_as_a_last_play(
        name: str, last: str, not_yet: str) -> None:
    hand = hand_at("run-fast", name)
    legal = shown(hand.legal_actions())
    assert last in legal and not_yet not in legal
    with pytest.raises(IllegalActionError, match=r"may be played only as a player's last play"):
        hand.apply(not_yet)
    hand.apply(last)
    assert result_of(hand).first_out == 0


def test_a_trio_with_two_and_an_airplane_with_wings_are_played_at_any_time() -> None:
    hand = hand_at("run-fast", "trio-and-two")
    assert {"33356", "335", "336"} & shown(hand.legal_actions()) == {"33356"}
    hand = hand_at("run-fast", "airplane-with-more")
    legal = shown(hand.legal_actions())
    assert not legal & {"333444", "3334449T", "3334449J", "333444TJ", "333", "3339"}
    assert {"33344", "3339T"} <= legal  # a trio with two, any two


# --------------------------------------------------------------------------- scoring


def test_the_first_player_out_is_paid_per_card_left_and_a_shut_out_pays_double() -> None:
    hand = hand_at("run-fast", "shut-out", "34567")
    result = result_of(hand)
    assert result.shut_out == (1, 2) and result.cards_left == (0, 8, 3)
    assert result.scores == (22, -16, -6)


def test_a_player_who_played_is_not_shut_out() -> None:
    result = result_of(hand_at("run-fast-15", "warned-ace", "3", "4", "K", "A"))
    assert result.shut_out == () and result.liable is None
    assert result.scores == (4, -2, -2)


def test_a_bomb_is_paid_at_once_by_each_other_player() -> None:
    hand = hand_at("run-fast", "bomb-first", "3333")
    assert hand.result is None
    assert hand.bombs_paid == [BonusPayment("bomb", 0, 10)]
    for action in (PASS, PASS, "5"):
        hand.apply(action)
    result = result_of(hand)
    assert result.bombs_paid == (BonusPayment("bomb", 0, 10),)
    # 2 and 3 cards shut out (4 and 6), and 10 each for the bomb
    assert result.scores == (30, -14, -16)


def test_the_three_aces_are_the_highest_bomb_and_paid_at_once_in_run_fast_15() -> None:
    ruleset = load("run-fast-15")
    table = Hand(ruleset, deal_of(ruleset, "warned")).table
    aces = table.play("AAA").reading
    assert aces.type == "aces" and aces.beats(table.play("KKKK").reading)
    assert not table.readings(table.key_of("AAA5"))  # no trio of aces: they are a bomb
    assert dict(ruleset.bomb_payments) == {"bomb": 10, "aces": 10}
    plain = Hand(load("run-fast"), deal_of(load("run-fast"), "warned")).table
    assert plain.play("AAA").reading.type == "trio"  # in run-fast, three aces are a trio


@pytest.mark.parametrize("ruleset_id", ["run-fast", "run-fast-15"])
@pytest.mark.parametrize("seed", range(30))
def test_scores_sum_to_zero_and_the_winner_is_paid_what_the_others_pay(ruleset_id: str,
                                                                      seed: int) -> None:
    from ddz_rules.simulate import play_random
    result = result_of(play_random(load(ruleset_id), seed))
    assert sum(result.scores) == 0 and result.first_out is not None
    bombs = [0, 0, 0]
    for paid in result.bombs_paid:
        for seat in range(3):
            bombs[seat] += 2 * paid.amount if seat == paid.seat else -paid.amount
    cards_part = [s - b for s, b in zip(result.scores, bombs, strict=True)]
    assert cards_part[result.first_out] == -sum(
        cards_part[s] for s in range(3) if s != result.first_out) >= 0


# --------------------------------------------------------------------------- liability


def test_a_low_single_that_lets_the_warned_player_out_pays_for_all() -> None:
    hand = hand_at("run-fast-15", "warned", "3", "4", "5")
    assert hand.legal_actions() != [PASS] and PASS not in hand.legal_actions()
    hand.apply("Q")
    result = result_of(hand)
    assert result.first_out == 0 and result.liable == 2
    assert result.cards_left == (0, 2, 2) and result.scores == (4, 0, -4)


def test_a_highest_single_that_lets_the_warned_player_out_pays_for_nobody_else() -> None:
    result = result_of(hand_at("run-fast-15", "warned-ace", "3", "4", "K", "A"))
    assert result.liable is None and result.scores == (4, -2, -2)


def test_a_low_single_is_not_to_blame_where_the_highest_would_have_let_him_out_too() -> None:
    """run-fast-15 (scoring.liable_if highest_would_hold): seat 2 plays his 7 under a K, and
    seat 0 goes out with an ace, which beats the K too; nobody pays for all."""
    result = result_of(hand_at("run-fast-15", "warned-ace", "3", "4", "7", "A"))
    assert result.liable is None and result.scores == (4, -2, -2)


def test_taken_literally_any_low_single_the_warned_player_goes_out_on_pays_for_all() -> None:
    """scoring.liable_if lower_single: the same play makes seat 2 pay for everyone."""
    result = result_of(hand_at(ANY_LOW_SINGLE, "warned-ace", "3", "4", "7", "A"))
    assert result.liable == 2 and result.scores == (4, 0, -4)


def test_in_run_fast_no_one_is_ever_liable() -> None:
    ruleset = load("run-fast")
    assert ruleset.liability == "none" or ruleset.last_card_warning == "highest_single"
    result = result_of(hand_at("run-fast", "warned", "3", "4", "K", PASS, PASS, "7", "Q"))
    # seat 2 holds his last card, which is free
    assert result.liable is None and result.scores == (2, -2, 0)


# --------------------------------------------------------------------------- the cap


def test_the_cap_applies_to_each_loser_alone() -> None:
    result = result_of(hand_at(CAPPED, "shut-out", "34567"))
    assert result.shut_out == (1, 2) and result.scores == (10, -5, -5)


def test_a_liable_player_pays_each_losers_capped_amount() -> None:
    # seat 1 holds 6 cards (capped at 5), seat 2 two: the liable seat 2 pays 5 + 2, not 5
    result = result_of(hand_at(CAPPED, "warned-many", "3", "4", "5", "Q"))
    assert result.liable == 2 and result.cards_left == (0, 6, 2)
    assert result.scores == (7, 0, -7)


# --------------------------------------------------------------------------- a last card is free


def test_a_loser_left_with_one_card_pays_nothing_for_it() -> None:
    """scoring.last_card_free: he had announced his last card (报单不扣)."""
    result = result_of(hand_at("run-fast", "warned-to-the-end", "3", "4", "K", PASS, PASS, "Q",
                               PASS, PASS, "J", PASS, PASS, "T"))
    assert result.cards_left == (1, 2, 0) and result.scores == (0, -2, 2)
    assert load("run-fast-45").last_card_free and load("run-fast-15").last_card_free


def test_where_a_last_card_is_not_free_it_is_paid_like_any_other() -> None:
    result = result_of(hand_at(BOMB_WINS_TRICK, "warned-to-the-end", "3", "4", "K", PASS, PASS,
                               "Q", PASS, PASS, "J", PASS, PASS, "T"))
    assert result.cards_left == (1, 2, 0) and result.scores == (-1, -2, 3)


# --------------------------------------------------------------------------- short plays to go out


@pytest.mark.parametrize(("short", "full", "beats"), [
    ("5556", "33344", True),          # a trio with one, to go out, over a trio with two
    ("555", "33344", True),           # a trio alone
    ("3335", "44455", False),         # a lower body never beats
    ("55566678", "3334445566", True),  # an airplane with one card per trio over wings
    ("555666", "3334445566", True),   # an airplane alone
    ("55566678", "333444555666", False),  # a different chain length
    ("66677", "5556", False),         # a full trio does not answer a short one
])
def test_a_short_trio_or_airplane_answers_a_full_one_of_its_length(short: str, full: str,
                                                                   beats: bool) -> None:
    table = Hand(load("run-fast"), deal_of(load("run-fast"), "warned")).table
    assert table.play(short).reading.beats(table.play(full).reading) is beats


def test_a_player_whose_last_cards_make_a_short_trio_that_beats_must_play_it() -> None:
    hand = hand_at("run-fast", "short-trio-answers", "33344")
    assert shown(hand.legal_actions()) == {"5556"}  # must-beat: no pass
    hand.apply("5556")
    assert result_of(hand).first_out == 1


def test_a_short_trio_answers_only_as_the_last_play() -> None:
    hand = hand_at("run-fast", "short-trio-not-last", "33344")
    assert shown(hand.legal_actions()) == {"55567"}
    with pytest.raises(IllegalActionError, match="only as a player's last play"):
        hand.apply("5556")


def test_moves_finds_the_short_trio_that_answers_a_full_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_rules.cli import main
    assert main(["moves", "-r", "run-fast", "--beat", "33344", "5556"]) == 0
    assert capsys.readouterr().out.split() == ["5556"]


def test_beats_explains_a_short_trio_answering_a_full_one() -> None:
    from ddz_rules.table import beats_reason
    table = Hand(load("run-fast"), deal_of(load("run-fast"), "warned")).table
    why = beats_reason(table.ruleset, table.play("5556"), table.play("33344"))
    assert "played to go out, may answer trio_two (play.last_play_answers)" in why
    assert "ranks higher than 33344" in why


# --------------------------------------------------------------------------- when bombs are paid


def test_a_bomb_is_paid_when_played_even_if_a_higher_bomb_beats_it() -> None:
    hand = hand_at("run-fast", "bomb-beaten", "3333", "4444", PASS, PASS)
    assert hand.bombs_paid == [BonusPayment("bomb", 0, 10), BonusPayment("bomb", 1, 10)]


def test_where_a_bomb_must_win_its_trick_a_beaten_bomb_is_not_paid() -> None:
    hand = hand_at(BOMB_WINS_TRICK, "bomb-beaten", "3333")
    assert hand.bombs_paid == [] and hand.bomb_waiting == BonusPayment("bomb", 0, 10)
    hand.apply("4444")
    assert hand.bombs_paid == [] and hand.bomb_waiting == BonusPayment("bomb", 1, 10)
    hand.apply(PASS)
    assert hand.bombs_paid == []
    hand.apply(PASS)  # the trick is over: seat 1's bomb won it
    assert hand.bombs_paid == [BonusPayment("bomb", 1, 10)] and hand.bomb_waiting is None


def test_where_a_bomb_must_win_its_trick_one_that_empties_the_hand_is_paid() -> None:
    result = result_of(hand_at(BOMB_WINS_TRICK, "bomb-goes-out", "3333", "4444"))
    assert result.first_out == 1 and result.bombs_paid == (BonusPayment("bomb", 1, 10),)
    # seat 0 holds 2 cards, seat 2 three (shut out: 6); 10 from each for the bomb
    assert result.scores == (-12, 28, -16)


# --------------------------------------------------------------------------- the 45-card form


def test_the_45_card_form_deals_its_whole_deck_with_one_ace_one_2_and_three_kings() -> None:
    ruleset = load("run-fast-45")
    counts = dict(zip(cards.RANKS, ruleset.copies, strict=False))
    assert ruleset.deck_size == 45 and ruleset.hand_size == 15 and ruleset.undealt == 0
    assert (counts["A"], counts["2"], counts["K"], counts["Q"]) == (1, 1, 3, 4)
    for seed in range(20):
        hand = Hand.new(ruleset, seed)
        assert hand.deal.undealt == 0 and hand.deal.lead_card == "3S"
        assert "3S" in hand.deal.suited[hand.to_act]


def test_the_45_card_form_has_no_bomb_of_kings_aces_or_2s() -> None:
    from ddz_rules.table import compile_table
    table = compile_table(load("run-fast-45"))
    bombs = {cards.key_text(k) for k in table if any(r.type == "bomb" for r in table.readings(k))}
    assert bombs == {r * 4 for r in "3456789TJQ"}


def test_each_new_run_fast_interpretation_names_its_sources_by_their_words() -> None:
    """The choices this family makes beyond text 003 quote the words they rest on."""
    quoted = {"run-fast": ["报单不扣", "可以用三带一去压三代二",
                           "三张\uff0c飞机少带接完"],  # the source's own full-width comma
              "run-fast-15": ["因没出最大牌放走下家"], "run-fast-45": ["去掉2个A、1个K"]}
    for ruleset_id, words in quoted.items():
        text = " ".join(i["reason"] for i in load(ruleset_id).overlay["interpretations"])
        assert all(w in text for w in words), ruleset_id


def test_the_prose_says_that_the_first_play_holding_the_lead_card_is_a_room_option() -> None:
    data = load("run-fast").data
    assert "as an option" in data["play"]["first_play_holds_lead_card"]["text"]
    leading = next(i for i in data["interpretations"] if "Who leads" in i["question"])
    assert "room option" in leading["reason"]
    assert "play.first_play_holds_lead_card false" in leading["reason"]
