"""How many plays a hand needs: a quick greedy split, the planning measure of ``medium``.

Counts the plays a hand would take to shed: rocket and bombs, then chains, then trios
carrying singles or pairs, then what is left. Two orders are tried (chains first, or no
straights) and the smaller count wins; it is a heuristic, fast enough to score every
candidate play.

>>> from ddz_rules.cards import counts_of, pack_ranks, parse
>>> moves(counts_of(parse("3456789TJ")))
1
>>> moves(counts_of(parse("33344456")))
1
>>> moves(counts_of(parse("3334445567")))
2
>>> moves_of(pack_ranks(parse("3334445567")))
2
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ddz_rules.cards import BIG_JOKER, RANK_INDEX, SMALL_JOKER, unpack

ACE = RANK_INDEX["A"]
TWO = RANK_INDEX["2"]


def moves(counts: Sequence[int]) -> int:
    """The fewest plays the greedy split finds for a hand of these counts."""
    return min(_split(list(counts), straights=True), _split(list(counts), straights=False))


@lru_cache(maxsize=1 << 17)
def moves_of(key: int) -> int:
    """:func:`moves` of a packed card set, remembered: search asks about the same hands often."""
    return moves(unpack(key))


def _split(c: list[int], straights: bool) -> int:
    n = 0
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        n += 1
        c[SMALL_JOKER] = c[BIG_JOKER] = 0
    for r in range(TWO + 1):
        if c[r] >= 4:
            n += 1
            c[r] = 0
    airplanes = _chains(c, width=3, shortest=2)
    n += len(airplanes)
    n += len(_chains(c, width=2, shortest=3))
    if straights:
        n += len(_chains(c, width=1, shortest=5))
    trios = sum(1 for r in range(TWO + 1) if c[r] == 3)
    pairs = sum(1 for r in range(TWO + 1) if c[r] == 2)
    singles = sum(1 for r in range(TWO + 1) if c[r] == 1) + c[SMALL_JOKER] + c[BIG_JOKER]
    carried = min(trios + sum(airplanes), singles + pairs)  # each trio carries one kicker
    return n + trios + pairs + singles - carried


def _chains(c: list[int], width: int, shortest: int) -> list[int]:
    """Take chains of ``width`` cards per rank, longest first, from 3 up to A; their lengths."""
    found: list[int] = []
    while True:
        best_start, best_len = -1, 0
        start = 0
        while start <= ACE:
            if c[start] >= width:
                end = start
                while end + 1 <= ACE and c[end + 1] >= width:
                    end += 1
                if end - start + 1 > best_len:
                    best_start, best_len = start, end - start + 1
                start = end + 1
            else:
                start += 1
        if best_len < shortest:
            return found
        for r in range(best_start, best_start + best_len):
            c[r] -= width
        found.append(best_len)
