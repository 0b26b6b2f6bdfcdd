"""The progress of a comparison run: a long run is announced with its estimated time."""

from __future__ import annotations

import pytest

from ddz_rules import cli
from ddz_rules.bots import LEVELS
from ddz_rules.compare import executors
from ddz_rules.compare.progress import Estimate, RunClock
from ddz_rules.compare.run import RunSpec
from ddz_rules.compare.runner import Task


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_long_run_is_announced_once_with_its_estimated_time(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = _Clock()
    monkeypatch.setattr(cli.time, "monotonic", clock)
    with cli._progress(True) as tick:
        tick(0, 20)
        clock.now += 30.0  # starting up, then the first hand
        tick(1, 20)
        for done in range(2, 8):
            clock.now += 9.0
            tick(done, 20)
    err = capsys.readouterr().err.splitlines()
    # 4 hands in 36 s since the first result; 66 s so far and 15 hands to go
    assert err == ["ddz: 9.00 s a hand since the first results: the 20 hands to play will "
                   "take about 3 min in all"]


def test_a_long_run_of_matches_is_announced_in_the_singular_of_its_unit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = _Clock()
    monkeypatch.setattr(cli.time, "monotonic", clock)
    with cli._progress(True, "matches") as tick:
        tick(0, 20)
        for done in range(1, 6):
            clock.now += 9.0
            tick(done, 20)
    assert capsys.readouterr().err.startswith("ddz: 9.00 s a match since the first results: "
                                              "the 20 matches")


def _readme_run(startup: float, rate: float, workers: int = 2, batch: int = 25,
                total: int = 12_000) -> list[tuple[int, float]]:
    """The ticks of a run like the README's first command: ``startup`` seconds before the
    first batches, then each of ``workers`` finishing a batch every ``batch / rate * workers``
    seconds, the workers' first batches finishing together."""
    ticks, done, now = [(0, 0.0)], 0, startup
    step = batch * workers / rate
    while done < total:
        for w in range(workers):
            done = min(total, done + batch)
            ticks.append((done, now + 0.05 * w))
        now += step
    return ticks


def test_the_first_estimate_leaves_out_the_start_up_and_counts_every_worker() -> None:
    # 1.6 s of start-up, then 100 hands a second on two workers: about 122 s in all
    ticks = _readme_run(startup=1.6, rate=100.0)
    actual = ticks[-1][1]
    clock = RunClock()
    estimates = [e for done, now in ticks if (e := clock.tick(done, 12_000, now)) is not None]
    first = estimates[0]
    assert abs(first.whole - actual) < 0.1 * actual
    assert abs(first.per_unit - 0.01) < 0.001


def test_the_first_estimate_of_the_readme_command_is_honest(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = _Clock()
    monkeypatch.setattr(cli.time, "monotonic", clock)
    ticks = _readme_run(startup=1.6, rate=100.0)
    with cli._progress(True) as tick:
        for done, now in ticks:
            clock.now = 1000.0 + now
            tick(done, 12_000)
    err = capsys.readouterr().err
    assert err == ("ddz: 0.01 s a hand since the first results: the 12000 hands to play will "
                   "take about 2 min in all\n")  # it takes 122 s; once, before the end


def test_no_estimate_comes_from_the_first_results_alone() -> None:
    clock = RunClock()
    assert clock.tick(0, 1000, now=0.0) is None
    assert clock.tick(25, 1000, now=5.0) is None  # start-up and the first batch
    assert clock.tick(50, 1000, now=5.01) is None  # the other worker's first batch
    assert [clock.tick(50 + 25 * k, 1000, now=5.01 + k) for k in (1, 2)] == [None] * 2
    estimate = clock.tick(125, 1000, now=8.01)  # 4 results and 3 s since the first
    assert estimate is not None and estimate.per_unit == pytest.approx(3.01 / 100)


def test_a_resumed_run_estimates_only_what_is_left() -> None:
    clock = RunClock()
    clock.tick(900, 1000, now=0.0)
    for k in range(6):
        estimate = clock.tick(910 + 10 * k, 1000, now=2.0 + k)
    assert estimate == Estimate(per_unit=0.1, whole=7.0 + 0.1 * 40)


def test_the_hands_of_a_comparison_are_played_ruleset_by_ruleset_in_turn() -> None:
    tasks = RunSpec(("classic", "two-player"), hands=3, bots="random", seed=0).tasks()
    assert [(t.ruleset, t.index) for t in tasks] == [
        ("classic", 0), ("two-player", 0), ("classic", 1), ("two-player", 1),
        ("classic", 2), ("two-player", 2)]


def test_a_short_run_or_no_progress_prints_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = _Clock()
    monkeypatch.setattr(cli.time, "monotonic", clock)
    for enabled, step in ((True, 0.01), (False, 9.0)):
        with cli._progress(enabled) as tick:
            tick(0, 100)
            clock.now += step
            tick(25, 100)
    assert capsys.readouterr().err == ""


def test_slow_bots_are_played_and_reported_hand_by_hand() -> None:
    assert LEVELS["extreme"].hands_per_batch == 1
    tasks = [Task("classic", "extreme", 0, i) for i in range(3)]
    assert [len(b) for b in executors.batches(tasks)] == [1, 1, 1]
    tasks = [Task("classic", "medium", 0, i) for i in range(30)]
    assert [len(b) for b in executors.batches(tasks)] == [25, 5]
