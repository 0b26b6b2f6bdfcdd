"""Plays and words as people say them (``ddz_rules.words``): golden names from a fixture, and
over every reading of every bundled ruleset's table, a name of one line in words (no engine
notation) that no other reading of the ruleset shares."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ddz_rules import bundled_ids, load
from ddz_rules.cards import RANKS
from ddz_rules.table import compile_table
from ddz_rules.words import play_words, reading_words, word_words

GOLDEN = yaml.safe_load((Path(__file__).parent / "fixtures" / "words" / "plays.yaml")
                        .read_text(encoding="utf-8"))


@pytest.mark.parametrize(("ruleset", "text", "said"), [
    (rid, text, said) for rid, plays in GOLDEN.items() if rid != "words"
    for text, said in plays.items()])
def test_a_play_is_named_as_people_say_it(ruleset: str, text: str, said: str) -> None:
    table = compile_table(load(ruleset))
    assert play_words(table.ruleset, table.play(text)) == said


@pytest.mark.parametrize(("word", "said"), list(GOLDEN["words"].items()))
def test_an_auction_word_or_call_is_named_as_people_say_it(word: str, said: str) -> None:
    assert word_words(word) == said


@pytest.mark.parametrize("ruleset", bundled_ids())
def test_every_reading_has_a_name_in_words_that_no_other_reading_shares(ruleset: str) -> None:
    rs = load(ruleset)
    table = compile_table(rs)
    named: dict[str, tuple[int, object]] = {}
    for key in table:
        for reading in table.readings(key):
            said = reading_words(rs, reading)
            assert said and "\n" not in said and "_" not in said and "/" not in said, said
            earlier = named.setdefault(said, (key, reading))
            assert earlier == (key, reading), (said, earlier, key, reading)
    assert len(named) == sum(len(table.readings(key)) for key in table)


def test_a_wild_play_is_named_by_what_it_is_played_as() -> None:
    table = compile_table(load("laizi"))
    wild = (RANKS.index("5"),)
    key = table.play("3335@soft_bomb", wild).key
    said = sorted(reading_words(table.ruleset, r) for r in table.readings(key, wild))
    assert said == ["soft bomb of 3s", "three 3s and a 5"]
