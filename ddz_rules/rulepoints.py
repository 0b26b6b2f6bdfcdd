"""Rule points: every rule a ruleset states, as named values with their prose.

A *rule point* is a ``{value, text}`` pair of a ruleset's merged document: the value the
referee runs and the prose that states it (``scoring.cap``). :func:`every_rule` adds the
declared combination types and classes, each one rule whose fields are its value and whose
``text`` is its prose, so two rulesets can be compared rule by rule: what ``ddz diff`` shows,
and how a comparison explains measures that cannot differ.

>>> from ddz_rules.ruleset import load
>>> [p.dotted for p in rule_points(load("classic").data)][:3]
['players', 'deck.ranks', 'deck.copies']
>>> [p.dotted for p in differences(load("classic"), load("open-auction"))][:2]
['auction.family', 'auction.first_bidder']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ddz_rules.ruleset import Ruleset, inert_points

#: Keys of a ruleset document that are about the ruleset, not rules.
META_KEYS = ("id", "extends", "title", "summary", "source", "interpretations", "examples")
#: Sections whose entries are each one rule (their fields together are its value).
DECLARED = ("combinations", "classes")


@dataclass(frozen=True)
class RulePoint:
    """One rule: where it sits in the document, the value the referee runs, its prose."""

    path: tuple[str, ...]
    value: Any
    text: str

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


def is_point(node: Any) -> bool:
    """True for a ``{value, text}`` mapping."""
    return isinstance(node, Mapping) and set(node) == {"value", "text"}


def rule_points(data: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[RulePoint]:
    """Every ``{value, text}`` rule point under ``data``, in document order."""
    return list(_walk(data, prefix))


def _walk(node: Mapping[str, Any], prefix: tuple[str, ...]) -> Iterator[RulePoint]:
    for key, child in node.items():
        if not prefix and key in META_KEYS:
            continue
        path = (*prefix, str(key))
        if is_point(child):
            yield RulePoint(path, child["value"], str(child["text"]))
        elif isinstance(child, Mapping):
            yield from _walk(child, path)


def every_rule(ruleset: Ruleset) -> dict[str, RulePoint]:
    """Every rule of a ruleset by dotted key: its rule points, and each declared combination
    type and class as one rule."""
    data = ruleset.data
    found = {p.dotted: p for p in rule_points({k: v for k, v in data.items()
                                               if k not in DECLARED})}
    for section in DECLARED:
        for name, spec in data.get(section, {}).items():
            fields = {k: v for k, v in spec.items() if k != "text"}
            found[f"{section}.{name}"] = RulePoint((section, name), fields,
                                                   str(spec.get("text", "")))
    return found


def differences(a: Ruleset, b: Ruleset) -> list[RulePoint]:
    """The rules whose value differs between ``a`` and ``b``, as ``b`` states them, by key;
    a rule one ruleset lacks counts as different (value ``None``, text "(not stated)"), and
    a rule that has no effect in either (:func:`~ddz_rules.ruleset.inert_points`, or not
    stated) is no difference, whatever the values say."""
    rules_a, rules_b = every_rule(a), every_rule(b)
    unread = (set(inert_points(a)) | set(rules_b) - set(rules_a)) & (
        set(inert_points(b)) | set(rules_a) - set(rules_b))
    missing = RulePoint((), None, "(not stated)")
    return [rules_b.get(k, RulePoint(tuple(k.split(".")), None, missing.text))
            for k in sorted(set(rules_a) | set(rules_b))
            if k not in unread and rules_a.get(k, missing).value != rules_b.get(k, missing).value]
