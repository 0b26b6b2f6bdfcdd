"""Reports on rulesets, shared by the ``ddz`` command and the rules book.

``check_report`` is what ``ddz check`` prints for one ruleset (``sampled_report`` where the
table is too large to enumerate); ``diff_report`` is ``ddz diff``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ddz_rules import cards
from ddz_rules.rulepoints import RulePoint, differences, every_rule
from ddz_rules.ruleset import Ruleset, inert_points
from ddz_rules.table import MAX_READINGS, PlayTable, compile_table, table_order

EXAMPLES = 5
#: Plays :func:`sampled_report` draws at random from a table too large to enumerate.
SAMPLE_PLAYS = 20_000
#: Random hands of the most cards a seat holds whose plays :func:`sampled_report` counts.
SAMPLE_HANDS = 200
#: Card sets holding wild cards that :func:`wild_readings` draws at random.
WILD_SAMPLE = 400
#: How :func:`changed_fields` shows a field that one side leaves to its default.
DEFAULT = "(default)"


def _heading(ruleset: Ruleset) -> dict[str, Any]:
    """What every ``ddz check`` report starts with: the ruleset, its deck and its claim."""
    return {"ruleset": ruleset.id, "title": ruleset.title, "settlement": ruleset.settlement,
            "players": ruleset.players, "deck": ruleset.deck_size, "undealt": ruleset.undealt}


def check_report(ruleset: Ruleset) -> dict[str, Any]:
    """What ``ddz check`` reports for one ruleset.

    Loading has checked the file against the schema and the deal, and compiling has checked
    that every combination type can be formed and every card is a play by itself. A table
    within :data:`~ddz_rules.table.MAX_READINGS` (:meth:`PlayTable.size_estimate`) is then
    enumerated and checked exhaustively: ``plays`` and ``by_type`` count card sets, and
    ``ambiguous_examples`` lists every play with several readings.

    A larger table is not enumerated (``enumerated`` false), and the report says what was
    checked instead, in bounded time and memory (:func:`sampled_report`).
    """
    table = compile_table(ruleset)
    if table.size_estimate() > MAX_READINGS:
        return sampled_report(table)
    ambiguous = table.ambiguous()
    return {
        **_heading(ruleset),
        **({"wilds": wild_readings(table)} if ruleset.wild_drawn else {}),
        "enumerated": True,
        "plays": len(table),
        "by_type": table.by_type(),
        "ambiguous": len(ambiguous),
        "ambiguous_examples": [
            {"cards": cards.key_text(k), "readings": [r.to_json() for r in table.readings(k)]}
            for k in ambiguous
        ],
    }


def wild_readings(table: PlayTable, sets: int = WILD_SAMPLE) -> dict[str, Any]:
    """How card sets holding wild cards read, measured on a sample: the play table, and so
    the exhaustive check of readings, holds natural cards only, and the card sets with wilds
    are too many to list (each natural play with any of its cards swapped for wilds, under
    each wild rank).

    Each of ``sets`` card sets is a play of the table, drawn at random, with one to four of
    its cards (not of the wild rank) swapped for cards of a wild rank drawn for the hand,
    seeded by the ruleset's id so the report is the same every time. ``plays`` counts those
    that are plays, ``several`` those that read more than one way, and ``example`` is the
    first of them, with its readings.
    """
    ruleset = table.ruleset
    rng = random.Random(f"{ruleset.id}/wilds")
    keys = sorted(table.plays, key=table_order)
    drawn = plays = several = 0
    example: dict[str, Any] | None = None
    while drawn < sets and keys:
        key = rng.choice(keys)
        wild = tuple(sorted(rng.sample(ruleset.wild_ranks, len(ruleset.wild_drawn))))
        rank = rng.choice(wild)
        counts = list(cards.unpack(key))
        natural = [r for r in cards.ranks_of(key) if r != rank]
        swapped = min(ruleset.copies[rank] - counts[rank], len(natural), rng.randint(1, 4))
        if swapped < 1:
            continue
        for r in rng.sample(natural, swapped):
            counts[r] -= 1
            counts[rank] += 1
        drawn += 1
        readings = table.readings(cards.pack(counts), wild)
        plays += bool(readings)
        if len(readings) > 1:
            several += 1
            if example is None:
                example = {"cards": cards.key_text(cards.pack(counts)),
                           "wild": "".join(cards.RANKS[r] for r in wild),
                           "readings": [r.to_json() for r in readings]}
    return {"sets": drawn, "plays": plays, "several": several, "example": example}


def sampled_report(table: PlayTable, plays: int | None = None,
                   hands: int | None = None) -> dict[str, Any]:
    """:func:`check_report` for a table too large to enumerate: counted and sampled instead,
    in bounded time and memory, never enumerated (``enumerated`` is false).

    - ``readings``, ``by_type``: the table's readings, in all and per type, counted
      combinatorially from its bodies (:meth:`PlayTable.size_by_type`); ``plays`` (card sets) is
      null. The count is exact where ``uncounted_rules`` is empty, else an upper bound: those
      whole-play kicker rules are not applied.
    - ``sample``: ``plays`` plays (default :data:`SAMPLE_PLAYS`) drawn uniformly over the
      readings (:meth:`PlayTable.sample_plays`), seeded by the ruleset's id so the report is
      the same every time, and each card set read afresh from its cards
      (:meth:`PlayTable.read`, which never enumerates). ``ambiguous`` and
      ``ambiguous_examples`` are every card set found to read several ways, in table order: a
      defect where readings are claimed unique. Where none is found, ``bound_95`` is the
      largest share of readings that could still be of such card sets, at 95% confidence: a
      sample, not a proof.
    - ``largest_hand``: the readings within ``hands`` random hands (default
      :data:`SAMPLE_HANDS`) of the most cards a seat holds (:meth:`PlayTable.size_estimate`),
      the most seen, and how many exceed ``limit``: such a hand is refused, as ``ddz moves``,
      the bots and a game refuse to list its plays.
    """
    ruleset = table.ruleset
    plays = SAMPLE_PLAYS if plays is None else plays
    hands = SAMPLE_HANDS if hands is None else hands
    drawn = table.sample_plays(plays, random.Random(f"{ruleset.id}/plays"))
    readings_of = {key: table.read(key) for key in {p.key for p in drawn}}
    several = sorted((k for k, r in readings_of.items() if len(r) > 1), key=table_order)
    deck = [rank for rank, n in enumerate(ruleset.copies) for _ in range(n)]
    rng = random.Random(f"{ruleset.id}/hands")
    size = min(ruleset.max_hand, len(deck))
    counts = [table.size_estimate(cards.pack_ranks(rng.sample(deck, size)))
              for _ in range(hands)]
    return {
        **_heading(ruleset),
        **({"wilds": wild_readings(table)} if ruleset.wild_drawn else {}),
        "enumerated": False,
        "limit": MAX_READINGS,
        "readings": table.size_estimate(),
        "uncounted_rules": list(table.uncounted_rules),
        "plays": None,
        "by_type": table.size_by_type(),
        "sample": {
            "seed": ruleset.id,
            "plays": len(drawn),
            "distinct": len(readings_of),
            "ambiguous": len(several),
            "bound_95": None if several or not drawn else 1 - 0.05 ** (1 / len(drawn)),
        },
        "largest_hand": {
            "cards": size,
            "hands": len(counts),
            "most_readings": max(counts, default=0),
            "refused": sum(n > MAX_READINGS for n in counts),
        },
        "ambiguous": len(several),
        "ambiguous_examples": [
            {"cards": cards.key_text(k), "readings": [r.to_json() for r in readings_of[k]]}
            for k in several
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
    unused_a, unused_b = inert_points(a.ruleset), inert_points(b.ruleset)
    rules = []
    for point in differences(a.ruleset, b.ruleset):
        in_a = _stated(rules_a.get(point.dotted), unused_a.get(point.dotted))
        in_b = _stated(rules_b.get(point.dotted), unused_b.get(point.dotted))
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


def _stated(point: RulePoint | None, unused: str | None = None) -> dict[str, Any]:
    """A rule as one ruleset states it; ``stated`` is false where it does not state it, and
    ``not_used`` gives the reason where it has no effect there (its prose is then not shown,
    since it describes no rule that is played)."""
    if point is None:
        return {"value": None, "text": "(not stated)", "stated": False}
    if unused is not None:
        return {"value": point.value, "text": f"(not used under this ruleset: {unused})",
                "stated": True, "not_used": unused}
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
