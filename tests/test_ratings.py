"""Ratings of bot levels (``ddz rate``): seating, pairwise results, the fit, intervals, runs.

Tests are named after what they prove.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ddz_rules.cli import main
from ddz_rules.compare.ratings import (
    ANCHOR,
    ELO,
    RatingSpec,
    assignments,
    bootstrap,
    comparisons,
    cycle_length,
    fit,
    pairwise,
    rate,
    records,
    seating,
    separated,
)

LEVELS3 = ("random", "standard", "medium")


# ------------------------------------------------------------------ pairwise results


def test_the_higher_total_beats_the_lower_and_equal_totals_are_half_a_win_each_way() -> None:
    row = {"seats": ["medium", "random", "standard"], "totals": [6, -6, 0]}
    assert sorted(pairwise(row)) == [("medium", "random", 1.0), ("medium", "standard", 1.0),
                                     ("standard", "random", 1.0)]
    tied = {"seats": ["medium", "random", "standard"], "totals": [4, 4, -8]}
    assert sorted(pairwise(tied)) == [("medium", "random", 0.5), ("medium", "standard", 1.0),
                                      ("random", "medium", 0.5), ("random", "standard", 1.0)]


def test_seats_of_one_level_are_not_compared_with_each_other() -> None:
    row = {"seats": ["random", "random", "medium"], "totals": [-8, 4, 4]}
    assert sorted(pairwise(row)) == [("medium", "random", 0.5), ("medium", "random", 1.0),
                                     ("random", "medium", 0.5)]


def test_a_best_of_match_is_decided_by_hands_won_not_totals() -> None:
    row = {"seats": ["random", "medium"], "totals": [10, -10], "hands_won": [1, 2]}
    assert pairwise(row, "hands_won") == [("medium", "random", 1.0)]
    assert pairwise(row) == [("random", "medium", 1.0)]


def test_records_and_the_wins_matrix_count_a_tie_once_for_each_side_as_half_a_win() -> None:
    rows = [{"seats": ["medium", "random", "standard"], "totals": [4, 4, -8]},
            {"seats": ["random", "random", "medium"], "totals": [-4, -4, 8]}]
    got = records(rows, LEVELS3)
    assert (got["medium"].matches, got["medium"].wins, got["medium"].losses,
            got["medium"].ties) == (2, 3, 0, 1)
    assert (got["random"].wins, got["random"].losses, got["random"].ties) == (1, 2, 1)
    assert (got["standard"].matches, got["standard"].losses) == (1, 2)
    wins = comparisons(rows, LEVELS3).sum(axis=0)
    r, s, m = 0, 1, 2
    assert wins[m, r] == 2.5 and wins[r, m] == 0.5 and wins[r, s] == 1 and wins[m, s] == 1
    assert wins.sum() == 5  # five pairwise results, each worth one win in all


# ------------------------------------------------------------------ the fit


def test_ratings_are_on_the_elo_scale_with_the_first_level_anchored_at_1000() -> None:
    # 30 wins to 10: P = 3/4, so the gap is 400 log10(3) points (unregularised fit)
    ratings = fit(np.array([[0.0, 10.0], [30.0, 0.0]]), alpha=0)
    assert ratings[0] == ANCHOR
    assert math.isclose(ratings[1] - ratings[0], 400 * math.log10(3), abs_tol=1e-3)
    assert math.isclose(ELO, 400 / math.log(10))


def test_the_fit_recovers_the_order_when_one_level_always_beats_another() -> None:
    # c always beats a; c beats b 15 to 5; b beats a 12 to 8
    wins = np.array([[0.0, 8.0, 0.0], [12.0, 0.0, 5.0], [20.0, 15.0, 0.0]])
    ratings = fit(wins)
    assert ratings[0] < ratings[1] < ratings[2]
    assert all(math.isfinite(r) for r in ratings)
    assert not separated(wins)


def test_a_level_that_never_loses_gets_a_finite_rating_and_is_flagged() -> None:
    wins = np.array([[0.0, 0.0], [30.0, 0.0]])
    ratings = fit(wins)
    assert math.isfinite(ratings[1]) and ratings[1] > ratings[0] + 400
    assert separated(wins)


def test_even_results_rate_levels_equal() -> None:
    ratings = fit(np.array([[0.0, 7.0, 7.0], [7.0, 0.0, 7.0], [7.0, 7.0, 0.0]]))
    assert np.allclose(ratings, ANCHOR)


def test_the_bootstrap_depends_only_on_the_seed() -> None:
    rng = np.random.default_rng(1)
    per_match = rng.integers(0, 3, size=(40, 3, 3)).astype(float)
    for m in range(3):
        per_match[:, m, m] = 0
    assert np.array_equal(bootstrap(per_match, 5, 50), bootstrap(per_match, 5, 50))
    assert not np.array_equal(bootstrap(per_match, 5, 50), bootstrap(per_match, 6, 50))
    assert bootstrap(per_match, 5, 50).shape == (50, 3)


# ------------------------------------------------------------------ seating


@pytest.mark.parametrize(("levels", "players"), [(LEVELS3, 3), (("random", "medium"), 3),
                                                 (LEVELS3, 2), (("random", "medium"), 2)])
def test_a_full_seating_cycle_balances_every_seat_and_every_first_dealer(
        levels: tuple[str, ...], players: int) -> None:
    cycle = cycle_length(levels, players)
    assert cycle == (len(levels) ** players - len(levels)) * players
    seats = [seating(levels, players, i) for i in range(cycle)]
    assert all(len(set(s)) > 1 for s in seats)
    assert set(seats) == set(assignments(levels, players))
    # every seating once with every first dealer (match i is first dealt by seat i % players)
    assert len({(s, i % players) for i, s in enumerate(seats)}) == cycle
    # every level in every seat equally often
    in_seat = Counter((seat, level) for s in seats for seat, level in enumerate(s))
    assert len(set(in_seat.values())) == 1 and len(in_seat) == players * len(levels)
    # every ordered pair of different levels in every ordered pair of seats equally often
    met = Counter((a, b, s[a], s[b]) for s in seats for a in range(players)
                  for b in range(players) if a != b and s[a] != s[b])
    assert len(set(met.values())) == 1
    assert len(met) == players * (players - 1) * len(levels) * (len(levels) - 1)
    # the cycle repeats
    assert seating(levels, players, cycle + 5) == seats[5 % cycle]


# ------------------------------------------------------------------ runs


def _spec(matches: int = 12, levels: tuple[str, ...] = ("random", "standard"),
          seed: int = 3) -> RatingSpec:
    return RatingSpec("classic", levels, seed, matches)


def test_ratings_are_reproducible_whatever_runs_them() -> None:
    once = rate(_spec())
    assert rate(_spec()) == once
    assert rate(_spec(), workers=2) == once
    assert [e["level"] for e in once["ladder"]] != [] and once["matches"] == 12


def test_an_interrupted_run_resumes_to_the_same_ratings(tmp_path: Path) -> None:
    out = tmp_path / "rate.jsonl"
    full = rate(_spec(), out=out)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:5]) + lines[5][:25])  # a header, 4 matches, a torn line
    assert rate(_spec(), out=out, resume=True) == full
    indices = [json.loads(line)["index"] for line in out.read_bytes().splitlines()[1:]]
    assert sorted(indices) == list(range(12))
    assert rate(_spec()) == full


def test_a_resume_refuses_another_levels_list_or_a_match_results_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rate.jsonl"
    rate(_spec(4), out=out)
    assert main(["rate", "--levels", "standard,random", "--matches", "4", "--seed", "3",
                 "--out", str(out), "--resume", "--no-progress"]) == 2
    assert "holds a run with levels ['random', 'standard']" in capsys.readouterr().err
    matches = tmp_path / "match.jsonl"
    assert main(["match", "--matches", "2", "--out", str(matches), "--no-progress"]) == 0
    assert main(["rate", "--levels", "random,standard", "--matches", "2", "--out",
                 str(matches), "--resume", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ddz-rate-results/2" in err


def test_a_results_file_whose_match_is_seated_otherwise_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rate.jsonl"
    rate(_spec(4), out=out)
    header, *rows = out.read_text().splitlines()
    first = json.loads(rows[0])
    first["seats"] = list(reversed(first["seats"]))
    out.write_text("\n".join([header, json.dumps(first), *rows[1:]]) + "\n")
    assert main(["rate", "--levels", "random,standard", "--matches", "4", "--seed", "3",
                 "--out", str(out), "--resume", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not as this run seats it" in err


def test_a_small_real_run_rates_medium_above_random(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    assert main(["rate", "--levels", "random,medium", "--matches", "30", "--seed", "1",
                 "--json", "--no-progress"]) == 0
    summary: dict[str, Any] = json.loads(capsys.readouterr().out)
    top, bottom = summary["ladder"]
    assert (top["level"], bottom["level"]) == ("medium", "random")
    assert bottom["rating"] == ANCHOR and top["low"] > bottom["rating"]
    assert top["matches"] == bottom["matches"] == 30
    assert summary["scale"]["anchor"] == "random" and summary["interval"]["resamples"] == 200
    assert main(["rate", "--levels", "random,medium", "--matches", "30", "--seed", "1",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "random anchored at 1000" in text and "cycle of 18 matches" in text
    ladder = [line.split()[1] for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert ladder == ["medium", "random"]


@pytest.mark.parametrize(("argv", "words"), [
    (["--levels", "medium"], "at least two different levels"),
    (["--levels", "medium,random,medium"], "names 'medium' more than once"),
    (["--levels", "random,genius"], "unknown bot level 'genius'"),
    (["--levels", "random,,medium"], "has an empty name"),
    (["--levels", "random,medium", "--matches", "0"], "--matches must be between 1 and"),
    (["--levels", "random,medium", "--matches", "100001"], "--matches must be between 1 and"),
    (["--levels", "random,medium", "-r", "nope"], "unknown ruleset 'nope'"),
    (["--levels", "random,medium", "--workers", "0"], "--workers must be between 1 and"),
    (["--levels", "random,medium", "--resume"], "--resume needs --out FILE"),
    ([], "required: --levels"),
])
def test_bad_rate_input_is_one_line_with_exit_2(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1 and words in err


def test_without_choix_rate_names_the_extra_before_playing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import ddz_rules.compare.ratings as ratings

    monkeypatch.setitem(sys.modules, "choix", None)
    played: list[int] = []
    monkeypatch.setattr(ratings, "execute_ratings", lambda *a, **k: played.append(1))
    assert main(["rate", "--levels", "random,medium", "--matches", "3", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err == "ddz: error: ddz rate needs choix: pip install 'ddz-rules[ratings]'\n"
    assert not played
