"""Deal sets: ours (JSON Lines) and DouZero's evaluation pickles, read, written and played.

``fixtures/dealsets/douzero-eval.pkl`` was made as DouZero's ``generate_eval_data.py`` makes
its deals (a shuffled list of its card integers, sliced into the four fields, each sorted,
pickled at the highest protocol), with Python's generator in place of NumPy's.
"""

from __future__ import annotations

import contextlib
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz_rules import cards, load
from ddz_rules.cli import main
from ddz_rules.compare.run import RunSpec, execute
from ddz_rules.dealsets import (
    DOUZERO_FIELDS,
    MAX_DEALS,
    dealset_schema,
    douzero_bytes,
    export_deals,
    jsonl_text,
    parse_deals,
    read_deals,
    seeded_deals,
)
from ddz_rules.errors import DdzError, RecordError, UsageError
from ddz_rules.game import Deal, Hand
from ddz_rules.records import record_schema
from ddz_rules.simulate import simulate

FIXTURES = Path(__file__).parent / "fixtures" / "dealsets"
DOUZERO_FILE = FIXTURES / "douzero-eval.pkl"


def same_cards(a: Deal, b: Deal) -> bool:
    """Two deals with the same cards, seats, dealer and first bidder (a seed aside)."""
    return (a.hands, a.kitty, a.undealt, a.dealer, a.first_bidder, a.marked_card,
            a.turned_card, a.wild, a.suited, sorted(a.suited_rest)) == (
        b.hands, b.kitty, b.undealt, b.dealer, b.first_bidder, b.marked_card, b.turned_card,
        b.wild, b.suited, sorted(b.suited_rest))


# ------------------------------------------------------------------------- DouZero


@pytest.mark.parametrize("ruleset_id", ["classic", "douzero", "rlcard", "happy"])
def test_douzero_deal_set_round_trips_byte_for_byte(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    raw = DOUZERO_FILE.read_bytes()
    dealset = read_deals(str(DOUZERO_FILE), ruleset)
    assert dealset.format == "douzero" and len(dealset.deals) == 20
    assert douzero_bytes(ruleset, dealset.deals) == raw


def test_douzero_landlord_is_the_first_speaker_and_takes_the_three_cards() -> None:
    ruleset = load("douzero")
    original = pickle.loads(DOUZERO_FILE.read_bytes())
    for index, (dealt, item) in enumerate(zip(read_deals(str(DOUZERO_FILE), ruleset).deals,
                                              original, strict=True)):
        assert dealt.dealer == index % 3 and dealt.first_bidder == (index + 1) % 3
        hand = Hand(ruleset, dealt)  # no auction: the deal names the landlord
        assert hand.landlord == dealt.first_bidder
        as_text = {name: "".join(sorted(cards.RANKS[{17: 12, 20: 13, 30: 14}.get(c, c - 3)]
                                        for c in item[name])) for name in DOUZERO_FIELDS}
        landlord = hand.landlord
        down, up = (landlord + 1) % 3, (landlord + 2) % 3
        for seat, name in ((landlord, "landlord"), (down, "landlord_down"),
                           (up, "landlord_up")):
            assert sorted(cards.key_text(hand.hands[seat])) == sorted(as_text[name])
        assert sorted(cards.key_text(dealt.kitty)) == sorted(as_text["three_landlord_cards"])


def test_douzero_export_of_seeded_deals_reads_back_the_same_cards() -> None:
    ruleset = load("classic")
    deals = seeded_deals(ruleset, 12, seed=5)
    back = parse_deals(douzero_bytes(ruleset, deals), "set.pkl", ruleset).deals
    for ours, theirs in zip(deals, back, strict=True):
        first = ours.first_bidder
        shift = theirs.first_bidder - first  # DouZero keeps positions, not seat numbers
        assert ours.kitty == theirs.kitty
        for seat in range(3):
            assert ours.hands[seat] == theirs.hands[(seat + shift) % 3]


@pytest.mark.parametrize("ruleset_id", ["two-player", "run-fast", "no-kitty", "laizi",
                                        "turned-card", "four-player"])
def test_douzero_deals_are_refused_where_the_ruleset_deals_otherwise(ruleset_id: str) -> None:
    with pytest.raises(UsageError, match=f"ruleset {ruleset_id} cannot play DouZero deals"):
        read_deals(str(DOUZERO_FILE), load(ruleset_id))


@pytest.mark.parametrize(("fixture", "said"), [
    ("object.pkl", "the pickle holds STACK_GLOBAL; a DouZero deal set holds only lists, "
                   "dicts, integers and strings"),
    ("tuple.pkl", "the pickle holds TUPLE3"),
    ("truncated.pkl", "not a pickle: pickle exhausted before seeing STOP"),
    ("not-a-list.pkl", "a DouZero deal set is a list of deals, not dict"),
    ("out-of-range.pkl", "deal 1: field landlord_up: '99' is not a DouZero card"),
    ("card-twice.pkl", "deal 1: landlord, landlord_up and landlord_down are not the 54-card "
                       "deck (wrong count of 3, R)"),
    ("append-to-dict.pkl", "not a whole pickle of lists and dicts"),
    # 32 cards of a rank would carry into the next rank's count and read as one card of it
    ("rank-overflow.pkl", "deal 0: field landlord: 34 cards of rank 3, where the deck holds 4"),
])
def test_hostile_douzero_pickles_get_one_line(fixture: str, said: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / fixture)
    assert main(["deals", "check", "--format", "douzero", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"ddz: error: {path}: ")
    assert said in err


def test_a_pickle_holding_an_object_runs_nothing(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []
    monkeypatch.setattr("os.system", lambda command: ran.append(command))
    with pytest.raises(RecordError):
        read_deals(str(FIXTURES / "object.pkl"), load("classic"))
    assert ran == []


# ------------------------------------------------------------------------- ours


@pytest.mark.parametrize("ruleset_id", ["classic", "two-player", "run-fast", "laizi",
                                        "marked-card", "turned-card", "four-player",
                                        "no-kitty"])
def test_jsonl_deal_set_reads_back_every_deal(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    deals = seeded_deals(ruleset, 9, seed=3)
    text = jsonl_text(ruleset, deals)
    back = parse_deals(text.encode(), "set.jsonl", ruleset)
    assert back.format == "jsonl"
    assert all(same_cards(a, b) for a, b in zip(deals, back.deals, strict=True))
    assert jsonl_text(ruleset, back.deals) == text


def test_seeded_deals_are_the_deals_compare_plays() -> None:
    ruleset = load("classic")
    spec = RunSpec(("classic",), 6, "random", 17)
    traces = execute(spec)["classic"]
    deals = seeded_deals(ruleset, 6, seed=17)
    for trace, dealt in zip(traces, deals, strict=True):
        if trace["redeals"] == 0:
            assert trace["deal_seed"] == dealt.seed
            assert trace["first_bidder"] == dealt.first_bidder


def test_dealset_schema_is_the_deal_part_of_the_record_schema() -> None:
    record = record_schema()["properties"]
    line = dealset_schema()
    assert set(line["required"]) <= set(record_schema()["required"])
    assert all(line["properties"][key] == record[key] for key in line["properties"])


@pytest.mark.parametrize(("fixture", "said"), [
    ("seat-out-of-range.jsonl", ":2: field first_bidder: seat 5, but seats are 0 to 2"),
    ("truncated.jsonl", ":2: not JSON: Unterminated string"),
    ("not-an-object.jsonl", ":1: a deal is a JSON object"),
    ("unknown-field.jsonl", ":1: field (top level): unknown field ('landlord' was unexpected)"),
])
def test_hostile_jsonl_deal_sets_get_one_line_naming_the_line(
        fixture: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / fixture)
    assert main(["deals", "check", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"ddz: error: {path}")
    assert said in err


def test_an_empty_deal_set_is_refused() -> None:
    with pytest.raises(RecordError, match="holds no deal"):
        parse_deals(b"\n", "empty.jsonl", load("classic"))


def test_export_writes_at_most_max_deals() -> None:
    with pytest.raises(UsageError, match=f"count must be between 1 and {MAX_DEALS:,}"):
        seeded_deals(load("classic"), MAX_DEALS + 1, seed=0)


# ------------------------------------------------------------------------- commands


def test_deals_export_and_convert_round_trip_through_the_command(tmp_path: Path) -> None:
    first, jsonl, again = tmp_path / "a.pkl", tmp_path / "a.jsonl", tmp_path / "b.pkl"
    assert main(["deals", "export", "--format", "douzero", "--count", "30", "--seed", "4",
                 str(first)]) == 0
    assert main(["deals", "export", "--from", str(first), str(jsonl)]) == 0
    assert main(["deals", "export", "--from", str(jsonl), "--format", "douzero",
                 str(again)]) == 0
    assert again.read_bytes() == first.read_bytes()
    converted = tmp_path / "douzero.pkl"
    assert main(["deals", "export", "--from", str(DOUZERO_FILE), "--format", "douzero",
                 str(converted)]) == 0
    assert converted.read_bytes() == DOUZERO_FILE.read_bytes()


def test_deals_export_never_overwrites_another_file(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set.jsonl"
    out.write_text("mine\n")
    assert main(["deals", "export", "--count", "3", str(out)]) == 2
    assert "nothing was overwritten" in capsys.readouterr().err
    assert out.read_text() == "mine\n"


def test_deals_export_takes_count_or_from_not_both(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deals", "export", "x.jsonl"]) == 2
    assert "export takes --count N" in capsys.readouterr().err


def test_compare_plays_a_douzero_deal_set_on_every_ruleset(tmp_path: Path) -> None:
    spec = RunSpec(("douzero", "rlcard"), None, "standard", 0, deals=str(DOUZERO_FILE))
    spec.check()
    assert spec.played == 20 and "deals" in spec.identity
    traces = execute(spec)
    deals = read_deals(str(DOUZERO_FILE), load("douzero")).deals
    for ruleset_id in ("douzero", "rlcard"):
        assert [t["landlord"] for t in traces[ruleset_id]] == [d.first_bidder for d in deals]
        assert all(t["deal_seed"] is None for t in traces[ruleset_id])


def test_compare_refuses_more_hands_than_the_set_holds() -> None:
    spec = RunSpec(("classic",), 21, "random", 0, deals=str(DOUZERO_FILE))
    with pytest.raises(UsageError, match="holds 20 deals"):
        spec.check()


def test_compare_command_reads_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "douzero", "--deals", str(DOUZERO_FILE), "--bots", "random",
                 "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["run"]["hands"] == 20


def test_simulate_plays_each_deal_of_a_set_once(tmp_path: Path) -> None:
    ruleset = load("rlcard")
    deals = read_deals(str(DOUZERO_FILE), ruleset).deals
    summary = simulate(ruleset, 20, seed=1, records=tmp_path, deals=deals)
    assert summary.hands == 20
    records = sorted(tmp_path.glob("rlcard-*.json"))
    assert len(records) == 20
    first = json.loads(records[0].read_text())
    assert first["deal"]["kitty"] == cards.key_text(deals[0].kitty)


def test_deals_format_needs_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--deals-format", "douzero"]) == 2
    assert "--deals-format says how to read --deals FILE" in capsys.readouterr().err


def test_export_deals_names_the_format_it_does_not_know(tmp_path: Path) -> None:
    with pytest.raises(DdzError, match="'csv' is not a deal-set format"):
        export_deals(load("classic"), seeded_deals(load("classic"), 1, 0), tmp_path / "x",
                     "csv")


@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)),
                min_size=1, max_size=4), st.booleans(), st.booleans())
def test_a_damaged_deal_set_is_refused_in_words_never_a_crash(
        flips: list[tuple[int, int]], pickled: bool, cut: bool) -> None:
    raw = bytearray(DOUZERO_FILE.read_bytes() if pickled
                    else (FIXTURES / "seeded.jsonl").read_bytes())
    for at, value in flips:
        raw[at % len(raw)] = value
    if cut:
        del raw[flips[0][0] % len(raw):]
    with contextlib.suppress(DdzError):  # any other exception fails the test
        parse_deals(bytes(raw), "damaged", load("classic"))
