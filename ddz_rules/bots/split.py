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
    c = list(counts)
    n = 0
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        n += 1
        c[SMALL_JOKER] = c[BIG_JOKER] = 0
    for r in range(TWO + 1):
        if c[r] >= 4:
            n += 1
            c[r] = 0
    airplanes = _chains(c, width=3, shortest=2)
    n += len(airplanes) + len(_chains(c, width=2, shortest=3))
    # The two orders agree up to here; they differ only in whether straights are taken.
    without = _rest(c, sum(airplanes))
    straights = _chains(c, width=1, shortest=5)
    if not straights:
        return n + without
    return n + min(without, len(straights) + _rest(c, sum(airplanes)))


@lru_cache(maxsize=1 << 17)
def moves_of(key: int) -> int:
    """:func:`moves` of a packed card set, remembered: search asks about the same hands often."""
    return moves(unpack(key))


def _rest(c: list[int], wings: int) -> int:
    """Plays for what is left once chains are taken: trios (each, and each airplane rank in
    ``wings``, carrying a single or a pair), pairs and singles."""
    trios = pairs = singles = 0
    for r in range(TWO + 1):
        k = c[r]
        if k == 3:
            trios += 1
        elif k == 2:
            pairs += 1
        elif k == 1:
            singles += 1
    singles += c[SMALL_JOKER] + c[BIG_JOKER]
    return trios + pairs + singles - min(trios + wings, singles + pairs)


def _runs(mask: int) -> tuple[int, int]:
    """The first longest run of set bits in ``mask``: its lowest bit and its length."""
    best_start, best_len, start = -1, 0, 0
    while mask >> start:
        if mask >> start & 1:
            end = start
            while mask >> (end + 1) & 1:
                end += 1
            if end - start + 1 > best_len:
                best_start, best_len = start, end - start + 1
            start = end + 1
        else:
            start += 1
    return best_start, best_len


#: :func:`_runs` of every set of ranks from 3 to A (the ranks a chain may use).
_LONGEST = tuple(_runs(mask) for mask in range(1 << (ACE + 1)))


def _chains(c: list[int], width: int, shortest: int) -> list[int]:
    """Take chains of ``width`` cards per rank, longest first, from 3 up to A; their lengths."""
    found: list[int] = []
    mask = 0
    for r in range(ACE + 1):
        if c[r] >= width:
            mask |= 1 << r
    while True:
        start, length = _LONGEST[mask]
        if length < shortest:
            return found
        for r in range(start, start + length):
            c[r] -= width
            if c[r] < width:
                mask &= ~(1 << r)
        found.append(length)
