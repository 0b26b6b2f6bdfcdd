"""Matches: each ``match`` rule point, the bots' matches, match records, and bad input.

Tests are named after the rule clause they prove. The fixtures in ``tests/fixtures/variants``
vary one match rule each from classic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ddz_rules import bundled_ids, load
from ddz_rules.cli import main
from ddz_rules.compare.matches import MatchSpec, MatchTask, execute_matches, play_match
from ddz_rules.game import deal
from ddz_rules.match import MatchState, led_alone, side_winners
from ddz_rules.records import read_record, replay_match

from .conftest import FIXTURES, local_cluster

VARIANTS = FIXTURES / "variants"
BEST_OF = str(VARIANTS / "match-best-of-3.yaml")
TARGET = str(VARIANTS / "match-target.yaml")


def _state(name: str = "classic") -> MatchState:
    return MatchState(load(name))


# ------------------------------------------------------------------ the rule points


def test_classic_and_marked_card_state_the_match_rules_of_texts_001_and_003() -> None:
    for name in ("classic", "marked-card"):
        rules = load(name).match
        assert (rules.length, rules.hands, rules.ties) == ("hands", 10, "declared")
    assert load("classic").match.rotation == "every_deal"
    assert "agree" in load("marked-card").data["match"]["length"]["text"]


def test_a_fixed_length_match_ends_after_its_number_of_hands() -> None:
    state = _state()
    for _ in range(9):
        state.add((2, -1, -1), (0,))
    assert not state.over
    state.add((2, -1, -1), (0,))
    assert state.over and state.outcome().totals == (20, -10, -10)


def test_equal_top_totals_are_a_declared_tie() -> None:
    state = _state()
    for i in range(10):
        state.add((1, 1, -2) if i % 2 else (-1, -1, 2), (0, 1) if i % 2 else (2,))
    outcome = state.outcome()
    assert outcome.totals == (0, 0, 0)
    assert outcome.tie and outcome.winners == (0, 1, 2) and outcome.led_alone_from is None


def test_a_result_names_the_hand_from_which_the_winner_led_alone_not_a_decided_one() -> None:
    state = _state()
    state.add((2, -1, -1), (0,))  # seat 0 leads alone from hand 1 ...
    state.add((-4, 2, 2), (1, 2))  # ... loses it ...
    for _ in range(8):
        state.add((4, -2, -2), (0,))  # ... and leads alone again from hand 3 to the end
    outcome = state.outcome()
    assert outcome.winners == (0,) and outcome.led_alone_from == 3
    # with no scoring.cap, hand 10 could still have turned it: nothing says "decided"
    assert led_alone(outcome.led_alone_from, outcome.counted) == (
        ", led alone from hand 3 of 10 on")
    assert led_alone(None, 10) == ""


def test_ddz_match_says_led_alone_from_where_it_said_decided(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--bots", "medium,standard,random", "--seed", "3"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == ("result: seat 1 (standard) wins, led alone from hand 5 of 10 on; "
                    "totals [-11, 61, -50]")
    assert main(["match", "--bots", "medium,standard,random", "--seed", "3", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["led_alone_from"] == 5 and "decided_at" not in row


def test_a_thrown_in_deal_does_not_count_and_the_deal_still_passes_every_deal() -> None:
    state = _state()
    state.add((0, 0, 0), (), redeal=True)
    assert (state.counted, state.dealer) == (0, 1)
    state.add((-2, 1, 1), (1, 2))
    assert (state.counted, state.dealer) == (1, 2)


def test_every_hand_rotation_keeps_the_dealer_after_a_thrown_in_deal_and_counted_redeals(
        ) -> None:
    state = MatchState(load(BEST_OF))
    state.add((0, 0, 0), (), redeal=True)
    assert (state.counted, state.dealer) == (1, 0)  # counted, yet the same dealer deals again
    state.add((2, -1, -1), (0,))
    assert (state.counted, state.dealer) == (2, 1)


def test_best_of_ends_when_a_seat_has_won_more_than_half() -> None:
    state = MatchState(load(BEST_OF))
    state.add((2, -1, -1), (0,))
    assert not state.over
    state.add((2, -1, -1), (0,))
    assert state.over and state.outcome().winners == (0,)


def test_a_target_match_ends_after_the_hand_that_reaches_the_target() -> None:
    state = MatchState(load(TARGET))
    state.add((12, -6, -6), (0,))
    assert not state.over
    state.add((12, -6, -6), (0,))
    assert state.over and state.outcome().totals == (24, -12, -12)


def test_play_on_ties_continue_until_one_seat_leads_alone() -> None:
    state = MatchState(load(TARGET))
    state.add((10, 10, -20), (0, 1))  # the target of 20 is not reached
    state.add((12, 12, -24), (0, 1))  # 22, 22, -44: reached, but level at the top
    assert state.regular_over and not state.over
    state.add((4, -2, -2), (0,))
    assert state.over and state.outcome().winners == (0,)


def test_side_winners_are_the_landlord_or_both_peasants() -> None:
    assert side_winners(3, 1, "landlord") == (1,)
    assert side_winners(3, 1, "peasants") == (0, 2)
    assert side_winners(3, None, None) == ()


# ------------------------------------------------------------------ bots' matches


@pytest.mark.parametrize("ruleset", ["classic", "two-player", BEST_OF, TARGET])
def test_a_played_match_has_totals_that_are_sums_and_sum_to_zero(ruleset: str) -> None:
    players = load(ruleset).players
    row = play_match(MatchTask(ruleset, ("medium", "standard", "random")[:players], 3, 1))
    sums = [sum(h["scores"][s] for h in row["hands"]) for s in range(players)]
    assert row["totals"] == sums and sum(sums) == 0
    top = max(row["totals"] if load(ruleset).match.length != "best_of" else row["hands_won"])
    key = row["totals"] if load(ruleset).match.length != "best_of" else row["hands_won"]
    assert row["winners"] == [s for s in range(players) if key[s] == top]
    assert row["tie"] == (len(row["winners"]) > 1)


def test_the_same_seed_gives_the_same_match_anywhere() -> None:
    task = MatchTask("classic", ("medium", "standard", "random"), 5, 2)
    assert play_match(task) == play_match(task)
    spec = MatchSpec("classic", ("medium", "standard", "random"), 5, 6)
    assert execute_matches(spec) == execute_matches(spec, workers=2)
    assert execute_matches(spec)[2] == play_match(task)


def test_the_first_dealer_rotates_from_match_to_match() -> None:
    rows = execute_matches(MatchSpec("classic", ("random",) * 3, 0, 3))
    assert [r["hands"][0]["dealer"] for r in rows] == [0, 1, 2]


def test_an_interrupted_matches_run_resumes_with_nothing_lost_or_counted_twice(
        tmp_path: Path) -> None:
    out = tmp_path / "matches.jsonl"
    spec = MatchSpec("classic", ("standard", "random", "random"), 1, 8)
    full = execute_matches(spec, out=out)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:4]) + lines[4][:30])
    assert execute_matches(spec, out=out, resume=True) == full
    rows = [json.loads(line) for line in out.read_bytes().splitlines()[1:]]
    assert sorted(r["index"] for r in rows) == list(range(8))


def test_the_longest_match_a_ruleset_may_ask_for_resumes_from_its_results_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A row holds every hand of its match, so a match of 1,000 hands (the most a ruleset
    may set) makes a line of about 80 kB: one ``ddz match`` wrote must be read back."""
    longest = str(FIXTURES / "variants" / "long-match.yaml")
    out = tmp_path / "matches.jsonl"
    argv = ["match", "-r", longest, "--bots", "random", "--no-progress", "--out", str(out)]
    assert main([*argv, "--matches", "1"]) == 0
    assert len(out.read_bytes().splitlines()[1]) > 64 * 1024
    assert main([*argv, "--matches", "2", "--resume"]) == 0
    capsys.readouterr()
    assert len(out.read_bytes().splitlines()) == 3


# ------------------------------------------------------------------ the command and records


def test_one_match_as_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--bots", "medium,standard,random", "--seed", "4", "--json"]) == 0
    match = json.loads(capsys.readouterr().out)
    assert {"ruleset", "seed", "seats", "hands", "totals", "winners", "tie"} <= set(match)
    assert match["seats"] == ["medium", "standard", "random"] and match["seed"] == 4
    assert sum(match["totals"]) == 0


def test_many_matches_summarise_each_seat_and_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "-r", "two-player", "--bots", "medium,random", "--matches", "12",
                 "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 12 and set(summary["levels"]) == {"medium", "random"}
    wins = sum(round(s["wins"]["mean"] * 12) for s in summary["seats"])
    assert wins + round(summary["ties"]["mean"] * 12) == 12


def test_many_matches_say_how_often_the_winner_led_alone_before_the_last_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_rules.compare.measures import MATCH_BY_KEY

    assert main(["match", "-r", "two-player", "--bots", "medium,random", "--matches", "6",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "  led alone before the last hand: " in out and "decided" not in out
    assert main(["match", "-r", "two-player", "--bots", "medium,random", "--matches", "6",
                 "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert "led_alone_before_last" in summary and "decided_before_last" not in summary
    measure = MATCH_BY_KEY["led_alone_early"]  # as the rules book's Comparisons page lists it
    assert measure.label == "led alone before the last hand"
    assert "decided" not in measure.label + measure.definition


def _record(tmp_path: Path, ruleset: str = "classic") -> Path:
    path = tmp_path / "match.json"
    assert main(["match", "-r", ruleset, "--bots", "medium,standard,random", "--seed", "2",
                 "--record", str(path)]) == 0
    return path


def test_a_match_record_replays_as_valid(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.startswith("valid match: ")


def test_a_match_record_of_a_ruleset_file_replays_beside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path, BEST_OF)
    assert (tmp_path / "match-best-of-3.yaml").is_file()
    capsys.readouterr()
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True


def test_a_match_record_whose_totals_do_not_add_up_is_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path)
    record = json.loads(path.read_text())
    record["totals"][0] += 1
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "field totals" in err and str(path) in err


@pytest.mark.parametrize("tamper", ["drop-last", "wrong-dealer"])
def test_a_match_record_that_breaks_the_match_rules_is_invalid(
        tmp_path: Path, tamper: str) -> None:
    path = _record(tmp_path)
    record = read_record(str(path))
    if tamper == "drop-last":
        record["hands"].pop()
        expected = "stops before the match ends"
    else:
        second = record["hands"][1]
        second["dealer"] = (second["dealer"] + 1) % 3
        second.pop("seed")  # the seed would no longer produce the deal with this dealer
        expected = "match.rotation"
    checked = replay_match(record, str(path))
    assert not checked.valid and expected in str(checked.reason)


@pytest.mark.parametrize(("argv", "words"), [
    (["match", "--matches", "0"], "--matches must be between 1 and"),
    (["match", "--bots", "medium,random"], "names 2 levels for 3 seats"),
    (["match", "--bots", "genius"], "unknown bot level 'genius'"),
    (["match", "--matches", "3", "--record", "x.json"], "--record writes one match"),
])
def test_bad_match_input_is_one_line_with_exit_2(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1 and words in err


# ------------------------------------------------------------------ match measures in compare


def _row(**fields: object) -> dict[str, object]:
    base: dict[str, object] = {"focus": 0, "winners": [0], "tie": False, "totals": [6, -3, -3],
                               "led_alone_from": 3, "counted": 10, "deals": 11}
    return {**base, **fields}


@pytest.mark.parametrize(("key", "row", "expected"), [
    ("stronger_wins", _row(), 1.0),
    ("stronger_wins", _row(winners=[0, 1], tie=True), 0.0),
    ("stronger_wins", _row(winners=[2]), 0.0),
    ("match_tie", _row(tie=True), 1.0),
    ("total_spread", _row(totals=[10, -4, -6]), 16.0),
    ("led_alone_early", _row(led_alone_from=10), 0.0),
    ("led_alone_early", _row(led_alone_from=9), 1.0),
    ("led_alone_early", _row(led_alone_from=None, tie=True), 0.0),
    ("match_hands", _row(), 10.0),
    ("match_deals", _row(), 11.0),
])
def test_each_match_measure_on_hand_made_rows(key: str, row: dict[str, object],
                                              expected: float) -> None:
    from ddz_rules.compare.measures import MATCH_BY_KEY

    assert MATCH_BY_KEY[key].of(row) == expected


def test_compare_match_levels_pairs_rulesets_that_share_a_deck(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "classic", "open-auction", "--match-levels", "medium,random",
                 "--matches", "6", "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["kind"] == "matches" and summary["run"]["matches"] == 6
    assert summary["differences"][0]["paired"] is True
    assert summary["rulesets"]["classic"]["stronger_wins"]["n"] == 6


def test_the_stronger_level_rotates_through_the_seats() -> None:
    from ddz_rules.compare.matches import MatchComparison

    tasks = MatchComparison(("classic",), "medium", "random", 4, 0).tasks()
    assert [t.focus for t in tasks] == [0, 1, 2, 0]
    assert all(t.seats[t.focus] == "medium" and t.seats.count("medium") == 1 for t in tasks)


@pytest.mark.parametrize(("argv", "words"), [
    (["--match-levels", "medium,medium"], "names 'medium' twice"),
    (["--match-levels", "medium"], "takes two levels"),
    (["--match-levels", "medium,genius"], "unknown bot level 'genius'"),
    (["--match-levels", "medium,random", "--matches", "0"], "--matches must be between"),
])
def test_bad_match_levels_are_one_line_with_exit_2(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "classic", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


@pytest.mark.parametrize(("ruleset", "passes_on_redeal"), [("classic", True), (BEST_OF, False)])
def test_comparison_hands_follow_the_rotation_rule_when_a_deal_is_thrown_in(
        ruleset: str, passes_on_redeal: bool) -> None:
    from ddz_rules.compare.runner import Task, play_task

    traces = [play_task(Task(ruleset, "random", 0, i)) for i in range(60)]
    redealt = [t for t in traces if t["redeals"]]
    assert redealt, "no hand of the sample was thrown in"
    for t in redealt:
        moved = t["redeals"] if passes_on_redeal else 0
        assert t["dealer"] == (t["index"] + moved) % 3


def test_matches_on_a_dask_cluster_equal_matches_here() -> None:
    spec = MatchSpec("classic", ("medium", "standard", "random"), 9, 4)
    here = execute_matches(spec)
    with local_cluster(n_workers=1, threads_per_worker=1) as cluster:
        assert execute_matches(spec, scheduler=cluster.scheduler_address) == here


def test_every_four_player_seat_deals_two_counted_hands_even_after_a_thrown_in_deal() -> None:
    """four-player's prose: "eight hands that count, so that each player deals two of them";
    a deal thrown in (all four passed) is dealt again by the same player."""
    state = MatchState(load("four-player"))
    state.add(scores=(0, 0, 0, 0), winners=(), redeal=True)
    while not state.over:
        state.add(scores=(3, -1, -1, -1), winners=(0,))
    counted = [h.dealer for h in state.hands if h.counted]
    assert len(counted) == 8 and sorted(counted) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert state.hands[0].dealer == state.hands[1].dealer == 0


def test_under_the_marked_card_who_deals_only_turns_the_seats_round() -> None:
    """marked-card's reason to rotate the deal instead of drawing lots: a deal by dealer d is
    the deal by dealer 0 with every seat moved d places, the marked card's holder (the first
    bidder) included, so the dealer decides nothing."""
    ruleset = load("marked-card")
    for seed in range(20):
        base = deal(ruleset, seed, 0)
        for dealer in range(1, ruleset.players):
            moved = deal(ruleset, seed, dealer)
            assert moved.first_bidder == (base.first_bidder + dealer) % ruleset.players
            assert moved.marked_card == base.marked_card and moved.kitty == base.kitty
            assert all(moved.hands[(s + dealer) % ruleset.players] == base.hands[s]
                       for s in range(ruleset.players))


def test_every_ruleset_that_states_match_rules_records_its_match_choices() -> None:
    for ruleset_id in bundled_ids():
        ruleset = load(ruleset_id)
        if "match" not in ruleset.overlay:
            continue
        questions = [i["question"] for i in ruleset.data.get("interpretations", [])
                     if "match" in i["question"]]
        assert questions, f"{ruleset_id} states match rules without an interpretation"
    classic = load("classic").data["match"]["hands"]["text"]
    assert "most often" not in classic  # text 003 says often 10, 20 or multiples
