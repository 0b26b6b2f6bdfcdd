"""Reports on rulesets, shared by the ``ddz`` command and the rules book.

``check_report`` is what ``ddz check`` prints for one ruleset; ``diff_report`` is ``ddz diff``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ddz_rules import cards
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import PlayTable, compile_table

EXAMPLES = 5


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
    """Plays legal in one ruleset and not the other, and plays read differently."""

    def section(keys: Sequence[int], source: PlayTable) -> dict[str, Any]:
        by_type = Counter(r.type for k in keys for r in source.readings(k))
        return {"count": len(keys), "by_type": dict(sorted(by_type.items())),
                "examples": [cards.key_text(k) for k in keys[:examples]]}

    def signature(table: PlayTable, key: int) -> list[str]:
        return [r.short() for r in table.readings(key)]

    only_a = [k for k in a if k not in b.plays]
    only_b = [k for k in b if k not in a.plays]
    differ = [k for k in a if k in b.plays and signature(a, k) != signature(b, k)]
    return {
        "a": a.ruleset.id, "b": b.ruleset.id,
        "plays": {a.ruleset.id: len(a), b.ruleset.id: len(b)},
        "only_a": section(only_a, a),
        "only_b": section(only_b, b),
        "read_differently": {
            "count": len(differ),
            "examples": [{"cards": cards.key_text(k), a.ruleset.id: signature(a, k),
                          b.ruleset.id: signature(b, k)} for k in differ[:examples]],
        },
    }
