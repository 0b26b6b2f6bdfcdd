"""Variant comparison: measures on hand-made traces, intervals, paired deals, the same results
on one worker, two processes or a Dask cluster, resumable output, and bad input."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from ddz_rules import load
from ddz_rules.bots import make_bot
from ddz_rules.cli import main
from ddz_rules.compare import executors
from ddz_rules.compare.measures import BY_KEY, MEASURES
from ddz_rules.compare.results import TRACES
from ddz_rules.compare.run import RunSpec, execute
from ddz_rules.compare.runner import Task, play_task, trace_of
from ddz_rules.compare.stats import (
    mean_interval,
    paired_difference,
    proportion_interval,
    welch_difference,
)
from ddz_rules.records import read_record, replay
from ddz_rules.solver import Position

from .conftest import FIXTURES, local_cluster

HAND_MADE = json.loads((FIXTURES / "traces" / "hand-made.json").read_text())


@pytest.mark.parametrize("measure", [m.key for m in MEASURES])
def test_each_measure_on_hand_made_traces(measure: str) -> None:
    expected = HAND_MADE["expected"][measure]
    got = [BY_KEY[measure].of(t) for t in HAND_MADE["traces"]]
    assert got == expected


def test_every_measure_has_a_definition_and_a_hand_made_expectation() -> None:
    assert set(HAND_MADE["expected"]) == {m.key for m in MEASURES}
    assert all(len(m.definition) > 20 for m in MEASURES)


def test_trace_of_a_recorded_hand_counts_tricks_and_lead_changes() -> None:
    hand = replay(read_record(str(FIXTURES / "records" / "s1-bid-2-one-bomb.json"))).hand
    trace = trace_of(hand)
    assert trace["winner"] == "landlord" and trace["bid"] == 2
    assert trace["events"] == ["bomb"]
    plays = sum(1 for op in hand.log if op.__class__.__name__ == "Played")
    passes = sum(1 for op in hand.log if op.__class__.__name__ == "Passed")
    assert trace["decisions"] == plays + passes
    assert 1 <= trace["tricks"] <= plays
    assert 0.0 <= trace["decisive_at"] <= 1.0


def test_intervals_known_values() -> None:
    assert mean_interval([2.0, 4.0]).mean == 3.0
    wilson = proportion_interval(0, 50)
    assert wilson.low == pytest.approx(0.0, abs=1e-12) and 0.06 < wilson.high < 0.08
    diff = paired_difference([3.0, 5.0, 7.0], [1.0, 3.0, 5.0])
    assert (diff.mean, diff.low, diff.high) == (2.0, 2.0, 2.0)
    welch = welch_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert welch.mean == 0.0 and welch.low < 0 < welch.high
    assert math.isnan(mean_interval([]).mean)


def test_rulesets_with_one_deck_play_the_same_deals() -> None:
    a = play_task(Task("classic", "standard", 5, 3))
    b = play_task(Task("open-auction", "standard", 5, 3))
    if a["redeals"] == b["redeals"] == 0:
        assert a["deal_seed"] == b["deal_seed"]


def _spec() -> RunSpec:
    return RunSpec(("classic", "two-player"), 12, "standard", 4)


def test_one_worker_two_processes_and_dask_give_the_same_results() -> None:
    one = execute(_spec())
    two = execute(_spec(), workers=2)
    assert one == two
    with local_cluster(n_workers=1, threads_per_worker=1) as cluster:
        assert execute(_spec(), scheduler=cluster.scheduler_address) == one


def test_an_interrupted_run_resumes_with_no_hand_lost_or_counted_twice(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    full = execute(_spec(), out=out)
    lines = out.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 24
    out.write_text("".join(lines[:10]) + lines[10][:15])  # cut mid-line, as a crash would
    resumed = execute(_spec(), out=out, resume=True)
    assert resumed == full
    kept = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert sorted((t["ruleset"], t["index"]) for t in kept) == sorted(
        (name, i) for name in ("classic", "two-player") for i in range(12))


@pytest.mark.parametrize(("argv", "words"), [
    (["compare", "nope", "--hands", "5"], "unknown ruleset 'nope'"),
    (["compare", "classic", "--bots", "genius", "--hands", "5"], "unknown bot level 'genius'"),
    (["compare", "classic", "--hands", "0"], "--hands must be between 1 and"),
    (["compare", "classic", "--hands", "5", "--resume"], "--resume needs --out"),
    (["compare", "classic", "--hands", "5", "--scheduler", "tcp://127.0.0.1:9"],
     "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
])
def test_bad_compare_input_is_one_line_with_exit_2(argv: list[str], words: str,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # nothing listens on port 9: a refused connection is retried until the connect time
    # is up, which need not be the 15 s a real cluster is given
    monkeypatch.setattr(executors, "CONNECT_SECONDS", 2.0)
    assert main([*argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_resume_refuses_another_runs_file_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.jsonl"
    assert main(["compare", "classic", "--hands", "3", "--seed", "1", "--out", str(out),
                 "--json", "--no-progress"]) == 0
    before = out.read_bytes()
    for argv in (["--seed", "2", "--resume"], ["--resume", "--bots", "random"], []):
        capsys.readouterr()
        code = main(["compare", "classic", "--hands", "3", "--seed", "1", "--out", str(out),
                     "--no-progress", *argv])
        assert code == 2
        assert out.read_bytes() == before
    assert main(["compare", "two-player", "--hands", "3", "--seed", "1", "--out", str(out),
                 "--resume", "--no-progress"]) == 2
    assert "rulesets" in capsys.readouterr().err and out.read_bytes() == before


def test_compare_outputs_json_csv_and_plots(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    base = ["compare", "classic", "open-auction", "two-player", "--hands", "20", "--seed", "3",
            "--no-progress"]
    assert main([*base, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary["rulesets"]) == {"classic", "open-auction", "two-player"}
    paired = {d["a"]: d["paired"] for d in summary["differences"]}
    assert paired == {"open-auction": True, "two-player": False}
    win = summary["rulesets"]["classic"]["landlord_win"]
    assert win["low"] <= win["mean"] <= win["high"] and win["n"] == 20
    assert main([*base, "--csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("kind,ruleset,versus,paired,measure")
    assert any(r.startswith("difference,open-auction,classic,True,landlord_win") for r in rows)
    assert main([*base, "--plots", str(tmp_path / "charts")]) == 0
    table = capsys.readouterr().out
    assert "landlord win rate" in table and "paired" in table
    assert (tmp_path / "charts" / "landlord_win.png").stat().st_size > 1000


def test_executor_batches_cover_every_task_once() -> None:
    tasks = [Task("classic", "random", 0, i) for i in range(53)]
    chunks = executors.batches(tasks, 10)
    assert [t for c in chunks for t in c] == tasks


# ------------------------------------------------------------------ what the report says


def _summary(*rulesets: str, hands: int = 40) -> dict[str, object]:
    from ddz_rules.compare import report

    spec = RunSpec(rulesets, hands, "random", 2)
    return report.summarize(spec.header()["run"], execute(spec), spec.loaded())


def test_every_interval_stays_inside_its_measures_range() -> None:
    summary = _summary("classic", "two-player", hands=120)
    for entry in summary["rulesets"].values():
        for m in MEASURES:
            if m.key not in entry:
                continue
            e = entry[m.key]
            low = 0.0 if m.proportion else m.low
            high = 1.0 if m.proportion else m.high
            assert low is None or e["low"] >= low - 1e-12, (m.key, e)
            assert high is None or e["high"] <= high + 1e-12, (m.key, e)
            assert e["interval"] == m.interval


def test_a_rare_count_has_an_interval_above_zero() -> None:
    rare = [0.0] * 1999 + [1.0]
    assert mean_interval(rare).low < 0 < mean_interval(rare, low=0).low


def test_csv_says_which_interval_each_row_uses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "classic", "open-auction", "--hands", "20", "--bots", "random",
                 "--csv", "--no-progress"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].endswith(",n,interval")
    kinds = {row.split(",")[4]: row.split(",")[-1] for row in rows[1:]
             if row.startswith("ruleset,classic,")}
    assert kinds["landlord_win"] == "wilson" and kinds["rockets"] == "log-normal"
    assert kinds["decisive_at"] == "logit-normal" and kinds["landlord_score"] == "normal"
    assert any(r.startswith("difference,") and r.endswith(",paired-normal") for r in rows)


def test_the_terminal_table_shows_each_seats_win_rate(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "classic", "two-player", "--hands", "10", "--bots", "random",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert all(f"seat {s} win rate" in out for s in range(3))


def test_the_terminal_table_sets_run_fast_beside_a_landlord_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Run Fast has no landlord, so measures a landlord game records (cards never played,
    the kitty) are absent from its summary: the table shows a dash there, not a crash."""
    assert main(["compare", "classic", "run-fast", "--hands", "2", "--bots", "random",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "landlord win rate" in out and "first player out's score" in out


def test_a_comparison_that_changes_only_scoring_says_why_nothing_differs(
        capsys: pytest.CaptureFixture[str]) -> None:
    capped = str(FIXTURES / "variants" / "capped.yaml")
    assert main(["compare", "classic", capped, "--hands", "30", "--bots", "random",
                 "--no-progress"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "they differ only in scoring.cap" in out
    summary = _summary("classic", capped, hands=30)
    diff = summary["differences"][0]  # type: ignore[index]
    assert diff["rules_differ"] == ["scoring.cap"]
    assert "decisions" in diff["identical"] and "bombs" in diff["identical"]


def test_charts_show_the_differences_and_name_the_run(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from ddz_rules.compare import report

    assert main(["compare", "classic", "open-auction", "--hands", "12", "--bots", "random",
                 "--json", "--plots", str(tmp_path), "--no-progress"]) == 0
    captured = capsys.readouterr()
    written = json.loads(captured.out)["plots"]
    assert str(tmp_path / "differences.png") in written
    assert f"charts: {tmp_path}" in captured.err
    run = {"rulesets": ["classic", "open-auction"], "hands": 12, "bots": "random", "seed": 0}
    assert report.run_line(run) == "classic, open-auction: 12 hands each, bots random, seed 0"


def test_the_open_hand_measure_judges_endgames_with_every_card_open(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """``--open-hand``: each hand that reaches a position of at most OPEN_CARDS cards is
    judged there by the solver; the measure is the share the landlord's side wins over the
    judged hands of the run's own results file, whose traces are the hands' own (the first
    judged one as the hand played alone gives it)."""
    monkeypatch.setattr("ddz_rules.compare.runner.WHOLE_POSITIONS", SMALL_WHOLE_BUDGET)
    from ddz_rules.compare.runner import OPEN_CARDS, cards_left, open_value
    from ddz_rules.game import Hand
    from ddz_rules.solver import landlord_wins, of_hand

    out = tmp_path / "run.jsonl"
    assert main(["compare", "classic", "--hands", "12", "--seed", "2", "--open-hand",
                 "--json", "--no-progress", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    estimate = summary["rulesets"]["classic"]["open_value"]
    assert estimate is not None and 0 <= estimate["mean"] <= 1
    traces = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()[1:]]
    judged = [t for t in traces if t["open_value"] is not None]
    assert len(traces) == 12 and judged and all(TRACES.validator.is_valid(t) for t in traces)
    assert estimate["mean"] == pytest.approx(sum(t["open_value"] for t in judged) / len(judged))
    # the file's traces are the hands themselves: the first judged one, played again alone
    again = play_task(Task("classic", "medium", 2, judged[0]["index"], open_hand=True))
    assert {k: v for k, v in again.items() if k in judged[0]} == judged[0]
    assert "open_value" not in play_task(Task("classic", "medium", 2, 0))
    hand = Hand.new(load("classic"), 5)
    assert of_hand(hand) is None and cards_left(hand) > OPEN_CARDS  # the auction: no play yet
    position = Position.from_text(load("classic"), "3 4 5 6 7 8/9 9/10 10 J", 1, "2", 0)
    assert landlord_wins(position) is True and open_value(hand) is None


#: A budget of positions for the whole deal that the Python search also spends in a moment
#: (the rule is the same at any budget; two-player deals are often answered within it).
SMALL_WHOLE_BUDGET = 2_000


def test_the_whole_deal_is_judged_as_the_play_begins_where_the_search_answers_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--open-hand`` also judges the whole deal at the landlord's first lead, within a
    budget of positions (the same answer on any machine): the answer is the solver's for that
    position, and a deal it does not answer within the budget is said to be unanswered."""
    from ddz_rules.compare.runner import WHOLE_MEMORY_MB, whole_value

    monkeypatch.setattr("ddz_rules.compare.runner.WHOLE_POSITIONS", SMALL_WHOLE_BUDGET)
    from ddz_rules.game import Hand, Phase
    from ddz_rules.solver import of_hand, solve

    ruleset = load("two-player")
    bot = make_bot("medium", ruleset)
    answered = unanswered = 0
    for seed in range(8):
        hand = Hand.new(ruleset, seed)
        rng = random.Random(seed)
        while hand.phase is Phase.AUCTION:
            hand.apply(bot.choose(hand.view(hand.to_act), rng))  # type: ignore[arg-type]
        if hand.result is not None:
            continue
        value = whole_value(hand)
        position = of_hand(hand)
        assert position is not None
        solution = solve(position, memory_mb=WHOLE_MEMORY_MB, positions=SMALL_WHOLE_BUDGET)
        if value is None:
            unanswered += 1
            assert solution.wins is None
        else:
            answered += 1
            assert value == solution.wins  # the landlord leads: his side is the side to act
    assert answered and unanswered and answered + unanswered >= 7
    trace = play_task(Task("two-player", "medium", 0, 1, open_hand=True))
    assert trace["open_whole"] in (0, 1, None) and TRACES.validator.is_valid(trace)


def test_the_kitty_decides_a_whole_deal_whose_answer_changes_with_its_cards_out_of_play(
        ) -> None:
    """Beside the whole deal, an open-hand run judges the same deal with the kitty's cards
    out of play (the landlord leading with his dealt cards): the answer is the solver's for
    that position, and the kitty decides the deal where the two answers differ."""
    from ddz_rules.compare.runner import WHOLE_MEMORY_MB, bare_value, whole_value
    from ddz_rules.game import Hand, Phase
    from ddz_rules.solver import of_hand, solve

    ruleset = load("two-player")
    bot = make_bot("medium", ruleset)
    compared = 0
    for seed in range(8):
        hand = Hand.new(ruleset, seed)
        rng = random.Random(seed)
        while hand.phase is Phase.AUCTION:
            hand.apply(bot.choose(hand.view(hand.to_act), rng))  # type: ignore[arg-type]
        position = of_hand(hand)
        if position is None or hand.landlord is None:
            continue
        bare = bare_value(hand, SMALL_WHOLE_BUDGET)
        dealt = list(position.hands)
        dealt[hand.landlord] -= hand.deal.kitty
        without = solve(position.moved(tuple(dealt), position.to_act, None, None),
                        memory_mb=WHOLE_MEMORY_MB, positions=SMALL_WHOLE_BUDGET)
        assert bare == without.wins
        compared += bare is not None and whole_value(hand, SMALL_WHOLE_BUDGET) is not None
    assert compared  # the measure itself: the hand-made traces
    trace = play_task(Task("two-player", "medium", 0, 2, open_hand=True,
                           whole_positions=SMALL_WHOLE_BUDGET))
    assert "open_whole_bare" in trace and TRACES.validator.is_valid(trace)
    assert "open_whole_bare" not in play_task(Task("no-kitty", "medium", 0, 2, open_hand=True,
                                                   whole_positions=SMALL_WHOLE_BUDGET))


def test_a_runs_whole_deal_budget_is_part_of_its_identity_and_needs_the_open_hand(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs judged within different budgets are different runs (one never resumes the
    other); a budget without the open hand, or out of bounds, is refused before play."""
    plain = RunSpec(("two-player",), 4, "medium", 0, True)
    budgeted = RunSpec(("two-player",), 4, "medium", 0, True, whole_positions=5_000)
    assert plain.identity != budgeted.identity
    assert budgeted.header()["run"]["whole_positions"] == 5_000
    assert all(t.whole_positions == 5_000 for t in budgeted.tasks())
    for argv, said in (
            (["--whole-positions", "5"], "--whole-positions is a budget for judging whole "
                                         "deals with every card open"),
            (["--open-hand", "--whole-positions", "0"], "--whole-positions must be between 1 "
                                                        "and 1,000,000,000, got 0")):
        assert main(["compare", "two-player", "--hands", "2", "--no-progress", *argv]) == 2
        assert said in capsys.readouterr().err
