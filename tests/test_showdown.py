"""Other projects' replays: rlcard-showdown's replay JSON and RLCard's traces, to and from
hand records, judged by our referee."""

from __future__ import annotations

import contextlib
import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz_rules.auction import cheapest_auction
from ddz_rules.cli import main
from ddz_rules.errors import DdzError
from ddz_rules.records import read_record, replay, to_record
from ddz_rules.ruleset import load
from ddz_rules.showdown import read_replay, to_showdown
from ddz_rules.simulate import simulate
from tests.damage import damaged

FIXTURES = Path(__file__).parent / "fixtures" / "showdown"


def records_of(ruleset_id: str, folder: Path, hands: int = 6) -> list[Path]:
    simulate(load(ruleset_id), hands, seed=3, records=folder)
    return sorted(folder.glob(f"{ruleset_id}-*.json"))


@pytest.mark.parametrize("ruleset_id", ["rlcard", "classic", "call-and-grab", "douzero"])
def test_an_exported_replay_loads_back_into_the_same_record(ruleset_id: str,
                                                            tmp_path: Path) -> None:
    for path in records_of(ruleset_id, tmp_path):
        record = read_record(str(path))
        if record.get("result", {}).get("redeal"):
            continue  # a hand thrown in has no replay
        exported = to_showdown(record, str(path))
        replay_file = tmp_path / "replay.json"
        replay_file.write_text(json.dumps(exported))
        imported = read_replay(str(replay_file), "showdown")
        assert imported.fault is None
        expected = {k: v for k, v in record.items() if k != "result"}
        assert imported.record == expected
        assert to_showdown(imported.record) == exported


def test_an_exported_replay_is_what_the_viewer_needs(tmp_path: Path) -> None:
    path = records_of("rlcard", tmp_path, 1)[0]
    exported = to_showdown(read_record(str(path)))
    hands = [h.split() for h in exported["initHands"]]
    landlord = next(p["index"] for p in exported["playerInfo"] if p["role"] == "landlord")
    assert sorted(len(h) for h in hands) == [17, 17, 20] and len(hands[landlord]) == 20
    assert len({c for h in hands for c in h}) == 54
    seat = landlord
    for move in exported["moveHistory"]:  # the viewer's checks: turns, cards held, info
        assert move["playerIdx"] == seat and move["info"] == []
        if move["move"] != "pass":
            for card in move["move"].split():
                hands[seat].remove(card)
        seat = (seat + 1) % 3
    assert [] in hands  # the hand ends with a seat out of cards


def test_the_tournament_servers_python_repr_form_is_read() -> None:
    plain = read_replay(str(FIXTURES / "replay.json"), "showdown")
    quoted = read_replay(str(FIXTURES / "tournament-repr.json"), "showdown")
    assert plain.record == quoted.record
    assert replay(plain.record).valid


def test_a_replay_without_a_kitty_gives_the_landlord_three_highest_or_the_one_named() -> None:
    default = read_replay(str(FIXTURES / "replay.json"), "showdown")
    assert default.record["deal"]["kitty"] == "222"
    named = read_replay(str(FIXTURES / "replay.json"), "showdown", kitty="S7 S8 S9")
    assert named.record["deal"]["kitty"] == "789"
    assert replay(named.record).hand.result == replay(default.record).hand.result


def test_an_rlcard_trace_is_judged_under_rlcards_rules(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    out = tmp_path / "hand.json"
    assert main(["import", "--format", "rlcard-trace", str(FIXTURES / "trace.json"),
                 "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["ruleset"] == "rlcard" and record["deal"]["kitty"] == "789"
    assert main(["replay", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert result["valid"] and result["winner"] == "landlord"


def test_a_move_their_rules_allow_and_ours_do_not_is_named(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    out = tmp_path / "hand.json"
    assert main(["import", "--format", "rlcard-trace", str(FIXTURES / "illegal-trace.json"),
                 "--out", str(out)]) == 0
    assert "action 1 of the record is not allowed by rlcard: 34 is not a legal play" in (
        capsys.readouterr().err)
    assert main(["replay", str(out)]) == 1
    said = capsys.readouterr().out
    assert "invalid: action 1 ('34')" in said and "straight" in said


def test_replay_judges_a_record_under_another_ruleset(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    out = tmp_path / "hand.json"
    assert main(["import", "--format", "rlcard-trace", str(FIXTURES / "trace.json"), "-r",
                 "classic", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "-r", "happy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"]


@pytest.mark.parametrize(("fixture", "said"), [
    ("card-twice.json", "field initHands.1: S3 is also in initHands.0"),
    ("not-held.json", "field moveHistory.3.move: seat 0 plays RJ, which it does not hold"),
    ("wrong-turn.json", "field moveHistory.1.playerIdx: seat 2 moves where seat 1 is next"),
    ("two-landlords.json", "field playerInfo: 2 landlords"),
    ("not-a-card.json", "field initHands.0: 'S10' is not a card"),
    ("truncated.json", ":1: not JSON"),
    ("trace.json", "'initHands' is a required property"),
])
def test_hostile_replays_get_one_line(fixture: str, said: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / fixture)
    assert main(["import", "--format", "showdown", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"ddz: error: {path}")
    assert said in err


@pytest.mark.parametrize(("fixture", "said"), [
    ("trace-rank-overflow.json", "field hand_cards.2: 32 cards of rank B, where the deck holds 1"),
    ("trace-kitty-overflow.json", "field seen_cards: 33 cards of rank 7, where the deck holds 4"),
    ("trace-play-overflow.json", "field trace.0: 33 cards of rank 7, where the deck holds 4"),
])
def test_an_rlcard_trace_with_more_cards_of_a_rank_than_the_deck_is_refused(
        fixture: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Counts past a rank's field would carry into the next rank and read as other cards."""
    path = str(FIXTURES / fixture)
    assert main(["import", "--format", "rlcard-trace", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"ddz: error: {path}: ") and said in err


def test_a_hand_without_a_landlord_has_no_replay(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = records_of("run-fast", tmp_path, 1)[0]
    assert main(["export", str(path)]) == 2
    assert "has no rlcard-showdown replay" in capsys.readouterr().err


def test_export_never_overwrites_another_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = records_of("rlcard", tmp_path, 1)[0]
    out = tmp_path / "taken.json"
    out.write_text("mine")
    assert main(["export", str(path), "--out", str(out)]) == 2
    assert "nothing was overwritten" in capsys.readouterr().err and out.read_text() == "mine"


def test_cheapest_auction_makes_the_landlord_at_the_lowest_stake() -> None:
    classic = load("classic")
    assert cheapest_auction(classic, first=2, landlord=2) == ("1", "pass", "pass")
    assert cheapest_auction(load("douzero"), first=0, landlord=0) == ()
    assert cheapest_auction(load("douzero"), first=0, landlord=1) is None


@given(st.sampled_from([("showdown", "replay.json"), ("rlcard-trace", "trace.json")]),
       st.randoms(use_true_random=False), st.integers(min_value=1, max_value=4))
def test_a_damaged_replay_is_read_or_refused_in_one_line_never_a_crash(
        case: tuple[str, str], rng: random.Random, times: int) -> None:
    form, name = case
    data = json.loads((FIXTURES / name).read_text())
    for _ in range(times):
        data = damaged(data, rng)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.json"
        path.write_text(json.dumps(data))
        with contextlib.suppress(DdzError):  # any other exception fails the test
            read_replay(str(path), form)


def test_a_play_that_reads_several_ways_keeps_its_reading_through_a_replay(
        tmp_path: Path) -> None:
    ruleset = load("openspiel")  # 333444555666 reads three ways there; its player names one
    rest = [r for r in "3456789TJQKA2" for _ in range(4)] + ["B", "R"]
    for card in "333444555666":
        rest.remove(card)
    hands = ["333444555666" + "".join(rest[:5]), "".join(rest[5:22]), "".join(rest[22:39])]
    record = {"ruleset": ruleset.id, "dealer": 2, "first_bidder": 0,
              "deal": {"hands": hands, "kitty": "".join(rest[39:42]), "undealt": ""},
              "auction": ["3"], "plays": []}
    hand = replay(record).hand
    hand.apply("333444555666@airplane_singles/3/5")
    rng = random.Random(1)
    while hand.result is None:
        hand.apply(rng.choice(hand.legal_actions()))
    played = to_record(hand)
    assert "333444555666@airplane_singles/3/5" in played["plays"]
    exported = to_showdown(played)
    assert exported["moveHistory"][0]["reading"] == "airplane_singles/3/5"
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(exported))
    imported = read_replay(str(path), "showdown").record
    assert imported == {k: v for k, v in played.items() if k != "result"}
