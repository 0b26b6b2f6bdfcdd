"""``ddz botzone``: Botzone's requests answered with legal plays, whole hands of requests made
as the judges make them, and hostile inputs refused in one line."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz_rules import cards, load
from ddz_rules.bots.botzone import KEEP_RUNNING, game_of, respond
from ddz_rules.cli import main
from ddz_rules.errors import DdzError, IllegalPlayError, RecordError, UsageError
from ddz_rules.records import replay, to_record
from tests.botzone_judge import play_hand
from tests.damage import damaged

FIXTURES = Path(__file__).parent / "fixtures" / "botzone"


def answer_with(level: str) -> object:
    return lambda text: respond(text, level)


@pytest.mark.parametrize("two", [False, True], ids=["FightTheLandlord", "FightTheLandlord2"])
@pytest.mark.parametrize("level", ["random", "standard", "medium"])
def test_every_request_of_whole_hands_gets_a_legal_answer(two: bool, level: str) -> None:
    ruleset = load("botzone" if two else "botzone-ftl1")
    for seed in range(4):
        hand, seats = play_hand(ruleset, seed, answer_with(level), two)  # type: ignore[arg-type]
        assert hand.result is not None
        record = to_record(hand)
        outcome = replay(record)
        assert outcome.valid, outcome.reason
        assert sum(len(s.requests) for s in seats) == len(record["auction"]) + len(
            record["plays"])


def test_the_preset_is_read_from_the_requests() -> None:
    bidding = json.loads((FIXTURES / "ftl2-bid.json").read_text())["requests"]
    first_game = json.loads((FIXTURES / "ftl1-landlord-leads.json").read_text())["requests"]
    assert game_of(bidding) == "botzone" and game_of(first_game) == "botzone-ftl1"


@pytest.mark.parametrize(("fixture", "check"), [
    ("ftl1-landlord-leads.json", lambda r: isinstance(r, list) and r),
    ("ftl1-forced-pass.json", lambda r: r == []),
    ("ftl1-second-peasant.json", lambda r: isinstance(r, list)),
    ("ftl2-bid.json", lambda r: r in (0, 2, 3)),
    ("ftl2-landlord-leads.json", lambda r: isinstance(r, list) and r),
    ("ftl2-after-bid-3.json", lambda r: isinstance(r, list)),
])
def test_a_request_gets_botzones_answer(fixture: str, check: object,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    text = (FIXTURES / fixture).read_text()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["botzone"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    value = json.loads(out)["response"]
    assert check(value)  # type: ignore[operator]
    if isinstance(value, list) and value:
        request = json.loads(text)["requests"][-1]
        own = request.get("own") or json.loads(text)["requests"][0]["own"]
        held = set(own) | set(request.get("publiccard", []) if request.get("pos") ==
                              request.get("landlord") else [])
        assert set(value) <= held


def test_a_forced_pass_answers_the_rocket_with_a_pass() -> None:
    text = (FIXTURES / "ftl1-forced-pass.json").read_text()
    for level in ("random", "standard", "medium", "extreme"):
        assert respond(text, level) == []


def test_one_input_always_gets_one_answer() -> None:
    text = (FIXTURES / "ftl1-landlord-leads.json").read_text()
    assert respond(text, "random") == respond(text, "random")


def test_the_long_running_mode_answers_each_request(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    first = json.loads((FIXTURES / "ftl1-landlord-leads.json").read_text())
    lines = [json.dumps(first), json.dumps({"history": [[], []]})]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        ("\n".join(lines) + "\n").encode())))
    assert main(["botzone", "--keep-running", "--level", "standard"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == KEEP_RUNNING and out[3] == KEEP_RUNNING
    opening, second = json.loads(out[0])["response"], json.loads(out[2])["response"]
    assert opening and second and not set(opening) & set(second)


@pytest.mark.parametrize(("fixture", "said"), [
    ("card-twice.json", "field requests.0.own: card 19 appears twice"),
    ("out-of-range.json", "field requests.0.history.1: '54' is not a card (0 to 53)"),
    ("truncated.json", "not JSON"),
    ("own-card-in-history.json", "field requests.0.history.1: card 19 is this seat's"),
    ("illegal-history.json", "seat 1's 46 is not a move botzone-ftl1 allows here"),
    ("illegal-response.json", "field responses.0: seat 0's 556778899TTJQKKA22BR is not a move"),
    ("missing-response.json", "2 requests and 0 responses"),
    ("not-an-object.json", "a Botzone input is a JSON object"),
])
def test_hostile_inputs_get_one_line_and_no_answer(fixture: str, said: str,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (FIXTURES / fixture).read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert main(["botzone"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("ddz: error: input")
    assert said in captured.err


@pytest.mark.parametrize(("fixture", "said"), [
    ("card-twice.json", "field requests.0.own: card 19 appears twice"),
    ("truncated.json", "not JSON"),
])
def test_an_input_read_from_a_file_is_named_by_the_file(
        fixture: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / fixture)
    assert main(["botzone", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"ddz: error: {path}") and said in err


def test_a_request_of_another_game_is_refused_under_a_ruleset_that_cannot_deal_it() -> None:
    text = (FIXTURES / "ftl1-landlord-leads.json").read_text()
    with pytest.raises(UsageError, match="does not deal Botzone's game"):
        respond(text, "random", ruleset="two-player")


def test_an_auction_the_requests_contradict_is_refused() -> None:
    data = json.loads((FIXTURES / "ftl2-landlord-leads.json").read_text())
    data["requests"][1]["finalbid"] = 3  # seat 2 bid 2, the last bid: the auction ended at 2
    with pytest.raises(RecordError, match="no auction of botzone with these bids"):
        respond(json.dumps(data), "random")


def test_the_botzone_presets_shuttle_kickers_differ() -> None:
    two, one = load("botzone"), load("botzone-ftl1")
    from ddz_rules.table import compile_table

    six = cards.key_text(cards.pack_ranks(cards.parse("333344445678")))
    assert compile_table(two).read_play(six)[1][0].type == "shuttle_singles"
    with pytest.raises(IllegalPlayError):
        compile_table(one).read_play(six)


def test_a_whole_hand_of_answers_is_a_record_ddz_replay_accepts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand, _ = play_hand(load("botzone"), 11, answer_with("medium"), True)  # type: ignore[arg-type]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(to_record(hand)))
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"]


@given(st.sampled_from(sorted(FIXTURES.glob("ftl*.json"))), st.randoms(use_true_random=False),
       st.integers(min_value=1, max_value=4))
def test_a_damaged_input_gets_an_answer_or_one_refusal_never_a_crash(
        path: Path, rng: random.Random, times: int) -> None:
    data = json.loads(path.read_text())
    for _ in range(times):
        data = damaged(data, rng)
    with contextlib.suppress(DdzError):  # any other exception fails the test
        respond(json.dumps(data), "random")
