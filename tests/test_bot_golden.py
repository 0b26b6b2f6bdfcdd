"""The bots decide the same on golden positions, whichever path lists the plays.

``tests/fixtures/positions/golden_decisions.json`` holds what ``medium`` and ``extreme`` chose
in seeded positions of classic, four-player, two-player, laizi (wild cards) and Run Fast hands,
written on the pure-Python
path (``DDZ_PURE_PYTHON=1 python -m tests.test_bot_golden``). CI runs the suite with the
compiled modules and again without them, so a lister that changed a single decision (a play
missing, added, or listed in another order) fails here.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from ddz_rules import compile_table, load
from ddz_rules.bots import make_bot
from ddz_rules.game import Hand

from .positions import advanced

GOLDEN = Path(__file__).parent / "fixtures" / "positions" / "golden_decisions.json"
#: (ruleset, level, positions): extreme searches, so it gets fewer.
PLAN = (("classic", "medium", 60), ("four-player", "medium", 30), ("two-player", "medium", 30),
        ("laizi", "medium", 30), ("run-fast", "medium", 30), ("classic", "extreme", 16),
        ("laizi", "extreme", 8))


def positions(ruleset_id: str, count: int) -> list[tuple[int, int, Hand]]:
    """``count`` seeded positions in play: (seed, steps, hand) with a seat to act."""
    found = []
    seed = 0
    while len(found) < count:
        steps = 4 + seed % 40
        hand = advanced(ruleset_id, seed, steps)
        if hand.result is None and (hand.landlord is not None or not hand.ruleset.has_landlord):
            found.append((seed, steps, hand))
        seed += 1
    return found


def decisions() -> dict[str, list[list[object]]]:
    """Every planned bot's choice in its positions, as text: [seed, steps, seat, choice]."""
    out: dict[str, list[list[object]]] = {}
    for ruleset_id, level, count in PLAN:
        compile_table(load(ruleset_id)).compiled()  # the lister from the first listing on
        bot = make_bot(level, load(ruleset_id))
        rows: list[list[object]] = []
        for seed, steps, hand in positions(ruleset_id, count):
            seat = hand.to_act
            assert seat is not None
            action = bot.choose(hand.view(seat), random.Random(seed))
            shown = action if isinstance(action, str) else hand.table.notation(action, hand.wild)
            rows.append([seed, steps, seat, shown])
        out[f"{ruleset_id}/{level}"] = rows
    return out


@pytest.fixture(scope="module")
def golden() -> dict[str, list[list[object]]]:
    data: dict[str, list[list[object]]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_the_golden_positions_cover_every_plan(golden: dict[str, list[list[object]]]) -> None:
    assert {f"{r}/{lvl}": n for r, lvl, n in PLAN} == {k: len(v) for k, v in golden.items()}
    assert len({row[3] for rows in golden.values() for row in rows}) > 30  # varied choices


def test_the_bots_decide_as_they_did_on_the_golden_positions(
        golden: dict[str, list[list[object]]]) -> None:
    assert decisions() == golden


if __name__ == "__main__":  # write the fixture: run it on the pure-Python path
    GOLDEN.write_text(json.dumps(decisions(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
