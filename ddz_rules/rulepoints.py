"""Rule points: every rule a ruleset states, as a flat list of named values with their prose.

A ruleset file is a tree; a *rule point* is one of its leaves that the referee runs: a
``{value, text}`` pair (``scoring.cap``), or a declared combination type or class (its fields
are the value, its ``text`` the prose). Flattening lets two rulesets be compared rule by rule,
which is what ``ddz diff`` shows and how a comparison explains measures that cannot differ.

>>> from ddz_rules.ruleset import load
>>> points = rule_points(load("classic"))
>>> points["scoring.cap"].value is None
True
>>> [p.key for p in differences(load("classic"), load("open-auction"))][:2]
['auction.family', 'auction.first_bidder']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ddz_rules.ruleset import Ruleset

#: Top-level keys that describe a ruleset rather than state a rule.
ABOUT = ("id", "title", "summary", "source", "interpretations", "extends", "examples")
#: Sections whose entries are each one rule point (their fields together are its value).
DECLARED = ("combinations", "classes")


@dataclass(frozen=True)
class RulePoint:
    """One rule: its dotted key, the value the referee runs, and the prose that states it."""

    key: str
    value: Any
    text: str

    @property
    def section(self) -> str:
        """The section the rule belongs to: ``auction``, ``scoring``, ``combinations`` ..."""
        return self.key.split(".", 1)[0]


def rule_points(ruleset: Ruleset) -> dict[str, RulePoint]:
    """Every rule point of a ruleset, by dotted key, in file order."""
    return {p.key: p for p in _walk(ruleset.data, ())}


def _walk(node: Mapping[str, Any], path: tuple[str, ...]) -> Iterator[RulePoint]:
    for key, value in node.items():
        if not path and key in ABOUT:
            continue
        here = (*path, key)
        if not isinstance(value, Mapping):
            continue
        if path and path[0] in DECLARED and len(path) == 1:
            fields = {k: v for k, v in value.items() if k != "text"}
            yield RulePoint(".".join(here), fields, str(value.get("text", "")))
        elif "value" in value and "text" in value:
            yield RulePoint(".".join(here), value["value"], str(value["text"]))
        else:
            yield from _walk(value, here)


def differences(a: Ruleset, b: Ruleset) -> list[RulePoint]:
    """The rule points whose value differs between ``a`` and ``b`` (as ``b`` states them),
    sorted by key; a point one ruleset lacks counts as different, with value ``None``."""
    pa, pb = rule_points(a), rule_points(b)
    keys = sorted(set(pa) | set(pb))
    missing = RulePoint("", None, "(not stated)")
    return [pb.get(k, RulePoint(k, None, missing.text)) for k in keys
            if pa.get(k, missing).value != pb.get(k, missing).value]
