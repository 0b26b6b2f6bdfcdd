"""Wild cards (laizi): what the ``wild`` rule points and a type's ``wilds`` key mean.

Every card of a wild rank is wild for the hand. In the body of a play of two or more cards a
wild may stand for any rank of ``wild.stands_for``, its own included; played alone it is a card
of its own rank (``wild.alone: own_rank``); among a play's kickers it is a card of its own rank,
or with ``wild.in_kickers: any_rank`` also any rank of ``wild.stands_for``, the kicker rules
judging the ranks the kickers are played as (:func:`kicker_stand_ins`). A combination type says
which wild cards its body may hold (``wilds``): ``any`` (the default), ``none`` (a hard bomb),
``some`` (at least one, beside at least one card that is not wild: a soft bomb) or ``all``
(every card a wild standing for its own rank: four wilds).

:func:`body_fills` (:class:`Fills` for a run of bodies at once) is the one place that decides
how a body can be made from a set of cards with wild cards among them; the play table builds
readings and legal plays on it, and :func:`stand_ins` says from it what each wild card of a
play stands for. :func:`kicker_stand_ins` is the one place that decides what the wild cards
among a play's kickers may be played as.

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
from ddz_rules.errors import UsageError
from ddz_rules.restrictions import rank_reason, whole_reason

if TYPE_CHECKING:  # this module sits below the play table
    from ddz_rules.ruleset import CombinationType, Ruleset


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
            self._used = [list(wild_choices(have, self.wild, n)) for n in range(self.total + 1)]
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
    """One wild card of a play: its rank, the rank it is played as, and whether it is a
    kicker."""

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
    card in a fixed set of cards is a card of its own rank; one among the kickers is what
    :func:`kicker_stand_ins` plays it as. Raises ``ValueError`` where :func:`body_fills` cannot
    make the body as read, or the kickers are no legal kickers of it.

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

    33345 with the 5s wild, as a trio of 3s carrying a pair of 4s (``wild.in_kickers:
    any_rank``):

    >>> stand_ins(laizi, play("33345", "trio_pair", 1, "3", "45"), five)
    (StandIn(card=2, rank=1, kicker=True),)
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
    if any(kicked[r] for r in wild):
        body_ranks = tuple(range(reading.rank_index - reading.length + 1,
                                 reading.rank_index + 1))
        played = kicker_stand_ins(ctype, body_ranks, kicked, wild, ruleset.wild_in_kickers,
                                  frozenset(ruleset.stands_for),
                                  kicker_counts(ctype, body_ranks, ruleset.copies))
        if played is None:
            raise ValueError(f"{ruleset.id}: {cards.key_text(reading.kicker_key)} are no "
                             f"kickers of {reading.type}/{reading.length}/"
                             f"{cards.RANKS[reading.rank_index]} with {cards.text(wild)} wild")
        found += _kicker_roles(kicked, wild, played)
    return tuple(sorted(found, key=lambda s: (s.kicker, s.card, s.rank)))


def _kicker_roles(kicked: Sequence[int], wild: Sequence[int],
                  played: Sequence[int]) -> list[StandIn]:
    """Each wild card among the kickers ``kicked`` with the rank it is played as, from the
    wild cards ``played`` stand for per rank (:func:`kicker_stand_ins`): cards of their own rank
    first, then the lowest card left for the lowest rank left."""
    left = list(played)
    roles, cards_left = [], []
    for r in sorted(wild):
        own = min(kicked[r], left[r])
        left[r] -= own
        roles += [StandIn(r, r, True)] * own
        cards_left += [r] * (kicked[r] - own)
    ranks_left = [r for r, n in enumerate(left) for _ in range(n)]
    return roles + [StandIn(card, rank, True)
                    for card, rank in zip(cards_left, ranks_left, strict=True)]


def kicker_counts(ctype: CombinationType, chain: Sequence[int],
                  copies: Sequence[int]) -> tuple[frozenset[int], ...]:
    """Per rank, the numbers of kicker cards of it that the per-rank kicker rules allow beside
    the body ``chain`` of ``ctype`` (whole kicker units, no more than the deck has left of the
    rank beside the body): what :func:`kicker_stand_ins` judges played ranks by."""
    body = [0] * cards.NUM_RANKS
    for r in chain:
        body[r] = ctype.width
    unit = ctype.kicker_unit
    return tuple(frozenset(k * unit for k in range(1, (copies[r] - body[r]) // unit + 1)
                           if rank_reason(ctype, body, r, k * unit) is None) if unit
                 else frozenset() for r in range(cards.NUM_RANKS))


def kicker_stand_ins(ctype: CombinationType, chain: Sequence[int], kicked: Sequence[int],
                     wild: Sequence[int], rule: str, stands_for: frozenset[int],
                     allowed: Sequence[frozenset[int]]) -> tuple[int, ...] | None:
    """What the wild cards among the kickers ``kicked`` (counts per rank) of the body ``chain``
    of ``ctype`` are played as: per rank, how many of them stand for it (their own rank
    included); None where no way makes kickers the rules allow. The rule of
    ``wild.in_kickers``, in this one place.

    ``own_rank``: each wild is a card of its own rank. ``any_rank``: a wild may also be any
    rank of ``stands_for``. The kicker rules judge the ranks played: per rank, the count must
    be one of ``allowed`` (:func:`kicker_counts`: the per-rank rules beside the body, its own
    ranks included, so a wild never makes a kicker of the body's rank or splits a quad), and
    the whole-play rules must pass. Of the ways that do, the first in this order: as many wilds
    of their own rank as allowed, then the lowest ranks, each as full as allowed. The search
    visits only counts per rank, with what the remaining ranks need and hold bounding it.

    33345 with the 5s wild as a trio of 3s and a pair: the 5 stands for a 4; 33335 as a trio
    of 3s and a pair of 3s: no way (a kicker of the body's rank):

    >>> from ddz_rules.ruleset import load
    >>> laizi = load("laizi")
    >>> trio_pair, three = laizi.combination("trio_pair"), (0,)
    >>> allowed = kicker_counts(trio_pair, three, laizi.copies)
    >>> five = (2,)
    >>> def stands(kickers: str) -> str | None:
    ...     played = kicker_stand_ins(trio_pair, three, cards.counts_of(cards.parse(kickers)),
    ...                               five, "any_rank", frozenset(range(13)), allowed)
    ...     return None if played is None else cards.key_text(cards.pack(played))
    >>> stands("45"), stands("35"), stands("55")
    ('4', None, '55')
    """
    natural = [0 if r in wild else n for r, n in enumerate(kicked)]
    held = {r: kicked[r] for r in wild if kicked[r]}
    own = [kicked[r] if r in held else 0 for r in range(cards.NUM_RANKS)]
    if rule != "any_rank" or not held:
        return tuple(own) if _kickers_allowed(ctype, chain, kicked, allowed) else None
    order = [r for r in held] + [r for r in range(cards.NUM_RANKS)
                                 if r in stands_for and r not in held]
    fixed = [r for r in range(cards.NUM_RANKS) if natural[r] and r not in order]
    if any(natural[r] not in allowed[r] for r in fixed):
        return None
    # Per rank of the order: the most wilds it may take, and the fewest it needs.
    most, need = [], []
    for r in order:
        cap = sum(held.values()) if r in stands_for else held[r]
        fits = [n - natural[r] for n in allowed[r] if natural[r] <= n <= natural[r] + cap]
        if not natural[r]:
            fits.append(0)
        if not fits:
            return None
        most.append(max(fits))
        need.append(min(fits))
    reach = [0] * (len(order) + 1)
    short = [0] * (len(order) + 1)
    for i in range(len(order) - 1, -1, -1):
        reach[i] = reach[i + 1] + most[i]
        short[i] = short[i + 1] + need[i]
    played = list(natural)
    taken = [0] * cards.NUM_RANKS

    def walk(i: int, left: int) -> bool:
        if left < short[i] or left > reach[i]:
            return False
        if i == len(order):
            return whole_reason(ctype, chain, played) is None
        r = order[i]
        for a in range(min(left, most[i]), need[i] - 1, -1):
            if a and natural[r] + a not in allowed[r]:
                continue
            played[r], taken[r] = natural[r] + a, a
            if walk(i + 1, left - a):
                return True
        played[r], taken[r] = natural[r], 0
        return False

    return tuple(taken) if walk(0, sum(held.values())) else None


def _kickers_allowed(ctype: CombinationType, chain: Sequence[int], played: Sequence[int],
                     allowed: Sequence[frozenset[int]]) -> bool:
    """Whether the kicker counts ``played`` are legal kickers of the body ``chain``."""
    return (all(not n or n in allowed[r] for r, n in enumerate(played))
            and whole_reason(ctype, chain, played) is None)


def wild_choices(have: Sequence[int], wild: Sequence[int], total: int) -> Iterator[int]:
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


def wild_ranks_of(ruleset: Ruleset, text: str, whole_draw: bool) -> tuple[int, ...]:
    """The wild ranks ``text`` names (card text, a card of each rank): the one parser of
    wild ranks, for the commands and the records.

    With ``whole_draw`` (a record's ``deal.wild``) they are the hand's whole draw: as many
    ranks as ``wild.drawn`` draws, each once, in the order drawn. Without (a question about a
    moment of a hand) they are the ranks wild then: one to that many, a repeat ignored, as a
    rank drawn after the auction is not wild before it. Either way each is a rank of
    ``wild.ranks``. Refused in one line: a ruleset without wild cards, text that is not cards
    (:class:`~ddz_rules.errors.CardError`), or ranks that cannot be the draw.

    >>> from ddz_rules.ruleset import load
    >>> wild_ranks_of(load("laizi-two"), "7", whole_draw=False)
    (4,)
    >>> wild_ranks_of(load("laizi-two"), "7", whole_draw=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ddz_rules.errors.UsageError: '7' names 1 rank(s); laizi-two draws 2 distinct wild ...
    """
    drawn = len(ruleset.wild_drawn)
    if not drawn:
        raise UsageError(f"{ruleset.id} has no wild cards (no 'wild' section)")
    # a draw is in the order drawn, card by card; the ranks of a moment are a set
    ranks = (tuple(r for card in text for r in cards.parse(card)) if whole_draw
             else tuple(dict.fromkeys(cards.parse(text))))
    allowed = "".join(cards.RANKS[r] for r in ruleset.wild_ranks)
    outside = [cards.RANKS[r] for r in ranks if r not in ruleset.wild_ranks]
    if whole_draw:
        if len(ranks) != drawn or len(set(ranks)) != len(ranks):
            raise UsageError(f"{text!r} names {len(ranks)} rank(s); {ruleset.id} draws "
                             f"{drawn} distinct wild rank(s) a hand")
        if outside:
            raise UsageError(f"{outside[0]} is never wild under {ruleset.id} (wild ranks are "
                             f"drawn from {allowed})")
    elif outside or not ranks or len(ranks) > drawn:
        raise UsageError(f"{ruleset.id} draws {drawn} wild rank(s) a hand from {allowed}"
                         + (f"; {outside[0]} is never wild" if outside else ""))
    return ranks
