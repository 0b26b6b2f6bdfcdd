"""The compiled split (``ddz_rules/_split.c``): the same count of plays as the Python
split for every hand of one deck or two, the same answers after each candidate, and the same
refusals."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import cards, split
from ddz_rules.table import native_modules

from .test_moves import compiler

try:
    from ddz_rules import _split
except ImportError:  # built with the other compiled modules, or not at all
    _split = None  # type: ignore[assignment]

needs_split = pytest.mark.skipif(
    _split is None or native_modules() is None,
    reason="the compiled modules are not built, or are switched off (DDZ_PURE_PYTHON): "
    "test_the_split_is_built_and_serves_where_a_compiler_is says which")

ONE_DECK = [r for r in range(13) for _ in range(4)] + [cards.SMALL_JOKER, cards.BIG_JOKER]
TWO_DECKS = ONE_DECK * 2


def hand_of(deck: list[int], rng: random.Random, largest: int) -> int:
    return cards.pack_ranks(rng.sample(deck, rng.randrange(0, largest + 1)))


def test_the_split_is_built_and_serves_where_a_compiler_is() -> None:
    """Where a C compiler built the other modules, the split was built with them and is what
    ``medium`` counts with; with DDZ_PURE_PYTHON the Python split serves."""
    if os.environ.get("DDZ_PURE_PYTHON") or compiler() is None:
        assert split.moves_of is split.python_moves_of
        assert split.moves_after is split.python_moves_after
        return
    assert _split is not None, "a C compiler is here, yet ddz_rules._split was not built"
    assert (cards.FIELD_BITS, cards.RANK_INDEX["A"], cards.RANK_INDEX["2"],
                             cards.SMALL_JOKER, cards.BIG_JOKER) == _split.LAYOUT
    assert split.moves_of is _split.moves_of
    assert split.moves_after is _split.moves_after


@needs_split
@given(st.lists(st.integers(0, 14), max_size=40), st.booleans())
def test_the_compiled_split_counts_as_the_python_split(ranks: list[int], second_deck: bool
                                                       ) -> None:
    limit = 8 if second_deck else 4
    counts = [min(ranks.count(r), limit if r < cards.SMALL_JOKER else limit // 4)
              for r in range(15)]
    key = cards.pack(counts)
    assert _split.moves_of(key) == split.python_moves_of(key)


@needs_split
@pytest.mark.parametrize(("deck", "largest"), [(ONE_DECK, 20), (TWO_DECKS, 33)],
                         ids=["one deck", "two decks"])
def test_a_sweep_of_random_hands_finds_no_difference(deck: list[int], largest: int) -> None:
    """50,000 hands of every size up to the largest dealt (the Python split is the slow
    side: about a quarter of a second)."""
    rng = random.Random(27)
    wrong = []
    for _ in range(50_000):
        key = hand_of(deck, rng, largest)
        if _split.moves_of(key) != split.python_moves_of(key):
            wrong.append(cards.key_text(key))
    assert wrong == []


@needs_split
@settings(max_examples=200)
@given(st.randoms(use_true_random=False), st.booleans())
def test_moves_after_each_candidate_equals_the_python_split(rng: random.Random,
                                                            second_deck: bool) -> None:
    deck, largest = (TWO_DECKS, 33) if second_deck else (ONE_DECK, 20)
    hand = hand_of(deck, rng, largest)
    ranks = cards.ranks_of(hand)
    plays = [cards.pack_ranks(rng.sample(ranks, rng.randrange(0, len(ranks) + 1)))
             for _ in range(rng.randrange(0, 12))]
    assert _split.moves_after(hand, plays) == split.python_moves_after(hand, plays)
    assert _split.moves_after(hand, tuple(plays)) == [split.python_moves_of(hand - p)
                                                      for p in plays]


@pytest.mark.parametrize("moves_after", [split.python_moves_after, split.moves_after],
                         ids=["python", "serving"])
def test_a_candidate_holding_cards_the_hand_lacks_is_refused(moves_after: object) -> None:
    hand = cards.pack_ranks(cards.parse("334"))
    plays = [cards.pack_ranks(cards.parse("33")), cards.pack_ranks(cards.parse("44"))]
    with pytest.raises(ValueError, match="play 1 holds cards the hand does not"):
        moves_after(hand, plays)  # type: ignore[operator]


@needs_split
@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: _split.moves_of(-1), ValueError, "may not be negative"),
    (lambda: _split.moves_of(2**128), OverflowError, "too big|wider than 128 bits"),
    (lambda: _split.moves_of(1 << (cards.FIELD_BITS * 15)), ValueError, "above the big joker"),
    (lambda: _split.moves_of("33"), TypeError, "must be an int"),
    (lambda: _split.moves_after(0, 5), TypeError, "plays must be a sequence"),
    (lambda: _split.moves_after(0, ["3"]), TypeError, "must be an int"),
    (lambda: _split.moves_after(0), TypeError, "takes two arguments"),
])
def test_the_compiled_split_refuses_what_is_not_a_card_set(call: object, error: type,
                                                           message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]
