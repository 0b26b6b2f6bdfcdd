"""The rules book's Environments page: generated with the others and in the nav, its tables
are what ``ddz_rules.env``'s action spaces and layouts compute for every bundled ruleset, its
examples run, and the measured speed is read from ``benchmarks/env-speed.json`` whatever that
file holds (or the page says where the numbers are).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
import yaml

from ddz_rules import bundled_ids, load
from ddz_rules.cards import RANK_INDEX
from ddz_rules.docs.book import Book
from ddz_rules.docs.environments import (
    BENCH_COLUMNS,
    GYMNASIUM_EXAMPLE,
    PAGE,
    PETTINGZOO_EXAMPLE,
    SPEED,
    SPEED_README,
    VECTOR_EXAMPLE,
    WILD_HAND,
    WILD_RANK,
    Measured,
    environments_page,
    layout_md,
    speed_md,
)
from ddz_rules.docs.render import number
from ddz_rules.env.actions import ActionSpace
from ddz_rules.env.observation import Feature, Layout

from .test_docs import ROOT, cards_in, code_blocks, md_tables, plain, section, tables_with

RULESETS = bundled_ids()


@pytest.fixture(scope="module")
def page() -> str:
    """The page as the build makes it (only this page: tests/test_docs.py checks that
    ``generate`` holds it, with the nav and strict build)."""
    return environments_page(Book(ROOT))


def test_the_page_is_generated_and_in_the_nav(page: str) -> None:
    assert page.startswith("# Environments\n")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    using = next(item["Using it"] for item in config["nav"]
                 if isinstance(item, dict) and "Using it" in item)
    assert {"Environments": PAGE} in using
    assert not (ROOT / "docs" / PAGE).exists(), "the page is generated, never written to docs/"


def test_every_bundled_ruleset_is_listed_with_its_action_ids_and_observation_size(
        page: str) -> None:
    (rows,) = tables_with(page, "Ruleset", "Seats (P)", "Copies per rank (C)", "Types (T)",
                          "Words (W)", "Calls", "Plays", "Of them wild-only", "Action ids",
                          "Observation size")
    assert [plain(row[0]) for row in rows] == RULESETS
    for row in rows:
        rid = plain(row[0])
        ruleset = load(rid)
        space, layout = ActionSpace.of(ruleset), Layout.of(ruleset)
        assert f"(../rulesets/{rid}.md)" in row[0]
        assert plain(row[8]) == number(len(space)), rid
        assert plain(row[4]) == f"{len(space.words)}: {', '.join(space.words)}", rid
        assert plain(row[5]) == str(len(space.calls)), rid
        assert plain(row[6]) == number(len(space.plays)), rid
        assert len(space) == len(space.words) + len(space.calls) + len(space.plays), rid
        wild_types = {c.name for c in ruleset.combinations if c.needs_wilds}
        wild_only = sum(p.reading.type in wild_types for p in space.plays)
        assert plain(row[7]) == number(wild_only) and (wild_only > 0) == bool(
            ruleset.wild_drawn), rid
        assert [plain(c) for c in (row[1], row[2], row[3], row[9])] == [
            str(ruleset.players), str(max(ruleset.copies)), str(len(ruleset.combinations)),
            number(layout.size)], rid


def test_the_classic_layout_is_shown_feature_by_feature(page: str) -> None:
    layout = Layout.of(load("classic"))
    (rows,) = tables_with(page, "Feature", "Slice (classic)", "Size", "Meaning")
    assert [plain(row[0]) for row in rows] == [f.name for f in layout.features]
    for row, feature in zip(rows, layout.features, strict=True):
        assert plain(row[1]) == f"`[{feature.start}:{feature.stop}]`", feature.name
        size = plain(row[2])
        assert size == str(feature.size) or size.endswith(f" = {feature.size}"), feature.name
        assert unescape(plain(row[3])) == feature.meaning, feature.name
    assert rows[-1][1] == f"`[{layout['turned_card'].start}:{layout.size}]`"
    legend = section(page, "## The observation")
    assert f"- **P**, the seats: {layout.players} under classic;" in legend
    assert f"- **C**, the most copies of a rank in the deck: {layout.copies};" in legend
    assert f"- **T**, the ruleset's combination types: {len(layout.types)};" in legend
    changes = section(page, "### What changes with the ruleset")
    assert "8 under [four-player](../rulesets/four-player.md); 4 under the others" in changes


def test_a_size_formula_that_no_longer_holds_fails_the_build() -> None:
    real = Layout.of(load("classic"))
    hand = real["hand"]
    wrong = Layout(real.players, real.copies, real.types, real.words,
                   (Feature("hand", 0, hand.size + 1, hand.meaning),))
    with pytest.raises(ValueError, match="hand has size 61, not 15"):
        layout_md(Book(ROOT), {"classic": Measured("classic", None, wrong)})


def test_the_wild_card_example_is_what_the_action_space_computes(page: str) -> None:
    part = section(page, "### Plays with wild cards")
    (rows,) = tables_with(part, "Lead", "Wild cards in it", "Played as", "Action id",
                          "The id plays it")
    rid = plain(part.split("Under [", 1)[1].split("]", 1)[0])
    ruleset = load(rid)
    assert len(ruleset.wild_drawn) == 1, "the example is of a ruleset with one wild rank"
    space, wild = ActionSpace.of(ruleset), (RANK_INDEX[WILD_RANK],)
    table = space.table
    leads = table.leads(table.key_of(WILD_HAND), wild)
    kept = space.legal(leads, wild)
    assert len(rows) == len(leads)
    shown_ids = set()
    for row, lead in zip(rows, leads, strict=True):
        (lead_cards,) = cards_in(row[0])
        assert table.play(f"{lead_cards}@{plain(row[0]).split(' as ')[-1]}", wild) == lead
        action_id = int(plain(row[3]).replace(",", ""))
        assert action_id == space.id_of(lead, wild)
        (played_cards,) = cards_in(row[2])
        named = space.action(action_id)
        assert not isinstance(named, str) and named.cards == played_cards
        assert plain(row[4]).startswith("yes" if kept[action_id] == lead else "no")
        shown_ids.add(action_id)
    assert shown_ids == set(kept)
    assert any(plain(r[4]).startswith("no") for r in rows), "the example shows a way passed over"
    assert any("soft_bomb" in plain(r[2]) for r in rows)


def run_example(example: str) -> tuple[dict[str, object], str]:
    """Run an example of the page: the names it leaves, and what it prints."""
    scope: dict[str, object] = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(example, "<example>", "exec"), scope)
    return scope, out.getvalue()


def test_the_examples_on_the_page_run(page: str) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    assert code_blocks(page, "python") == [PETTINGZOO_EXAMPLE, GYMNASIUM_EXAMPLE,
                                           VECTOR_EXAMPLE]
    scope, printed = run_example(PETTINGZOO_EXAMPLE)
    rewards = scope["rewards"]
    assert isinstance(rewards, dict) and set(rewards) == {"seat_0", "seat_1", "seat_2"}
    assert sum(rewards.values()) == 0 and any(rewards.values())
    assert printed.strip() == str(rewards)
    scope, printed = run_example(GYMNASIUM_EXAMPLE)
    assert scope["done"] is True and printed.split()[0] == str(scope["reward"])
    scope, printed = run_example(VECTOR_EXAMPLE)
    assert scope["steps"] == 20_224 and re.fullmatch(r"[\d,]+ steps a second\n", printed)


def test_the_page_says_where_the_speeds_are_when_it_has_none(page: str, tmp_path: Path) -> None:
    shown = section(page, "## Speed")
    if (ROOT / SPEED).is_file():
        assert list(md_tables(shown)), "the speed file's rows are shown as a table"
    else:
        assert shown.strip() == speed_md(tmp_path).split("\n", 1)[1].strip()
    for text in (speed_md(tmp_path), bad_speed(tmp_path, "{not json"),
                 bad_speed(tmp_path, json.dumps({"rows": [], "machine": "x"})),
                 bad_speed(tmp_path, json.dumps({"rows": ["not a row"]}))):
        assert f"`{SPEED_README}`" in text and "](" not in text
        assert not list(md_tables(text))


def bad_speed(root: Path, content: str) -> str:
    (root / "benchmarks").mkdir(exist_ok=True)
    (root / SPEED).write_text(content, encoding="utf-8")
    return speed_md(root)


def test_the_speed_table_shows_every_row_the_file_holds_with_its_keys_as_columns(
        tmp_path: Path) -> None:
    rows = [
        {"engine": "ddz-rules", "ruleset": "classic", "steps_per_s": 12345.678,
         "games_per_s": 16.9084, "us_per_step": 81.0, "ratio": None, "note": ""},
        {"engine": "RLCard | raw", "ruleset": "its own", "steps_per_s": 1209, "ratio": 0.96,
         "extra": {"a": 1}, "note": "no auction: seat 0 is the {landlord}"},
    ]
    text = bad_speed(tmp_path, json.dumps({
        "rows": rows, "machine": "2 CPUs (AMD EPYC)", "date": "2025-01-01",
        "seed": 20240601, "notes": ["one [note]"], "parts": [{"name": "view", "us": 41.2}]}))
    (header, body), *more = list(md_tables(text))
    assert [plain(h) for h in header] == ["engine", "ruleset", "steps_per_s", "games_per_s",
                                          "us_per_step", "ratio", "note", "extra"]
    assert [[unescape(plain(c)) for c in row] for row in body] == [
        ["ddz-rules", "classic", "12,346", "16.91", "81", "not given", "not given",
         "not given"],
        ["RLCard | raw", "its own", "1,209", "not given", "not given", "0.96",
         "no auction: seat 0 is the {landlord}", "a: 1"]]
    assert "{" not in text and "}" not in text
    about = text.split("About the run:", 1)[1]
    assert about.index("machine") < about.index("date") < about.index("seed")
    assert "- <code>seed</code>: 20240601" in about
    assert "- one &#91;note&#93;" in about
    assert [[plain(h) for h in head] for head, _ in more] == [["name", "us"]]


def test_the_book_needs_no_rl_extra_to_import_or_to_make_the_page() -> None:
    code = (
        "import sys\n"
        "import ddz_rules.docs, ddz_rules.docs.environments, ddz_rules.docs.hooks\n"
        "assert not {'pettingzoo', 'gymnasium'} & set(sys.modules), 'imported at import'\n"
        "for name in ('pettingzoo', 'gymnasium', 'numpy'):\n"
        "    sys.modules[name] = None  # as if the rl extra were not installed\n"
        "from ddz_rules.docs.book import Book\n"
        "from ddz_rules.docs.environments import environments_page\n"
        "book = Book()\n"
        "book.ids = ['classic', 'laizi']\n"
        "print(environments_page(book))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| [laizi](../rulesets/laizi.md) |" in done.stdout


def test_bench_env_s_file_is_shown_under_its_own_columns_with_its_conclusions(
        tmp_path: Path) -> None:
    """The file bench_env.py writes: its rows under the columns that matter, its summary
    lines, where the time goes, and where it ran."""
    real = json.loads((ROOT / SPEED).read_text(encoding="utf-8"))
    text = bad_speed(tmp_path, json.dumps(real))
    (header, body), (part_head, part_body) = list(md_tables(text))
    assert [plain(h) for h in header] == list(BENCH_COLUMNS.values())
    assert [plain(row[0]) for row in body] == [r["engine"] for r in real["rows"]]
    for row, measured in zip(body, real["rows"], strict=True):
        assert plain(row[BENCH_COLUMNS_INDEX["steps_per_s"]]) == number(
            round(measured["steps_per_s"]))
    for line in real["summary"]:
        assert unescape(line.split(":")[0]) in unescape(text)
    assert [plain(h) for h in part_head] == ["Part", "µs"]
    assert len(part_body) == len(real["parts"])
    assert "About the run:" in text and real["meta"]["date"] in text


BENCH_COLUMNS_INDEX = {k: i for i, k in enumerate(BENCH_COLUMNS)}
