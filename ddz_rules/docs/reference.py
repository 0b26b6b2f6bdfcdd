"""The reference pages: the ``ddz`` command from its own help, and the hand record and ruleset
file formats from their JSON Schemas."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ddz_rules.cli import build_parser
from ddz_rules.docs.book import Book
from ddz_rules.docs.render import code, literal_braces, table
from ddz_rules.records import record_schema, replay, to_record
from ddz_rules.ruleset import schema as ruleset_schema
from ddz_rules.simulate import hand_seed, play_random

#: Plain item types of a list, in the plural.
PLURALS = {"string": "strings", "integer": "integers", "number": "numbers", "boolean": "booleans"}
#: Width of the help text on the page, whatever the terminal.
HELP_WIDTH = 88


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=HELP_WIDTH)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommand parsers of ``ddz``, by name, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


_PERCENT = re.compile(r"%%|%\(|%")


def _escape_percent(text: str) -> str:
    """Escape a lone ``%`` for argparse's %-formatting of help (idempotent)."""
    return _PERCENT.sub(lambda m: m.group(0) if m.group(0) in ("%%", "%(") else "%%", text)


def help_text(parser: argparse.ArgumentParser) -> str:
    """A parser's ``--help`` at a fixed width.

    A lone ``%`` in a help string would break argparse's formatting (it is a format
    character there), so each help string is escaped first; a correct one is left as it is.
    """
    parser.formatter_class = _Formatter
    for action in parser._actions:
        if action.help:
            action.help = _escape_percent(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = _escape_percent(choice.help)
    return parser.format_help().rstrip()


_EXIT_CODES = re.compile(r"Exit codes: (.*)", re.S)


def exit_codes(parser: argparse.ArgumentParser) -> dict[int, str]:
    """The exit codes a parser's help states (its epilog, ``Exit codes: 0 what; 2 what``)."""
    found = _EXIT_CODES.search(parser.epilog or "")
    if not found:
        return {}
    codes: dict[int, str] = {}
    for part in " ".join(found.group(1).split()).rstrip(".").split("; "):
        code, _, meaning = part.partition(" ")
        codes[int(code)] = meaning
    return codes


def cli_page() -> str:
    """``using/cli.md``: each subcommand's own help."""
    parser = build_parser()
    subs = subcommands(parser)
    parts = ["# The ddz command",
             "Generated from the command's own `--help`. Every subcommand takes `--json`. An "
             "error is one line on standard error, `ddz: error: ...`, naming what is at fault. "
             "The exit codes, which each command's help states for itself:",
             table(["Exit code", "Meaning"],
                   [[f"`{code}`", literal_braces(meaning)]
                    for code, meaning in exit_codes(parser).items()]),
             f"```text\n$ ddz --help\n{help_text(parser)}\n```"]
    rows = [[f"[`ddz {name}`](#ddz-{name})", sub.description or name]
            for name, sub in subs.items()]
    parts.append(table(["Command", "What it does"], rows))
    for name, sub in subs.items():
        parts.append(f"## ddz {name}\n\n{sub.description}\n\n"
                     f"```text\n$ ddz {name} --help\n{help_text(sub)}\n```")
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
        n = node["minLength"]
        limits.append(f"at least {n} character{'' if n == 1 else 's'}")
    if "maxLength" in node:
        n = node["maxLength"]
        limits.append(f"at most {n} character{'' if n == 1 else 's'}")
    if "pattern" in node:
        limits.append(f"matching {code(node['pattern'])}")
    if "minItems" in node:
        limits.append(f"at least {node['minItems']} items")
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
    """A dotted key as code that may break after a dot or an underscore."""
    return "<code>" + re.sub(r"([._])", r"\1<wbr>", path) + "</code>"


def fields_table(schema: Mapping[str, Any]) -> str:
    def need(f: Field) -> str:
        return "each item" if f.path.endswith("[]") else "required" if f.required else "optional"

    rows = [[f"{key_html(f.path)}<br><small>{need(f)}</small>", f.what] for f in fields(schema)]
    return table(["Key", "Holds"], rows)


def records_page(book: Book) -> str:
    """``using/records.md``: the hand record format, and a record the engine wrote."""
    schema = record_schema()
    ruleset = book.ruleset("classic" if "classic" in book.ids else book.ids[0])
    seed = 0
    hand = play_random(ruleset, hand_seed(seed, 0), dealer=0)
    record = to_record(hand)
    outcome = replay(json.loads(json.dumps(record)))
    assert outcome.valid, outcome.reason
    parts = ["# Hand records",
             f"{literal_braces(schema['description'])} `ddz simulate --records DIR` writes "
             f"one record per hand and `ddz replay RECORD.json` checks it action by action: "
             "a record that breaks a rule is reported with the index of the first illegal "
             "action and a one-line reason. Generated from "
             "`ddz_rules/schema/record.schema.json`.",
             "## Fields", fields_table(schema),
             "Card text is canonical, low to high: `3 4 5 6 7 8 9 T J Q K A 2 B R`, `B` the "
             "small joker and `R` the big joker. Seats are numbered from 0 in playing order; "
             "the auction words are those of the ruleset's auction family.",
             "## A record written by the engine",
             f"The first hand of `ddz simulate -r {ruleset.id} --hands 1 --seed {seed} "
             f"--records hands`, as written to `hands/{ruleset.id}-{seed}-000000.json` "
             f"(indented here):",
             "```json\n" + json.dumps(record, indent=1, ensure_ascii=False) + "\n```",
             "`ddz replay` on this record recomputes the result and finds it valid."]
    return "\n\n".join(parts) + "\n"


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
             "## Keys", fields_table(schema),
             f"## A variant file\n\n`{book.folders[example]}/{path.name}`, whole:",
             "```yaml\n" + path.read_text(encoding="utf-8").rstrip() + "\n```",
             "How to write one, step by step: [Write a variant](new-variant.md)."]
    return "\n\n".join(parts) + "\n"
