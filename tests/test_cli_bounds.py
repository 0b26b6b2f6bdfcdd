"""Every size a user controls is bounded, and every bad argument or output path is one line.

Named after what each proves: hands, workers and examples have limits stated in the error;
``ddz check`` enumerates a table within the limit and says so (one above it is counted and
sampled instead: ``tests/test_hostile_rulesets.py``); a hand or --beat that is empty or
illegal names its argument; ``ddz simulate --records`` refuses a folder it cannot use before
playing, keeps every record it finished when a write fails, and writes records of a ruleset
file that replay anywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import outputs
from ddz_rules.cli import MAX_SIMULATED, main
from ddz_rules.compare.run import MAX_HANDS, MAX_WORKERS
from ddz_rules.errors import UsageError
from ddz_rules.table import MAX_READINGS

from .conftest import FIXTURES

CAPPED = str(FIXTURES / "variants" / "capped.yaml")


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("ddz: error: ") and captured.err.count("\n") == 1
    for w in words:
        assert w in captured.err, captured.err


@pytest.mark.parametrize(("argv", "words"), [
    (["simulate", "--hands", str(MAX_SIMULATED + 1)], [f"{MAX_SIMULATED:,}"]),
    (["compare", "classic", "--hands", str(MAX_HANDS + 1), "--no-progress"],
     [f"{MAX_HANDS:,}", "several seeds"]),
    (["compare", "classic", "--hands", "2", "--workers", str(MAX_WORKERS + 1),
      "--no-progress"], [f"between 1 and {MAX_WORKERS}"]),
    (["diff", "classic", "two-player", "--examples", "-1"], ["--examples"]),
])
def test_every_user_controlled_size_has_a_stated_limit(
        argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, argv, *words)


@pytest.mark.parametrize(("argv", "words"), [
    (["moves", ""], ["HAND is empty"]),
    (["moves", "3Z"], ["HAND: bad card 'Z'"]),
    (["moves", "3", "--beat", ""], ["--beat is empty"]),
    (["moves", "3", "--beat", "44445555"], ["--beat 44445555 is not a legal play", "four"]),
    (["moves", "3", "--beat", "3X"], ["--beat: bad card 'X'"]),
])
def test_a_hand_or_play_to_answer_that_is_not_one_names_its_argument(
        argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, argv, *words)


def test_moves_answer_a_named_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "345", "--beat", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == ["4", "5"]


@pytest.mark.parametrize("where", ["file", "parent-is-file", "unwritable"])
def test_simulate_refuses_a_records_folder_it_cannot_use_before_playing(
        tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    folder = {"file": afile, "parent-is-file": afile / "records",
              "unwritable": Path("/proc/ddz-no-such-place")}[where]
    _refused(capsys, ["simulate", "--hands", "2", "--records", str(folder)], "--records")
    assert afile.read_text() == "x"


def test_a_failed_record_write_is_one_line_and_keeps_the_records_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    real = os.link
    calls = {"n": 0}

    def fail_on_third(source: Any, target: Any) -> None:
        calls["n"] += 1  # each new record is moved into place by a hard link
        if calls["n"] == 3:
            raise OSError(28, "No space left on device")
        real(source, target)

    monkeypatch.setattr(outputs.os, "link", fail_on_third)
    _refused(capsys, ["simulate", "--hands", "5", "--records", str(tmp_path)],
             "No space left on device", "the 2 records written before it are complete")
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["classic-0-000000.json", "classic-0-000001.json"]
    for name in kept:
        json.loads((tmp_path / name).read_text())


def test_records_of_a_ruleset_file_replay_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    assert main(["simulate", "-r", CAPPED, "--hands", "3", "--records", str(records)]) == 0
    assert (records / "capped.yaml").is_file()
    monkeypatch.chdir(tmp_path.parent)
    capsys.readouterr()
    for record in sorted(records.glob("*.json")):
        assert json.loads(record.read_text())["ruleset"] == "capped.yaml"
        assert main(["replay", str(record)]) == 0, capsys.readouterr().err
        assert capsys.readouterr().out.startswith("valid:")


@pytest.mark.parametrize("ruleset_id", ["classic", "douzero"])
def test_check_enumerates_a_table_within_the_limit_and_says_so(
        ruleset_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", ruleset_id, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["enumerated"] is True and report["plays"] <= MAX_READINGS
    assert "sample" not in report and "largest_hand" not in report
    assert main(["check", ruleset_id]) == 0
    out = capsys.readouterr().out
    assert f"  {report['plays']} legal plays\n" in out and "not enumerated" not in out


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["plays"], ["rules"], ["classify", "33"]])
def test_a_full_disk_behind_standard_output_is_one_line_not_a_bug(argv: list[str]) -> None:
    """``ddz plays > file`` on a full disk: the user is told in one line, exit 2; it is not
    reported as a bug in ddz-rules, and nothing more fails as the program exits."""
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run([sys.executable, "-c", "from ddz_rules.cli import run; run()",
                               *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                              check=False)
    assert done.returncode == 2
    assert done.stderr == ("ddz: error: writing to standard output failed: No space left on "
                           "device\n")


LONG_NAME = "a" * 300  # past the 255 bytes a file name may take on common file systems


@pytest.mark.parametrize("argv", [
    ["export", "--out", f"{LONG_NAME}.json", str(FIXTURES / "records" / "s1-bid-2-one-bomb.json")],
    ["deals", "export", "--count", "2", f"{LONG_NAME}.jsonl"],
    ["compare", "classic", "--hands", "2", "--bots", "random", "--out", f"{LONG_NAME}.jsonl"],
    ["simulate", "--hands", "2", "--records", LONG_NAME],
    ["play", "--autoplay", "--seed", "1", "--save", f"{LONG_NAME}.json"],
])
def test_a_file_name_longer_than_the_system_allows_is_one_line_before_any_work(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a name longer than this system allows" in err, err
    assert LONG_NAME not in err  # the name is shown cut short, not echoed whole


def test_writing_under_a_name_the_system_cannot_look_up_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"writing .* failed: File name too long; nothing"):
        outputs.write_new(tmp_path / LONG_NAME, "text", "give a shorter name")
    with pytest.raises(UsageError, match=r"writing .* failed: File name too long; nothing"):
        outputs.write_whole(tmp_path / LONG_NAME, "text", "nothing was written")
    assert not any(tmp_path.iterdir())
