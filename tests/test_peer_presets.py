"""The peer presets reproduce the play rules of RLCard, DouZero and OpenSpiel, and the games of
RLCard and DouZero: no auction, and their scores.

The counts are public facts about those engines; the dumps in ``fixtures/peers`` were written
from the engines themselves by ``benchmarks/dump_peer_plays.py``, so these tests compare the
presets with the real play sets card set by card set, without needing the engines installed.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from ddz_rules import load
from ddz_rules.cards import key_text
from ddz_rules.game import Hand, Played, Said
from ddz_rules.simulate import hand_seed, play_random

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


# --------------------------------------------------------------------------- the peers' games


def _played_hands(preset: str, n: int) -> list[Hand]:
    return [play_random(load(preset), hand_seed(seed, 0), dealer=seed % 3) for seed in range(n)]


@pytest.mark.parametrize("preset", ["rlcard", "douzero"])
def test_peer_game_has_no_auction_the_dealt_landlord_holds_a_bid_of_1(preset: str) -> None:
    ruleset = load(preset)
    assert (ruleset.auction_family, ruleset.first_bidder, ruleset.fixed_bid) == (
        "none", "random", 1)
    for hand in _played_hands(preset, 20):
        assert hand.result is not None and not hand.result.redeal
        assert hand.result.landlord == hand.deal.first_bidder
        assert not any(isinstance(op, Said) for op in hand.log)


def _rlcard_payoffs(landlord: int, landlord_won: bool) -> list[int]:
    """RLCard 1.2.0's ``DoudizhuJudger.judge_payoffs``: 1 to each winner, 0 to each loser."""
    return [int((seat == landlord) == landlord_won) for seat in range(3)]


def test_rlcard_pays_the_same_sides_as_its_1_0_payoffs() -> None:
    for hand in _played_hands("rlcard", 40):
        result = hand.result
        assert result is not None and result.landlord is not None
        payoffs = _rlcard_payoffs(result.landlord, result.winner == "landlord")
        assert [int(s > 0) for s in result.scores] == payoffs
        assert sorted(abs(s) for s in result.scores) == [1, 1, 2]  # the stake is always 1
        assert all(e.factor == 1 for e in result.events)


def _douzero_scores(landlord: int, landlord_won: bool, bombs: int) -> list[int]:
    """DouZero 1.1.0's ``GameEnv.update_num_wins_scores`` per seat: the landlord +-2 x 2^b,
    each farmer -+1 x 2^b, b counting bombs and rockets."""
    sign = 1 if landlord_won else -1
    return [sign * (2 if seat == landlord else -1) * 2 ** bombs for seat in range(3)]


def test_douzero_scores_as_its_game_does() -> None:
    seen_bombs = 0
    for hand in _played_hands("douzero", 60):
        result = hand.result
        assert result is not None and result.landlord is not None
        bombs = sum(1 for op in hand.log if isinstance(op, Played)
                    and op.play.reading.type in ("bomb", "rocket"))
        seen_bombs += bombs
        assert list(result.scores) == _douzero_scores(result.landlord,
                                                      result.winner == "landlord", bombs)
    assert seen_bombs  # the deals tried include bombs or rockets
