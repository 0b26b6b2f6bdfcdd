"""Every card set the rules' prose names is an example, and the engine agrees with each one.

The convention, for every bundled ruleset (its merged document, so inherited prose is checked
against the ruleset whose page shows it):

- A card set in prose is card text: one unbroken run of at least two of the characters
  ``3-9 T J Q K A 2 B R``, which may be joined by ``+`` or ``-`` (``333+3`` is ``3333``), in any
  order. A number in digits followed by a count noun (``46 cards``, ``383 plays``, ``383 of
  them``) is a number.
- Every card set a prose text names is covered by an example attached to that text: for a rule
  point, a combination or a class, a list under its dotted key in the ruleset's top-level
  ``examples`` map; for an interpretation, its own ``examples`` list. The title, summary and
  source name no card sets (they cannot carry examples).
- An example states ``cards`` and ``reads``: every reading, ``type/length/rank``, with
  ``+KICKERS`` where the prose names the kickers, or ``[]`` for no play. It may add
  ``forbidden_by`` (the rule key the engine names), ``beats`` and ``does_not_beat`` (card sets),
  and ``assuming`` (rule point values that hold for this example only: the prose's "without
  this rule" case).
- A card set in prose is covered when it is an example's cards, a card set its ``beats`` or
  ``does_not_beat`` names, the kickers a reading states, or the body of a reading that states
  its kickers (the cards less those kickers). Every example's cards, and every card set it says
  it beats or not, must be named in its prose.
- An example belongs to the prose of the file that states it: a variant that rewrites a base's
  prose drops the base's examples of it and states its own, and a file states examples only
  for prose it writes.

Each rule is a test below; ``test_the_old_two_player_prose_carrying_666_is_caught`` shows the
check catching the wrong prose this convention was made for.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddz_rules import DdzError, bundled_ids, compile_table, load
from ddz_rules.cards import RANKS, parse
from ddz_rules.docs.book import lookup, rule_points
from ddz_rules.docs.rulesets import prose_examples
from ddz_rules.ruleset import Ruleset, bundled_paths
from ddz_rules.table import PlayTable

RULESETS = bundled_ids()

CARD = "[3-9TJQKA2BR]"
#: A run of card characters, maybe joined by + or -, not inside a word, a dotted or comma'd
#: number (1.2.0, 29,984) or a ``type/length/rank`` reading.
CARD_SET = re.compile(rf"(?<![\w.,/@+-]){CARD}+(?:[+-]{CARD}+)*(?![\w/]|[.,]\d)")
#: What follows a number that counts something.
COUNTED = re.compile(r"\s+(?:such\s+)?(?:cards?|plays?|card\s+sets?|hands?|players?|ranks?|"
                     r"points?|readings?|copies|of\s+them)\b")


def canonical(cards_text: str) -> str:
    return "".join(RANKS[r] for r in parse(cards_text))


def card_sets(prose: str) -> list[str]:
    """Every card set a prose text names, canonical, in order of appearance."""
    found = []
    for match in CARD_SET.finditer(prose):
        token = match.group(0)
        bare = token.replace("+", "").replace("-", "")
        if len(bare) < 2:
            continue
        if bare.isdigit() and COUNTED.match(prose, match.end()):
            continue
        found.append(canonical(token))
    return found


# --------------------------------------------------------------------------- prose and examples


@dataclass(frozen=True)
class Prose:
    """One piece of prose, where it sits, and the examples attached to it."""

    where: str
    text: str
    examples: tuple[Mapping[str, Any], ...]
    may_hold_examples: bool = True


def prose_of(ruleset: Ruleset) -> Iterator[Prose]:
    """Every piece of prose in a ruleset's merged document, with its examples."""
    data = ruleset.data
    by_key = prose_examples(ruleset)
    for point in rule_points(data):
        yield Prose(point.dotted, point.text, tuple(by_key.get(point.dotted, ())))
    for group in ("combinations", "classes"):
        for name, spec in data[group].items():
            key = f"{group}.{name}"
            yield Prose(key, str(spec["text"]), tuple(by_key.get(key, ())))
    for i, item in enumerate(data.get("interpretations", [])):
        text = "\n".join(str(item[k]) for k in ("question", "choice", "reason"))
        yield Prose(f"interpretations[{i}]", text, tuple(item.get("examples", ())))
    for where, text in (("title", data["title"]), ("summary", data["summary"]),
                        ("source.text", data["source"]["text"]),
                        ("source.about", data["source"]["about"])):
        yield Prose(where, str(text), (), may_hold_examples=False)


def split_reading(written: str) -> tuple[str, str | None]:
    """``type/length/rank+KICKERS`` as (``type/length/rank``, canonical kickers or None)."""
    short, plus, kickers = written.partition("+")
    return short, (canonical(kickers) if plus else None)


def less(cards_text: str, kickers: str) -> str:
    """The cards without the kickers (both canonical), or "" if the kickers are not in them."""
    left = Counter(canonical(cards_text))
    left.subtract(Counter(kickers))
    if any(n < 0 for n in left.values()):
        return ""
    return canonical("".join(ch * n for ch, n in left.items()))


def covers(example: Mapping[str, Any]) -> set[str]:
    """The card sets in prose that an example accounts for."""
    out = {canonical(example["cards"])}
    out |= {canonical(c) for c in [*example.get("beats", []), *example.get("does_not_beat", [])]}
    for written in example["reads"]:
        _, kickers = split_reading(written)
        if kickers:
            out.add(kickers)
            out.add(less(example["cards"], kickers))
    return out - {""}


def coverage_problems(ruleset: Ruleset) -> list[str]:
    """Card sets named in prose that no example covers, and examples their prose never names."""
    problems = []
    for key in ruleset.data.get("examples", {}):
        path = tuple(key.split("."))
        node = lookup(ruleset.data, path)
        if not (isinstance(node, Mapping) and "text" in node):
            problems.append(f"{ruleset.id}: examples.{key} names no prose")
            continue
        stated_in = ruleset.origins[("examples", key)][0]
        if stated_in == ruleset.path != ruleset.origins[(*path, "text")][0]:
            problems.append(f"{ruleset.id}: examples.{key} is stated for prose this file does "
                            f"not write; a file states examples for its own prose only")
    for prose in prose_of(ruleset):
        named = card_sets(prose.text)
        if named and not prose.may_hold_examples:
            problems.append(f"{ruleset.id}: {prose.where} names {', '.join(named)}; only rule "
                            f"prose and interpretations can carry examples")
            continue
        covered = set().union(*(covers(e) for e in prose.examples))
        for cards_text in named:
            if cards_text not in covered:
                problems.append(f"{ruleset.id}: {prose.where} names {cards_text}, which no "
                                f"example of it states (as cards, kickers or body of a reading)")
        for example in prose.examples:
            for cards_text in [example["cards"], *example.get("beats", []),
                               *example.get("does_not_beat", [])]:
                if canonical(cards_text) not in named:
                    problems.append(f"{ruleset.id}: {prose.where}: example {cards_text} is not "
                                    f"named in its prose")
    return problems


# --------------------------------------------------------------------------- the engine's say


@cache
def table_of(ruleset: Ruleset) -> PlayTable:
    return compile_table(ruleset)


_ASSUMED: dict[tuple[Ruleset, str], PlayTable] = {}
_SCRATCH = tempfile.TemporaryDirectory(prefix="ddz-prose-")


def nested(dotted: str, leaf: Any) -> dict[str, Any]:
    node: Any = leaf
    for key in reversed(dotted.split(".")):
        node = {key: node}
    return dict(node)


def merge(into: dict[str, Any], more: Mapping[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = value


def assumed_table(ruleset: Ruleset, assuming: Mapping[str, Any]) -> PlayTable:
    """The table of ``ruleset`` with some rule point values replaced: a variant of it, written
    beside its file (or, for a bundled ruleset, in a scratch folder extending it by id)."""
    cache_key = (ruleset, repr(sorted(assuming.items())))
    if cache_key not in _ASSUMED:
        bundled = bundled_paths().get(ruleset.id)
        own = Path(ruleset.path)
        if bundled is not None and not own.is_absolute():
            folder, base = Path(_SCRATCH.name), ruleset.id
        else:
            folder, base = own.parent, own.name
        doc: dict[str, Any] = {
            "id": f"{ruleset.id}-assuming", "extends": base, "title": "assumed",
            "summary": "A ruleset as one prose example assumes it.",
            "source": {"text": ruleset.id, "about": "tests/test_prose_examples.py"}}
        for key, value in assuming.items():
            merge(doc, nested(key, {"value": value, "text": "Assumed by a prose example."}))
        path = folder / f"assumed-{len(_ASSUMED)}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        _ASSUMED[cache_key] = compile_table(load(str(path)))
    return _ASSUMED[cache_key]


def shown(readings: Sequence[Any]) -> str:
    return ", ".join(f"{r.short()}+{r.kickers}" if r.kickers else r.short()
                     for r in readings) or "not a play"


def example_problems(ruleset: Ruleset, where: str, example: Mapping[str, Any]) -> list[str]:
    """What the engine says against one example; empty when it agrees."""
    assuming = example.get("assuming") or {}
    table = assumed_table(ruleset, assuming) if assuming else table_of(ruleset)
    label = f"{ruleset.id}: {where}: {example['cards']}" + (f" assuming {assuming}"
                                                             if assuming else "")
    try:
        key = table.key_of(example["cards"])
        wild = tuple(sorted(set(parse(example.get("wild", "")))))
    except DdzError as exc:
        return [f"{label}: {exc}"]
    found = table.readings(key, wild)
    engine = {r.short(): r.kickers for r in found}
    stated = [split_reading(r) for r in example["reads"]]
    problems = []
    if sorted(s for s, _ in stated) != sorted(engine):
        problems.append(f"{label}: the prose example reads {example['reads'] or 'not a play'}, "
                        f"the engine reads {shown(found)}")
    for short, kickers in stated:
        if kickers is not None and short in engine and engine[short] != kickers:
            problems.append(f"{label}: as {short} the kickers are {engine[short]}, not {kickers}")
    if "forbidden_by" in example:
        reason = table.explain(key, wild)
        if found or example["forbidden_by"] not in reason:
            problems.append(f"{label}: not forbidden by {example['forbidden_by']}: {reason}")
    for others, wanted_verdict in ((example.get("beats", []), True),
                                   (example.get("does_not_beat", []), False)):
        for other in others:
            try:
                verdict = table.play(example["cards"], wild).reading.beats(
                    table.play(other, wild).reading)
            except DdzError as exc:
                problems.append(f"{label}: cannot compare with {other}: {exc}")
                continue
            if verdict is not wanted_verdict:
                problems.append(f"{label}: {'does not beat' if wanted_verdict else 'beats'} "
                                f"{other}")
    return problems


def engine_problems(ruleset: Ruleset) -> list[str]:
    return [p for prose in prose_of(ruleset) for example in prose.examples
            for p in example_problems(ruleset, prose.where, example)]


def checked(ruleset: Ruleset) -> int:
    """How many examples a ruleset's prose carries (inherited ones included)."""
    return sum(len(prose.examples) for prose in prose_of(ruleset))


# --------------------------------------------------------------------------- the tests


@pytest.mark.parametrize(("prose", "expected"), [
    ("so 44445555 is not a play", ["44445555"]),
    ("three trios: 555666777 carrying 888", ["555666777", "888"]),
    ("May it be of the trio's own rank (333+3)?", ["3333"]),
    ("as in 4444BR.", ["4444BR"]),
    ("Pairs from 33 up to AA", ["33", "AA"]),
    ("A 4 lands on the player; two robs make 4 x 2 = 8 points", []),
    ("leaving 46 cards; its 383 such card sets; 27,471 plays; 29,984 of them", []),
    ("25,661 card sets, 383 of them separate actions", []),
    ("RLCard 1.2.0 and OpenSpiel 2.0.2 name airplane/4/6 and 333444555666@airplane/4/6",
     ["333444555666"]),
    ("Ace 1, 2 to 10 their face, J 11, Q 12, a trio of 2s, four 7s", []),
])
def test_card_sets_in_prose_are_found(prose: str, expected: list[str]) -> None:
    assert card_sets(prose) == expected


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_card_set_named_in_prose_is_an_example(ruleset_id: str) -> None:
    assert coverage_problems(load(ruleset_id)) == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_prose_example_is_what_the_engine_says(ruleset_id: str) -> None:
    assert engine_problems(load(ruleset_id)) == []


def test_prose_examples_are_checked_in_every_ruleset_that_names_cards() -> None:
    counts = {rid: checked(load(rid)) for rid in RULESETS}
    assert all(counts[rid] for rid in ("classic", "two-player", "marked-card", "open-auction",
                                       "turned-card", "rlcard", "douzero")), counts
    assert sum(counts.values()) >= 60, counts


OLD_TWO_PLAYER = ("No rank appears more than twice among a play's kickers. Without this, "
                  "555666777888 could be an airplane of four trios or one of three trios "
                  "carrying 666, two readings of different heights.")


def two_player_with(tmp_path: Path, text: str, examples: list[dict[str, Any]]) -> Ruleset:
    doc = {"id": "two-player-prose", "extends": "two-player", "title": "Prose under test",
           "summary": "Two-player rules with one rule's prose replaced.",
           "source": {"text": "tests", "about": "The prose examples test."},
           "kickers": {"max_copies_among_kickers": {"value": 2, "text": text}},
           "examples": {"kickers.max_copies_among_kickers": examples}}
    path = tmp_path / "two-player-prose.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return load(str(path))


def test_examples_for_prose_a_variant_inherits_are_refused(tmp_path: Path) -> None:
    doc = {"id": "inherits", "extends": "two-player", "title": "Inherited prose",
           "summary": "Examples stated for prose the base writes.",
           "source": {"text": "tests", "about": "The prose examples test."},
           "examples": {"kickers.may_match_body": [{"cards": "5555", "reads": ["bomb/1/5"]}]}}
    path = tmp_path / "inherits.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    problems = coverage_problems(load(str(path)))
    assert any("examples.kickers.may_match_body is stated for prose this file does not write"
               in p for p in problems), problems


def test_the_old_two_player_prose_carrying_666_is_caught(tmp_path: Path) -> None:
    # The examples the two-player ruleset states today, under the prose it had before: the
    # 666 the prose names is neither kickers nor body of any reading, so it is uncovered.
    today = prose_examples(load("two-player"))["kickers.max_copies_among_kickers"]
    ruleset = two_player_with(tmp_path, OLD_TWO_PLAYER, [dict(e) for e in today])
    assert engine_problems(ruleset) == []
    assert any("names 666" in p for p in coverage_problems(ruleset)), coverage_problems(ruleset)
    # And examples written to agree with the old prose: the engine refutes them.
    echo = [{"cards": "555666777888", "reads": ["airplane/4/8"]},
            {"cards": "555666777888", "assuming": {"kickers.max_copies_among_kickers": None},
             "reads": ["airplane/4/8", "airplane_singles/3/8+666"]}]
    ruleset = two_player_with(tmp_path, OLD_TWO_PLAYER, echo)
    assert coverage_problems(ruleset) == []
    problems = engine_problems(ruleset)
    assert any("the engine reads airplane/4/8, airplane_singles/3/7+888, "
               "airplane_singles/3/8+555" in p for p in problems), problems
    assert any("as airplane_singles/3/8 the kickers are 555, not 666" in p
               for p in problems), problems
