"""The rules book: every rule element has prose, no page shows unfinished text or an empty
table, and every example a page shows is what the engine computes.

The generated pages are built in-process with ``ddz_rules.docs.generate`` (as the MkDocs build
does) and read back as a reader would read them: the tables are parsed from the Markdown and
each example is recomputed from scratch. One test runs the real ``mkdocs build --strict``.
"""

from __future__ import annotations

import argparse
import contextlib
import doctest
import io
import json
import logging
import os
import re
import shlex
import tomllib
from collections.abc import Iterator
from html import unescape
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import CardError, PlayTable, bundled_ids, compile_table, load, scoring
from ddz_rules.cards import RANK_INDEX, RANKS, key_text, pack_ranks
from ddz_rules.cli import build_parser, main
from ddz_rules.docs import generate
from ddz_rules.docs.book import Book, lookup, rule_points
from ddz_rules.docs.invariants import INVARIANTS
from ddz_rules.docs.reference import (
    argument_rows,
    as_argparse_shows,
    exit_codes,
    key_html,
    subcommands,
)
from ddz_rules.docs.render import WORTH, card_faces, literal_braces, plural, plural_of
from ddz_rules.docs.rulesets import ruleset_nav
from ddz_rules.game import Passed, Played
from ddz_rules.records import read_record, record_schema, replay
from ddz_rules.reports import check_report, diff_report
from ddz_rules.ruleset import inert_points
from ddz_rules.ruleset import schema as ruleset_schema
from ddz_rules.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULESETS = bundled_ids()
HAND_WRITTEN = sorted(p for p in DOCS.rglob("*.md"))

Table = tuple[list[str], list[list[str]]]

# Every test here reads the generated pages; on one worker they are generated once.
pytestmark = pytest.mark.xdist_group("rules-book")


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
        unused = inert_points(load(rid))
        texts = [p.text for p in rule_points(data) if p.dotted not in unused]
        texts += [str(s["text"]) for s in data["combinations"].values()]
        texts += [str(c["text"]) for c in data["classes"].values()]
        texts += [str(i[k]) for i in data.get("interpretations", [])
                  for k in ("question", "choice", "reason")]
        texts += [data["source"]["about"], load(rid).summary]
        for text in texts:
            assert " ".join(text.split()) in " ".join(page.split()), \
                f"{rid}: page lacks {text[:60]!r}"


def test_no_ruleset_page_describes_a_rule_that_is_not_played(pages: dict[str, str]) -> None:
    """A rule point that has no effect under a ruleset (inherited from its base) is shown
    as not used, with the reason, and its prose never appears on the ruleset's page."""
    for rid in RULESETS:
        page = " ".join(pages[f"rulesets/{rid}.md"].split())
        ruleset = load(rid)
        for key, reason in inert_points(ruleset).items():
            text = " ".join(lookup(ruleset.data, tuple(key.split(".")))["text"].split())
            assert text not in page, f"{rid}: the page describes {key}, which has no effect"
            assert f"Not used under this ruleset: {reason}." in page, (rid, key)
    no_kitty = " ".join(pages["rulesets/no-kitty.md"].split())
    assert "the kitty is turned face up for everyone to see" not in no_kitty
    assert "A bid is 1, 2 or 3" not in pages["rulesets/call-and-grab.md"]
    assert "A bid is 1, 2 or 3" in pages["rulesets/classic.md"]


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
            if ctype.needs_wilds:  # no play of natural cards: examples read with a wild rank
                assert counts[ctype.name] == 0
                check_wild_examples(table, ctype.name, body)
                continue
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


def wild_of(cell: str) -> tuple[int, ...]:
    """The wild ranks a cell states (``wild 5 and 2``), as rank indices."""
    assert plain(cell).startswith("wild "), cell
    return tuple(sorted(RANK_INDEX[c] for c in "".join(cards_in(cell))))


def named_readings(table: PlayTable, cards_text: str, wild: tuple[int, ...]) -> list[str]:
    """Every reading of a card set with these wild ranks, once per ``type/length/rank``."""
    return list(dict.fromkeys(r.short() for r in table.readings(table.key_of(cards_text), wild)))


def check_wild_examples(table: PlayTable, type_name: str, body: str) -> None:
    """A table of plays with wild cards: each reads as shown, with the wild ranks shown, and
    its other readings are the engine's."""
    (rows,) = tables_with(body, "Cards", "Wild", "Reading", "What the wild cards are",
                          "Other readings")
    assert rows
    for card_cell, wild_cell, reading_cell, _what, others_cell in rows:
        (cards_text,) = cards_in(card_cell)
        wild = wild_of(wild_cell)
        found = named_readings(table, cards_text, wild)
        reading = plain(reading_cell)
        assert reading in found and reading.startswith(f"{type_name}/"), (cards_text, found)
        others = [r for r in found if r != reading]
        if not others:
            assert plain(others_cell) == "none"
            continue
        listed = parts(others_cell)
        count = sum(int(m.group(1)) if (m := re.match(r"(\d+) readings from", item)) else 1
                    for item in listed)
        assert count == len(others), (cards_text, listed, others)
        for code in re.findall(r"<code>(.*?)</code>", others_cell):
            assert plain(code) in others, (cards_text, code)


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
        if not load(rid).has_landlord:
            check_alone_settlement(rid, shown, result)
        else:
            check_stake_settlement(rid, shown, result)
        hand = outcome.hand
        (deal,) = tables_with(example, "Seat", "Cards dealt")
        dealt = [cards_in(row[1])[0] for row in deal]
        assert dealt[:len(hand.deal.hands)] == [key_text(h) for h in hand.deal.hands]
        (actions,) = tables_with(example, "#", "Seat", "Action")
        shown_actions = ["pass" if row[2] == "pass" else cards_in(row[2])[0] for row in actions]
        logged = [op.play.cards if isinstance(op, Played) else "pass"
                  for op in hand.log if isinstance(op, Played | Passed)]
        assert shown_actions == logged, rid


def check_stake_settlement(rid: str, shown: dict[str, str], result: dict[str, Any]) -> None:
    """A worked example with a landlord: landlord, winner, base, events, stake and scores."""
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


def check_alone_settlement(rid: str, shown: dict[str, str], result: dict[str, Any]) -> None:
    """A worked example without a landlord: who went out first, the cards left, the seats shut
    out, the bombs paid at once and the scores, as the engine's replay has them; and the hand
    shows a bomb paid at once where the ruleset pays bombs."""
    ruleset = load(rid)
    assert "Landlord" not in shown and "Multiplier" not in shown, rid
    assert shown["First out"] == f"seat {result['first_out']}"
    assert shown["Winner"] == result["winner"] == "first_out"
    assert shown["Cards left"] == "; ".join(f"seat {i} {n}"
                                            for i, n in enumerate(result["cards_left"]))
    shut = re.findall(r"seat (\d+)", plain(shown["Shut out"]))
    assert [int(s) for s in shut] == result["shut_out"], rid
    bombs = [(int(seat), int(amount)) for seat, amount in re.findall(
        r"seat (\d+)'s [^:]+: (\d+) from each other player", plain(shown["Bombs paid"]))]
    assert bombs == [(b["seat"], b["from_each_other_seat"]) for b in result["bombs_paid"]], rid
    if ruleset.bomb_payments:
        assert bombs, f"{rid}: the worked example pays no bomb"
    if "Pays for everyone (liability)" in shown:
        liable = re.findall(r"seat (\d+)", plain(shown["Pays for everyone (liability)"]))
        assert [int(s) for s in liable] == ([result["liable"]] if "liable" in result else [])
    assert shown["Scores"] == "; ".join(f"seat {i} {s:+d}"
                                        for i, s in enumerate(result["scores"]))
    assert sum(result["scores"]) == 0


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
                    count = re.search(r"([\d,]+) plays?\b", plain(cell.replace("<br>", " ")))
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


def test_cli_page_is_a_reference_read_from_the_parser(pages: dict[str, str]) -> None:
    page = pages["using/cli.md"]
    parser = build_parser()
    assert "options:\n" not in page and "usage: ddz" not in page, "a --help dump on the page"
    (commands,) = tables_with(page, "Command", "What it does")
    assert [plain(row[0]).strip("`") for row in commands] == [
        f"ddz {n}" for n in subcommands(parser)]
    for name, sub in subcommands(parser).items():
        body = section(page, f"## ddz {name}")
        assert as_argparse_shows(sub, sub.description) in body, name
        (rows,) = tables_with(body, "Argument or option", "What it is", "Default")
        assert rows == [[" ".join(c.split()) for c in row] for row in argument_rows(sub)]
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            written = action.option_strings[-1] if action.option_strings else action.metavar
            (row,) = [r for r in rows if str(written) in plain(r[0]).replace(",", " ").split()]
            if action.help:
                assert action.help.replace("%%", "%").lower() in plain(row[1]).lower()
        codes = exit_codes(sub)
        assert codes, name
        (sentence,) = re.findall(r"^Exit codes: .*$", body, re.M)
        assert sentence == "Exit codes: " + "; ".join(
            f"{code} {literal_braces(meaning)}" for code, meaning in codes.items()) + "."


def test_cli_examples_are_real_runs_shown_whole(pages: dict[str, str]) -> None:
    page = pages["using/cli.md"]
    css = (DOCS / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert re.search(r"\.wrap-lines pre > code[^{]*\{[^}]*white-space: pre-wrap", css)
    for name in subcommands(build_parser()):
        body = section(page, f"## ddz {name}")
        blocks = code_blocks(body, "console")
        assert blocks, f"ddz {name} has no example"
        assert body.count('<div class="wrap-lines" markdown>') >= len(blocks) + 1, name
        for block, note in zip(blocks, re.findall(r"\(exit code (\d+)\):", body), strict=True):
            command, _, shown = block.partition("\n")
            assert command.startswith("$ ddz "), command
            argv, _, head = command[2:].partition(" | head -n ")
            out = io.StringIO()
            with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(out):
                code = main(shlex.split(argv)[1:])
            lines = [line.rstrip() for line in out.getvalue().splitlines()]
            expected = lines[:int(head)] if head else lines
            assert shown.rstrip("\n").splitlines() == expected, command
            assert int(note) == code, command


def test_no_page_shows_a_doubled_percent_sign(pages: dict[str, str]) -> None:
    for name, markdown in all_pages(pages).items():
        assert "%%" not in markdown, name
    parser = build_parser()
    for sub in [parser, *subcommands(parser).values()]:
        assert "%%" not in sub.format_help(), sub.prog
    assert as_argparse_shows(parser, "%(prog)s: 95%% sure") == "ddz: 95% sure"
    assert as_argparse_shows(parser, "95% sure") == "95% sure"


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


def test_the_site_builds_strictly(tmp_path: Path, pages: dict[str, str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """MkDocs builds the whole book in strict mode (a warning fails it) from the pages the
    generator made for the other tests of this module (the hook's only input; it is not
    made twice)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    import ddz_rules.docs.pages

    site = tmp_path / "site"
    monkeypatch.setattr(ddz_rules.docs.pages, "generate", lambda root=None: dict(pages))
    monkeypatch.setenv("DISABLE_MKDOCS_2_WARNING", "true")
    monkeypatch.chdir(ROOT)
    warnings = io.StringIO()
    handler = logging.StreamHandler(warnings)
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(load_config(str(ROOT / "mkdocs.yml"), strict=True, site_dir=str(site)))
    except Abort as exc:
        pytest.fail(f"{exc}: {warnings.getvalue()[-4000:]}")
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    for rid in RULESETS:
        assert (site / "rulesets" / rid / "index.html").is_file(), rid
    for page in ("compare/matrix", "compare/side-by-side", "compare/differences",
                 "invariants", "using/cli", "using/records", "using/ruleset-format",
                 "using/new-variant", "using/api", "using/environments"):
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


# --------------------------------------------------------------------------- as a reader reads


def counted_nouns() -> set[str]:
    """The plural of every noun a page counts: those the generators pass to ``plural``, and
    the nouns the pages count in their own words."""
    nouns = {"plays", "cards", "ranks", "copies", "jokers", "players", "peasants", "hands",
             "rulesets", "passes", "ways", "readings", "types", "items", "characters",
             "singles", "pairs", "trios", "fours", "kickers", "events", "seats", "tricks",
             "decisions", "examples", "card sets", "rules"}
    for path in (ROOT / "ddz_rules" / "docs").glob("*.py"):
        for word in re.findall(r"plural\([^\n]*?,\s*[\"']([a-z][a-z ]*)[\"']",
                               path.read_text(encoding="utf-8")):
            nouns.add(plural_of(word))
    return nouns


def test_counts_agree_with_their_nouns(pages: dict[str, str]) -> None:
    nouns = counted_nouns()
    assert {"plays", "combination types", "copies", "passes"} <= nouns
    wrong = re.compile(r"(?<![\w.,])(?<![Ss]eat )1 (" + "|".join(
        sorted((re.escape(n) for n in nouns), key=len, reverse=True)) + r")\b")
    for name, markdown in all_pages(pages).items():
        found = wrong.search(markdown)
        assert found is None, f"{name}: {markdown[max(0, found.start() - 80):found.end()]!r}" \
            if found else ""
    assert plural(1, "play") == "1 play" and plural(14, "play") == "14 plays"
    assert plural(1, "copy") == "1 copy" and plural(4, "copy") == "4 copies"
    matrix = pages["compare/matrix.md"]
    rocket = next(line for line in matrix.splitlines()
                  if "<code>combinations.rocket</code>" in line)
    assert "<br>1 play |" in rocket


def test_the_source_box_says_what_the_text_is_before_its_file_name(
        pages: dict[str, str]) -> None:
    for rid in RULESETS:
        source = load(rid).data["source"]
        page = pages[f"rulesets/{rid}.md"]
        box = page[page.index('!!! info "Source"'):].split("\n\n\n", 1)[0]
        assert str(source["text"]).split()[0] not in box.splitlines()[0], rid
        about = box.index(" ".join(str(source["about"]).split()))
        small = box.index('<small class="key">Reference: ')
        assert about < small, rid
        assert str(source["text"]).split()[0] in plain(box[small:]), rid
        if re.match(r"\d{3}_", str(source["text"])):
            assert f"source text {source['text'][:3]}" in box, rid


def test_the_cap_is_named_for_what_the_engine_caps(pages: dict[str, str]) -> None:
    capped = load(str(ROOT / "tests" / "fixtures" / "variants" / "capped.yaml"))
    assert capped.cap == 8
    bombs = [scoring.MultiplierEvent("bomb", 2), scoring.MultiplierEvent("bomb", 2)]
    result = scoring.settle(capped, side=(0,), landlord_won=True, base=3, events=bombs)
    assert result.multiplier == 4, "the multiplier itself is never capped"
    assert result.scores[0] == 8 * (capped.players - 1), "base x multiplier (12) is capped at 8"
    phrase = re.compile(r"what a hand is worth \(base [x\u00d7] multiplier\)", re.I)
    for name, markdown in all_pages(pages).items():
        text = " ".join(without_code(markdown).split())
        assert not re.search(r"cap (on|of) the multiplier|multiplier cap|caps? the multiplier",
                             text, re.I), name
    for rid in RULESETS:
        page = pages[f"rulesets/{rid}.md"]
        if not load(rid).has_landlord:  # no stake: the cap caps what each loser pays
            label = "**Cap on what a losing player pays for his cards: "
            assert label in page and f"Cap on {WORTH}" not in page, rid
            block = page.split(label, 1)[1].split("<small", 1)[0]
            assert "multiplier" not in block, (rid, block)
            continue
        assert f"**Cap on {WORTH}: " in page, rid
        block = page.split(f"**Cap on {WORTH}: ", 1)[1].split("<small", 1)[0]
        assert phrase.search(block), (rid, block)
    guide = (DOCS / "using" / "new-variant.md").read_text(encoding="utf-8")
    assert phrase.search(guide)


def test_identifiers_stay_whole_in_key_columns(pages: dict[str, str]) -> None:
    css = (DOCS / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert re.search(r"code\.nowrap \{[^}]*white-space: nowrap;[^}]*overflow-wrap: normal", css)
    page = pages["compare/comparisons.md"]
    (rows,) = tables_with(page, "measure", "key", "per hand")
    for row in rows:
        assert re.fullmatch(r'<code class="nowrap">[a-z0-9_]+</code>', row[1]), row
    for name in subcommands(build_parser()):
        body = section(pages["using/cli.md"], f"## ddz {name}")
        for rows in tables_with(body, "Argument or option"):
            assert all(row[0].startswith('<code class="nowrap">') for row in rows), name


def test_the_comparisons_page_says_why_its_run_differs_from_the_readmes(
        pages: dict[str, str]) -> None:
    from ddz_rules.compare.measures import MEASURES
    from ddz_rules.docs.comparisons import (
        README_RUN,
        README_WORKERS,
        STANDARD,
        command,
        standard_summary,
    )

    page = pages["compare/comparisons.md"]
    run = " ".join(section(page, "## A standard run").split())
    assert f"$ {command(STANDARD)}" in page and f"$ {command(README_RUN, README_WORKERS)}" in page
    assert f"{STANDARD.hands} hands each (seed {STANDARD.seed})" in run
    assert f"{README_RUN.hands:,} hands of each ruleset with seed {README_RUN.seed}" in run
    assert "built" in run and "README" in run and "intervals" in run
    # The README's first command is the larger run named here.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = next(line for line in readme.splitlines() if line.startswith("pip install -e . && "))
    args = build_parser().parse_args(shlex.split(first.split("&&")[1])[1:])
    assert (tuple(args.rulesets), args.hands, args.bots, args.seed, args.workers) == (
        README_RUN.rulesets, README_RUN.hands, README_RUN.bots, README_RUN.seed, README_WORKERS)
    # And the page's claim holds: on every measure both runs show, the intervals overlap
    # (the README's run is printed whole in benchmarks/README.md, with the other comparisons).
    measured = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    shown = {}
    for line in measured.splitlines():
        found = re.match(r"\u2502 (.+?) +\u2502(.*)\u2502$", line)
        if found:
            shown[found.group(1)] = [c.strip() for c in found.group(2).split("\u2502")]
    summary = standard_summary()
    compared = 0
    for measure in MEASURES:
        if measure.label not in shown:
            continue
        for name, figure in zip(STANDARD.rulesets, shown[measure.label], strict=False):
            estimate = summary["rulesets"][name].get(measure.key)
            if estimate is None or figure == "-":
                continue
            _, low, high = (float(x) for x in re.findall(r"-?\d+\.\d+", figure))
            scale = 100 if measure.proportion else 1
            assert estimate["low"] * scale <= high and low <= estimate["high"] * scale, \
                (measure.label, name, figure, estimate)
            compared += 1
    assert compared >= 30


def test_the_rules_lead_with_the_players_words(pages: dict[str, str]) -> None:
    for rid in RULESETS:
        page = pages[f"rulesets/{rid}.md"]
        facts = re.findall(r"^- \*\*([A-Za-z ]+):\*\*", page, re.M)
        assert facts and not {"Body", "Chain", "Class", "Kickers"} & set(facts), rid
        assert {"Main part", "Run", "Extra cards", "Beats"} <= set(facts), rid
        unused = inert_points(load(rid))
        for point in rule_points(load(rid).data):
            if point.dotted.startswith(("combinations.", "classes.")):
                continue
            prose = (f"Not used under this ruleset: {unused[point.dotted]}."
                     if point.dotted in unused else " ".join(point.text.split()))
            flat = " ".join(page.split())
            key = f'<small class="key"><code>{point.dotted.replace("_", "_<wbr>")}</code></small>'
            assert f"{prose} {key}" in flat, (rid, point.dotted)
            assert f"** · `{point.dotted}`" not in page, (rid, point.dotted)
        beats = section(page, "## What beats what")
        assert "beats any ordinary play" in beats and "level" not in beats.split("|")[0]
        assert "(../index.md#glossary)" in page and "(../index.md#body)" in page, rid
    matrix = pages["compare/matrix.md"]
    assert "Class plain" not in matrix and "level 1 |" not in matrix
    assert "| Bombs<br>" in matrix and "beats any ordinary play" in matrix


def test_the_glossary_defines_the_words_of_the_game() -> None:
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    glossary = section(home, "## Glossary")
    for word in ("landlord", "peasant", "kitty", "bid", "trick", "kicker", "chain", "bomb",
                 "rocket", "body", "class"):
        found = re.search(rf'<dt id="{word}">[^<]+</dt>\s*<dd markdown>(.+?)</dd>', glossary,
                          re.S)
        assert found and len(found.group(1).split()) >= 8, word


def test_the_install_page_names_every_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    assert {"plots", "dask"} <= set(extras)
    page = (DOCS / "using" / "install.md").read_text(encoding="utf-8")
    (rows,) = tables_with(page, "extra", "command", "for")
    assert sorted(plain(row[0]).strip("`") for row in rows) == sorted(extras)
    for row in rows:
        assert f"[{plain(row[0]).strip('`')}]" in row[1] and len(plain(row[2]).split()) >= 3, row


def test_the_comparisons_page_defines_every_match_measure(pages: dict[str, str]) -> None:
    from ddz_rules.compare.measures import MATCH_MEASURES

    page = pages["compare/comparisons.md"]
    assert "--match-levels" in page
    for m in MATCH_MEASURES:
        assert m.key in page and m.definition in page


# --------------------------------------------------------------------------- teams, bombs, words


def _replayed_example(page: str, tmp_path: Path) -> Any:
    """The hand a ruleset page's worked example names, replayed from its own commands."""
    example = section(page, "## A worked example")
    (console,) = code_blocks(example, "console")
    commands = [shlex.split(line[2:]) for line in console.splitlines()]
    if commands[0][1] == "replay":
        return replay(read_record(str(ROOT / commands[0][2]))).hand
    _, _, _, ruleset_id, _, hands, _, seed, _, _ = commands[0]
    simulate(load(ruleset_id), int(hands), int(seed), records=tmp_path)
    outcome = replay(read_record(str(tmp_path / Path(commands[1][2]).name)))
    assert outcome.valid, outcome.reason
    return outcome.hand


def test_the_four_player_worked_example_shows_the_partner_call_the_join_and_the_settlement_by_side(
        pages: dict[str, str], tmp_path: Path) -> None:
    from ddz_rules.game import Called, Joined

    teams = [rid for rid in RULESETS if load(rid).partner_rule != "none"]
    assert "four-player" in teams
    for rid in teams:
        page = pages[f"rulesets/{rid}.md"]
        example = section(page, "## A worked example")
        hand = _replayed_example(page, tmp_path / rid)
        result = hand.result
        assert result is not None and hand.partner is not None, f"{rid}: nobody joins"
        # the call: the rank the engine logged, named before the play
        (called,) = [op.rank for op in hand.log if isinstance(op, Called)]
        assert called is not None, f"{rid}: the worked example's landlord plays alone"
        call = re.search(r"^\*\*The partner call\.\*\* .*$", example, re.M)
        assert call and f"seat {hand.landlord} calls the rank" in call.group(0), rid
        assert cards_in(call.group(0))[0] == RANKS[called], rid
        # the join: the play-table row of the play that held the called rank
        (actions,) = tables_with(example, "#", "Seat", "Action")
        row_of_join = None
        row = 0
        for op in hand.log:
            if isinstance(op, Played | Passed):
                row += 1
            elif isinstance(op, Joined):
                row_of_join = row
        assert row_of_join is not None
        number, seat, action = actions[row_of_join - 1]
        assert number == str(row_of_join)
        assert seat == f"seat {hand.partner} (joins the landlord here)", rid
        played = cards_in(action)[0]
        assert RANKS[called] in played and "called" in action
        join = re.search(r"^\*\*The join\.\*\* .*$", example, re.M)
        assert join, rid
        assert f"At action {row_of_join} of the play, seat {hand.partner} plays" in join.group(0)
        # the settlement by side, with the engine's numbers
        (settlement,) = tables_with(example, "Result", "Value")
        shown = {r[0]: r[1] for r in settlement}
        assert plain(shown["Partner"]).startswith(f"seat {hand.partner}, who joined at action "
                                                  f"{row_of_join}"), rid
        side = (hand.landlord, hand.partner)
        peasants = [s for s in range(hand.ruleset.players) if s not in side]
        assert plain(shown["Sides"]) == (
            f"seat {hand.landlord} (landlord) and seat {hand.partner} (partner) against "
            + " and ".join(f"seat {s}" for s in peasants) + " (peasants)")
        stake = result.base * result.multiplier
        scores = result.scores
        sign = 1 if result.winner == "landlord" else -1
        assert {scores[s] for s in peasants} == {-sign * stake}
        assert scores[hand.landlord] == scores[hand.partner] == sign * stake * len(peasants) // 2
        prose = " ".join(example.split("**The settlement.**", 1)[1].split())
        assert (f"{len(peasants)} \u00d7 {stake} = {stake * len(peasants)}, shared equally "
                f"between the landlord and his partner: {scores[hand.landlord]:+d} each") in prose
        # and the other case, the landlord alone, from a real hand
        alone = re.search(r"\*\*When the landlord stays alone\.\*\* .*?--seed (\d+)`", prose)
        assert alone, rid
        seed = int(alone.group(1))
        folder = tmp_path / f"{rid}-alone"
        simulate(load(rid), 1, seed, records=folder)
        (path,) = folder.glob("*.json")
        lone = replay(read_record(str(path)))
        assert lone.valid and lone.hand.partner is None and lone.hand.result is not None
        assert lone.hand.landlord is not None
        lone_result = lone.hand.result
        lone_stake = lone_result.base * lone_result.multiplier
        lone_score = lone_result.scores[lone.hand.landlord]
        assert abs(lone_score) == lone_stake * (hand.ruleset.players - 1)
        assert f"scores: {lone_score:+d}" in prose


def test_the_four_player_page_shows_the_bomb_ladder_and_that_a_small_and_a_big_joker_are_no_play(
        pages: dict[str, str], tables: dict[str, PlayTable]) -> None:
    table = tables["four-player"]
    beats = section(pages["rulesets/four-player.md"], "## What beats what")
    ladder = re.findall(r"^1\. \*\*(.+?)\*\*: (.*)$", beats, re.M)
    assert [name for name, _ in ladder] == [
        "Bombs of four", "Bombs of five", "Bombs of six", "Bombs of seven", "Bombs of eight",
        "The joker bomb"]
    steps = [cards_in(line) for _, line in ladder]
    assert [len(step[0]) for step in steps[:-1]] == [4, 5, 6, 7, 8]
    assert steps[-1] == ["BBRR"]
    for lower, higher in pairwise(steps):
        low_top, high_bottom = lower[-1], higher[0]
        assert table.play(high_bottom).reading.beats(table.play(low_top).reading)
        assert not table.play(low_top).reading.beats(table.play(high_bottom).reading)
    for step in steps[:-1]:  # within a size, the higher rank wins
        assert table.play(step[1]).reading.beats(table.play(step[0]).reading)
    assert "nothing beats the joker bomb" in beats
    (rows,) = tables_with(beats, "Play", "Previous play", "Beats?")
    verdicts = {(cards_in(r[0])[0], cards_in(r[1])[0]): r[2] for r in rows}
    assert verdicts[("33333", "2222")] == "yes" and verdicts[("2222", "33333")] == "no"
    assert verdicts[("BBRR", "22222222")] == "yes"
    no_play = re.search(r"^(.*)is no play here.*$", beats, re.M)
    assert no_play and cards_in(no_play.group(0))[0] == "BR"
    assert table.classify("BR") == ()
    (kinds,) = tables_with(beats, "Kind of play", "Types", "Beats", "Multiplier event")
    events = {plain(r[0].split("<br>")[1]).split(" ·")[0]: plain(r[3]) for r in kinds}
    for size in range(5, 9):
        assert events[f"classes.bomb_{size}"] == "bomb \u00d72"


def test_the_matrix_has_teams_partner_and_every_class_event_read_from_each_ruleset(
        pages: dict[str, str]) -> None:
    from ddz_rules.docs.render import value_text
    from ddz_rules.docs.rulesets import class_event

    page = pages["compare/matrix.md"]
    rows: dict[str, list[str]] = {}
    for header, body in md_tables(page):
        assert [re.sub(r"\[(.*?)\].*", r"\1", h) for h in header[1:]] == RULESETS
        for row in body:
            rows[plain(row[0].split("<br>")[-1])] = row[1:]
    assert "teams.partner" in rows, "the matrix has no row for teams.partner"
    for rid, cell in zip(RULESETS, rows["teams.partner"], strict=True):
        if not load(rid).has_landlord:  # no landlord, so no partner of his
            assert plain(cell) == "not used", rid
            continue
        value = load(rid).data["teams"]["partner"]["value"]
        assert plain(cell) == plain(value_text(value)), rid
    for rid, cell in zip(RULESETS, rows["deck.jokers"], strict=True):
        jokers = load(rid).data["deck"]["jokers"]["value"]
        assert cards_in(cell) == ([jokers] if jokers else []), rid
        assert jokers or plain(cell) == "none", rid
    for rid, cell in zip(RULESETS, rows["deck.copies"], strict=True):
        assert plain(cell) == str(load(rid).data["deck"]["copies"]["value"]), rid
    for rid, cell in zip(RULESETS, rows["players"], strict=True):
        assert plain(cell) == str(load(rid).players), rid
    classes = {name for rid in RULESETS for name in load(rid).data["classes"]}
    assert {"bomb_5", "bomb_8", "joker_bomb"} <= classes
    for name in classes:
        for rid, cell in zip(RULESETS, rows[f"classes.{name}"], strict=True):
            ruleset = load(rid)
            cell = re.sub(r'^<span class="changed">(.*)</span>$', r"\1", cell)
            if name not in ruleset.data["classes"]:
                assert plain(cell) == "no such kind"
            elif ruleset.has_landlord:
                event = f"multiplier event: {class_event(ruleset, name)}"
                assert cell.endswith(event), (rid, name)
            else:  # no stake to multiply: what each other player pays at once
                amount = dict(ruleset.bomb_payments).get(name)
                paid = "none" if amount is None else f"{amount} from each other player"
                assert cell.endswith(f"paid at once: {paid}"), (rid, name, cell)


def test_the_glossary_defines_partner_called_rank_side_and_joker_bomb(
        pages: dict[str, str]) -> None:
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    glossary = section(home, "## Glossary")
    for word in ("partner", "called-rank", "side", "joker-bomb", "multiplier", "stake",
                 "spring"):
        found = re.search(rf'<dt id="{word}">[^<]+</dt>\s*<dd markdown>(.+?)</dd>', glossary,
                          re.S)
        assert found and len(found.group(1).split()) >= 8, word
    page = pages["rulesets/four-player.md"]
    for anchor in ("partner", "called-rank", "side", "joker-bomb"):
        assert f"(../index.md#{anchor})" in page, anchor
    assert "(../index.md#rocket)" not in page, "four-player has no rocket"


def test_each_ruleset_page_settles_by_side_as_the_engine_does(pages: dict[str, str]) -> None:
    for rid in RULESETS:
        ruleset = load(rid)
        scoring_part = section(pages[f"rulesets/{rid}.md"], "## Scoring")
        if not ruleset.has_landlord:
            check_cards_left_table(ruleset, scoring_part)
            continue
        (rows,) = tables_with(scoring_part, "Landlord's side", "Winner", "Landlord")
        sides = [(0,)] + ([(0, 1)] if ruleset.partner_rule != "none" else [])
        assert len(rows) == 2 * len(sides), rid
        for row, (side, won) in zip(rows, [(s, w) for s in sides for w in (True, False)],
                                    strict=True):
            scores = scoring.settle(ruleset, side, won, 1, []).scores

            def units(n: int) -> str:
                return ("+" if n > 0 else "-") + ("" if abs(n) == 1 else str(abs(n))) + "S"

            assert row[2] == units(scores[0]), (rid, row)
            assert row[-1] == units(scores[len(side)]), (rid, row)
            if len(side) > 1:
                assert row[3] == units(scores[1]), (rid, row)


def check_cards_left_table(ruleset: Any, scoring_part: str) -> None:
    """Without a landlord: each row of the scoring table is what the engine's settlement
    (``scoring.settle_alone``) pays for the cards left, shut-outs, liability and bombs shown,
    seat 0 out first; and the rows show a shut-out, a liable seat and a bomb where the rules
    give each an effect."""
    (rows,) = tables_with(scoring_part, "The end of the hand", "Cards left", "Shut out")
    order = [r for r in ruleset.deck_ranks for _ in range(ruleset.copies[r])]
    seen_shut = seen_liable = seen_bomb = False
    for _what, left_cell, shut_cell, liable_cell, bombs_cell, scores_cell in rows:
        left = [int(n) for n in re.findall(r"seat \d+ (\d+)", left_cell)]
        shut = [int(s) for s in re.findall(r"seat (\d+)", shut_cell)]
        liable = [int(s) for s in re.findall(r"seat (\d+)", liable_cell)]
        bombs = [scoring.BonusPayment("", int(seat), int(amount)) for seat, amount in
                 re.findall(r"seat (\d+): (\d+) from each other player", bombs_cell)]
        hands = [pack_ranks(order[:n]) for n in left]
        plays = [0 if seat in shut else 1 for seat in range(ruleset.players)]
        result = scoring.settle_alone(ruleset, 0, hands, plays, liable[0] if liable else None,
                                      bombs)
        shown = [int(n) for n in re.findall(r"seat \d+ ([+-]?\d+)", scores_cell)]
        assert shown == list(result.scores), (ruleset.id, scores_cell)
        assert sum(shown) == 0
        seen_shut |= bool(shut)
        seen_liable |= bool(liable)
        seen_bomb |= bool(bombs)
    assert seen_shut == (ruleset.shut_out != 1), ruleset.id
    assert seen_liable == ("scoring.liability" not in inert_points(ruleset)
                           and ruleset.liability != "none"), ruleset.id
    assert seen_bomb == bool(ruleset.bomb_payments), ruleset.id


def test_the_format_page_shows_teams_partner_and_class_events_as_the_rulesets_use_them(
        pages: dict[str, str]) -> None:
    page = pages["using/ruleset-format.md"]
    (rows,) = tables_with(page, "Key", "Holds")
    holds = {unescape(plain(r[0].split("<br>")[0])): " ".join(r[1].split()) for r in rows}
    assert "classes.<name>.event" in holds, "a <name> in a key must show as text, not a tag"
    partner = holds["teams.partner"]
    assert '`"none"`, `"called_rank"`' in partner
    using = {rid for rid in RULESETS if load(rid).partner_rule == "called_rank"}
    assert using and all(rid in partner.split("`\"called_rank\"` in ", 1)[1] for rid in using)
    event = holds["classes.<name>.event"]
    for rid in RULESETS:
        ruleset = load(rid)
        for name, klass in ruleset.data["classes"].items():
            if klass.get("event", name) != name and ruleset.base is None:
                assert f"`{name}`" in event and f"`{klass['event']}`" in event, (rid, name)


# --------------------------------------------------------------------------- wild cards

WILD = [rid for rid in RULESETS if load(rid).wild_drawn]
#: ``wild.drawn`` values as the pages say them.
WHEN = {"before_auction": "at the deal, before the auction",
        "after_auction": "once the landlord has taken the kitty"}


def run_console(block: str) -> list[list[str]]:
    """Run every ``$ ddz ...`` command of a console block now; each must print what the block
    shows. The commands, split into words."""
    runs = re.split(r"^\$ ", block, flags=re.M)[1:]
    assert runs, block
    commands = []
    for run in runs:
        command, _, shown = run.partition("\n")
        out = io.StringIO()
        with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(out):
            main(shlex.split(command)[1:])
        printed = [line.rstrip() for line in out.getvalue().splitlines()]
        assert printed == shown.rstrip("\n").splitlines(), command
        commands.append(shlex.split(command))
    return commands


def wild_option(command: list[str]) -> tuple[int, ...]:
    return tuple(sorted(RANK_INDEX[c] for c in command[command.index("--wild") + 1]))


def wild_section(pages: dict[str, str], rid: str) -> str:
    return section(pages[f"rulesets/{rid}.md"], "## Wild cards")


def played_as(table: PlayTable, cell: str, wild: tuple[int, ...]) -> Any:
    """The play a cell shows: its cards, as the reading named after them (``as <code>``)."""
    (cards_text, *_) = cards_in(cell)
    named = re.search(r" as <code>(.*?)</code>", cell)
    return table.play(cards_text + (f"@{plain(named.group(1))}" if named else ""), wild)


def test_each_page_of_a_ruleset_with_wild_cards_has_a_wild_cards_section_stating_its_rules(
        pages: dict[str, str]) -> None:
    assert {"laizi", "laizi-two"} <= set(WILD)
    for rid in RULESETS:
        ruleset = load(rid)
        page = pages[f"rulesets/{rid}.md"]
        if not ruleset.wild_drawn:
            assert "## Wild cards" not in page, rid
            continue
        wild = wild_section(pages, rid)
        flat = " ".join(wild.split())
        for point in rule_points(ruleset.data["wild"], ("wild",)):
            key = f'<small class="key"><code>{point.dotted.replace("_", "_<wbr>")}</code></small>'
            assert f"{' '.join(point.text.split())} {key}" in flat, (rid, point.dotted)
        text = plain(flat)
        drawn = ruleset.wild_drawn
        count = ("one wild rank a hand" if len(drawn) == 1 else "two wild ranks a hand")
        assert count in text, rid
        for when in drawn:
            assert f"drawn {WHEN[when]}" in text, (rid, when)
        copies = ruleset.copies[ruleset.wild_ranks[0]]
        assert f"{copies * len(drawn)} wild cards in a hand" in text, rid
        for key, ranks in (("drawn from", ruleset.wild_ranks),
                           ("may stand for", ruleset.stands_for)):
            assert (f"{key} {RANKS[ranks[0]]} to {RANKS[ranks[-1]]} ({len(ranks)} ranks)"
                    in text), (rid, key)
        (glance,) = tables_with(section(page, "## At a glance"), "Rule", "This ruleset")
        (row,) = [r for r in glance if r[0] == "Wild cards"]
        assert count in plain(row[1]).lower() and "(#wild-cards)" in row[1], rid


def test_the_laizi_page_shows_a_soft_bomb_losing_to_a_hard_bomb_of_a_lower_rank_by_class_level(
        pages: dict[str, str], tables: dict[str, PlayTable]) -> None:
    ruleset, table = load("laizi"), tables["laizi"]
    part = section(wild_section(pages, "laizi"), "### A soft bomb against a hard bomb")
    levels = {name: k["level"] for name, k in ruleset.data["classes"].items()}
    text = " ".join(plain(part).split())
    assert (f"soft bombs are level {levels['soft_bomb']}, hard bombs level {levels['bomb']}"
            in text)
    (block,) = code_blocks(part, "console")
    (hard_first, soft_first) = run_console(block)
    wild = wild_option(hard_first)
    hard, soft = table.play(hard_first[-2], wild), table.play(hard_first[-1], wild)
    assert soft_first[-2:] == hard_first[-1:-3:-1]
    assert hard.reading.type == "bomb" and soft.reading.type == "soft_bomb"
    assert any(RANK_INDEX[c] in wild for c in soft.cards)  # the soft bomb holds the wild
    assert soft.reading.rank_index > hard.reading.rank_index  # and is of a higher rank
    assert hard.reading.beats(soft.reading) and not soft.reading.beats(hard.reading)
    verdicts = [line.split(":")[0] for line in block.splitlines() if not line.startswith("$")]
    assert verdicts == ["yes", "no"]
    for name in ("soft_bomb", "bomb"):
        assert f"{name} \u00d7{ruleset.factors[name]}" in text


def test_the_laizi_page_shows_a_straight_completed_by_a_wild_card(
        pages: dict[str, str], tables: dict[str, PlayTable]) -> None:
    table = tables["laizi"]
    part = section(wild_section(pages, "laizi"), "### A straight completed by a wild card")
    first = part.strip().split("\n\n")[0]
    (block,) = code_blocks(part, "console")
    (command,) = run_console(block)
    wild, cards_text = wild_option(command), command[-1]
    assert command[:3] == ["ddz", "classify", "-r"] and cards_in(first)[1] == cards_text
    assert tuple(RANK_INDEX[c] for c in cards_in(first)[:1]) == wild
    reads = re.search(r"reads <code>(.*?)</code>", first)
    assert reads, first
    shown = plain(reads.group(1))
    found = {r.short(): r for r in table.readings(table.key_of(cards_text), wild)}
    assert shown in found and shown.startswith("straight/")
    reading = found[shown]
    chain = set(range(reading.rank_index - reading.length + 1, reading.rank_index + 1))
    natural = {RANK_INDEX[c] for c in cards_text if RANK_INDEX[c] not in wild}
    (missing,) = chain - natural  # the wild fills the one gap of the run
    stands = re.search(r"stands for an? (.*?</span></span>)", first)
    assert stands and cards_in(stands.group(1)) == [RANKS[missing]]
    assert not any(r.type == "straight" for r in table.classify(cards_text))  # not without it


def test_the_laizi_page_shows_one_card_set_read_two_ways_and_how_its_player_names_one(
        pages: dict[str, str], tables: dict[str, PlayTable]) -> None:
    table = tables["laizi"]
    part = section(wild_section(pages, "laizi"), "### One card set, two readings")
    (block,) = code_blocks(part, "console")
    both, named_one = run_console(block)
    wild, cards_text = wild_option(both), both[-1]
    assert named_one[-1].startswith(f"{cards_text}@")
    listed = [plain(r) for r in re.findall(r"^- <code>(.*?)</code>", part, re.M)]
    assert listed == named_readings(table, cards_text, wild) and len(listed) == 2
    assert any(r.startswith("soft_bomb/") for r in listed)
    assert "CARDS@type/length/rank" in part
    for reading in listed:
        written = f"{cards_text}@{reading}"
        assert f"`{written}`" in part
        assert table.play(written, wild).reading.short() == reading
    named = named_one[-1].split("@", 1)[1]
    assert named in listed
    printed = block.split("\n$ ")[1].splitlines()[1:]  # what the named reading prints
    assert len(printed) == 1 and printed[0].startswith(f"{cards_text}: {named.split('/')[0]},")


def test_the_matrix_has_the_wild_rule_points_of_every_ruleset(pages: dict[str, str]) -> None:
    from ddz_rules.docs.render import value_text

    page = pages["compare/matrix.md"]
    rows: dict[str, list[str]] = {}
    for _header, body in md_tables(page):
        for row in body:
            rows[plain(row[0].split("<br>")[-1])] = row[1:]
    for key in ("wild", "wild.drawn", "wild.ranks", "wild.stands_for", "wild.alone",
                "wild.in_kickers"):
        assert key in rows, f"the matrix has no row for {key}"
    for i, rid in enumerate(RULESETS):
        ruleset = load(rid)
        summary = plain(rows["wild"][i])
        if not ruleset.wild_drawn:
            assert summary == "none", rid
            for key in ("wild.drawn", "wild.ranks", "wild.stands_for", "wild.alone",
                        "wild.in_kickers"):
                assert plain(rows[key][i]) == "none (no wild cards)", (rid, key)
            continue
        n = len(ruleset.wild_drawn)
        assert summary.startswith(("one wild rank", "two wild ranks")[n - 1]), rid
        assert all(WHEN[when] in summary for when in ruleset.wild_drawn), rid
        copies = ruleset.copies[ruleset.wild_ranks[0]]
        assert summary.endswith(f"({copies * n} wild cards)"), rid
        for key in ("drawn", "ranks", "stands_for", "alone", "in_kickers"):
            value = ruleset.data["wild"][key]["value"]
            assert plain(rows[f"wild.{key}"][i]) == plain(value_text(value, key)), (rid, key)
        for ctype in ruleset.combinations:
            cell = plain(rows[f"combinations.{ctype.name}"][i].replace("<br>", " | "))
            if ctype.needs_wilds:
                assert cell.endswith("0 plays of natural cards"), (rid, ctype.name)


def test_wild_examples_ladders_and_comparisons_are_what_the_engine_computes(
        pages: dict[str, str], tables: dict[str, PlayTable]) -> None:
    for rid in WILD:
        ruleset, table = load(rid), tables[rid]
        beats = section(pages[f"rulesets/{rid}.md"], "## What beats what")
        ladder = re.findall(r"^1\. \*\*(.+?)\*\*: (.*)$", beats, re.M)
        assert [name for name, _ in ladder] == ["Soft bombs", "Hard bombs", "Wild bombs",
                                                "The rocket"], rid
        classes = sorted((k["level"], n) for n, k in ruleset.data["classes"].items() if k["level"])
        for (_, line), (_, name) in zip(ladder, classes, strict=True):
            event = ruleset.data["classes"][name].get("event", name)
            assert plain(line).endswith(f"{event} \u00d7{ruleset.factors[event]}"), (rid, name)
        (rows,) = tables_with(beats, "Play", "Wild", "Previous play", "Beats?", "Why")
        seen = set()
        for play_cell, wild_cell, previous_cell, verdict, _why in rows:
            wild = wild_of(wild_cell)
            play = played_as(table, play_cell, wild)
            previous = played_as(table, previous_cell, wild)
            assert verdict == ("yes" if play.reading.beats(previous.reading) else "no"), rid
            seen |= {ruleset.class_of[play.reading.type], ruleset.class_of[previous.reading.type]}
        assert {"soft_bomb", "bomb", "wild_bomb", "rocket"} <= seen, rid


def test_the_laizi_worked_example_shows_the_wild_ranks_drawn_and_every_play_with_wilds_named(
        pages: dict[str, str], tmp_path: Path) -> None:
    from ddz_rules.records import to_record

    for rid in WILD:
        ruleset = load(rid)
        page = pages[f"rulesets/{rid}.md"]
        example = section(page, "## A worked example")
        hand = _replayed_example(page, tmp_path / rid)
        assert len(hand.deal.wild) == len(ruleset.wild_drawn)
        deal = re.search(r"^\*\*The deal\.\*\* .*$", example, re.M)
        assert deal, rid
        for rank, when in zip(hand.deal.wild, ruleset.wild_drawn, strict=True):
            assert f"{card_faces(RANKS[rank])} (drawn {WHEN[when]})" in deal.group(0), rid
        (actions,) = tables_with(example, "#", "Seat", "Action")
        rows = iter(actions)
        with_wilds = []
        for op in hand.log:
            if not isinstance(op, Played | Passed):
                continue
            row = next(rows)
            if isinstance(op, Played) and any(RANK_INDEX[c] in hand.deal.wild
                                              for c in op.play.cards):
                assert f"<code>{op.play.reading.short().replace('_', '_<wbr>')}</code> (the wild" \
                    in row[2], (rid, row)
                with_wilds.append(op)
        assert with_wilds, f"{rid}: no play of the worked example holds a wild"
        assert any(load(rid).class_of[op.play.reading.type] == "soft_bomb" for op in with_wilds)
        written = re.findall(r"`([^`@]+@[^`]+)`", example.split("**The settlement.**")[0])
        record_plays = to_record(hand)["plays"]
        assert written == [p for p in record_plays if "@" in p]
        assert written == [hand.table.notation(op.play, hand.deal.wild) for op in with_wilds]
        for text, op in zip(written, with_wilds, strict=True):
            assert hand.table.play(text, hand.deal.wild).reading == op.play.reading


def test_the_glossary_defines_the_wild_card_words_and_the_laizi_pages_link_them(
        pages: dict[str, str]) -> None:
    glossary = section((DOCS / "index.md").read_text(encoding="utf-8"), "## Glossary")
    words = ("wild-card", "sky-and-earth", "soft-bomb", "hard-bomb", "wild-bomb",
             "declared-reading")
    for word in words:
        found = re.search(rf'<dt id="{word}">[^<]+</dt>\s*<dd markdown>(.+?)</dd>', glossary,
                          re.S)
        assert found and len(found.group(1).split()) >= 8, word
    for rid in WILD:
        page = pages[f"rulesets/{rid}.md"]
        for word in ("wild-card", "soft-bomb", "hard-bomb", "wild-bomb", "declared-reading"):
            assert f"(../index.md#{word})" in page, (rid, word)
    assert "(../index.md#sky-and-earth)" in pages["rulesets/laizi-two.md"]
    assert "(../index.md#sky-and-earth)" not in pages["rulesets/laizi.md"]
    assert "(../index.md#wild-card)" not in pages["rulesets/classic.md"]


def test_the_format_page_shows_the_wild_section_and_each_types_wilds(
        pages: dict[str, str]) -> None:
    page = pages["using/ruleset-format.md"]
    (rows,) = tables_with(page, "Key", "Holds")
    holds = {unescape(plain(r[0].split("<br>")[0])): " ".join(r[1].split()) for r in rows}
    for key in ("wild", "wild.drawn", "wild.ranks", "wild.stands_for", "wild.alone",
                "wild.in_kickers", "combinations.<name>.wilds"):
        assert key in holds, key
    for rid in WILD:
        for name, spec in load(rid).overlay.get("combinations", {}).items():
            if "wilds" in spec:
                assert f'`"{spec["wilds"]}"` for `{name}` (' in holds["combinations.<name>.wilds"]
    shown = section(page, "## A variant with wild cards")
    (yaml_text,) = code_blocks(shown, "yaml")
    def introduces_wilds(rid: str) -> bool:
        base = load(rid).base
        return "wild" in load(rid).overlay and not (base and load(base).wild_drawn)

    first = next(rid for rid in RULESETS if introduces_wilds(rid))
    assert yaml_text == (ROOT / load(first).path).read_text(encoding="utf-8").rstrip() + "\n"


def test_the_open_hand_page_shows_deals_answered_and_bounds_never_counting_an_unknown(
        tmp_path: Path) -> None:
    """The Open-hand values page reads ``benchmarks/open_hand.json``: each ruleset's deals
    answered, its win rate over them, and bounds over every deal (a deal not answered is
    neither a win nor a loss); a ruleset with none answered shows no rate."""
    from ddz_rules.docs.open_hand import RESULTS, open_hand_page

    (tmp_path / RESULTS).parent.mkdir()
    fixture = ROOT / "tests" / "fixtures" / "open-hand" / "open_hand.json"
    (tmp_path / RESULTS).write_text(fixture.read_text())
    page = open_hand_page(tmp_path)
    two = next(line for line in page.splitlines() if line.startswith("| `two-player`"))
    assert "30 (75.0%)" in two and "90.0% [74.4, 96.5]" in two and "67.5% to 92.5%" in two
    assert "8.0% [2.2, 25.0] (2 of 25)" in two and "5,000,000" in two
    classic = next(line for line in page.splitlines() if line.startswith("| `classic`"))
    assert "0 (0.0%)" in classic and "0.0% to 100.0%" in classic
    assert "| none answered |" in classic and "| none answered both ways |" in classic
    assert ("--rulesets two-player:5000000,classic:1000000 --hands 40 --seed 0" in page
            and "`abc1234`" in page)
    run = json.loads(fixture.read_text())
    run["rows"][0].update(date="2026-12-06", commit="def5678")  # two-player run again alone
    (tmp_path / RESULTS).write_text(json.dumps(run))
    page = open_hand_page(tmp_path)
    assert ("--rulesets two-player:5000000 --hands 40 --seed 0` on 2026-12-06 (checkout "
            "`def5678`)" in page)
    assert "--rulesets classic:1000000 --hands 40 --seed 0` on " in page and "`abc1234`" in page
