"""The peer presets reproduce the play rules of RLCard, DouZero and OpenSpiel.

The counts are public facts about those engines; the dumps in ``fixtures/peers`` were written
from the engines themselves by ``benchmarks/dump_peer_plays.py``, so these tests compare the
presets with the real play sets card set by card set, without needing the engines installed.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from ddz_rules.cards import key_text

from .conftest import FIXTURES, table_of

PEERS = FIXTURES / "peers"


def test_rlcard_table_holds_27471_plays_each_with_one_reading() -> None:
    table = table_of("rlcard")
    assert len(table) == 27_471
    assert table.ambiguous() == []


def test_douzero_generator_yields_29984_distinct_plays() -> None:
    assert len(table_of("douzero")) == 29_984


def test_openspiel_actions_cover_25661_card_sets_383_with_several_readings() -> None:
    table = table_of("openspiel")
    assert len(table) == 25_661
    assert len(table.ambiguous()) == 383


def _dump(name: str) -> dict[str, int]:
    path = PEERS / name
    if not path.exists():
        pytest.fail(f"missing fixture {path}")
    rows: dict[str, int] = {}
    with gzip.open(path, "rt") as handle:
        for line in handle:
            cards, _, count = line.rstrip("\n").partition("\t")
            rows[cards] = int(count or 1)
    return rows


@pytest.mark.parametrize(("preset", "dump"), [
    ("rlcard", "rlcard-1.2.0-plays.txt.gz"),
    ("douzero", "douzero-1.1.0-plays.txt.gz"),
    ("openspiel", "openspiel-2.0.2-plays.txt.gz"),
])
def test_preset_equals_the_engines_own_play_set(preset: str, dump: str) -> None:
    table = table_of(preset)
    ours = {key_text(k) for k in table}
    theirs = _dump(dump)
    assert sorted(ours - set(theirs))[:5] == [] and sorted(set(theirs) - ours)[:5] == []


def test_openspiel_readings_per_card_set_match_its_actions() -> None:
    table = table_of("openspiel")
    theirs = _dump("openspiel-2.0.2-plays.txt.gz")
    mismatched = [k for k in table if len(table.readings(k)) != theirs[key_text(k)]]
    assert [key_text(k) for k in mismatched[:5]] == []


def test_fixture_dumps_are_small_enough_to_ship() -> None:
    assert all(p.stat().st_size < 400_000 for p in Path(PEERS).glob("*.gz"))
