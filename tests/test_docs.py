"""The rules book: every rule element has prose, no page shows unfinished text or an empty
table, and every example a page shows is what the engine computes.

The generated pages are built in-process with ``ddz_rules.docs.generate`` (as the MkDocs build
does) and read back as a reader would read them: the tables are parsed from the Markdown and
each example is recomputed from scratch. One test runs the real ``mkdocs build --strict``.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import CardError, PlayTable, bundled_ids, compile_table, load
from ddz_rules.cards import key_text
from ddz_rules.cli import build_parser, main
from ddz_rules.docs import generate
from ddz_rules.docs.book import Book, rule_points
from ddz_rules.docs.invariants import INVARIANTS
from ddz_rules.docs.reference import help_text, key_html, subcommands
from ddz_rules.docs.render import card_faces
from ddz_rules.docs.rulesets import ruleset_nav
from ddz_rules.game import Passed, Played
from ddz_rules.records import read_record, record_schema, replay
from ddz_rules.reports import check_report, diff_report
from ddz_rules.ruleset import schema as ruleset_schema
from ddz_rules.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULESETS = bundled_ids()
HAND_WRITTEN = sorted(p for p in DOCS.rglob("*.md"))

Table = tuple[list[str], list[list[str]]]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return generate(ROOT)


@pytest.fixture(scope="module")
def tables() -> dict[str, PlayTable]:
    return {rid: compile_table(load(rid)) for rid in RULESETS}


# --------------------------------------------------------------------------- reading pages


FENCE = re.compile(r"^\s*(```|~~~)")
SEPARATOR = re.compile(r"^\|(\s*-+\s*\|)+$")


def without_code(markdown: str) -> str:
    """The Markdown with fenced blocks, inline code and <code> elements removed."""
    lines, inside = [], False
    for line in markdown.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r"<code>.*?</code>", "", text)
    return re.sub(r"`[^`\n]*`", "", text)


def code_blocks(markdown: str, lang: str) -> list[str]:
    return re.findall(rf"^\s*```{lang}\n(.*?)^\s*```", markdown, re.S | re.M)


def cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def md_tables(markdown: str) -> Iterator[Table]:
    """Every Markdown table (header, rows), indented ones included."""
    lines = [line.strip() for line in markdown.splitlines()]
    i = 0
    while i < len(lines) - 1:
        if lines[i].startswith("|") and SEPARATOR.match(lines[i + 1]):
            header = cells(lines[i])
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append(cells(lines[j]))
                j += 1
            yield header, rows
            i = j
        else:
            i += 1


def tables_with(markdown: str, *header: str) -> list[list[list[str]]]:
    return [rows for head, rows in md_tables(markdown) if tuple(head[:len(header)]) == header]


def plain(cell: str) -> str:
    """A cell's text: no tags, links reduced to their text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell.replace("<wbr>", ""))
    return re.sub(r"<[^>]+>", "", text).strip()


def parts(cell: str) -> list[str]:
    return [plain(p) for p in cell.split("<br>")]


def cards_in(cell: str) -> list[str]:
    return re.findall(r'data-cards="([^"]*)"', cell)


def section(markdown: str, heading: str) -> str:
    """The text under a heading, up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = markdown.index(heading + "\n")
    rest = markdown[start + len(heading):]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[:end.start()] if end else rest


def readings(table: PlayTable, cards_text: str) -> list[str]:
    try:
        return [r.short() for r in table.classify(cards_text)]
    except CardError:  # a card this deck does not hold
        return []


# --------------------------------------------------------------------------- prose


def test_every_rule_element_has_prose() -> None:
    for rid in RULESETS:
        ruleset = load(rid)
        data = ruleset.data
        assert ruleset.title.strip() and ruleset.summary.strip(), rid
        assert data["source"]["text"].strip() and data["source"]["about"].strip(), rid
        points = rule_points(data)
        assert points, rid
        for point in points:
            assert point.text.strip(), f"{rid}: {point.dotted} has no prose"
        for name, spec in data["combinations"].items():
            assert str(spec.get("text", "")).strip(), f"{rid}: combination {name} has no prose"
        for name, klass in data["classes"].items():
            assert str(klass.get("text", "")).strip(), f"{rid}: class {name} has no prose"
        for item in data.get("interpretations", []):
            assert all(str(item[k]).strip() for k in ("question", "choice", "reason")), rid


def test_every_ruleset_page_states_every_rule_element(pages: dict[str, str]) -> None:
    for rid in RULESETS:
        page = pages[f"rulesets/{rid}.md"]
        data = load(rid).data
        texts = [p.text for p in rule_points(data)]
        texts += [str(s["text"]) for s in data["combinations"].values()]
        texts += [str(c["text"]) for c in data["classes"].values()]
        texts += [str(i[k]) for i in data.get("interpretations", [])
                  for k in ("question", "choice", "reason")]
        texts += [data["source"]["about"], load(rid).summary]
        for text in texts:
            assert " ".join(text.split()) in " ".join(page.split()), \
                f"{rid}: page lacks {text[:60]!r}"


def test_every_bundled_ruleset_has_a_page_in_the_nav(pages: dict[str, str]) -> None:
    nav = json.dumps(ruleset_nav(Book(ROOT)))
    for rid in RULESETS:
        assert f"rulesets/{rid}.md" in pages
        assert f'{{"{rid}": "rulesets/{rid}.md"}}' in nav
    assert "compare/comparisons.md" in (ROOT / "mkdocs.yml").read_text()
    assert "compare/comparisons.md" in pages


# --------------------------------------------------------------------------- no placeholder


UNFINISHED = re.compile(r"\b(TODO|TBD|FIXME|XXX)\b|placeholder|lorem ipsum|coming soon", re.I)
TEMPLATE = re.compile(r"\{[A-Za-z_][\w.\[\]'\"]*\}")


def all_pages(pages: dict[str, str]) -> dict[str, str]:
    out = dict(pages)
    for path in HAND_WRITTEN:
        out[path.relative_to(DOCS).as_posix()] = path.read_text(encoding="utf-8")
    return out


def test_no_page_has_a_placeholder_or_an_empty_table(pages: dict[str, str]) -> None:
    for name, markdown in all_pages(pages).items():
        prose = without_code(markdown)
        found = UNFINISHED.search(prose)
        assert found is None, f"{name}: {found.group(0) if found else ''!r}"
        assert "{" not in prose and "}" not in prose, f"{name}: a brace outside code"
        for block in code_blocks(markdown, r"\w*"):
            assert TEMPLATE.search(block) is None, f"{name}: template leftover in {block[:80]}"
        for header, rows in md_tables(markdown):
            assert rows, f"{name}: empty table {header}"
            for row in [header, *rows]:
                assert len(row) == len(header), f"{name}: ragged row {row}"
                for cell in row:
                    assert plain(cell) or cards_in(cell), f"{name}: empty cell in {row}"
                    assert plain(cell) not in ("None", "null", "nan", "-"), f"{name}: {row}"


def test_cards_are_drawn_by_the_same_helper_on_every_page(pages: dict[str, str]) -> None:
    for name, markdown in all_pages(pages).items():
        for match in re.finditer(r'<span class="cards" data-cards="([^"]*)">', markdown):
            expected = card_faces(match.group(1))
            assert markdown.startswith(expected, match.start()), f"{name}: {match.group(1)}"


# --------------------------------------------------------------------------- examples


def test_every_example_play_reads_as_shown(pages: dict[str, str],
                                          tables: dict[str, PlayTable]) -> None:
    for rid in RULESETS:
        page, table = pages[f"rulesets/{rid}.md"], tables[rid]
        counts = table.by_type()
        for ctype in table.ruleset.combinations:
            heading = next(h for h in re.findall(r"^### .*$", page, re.M)
                           if h.endswith(f"`{ctype.name}`"))
            body = section(page, heading)
            shown = re.search(r"\*\*([\d,]+) plays?\*\* of this type", body)
            assert shown and int(shown.group(1).replace(",", "")) == counts[ctype.name], heading
            (rows,) = tables_with(body, "Cards", "Readings", "Kickers")
            for card_cell, reading_cell, kicker_cell in rows:
                (cards_text,) = cards_in(card_cell)
                found = table.classify(cards_text)
                assert [r.short() for r in found] == parts(reading_cell), (rid, cards_text)
                assert ctype.name in [r.type for r in found]
                kickers = [k[0] if k else "" for k in
                           (cards_in(p) for p in kicker_cell.split("<br>"))]
                assert kickers == [r.kickers for r in found], (rid, cards_text)
        (beats_rows,) = tables_with(page, "Play", "Previous play", "Beats?")
        assert beats_rows
        for play_cell, previous_cell, verdict, _why in beats_rows:
            (play,), (previous,) = cards_in(play_cell), cards_in(previous_cell)
            beats = table.play(play).reading.beats(table.play(previous).reading)
            assert verdict == ("yes" if beats else "no"), (rid, play, previous)


def test_worked_examples_match_a_fresh_replay(pages: dict[str, str], tmp_path: Path) -> None:
    for rid in RULESETS:
        example = section(pages[f"rulesets/{rid}.md"], "## A worked example")
        (console,) = code_blocks(example, "console")
        commands = [shlex.split(line[2:]) for line in console.splitlines()]
        if commands[0][1] == "replay":
            outcome = replay(read_record(str(ROOT / commands[0][2])))
        else:
            _, _, _, ruleset_id, _, hands, _, seed, _, _ = commands[0]
            folder = tmp_path / rid
            simulate(load(ruleset_id), int(hands), int(seed), records=folder)
            record = read_record(str(folder / Path(commands[1][2]).name))
            outcome = replay(record)
        assert outcome.valid, outcome.reason
        result: dict[str, Any] = outcome.to_json()
        (settlement,) = tables_with(example, "Result", "Value")
        shown = {row[0]: row[1] for row in settlement}
        assert shown["Landlord"] == f"seat {result['landlord']}"
        assert shown["Winner"] == result["winner"]
        assert shown["Base"] == str(result["base"])
        assert shown["Multiplier"] == str(result["multiplier"])
        events = re.findall(r"^(\w+) \u00d7(\d+)", "\n".join(parts(shown["Multiplier events"])),
                            re.M)
        assert events == [(e["event"], str(e["factor"])) for e in result["events"]], rid
        assert result["events"], f"{rid}: the worked example has no multiplier event"
        assert shown["Scores"] == "; ".join(f"seat {i} {s:+d}"
                                            for i, s in enumerate(result["scores"]))
        stake = result["base"] * result["multiplier"]
        assert plain(shown["Stake S = base \u00d7 multiplier"]).startswith(str(stake))
        hand = outcome.hand
        (deal,) = tables_with(example, "Seat", "Cards dealt")
        dealt = [cards_in(row[1])[0] for row in deal]
        assert dealt[:len(hand.deal.hands)] == [key_text(h) for h in hand.deal.hands]
        (actions,) = tables_with(example, "#", "Seat", "Action")
        shown_actions = ["pass" if row[2] == "pass" else cards_in(row[2])[0] for row in actions]
        logged = [op.play.cards if isinstance(op, Played) else "pass"
                  for op in hand.log if isinstance(op, Played | Passed)]
        assert shown_actions == logged, rid


def test_matrix_has_every_ruleset_and_every_rule_point(pages: dict[str, str],
                                                       tables: dict[str, PlayTable]) -> None:
    page = pages["compare/matrix.md"]
    for rid in RULESETS:
        ruleset = load(rid)
        for point in rule_points(ruleset.data):
            assert f"<code>{point.dotted.replace('_', '_<wbr>')}</code>" in page, point.dotted
        for name in ruleset.data["combinations"]:
            assert f"<code>combinations.{name.replace('_', '_<wbr>')}</code>" in page
    header_ids = None
    for header, rows in md_tables(page):
        ids = [re.sub(r"\[(.*?)\].*", r"\1", h) for h in header[1:]]
        assert ids == RULESETS
        header_ids = ids
        for row in rows:
            key = plain(row[0].split("<br>")[-1])
            if key.startswith("combinations.") and key.count(".") == 1:
                name = key.split(".")[1]
                for rid, cell in zip(ids, row[1:], strict=True):
                    count = re.search(r"([\d,]+) plays", plain(cell.replace("<br>", " ")))
                    expected = tables[rid].by_type().get(name)
                    if expected is None:
                        assert plain(cell) == "not a play"
                    else:
                        assert count and int(count.group(1).replace(",", "")) == expected
    assert header_ids == RULESETS
    for rid in RULESETS:
        assert load(rid).id in pages["compare/side-by-side.md"]


def test_differences_are_what_ddz_diff_computes(pages: dict[str, str],
                                                tables: dict[str, PlayTable]) -> None:
    page = pages["compare/differences.md"]
    pairs = []
    for rid in RULESETS:
        base = load(rid).base
        if base is not None:
            pairs.append((base, rid))
    for a, b in pairs:
        body = section(page, f"## {b} against {a}")
        report = diff_report(tables[a], tables[b], 0)
        counts = re.search(r"([\d,]+) legal in \S+ only, ([\d,]+) legal in \S+ only, and "
                           r"([\d,]+) legal in both", body)
        assert counts, (a, b)
        assert [int(g.replace(",", "")) for g in counts.groups()] == [
            report["only_a"]["count"], report["only_b"]["count"],
            report["read_differently"]["count"]]
        for this, other in ((a, b), (b, a)):
            for rows in tables_with(body, "Cards", f"Readings in {this}"):
                for row in rows:
                    if len(row) != 2:
                        continue
                    (cards_text,) = cards_in(row[0])
                    assert readings(tables[this], cards_text) == parts(row[1])
                    assert readings(tables[other], cards_text) == []
        for rows in tables_with(body, "Cards", f"Readings in {a}", f"Readings in {b}"):
            for card_cell, in_a, in_b in rows:
                (cards_text,) = cards_in(card_cell)
                assert readings(tables[a], cards_text) == parts(in_a)
                assert readings(tables[b], cards_text) == parts(in_b)
                assert parts(in_a) != parts(in_b)
    for preset in ("rlcard", "douzero", "openspiel"):
        if preset in RULESETS:
            assert f"## {preset} against classic" in page


def test_invariants_page_names_real_tests_and_the_real_reading_check(
        pages: dict[str, str], tables: dict[str, PlayTable]) -> None:
    page = pages["invariants.md"]
    for item in INVARIANTS:
        for file, name in item.tests:
            source = (ROOT / "tests" / file).read_text(encoding="utf-8")
            *owner, test = name.split(".")
            assert re.search(rf"^\s*def {test}\(", source, re.M), f"{file}: no {name}"
            if owner:
                assert f"class {owner[0]}(" in source
            assert f"`{name}`" in page
    (summary,) = tables_with(page, "Ruleset", "Readings", "Plays checked")
    assert [plain(row[0]) for row in summary] == RULESETS
    for row in summary:
        report = check_report(tables[plain(row[0])].ruleset)
        assert plain(row[2]) == f"{report['plays']:,}"
        assert plain(row[3]) == f"{report['ambiguous']:,}"
    for rid in RULESETS:
        body = section(page, f"### {rid}")
        ambiguous = tables[rid].ambiguous()
        listed = [row for rows in tables_with(body, "Cards", "Readings") for row in rows]
        assert len(listed) == len(ambiguous), rid
        for row in listed:
            (cards_text,) = cards_in(row[0])
            shown = parts(row[1])
            assert readings(tables[rid], cards_text) == shown and len(shown) > 1


# --------------------------------------------------------------------------- reference pages


def test_cli_page_is_the_commands_own_help(pages: dict[str, str]) -> None:
    page = pages["using/cli.md"]
    parser = build_parser()
    for name, sub in subcommands(parser).items():
        assert f"## ddz {name}" in page
        assert help_text(sub) in page, name
    assert help_text(build_parser()) in page


def test_format_pages_list_every_schema_key(pages: dict[str, str], tmp_path: Path) -> None:
    records = pages["using/records.md"]
    for key in record_schema()["properties"]:
        assert f"| {key_html(key)}<br>" in records, key
    rulesets = pages["using/ruleset-format.md"]
    for key in ruleset_schema()["properties"]:
        assert f"| {key_html(key)}<br>" in rulesets, key
    for point in rule_points(load("classic").data):
        if not point.dotted.startswith(("combinations.", "classes.")):
            assert key_html(point.dotted) in rulesets, point.dotted
    (record_text,) = code_blocks(records, "json")
    record = json.loads(record_text)
    outcome = replay(record)
    assert outcome.valid and outcome.to_json() == {"valid": True, **record["result"]}
    command = re.search(r"`ddz simulate -r (\S+) --hands 1 --seed (\d+) --records hands`, as "
                        r"written to `hands/(\S+)`", records)
    assert command, "the records page names the command that wrote its record"
    simulate(load(command.group(1)), 1, int(command.group(2)), records=tmp_path)
    written = json.loads((tmp_path / command.group(3)).read_text(encoding="utf-8"))
    assert written == record


def test_console_examples_on_hand_written_pages_are_real_output() -> None:
    checked = 0
    for path in HAND_WRITTEN:
        for block in code_blocks(path.read_text(encoding="utf-8"), "console"):
            runs = re.split(r"^\$ ", block, flags=re.M)[1:]
            for run in runs:
                command, _, expected = run.partition("\n")
                argv = shlex.split(command)
                assert argv[0] == "ddz", f"{path.name}: {command}"
                out = io.StringIO()
                cwd = Path.cwd()
                try:
                    os.chdir(ROOT)
                    with contextlib.redirect_stdout(out):
                        main(argv[1:])
                finally:
                    os.chdir(cwd)
                assert out.getvalue().rstrip() == expected.rstrip(), f"{path.name}: {command}"
                checked += 1
    assert checked >= 4


def test_api_page_examples_run() -> None:
    result = doctest.testfile(str(DOCS / "using" / "api.md"), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted and not result.failed


def test_the_example_variant_is_a_real_ruleset_shown_whole() -> None:
    path = DOCS / "examples" / "my-variant.yaml"
    ruleset = load(str(path))
    assert ruleset.base == "classic" and len(compile_table(ruleset)) > 0
    page = (DOCS / "using" / "new-variant.md").read_text(encoding="utf-8")
    assert '--8<-- "docs/examples/my-variant.yaml"' in page
    for block in code_blocks(page, "yaml"):
        if "--8<--" not in block:
            for line in block.strip().splitlines():
                assert line in path.read_text(encoding="utf-8"), line


# --------------------------------------------------------------------------- the real build


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "DISABLE_MKDOCS_2_WARNING": "true", "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    for rid in RULESETS:
        assert (site / "rulesets" / rid / "index.html").is_file(), rid
    for page in ("compare/matrix", "compare/side-by-side", "compare/differences",
                 "invariants", "using/cli", "using/records", "using/ruleset-format",
                 "using/new-variant", "using/api"):
        html = (site / page / "index.html").read_text(encoding="utf-8")
        assert "<table>" in html or "doc-module" in html or page == "using/new-variant", page
    assert not (DOCS / "rulesets").exists(), "a generated page was written into docs/"


def test_comparisons_page_defines_every_measure_and_shows_what_the_command_prints(
        pages: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from ddz_rules.cli import main
    from ddz_rules.compare.measures import MEASURES
    from ddz_rules.docs.comparisons import STANDARD, cell, command

    page = pages["compare/comparisons.md"]
    for measure in MEASURES:
        assert measure.definition in page
    assert f"$ {command()}" in page
    assert main([*command().split()[1:], "--json", "--no-progress"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    results = section(page, "## A standard run")
    for measure in MEASURES:
        row = next(line for line in results.splitlines()
                   if line.startswith(f"| {measure.label} |"))
        expected = [cell(fresh["rulesets"][name].get(measure.key), measure.proportion)
                    for name in STANDARD.rulesets]
        assert cells(row)[1:len(expected) + 1] == expected
