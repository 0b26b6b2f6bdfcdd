"""Hand records: each source text's worked example replayed, bad records refused precisely,
and every simulated hand replayable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ddz_rules import load
from ddz_rules.cli import main
from ddz_rules.records import read_record, replay, to_record
from ddz_rules.simulate import play_random, simulate

from .conftest import FIXTURES, RULESETS
from .replays import assert_refused

RECORDS = FIXTURES / "records"
BAD = RECORDS / "bad"
BAD_CASES = yaml.safe_load((BAD / "cases.yaml").read_text())


def replayed(name: str) -> dict[str, object]:
    outcome = replay(read_record(str(RECORDS / name)))
    assert outcome.valid, outcome.reason
    return outcome.to_json()


def _scores_by_role(result: dict[str, object]) -> tuple[int, list[int]]:
    scores = list(result["scores"])  # type: ignore[call-overload]
    landlord = scores.pop(result["landlord"])  # type: ignore[call-overload]
    return landlord, scores


def _events(result: dict[str, object]) -> list[str]:
    return sorted(e["event"] for e in result["events"])  # type: ignore[attr-defined]


def test_s1_worked_example_bid_2_one_bomb_no_spring_pays_4_per_peasant() -> None:
    result = replayed("s1-bid-2-one-bomb.json")
    assert result["base"] == 2 and _events(result) == ["bomb"]
    assert _scores_by_role(result) == (8, [-4, -4])


def test_s2_worked_example_two_robs_and_one_bomb_are_worth_8() -> None:
    result = replayed("s2-two-robs-one-bomb.json")
    assert result["base"] == 1 and _events(result) == ["bomb", "rob", "rob"]
    assert result["multiplier"] == 8
    assert sorted(result["scores"]) == [-8, 8]  # type: ignore[type-var]


def test_s3_worked_example_bid_3_two_bombs_pays_12_from_each_peasant() -> None:
    result = replayed("s3-bid-3-two-bombs.json")
    assert result["base"] == 3 and _events(result) == ["bomb", "bomb"]
    assert _scores_by_role(result) == (24, [-12, -12])


def test_s4_worked_example_bid_2_a_bomb_and_the_rocket_pay_8_from_each() -> None:
    result = replayed("s4-bid-2-bomb-and-rocket.json")
    assert result["base"] == 2 and _events(result) == ["bomb", "rocket"]
    assert result["winner"] == "landlord"
    assert _scores_by_role(result) == (16, [-8, -8])


def test_happy_a_peasant_dealt_both_jokers_is_paid_1_by_each_other_seat_when_he_loses(
        capsys: pytest.CaptureFixture[str]) -> None:
    # bid 3 and the peasant's rocket: S = 6; landlord +12, peasants -6 each, then seat 1's
    # double joker is paid 1 by seat 0 and by seat 2
    result = replayed("happy-peasant-dealt-both-jokers.json")
    assert result["landlord"] == 0 and result["winner"] == "landlord"
    assert result["base"] == 3 and result["multiplier"] == 2 and _events(result) == ["rocket"]
    assert result["bonuses"] == [{"bonus": "double_joker", "seat": 1, "from_each_other_seat": 1}]
    assert result["scores"] == [11, -4, -7]
    assert main(["replay", str(RECORDS / "happy-peasant-dealt-both-jokers.json")]) == 0
    out = capsys.readouterr().out
    assert "bonus double_joker: seat 1 is paid 1 by each other seat" in out
    assert "scores [11, -4, -7]" in out


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_record_is_refused_with_index_or_field(name: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    case = BAD_CASES[name]
    assert_refused(BAD / name, case, capsys)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_simulated_hand_replays_to_the_same_result(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    for seed in range(15):
        hand = play_random(ruleset, seed, dealer=seed % ruleset.players)
        record = json.loads(json.dumps(to_record(hand)))
        outcome = replay(record)
        assert outcome.valid, outcome.reason
        assert outcome.to_json() == {"valid": True, **record["result"]}


def test_simulate_writes_records_that_replay(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-r", "two-player", "--hands", "5", "--seed", "3",
                 "--records", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 5
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == summary["hands"] + summary["redeals"]
    for path in files:
        assert main(["replay", str(path)]) == 0
    assert "valid: landlord seat" in capsys.readouterr().out


def test_simulate_is_reproducible_from_its_seed() -> None:
    a = simulate(load("classic"), 30, seed=11)
    b = simulate(load("classic"), 30, seed=11)
    assert a == b and a.hands == 30


def test_simulate_refuses_zero_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "0"]) == 2
    assert "--hands must be between 1 and" in capsys.readouterr().err


def test_replay_prints_the_documented_result_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORDS / "s1-bid-2-one-bomb.json"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"valid", "landlord", "base", "multiplier", "events", "scores"} <= set(result)


@pytest.mark.parametrize("named", ["/tmp/elsewhere.yaml", "nonexistent"])
def test_replay_under_another_ruleset_takes_a_bundled_id_and_says_so(
        named: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Not blamed on the record's ruleset field, which the user never wrote."""
    assert main(["replay", str(RECORDS / "s1-bid-2-one-bomb.json"), "-r", named]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--ruleset {named!r}: a bundled ruleset's id" in err
    assert "field ruleset" not in err
