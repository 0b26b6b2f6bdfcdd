"""The progress of a comparison run: a long run is announced with its estimated time."""

from __future__ import annotations

import pytest

from ddz_rules import cli
from ddz_rules.bots import LEVELS
from ddz_rules.compare import executors
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
        clock.now += 9.0
        tick(1, 20)
        clock.now += 9.0
        tick(2, 20)
    err = capsys.readouterr().err.splitlines()
    assert err == ["ddz: 9.00 s a hand so far: the 20 hands to play will take about 3 min "
                   "in all"]


def test_a_long_run_of_matches_is_announced_in_the_singular_of_its_unit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    clock = _Clock()
    monkeypatch.setattr(cli.time, "monotonic", clock)
    with cli._progress(True, "matches") as tick:
        tick(0, 20)
        clock.now += 9.0
        tick(1, 20)
    assert capsys.readouterr().err.startswith("ddz: 9.00 s a match so far: the 20 matches")


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
