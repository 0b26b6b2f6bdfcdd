"""Reports on rulesets, shared by the ``ddz`` command and the rules book.

``check_report`` is what ``ddz check`` prints for one ruleset; ``diff_report`` is ``ddz diff``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ddz_rules import cards
from ddz_rules.rulepoints import RulePoint, differences, every_rule
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import PlayTable, compile_table

EXAMPLES = 5
#: How :func:`changed_fields` shows a field that one side leaves to its default.
DEFAULT = "(default)"


def check_report(ruleset: Ruleset) -> dict[str, Any]:
    """What ``ddz check`` reports for one ruleset.

    A table too large to enumerate (:meth:`PlayTable.size_estimate` above
    :data:`~ddz_rules.table.MAX_READINGS`) is refused with a :class:`RulesetError` naming the
    ruleset and the estimate, before any of it is enumerated.
    """
    table = compile_table(ruleset)
    ambiguous = table.ambiguous()
    return {
        "ruleset": ruleset.id,
        "title": ruleset.title,
        "settlement": ruleset.settlement,
        "players": ruleset.players,
        "deck": ruleset.deck_size,
        "undealt": ruleset.undealt,
        "plays": len(table),
        "by_type": table.by_type(),
        "ambiguous": len(ambiguous),
        "ambiguous_examples": [
            {"cards": cards.key_text(k), "readings": [r.to_json() for r in table.readings(k)]}
            for k in ambiguous
        ],
    }


def diff_report(a: PlayTable, b: PlayTable, examples: int = EXAMPLES) -> dict[str, Any]:
    """Every rule that differs (both values and both texts), then the plays: card sets legal
    in one ruleset only, and card sets read differently.

    ``count`` counts card sets; ``readings_by_type`` counts their readings per type (a card
    set that reads two ways counts under both), so its sum can exceed ``count``; ``shown``
    says how many examples are listed of ``count``.
    """
    rules_a, rules_b = every_rule(a.ruleset), every_rule(b.ruleset)
    rules = []
    for point in differences(a.ruleset, b.ruleset):
        in_a, in_b = _stated(rules_a.get(point.dotted)), _stated(rules_b.get(point.dotted))
        rules.append({"key": point.dotted, "a": in_a, "b": in_b,
                      "changed": changed_fields(in_a["value"], in_b["value"])})

    def section(keys: Sequence[int], source: PlayTable) -> dict[str, Any]:
        by_type = Counter(r.type for k in keys for r in source.readings(k))
        shown = [cards.key_text(k) for k in keys[:examples]]
        return {"count": len(keys), "readings_by_type": dict(sorted(by_type.items())),
                "examples": shown, "shown": len(shown)}

    def signature(table: PlayTable, key: int) -> list[str]:
        return [r.short() for r in table.readings(key)]

    only_a = [k for k in a if k not in b.plays]
    only_b = [k for k in b if k not in a.plays]
    differ = [k for k in a if k in b.plays and signature(a, k) != signature(b, k)]
    shown = [{"cards": cards.key_text(k), a.ruleset.id: signature(a, k),
              b.ruleset.id: signature(b, k)} for k in differ[:examples]]
    return {
        "a": a.ruleset.id, "b": b.ruleset.id,
        "rules": rules,
        "plays": {a.ruleset.id: len(a), b.ruleset.id: len(b)},
        "only_a": section(only_a, a),
        "only_b": section(only_b, b),
        "read_differently": {"count": len(differ), "examples": shown, "shown": len(shown)},
    }


def _stated(point: RulePoint | None) -> dict[str, Any]:
    """A rule as one ruleset states it; ``stated`` is false where it does not state it."""
    if point is None:
        return {"value": None, "text": "(not stated)", "stated": False}
    return {"value": point.value, "text": point.text, "stated": True}


def changed_fields(a: Any, b: Any, prefix: str = "") -> list[dict[str, Any]]:
    """Where two values differ, field by field for mappings (a combination's ``length.max``);
    a field one side leaves out shows as ``"(default)"``.

    >>> changed_fields({"ranks": "3-A", "length": {"min": 5, "max": 12}},
    ...                {"ranks": "3-K", "length": {"min": 5, "max": 5}})
    [{'field': 'length.max', 'a': 12, 'b': 5}, {'field': 'ranks', 'a': '3-A', 'b': '3-K'}]
    """
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b)):
            found += changed_fields(a.get(key, DEFAULT), b.get(key, DEFAULT), f"{prefix}{key}.")
        return found
    return [] if a == b else [{"field": prefix.rstrip("."), "a": a, "b": b}]
