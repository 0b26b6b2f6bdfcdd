"""Run Fast records: the suited deal written and checked, every play rule enforced on replay,
simulated hands that replay, and matches of hands with no landlord."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddz_rules import cards, load
from ddz_rules.cli import main
from ddz_rules.errors import RecordError
from ddz_rules.game import Hand, deal
from ddz_rules.match import hand_winners, side_winners
from ddz_rules.records import read_record, replay, replay_match, to_record
from ddz_rules.ruleset import bundled_ids

from .conftest import FIXTURES
from .replays import assert_refused

RECORDS = FIXTURES / "records"
RUN_FAST = RECORDS / "run-fast"
VALID = RUN_FAST / "valid.json"
CASES = yaml.safe_load((RUN_FAST / "cases.yaml").read_text(encoding="utf-8"))


def valid_record() -> dict[str, Any]:
    return read_record(str(VALID))


def refusal(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as caught:
        replay(record)
    message = str(caught.value)
    assert "\n" not in message
    return message


# --------------------------------------------------------------------------- writing


def test_a_suited_deck_writes_each_seats_suited_cards_lowest_first_and_the_rest() -> None:
    for ruleset_id, size, rest in (("run-fast", 16, 0), ("run-fast-15", 15, 3)):
        ruleset = load(ruleset_id)
        hand = Hand.new(ruleset, seed=5)
        suited = to_record(hand)["deal"]["suited"]
        order = ruleset.suited_deck
        assert [len(h) for h in suited["hands"]] == [size] * 3 and len(suited["rest"]) == rest
        for held, key in zip(suited["hands"], hand.deal.hands, strict=True):
            assert held == sorted(held, key=order.index)
            assert cards.pack_ranks([cards.parse_suited(c)[0] for c in held]) == key
        dealt = [c for h in suited["hands"] for c in h] + suited["rest"]
        assert sorted(dealt) == sorted(order) and len(order) == 48


@pytest.mark.parametrize("ruleset_id", [r for r in bundled_ids() if not load(r).suits])
def test_a_deck_without_suits_writes_no_suited_deal(ruleset_id: str) -> None:
    assert "suited" not in to_record(Hand.new(load(ruleset_id), seed=1))["deal"]


def test_the_engine_writes_the_valid_fixture_again_from_its_seed() -> None:
    record = valid_record()
    outcome = replay(record, str(VALID))
    assert outcome.valid, outcome.reason
    assert to_record(outcome.hand) == record


# --------------------------------------------------------------------------- replaying


def test_a_valid_run_fast_record_replays_to_the_first_player_out_and_zero_sum_scores(
        capsys: pytest.CaptureFixture[str]) -> None:
    record = valid_record()
    assert main(["replay", str(VALID), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == {"valid": True, **record["result"]}
    assert result["winner"] == "first_out" and result["landlord"] is None
    assert result["first_out"] == 2 and result["cards_left"] == [1, 2, 0]
    assert result["bombs_paid"] == [{"bonus": "bomb", "seat": 0, "from_each_other_seat": 10}]
    assert sum(result["scores"]) == 0
    assert main(["replay", str(VALID)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("valid: seat 2 went out first") and "bomb by seat 0" in out


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_broken_run_fast_record_is_refused_with_the_rule_it_breaks(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    case = CASES[name]
    assert_refused(RUN_FAST / name, case, capsys)


def test_a_run_fast_record_without_its_suited_deal_is_refused() -> None:
    record = valid_record()
    del record["deal"]["suited"]
    message = refusal(record)
    assert "field deal.suited" in message and "deck has suits (deck.suits: SHCD)" in message


def test_a_suited_deal_on_a_deck_without_suits_is_refused() -> None:
    record = read_record(str(RECORDS / "s1-bid-2-one-bomb.json"))
    record["deal"]["suited"] = valid_record()["deal"]["suited"]
    message = refusal(record)
    assert "field deal.suited" in message and "has no suits; leave the field out" in message


def test_suited_cards_that_disagree_with_the_ranks_are_refused() -> None:
    record = valid_record()
    hands = record["deal"]["suited"]["hands"]
    first, second = hands[0][0], next(c for c in hands[1] if c[:-1] != hands[0][0][:-1])
    hands[0][0], hands[1][hands[1].index(second)] = second, first
    message = refusal(record)
    assert "field deal.suited.hands.0: its ranks are" in message and "deal.hands.0 is" in message


def test_a_card_of_the_deck_in_neither_the_hands_nor_the_rest_is_refused() -> None:
    record = to_record(Hand.new(load("run-fast-15"), seed=2))
    lost = record["deal"]["suited"]["rest"].pop()
    message = refusal(record)
    assert "field deal.suited: 1 card(s)" in message and lost in message


def test_a_first_bidder_other_than_the_lead_cards_holder_is_refused_naming_the_card() -> None:
    record = valid_record()
    leader = record["first_bidder"]
    record["first_bidder"] = (leader + 1) % 3
    message = refusal(record)
    assert f"field first_bidder: seat {leader} holds the 3 of spades and leads first" in message


def test_the_lowest_card_dealt_leads_when_the_lead_card_is_set_aside() -> None:
    ruleset = load("run-fast-15")
    seed = next(s for s in range(200) if "3S" in deal(ruleset, s).suited_rest)
    record = to_record(Hand.new(ruleset, seed))
    lowest = next(c for c in ruleset.suited_deck
                  if any(c in h for h in record["deal"]["suited"]["hands"]))
    assert lowest != "3S" and lowest in record["deal"]["suited"]["hands"][record["first_bidder"]]
    record["first_bidder"] = (record["first_bidder"] + 1) % 3
    assert f"holds the {cards.suited_name(lowest)} and leads first" in refusal(record)


def test_an_auction_word_in_a_run_fast_record_is_refused_as_there_is_no_auction() -> None:
    record = valid_record()
    record["auction"] = ["3"]
    outcome = replay(record)
    assert not outcome.valid and outcome.index == 0 and outcome.action == "3"
    assert outcome.reason is not None and "there is no auction and no landlord" in outcome.reason


def test_a_result_of_an_unknown_winner_does_not_validate() -> None:
    record = valid_record()
    record["result"]["winner"] = "nobody"
    assert "field result.winner" in refusal(record)


# --------------------------------------------------------------------------- simulate


def test_simulated_run_fast_hands_write_records_that_replay_with_zero_sum_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-r", "run-fast", "--hands", "30", "--seed", "1",
                 "--records", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 30 and summary["redeals"] == 0 and "landlord_wins" not in summary
    assert sum(summary["first_out"].values()) == 30
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 30
    bombs = 0
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert [cards.size(cards.pack_ranks(cards.parse(h))) for h in record["deal"]["hands"]] \
            == [16, 16, 16]
        suited = record["deal"]["suited"]
        assert len({c for h in suited["hands"] for c in h} | set(suited["rest"])) == 48
        assert main(["replay", str(path), "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["valid"] and result["winner"] == "first_out" and sum(result["scores"]) == 0
        assert result["cards_left"][result["first_out"]] == 0
        bombs += len(result["bombs_paid"])
    assert summary["bombs_paid"].get("bomb", 0) == bombs


def test_the_simulate_summary_without_a_landlord_speaks_of_first_out_and_bombs(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "-r", "run-fast-15", "--hands", "20", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "no landlord" in out and "landlord won" not in out
    assert "first out: seat 0" in out and "shut out:" in out and "bombs paid:" in out


# --------------------------------------------------------------------------- matches


def test_the_first_player_out_alone_wins_a_hand_of_a_match() -> None:
    outcome = replay(valid_record())
    assert outcome.hand.result is not None
    assert hand_winners(outcome.hand.result) == (2,)
    assert side_winners(3, None, "first_out", first_out=1) == (1,)
    classic = replay(read_record(str(RECORDS / "s1-bid-2-one-bomb.json"))).hand.result
    assert classic is not None
    assert hand_winners(classic) == side_winners(3, classic.landlord, classic.winner)


def test_a_run_fast_match_adds_up_and_its_record_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    assert main(["match", "-r", "run-fast", "--seed", "4", "--record", str(path),
                 "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["counted"] == 10 and len(row["hands"]) == 10
    assert sum(row["hands_won"]) == 10  # one first player out a hand
    assert row["totals"] == [sum(h["scores"][s] for h in row["hands"]) for s in range(3)]
    assert sum(row["totals"]) == 0
    assert all(len(h["winners"]) == 1 for h in row["hands"])
    assert main(["replay", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["valid"] and checked["totals"] == row["totals"]
    assert checked["hands_won"] == row["hands_won"] and checked["winners"] == row["winners"]


def test_a_run_fast_match_record_with_wrong_totals_is_refused(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    path = tmp_path / "match.json"
    assert main(["match", "-r", "run-fast", "--seed", "4", "--record", str(path)]) == 0
    capsys.readouterr()
    record = json.loads(path.read_text(encoding="utf-8"))
    record["totals"] = [t + 1 if s == 0 else t - 1 if s == 1 else t
                        for s, t in enumerate(record["totals"])]
    with pytest.raises(RecordError, match="field totals: the record says"):
        replay_match(copy.deepcopy(record), str(path))


def test_a_record_whose_stated_result_disagrees_with_its_plays_is_not_valid(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every field the record states is checked against what its plays give: the verdict
    names the field, in JSON and in one line of text, and exits 1."""
    path = RUN_FAST / "result-scores-changed.json"
    assert main(["replay", str(path), "--json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["valid"] is False and payload["field"] == "result.scores"
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert out == ("invalid: field result.scores: the record says [19, -12, -7], but its "
                   "actions give [20, -12, -8]\n")


def test_a_record_stating_part_of_its_result_is_checked_on_that_part_alone() -> None:
    record = valid_record()
    record["result"] = {"first_out": 2, "scores": record["result"]["scores"]}
    assert replay(record, str(VALID)).valid
    record["result"]["first_out"] = 1
    outcome = replay(record, str(VALID))
    assert not outcome.valid and outcome.field == "result.first_out"


def test_a_classic_record_with_a_wrong_multiplier_is_not_valid() -> None:
    record = json.loads((FIXTURES / "records" / "s1-bid-2-one-bomb.json").read_text())
    assert replay(record, "s1.json").valid
    record.setdefault("result", {})["multiplier"] = 4
    outcome = replay(record, "s1.json")
    assert not outcome.valid and outcome.field == "result.multiplier"
    assert "the record says 4, but its actions give 2" in str(outcome.reason)
