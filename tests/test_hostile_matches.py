"""Hostile matches and saves: match records, results files and saved games built to break the
commands that read them back.

Every refusal is exit 2 and one stderr line naming the file (and the line, hand and field where
there is one) and what was expected, never a traceback, and nothing is changed. The match
records are in ``tests/fixtures/hostile/records/match`` (their ``cases.yaml`` says what
``ddz replay`` and ``ddz play --resume`` must answer); results files are made by a small run
once per module and damaged a row at a time; links, FIFOs and huge files are made in
``tmp_path``.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import FIXTURES
from .test_hostile_records import run

MATCHES = FIXTURES / "hostile" / "records" / "match"
CASES: dict[str, Any] = yaml.safe_load((MATCHES / "cases.yaml").read_text(encoding="utf-8"))


def one_line(code: int, out: str, err: str, *words: str) -> str:
    """Exit 2, nothing on stdout, one ``ddz: error:`` line holding every one of ``words``."""
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("ddz: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    for word in words:
        assert word in err, err
    return err


# --------------------------------------------------------------------------- match records


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_match_record_is_refused_by_play_resume_as_by_replay(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for item in MATCHES.iterdir():  # a copy: a record that can be continued is written to
        shutil.copy(item, tmp_path / item.name)
    path = tmp_path / name
    code, out, err = run(capsys, "play", "--resume", str(path), "--autoplay", "--seat", "0",
                         "--bots", "random")
    case = CASES[name]
    if case["play"] == 0:
        assert code == 0 and err == "", err
        assert run(capsys, "replay", str(path))[0] == 0  # continued to a valid match
        return
    words = [w for w in case["contains"] if not w.startswith("invalid: ")]
    one_line(code, out, err, str(path), *words)


def test_a_hand_that_is_a_match_names_its_place_in_every_reader(
        capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_rules.errors import RecordError
    from ddz_rules.records import read_record, replay, replay_match

    path = str(MATCHES / "hand-is-a-match.json")
    with pytest.raises(RecordError, match=r"field hands\.1: a match record where a hand record "
                                          r"is expected"):
        read_record(path)
    record = json.loads((MATCHES / "hand-is-a-match.json").read_text(encoding="utf-8"))
    with pytest.raises(RecordError, match=r"field hands\.1: a match record where a hand"):
        replay_match(record, path)
    with pytest.raises(RecordError, match=r"^record: a match record where a hand record is "
                                          r"expected"):
        replay(record)  # a match given where one hand is read


def test_a_50_mb_record_is_refused_by_its_size_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_rules.records import MAX_RECORD_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(50 * 1024 * 1024)  # sparse: nothing to read unless someone reads it
    for argv in (["replay", str(path)],
                 ["play", "--resume", str(path), "--autoplay", "--seat", "0", "--bots",
                  "random"]):
        one_line(*run(capsys, *argv), str(path), f"at most {MAX_RECORD_BYTES} are read")


# --------------------------------------------------------------------------- results files

#: The small runs whose results files are damaged below: a run of matches, a ratings run and
#: a comparison of matches, each with the options a resume repeats.
RUNS = {
    "match": ["match", "--bots", "random", "--matches", "3", "--seed", "4", "--no-progress"],
    "rate": ["rate", "--levels", "random,standard", "--matches", "3", "--seed", "4",
             "--no-progress"],
    "compare": ["compare", "classic", "--match-levels", "standard,random", "--matches", "3",
                "--seed", "4", "--no-progress"],
}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished results file of each run in :data:`RUNS`."""
    from ddz_rules.cli import main

    folder = tmp_path_factory.mktemp("runs")
    made = {}
    for name, argv in RUNS.items():
        path = folder / f"{name}.jsonl"
        assert main([*argv, "--out", str(path), "--json"]) == 0
        made[name] = path
    return made


def _hand(field: str, value: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    def damage(row: dict[str, Any]) -> None:
        row["hands"][0][field] = value(row["hands"][0][field])
    return damage


#: Each damage to the second match of a results file, and what the refusal must say.
DAMAGES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "other levels": (lambda r: r.__setitem__("seats", ["medium"] * 3),
                     "match 1: field seats: ['medium', 'medium', 'medium'], not as this run "
                     "seats it"),
    "four seats": (lambda r: r["seats"].append(r["seats"][0]), "not as this run seats it"),
    "no seats": (lambda r: r.__setitem__("seats", []),
                 "field seats: [], not as this run seats it"),
    "winner seat 7": (lambda r: r.__setitem__("winners", [7]),
                      "match 1: field winners: [7], but its hands give"),
    "wrong totals": (lambda r: r["totals"].__setitem__(0, r["totals"][0] + 1),
                     "match 1: field totals:"),
    "huge total": (lambda r: r["totals"].__setitem__(0, 10 ** 60), "field totals: [1000"),
    "wrong hands won": (lambda r: r["hands_won"].__setitem__(0, 99), "field hands_won:"),
    "wrong tie": (lambda r: r.__setitem__("tie", not r["tie"]), "field tie:"),
    "wrong count": (lambda r: r.__setitem__("counted", r["counted"] + 1), "field counted:"),
    "wrong deals": (lambda r: r.__setitem__("deals", r["deals"] + 1), "field deals:"),
    "led alone later": (lambda r: r.__setitem__("led_alone_from", 99), "field led_alone_from: 99"),
    "wrong dealer": (_hand("dealer", lambda d: (d + 1) % 3),
                     "field hands.0.dealer: seat 2, but match.rotation (every_deal) has seat "
                     "1 deal it"),
    "four scores": (_hand("scores", lambda s: [*s, 0]),
                    "field hands.0.scores: 4 scores, but classic has 3 seats"),
    "hand winner seat 9": (_hand("winners", lambda w: [9]),
                           "field hands.0.winners: seat 9, but seats are 0 to 2"),
    "miscounted hand": (_hand("counted", lambda c: not c), "field hands.0.counted:"),
    "a hand too many": (lambda r: r["hands"].append(copy.deepcopy(r["hands"][-1])),
                        "this hand is one too many"),
    "a hand missing": (lambda r: r["hands"].pop(),
                       "the match stops before its match rules end it"),
}


@pytest.mark.parametrize("command", sorted(RUNS))
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_row_is_refused_on_resume_and_nothing_changes(
        command: str, damage: str, results: dict[str, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    header, *rows = results[command].read_text(encoding="utf-8").splitlines()
    row = json.loads(rows[1])
    change, words = DAMAGES[damage]
    change(row)
    path.write_text("\n".join([header, rows[0], json.dumps(row), *rows[2:]]) + "\n",
                    encoding="utf-8")
    before = path.read_bytes()
    code, out, err = run(capsys, *RUNS[command], "--out", str(path), "--resume")
    one_line(code, out, err, f"--resume: {path}:3: ", words,
             "the file is damaged (nothing was changed)")
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", sorted(RUNS))
def test_an_undamaged_results_file_resumes(command: str, results: dict[str, Path],
                                           tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    shutil.copy(results[command], path)
    code, out, err = run(capsys, *RUNS[command], "--out", str(path), "--resume", "--json")
    assert code == 0 and err == "", err
    assert isinstance(json.loads(out), dict)


def test_a_compare_row_must_keep_its_focus_seat(results: dict[str, Path], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    header, *rows = results["compare"].read_text(encoding="utf-8").splitlines()
    row = json.loads(rows[1])
    row["focus"] = 2
    path.write_text("\n".join([header, rows[0], json.dumps(row), *rows[2:]]) + "\n",
                    encoding="utf-8")
    one_line(*run(capsys, *RUNS["compare"], "--out", str(path), "--resume"),
             f"{path}:3: match 1: field focus: 2, but this run gives it 1")


# --------------------------------------------------------------------------- file kinds


def _loop(path: Path) -> None:
    path.symlink_to(path.name)


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _missing(path: Path) -> None:
    pass


#: Each kind of path that names no readable file, and what its refusal says.
KINDS: dict[str, tuple[Callable[[Path], None], str]] = {
    "a loop of links": (_loop, "a loop of symbolic links"),
    "a fifo": (_fifo, "not a regular file"),
    "a folder": (_folder, "directory"),
    "missing": (_missing, ""),
}

#: Every command that reads a record or a results file it is given, by what it reads.
READERS = {
    "replay": ["replay", "{path}"],
    "play --resume": ["play", "--resume", "{path}", "--autoplay", "--seat", "0", "--bots",
                      "random"],
    **{f"{name} --resume": [*argv, "--out", "{path}", "--resume"] for name, argv in RUNS.items()},
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_path_that_names_no_readable_file_is_one_line_in_every_reader(
        reader: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "saved.json"
    make, words = KINDS[kind]
    make(path)
    argv = [a.replace("{path}", str(path)) for a in READERS[reader]]
    one_line(*run(capsys, *argv), str(path), words)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_a_file_that_may_not_be_read_is_one_line_in_every_reader(
        reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "saved.json"
    path.write_text("{}\n", encoding="utf-8")
    real_open = os.open

    def refuse(name: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(name) == str(path):  # as chmod 000 does, for any user (root included)
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    argv = [a.replace("{path}", str(path)) for a in READERS[reader]]
    one_line(*run(capsys, *argv), str(path), "Permission denied")
    assert path.read_text(encoding="utf-8") == "{}\n"


@pytest.mark.parametrize("command", sorted(RUNS))
def test_a_50_mb_results_file_is_refused_at_its_first_line(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    with path.open("wb") as f:
        f.truncate(50 * 1024 * 1024)
    one_line(*run(capsys, *RUNS[command], "--out", str(path), "--resume"), str(path),
             ":1: a line longer than")
    assert path.stat().st_size == 50 * 1024 * 1024


@pytest.mark.parametrize("command", sorted(RUNS))
@pytest.mark.parametrize(("content", "words"), [
    (b"\xff\xfe\n", ":1: not UTF-8 text"),
    (b"[]\n", ":1: not the header of a results file"),
    (b'"a run"\n', ":1: not the header of a results file"),
    (b"null\n", ":1: not the header of a results file"),
    pytest.param(b"[" * 2_000_000 + b"\n", "a line longer than", id="a-line-past-the-limit"),
])
def test_a_results_file_that_is_no_results_file_is_one_line(
        command: str, content: bytes, words: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(content)
    one_line(*run(capsys, *RUNS[command], "--out", str(path), "--resume"), str(path), words)
    assert path.read_bytes() == content
