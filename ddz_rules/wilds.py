"""Wild cards (laizi): what the ``wild`` rule points and a type's ``wilds`` key mean.

Every card of a wild rank is wild for the hand. In the body of a play of two or more cards a
wild may stand for any rank of ``wild.stands_for``, its own included; played alone, or as a
kicker, it is a card of its own rank (``wild.alone: own_rank``). A combination type says which
wild cards its body may hold (``wilds``): ``any`` (the default), ``none`` (a hard bomb),
``some`` (at least one, beside at least one card that is not wild: a soft bomb) or ``all``
(every card a wild standing for its own rank: four wilds).

:func:`body_fills` is the one place that decides how a body can be made from a set of cards
with wild cards among them; the play table builds readings and legal plays on it.

A straight 3-7 from 3 4 5 7 and a wild 2 (the 2 stands for the 6), and from 3 4 5 6 7 and the
wild 2 (natural, or with the 2 standing for any one of the five):

>>> from ddz_rules.cards import RANK_INDEX, counts_of, key_text, parse
>>> def fills(hand: str) -> list[tuple[str, str]]:
...     found = body_fills((0, 1, 2, 3, 4), 1, counts_of(parse(hand)), (RANK_INDEX["2"],),
...                        "any", frozenset(range(13)))
...     return [(key_text(natural), key_text(wild)) for natural, wild in found]
>>> fills("34572")
[('3457', '2')]
>>> fills("345672")
[('34567', ''), ('3456', '2'), ('3457', '2'), ('3467', '2'), ('3567', '2'), ('4567', '2')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ddz_rules import cards


def wild_count(counts: Sequence[int], wild: Sequence[int]) -> int:
    """How many wild cards a card set (as counts) holds."""
    return sum(counts[r] for r in wild)


def body_fills(chain: Sequence[int], width: int, have: Sequence[int], wild: Sequence[int],
               rule: str, stands_for: frozenset[int]) -> Iterator[tuple[int, int]]:
    """Every way to make the body ``width`` cards on each rank of ``chain`` from the cards
    ``have`` (counts per rank) with the wild ranks ``wild``: ``(natural, wilds)``, packed, the
    cards of the body that are not wild and the wild cards it uses.

    A position on a rank that is not wild takes a natural card of that rank or a wild standing
    for it (only where ``stands_for`` holds the rank); a position on a wild rank takes a wild
    card, of that rank or another wild rank. ``rule`` is the type's ``wilds``. A body of one
    card never has a wild stand in for another rank.
    """
    size = width * len(chain)
    total_wild = wild_count(have, wild)
    natural_ranks = [r for r in chain if r not in wild]
    wild_positions = width * (len(chain) - len(natural_ranks))
    if rule == "none" and wild_positions:
        return
    if rule == "all":
        if natural_ranks or any(have[r] < width for r in chain):
            return
        yield 0, sum(width << (cards.FIELD_BITS * r) for r in chain)
        return
    bits = cards.FIELD_BITS

    def naturals(i: int, holes: int, key: int) -> Iterator[tuple[int, int]]:
        if i == len(natural_ranks):
            yield key, holes
            return
        r = natural_ranks[i]
        most = min(width, have[r])
        if r not in stands_for and most < width:
            return  # no wild stands for this rank (a joker)
        least = most if r not in stands_for else max(0, width - (total_wild - holes))
        for n in range(most, least - 1, -1):
            yield from naturals(i + 1, holes + width - n, key + (n << (bits * r)))

    for natural, holes in naturals(0, wild_positions, 0):
        if holes > total_wild:
            continue
        if rule == "none" and holes:
            continue
        if rule == "some" and not 0 < holes < size:
            continue
        for used in _wild_choices(have, wild, holes):
            if size == 1 and holes and used != 1 << (bits * chain[0]):
                continue  # a wild alone is its own rank
            if any(r not in stands_for for r in chain if r in wild) and not _own(
                    used, chain, width, wild):
                continue
            yield natural, used


def _own(used: int, chain: Sequence[int], width: int, wild: Sequence[int]) -> bool:
    """Whether the wild cards ``used`` fill each wild rank of the chain with its own cards."""
    counts = cards.unpack(used)
    return all(counts[r] >= width for r in chain if r in wild)


def _wild_choices(have: Sequence[int], wild: Sequence[int], total: int) -> Iterator[int]:
    """Every way to take ``total`` wild cards from the wild ranks held, packed."""
    bits = cards.FIELD_BITS

    def walk(i: int, left: int, key: int) -> Iterator[int]:
        if i == len(wild):
            if left == 0:
                yield key
            return
        r = wild[i]
        for n in range(min(left, have[r]), -1, -1):
            yield from walk(i + 1, left - n, key + (n << (bits * r)))

    yield from walk(0, total, 0)
