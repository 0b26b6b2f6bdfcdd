"""How many plays a hand needs: a quick greedy split, the planning measure of ``medium``.

Counts the plays a hand would take to shed: rocket and bombs, then chains, then trios
carrying singles or pairs, then what is left. Two orders are tried (chains first, or no
straights) and the smaller count wins; it is a heuristic, fast enough to score every
candidate play. Where the compiled modules are built, ``ddz_rules/_split.c`` counts (the
same function over packed card sets; ``tests/test_split.py`` proves them equal), and
:func:`moves_after` scores all of a decision's candidates in one call.

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

from collections.abc import Callable, Sequence
from functools import lru_cache

from ddz_rules.cards import (
    BIG_JOKER,
    FIELD_BITS,
    FIELD_MASK,
    RANK_INDEX,
    SMALL_JOKER,
    contains,
    pack,
)
from ddz_rules.table import native_modules

ACE = RANK_INDEX["A"]
TWO = RANK_INDEX["2"]
#: (bit, shift) of each rank 3 to 2: its bit in a rank mask, its field in a packed key.
_PLAIN_FIELDS = tuple((1 << r, FIELD_BITS * r) for r in range(TWO + 1))
_SMALL_SHIFT, _BIG_SHIFT = FIELD_BITS * SMALL_JOKER, FIELD_BITS * BIG_JOKER


def moves(counts: Sequence[int]) -> int:
    """The fewest plays the greedy split finds for a hand of these counts."""
    return moves_of(pack(counts))


@lru_cache(maxsize=1 << 17)
def python_moves_of(key: int) -> int:
    """:func:`moves` of a packed card set, remembered: search asks about the same hands often.
    The reference for ``_split.moves_of`` (``ddz_rules/_split.c``), which serves as
    :func:`moves_of` where the compiled modules do."""
    n = 0
    small, big = key >> _SMALL_SHIFT & FIELD_MASK, key >> _BIG_SHIFT & FIELD_MASK
    jokers = small + big
    if small and big:
        n, jokers = 1, 0  # the rocket (both of a second deck's jokers go with it)
    # The ranks 3 to 2 holding at least one, two, three cards, once the bombs are taken.
    one = two = three = 0
    for bit, shift in _PLAIN_FIELDS:
        k = key >> shift & FIELD_MASK
        if k >= 4:
            n += 1
        elif k:
            one |= bit
            if k >= 2:
                two |= bit
                if k == 3:
                    three |= bit
    wings = 0
    while True:  # airplanes: trio chains of two or more, three cards off each rank
        start, length = _LONGEST[three & _CHAIN_RANKS]
        if length < 2:
            break
        run = ((1 << length) - 1) << start
        one, two, three = one & ~run, two & ~run, three & ~run
        n += 1
        wings += length
    while True:  # pair chains of three or more: two cards off each rank
        start, length = _LONGEST[two & _CHAIN_RANKS]
        if length < 3:
            break
        run = ((1 << length) - 1) << start
        one, two, three = one & ~(run & ~three), two & ~run, three & ~run
        n += 1
    # The two orders agree up to here; they differ only in whether straights are taken.
    without = _rest(one, two, three, jokers, wings)
    straights = 0
    while True:  # straights of five or more: one card off each rank
        start, length = _LONGEST[one & _CHAIN_RANKS]
        if length < 5:
            break
        run = ((1 << length) - 1) << start
        one, two, three = one & ~(run & ~two), two & ~(run & ~three), three & ~run
        straights += 1
    if not straights:
        return n + without
    return n + min(without, straights + _rest(one, two, three, jokers, wings))


def python_moves_after(hand: int, plays: Sequence[int]) -> list[int]:
    """:func:`moves_after` in Python, the compiled one's reference."""
    for i, play in enumerate(plays):
        if not contains(hand, play):
            raise ValueError(f"play {i} holds cards the hand does not")
    return [python_moves_of(hand - play) for play in plays]


def _rest(one: int, two: int, three: int, jokers: int, wings: int) -> int:
    """Plays for what is left once chains are taken (the ranks holding at least one, two,
    three cards, and the jokers): trios (each, and each airplane rank in ``wings``, carrying
    a single or a pair), pairs and singles."""
    trios = three.bit_count()
    pairs = (two & ~three).bit_count()
    singles = (one & ~two).bit_count() + jokers
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


#: The ranks a chain may use, 3 to A, as bits; :func:`_runs` of every set of them.
_CHAIN_RANKS = (1 << (ACE + 1)) - 1
_LONGEST = tuple(_runs(mask) for mask in range(_CHAIN_RANKS + 1))


def _compiled() -> tuple[Callable[[int], int], Callable[[int, Sequence[int]], list[int]]] | None:
    """The compiled split (``ddz_rules/_split.c``), where the compiled modules serve
    (:func:`ddz_rules.table.native_modules`) and it was built for this card layout."""
    if native_modules() is None:
        return None
    try:
        from ddz_rules import _split
    except ImportError:
        return None
    if _split.LAYOUT != (FIELD_BITS, ACE, TWO, SMALL_JOKER, BIG_JOKER):
        return None
    return _split.moves_of, _split.moves_after


#: :func:`moves` of a packed card set (the compiled split where built, else
#: :func:`python_moves_of`).
moves_of: Callable[[int], int]
#: ``[moves_of(hand - p) for p in plays]``: the plays the rest of a hand needs after each
#: candidate, in one call (``medium`` scores every candidate of a decision so). Every play must
#: be within the hand (ValueError).
moves_after: Callable[[int, Sequence[int]], list[int]]
moves_of, moves_after = _compiled() or (python_moves_of, python_moves_after)
