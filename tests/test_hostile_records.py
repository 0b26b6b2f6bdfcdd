"""Hostile input: hand records built to break the reader, and bad play arguments.

Every refusal is exit 2 and exactly one stderr line ``ddz: error: FILE...: field NAME: why``,
never a traceback; an illegal action in an otherwise well-formed record is exit 1 and an
``invalid:`` line, as for any record. Huge and deep records, FIFOs and links are made at test
time in ``tmp_path``; the small ones are in ``tests/fixtures/hostile/records`` and its
folders (``four-player``), each folder with a ``cases.yaml`` saying what each must be told.
The exit codes each command's ``--help`` states are checked against one example each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddz_rules import load
from ddz_rules.cli import build_parser, main
from ddz_rules.docs.reference import exit_codes, subcommands
from ddz_rules.records import (
    MAX_DEPTH,
    MAX_RECORD_BYTES,
    RecordError,
    read_record,
    replay,
    to_record,
)
from ddz_rules.simulate import play_random

from .conftest import FIXTURES

ROOT = FIXTURES.parent.parent
RECORDS = FIXTURES / "records"
HOSTILE = FIXTURES / "hostile" / "records"


def _cases() -> dict[str, Any]:
    """Every hostile record's case, by its path below ``HOSTILE``: each folder's ``cases.yaml``
    names the records beside it."""
    found: dict[str, Any] = {}
    for cases in sorted(HOSTILE.rglob("cases.yaml")):
        folder = cases.parent.relative_to(HOSTILE)
        for name, case in yaml.safe_load(cases.read_text(encoding="utf-8")).items():
            found[(folder / name).as_posix()] = case
    return found


CASES = _cases()
S3 = RECORDS / "s3-bid-3-two-bombs.json"  # open-auction, valid

HOUSE_RULES = """\
id: house
extends: classic
title: House rules
summary: The classic rules, kept beside a record.
source:
  text: house.txt
  about: A test ruleset that lives in a record's folder.
"""


def s3() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(S3.read_text(encoding="utf-8"))
    return loaded


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging (a FIFO read with no writer blocks forever)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with deadline(60):
        code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err



def _with_field(record: dict[str, Any], field: str, value: Any, tmp_path: Path) -> Path:
    """``record`` with the dotted ``field`` (list indices as numbers) set to ``value``,
    written to a file."""
    *parents, last = field.split(".")
    node: Any = record
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[int(last) if isinstance(node, list) else last] = value
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path

def refused(capsys: pytest.CaptureFixture[str], path: Path | str, *words: str,
            json_out: bool = False) -> str:
    """Replay ``path`` and check it is refused: exit 2, one line naming the file, no output."""
    code, out, err = run(capsys, "replay", str(path), *(["--json"] if json_out else []))
    assert code == 2, (out, err)
    assert out == ""
    assert err.startswith("ddz: error: ") and err.endswith("\n")
    assert err.count("\n") == 1 and len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    assert str(path) in err, err
    for words_ in words:
        assert words_ in err, err
    return err


# --------------------------------------------------------------------------- fixtures


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_record_fixture_gets_one_clear_line(name: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    case = CASES[name]
    path = HOSTILE / name
    if case["exit"] == 2:
        refused(capsys, path, *case["contains"])
        return
    code, out, err = run(capsys, "replay", str(path))
    assert code == case["exit"] and err == "" and out.count("\n") == 1, (out, err)
    assert out.startswith("invalid: ") == (code == 1), out
    for words in case["contains"]:
        assert words in out, out


def test_every_hostile_fixture_has_a_case() -> None:
    assert {p.relative_to(HOSTILE).as_posix() for p in HOSTILE.rglob("*.json")} == set(CASES)


# --------------------------------------------------------------------------- defect 1


@pytest.mark.parametrize(("field", "value", "words"), [
    ("dealer", 0.0, "0.0 is not of type 'integer'"),
    ("first_bidder", 0.0, "0.0 is not of type 'integer'"),
    ("seed", 1.5, "1.5 is not of type 'integer', 'null'"),
    ("dealer", True, "True is not of type 'integer'"),
    ("first_bidder", False, "False is not of type 'integer'"),
    ("seed", True, "True is not of type 'integer', 'null'"),
])
def test_an_integer_field_refuses_floats_and_booleans(
        field: str, value: object, words: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**s3(), field: value}), encoding="utf-8")
    refused(capsys, path, f"field {field}: {words}")


# --------------------------------------------------------------------------- defect 2


@pytest.mark.parametrize(("field", "opening", "closing"), [
    ("plays", "[", "]"),
    ("result", '{"a":', "}"),
    ("deal", '{"hands":', "}"),
])
def test_a_record_nested_thousands_deep_is_refused_before_parsing(
        field: str, opening: str, closing: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    inner = opening * 5000 + "1" + closing * 5000
    path.write_text(f'{{"ruleset": "classic",\n "{field}": {inner}}}', encoding="utf-8")
    err = refused(capsys, path, f"{path}:2: field {field}",
                  f"nested more than {MAX_DEPTH} deep")
    assert len(err) < 300


def test_a_deep_record_built_in_python_is_refused_not_recursed_into() -> None:
    record = s3()
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    record["plays"] = deep
    with pytest.raises(RecordError, match=r"^record: field plays(\.0)+: arrays and objects "
                                          r"nested more than"):
        replay(record)


def test_an_ordinary_record_is_not_too_deep() -> None:
    assert replay(read_record(str(S3))).valid


# --------------------------------------------------------------------------- defect 3


@pytest.mark.parametrize(("base", "field", "value"), [
    ("s1-bid-2-one-bomb.json", "marked_card", "X"),
    ("s4-bid-2-bomb-and-rocket.json", "turned_card", "X"),
    ("s3-bid-3-two-bombs.json", "marked_card", "X"),  # a field the ruleset does not use
    ("s3-bid-3-two-bombs.json", "turned_card", "X"),
    ("s3-bid-3-two-bombs.json", "deal.hands.1", "X"),
    ("s3-bid-3-two-bombs.json", "deal.kitty", "X"),
    ("s3-bid-3-two-bombs.json", "deal.undealt", "X"),
])
def test_every_card_field_names_the_file_and_field(base: str, field: str, value: str,
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((RECORDS / base).read_text(encoding="utf-8"))
    path = _with_field(record, field, value, tmp_path)
    refused(capsys, path, f"{path}: field {field}: bad card 'X'")


def test_a_card_the_deck_lacks_names_the_field(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((RECORDS / "s2-two-robs-one-bomb.json").read_text(encoding="utf-8"))
    assert record["ruleset"] == "two-player"
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**record, "marked_card": "3"}), encoding="utf-8")
    refused(capsys, path, "field marked_card:", "not in the two-player deck")


def test_a_marked_card_field_on_a_ruleset_without_one_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**s3(), "turned_card": "K"}), encoding="utf-8")
    refused(capsys, path, "field turned_card: open-auction has no turned card")
    path.write_text(json.dumps({**s3(), "turned_card": None}), encoding="utf-8")
    assert run(capsys, "replay", str(path))[0] == 0


def test_an_illegal_play_still_reports_its_index_and_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(HOSTILE / "illegal-play.json"), "--json")
    payload = json.loads(out)
    assert code == 1 and (payload["valid"], payload["index"], payload["action"]) == (False, 4, "XX")
    assert "bad card 'X'" in payload["reason"]


# --------------------------------------------------------------------------- defect 4


def test_a_duplicate_key_at_the_top_is_refused_with_its_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = HOSTILE / "duplicate-plays.json"
    assert json.loads(path.read_text(encoding="utf-8"))["plays"], "the last 'plays' would win"
    refused(capsys, path, f"{path}:19: field plays: duplicate key 'plays' (first at line 18)")


def test_a_duplicate_key_is_found_however_it_is_spelled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    text = json.dumps(s3(), indent=1)
    path.write_text(text.replace('\n "seed": 88,', '\n "seed": 88,\n "se\\u0065d": 88,'),
                    encoding="utf-8")
    refused(capsys, path, f"{path}:4: field seed: duplicate key 'seed' (first at line 3)")


def test_the_same_key_in_different_objects_is_no_duplicate(tmp_path: Path) -> None:
    record = to_record(play_random(load("classic"), 5))
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**record, "result": {"a": {"x": 1}, "b": {"x": 1}}}),
                    encoding="utf-8")
    assert replay(read_record(str(path)), str(path)).valid


# --------------------------------------------------------------------------- defect 5


def house_record(folder: Path, ruleset: str = "house.yaml") -> Path:
    """A valid record in ``folder`` played under the house rules kept beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "house.yaml").write_text(HOUSE_RULES, encoding="utf-8")
    hand = play_random(load(str(folder / "house.yaml")), 3)
    path = folder / "hand.json"
    path.write_text(json.dumps({**to_record(hand), "ruleset": ruleset}), encoding="utf-8")
    return path


def test_a_ruleset_beside_the_record_is_read_from_the_records_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = house_record(tmp_path / "hands")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "house.yaml").write_text("not: [a ruleset", encoding="utf-8")  # a decoy
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and out.startswith("valid: ") and err == ""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "replay", "hands/hand.json")
    assert code == 0 and out.startswith("valid: ") and err == ""


def test_a_ruleset_in_a_subfolder_of_the_records_folder_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "hands"
    path = house_record(folder, "rules/house.yaml")
    (folder / "rules").mkdir()
    (folder / "house.yaml").rename(folder / "rules" / "house.yaml")
    assert run(capsys, "replay", str(path))[0] == 0


@pytest.mark.parametrize(("ruleset", "words"), [
    ("/etc/ddz/house.yaml", "is an absolute path"),
    ("../hands/house.yaml", "leaves the folder of hand.json"),
    ("rules/../house.yaml", "leaves the folder of hand.json"),
])
def test_a_ruleset_path_out_of_the_records_folder_is_refused(
        ruleset: str, words: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = house_record(tmp_path / "hands", ruleset)
    refused(capsys, path, "field ruleset:", words)


def test_a_link_out_of_the_records_folder_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = house_record(tmp_path / "hands", "link.yaml")
    (tmp_path / "hands" / "link.yaml").symlink_to(ROOT / "rules" / "classic.yaml")
    refused(capsys, path, "field ruleset:", "link leading out of the folder of hand.json")


def test_a_ruleset_name_is_a_bundled_id_not_a_file_in_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "open-auction").write_text("not: [a ruleset", encoding="utf-8")
    (tmp_path / "my-rules").write_text(HOUSE_RULES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "replay", str(S3))[0] == 0
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**s3(), "ruleset": "my-rules"}), encoding="utf-8")
    refused(capsys, path, "field ruleset: unknown ruleset 'my-rules'")


def test_a_record_from_python_reads_a_ruleset_path_from_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads(house_record(tmp_path).read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    assert replay(record).valid
    with pytest.raises(RecordError, match=r"^record: field ruleset: '\.\./house\.yaml' leaves"):
        replay({**record, "ruleset": "../house.yaml"})
    with pytest.raises(RecordError, match=r"field ruleset: '/house\.yaml' is an absolute path"):
        replay({**record, "ruleset": "/house.yaml"})


def test_a_fifo_ruleset_beside_the_record_is_refused_without_hanging(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = house_record(tmp_path, "pipe.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    refused(capsys, path, "field ruleset:", "pipe.yaml", "not a regular file")


# --------------------------------------------------------------------------- the sweep


def test_a_fifo_record_is_refused_without_hanging(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    refused(capsys, fifo, "not a regular file")


def test_a_directory_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, tmp_path, "is a directory")


def test_a_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, tmp_path / "nope.json", "cannot read file")


def test_a_2_mb_record_is_refused_unread(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.json"
    record = {**s3(), "result": {"padding": "3" * (2 * 1024 * 1024)}}
    path.write_text(json.dumps(record), encoding="utf-8")
    assert path.stat().st_size > MAX_RECORD_BYTES
    refused(capsys, path, f"at most {MAX_RECORD_BYTES} are read")


def test_a_long_play_is_refused_with_a_short_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**s3(), "plays": ["3" * 500_000]}), encoding="utf-8")
    err = refused(capsys, path, "field plays.0:", "is too long")
    assert len(err) < 300


def test_a_huge_wrong_value_is_shown_short(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**s3(), "first_bidder": list(range(100_000))}),
                    encoding="utf-8")
    err = refused(capsys, path, "field first_bidder:", "is not of type 'integer'")
    assert len(err) < 300


@pytest.mark.parametrize(("field", "value", "words"), [
    ("ruleset", 3, "3 is not of type 'string'"),
    ("ruleset", "", "'' should be non-empty"),
    ("seed", "88", "'88' is not of type 'integer', 'null'"),
    ("dealer", "1", "'1' is not of type 'integer'"),
    ("dealer", 10 ** 30, f"seat {10 ** 30}, but seats are 0 to 2"),
    ("first_bidder", None, "None is not of type 'integer'"),
    ("first_bidder", -2, "-2 is less than the minimum of 0"),
    ("deal", [], "[] is not of type 'object'"),
    ("deal.hands", "abc", "'abc' is not of type 'array'"),
    ("deal.hands.0", 7, "7 is not of type 'string'"),
    ("deal.kitty", [], "[] is not of type 'string'"),
    ("deal.undealt", 0, "0 is not of type 'string'"),
    ("marked_card", 3, "3 is not of type 'string', 'null'"),
    ("turned_card", [], "[] is not of type 'string', 'null'"),
    ("auction", "3", "'3' is not of type 'array'"),
    ("auction.0", 3, "3 is not one of"),
    ("auction.0", "double", "'double' is not one of"),
    ("auction.0", None, "None is not one of"),
    ("plays", {}, "{} is not of type 'array'"),
    ("plays.0", None, "None is not of type 'string'"),
    ("plays.0", ["4444"], "['4444'] is not of type 'string'"),
    ("plays.0", {"cards": "4444"}, "{'cards': '4444'} is not of type 'string'"),
    ("result", "won", "'won' is not of type 'object'"),
])
def test_a_wrong_type_in_each_field_is_refused(field: str, value: object, words: str,
                                               tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = _with_field(s3(), field, value, tmp_path)
    refused(capsys, path, f"field {field}: {words}")


@pytest.mark.parametrize("field", ["ruleset", "seed", "deal", "first_bidder", "auction",
                                   "plays"])
def test_a_missing_required_field_is_named(field: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    record = s3()
    record.pop(field)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    if field == "seed":  # optional
        assert run(capsys, "replay", str(path))[0] == 0
        return
    refused(capsys, path, f"'{field}' is a required property")


@pytest.mark.parametrize(("text", "what"), [
    ("3\n4", "U+000A, a control character"), ("\x1b[2J", "U+001B, a control character"),
    ("\u202e", "U+202E, a direction control"), ("\u2028", "U+2028, a line separator"),
    ("\x00", "U+0000, a control character"), ("\x85", "U+0085, a control character"),
])
def test_text_that_would_break_or_disguise_a_line_is_refused(
        text: str, what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for field in ("ruleset", "plays", "unknown key"):
        record = s3()
        if field == "plays":
            record["plays"] = [text, *record["plays"][1:]]
        elif field == "ruleset":
            record["ruleset"] = f"classic{text}"
        else:
            record[f"x{text}"] = 1
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        refused(capsys, path, what)
        refused(capsys, path, json_out=True)


def test_lone_surrogate_in_a_record_never_reaches_the_output(
        capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, HOSTILE / "play-lone-surrogate.json", json_out=True)


@pytest.mark.parametrize("number", ["1" + "0" * 40, "-" + "9" * 41, "9" * 4400],
                         ids=["41-digits", "negative-41-digits", "4400-digits"])
def test_an_integer_too_long_for_a_record_is_refused(
        number: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(s3()).replace('"dealer": 1', f'"dealer": {number}'),
                    encoding="utf-8")
    refused(capsys, path, "field dealer: an integer of", "at most 40")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_number_that_is_not_json_is_refused(constant: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps({**s3(), "result": {"x": 1}}).replace(
        '{"x": 1}', f'{{"x": {constant}}}'), encoding="utf-8")
    refused(capsys, path, f"field result.x: {constant} is not JSON")


def test_a_byte_order_mark_is_allowed(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(b"\xef\xbb\xbf" + S3.read_bytes())
    assert run(capsys, "replay", str(path))[0] == 0


@pytest.mark.parametrize("text", ['{"ruleset": "classic", ', '{"ruleset": "cla', "{" * 9,
                                  '{"a": 1, "a"', '{"x": "\\ud800\\', ""])
def test_truncated_json_is_refused_by_the_parser(text: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    refused(capsys, path)


def test_a_record_for_python_is_checked_like_a_file() -> None:
    with pytest.raises(RecordError, match=r"^record: field dealer: 0\.0 is not of type"):
        replay({**s3(), "dealer": 0.0})
    with pytest.raises(RecordError, match=r"^record: a record is a JSON object, not an array$"):
        replay([])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="field seed: an integer of more than 40 digits"):
        replay({**s3(), "seed": 10 ** 5000})


# --------------------------------------------------------------------------- play arguments


@pytest.mark.parametrize(("argv", "words"), [
    (["beats", "44445555", "3"], "PLAY 44445555 is not a legal play under classic: as "
                                 "airplane_singles, four_two_pairs: the four 4s"),
    (["beats", "3", "44445555"], "PREVIOUS 44445555 is not a legal play under classic: as "
                                 "airplane_singles"),
    (["beats", "", "3"], "PLAY is empty: a play needs at least one card"),
    (["beats", "3", " "], "PREVIOUS is empty: a play needs at least one card"),
    (["beats", "X", "3"], "PLAY: bad card 'X'"),
    (["beats", "3", "X"], "PREVIOUS: bad card 'X'"),
    (["beats", "3@bomb", "4"], "PLAY: reading 'bomb' does not name one reading of 3"),
    (["beats", "3", "4@pair"], "PREVIOUS: reading 'pair' does not name one reading of 4"),
    (["beats", "-r", "marked-card", "3", "333444555666"],
     "PREVIOUS: 333444555666 reads 3 ways under marked-card; name one"),
    (["beats", "--json", "345", "3"], "PLAY 345 is not a legal play under classic"),
    (["classify", ""], "CARDS is empty: a play needs at least one card"),
    (["classify", " , "], "CARDS is empty"),
    (["classify", "--json", ""], "CARDS is empty"),
    (["classify", "3X"], "ddz: error: bad card 'X' in '3X'"),
])
def test_a_bad_play_argument_is_a_usage_error_naming_it(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("ddz: error: ") and err.count("\n") == 1
    assert words in err, err


@pytest.mark.parametrize(("argv", "answer"), [
    (["beats", "KKK3", "QQQR"], "yes: 3KKK (trio_single/1/K) ranks higher than QQQR"),
    (["beats", "3", "4"], "no: 3 (single/1/3) does not rank higher than 4"),
    (["beats", "456789", "34567"], "no: 456789 (straight/6/9) and 34567 (straight/5/7) differ"),
    (["beats", "-r", "marked-card", "333444555666@airplane/4/6", "333444555777"],
     "no: 333444555666 (airplane/4/6) and 333444555777 (airplane_singles/3/5) differ"),
    (["beats", "-r", "marked-card", "333444555666", "333444555777"],
     "yes: 333444555666 (airplane_singles/3/6) ranks higher than 333444555777"),
    (["classify", "44445555"], "44445555: not a legal play: as airplane_singles"),
])
def test_a_question_about_legal_plays_is_answered_with_exit_0(
        argv: list[str], answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 0 and err == ""
    assert out.startswith(answer), out


# --------------------------------------------------------------------------- exit codes


def _defective(tmp_path: Path) -> str:
    """A ruleset that claims unique readings but reads plays several ways."""
    path = tmp_path / "claims-unique.yaml"
    path.write_text(
        "id: claims-unique\nextends: marked-card\ntitle: Claims unique\n"
        "summary: Marked-card kickers, but claiming every play reads one way.\n"
        "source:\n  text: none.txt\n  about: A defective test ruleset.\n"
        "readings:\n  settlement:\n    value: unique\n"
        "    text: Every play reads one way (it does not).\n", encoding="utf-8")
    return str(path)


#: For each subcommand, one example per exit code its help documents (3 and 130 are checked
#: for all).
EXAMPLES: dict[str, dict[int, list[str]]] = {
    "rules": {0: ["rules"], 2: ["rules", "--bogus"]},
    "check": {0: ["check", "classic"], 1: ["check", "{defective}"], 2: ["check", "nope"]},
    "classify": {0: ["classify", "44445555"], 2: ["classify", ""]},
    "beats": {0: ["beats", "3", "4"], 2: ["beats", "44445555", "3"]},
    "moves": {0: ["moves", "55556", "--beat", "KKK"], 2: ["moves", "3X"]},
    "plays": {0: ["plays", "-r", "two-player"], 2: ["plays", "-r", "nope"]},
    "diff": {0: ["diff", "classic", "open-auction"], 2: ["diff", "classic", "nope"]},
    "replay": {0: ["replay", str(S3)], 1: ["replay", str(HOSTILE / "illegal-play.json")],
               2: ["replay", str(HOSTILE / "duplicate-plays.json")]},
    "simulate": {0: ["simulate", "--hands", "2"], 2: ["simulate", "--hands", "0"]},
    "compare": {0: ["compare", "classic", "--hands", "2", "--bots", "random", "--no-progress"],
                2: ["compare", "nope", "--hands", "2"]},
    "match": {0: ["match", "--bots", "random"], 2: ["match", "--matches", "0"]},
    "rate": {0: ["rate", "--levels", "random,standard", "--matches", "2", "--no-progress"],
             2: ["rate", "--levels", "medium,medium"]},
    "play": {0: ["play", "--autoplay", "--seed", "3"], 2: ["play", "--autoplay", "--seat", "3"]},
    "solve": {0: ["solve", "-r", "puzzle", "--hands", "33/4", "--to", "1"],
              2: ["solve", "-r", "puzzle", "--hands", "33/33/4", "--to", "1"]},
    "botzone": {0: ["botzone", str(FIXTURES / "botzone" / "ftl1-forced-pass.json")],
                2: ["botzone", str(FIXTURES / "botzone" / "card-twice.json")]},
    "deals": {0: ["deals", "check", str(FIXTURES / "dealsets" / "douzero-eval.pkl")],
              2: ["deals", "check", str(FIXTURES / "dealsets" / "object.pkl")]},
    "export": {0: ["export", str(S3)], 2: ["export", str(HOSTILE / "illegal-play.json")]},
    "import": {0: ["import", "--format", "showdown", str(FIXTURES / "showdown" / "replay.json")],
               2: ["import", "--format", "showdown",
                   str(FIXTURES / "showdown" / "truncated.json")]},
}


def test_every_command_documents_its_exit_codes() -> None:
    parser = build_parser()
    assert set(exit_codes(parser)) == {0, 1, 2, 3, 130}
    for name, sub in subcommands(parser).items():
        codes = exit_codes(sub)
        assert {0, 2, 3, 130} <= set(codes) <= {0, 1, 2, 3, 130}, name
        assert (1 in codes) == (name in ("check", "replay")), name
        assert "Exit codes: 0 " in sub.format_help().replace("\n", " "), name
    assert set(EXAMPLES) == set(subcommands(parser))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_each_documented_exit_code_holds(name: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    documented = exit_codes(subcommands(build_parser())[name])
    examples = EXAMPLES[name]
    assert set(examples) | {3, 130} == set(documented), name
    monkeypatch.chdir(tmp_path)
    for code, argv in examples.items():
        argv = [a.replace("{defective}", _defective(tmp_path)) for a in argv]
        got, _, err = run(capsys, *argv)
        assert got == code, (argv, err)
        assert (err.startswith("ddz: error: ") and err.count("\n") == 1) == (code == 2), err

    parse = argparse.ArgumentParser.parse_args

    def interrupted(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        namespace = parse(self, *args, **kwargs)

        def stop(_: argparse.Namespace) -> int:
            raise KeyboardInterrupt

        namespace.func = stop
        return namespace

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", interrupted)
    code, _, err = run(capsys, *examples[0])
    assert code == 130 and err.startswith("ddz: interrupted")

    def broken(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        namespace = parse(self, *args, **kwargs)

        def fail(_: argparse.Namespace) -> int:
            raise RuntimeError("a bug")

        namespace.func = fail
        return namespace

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", broken)
    code, _, err = run(capsys, *examples[0])
    assert code == 3 and err.startswith("ddz: internal error: RuntimeError") and \
        err.count("\n") == 1


def test_the_cli_page_shows_the_exit_codes() -> None:
    from ddz_rules.docs.reference import cli_page

    page = cli_page()
    assert "| `130` | interrupted |" in page
    assert "| `3` | an internal error" in page
    for name in EXAMPLES:
        assert "Exit codes: 0 " in page.split(f"## ddz {name}\n", 1)[1].replace("\n", " ")


if sys.platform == "win32":  # pragma: no cover - FIFOs and SIGALRM are POSIX
    pytestmark = pytest.mark.skip("POSIX only")
