"""The play table's invariants, for every bundled ruleset.

Unique reading where claimed; every play classifies back to itself; legal plays generated from a
hand equal brute-force filtering of the table; beats is a strict partial order in which only
higher classes (bombs, the rocket) cross types.
"""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz_rules import PlayTable, Reading, cards, compile_table, load
from ddz_rules.cards import key_text, pack_ranks, unpack

from .conftest import FIXTURES, RULESETS, table_of
from .digests import deal_digest, table_digest


def test_unique_reading_holds_exhaustively_where_claimed(table: PlayTable) -> None:
    ambiguous = table.ambiguous()
    if table.ruleset.settlement == "unique":
        assert ambiguous == [], [key_text(k) for k in ambiguous[:5]]
    for key in ambiguous:
        shorts = [r.short() for r in table.readings(key)]
        assert len(set(shorts)) == len(shorts) > 1


def test_every_play_reads_back_the_same_when_enumerated_from_its_own_cards(
        table: PlayTable) -> None:
    for key in table:
        assert table.read(key) == table.readings(key)


@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(data=st.data())
def test_generated_plays_classify_back_from_their_text(ruleset_id: str,
                                                      data: st.DataObject) -> None:
    table = compile_table(load(ruleset_id))
    key = data.draw(st.sampled_from(list(table)))
    assert table.classify(key_text(key)) == table.readings(key)
    assert table.explain(key).startswith("legal")


def test_golden_play_counts_by_type(table: PlayTable) -> None:
    golden = json.loads((FIXTURES / "golden_counts.json").read_text())[table.ruleset.id]
    assert len(table) == golden["plays"]
    assert table.by_type() == golden["by_type"]
    assert len(table.ambiguous()) == golden["ambiguous"]


def test_no_play_exceeds_the_largest_hand_or_the_deck(table: PlayTable) -> None:
    deck = table.ruleset.copies
    for key in table:
        counts = unpack(key)
        assert sum(counts) <= table.ruleset.max_hand
        assert all(n <= limit for n, limit in zip(counts, deck, strict=True))


def _deck(table: PlayTable) -> list[int]:
    return [r for r, n in enumerate(table.ruleset.copies) for _ in range(n)]


@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([17, 20, 25, 33]))
def test_legal_leads_equal_brute_force_filter(ruleset_id: str, seed: int, size: int) -> None:
    table = compile_table(load(ruleset_id))
    size = min(size, table.ruleset.max_hand)  # at most the ruleset's largest hand
    hand = pack_ranks(random.Random(seed).sample(_deck(table), size))
    generated = table.leads(hand)
    assert len(set(generated)) == len(generated)
    assert set(generated) == set(table.filter_leads(hand))


@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([1, 5, 17, 20, 25, 33]),
       pick=st.integers(0, 10**9))
def test_legal_answers_equal_brute_force_filter(ruleset_id: str, seed: int, size: int,
                                                pick: int) -> None:
    table = compile_table(load(ruleset_id))
    keys = list(table)
    previous = table.readings(keys[pick % len(keys)])[0]
    size = min(size, table.ruleset.max_hand)  # at most the ruleset's largest hand
    hand = pack_ranks(random.Random(seed).sample(_deck(table), size))
    generated = table.answers(hand, previous)
    assert len(set(generated)) == len(generated)
    assert set(generated) == set(table.filter_answers(hand, previous))


@cache
def _readings(table: PlayTable) -> list[Reading]:
    """Every reading of the table (kept: a property test draws from it at every example)."""
    return [r for k in table for r in table.readings(k)]


@cache
def _any_reading(table: PlayTable) -> st.SearchStrategy[Reading]:
    return st.sampled_from(_readings(table))


@cache
def _of_type(table: PlayTable, kind: tuple[str, int]) -> st.SearchStrategy[Reading]:
    return st.sampled_from(_by_type(table)[kind])


@cache
def _by_type(table: PlayTable) -> dict[tuple[str, int], list[Reading]]:
    """The readings of each type and chain length."""
    found: dict[tuple[str, int], list[Reading]] = {}
    for r in _readings(table):
        found.setdefault((r.type, r.length), []).append(r)
    return found


@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(data=st.data())
def test_beats_is_a_strict_partial_order(ruleset_id: str, data: st.DataObject) -> None:
    readings = _any_reading(compile_table(load(ruleset_id)))
    a, b, c = (data.draw(readings) for _ in range(3))
    assert not a.beats(a)
    assert not (a.beats(b) and b.beats(a))
    if a.beats(b) and b.beats(c):
        assert a.beats(c)


@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(data=st.data())
def test_beats_is_transitive_within_a_type_chain(ruleset_id: str, data: st.DataObject) -> None:
    table = compile_table(load(ruleset_id))
    a = data.draw(_any_reading(table))
    same = _of_type(table, (a.type, a.length))
    b, c = data.draw(same), data.draw(same)
    lo, mid, hi = sorted((a, b, c), key=lambda r: r.rank_index)
    if hi.rank_index > mid.rank_index > lo.rank_index:
        assert hi.beats(mid) and mid.beats(lo) and hi.beats(lo)


def test_only_higher_classes_cross_types(table: PlayTable) -> None:
    readings = _readings(table)
    by_class: dict[int, list[Reading]] = {}
    for r in readings:
        by_class.setdefault(r.level, []).append(r)
    levels = sorted(by_class)
    sample = random.Random(7)
    for low in levels:
        for high in levels:
            for _ in range(200):
                a, b = sample.choice(by_class[high]), sample.choice(by_class[low])
                if high > low:
                    assert a.beats(b) and not b.beats(a)
                elif (a.type, a.length) != (b.type, b.length):
                    # within a class, another type only where play.last_play_answers lets a
                    # short play to go out answer it, and then of the same length
                    assert not a.beats(b) or (b.type in a.also and a.length == b.length)


def test_a_play_answers_another_type_only_as_play_last_play_answers_says() -> None:
    """run-fast lets its short trios and airplanes, kept for the last play, answer the full
    ones; no other bundled ruleset lets any type answer another of its class."""
    answering = set()
    for ruleset_id in RULESETS:
        ruleset = load(ruleset_id)
        stated = dict(ruleset.data["play"].get("last_play_answers", {}).get("value", {}))
        assert {c.name: list(c.answers) for c in ruleset.combinations if c.answers} == stated
        assert set(stated) <= set(ruleset.last_play_only), ruleset_id
        if stated:
            answering.add(ruleset_id)
    assert answering == {"run-fast", "run-fast-15", "run-fast-45"}
    assert load("run-fast").combination("trio_single").answers == ("trio_two",)


def test_the_top_play_beats_every_other_and_nothing_beats_it(table: PlayTable) -> None:
    """The rocket (BR), or with two decks the four jokers (BBRR): one play, above all; in a
    deck without jokers, the highest play of the highest class (Run Fast's bomb of kings, or
    run-fast-15's three aces)."""
    top = max(c.level for c in table.ruleset.combinations)
    tops = [r for r in _readings(table) if r.level == top]
    best = max(tops, key=lambda r: r.rank_index)
    assert [r for r in tops if r.rank_index == best.rank_index] == [best]
    if table.ruleset.copies[cards.BIG_JOKER]:
        assert len(tops) == 1 and best.rank == "R"
    for reading in _readings(table):
        if reading != best:
            assert best.beats(reading) and not reading.beats(best)


def test_with_two_decks_more_cards_make_a_stronger_bomb() -> None:
    """four-player: a bomb of more cards beats any bomb of fewer; equal sizes compare by rank."""
    table = table_of("four-player")
    bombs = ["2222", "33333", "44444", "AAAAAA", "3333333", "22222222", "BBRR"]
    for i, low in enumerate(bombs):
        for high in bombs[i + 1:]:
            assert table.play(high).reading.beats(table.play(low).reading), (high, low)
            assert not table.play(low).reading.beats(table.play(high).reading), (low, high)
    assert table.classify("BR") == ()  # one joker of each is no play with two decks
    assert [r.short() for r in table.classify("BB")] == ["pair/1/B"]


def test_the_no_kitty_table_is_its_base_table_cut_to_an_18_card_hand() -> None:
    from ddz_rules import cards

    base, no_kitty = table_of("open-auction"), table_of("no-kitty")
    assert no_kitty.ruleset.max_hand == 18
    assert set(no_kitty) == {k for k in base if cards.size(k) <= 18}
    assert set(table_of("happy")) == set(base)  # bonuses change scores, never plays


def test_a_card_set_reads_each_type_length_and_rank_once(table: PlayTable) -> None:
    """Naming type/length/rank names one reading (``PlayTable.play``): a natural card set has
    one body per type, chain length and top rank, so its kickers are what is left over."""
    for key in table:
        readings = table.readings(key)
        assert len({r.short() for r in readings}) == len(readings), key


# ------------------------------------------------------------ older rulesets unchanged

#: Digests of the rulesets bundled before the language could say a game without a landlord,
#: written by ``python -m tests.digests`` from the code of that time (commit d73e29d).
GOLDEN_DIGESTS = json.loads((FIXTURES / "golden_digests.json").read_text())


@pytest.mark.parametrize("ruleset_id", sorted(GOLDEN_DIGESTS))
def test_an_older_rulesets_play_table_is_byte_identical(ruleset_id: str) -> None:
    assert table_digest(ruleset_id) == GOLDEN_DIGESTS[ruleset_id]["table"]


@pytest.mark.parametrize("ruleset_id", sorted(GOLDEN_DIGESTS))
def test_an_older_rulesets_deals_are_unchanged(ruleset_id: str) -> None:
    assert deal_digest(ruleset_id) == GOLDEN_DIGESTS[ruleset_id]["deals"]


def test_the_digests_cover_every_older_ruleset_and_tell_tables_apart() -> None:
    assert set(GOLDEN_DIGESTS) <= set(RULESETS) and len(GOLDEN_DIGESTS) == 14
    tables = {d["table"] for d in GOLDEN_DIGESTS.values()}
    assert GOLDEN_DIGESTS["classic"]["table"] != GOLDEN_DIGESTS["two-player"]["table"]
    assert table_digest("run-fast") not in tables and table_digest("run-fast-15") not in tables
