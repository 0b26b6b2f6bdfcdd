"""The ``ddz`` command: JSON shapes, text output, and usage errors."""

from __future__ import annotations

import json

import pytest

from ddz_rules import compile_table, load
from ddz_rules.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_lists_every_bundled_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    rows = json.loads(out)
    assert code == 0 and {"classic", "two-player"} <= {r["id"] for r in rows}
    assert all(r["title"] and r["summary"] for r in rows)


def test_check_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "classic", "--json")
    report = json.loads(out)
    assert code == 0
    assert {"ruleset", "plays", "by_type", "ambiguous", "ambiguous_examples"} <= set(report)
    assert report["ambiguous"] == 0 and sum(report["by_type"].values()) == report["plays"]


def test_check_lists_every_ambiguous_play_of_marked_card(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "marked-card", "classic", "--json")
    marked, classic = json.loads(out)
    assert code == 0
    assert marked["ambiguous"] == len(marked["ambiguous_examples"]) > 0
    assert {"cards": "333444555666", "readings": [
        {"type": "airplane", "length": 4, "rank": "6", "kickers": ""},
        {"type": "airplane_singles", "length": 3, "rank": "5", "kickers": "666"},
        {"type": "airplane_singles", "length": 3, "rank": "6", "kickers": "333"},
    ]} in marked["ambiguous_examples"]
    assert classic["ruleset"] == "classic"


def test_classify_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "classify", "-r", "classic", "6 5 4 4 4 3 3 3", "--json")
    assert json.loads(out) == {
        "ruleset": "classic", "cards": "33344456", "legal": True,
        "readings": [{"type": "airplane_singles", "length": 2, "rank": "4", "kickers": "56"}],
        "reason": None}


def test_classify_illegal_gives_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "classify", "44445555", "--json")
    result = json.loads(out)
    assert result["legal"] is False and result["readings"] == []
    assert "quads_are_blocks" in result["reason"]


def test_beats_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "beats", "KKK3", "QQQR", "--json")
    result = json.loads(out)
    assert result["beats"] is True and "kickers never count" in result["reason"]
    _, out, _ = run(capsys, "beats", "456789", "34567", "--json")
    assert json.loads(out)["beats"] is False


def test_moves_leading_and_answering(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "3334445", "--json")
    leads = json.loads(out)
    assert "3334" in leads and "3334445" not in leads and "333444" in leads
    _, out, _ = run(capsys, "moves", "3334445", "--beat", "KKK", "--json")
    assert json.loads(out) == []
    _, out, _ = run(capsys, "moves", "55556", "--beat", "KKK", "--json")
    assert json.loads(out) == ["5555"]


def test_moves_names_the_reading_of_ambiguous_plays(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "moves", "-r", "marked-card", "333444555666", "--json")
    listed = json.loads(out)
    assert "333444555666@airplane/4/6" in listed
    assert "333444555666@airplane_singles/3/5" in listed


def test_plays_is_json_lines_of_the_whole_table(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "plays", "-r", "two-player")
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 8798
    assert lines[0] == {"cards": "5", "readings": [
        {"type": "single", "length": 1, "rank": "5", "kickers": ""}]}


def test_diff_counts_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "diff", "classic", "marked-card", "--json")
    report = json.loads(out)
    assert report["only_a"]["count"] == 156
    assert report["only_a"]["readings_by_type"] == {"four_two_singles": 156}
    assert report["read_differently"]["count"] > 0


@pytest.mark.parametrize(("argv", "words"), [
    (["classify", "-r", "two-player", "33"], "not in the two-player deck"),
    (["classify", "4X4"], "bad card 'X'"),
    (["check", "nope"], "unknown ruleset 'nope'"),
    (["moves", "345", "--beat", "44445555"], "not a legal play"),
    (["moves", "-r", "marked-card", "3", "--beat", "333444555666"], "name one"),
    (["frobnicate"], "invalid choice"),
    (["classify"], "the following arguments are required"),
])
def test_usage_errors_are_one_line_with_exit_2(capsys: pytest.CaptureFixture[str],
                                               argv: list[str], words: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err


# ------------------------------------------------------------------ answers that explain rules


@pytest.mark.parametrize(("ruleset", "cards_text", "kind"), [
    ("turned-card", "3334445566", "airplane_pairs"),
    ("docs/examples/my-variant.yaml", "33334455", "four_two_pairs"),
])
def test_a_type_the_ruleset_switches_off_is_named_and_its_prose_quoted(
        ruleset: str, cards_text: str, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "-r", ruleset, cards_text, "--json"]) == 0
    reason = json.loads(capsys.readouterr().out)["reason"]
    table = compile_table(load(ruleset))
    text = next(c.text for c in table.ruleset.switched_off if c.name == kind)
    assert f"{kind} is not played under {table.ruleset.id}" in reason
    assert text in reason


@pytest.mark.parametrize(("ruleset", "cards_text", "phrase"), [
    ("classic", "3344", "runs over at least 3 consecutive ranks; these cards run over 2"),
    ("turned-card", "33445566", "runs over exactly 3 consecutive ranks; these cards run over 4"),
])
def test_a_chain_of_the_wrong_length_says_how_long_it_must_be(
        ruleset: str, cards_text: str, phrase: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "-r", ruleset, cards_text]) == 0
    out = capsys.readouterr().out
    assert phrase in out and "to any" not in out


def test_beats_answers_from_the_side_of_the_play_being_made(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["beats", "3333", "BR"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("no: 3333 (bomb/1/3), of class bomb, is below BR")


@pytest.mark.parametrize(("play", "previous", "kickers"), [
    ("R", "B", False), ("44", "33", False), ("KKK3", "QQQR", True)])
def test_kickers_are_mentioned_only_where_there_are_kickers(
        play: str, previous: str, kickers: bool, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["beats", play, previous]) == 0
    assert ("kickers never count" in capsys.readouterr().out) is kickers


def test_diff_names_every_rule_that_differs_with_both_values_and_texts(
        capsys: pytest.CaptureFixture[str]) -> None:
    capped = "tests/fixtures/variants/capped.yaml"
    _, out, _ = run(capsys, "diff", "classic", capped, "--json")
    report = json.loads(out)
    assert [r["key"] for r in report["rules"]] == ["scoring.cap"]
    rule = report["rules"][0]
    assert rule["a"]["value"] is None and rule["b"]["value"] == 8
    assert rule["b"]["text"] == load(capped).data["scoring"]["cap"]["text"]
    assert report["only_a"]["count"] == report["only_b"]["count"] == 0
    _, text, _ = run(capsys, "diff", "classic", capped)
    assert text.startswith("rules that differ: 1\n  scoring.cap: none in classic, 8 in capped")


def test_diff_shows_a_combinations_changed_fields(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "diff", "classic", "turned-card")
    assert ("combinations.straight: length.max 12 in classic, 5 in turned-card; ranks 3-A in "
            "classic, 3-K in turned-card") in out
    assert "combinations.airplane_pairs: enabled (default) in classic, false in turned-card" \
        in out


def test_diff_says_how_many_examples_of_how_many_it_shows(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "diff", "classic", "marked-card", "--examples", "2")
    report_line = next(line for line in out.splitlines() if "e.g." in line)
    assert "(2 of 156 shown; --examples N for more)" in report_line
    assert "card sets; their readings by type:" in out


def test_a_bug_reaches_the_user_as_one_line_with_exit_3(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """No traceback ever reaches a user: an unexpected exception in a command is named in one
    line (its type, where it was raised, its message) with exit code 3."""
    import ddz_rules.cli as cli

    def broken(ruleset_id: str) -> None:
        raise AssertionError("the side that reaches its goal leads at the end")

    monkeypatch.setattr(cli, "_table", broken)
    assert main(["classify", "33"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("ddz: internal error: AssertionError at test_cli.py:")
    assert "the side that reaches its goal leads at the end" in err


# --------------------------------------------------------------------------- Run Fast


def test_check_run_fast_compiles_both_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "run-fast", "run-fast-15", "--json")
    fast, fifteen = json.loads(out)
    assert code == 0 and fast["ambiguous"] == fifteen["ambiguous"] == 0
    assert "aces" in fifteen["by_type"] and "aces" not in fast["by_type"]
    assert fast["plays"] == len(compile_table(load("run-fast")))


def test_classify_under_run_fast(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "classify", "-r", "run-fast", "33344")[:2] == (
        0, "33344: trio_two, length 1, rank 3, kickers 44\n")
    code, out, _ = run(capsys, "classify", "-r", "run-fast-15", "AAA")
    assert code == 0 and out == "AAA: aces, length 1, rank A\n"


def test_beats_under_run_fast(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "beats", "-r", "run-fast-15", "AAA", "KKKK")
    assert code == 0 and out.startswith("yes: AAA (aces/1/A), of class aces, is above KKKK")
    code, out, _ = run(capsys, "beats", "-r", "run-fast", "33366", "33344")
    assert code == 0 and out.startswith("no: ") and "kickers never count" in out


def test_moves_under_run_fast(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "-r", "run-fast", "3334445", "--beat", "33366")
    assert code == 0 and out.split() == ["33444", "34445"]


def test_moves_lists_a_last_play_only_trio_only_where_it_empties_the_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "-r", "run-fast", "3334")
    assert code == 0 and "333" not in out.split() and "3334" in out.split()


def test_moves_first_play_holds_the_lead_cards_rank(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "-r", "run-fast", "34567", "--first")
    assert code == 0 and out.split() == ["3", "34567"]


def test_moves_with_the_next_player_on_one_card_offers_only_the_highest_single(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "-r", "run-fast", "379", "--next-cards", "1")
    assert code == 0 and out.split() == ["9"]


def test_moves_refuses_a_first_play_from_a_hand_without_the_lead_cards_rank(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Only the holder of the 3 of spades makes the hand's first play, so a hand without a 3
    cannot: refused in one line, not listed as a pass."""
    code, out, err = run(capsys, "moves", "-r", "run-fast", "444599", "--first")
    assert code == 2 and not out and err.count("\n") == 1
    assert "the hand holds no 3, so it cannot make the hand's first play" in err


def test_moves_reads_the_next_players_count_where_only_liability_reads_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """run-fast-15 forces no single, but its liability rule depends on the next player's
    count: the lower singles are listed and named as the ones that may make him pay."""
    code, out, _ = run(capsys, "moves", "-r", "run-fast-15", "345", "--next-cards", "1")
    lines = out.splitlines()
    assert code == 0 and lines[:3] == ["3", "4", "5"]
    assert lines[3].startswith("note: if the next player goes out on 3, 4, you pay for "
                               "everyone where your highest single, 5, would have held him")
    code, out, _ = run(capsys, "moves", "-r", "run-fast-15", "345", "--next-cards", "2")
    assert code == 0 and out.split() == ["3", "4", "5"]


@pytest.mark.parametrize(("argv", "words"), [
    (["moves", "-r", "classic", "345", "--first"], "--first: no rule of classic binds"),
    (["moves", "-r", "classic", "345", "--next-cards", "1"],
     "--next-cards: no rule of classic reads"),
    (["moves", "-r", "run-fast", "345", "--next-cards", "0"], "at least 1, not 0"),
])
def test_moves_refuses_a_duty_option_no_rule_reads(
        capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and err.count("\n") == 1 and words in err


@pytest.mark.parametrize(("argv", "words"), [
    (["classify", "-r", "run-fast", "3S 3H"], "'3S 3H' names suited cards, and a play is "
                                              "written in ranks alone"),
    (["classify", "-r", "run-fast", "BR"], "card 'B' in 'BR' is not in the run-fast deck"),
    (["moves", "-r", "run-fast", "2222"], "the run-fast deck holds 1"),
])
def test_run_fast_card_errors_are_one_line_with_exit_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and err.count("\n") == 1 and words in err
