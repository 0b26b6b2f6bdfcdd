"""Digests of what a ruleset makes: its compiled play table and its deals.

``tests/fixtures/golden_digests.json`` holds them for every ruleset bundled before the language
could say a game without a landlord, computed by the code of that time (``python -m
tests.digests`` writes them); :mod:`tests.test_play_table` proves today's code makes the same.
Only public names that code already had are used here, so the same module runs on both.
"""

from __future__ import annotations

import hashlib
import json
import sys

from ddz_rules import bundled_ids, compile_table, load
from ddz_rules.game import Hand

#: The seeds whose deals are digested.
DEAL_SEEDS = tuple(range(12))


def table_digest(ruleset_id: str) -> str:
    """SHA-256 over every play of the compiled table, in key order, with all its readings."""
    digest = hashlib.sha256()
    for key, readings in sorted(compile_table(load(ruleset_id)).plays.items()):
        row = [key, [[r.type, r.length, r.rank_index, r.kicker_key, r.level] for r in readings]]
        digest.update(json.dumps(row, separators=(",", ":")).encode() + b"\n")
    return digest.hexdigest()


def deal_digest(ruleset_id: str) -> str:
    """SHA-256 over the deals of :data:`DEAL_SEEDS`: hands, kitty, undealt cards, first bidder,
    marked and turned cards, wild ranks."""
    ruleset = load(ruleset_id)
    digest = hashlib.sha256()
    for seed in DEAL_SEEDS:
        d = Hand.new(ruleset, seed, dealer=seed % ruleset.players).deal
        row = [seed, list(d.hands), d.kitty, d.undealt, d.dealer, d.first_bidder, d.marked_card,
               d.turned_card, list(d.wild)]
        digest.update(json.dumps(row, separators=(",", ":")).encode() + b"\n")
    return digest.hexdigest()


def digests() -> dict[str, dict[str, str]]:
    """Both digests of every bundled ruleset."""
    return {rid: {"table": table_digest(rid), "deals": deal_digest(rid)} for rid in bundled_ids()}


if __name__ == "__main__":
    json.dump(digests(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
