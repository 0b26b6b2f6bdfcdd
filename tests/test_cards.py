"""Card text: parsing, canonical output, and the deck check."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz_rules import CardError, cards, load
from ddz_rules.cards import RANKS, contains, pack_ranks, parse, text

card_lists = st.lists(st.sampled_from(range(len(RANKS))), max_size=20)


@given(card_lists)
def test_text_round_trips_through_parse(ranks: list[int]) -> None:
    assert parse(text(ranks)) == tuple(sorted(ranks))


@given(card_lists, st.sampled_from([" ", ",", "-", ", ", "+"]), st.booleans())
def test_input_takes_separators_ten_and_lower_case(ranks: list[int], sep: str,
                                                   lower: bool) -> None:
    tokens = ["10" if RANKS[r] == "T" else RANKS[r] for r in ranks]
    written = sep.join(tokens)
    assert parse(written.lower() if lower else written) == tuple(sorted(ranks))


def test_output_is_canonical_low_to_high() -> None:
    assert text(parse("R 2 B 10 3 a")) == "3TA2BR"


@pytest.mark.parametrize(("written", "token"), [("33Z", "Z"), ("3 1 4", "1"), ("JOKER", "O")])
def test_bad_card_text_names_the_token(written: str, token: str) -> None:
    with pytest.raises(CardError, match=f"bad card '{token}'"):
        parse(written)


def test_two_player_deck_has_no_3s_or_4s() -> None:
    with pytest.raises(CardError, match=r"'3' .* not in the two-player deck"):
        load("two-player").parse_cards("33")


def test_a_deck_holds_four_of_a_rank_and_one_of_each_joker() -> None:
    classic = load("classic")
    with pytest.raises(CardError, match="5 cards of rank 7"):
        classic.parse_cards("77777")
    with pytest.raises(CardError, match="2 cards of rank B"):
        classic.parse_cards("BB")


@given(card_lists, card_lists)
def test_packed_containment_matches_multiset_containment(a: list[int], b: list[int]) -> None:
    a_counts = [a.count(r) for r in range(len(RANKS))]
    b_counts = [b.count(r) for r in range(len(RANKS))]
    expected = all(y <= x for x, y in zip(a_counts, b_counts, strict=True))
    assert contains(pack_ranks(a), pack_ranks(b)) == expected


@pytest.mark.parametrize("text", ["bj", "BJ", "rj", "3 4 Rj"])
def test_card_text_that_could_name_a_joker_is_refused_as_ambiguous(text: str) -> None:
    with pytest.raises(CardError, match="ambiguous"):
        cards.parse(text)


def test_a_joker_and_a_jack_written_apart_are_two_cards() -> None:
    assert cards.text(cards.parse("B J")) == "JB"


@pytest.mark.parametrize(("text", "hint"), [("X", "small joker"), ("D", "big joker"),
                                            ("SJ", "small joker is B")])
def test_other_engines_joker_letters_get_a_hint(text: str, hint: str) -> None:
    with pytest.raises(CardError, match=hint):
        cards.parse(text)
