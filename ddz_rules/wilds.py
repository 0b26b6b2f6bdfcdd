"""Wild cards (laizi): what the ``wild`` rule points and a type's ``wilds`` key mean.

Every card of a wild rank is wild for the hand. In the body of a play of two or more cards a
wild may stand for any rank of ``wild.stands_for``, its own included; played alone, or as a
kicker, it is a card of its own rank (``wild.alone: own_rank``). A combination type says which
wild cards its body may hold (``wilds``): ``any`` (the default), ``none`` (a hard bomb),
``some`` (at least one, beside at least one card that is not wild: a soft bomb) or ``all``
(every card a wild standing for its own rank: four wilds).

:func:`body_fills` (:class:`Fills` for a run of bodies at once) is the one place that decides
how a body can be made from a set of cards with wild cards among them; the play table builds
readings and legal plays on it, and :func:`stand_ins` says from it what each wild card of a
play stands for.

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
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ddz_rules import cards

if TYPE_CHECKING:  # only cards at run time: this module sits below the play table
    from ddz_rules.ruleset import Ruleset


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
    card never has a wild stand in for another rank. One body of :meth:`Fills.of_run`.
    """
    wild_part = sum(cards.FIELD_MASK << (cards.FIELD_BITS * r) for r in wild)
    for fills in Fills(have, wild, stands_for).of_run(chain, (len(chain),), width, rule):
        for fill in fills:
            used = fill & wild_part
            yield fill - used, used


#: A bit field above every rank's: how many wild cards a partly made body needs so far.
HOLES = cards.FIELD_BITS * cards.NUM_RANKS
#: The rank fields of a packed card set, :data:`HOLES` cleared.
_CARDS = (1 << HOLES) - 1


class Fills:
    """How the bodies of a run can be made from one set of cards with wild cards among them:
    the rule of :func:`body_fills`, for many bodies at once.

    The bodies of a run (one type, one lowest rank, longer and longer chains) are prefixes of
    each other, so the ways to make a longer one extend those of the shorter: each rank of the
    chain is filled once for the whole run. A partial fill is one integer, the natural cards
    and, in the :data:`HOLES` field, the wild cards they leave to find (with a single wild
    rank, those wild cards are added to its field at once), so extending a whole level is one
    list comprehension and the order is that of a depth-first walk, rank by rank, the most
    natural cards first.
    """

    __slots__ = ("_hole", "_odd", "_reach", "_steps", "_used", "_wild_part", "have",
                 "stands_for", "total", "wild")

    def __init__(self, have: Sequence[int], wild: Sequence[int],
                 stands_for: frozenset[int]) -> None:
        bits = cards.FIELD_BITS
        self.have, self.wild, self.stands_for = have, tuple(wild), stands_for
        self.total = wild_count(have, wild)
        #: Per rank, the most cards of it a body can hold.
        self._reach = [self.total if r in self.wild else n + self.total if r in stands_for
                       else n for r, n in enumerate(have)]
        #: What one wild card a body needs adds to a partial fill.
        self._hole = 1 << HOLES
        #: For each number of wild cards needed, the ways to take them (several wild ranks).
        self._used: list[list[int]] = []
        if len(self.wild) == 1:
            self._hole += 1 << (bits * self.wild[0])
        else:
            self._used = [list(_wild_choices(have, self.wild, n)) for n in range(self.total + 1)]
        self._wild_part = sum(cards.FIELD_MASK << (bits * r) for r in self.wild)
        #: Wild ranks no wild may stand for: a chain holding one takes only its own cards there.
        self._odd = frozenset(r for r in self.wild if r not in stands_for)
        #: What each way to fill ``width`` cards of a rank adds to a partial fill, by
        #: ``width * 32 + rank``, worked out on first need.
        self._steps: dict[int, list[int]] = {}

    def can_start(self, rank: int, width: int, rule: str) -> bool:
        """Whether ``width`` cards of ``rank`` can be made at all, the first rank of a chain: a
        test far cheaper than :meth:`of_run`, which finds nothing where it fails."""
        if rule == "none":
            return rank not in self.wild and self.have[rank] >= width
        if rule == "all":
            return rank in self.wild and self.have[rank] >= width
        return self._reach[rank] >= width

    def of_run(self, chain: Sequence[int], lengths: Sequence[int], width: int,
               rule: str) -> list[list[int]]:
        """For each length of ``lengths`` (increasing), every way to make the body ``width``
        cards on each of the first ``length`` ranks of ``chain``, packed (natural and wild
        cards together; the wild ranks tell them apart). The list stops early where no longer
        body can be made. ``rule`` is the type's ``wilds``.

        The straights 3-7 and 3-8 from 3 4 5 6 7 and a wild 2 (natural, or the 2 standing for
        any one of the five; standing for the 8):

        >>> from ddz_rules.cards import RANK_INDEX, counts_of, key_text, parse
        >>> fills = Fills(counts_of(parse("345672")), (RANK_INDEX["2"],), frozenset(range(13)))
        >>> [[key_text(f) for f in by_length] for by_length in fills.of_run(
        ...     range(6), (5, 6), 1, "any")]
        [['34567', '34562', '34572', '34672', '35672', '45672'], ['345672']]
        """
        bits = cards.FIELD_BITS
        out: list[list[int]] = []
        if rule == "all":  # every card a wild standing for its own rank
            for length in lengths:
                ranks = chain[:length]
                whole = all(r in self.wild and self.have[r] >= width for r in ranks)
                out.append([sum(width << (bits * r) for r in ranks)] if whole else [])
            return out
        known = self._steps
        cap = (1 if rule == "none" else self.total + 1) << HOLES
        states, done = [0], 0
        for length in lengths:
            while done < length:
                r = chain[done]
                done += 1
                steps = known.get(width * 32 + r)
                if steps is None:
                    steps = known[width * 32 + r] = self._ways(r, width)
                if len(steps) == 1:
                    step = steps[0]
                    states = [s + step for s in states if s + step < cap]
                else:
                    states = [s + d for s in states for d in steps if s + d < cap]
                if not states:
                    return out
            made = states
            if rule == "some":  # at least one wild card, and at least one natural card
                low, high = 1 << HOLES, (width * length) << HOLES
                made = [s for s in made if low <= s < high]
            if self._used:
                used = self._used
                fills = [(s & _CARDS) + u for s in made for u in used[s >> HOLES]]
            else:
                fills = [s & _CARDS for s in made]
            if width * length == 1:  # a wild alone is its own rank
                alone = 1 << (bits * chain[0])
                fills = [f for f in fills if f == alone or not f & self._wild_part]
            if self._odd and not self._odd.isdisjoint(chain[:length]):
                fills = [f for f in fills if all((f >> (bits * r)) & cards.FIELD_MASK >= width
                                                 for r in chain[:length] if r in self.wild)]
            out.append(fills)
        return out

    def _ways(self, rank: int, width: int) -> list[int]:
        """What each way to fill ``width`` cards of ``rank`` adds to a partial fill, the most
        natural cards first: a wild card on a wild rank (of any wild rank, taken at the end),
        natural cards and wild ones standing for the rest, or natural cards alone where no wild
        stands for the rank (a joker); none where there are too few."""
        hole = self._hole
        if rank in self.wild:
            return [width * hole]
        if rank in self.stands_for:
            return [(n << (cards.FIELD_BITS * rank)) + (width - n) * hole
                    for n in range(min(width, self.have[rank]), -1, -1)]
        return [width << (cards.FIELD_BITS * rank)] if self.have[rank] >= width else []


class _Reading(Protocol):
    """What :func:`stand_ins` reads of a reading (a :class:`ddz_rules.table.Reading`)."""

    @property
    def type(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def rank_index(self) -> int: ...
    @property
    def kicker_key(self) -> int: ...


class _Play(Protocol):
    """What :func:`stand_ins` reads of a play (a :class:`ddz_rules.table.Play`)."""

    @property
    def key(self) -> int: ...
    @property
    def reading(self) -> _Reading: ...


class StandIn(NamedTuple):
    """One wild card of a play: its rank, the rank it is played as, and whether it is a kicker
    (then always its own rank)."""

    card: int
    rank: int
    kicker: bool


def stand_ins(ruleset: Ruleset, play: _Play, wild: Sequence[int]) -> tuple[StandIn, ...]:
    """What each wild card of ``play`` is played as under its reading, with the wild ranks
    ``wild``: the body's wild cards first, then the kickers', each lowest rank first; empty for
    a play holding none.

    A wild card in the body fills a position of its own rank where the chain has one, and
    otherwise stands for a card the body lacks (the lowest wild card for the lowest rank
    lacking, which is the reading's whole meaning where several wild ranks could swap). A wild
    card among the kickers, or in a fixed set of cards, is a card of its own rank. Raises
    ``ValueError`` where :func:`body_fills` cannot make the body as read.

    3335 with the 5s wild, as a soft bomb of 3s, and as a trio of 3s with a kicker; 34557 with
    the 5s wild, as a straight 3-7 (one 5 its own rank, the other a 6):

    >>> from types import SimpleNamespace as Play
    >>> from ddz_rules.cards import pack_ranks, parse
    >>> from ddz_rules.ruleset import load
    >>> laizi, five = load("laizi"), (2,)
    >>> def play(text: str, kind: str, length: int, rank: str, kickers: str = "") -> Play:
    ...     reading = Play(type=kind, length=length, rank_index=parse(rank)[0],
    ...                    kicker_key=pack_ranks(parse(kickers)))
    ...     return Play(key=pack_ranks(parse(text)), reading=reading)
    >>> stand_ins(laizi, play("3335", "soft_bomb", 1, "3"), five)
    (StandIn(card=2, rank=0, kicker=False),)
    >>> stand_ins(laizi, play("3335", "trio_single", 1, "3", "5"), five)
    (StandIn(card=2, rank=2, kicker=True),)
    >>> [(cards.RANKS[s.card], cards.RANKS[s.rank]) for s in stand_ins(
    ...     laizi, play("34557", "straight", 5, "7"), five)]
    [('5', '5'), ('5', '6')]
    """
    reading = play.reading
    ctype = ruleset.combination(reading.type)
    body = play.key - reading.kicker_key
    held = cards.unpack(body)
    spare = {r: held[r] for r in sorted(wild) if held[r]}
    found: list[StandIn] = []
    if not ctype.fixed_set and spare:
        chain = range(reading.rank_index - reading.length + 1, reading.rank_index + 1)
        if not any(natural + used == body for natural, used in body_fills(
                chain, ctype.width, held, wild, ctype.wilds, frozenset(ruleset.stands_for))):
            raise ValueError(f"{ruleset.id}: {cards.key_text(play.key)} cannot be made as "
                             f"{reading.type}/{reading.length}/{cards.RANKS[reading.rank_index]} "
                             f"with {cards.text(wild)} wild")
        lacking = []
        for rank in chain:
            need = ctype.width - (0 if rank in wild else held[rank])
            own = min(need, spare.get(rank, 0))
            found += [StandIn(rank, rank, False)] * own
            lacking += [rank] * (need - own)
            if own:
                spare[rank] -= own
        cards_left = [r for r, n in spare.items() for _ in range(n)]
        found += [StandIn(card, rank, False)
                  for card, rank in zip(cards_left, lacking, strict=True)]
    else:
        found += [StandIn(r, r, False) for r, n in spare.items() for _ in range(n)]
    kicked = cards.unpack(reading.kicker_key)
    found += [StandIn(r, r, True) for r in sorted(wild) for _ in range(kicked[r])]
    return tuple(sorted(found, key=lambda s: (s.kicker, s.card, s.rank)))


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
