"""The reference pages: the ``ddz`` command from its own parser, with examples run while the
site is built, and the hand record and ruleset file formats from their JSON Schemas."""

from __future__ import annotations

import argparse
import contextlib
import html
import io
import json
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ddz_rules.cli import build_parser, main
from ddz_rules.docs.book import Book, repo_root, rule_points
from ddz_rules.docs.render import code, code_nowrap, literal_braces, plural, table, wide
from ddz_rules.docs.templates import render
from ddz_rules.records import match_record_schema, record_schema, replay, to_record
from ddz_rules.ruleset import schema as ruleset_schema
from ddz_rules.simulate import hand_seed, play_random

#: Plain item types of a list, in the plural.
PLURALS = {"string": "strings", "integer": "integers", "number": "numbers", "boolean": "booleans"}


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommand parsers of ``ddz``, by name, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


_EXIT_CODES = re.compile(r"Exit codes: (.*)", re.S)


def exit_codes(parser: argparse.ArgumentParser) -> dict[int, str]:
    """The exit codes a parser's help states (its epilog, ``Exit codes: 0 what; 2 what``).

    >>> exit_codes(argparse.ArgumentParser(epilog="Exit codes: 0 fine (a; b); 2 bad."))
    {0: 'fine (a; b)', 2: 'bad'}
    """
    found = _EXIT_CODES.search(parser.epilog or "")
    if not found:
        return {}
    codes: dict[int, str] = {}
    # "; " ends a code's meaning only where the next code follows (a meaning may hold "; ")
    for part in re.split(r"; (?=\d+ )", " ".join(found.group(1).split()).rstrip(".")):
        code, _, meaning = part.partition(" ")
        codes[int(code)] = meaning
    return codes


# --------------------------------------------------------------------------- the CLI page

#: What a positional argument holds, where the parser gives it no help of its own (by its
#: metavar). An argument with neither fails the build: the table refuses an empty cell.
ARGUMENTS = {
    "CARDS": "the card set to read, as card text (`33344456`, `K K K 3`)",
    "PLAY": "the play, as card text",
    "PREVIOUS": "the play it must beat, as card text",
    "HAND": "the cards in the hand, as card text",
    "A": "a ruleset: a bundled id or a ruleset file",
    "B": "the ruleset to set against it: a bundled id or a ruleset file",
    "RECORD.json": "a hand record file (see [Hand records](records.md))",
    "RULESET": "the rulesets to compare: bundled ids or ruleset files",
    "INPUT": "a Botzone input file",
    "REPLAY": "the replay file to read: rlcard-showdown's replay JSON, or an RLCard trace",
}
#: How many values a positional takes, by its ``nargs``.
NARGS = {None: "", "?": "optional", "*": "zero or more", "+": "one or more"}


@dataclass(frozen=True)
class Example:
    """A command the CLI page runs while the site is built, and why it is shown."""

    argv: tuple[str, ...]
    note: str
    #: Show only the first lines, as ``| head -n N`` (for commands that print a great deal).
    head: int | None = None

    def command(self) -> str:
        line = "ddz " + " ".join(shlex.quote(a) for a in self.argv)
        return line + (f" | head -n {self.head}" if self.head else "")


#: The examples of each subcommand: real commands, run in-process by ``ddz_rules.cli.main``.
EXAMPLES: dict[str, tuple[Example, ...]] = {
    "rules": (Example(("rules",), "Every bundled ruleset, with its title"),),
    "check": (Example(("check", "classic"), "One ruleset, compiled and checked"),),
    "classify": (
        Example(("classify", "33344456"), "A play and its one reading"),
        Example(("classify", "44445555"),
                "A card set that is not a play: the answer names the rule that forbids it"),
        Example(("classify", "-r", "laizi", "--wild", "5", "3335"),
                "With wild cards (laizi, the 5s wild): one card set, two readings"),
        Example(("classify", "-r", "laizi", "--wild", "5", "3335@soft_bomb/1/3"),
                "The same cards with the reading named, as a player names it"),
    ),
    "beats": (
        Example(("beats", "KKK3", "QQQR"), "Two plays of one type: the main part decides"),
        Example(("beats", "3333", "AAA2"), "A bomb against an ordinary play"),
        Example(("beats", "-r", "laizi", "--wild", "5", "3333", "5222@soft_bomb/1/2"),
                "With wild cards: a hard bomb against a soft bomb of a higher rank"),
    ),
    "moves": (Example(("moves", "55556", "--beat", "KKK"),
                      "The only answer to a trio of kings from this hand"),),
    "plays": (Example(("plays", "-r", "classic"), "The first lines of the table", head=3),),
    "solve": (Example(("solve", "-r", "classic", "--hands", "3 4 5 6 7 8/9 9/10 10 J", "--to",
                       "1", "--beat", "2", "--by", "0"),
                      "Three open hands, a peasant to answer the landlord's 2: lost, whatever "
                      "he plays (the last line, not shown, says how many positions were "
                      "searched, and how fast)", head=3),
              Example(("solve", "-r", "puzzle", "--hands", "A 2/3 3", "--to", "1"),
                      "A two-seat puzzle won at once", head=3),
              Example(("solve", "-r", "run-fast", "--hands", "3 Q A/6 Q/3 J Q 2", "--to", "0",
                       "--first"),
                      "Run Fast's first play must hold the 3 of spades: free to lead, seat 0 "
                      "would go out first by leading the queen or the ace; as the hand's "
                      "first play he cannot", head=3),
              Example(("solve", "-r", "two-player", "--deal", "4", "--rest-positions",
                       "1000"),
                      "A seeded whole deal, the first bidder taking the kitty and leading as "
                      "the landlord: the deal first, as `--hands` takes it, then its answer "
                      "(the winning plays found within a thousand positions more)", head=3)),
    "diff": (Example(("diff", "classic", "turned-card"), "A variant against its base"),),
    "replay": (
        Example(("replay", "tests/fixtures/records/s3-bid-3-two-bombs.json"),
                "A valid record: the worked example of source text 003"),
        Example(("replay", "tests/fixtures/records/bad/leader-passes.json"),
                "A record with an illegal action"),
    ),
    "export": (Example(("export", "tests/fixtures/records/s3-bid-3-two-bombs.json"),
                       "A hand record as rlcard-showdown's replay (one line of JSON; see "
                       "[Other projects' formats](formats.md))"),),
    "import": (Example(("import", "--format", "rlcard-trace",
                        "tests/fixtures/showdown/trace.json"),
                       "RLCard's trace of a game as a hand record of RLCard's rules, which "
                       "`ddz replay` judges"),),
    "botzone": (Example(("botzone", "tests/fixtures/botzone/ftl1-forced-pass.json"),
                        "A peasant's first turn after the landlord led the rocket: a pass "
                        "(see [Other projects' formats](formats.md#botzone))"),),
    "deals": (Example(("deals", "check", "tests/fixtures/dealsets/douzero-eval.pkl"),
                      "DouZero's evaluation deals, read as the classic rules deal them"),),
    "simulate": (Example(("simulate", "-r", "classic", "--hands", "200", "--seed", "1"),
                         "Random legal play, summarised"),),
    "compare": (Example(("compare", "classic", "open-auction", "--hands", "100", "--bots",
                         "random", "--seed", "1", "--csv"),
                        "A small run as CSV, its first lines; without `--csv` the same figures "
                        "print as a table, and [Comparisons](../compare/comparisons.md) shows "
                        "a larger run's tables", head=4),),
    "match": (Example(("match", "--bots", "random", "--seed", "1"),
                      "One match of the classic rules, hand by hand"),),
    "rate": (Example(("rate", "--levels", "standard,medium", "--matches", "36", "--seed", "1"),
                     "Two levels rated from two seating cycles of classic matches"),),
    "play": (Example(("play", "--autoplay", "--seed", "1", "--no-save"),
                     "A hand played out by bots in every seat, yours by the hint level (without "
                     "`--autoplay` you play your seat in the terminal app)"),),
}


def run_example(example: Example, root: Path) -> tuple[int, str]:
    """Run an example as ``ddz`` would from ``root``: its exit code and what it printed
    (standard output and error together, each line without trailing blanks)."""
    out = io.StringIO()
    with contextlib.chdir(root), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(out):
        code = main(list(example.argv))
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    return code, "\n".join(lines[:example.head] if example.head else lines).rstrip()


def as_argparse_shows(parser: argparse.ArgumentParser, text: str | None) -> str:
    """A description as ``--help`` prints it: argparse %-formats it only if it names
    ``%(prog)``."""
    text = text or ""
    return text % {"prog": parser.prog} if "%(prog)" in text else text


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(parser.prog, width=10_000)


def usage(parser: argparse.ArgumentParser) -> str:
    """The usage line, on one line (the page wraps it)."""
    return " ".join(parser.format_usage().split()).removeprefix("usage: ")


def argument_rows(parser: argparse.ArgumentParser) -> list[list[str]]:
    """One row per argument and option, from the parser itself: how it is written, what it
    holds (its help as ``--help`` prints it) and its default."""
    formatter = _formatter(parser)
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        written = formatter._format_action_invocation(action)
        if action.help:
            what = formatter._expand_help(action)
        else:
            what = ARGUMENTS[str(action.metavar or action.dest)]
        if not action.option_strings:
            many = NARGS.get(action.nargs if isinstance(action.nargs, str) else None, "")
            what = f"{many}: {what}" if many else what
            default = "required" if action.nargs in (None, "+") else "optional"
        elif isinstance(action, argparse._StoreTrueAction | argparse._StoreFalseAction):
            default = "off"
        elif action.default is None:
            default = "none"
        else:
            default = code_nowrap(str(action.default))
        rows.append([code_nowrap(written), what[:1].upper() + what[1:], default])
    return rows


def wrapped(block: str) -> str:
    """A console block whose long lines wrap instead of scrolling out of sight."""
    return f'<div class="wrap-lines" markdown>\n\n{block}\n\n</div>'


def examples_md(name: str, root: Path) -> str:
    """A subcommand's examples, each run now, with what it printed and its exit code (none
    for a subcommand that has none yet: the tests ask for at least one)."""
    parts = []
    for example in EXAMPLES.get(name, ()):
        code, output = run_example(example, root)
        parts.append(f"{example.note} (exit code {code}):")
        parts.append(wrapped(f"```console\n$ {example.command()}\n{output}\n```"))
    return "\n\n".join(parts)


def cli_page(root: Path | None = None) -> str:
    """``using/cli.md``: per subcommand, what it does, its arguments and options, its exit
    codes, and examples run while the site is built."""
    root = root or repo_root()
    parser = build_parser()
    subs = subcommands(parser)
    choices = {a.dest: _formatter(parser)._expand_help(a) for action in parser._actions
               if isinstance(action, argparse._SubParsersAction)
               for a in action._choices_actions}
    parts = ["# The ddz command",
             "`ddz` reads, checks and referees any ruleset: a bundled id (`ddz rules` lists "
             "them) or a ruleset file, given with `-r`. Every subcommand takes `--json` for "
             "output a program can read, and `-h` or `--help` for its help. Cards are written "
             "by rank, `3 4 5 6 7 8 9 T J Q K A 2`, `B` the small joker and `R` the big joker; "
             "input also takes `10`, lower case, and spaces, commas, dashes or plus signs "
             "between cards. Every table below is read from the command's own parser, and "
             "every example was run while this page was built.",
             "An error is one line on standard error, `ddz: error: ...`, naming what is at "
             "fault. The exit codes, which each command's help states for itself:",
             table(["Exit code", "Meaning"],
                   [[f"`{code}`", literal_braces(meaning)]
                    for code, meaning in exit_codes(parser).items()])]
    rows = [[f"[{code_nowrap(f'ddz {name}')}](#ddz-{name})", choices.get(name) or
             as_argparse_shows(sub, sub.description)] for name, sub in subs.items()]
    parts.append(table(["Command", "What it does"], rows))
    for name, sub in subs.items():
        codes = "; ".join(f"{code} {literal_braces(meaning)}"
                          for code, meaning in exit_codes(sub).items())
        parts += [f"## ddz {name}",
                  as_argparse_shows(sub, sub.description),
                  wrapped(f"```text\n{usage(sub)}\n```"),
                  wide(table(["Argument or option", "What it is", "Default"],
                             argument_rows(sub)), "wide-table arguments"),
                  f"Exit codes: {codes}."]
        shown = examples_md(name, root)
        parts += [shown] if shown else []
    return "\n\n".join(parts) + "\n"


# --------------------------------------------------------------------------- schemas


@dataclass(frozen=True)
class Field:
    """One key of a schema, flattened: its dotted path, whether required, what it holds."""

    path: str
    required: bool
    what: str


def _resolve(node: Mapping[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    """A schema node with its ``$ref`` merged in (properties merged key by key)."""
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return dict(node)
    target = _resolve(root["$defs"][ref.split("/")[-1]], root)
    merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    props = dict(target.get("properties", {}))
    for key, sub in node.get("properties", {}).items():
        base = props.get(key)
        props[key] = {**base, **sub} if isinstance(base, dict) and isinstance(sub, dict) else sub
    if props:
        merged["properties"] = props
    return merged


def _describe(node: Mapping[str, Any] | bool, root: Mapping[str, Any]) -> str:
    """What a leaf holds, in words (``true`` in a schema accepts anything)."""
    if isinstance(node, bool) or not node:
        return "any value"
    node = _resolve(node, root)
    if "enum" in node:
        return "one of " + ", ".join(code(json.dumps(v)) for v in node["enum"])
    kinds = node.get("type")
    names = kinds if isinstance(kinds, list) else [kinds] if kinds else []
    words = " or ".join("null" if k == "null" else k for k in names) or "a value"
    limits = []
    if "minimum" in node:
        limits.append(f"at least {node['minimum']}")
    if "maximum" in node:
        limits.append(f"at most {node['maximum']}")
    if "minLength" in node:
        limits.append(f"at least {plural(node['minLength'], 'character')}")
    if "maxLength" in node:
        limits.append(f"at most {plural(node['maxLength'], 'character')}")
    if "pattern" in node:
        limits.append(f"matching {code(node['pattern'])}")
    if "minItems" in node:
        limits.append(f"at least {plural(node['minItems'], 'item')}")
    if names == ["array"] and "items" in node:
        item = _describe(node["items"], root)
        words = "a list of " + PLURALS.get(item, item)
    if names == ["object"] and isinstance(node.get("additionalProperties"), dict):
        words = "a mapping of names to " + _describe(node["additionalProperties"], root)
    return words + (f" ({', '.join(limits)})" if limits else "")


def _is_point(node: Mapping[str, Any]) -> bool:
    props = node.get("properties", {})
    return set(props) == {"value", "text"}


def fields(schema: Mapping[str, Any]) -> list[Field]:
    """Every key of a schema, depth first, with ``<name>`` for free-form keys."""
    return list(_fields(schema, schema, "", required=True))


def _fields(node: Mapping[str, Any], root: Mapping[str, Any], path: str,
            required: bool) -> Iterator[Field]:
    node = _resolve(node, root)
    description = node.get("description", "")
    if _is_point(node):
        value = _describe(node["properties"]["value"], root)
        prose = _describe(node["properties"]["text"], root).removeprefix("string")
        what = f"a rule point: `value` is {value}; `text` is its prose{prose}"
        yield Field(path, required, _sentence(what, description))
        return
    props = node.get("properties")
    extra = node.get("additionalProperties")
    items = node.get("items")
    if isinstance(props, dict) and props:
        if path:
            yield Field(path, required, _sentence("a mapping", description))
        needed = set(node.get("required", []))
        for key, sub in props.items():
            yield from _fields(sub, root, f"{path}.{key}" if path else key, key in needed)
        if isinstance(extra, dict):
            yield from _fields(extra, root, f"{path}.<name>", False)
        return
    if isinstance(extra, dict) and _resolve(extra, root).get("properties"):
        yield Field(path, required, _sentence("a mapping of names", description))
        yield from _fields(extra, root, f"{path}.<name>", False)
        return
    if isinstance(items, dict) and _resolve(items, root).get("properties"):
        yield Field(path, required, _sentence("a list", description))
        yield from _fields(items, root, f"{path}[]", False)
        return
    yield Field(path, required, _sentence(_describe(node, root), description))


def _sentence(what: str, description: str) -> str:
    what = what[:1].upper() + what[1:]
    return literal_braces(f"{what}. {description}" if description else f"{what}.")


def key_html(path: str) -> str:
    """A dotted key as code that may break after a dot or an underscore; ``<name>`` in it is
    text, not a tag.

    >>> key_html("classes.<name>.event")
    '<code>classes.<wbr>&lt;name&gt;.<wbr>event</code>'
    """
    return "<code>" + re.sub(r"([._])", r"\1<wbr>", html.escape(path)) + "</code>"


def fields_table(schema: Mapping[str, Any], notes: Mapping[str, str] | None = None) -> str:
    """Every key of a schema with what it holds; ``notes`` adds a sentence to a key's row."""
    def need(f: Field) -> str:
        return "each item" if f.path.endswith("[]") else "required" if f.required else "optional"

    notes = notes or {}
    rows = [[f"{key_html(f.path)}<br><small>{need(f)}</small>",
             f"{f.what} {notes[f.path]}" if f.path in notes else f.what]
            for f in fields(schema)]
    return table(["Key", "Holds"], rows)


#: Rule points whose bundled values are listed only while they take at most this many values.
FEW_VALUES = 4


def _who(ids: list[str]) -> str:
    """Which bundled rulesets: their ids when few, else how many."""
    return ", ".join(ids) if len(ids) <= 3 else plural(len(ids), "ruleset")


def bundled_notes(book: Book) -> dict[str, str]:
    """For the format page: how the bundled rulesets set each rule point that differs between
    them (where it takes only a few values), and which classes name a multiplier event other
    than their own name (``classes.<name>.event``). Read from the rulesets, never written."""
    values: dict[str, dict[str, list[str]]] = {}
    for rid in book.ids:
        for point in rule_points(book.ruleset(rid).data):
            if point.dotted.startswith(("combinations.", "classes.")):
                continue
            shown = code(json.dumps(point.value))
            values.setdefault(point.dotted, {}).setdefault(shown, []).append(rid)
    notes: dict[str, str] = {}
    for dotted, found in values.items():
        if 1 < len(found) <= FEW_VALUES:
            ordered = sorted(found.items(), key=lambda kv: -len(kv[1]))
            parts = [f"{value} in {_who(ids) if i else plural(len(ids), 'ruleset')}"
                     for i, (value, ids) in enumerate(ordered)]
            notes[dotted] = "In the bundled rulesets: " + "; ".join(parts) + "."
    events: dict[tuple[str, str], list[str]] = {}
    for rid in book.ids:
        ruleset = book.ruleset(rid)
        if ruleset.base is not None and book.ruleset(ruleset.base).data["classes"] == \
                ruleset.data["classes"]:
            continue  # a variant that inherits its base's classes says nothing new
        for name, klass in ruleset.data["classes"].items():
            if "event" in klass and klass["event"] != name:
                events.setdefault((rid, str(klass["event"])), []).append(f"`{name}`")
    wilds: dict[str, dict[str, list[str]]] = {}
    for rid in book.ids:
        for name, spec in book.ruleset(rid).overlay.get("combinations", {}).items():
            if isinstance(spec, Mapping) and "wilds" in spec:
                wilds.setdefault(str(spec["wilds"]), {}).setdefault(name, []).append(rid)
    if wilds:
        stated = [f"{code(json.dumps(value))} for " + ", ".join(
                      f"`{name}` ({', '.join(ids)})" for name, ids in names.items())
                  for value, names in wilds.items()]
        notes["combinations.<name>.wilds"] = (
            "In the bundled rulesets: " + "; ".join(stated) + "; a variant that extends one "
            "of these keeps its types' `wilds`, and every other type takes the default "
            "`\"any\"`.")
    if events:
        notes["classes.<name>.event"] = "In the bundled rulesets: " + "; ".join(
            f"in {rid}, the classes {', '.join(names[:-1])} and {names[-1]} all count as the "
            f"event `{event}`" if len(names) > 1 else
            f"in {rid}, the class {names[0]} counts as the event `{event}`"
            for (rid, event), names in events.items()) + "; every other class is its own event."
    return notes


def records_page(book: Book) -> str:
    """``using/records.md``: the hand record format, and a record the engine wrote."""
    schema = record_schema()
    ruleset = book.ruleset("classic" if "classic" in book.ids else book.ids[0])
    seed = 0
    hand = play_random(ruleset, hand_seed(seed, 0), dealer=0)
    record = to_record(hand)
    outcome = replay(json.loads(json.dumps(record)))
    assert outcome.valid, outcome.reason
    nones = [f"`{rid}`" for rid in book.ids if book.ruleset(rid).auction_family == "none"]
    return render(
        "records.md.j2", schema_description=literal_braces(schema["description"]),
        fields=fields_table(schema),
        no_auction=f", as {' and '.join(nones)}" if nones else "", ruleset=ruleset.id,
        seed=seed, record=json.dumps(record, indent=1, ensure_ascii=False),
        match_description=literal_braces(match_record_schema()["description"]),
        match_fields=fields_table(match_record_schema()))


def _has_wilds(book: Book, ruleset_id: str | None) -> bool:
    return ruleset_id is not None and bool(book.ruleset(ruleset_id).wild_drawn)


def ruleset_format_page(book: Book) -> str:
    """``using/ruleset-format.md``: the ruleset file format from its JSON Schema."""
    schema = ruleset_schema()
    example = "marked-card" if "marked-card" in book.ids else book.ids[-1]
    path = book.file_of(example)
    parts = ["# Ruleset files",
             f"{literal_braces(schema['description'])} Generated from "
             f"`ddz_rules/schema/ruleset.schema.json`.",
             "A complete ruleset (in `rules/`) needs every required key below. A variant (in "
             "`variants/`, or any file with `extends`) needs only `id`, `title`, `summary` "
             "and `source`, and states only what changes: mappings merge key by key, anything "
             "else (a rule point, the list of interpretations) replaces the base's. A rule "
             "point always states both its value and its prose.",
             "## Keys", fields_table(schema, bundled_notes(book)),
             f"## A variant file\n\n`{book.folders[example]}/{path.name}`, whole:",
             "```yaml\n" + path.read_text(encoding="utf-8").rstrip() + "\n```"]
    wild = next((rid for rid in book.ids if "wild" in book.ruleset(rid).overlay
                 and not _has_wilds(book, book.ruleset(rid).base)), None)
    if wild is not None:
        wild_path = book.file_of(wild)
        parts += ["## A variant with wild cards",
                  f"`{book.folders[wild]}/{wild_path.name}`, whole: its `wild` section says how "
                  f"many wild ranks a hand has and when each is drawn (`wild.drawn`), which "
                  f"ranks may be wild (`wild.ranks`), what a wild may stand for "
                  f"(`wild.stands_for`), what it is alone (`wild.alone`) and as a kicker "
                  f"(`wild.in_kickers`); "
                  f"each combination type's `wilds` says which wild cards its main part may "
                  f"hold, and the types made only with wild cards get classes of their own. "
                  f"A ruleset with wild cards must let its players name a reading "
                  f"(`readings.settlement: declared`). Its page: [{wild}](../rulesets/{wild}.md).",
                  "```yaml\n" + wild_path.read_text(encoding="utf-8").rstrip() + "\n```"]
    parts.append("How to write one, step by step: [Write a variant](new-variant.md).")
    return "\n\n".join(parts) + "\n"
