"""What every page generator shares: the bundled rulesets, compiled once, and their rule points
(:mod:`ddz_rules.rulepoints`, re-exported here for the page modules).

>>> book = Book()
>>> [p.dotted for p in rule_points(book.ruleset("classic").data)][:3]
['players', 'deck.ranks', 'deck.copies']
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from ddz_rules.reports import check_report
from ddz_rules.rulepoints import META_KEYS, RulePoint, is_point, rule_points
from ddz_rules.ruleset import Ruleset, bundled_ids, bundled_paths, load
from ddz_rules.table import PlayTable, compile_table

__all__ = ["META_KEYS", "PEER_PRESETS", "REFERENCE", "Book", "RulePoint", "is_point", "lookup",
           "repo_root", "rule_points"]

#: Rulesets that reproduce another engine's play set; ``classic`` is compared with each.
PEER_PRESETS = ("rlcard", "douzero", "openspiel")
#: The ruleset every other is measured against in the matrix.
REFERENCE = "classic"
def lookup(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """The node at ``path``, or None."""
    node: Any = data
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return None
        node = node[key]
    return node


def repo_root() -> Path:
    """The checkout this package sits in (where ``tests/fixtures`` and ``docs`` live)."""
    return Path(__file__).resolve().parents[2]


class Book:
    """The bundled rulesets with their compiled tables and check reports, computed once."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or repo_root()
        self.ids = bundled_ids()
        self._tables: dict[str, PlayTable] = {}
        self._checks: dict[str, dict[str, Any]] = {}
        self._by_type: dict[str, dict[str, list[int]]] = {}
        self._counts: dict[str, dict[str, int]] = {}

    def ruleset(self, ruleset_id: str) -> Ruleset:
        return load(ruleset_id)

    def table(self, ruleset_id: str) -> PlayTable:
        if ruleset_id not in self._tables:
            self._tables[ruleset_id] = compile_table(self.ruleset(ruleset_id))
        return self._tables[ruleset_id]

    def check(self, ruleset_id: str) -> dict[str, Any]:
        """``ddz check``'s report (:func:`ddz_rules.reports.check_report`)."""
        if ruleset_id not in self._checks:
            self._checks[ruleset_id] = check_report(self.ruleset(ruleset_id))
        return self._checks[ruleset_id]

    def counts(self, ruleset_id: str) -> dict[str, int]:
        """Plays per combination type (:meth:`ddz_rules.table.PlayTable.by_type`)."""
        if ruleset_id not in self._counts:
            self._counts[ruleset_id] = self.table(ruleset_id).by_type()
        return self._counts[ruleset_id]

    def keys_by_type(self, ruleset_id: str) -> dict[str, list[int]]:
        """The table's plays of each combination type, in table order."""
        if ruleset_id not in self._by_type:
            table = self.table(ruleset_id)
            found: dict[str, list[int]] = {c.name: [] for c in table.ruleset.combinations}
            for key in table:
                for name in dict.fromkeys(r.type for r in table.readings(key)):
                    found[name].append(key)
            self._by_type[ruleset_id] = found
        return self._by_type[ruleset_id]

    @cached_property
    def folders(self) -> dict[str, str]:
        """Each ruleset's folder: ``rules`` or ``variants``."""
        return {rid: path.parent.name for rid, path in bundled_paths().items()}

    def file_of(self, ruleset_id: str) -> Path:
        return bundled_paths()[ruleset_id]

    @property
    def presets(self) -> list[str]:
        return [p for p in PEER_PRESETS if p in self.ids]

    def group(self, ruleset_id: str) -> str:
        """Where a ruleset sits in the navigation."""
        if ruleset_id in PEER_PRESETS:
            return "Peer presets"
        return "Base rulesets" if self.folders[ruleset_id] == "rules" else "Variants"

    def pairs(self) -> list[tuple[str, str]]:
        """The pairs the differences page compares: each variant against its base, then
        ``classic`` against each peer preset (where that is not already a variant's pair)."""
        out: list[tuple[str, str]] = []
        for rid in self.ids:
            base = self.ruleset(rid).base
            if base is not None and rid not in PEER_PRESETS:
                out.append((base, rid))
        for preset in self.presets:
            if REFERENCE in self.ids and (REFERENCE, preset) not in out:
                out.append((REFERENCE, preset))
        return out
