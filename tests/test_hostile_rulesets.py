"""Hostile and extreme ruleset files: one line naming file, line and key, never a traceback.

Each test feeds the toolkit a ruleset a careless or malicious author could write (floats where
counts belong, deep nesting, control characters, huge numbers, paths out of the folder, rules
no hand can be played under, tables too large to enumerate) and checks that it is refused with
a :class:`DdzError`, or through ``ddz``: exit code 2 and exactly one line on stderr; ``ddz
check`` alone takes a table too large to enumerate, counting and sampling it instead. Files too
large or too odd to keep as fixtures are written at test time.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddz_rules import cards
from ddz_rules.cli import _check_text, main
from ddz_rules.errors import RulesetError, UsageError
from ddz_rules.loader import MAX_DEPTH, load_yaml
from ddz_rules.reports import SAMPLE_HANDS, SAMPLE_PLAYS, check_report, sampled_report
from ddz_rules.ruleset import _rank_string, bundled_paths, load, schema
from ddz_rules.table import MAX_READINGS, _plays_within, compile_table

from .conftest import FIXTURES

HOSTILE = FIXTURES / "hostile" / "rulesets"
CLASSIC = yaml.safe_load(bundled_paths()["classic"].read_text(encoding="utf-8"))
HEADER = ("extends: classic\ntitle: Hostile\nsummary: A hostile test ruleset.\n"
          "source: {text: none, about: a hostile test}\n")


def _variant(tmp_path: Path, body: str, name: str = "hostile") -> Path:
    """A variant of classic: the header on lines 1-5, ``body`` from line 6."""
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\n{HEADER}{body}", encoding="utf-8")
    return path


def _one_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``ddz``; assert exit 2 and one ``ddz: error:`` line on stderr, and return it."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ddz: error: "), err
    assert "Traceback" not in err
    return err.strip()


# --------------------------------------------------------------------------- 1. whole-number floats

#: What a point's value must hold beside the integer under test, where classic lacks the point.
_REQUIRED_BESIDE: dict[tuple[str | int, ...], dict[str, Any]] = {
    ("scoring", "dealt_bonus", "value"): {"form": "payment"}}
#: A name standing for "any key" where the schema allows any (classes, combinations, factors).
_SAMPLE_NAMES = {("classes",): "bomb", ("combinations",): "trio_pair",
                 ("scoring", "multipliers", "value"): "bomb"}


def _integer_paths() -> list[tuple[str | int, ...]]:
    """Every key path the schema types as integer, found by walking the schema."""
    defs = schema()["$defs"]
    found: list[tuple[str | int, ...]] = []

    def walk(node: Any, path: tuple[str | int, ...]) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            walk(defs[ref.rsplit("/", 1)[-1]], path)
        types = node.get("type")
        if "integer" in (types if isinstance(types, list) else [types]) and path not in found:
            found.append(path)
        for key, sub in node.get("properties", {}).items():
            walk(sub, (*path, key))
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], (*path, _SAMPLE_NAMES.get(path, "sample")))
        if isinstance(node.get("items"), dict):
            walk(node["items"], (*path, 0))

    walk(schema(), ())
    return found


INTEGER_PATHS = _integer_paths()


def _with_float(path: tuple[str | int, ...]) -> dict[str, Any]:
    """Classic, whole, with the integer at ``path`` written as a whole-number float."""
    data = yaml.safe_load(yaml.safe_dump(CLASSIC))
    node: Any = data
    for depth, key in enumerate(path[:-1]):
        if isinstance(node, dict) and key not in node:
            node[key] = dict(_REQUIRED_BESIDE.get(path[:depth + 1], {}))
        if key == "value" and isinstance(node, dict) and "text" not in node:
            node["text"] = "A whole-number float where an integer belongs."
        node = node[key]
    if path[-1] == "value" and "text" not in node:
        node["text"] = "A whole-number float where an integer belongs."
    current = node[path[-1]] if isinstance(node, list) or path[-1] in node else None
    node[path[-1]] = float(current if isinstance(current, int) else 2)
    return data


def test_the_schema_walk_finds_every_integer_key() -> None:
    dotted = {".".join(str(k) for k in p) for p in INTEGER_PATHS}
    assert dotted >= {
        "players.value", "deck.copies.value", "deal.hand_size.value", "deal.kitty.value",
        "classes.bomb.level", "kickers.max_copies_among_kickers.value",
        "combinations.trio_pair.width", "combinations.trio_pair.length.min",
        "combinations.trio_pair.length.max", "combinations.trio_pair.kickers.per_rank",
        "combinations.trio_pair.kickers.max_copies_among_kickers.value",
        "auction.bids.value.0", "auction.max_robs.value", "auction.max_grabs.value",
        "scoring.multipliers.value.bomb", "scoring.cap.value",
    }


@pytest.mark.parametrize("path", INTEGER_PATHS, ids=lambda p: ".".join(str(k) for k in p))
def test_every_integer_key_refuses_a_whole_number_float(path: tuple[str | int, ...],
                                                         tmp_path: Path) -> None:
    file = tmp_path / "floats.yaml"
    text = yaml.safe_dump(_with_float(path), sort_keys=False, width=10_000)
    file.write_text(text, encoding="utf-8")
    lines = [i for i, line in enumerate(text.splitlines(), 1)
             if re.search(r"(:|-)\s+\d+\.0$", line)]
    assert len(lines) == 1, lines
    dotted = ".".join(str(k) for k in path)
    with pytest.raises(RulesetError) as info:
        load(str(file))
    message = str(info.value)
    assert "\n" not in message
    assert f"floats.yaml:{lines[0]}: key '{dotted}': expected " in message, message
    assert "integer" in message and ".0" in message, message


def test_an_integer_key_refuses_a_boolean(tmp_path: Path) -> None:
    path = _variant(tmp_path, "players:\n  value: true\n  text: A boolean for a count.\n")
    with pytest.raises(RulesetError, match=r"hostile.yaml:7: key 'players.value': expected "
                                           r"integer, got True"):
        load(str(path))


def test_a_float_card_count_exits_2_with_one_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = _variant(tmp_path, "deck:\n  copies:\n    value: 4.0\n    text: Four, as a float.\n")
    err = _one_error_line(["check", str(path)], capsys)
    assert "hostile.yaml:8: key 'deck.copies.value': expected integer, got 4.0" in err


# --------------------------------------------------------------------------- 2. the YAML itself


def _deep_flow(tmp_path: Path, levels: int) -> Path:
    path = tmp_path / "deep.yaml"
    path.write_text("id: deep\ntitle: " + "[" * levels + "]" * levels + "\n")
    return path


def _deep_block(tmp_path: Path, levels: int) -> Path:
    path = tmp_path / "deep.yaml"
    path.write_text("id: deep\n" + "".join(" " * i + f"k{i}:\n" for i in range(levels))
                    + " " * levels + "v: 1\n")
    return path


@pytest.mark.parametrize("levels", [MAX_DEPTH, 400, 100_000])
def test_flow_nesting_deeper_than_the_limit_is_refused_at_its_line(tmp_path: Path,
                                                                   levels: int) -> None:
    with pytest.raises(RulesetError, match=rf"deep.yaml:2: invalid YAML: nested more than "
                                           rf"{MAX_DEPTH} levels"):
        load_yaml(_deep_flow(tmp_path, levels))


def test_block_nesting_deeper_than_the_limit_is_refused_at_its_line(tmp_path: Path) -> None:
    # Every node is a level, keys too: the root mapping is level 1 and k0 level 2 (line 2),
    # k0's mapping level 2 and its key k1 level 3 (line 3), ..., so k31 is level 33, on line 33.
    with pytest.raises(RulesetError, match=rf"deep.yaml:33: invalid YAML: nested more than "
                                           rf"{MAX_DEPTH} levels"):
        load_yaml(_deep_block(tmp_path, 400))


def test_nesting_up_to_the_limit_still_loads(tmp_path: Path) -> None:
    located = load_yaml(_deep_flow(tmp_path, MAX_DEPTH - 1))
    assert located.data["id"] == "deep"


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x07", "\x1b", "\x7f", "\ufffe"])
def test_control_characters_are_refused_at_their_line(tmp_path: Path, char: str) -> None:
    path = _variant(tmp_path, f"interpretations: []\nplayers:\n  value: 3\n  text: a{char}b\n")
    with pytest.raises(RulesetError, match=r"hostile.yaml:9: invalid YAML: character U\+"):
        load(str(path))


def test_a_5000_digit_integer_is_refused_at_its_line_and_key(tmp_path: Path) -> None:
    path = _variant(tmp_path, "players:\n  value: " + "9" * 5000 + "\n  text: Very many.\n")
    with pytest.raises(RulesetError, match=r"hostile.yaml:7: key 'players.value': a number of "
                                           r"5000 characters"):
        load(str(path))


def test_a_long_sexagesimal_number_is_refused_unconverted(tmp_path: Path) -> None:
    path = _variant(tmp_path, "players:\n  value: " + ":".join(["59"] * 20_000)
                    + "\n  text: Very many.\n")
    with pytest.raises(RulesetError, match=r"hostile.yaml:7: key 'players.value': a number of"):
        load(str(path))


def test_an_impossible_date_is_refused_at_its_line_and_key(tmp_path: Path) -> None:
    path = _variant(tmp_path, "interpretations:\n  - question: 2001-13-45\n"
                    "    choice: x\n    reason: y\n")
    with pytest.raises(RulesetError, match=r"hostile.yaml:7: key 'interpretations.0.question': "
                                           r"cannot read '2001-13-45' as timestamp"):
        load(str(path))


_ODD_FILES: dict[str, Callable[[Path], Path]] = {
    "deep-flow": lambda tmp: _deep_flow(tmp, 1000),
    "deep-block": lambda tmp: _deep_block(tmp, 400),
    "nul-byte": lambda tmp: _variant(tmp, "title: a\x00b\n", "deep"),
    "escape": lambda tmp: _variant(tmp, "title: a\x1bb\n", "deep"),
    "long-int": lambda tmp: _variant(tmp, "players: " + "1" * 5000 + "\n", "deep"),
}


@pytest.mark.parametrize("make", list(_ODD_FILES.values()), ids=list(_ODD_FILES))
def test_odd_yaml_exits_2_with_one_line_naming_file_and_line(
        make: Callable[[Path], Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_error_line(["check", str(make(tmp_path))], capsys)
    assert re.search(r"deep\.yaml:\d+: ", err), err


# --------------------------------------------------------------------------- 3. deck errors


@pytest.mark.parametrize(("key", "value", "words"), [
    ("ranks", "43", "ranks '43' must be distinct and listed low to high"),
    ("ranks", "3345", "ranks '3345' must be distinct"),
    ("jokers", "RB", "jokers 'RB' must be listed small before big"),
    ("ranks", "3Z", "does not match"),
    ("jokers", "BZ", "does not match"),
])
def test_a_bad_deck_string_names_its_line_and_key(tmp_path: Path, key: str, value: str,
                                                  words: str) -> None:
    path = _variant(tmp_path, f"deck:\n  {key}:\n    value: \"{value}\"\n    text: A bad deck.\n")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    assert f"hostile.yaml:8: key 'deck.{key}.value': " in str(info.value)
    assert words in str(info.value)


@pytest.mark.parametrize("ranks", ["3-Z", "3-", "A-3"])
def test_a_bad_combination_rank_range_names_its_line_and_key(tmp_path: Path, ranks: str) -> None:
    path = _variant(tmp_path, f"combinations:\n  straight:\n    text: A straight over odd "
                    f"ranks.\n    ranks: \"{ranks}\"\n")
    with pytest.raises(RulesetError, match=r"hostile.yaml:9: key 'combinations.straight.ranks'"):
        load(str(path))


def test_a_rank_string_with_a_character_that_is_no_rank_is_an_error_not_a_key_error() -> None:
    def fail(message: str) -> RulesetError:
        return RulesetError(message, path="x.yaml", line=3, key="deck.ranks.value")

    with pytest.raises(RulesetError, match=r"x.yaml:3: key 'deck.ranks.value': 'Z' in '3Z' is "
                                           r"not a rank"):
        _rank_string("3Z", fail)


# --------------------------------------------------------------------------- 4. extends


def test_extends_refuses_an_absolute_path(tmp_path: Path) -> None:
    base = bundled_paths()["classic"].resolve()
    path = tmp_path / "abs.yaml"
    path.write_text(f"id: abs\nextends: {base}\ntitle: Absolute\nsummary: An absolute base.\n"
                    "source: {text: none, about: a hostile test}\n")
    with pytest.raises(RulesetError, match=r"abs.yaml:2: key 'extends': '.*classic.yaml' is an "
                                           r"absolute path"):
        load(str(path))


def test_extends_refuses_a_path_out_of_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    path = HOSTILE / "subfolder" / "extends-parent.yaml"
    with pytest.raises(RulesetError, match=r"extends-parent.yaml:2: key 'extends': "
                                           r"'../extends-subfolder.yaml' leaves the folder"):
        load(str(path))
    err = _one_error_line(["check", str(path)], capsys)
    assert "extends-parent.yaml:2: key 'extends'" in err


def test_extends_accepts_a_file_in_a_folder_below() -> None:
    ruleset = load(str(HOSTILE / "extends-subfolder.yaml"))
    assert ruleset.base == "subfolder/capped.yaml"
    assert ruleset.cap == 48
    assert ruleset.where("scoring", "cap", "value").startswith("subfolder/capped.yaml:")


def test_extends_refuses_a_link_leading_out_of_the_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    inside = tmp_path / "inside"
    outside.mkdir()
    inside.mkdir()
    (outside / "base.yaml").write_text(bundled_paths()["classic"].read_text(encoding="utf-8"))
    try:
        (inside / "base.yaml").symlink_to(outside / "base.yaml")
    except OSError:  # pragma: no cover - no symbolic links here
        pytest.skip("cannot make a symbolic link")
    path = _variant(inside, "", "linked")
    path.write_text(path.read_text().replace("extends: classic", "extends: base.yaml"))
    with pytest.raises(RulesetError, match=r"linked.yaml:2: key 'extends': 'base.yaml' is a "
                                           r"link leading out of the folder"):
        load(str(path))


def test_extends_names_a_missing_file(tmp_path: Path) -> None:
    path = _variant(tmp_path, "")
    path.write_text(path.read_text().replace("extends: classic", "extends: nothere.yaml"))
    with pytest.raises(RulesetError, match=r"hostile.yaml:2: key 'extends': no ruleset file "
                                           r"'nothere.yaml'"):
        load(str(path))


# --------------------------------------------------------------------------- 5. checks that compile


def test_a_ruleset_where_a_lone_card_cannot_be_led_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "no-lone-card.yaml")
    with pytest.raises(RulesetError, match=r"no-lone-card.yaml:6: key 'combinations': no "
                                           r"combination type plays a lone 3"):
        compile_table(load(path))
    err = _one_error_line(["simulate", "-r", path, "--hands", "50"], capsys)
    assert "no-lone-card.yaml:6: key 'combinations'" in err


def test_a_combination_no_card_set_can_form_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "unformable-kickers.yaml")
    with pytest.raises(RulesetError, match=r"unformable-kickers.yaml:7: key "
                                           r"'combinations.trio_pair': no card set"):
        compile_table(load(path))
    err = _one_error_line(["check", path], capsys)
    assert "unformable-kickers.yaml:7: key 'combinations.trio_pair'" in err


def test_a_combination_the_deck_cannot_form_names_the_base_and_the_loaded_file() -> None:
    """A body no card set of the deck holds is refused as the ruleset loads."""
    with pytest.raises(RulesetError) as info:
        load(str(HOSTILE / "one-copy-pairs.yaml"))
    message = str(info.value)
    assert re.match(r"rules/classic.yaml:\d+: key 'combinations.pair': its body needs 2 cards "
                    r"of a rank from 3 to R, and the deck holds at most 1 of any of them",
                    message), message
    assert "one-copy-pairs.yaml, which extends rules/classic.yaml" in message


def test_a_combination_whose_kickers_the_deck_cannot_form_is_refused_as_it_compiles(
        tmp_path: Path) -> None:
    """The body fits the deck, its kickers do not fit a hand: refused when the table is
    compiled."""
    path = tmp_path / "pair-kickers.yaml"
    path.write_text(
        "id: pair-kickers\nextends: run-fast\ntitle: Too many pair kickers\n"
        "summary: Four of a rank with seven pairs beside it, more than a hand holds.\n"
        "source: {text: none, about: a test fixture}\n"
        "combinations:\n  bomb:\n    text: Four cards of one rank with seven pairs.\n"
        "    width: 4\n    class: bomb\n    kickers: {unit: pair, per_rank: 7}\n",
        encoding="utf-8")
    ruleset = load(str(path))
    with pytest.raises(RulesetError, match=r"combinations.bomb': no card set of this 48-card "
                                           r"deck, in a hand of at most 16 cards, can form it"):
        compile_table(ruleset)


@pytest.mark.parametrize(("body", "line", "key"), [
    ("scoring:\n  multipliers:\n    value: {bomb: 1001}\n    text: A thousand and one.\n", 8,
     "scoring.multipliers.value.bomb"),
    ("scoring:\n  cap:\n    value: 1000000001\n    text: A cap above a billion.\n", 8,
     "scoring.cap.value"),
    ("auction:\n  bids:\n    value: [1, 1001]\n    text: Bids up to a thousand and one.\n", 8,
     "auction.bids.value.1"),
    ("auction:\n  max_robs:\n    value: 101\n    text: A hundred and one robs.\n", 8,
     "auction.max_robs.value"),
])
def test_factors_cap_bids_and_robs_have_a_maximum(tmp_path: Path, body: str, line: int,
                                                  key: str) -> None:
    with pytest.raises(RulesetError, match=rf"hostile.yaml:{line}: key '{re.escape(key)}': "
                                           r"\d+ is greater than the maximum"):
        load(str(_variant(tmp_path, body)))


def test_a_bomb_factor_of_ten_to_the_300_is_refused_before_any_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _variant(tmp_path, "scoring:\n  multipliers:\n    value: {bomb: 1" + "0" * 300
                    + "}\n    text: A googol cubed.\n")
    for command in (["simulate", "-r", str(path), "--hands", "20"], ["check", str(path)]):
        err = _one_error_line(command, capsys)
        assert "hostile.yaml:8: key 'scoring.multipliers.value.bomb'" in err


def test_a_multiplier_that_could_overflow_a_float_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "multiplier-overflow.yaml")
    with pytest.raises(RulesetError, match=r"multiplier-overflow.yaml:13: key "
                                           r"'scoring.multipliers.value': one hand's multiplier "
                                           r"could reach about 10\^170 \(bomb x1000 54 times"):
        load(path)
    err = _one_error_line(["simulate", "-r", path, "--hands", "20"], capsys)
    assert "multiplier-overflow.yaml:13" in err


# --------------------------------------------------------------------------- 6. bounded work


def test_a_hand_larger_than_any_seat_holds_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    table = compile_table(load("classic"))
    hand = table.key_of("333344445555666677778")
    previous = table.readings(table.key_of("3"))[0]
    for generate in (lambda: table.leads(hand), lambda: table.answers(hand, previous)):
        with pytest.raises(UsageError, match=r"a hand holds at most 20 cards under classic; "
                                             r"got 21"):
            generate()
    err = _one_error_line(["moves", "333344445555666677778"], capsys)
    assert "a hand holds at most 20 cards under classic; got 21" in err


def test_every_bundled_table_lies_within_its_estimate_and_the_limit() -> None:
    for ruleset_id in ("classic", "marked-card", "douzero"):
        table = compile_table(load(ruleset_id))
        readings = sum(len(r) for r in table.plays.values())
        assert readings <= table.size_estimate() <= MAX_READINGS


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Run ``ddz check``; assert nothing on stderr, and return the exit code and stdout."""
    code = main(["check", *argv])
    captured = capsys.readouterr()
    assert captured.err == "", captured.err
    return code, captured.out


def test_check_counts_a_table_too_large_to_enumerate_and_samples_it_without_enumerating(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "two-decks-loose.yaml")
    table = compile_table(load(path))
    assert table.size_estimate() == 4_894_851 > MAX_READINGS
    report = check_report(table.ruleset)
    assert "plays" not in table.__dict__  # counted and sampled, never enumerated
    assert report["enumerated"] is False and report["plays"] is None
    assert report["readings"] == sum(report["by_type"].values()) == 4_894_851
    assert report["uncounted_rules"] == []  # no whole-play rule: the count is exact
    assert report["sample"]["plays"] == SAMPLE_PLAYS
    assert report["largest_hand"] == {"cards": 37, "hands": SAMPLE_HANDS,
                                      "most_readings": report["largest_hand"]["most_readings"],
                                      "refused": 0}
    assert 0 < report["largest_hand"]["most_readings"] <= MAX_READINGS
    # Loose kickers under a claim of unique readings: the sample finds plays read two ways.
    assert report["ambiguous"] == report["sample"]["ambiguous"] == len(
        report["ambiguous_examples"]) > 0
    for item in report["ambiguous_examples"][:50]:
        assert len(table.classify(item["cards"])) == len(item["readings"]) > 1
    assert report["sample"]["seed"] == "two-decks-loose"
    code, out = _check(capsys, path)
    assert code == 1
    assert out == _check_text(report) + "\n"  # seeded by the ruleset: the same every time
    for words in ("readings: unique",
                  "play table: not enumerated: 4,894,851 readings, counted exactly without "
                  "listing them; more than the 1,000,000 the toolkit enumerates",
                  "airplane_singles 4,489,769",
                  "checked instead: the schema and the deal; every type can be formed and every "
                  "card played alone; 20,000 plays drawn at random",
                  "read more than one way (this ruleset claims unique readings: DEFECT)",
                  "largest hand (37 cards): at most",
                  "so none would be refused"):
        assert words in out, out
    assert "plays" not in table.__dict__


def test_check_of_an_oversized_table_whose_sample_reads_one_way_exits_0(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "trio-flood.yaml")
    code, printed = _check(capsys, path, "--json")
    assert code == 0
    report = json.loads(printed)
    out = _check_text(report)
    for words in ("play table: not enumerated: at most 1,547,271 readings, counted without "
                  "listing them (an upper bound: kickers.both_jokers_as_kickers not applied)",
                  "readings by type, at most",
                  "trio_flood       1,509,508",
                  "each has exactly one reading: a sample, not a proof (at 95% confidence, "
                  "under 0.015% of all readings",
                  "so none would be refused"):
        assert words in out, out
    assert report["enumerated"] is False and report["ambiguous"] == 0
    assert report["uncounted_rules"] == ["kickers.both_jokers_as_kickers"]
    assert report["sample"]["bound_95"] == pytest.approx(3 / SAMPLE_PLAYS, rel=0.01)
    assert "plays" not in compile_table(load(path)).__dict__


def test_check_of_an_oversized_declared_table_names_what_its_sample_reads_two_ways(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _check(capsys, str(HOSTILE / "two-decks-declared.yaml"))
    assert code == 0
    assert re.search(r"\n  [\d,]+ of the [\d,]+ read more than one way \(every such play is "
                     r"made with a named reading\); the first 5 \(--json lists every one\):\n"
                     r"(    \w+: \w+/\d+/\w+(, \w+/\d+/\w+)+\n){5}  largest hand", out), out


def test_check_of_an_oversized_table_says_when_its_largest_hands_are_refused() -> None:
    table = compile_table(load(str(HOSTILE / "kicker-flood.yaml")))
    report = sampled_report(table, plays=200, hands=20)
    assert report["sample"]["plays"] == 200
    assert report["largest_hand"]["refused"] == report["largest_hand"]["hands"] == 20
    assert report["largest_hand"]["most_readings"] > MAX_READINGS
    assert ("readings in the worst of 20 random hands; all 20 exceed the 1,000,000 readings a "
            "hand's plays may hold, so hands like these are refused") in _check_text(report)
    for hand in _hands(table, table.ruleset.max_hand, 3):  # as moves, the bots and play do
        with pytest.raises(RulesetError, match="the plays of this 37-card hand"):
            table.leads(hand)
    assert "plays" not in table.__dict__


def test_commands_that_need_the_whole_table_still_refuse_an_oversized_one_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "two-decks-loose.yaml")
    with pytest.raises(RulesetError, match=r"two-decks-loose.yaml: the play table would hold up "
                                           r"to 4,894,851 readings under two-decks-loose"):
        len(compile_table(load(path)))
    for argv in (["plays", "-r", path], ["diff", "classic", path]):
        err = _one_error_line(argv, capsys)
        assert "two-decks-loose.yaml: the play table would hold up to 4,894,851 readings" in err


@pytest.mark.parametrize("ruleset_id", ["classic", "rlcard", "douzero", "four-player"])
def test_the_count_by_type_bounds_the_table_and_is_exact_where_no_whole_play_rule_applies(
        ruleset_id: str) -> None:
    table = compile_table(load(ruleset_id))
    found = Counter(r.type for readings in table.plays.values() for r in readings)
    counted = table.size_by_type()
    assert sum(counted.values()) == table.size_estimate()
    if table.uncounted_rules:
        assert all(counted[t] >= found[t] for t in counted), (counted, found)
        assert counted != found
    else:
        assert counted == {t: found[t] for t in counted}


@pytest.mark.parametrize("ruleset_id", ["douzero", "rlcard", "marked-card"])
def test_the_sample_draws_every_reading_alike_and_only_readings_of_the_table(
        ruleset_id: str) -> None:
    table = compile_table(load(ruleset_id))
    draws = 20_000
    plays = table.sample_plays(draws, random.Random(ruleset_id))
    assert len(plays) == draws
    assert all(p.reading in table.plays[p.key] for p in plays)  # whole-play rules applied
    found = Counter(r.type for readings in table.plays.values() for r in readings)
    total = sum(found.values())
    drawn = Counter(p.reading.type for p in plays)
    for ctype, readings in found.items():  # each type drawn as often as its share of readings
        expected = draws * readings / total
        assert abs(drawn[ctype] - expected) <= 5 * expected ** 0.5 + 2, (ctype, drawn, found)


def _hands(table: Any, size: int, count: int) -> Iterator[int]:
    deck = [r for r, n in enumerate(table.ruleset.copies) for _ in range(n)]
    rng = random.Random(size)
    for _ in range(count):
        yield cards.pack_ranks(rng.sample(deck, size))


def test_a_full_hand_in_a_huge_ruleset_still_gets_its_moves() -> None:
    table = compile_table(load(str(HOSTILE / "two-decks-loose.yaml")))
    for hand in _hands(table, table.ruleset.max_hand, 3):
        moves = table.leads(hand)
        assert 0 < len(moves) <= table.size_estimate(hand) <= MAX_READINGS


def test_reading_one_card_set_equals_enumerating_within_it() -> None:
    table = compile_table(load(str(HOSTILE / "two-decks-loose.yaml")))
    for hand in _hands(table, 9, 20):
        within: dict[int, set[str]] = {}
        for key, reading in _plays_within(table._index, hand):
            within.setdefault(key, set()).add(reading.short())
        for key, shorts in within.items():
            assert {r.short() for r in table.read(key)} == shorts
            assert {r.short() for r in table.classify(cards.key_text(key))} == shorts
        assert table.read(hand) == () or hand in within


def test_a_hand_whose_plays_are_too_many_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(HOSTILE / "kicker-flood.yaml")
    table = compile_table(load(path))
    hand_text = "33344455566677788899TTJJQQKKAA22BR"
    hand = table.key_of(hand_text)
    assert table.size_estimate(hand) > MAX_READINGS
    with pytest.raises(RulesetError, match=r"kicker-flood.yaml: the plays of this 34-card hand "
                                           r"would hold up to [\d,]+ readings"):
        table.leads(hand)
    err = _one_error_line(["moves", "-r", path, hand_text], capsys)
    assert "kicker-flood.yaml: the plays of this 34-card hand" in err
    # Classifying one card set of the same hand never enumerates, so it stays answerable.
    assert "single_flood/1/3" in [r.short() for r in table.classify("3" + "4" * 8 + "5" * 8)]


# --------------------------------------------------------------------------- 7. the bad fixtures

BAD = FIXTURES / "bad"
BAD_CASES = yaml.safe_load((BAD / "cases.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_ddz_check_of_a_bad_fixture_says_in_one_line_what_its_case_names(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    case = BAD_CASES[name]
    err = _one_error_line(["check", str(BAD / name)], capsys)
    assert Path(name).stem in err, err
    if case["line"] is not None:
        assert f".yaml:{case['line']}: " in err, err
    for words in case["contains"]:
        assert words in err, err


@pytest.mark.parametrize("name", ["copies-zero.yaml", "four-player-hand-26.yaml",
                                  "called-rank-three-players.yaml",
                                  "four-player-three-players.yaml", "jokers-big-first.yaml",
                                  "width-nine.yaml"])
def test_a_bad_two_deck_or_team_ruleset_names_the_file_given_to_ddz_check(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = BAD / name
    err = _one_error_line(["check", str(path)], capsys)
    assert str(path) in err, err
    assert re.search(r"key '(deck|deal|teams|combinations)\.[a-z_0-9.]+'", err), err


def test_a_key_a_base_file_states_names_the_loaded_file_too() -> None:
    path = BAD / "four-player-three-players.yaml"
    with pytest.raises(RulesetError) as info:
        load(str(path))
    message = str(info.value)
    assert re.match(r"rules/four-player\.yaml:\d+: key 'teams\.partner\.value': a called "
                    r"partner needs an even number of players", message), message
    assert message.endswith(f"(in {path}, which extends rules/four-player.yaml)"), message


# --------------------------------------------------------------------------- symbolic link loops

#: Every command that takes a ruleset, with ``{r}`` where the ruleset goes.
_RULESET_COMMANDS = [
    ["check", "{r}"], ["classify", "-r", "{r}", "33"], ["beats", "-r", "{r}", "4", "3"],
    ["moves", "-r", "{r}", "33"], ["plays", "-r", "{r}"],
    ["simulate", "-r", "{r}", "--hands", "1"], ["compare", "{r}", "--hands", "2"],
    ["match", "-r", "{r}"], ["rate", "-r", "{r}", "--levels", "random,standard"],
    ["play", "-r", "{r}", "--autoplay"], ["play", "-r", "{r}"], ["diff", "classic", "{r}"],
    ["diff", "{r}", "classic"],
]


@pytest.mark.parametrize("name", ["loop", "loop.yaml", "rules/loop.yaml"])
@pytest.mark.parametrize("argv", _RULESET_COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_a_ruleset_path_in_a_loop_of_links_is_one_line_in_every_command(
        name: str, argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    link = tmp_path / name
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(link.name)  # the link names itself
    err = _one_error_line([a.replace("{r}", name) for a in argv], capsys)
    assert f"ddz: error: {name}: a loop of symbolic links" in err, err


def test_an_extends_into_a_loop_of_links_names_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "base.yaml").symlink_to("base.yaml")
    path = tmp_path / "hostile.yaml"
    path.write_text(f"id: hostile\n{HEADER.replace('classic', 'base.yaml')}", encoding="utf-8")
    err = _one_error_line(["check", str(path)], capsys)
    assert f"{path}:2: key 'extends': 'base.yaml': a loop of symbolic links" in err, err


def test_a_record_naming_a_ruleset_in_a_loop_of_links_names_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((FIXTURES / "records" / "s3-bid-3-two-bombs.json").read_text(
        encoding="utf-8"))
    (tmp_path / "house.yaml").symlink_to("house.yaml")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**record, "ruleset": "house.yaml"}), encoding="utf-8")
    err = _one_error_line(["replay", str(path)], capsys)
    assert f"{path}: field ruleset: 'house.yaml': a loop of symbolic links" in err, err


def test_a_bundled_id_still_wins_over_a_file_of_that_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "classic").symlink_to("classic")
    assert load("classic").id == "classic"
