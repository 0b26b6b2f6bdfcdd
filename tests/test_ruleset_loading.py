"""Loading rulesets: schema, extends, and one clear line for every kind of bad file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ddz_rules import RulesetError, UsageError, bundled_ids, load
from ddz_rules.cli import main
from ddz_rules.loader import MAX_FILE_BYTES

from .conftest import FIXTURES

BAD = FIXTURES / "bad"
CASES = yaml.safe_load((BAD / "cases.yaml").read_text())


def test_every_bundled_ruleset_loads_and_names_itself_by_file() -> None:
    for ruleset_id in bundled_ids():
        assert load(ruleset_id).id == ruleset_id


def test_the_required_bundled_ids_exist() -> None:
    assert {"classic", "two-player", "rlcard", "douzero", "openspiel"} <= set(bundled_ids())


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_ruleset_gives_one_line_naming_file_line_and_key(name: str) -> None:
    case = CASES[name]
    with pytest.raises(RulesetError) as info:
        load(str(BAD / name))
    message = str(info.value)
    assert "\n" not in message
    if case["line"] is not None:
        assert f".yaml:{case['line']}:" in message, message
    for words in case["contains"]:
        assert words in message, message


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_ruleset_exits_2_without_traceback(name: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(BAD / name)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ddz: error: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("argv", [["check", ""], ["classify", "-r", " ", "33"],
                                  ["diff", "", "classic"]])
def test_an_empty_ruleset_name_is_named_as_such(argv: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Not read as the working directory ('.: is a directory, not a file')."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "an empty name; give a bundled ruleset's id" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_base_that_is_a_pipe_is_named_as_such_and_never_read(tmp_path: Path) -> None:
    """Reading a pipe would wait for a writer that never comes."""
    variant = tmp_path / "variant.yaml"
    variant.write_text((FIXTURES / "variants" / "capped.yaml").read_text(encoding="utf-8")
                       .replace("extends: classic", "extends: base.yaml"), encoding="utf-8")
    os.mkfifo(tmp_path / "base.yaml")
    with pytest.raises(RulesetError, match=r"'base\.yaml' in the folder of variant\.yaml is "
                                           r"not a regular file"):
        load(str(variant))


def test_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("id: big\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(RulesetError, match="at most"):
        load(str(big))


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    dup = tmp_path / "dup.yaml"
    dup.write_text("id: dup\nextends: classic\nid: again\n")
    with pytest.raises(RulesetError, match=r"dup.yaml:3: key 'id': duplicate key"):
        load(str(dup))


def test_unknown_ruleset_id_suggests_the_nearest() -> None:
    with pytest.raises(UsageError, match="did you mean 'classic'"):
        load("clasic")


def test_a_variant_states_only_what_changes(tmp_path: Path) -> None:
    variant = tmp_path / "mine.yaml"
    variant.write_text(
        "id: mine\nextends: classic\ntitle: Mine\nsummary: Kickers may repeat freely.\n"
        "source: {text: none, about: a test}\n"
        "kickers:\n  max_copies_among_kickers:\n    value: 3\n"
        "    text: Up to three cards of a rank among the kickers.\n")
    mine = load(str(variant))
    assert mine.base == "classic"
    assert mine.combination("airplane_singles").kicker_rules.max_copies_among_kickers == 3
    assert mine.combination("airplane_singles").kicker_rules.quads_are_blocks is True
    assert mine.data["kickers"]["max_copies_among_kickers"]["text"].startswith("Up to three")


def test_no_traceback_reaches_the_user_from_the_real_command() -> None:
    run = subprocess.run([sys.executable, "-m", "ddz_rules.cli", "classify", "44X"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "ddz: error: bad card 'X' in '44X' (DouZero writes X for the small joker; here "
        "it is B): expected one of 3 4 5 6 7 8 9 10 (or T) J Q K A 2 B (small joker) "
        "R (big joker)")
