"""Damaged JSON documents for the hostile-input tests: a field removed, replaced or added,
somewhere inside, drawn from a seeded generator."""

from __future__ import annotations

import random
from typing import Any

#: What a damaged document may hold where a value was (cards, seats, moves, kinds).
ODD_VALUES: list[Any] = [None, -1, 0, 1, 2, 3, 52, 53, 54, "x", "pass", "P", "", "S3",
                        "BJ", "33", "landlord", [], [1], [[]], {}, True, 1.5, [0, 0]]


def damaged(value: Any, rng: random.Random) -> Any:
    """``value`` with one field removed, replaced or added, somewhere inside."""
    if isinstance(value, dict):
        key = rng.choice([*value, "extra"])
        out = dict(value)
        roll = rng.random()
        if roll < 0.2 and key in out:
            del out[key]
        elif roll < 0.6 and key in out:
            out[key] = damaged(out[key], rng)
        else:
            out[key] = rng.choice(ODD_VALUES)
        return out
    if isinstance(value, list):
        if not value or rng.random() < 0.3:
            return [*value, rng.choice(ODD_VALUES)]
        items = list(value)
        at = rng.randrange(len(items))
        if rng.random() < 0.3:
            del items[at]
        else:
            items[at] = damaged(items[at], rng)
        return items
    return rng.choice(ODD_VALUES)
