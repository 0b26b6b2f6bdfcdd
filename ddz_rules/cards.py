"""Ranks, card text, and the packed count form every other module works with.

Suits never matter in Dou Dizhu, so a set of cards is a multiset of ranks. It is held as a
count per rank, packed into one integer with a five-bit field per rank: containment and
subtraction of card sets become integer operations.

>>> parse("10 j q k a")
(7, 8, 9, 10, 11)
>>> text(parse("bR2 2, 3-3"))
'3322BR'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ddz_rules.errors import CardError, quoted

#: Rank characters from lowest to highest; ``B`` is the small joker, ``R`` the big one.
RANKS = "3456789TJQKA2BR"
RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
SMALL_JOKER = RANK_INDEX["B"]
BIG_JOKER = RANK_INDEX["R"]
JOKERS = (SMALL_JOKER, BIG_JOKER)
NUM_RANKS = len(RANKS)

FIELD_BITS = 5
FIELD_MASK = (1 << FIELD_BITS) - 1
#: The top bit of every field: ``((hand | GUARD) - play) & GUARD == GUARD`` iff play is in hand.
GUARD = sum(1 << (FIELD_BITS * i + FIELD_BITS - 1) for i in range(NUM_RANKS))

_NAMES = {"B": "small joker", "R": "big joker"}
_TOKEN = re.compile(r"10|[0-9A-Za-z]")
_SEPARATORS = re.compile(r"[\s,+\-]+")


#: Joker notations of other engines and apps, and what they mean here.
_OTHER_NOTATIONS = {
    "X": "DouZero writes X for the small joker; here it is B",
    "D": "DouZero writes D for the big joker; here it is R",
    "S": "the small joker is B here (SJ would read as two cards)",
}
#: Two letters that read as two cards but are often meant as one joker ("BJ": big joker?).
_JOKER_WORD = re.compile(r"[BbRr][Jj]")


def parse(cards: str) -> tuple[int, ...]:
    """Read card text into rank indices, sorted low to high.

    Accepts ``T`` or ``10``, either case, and spaces, commas, dashes or plus signs between cards.
    Raises :class:`CardError` naming the first token that is not a card, and refuses text that
    could mean something else: ``bj`` might be "big joker" but would read as small joker and
    jack, so such a pair must be written apart (``B J``).

    >>> parse("bj")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ddz_rules.errors.CardError: 'bj' in 'bj' is ambiguous: it would read as B (small joker) ...
    """
    ambiguous = _JOKER_WORD.search(cards)
    if ambiguous:
        word = ambiguous.group(0)
        raise CardError(
            f"{word!r} in {quoted(cards)} is ambiguous: it would read as {word[0].upper()} "
            f"({_NAMES[word[0].upper()]}) + J (jack), but is often written "
            "for a joker; write the jokers as B (small) and R (big), and separate the cards "
            f"('{word[0].upper()} J') if you mean a joker and a jack")
    squeezed = _SEPARATORS.sub("", cards)
    ranks: list[int] = []
    pos = 0
    while pos < len(squeezed):
        match = _TOKEN.match(squeezed, pos)
        token = match.group(0) if match else squeezed[pos]
        rank = "T" if token == "10" else token.upper()
        if rank not in RANK_INDEX:
            hint = f" ({_OTHER_NOTATIONS[rank]})" if rank in _OTHER_NOTATIONS else ""
            raise CardError(
                f"bad card {token!r} in {quoted(cards)}{hint}: expected one of "
                "3 4 5 6 7 8 9 10 (or T) J Q K A 2 B (small joker) R (big joker)"
            )
        ranks.append(RANK_INDEX[rank])
        pos += len(token)
    return tuple(sorted(ranks))


def text(ranks: Iterable[int]) -> str:
    """Canonical card text, low to high (the inverse of :func:`parse`)."""
    return "".join(RANKS[r] for r in sorted(ranks))


def counts_of(ranks: Iterable[int]) -> tuple[int, ...]:
    """Count per rank index."""
    out = [0] * NUM_RANKS
    for r in ranks:
        out[r] += 1
    return tuple(out)


def pack(counts: Sequence[int]) -> int:
    """Pack a count vector into one integer, five bits per rank.

    >>> unpack(pack((1, 0, 3) + (0,) * 12))[:3]
    (1, 0, 3)
    """
    key = 0
    for i, c in enumerate(counts):
        key |= c << (FIELD_BITS * i)
    return key


_SHIFTS = tuple(FIELD_BITS * i for i in range(NUM_RANKS))


def unpack(key: int) -> tuple[int, ...]:
    """The count vector of a packed card set."""
    return tuple([(key >> shift) & FIELD_MASK for shift in _SHIFTS])


def pack_ranks(ranks: Iterable[int]) -> int:
    """Pack rank indices directly."""
    key = 0
    for r in ranks:
        key += 1 << (FIELD_BITS * r)
    return key


def pack_held(ranks: Sequence[int], copies: Sequence[int]) -> int:
    """:func:`pack_ranks` of cards read from a file, refusing more cards of a rank than the
    deck's ``copies`` give it: past its field, a rank's count would carry into the next
    rank's and read as other cards.

    >>> key_text(pack_held([0, 0, 1], (4,) * 15))
    '334'
    >>> pack_held([0] * 5, (4,) * 15)
    Traceback (most recent call last):
    ddz_rules.errors.CardError: 5 cards of rank 3, where the deck holds 4
    """
    for rank, count in enumerate(counts_of(ranks)):
        if count > copies[rank]:
            raise CardError(f"{count} cards of rank {RANKS[rank]}, where the deck holds "
                            f"{copies[rank]}")
    return pack_ranks(ranks)


def ranks_of(key: int) -> list[int]:
    """The rank index of every card in a packed card set, lowest first (the inverse of
    :func:`pack_ranks`).

    >>> ranks_of(pack_ranks([5, 0, 0]))
    [0, 0, 5]
    """
    return [r for r, c in enumerate(unpack(key)) for _ in range(c)]


def key_text(key: int) -> str:
    """Canonical text of a packed card set."""
    return "".join(RANKS[i] * c for i, c in enumerate(unpack(key)))


_GROUPS = (1 << (FIELD_BITS * 5)) - 1


def size(key: int) -> int:
    """Number of cards in a packed card set.

    Since 32**5 leaves remainder 1 modulo 2**25 - 1, the key's remainder adds up the fields in
    five groups of three; each group sum stays below 32 for up to ten copies of a rank, so the
    five five-bit groups of the remainder are exact.

    >>> size(pack_ranks(parse("33344456BR")))
    10
    """
    r = key % _GROUPS
    return ((r & FIELD_MASK) + ((r >> 5) & FIELD_MASK) + ((r >> 10) & FIELD_MASK)
            + ((r >> 15) & FIELD_MASK) + (r >> 20))


def contains(hand: int, play: int) -> bool:
    """True when every card of ``play`` is in ``hand`` (both packed).

    >>> contains(pack_ranks(parse("3345")), pack_ranks(parse("33")))
    True
    >>> contains(pack_ranks(parse("3345")), pack_ranks(parse("333")))
    False
    """
    return ((hand | GUARD) - play) & GUARD == GUARD


# --------------------------------------------------------------------------- suited cards
#
# Suits matter only where a rule names a card (Run Fast's first leader holds the 3 of spades):
# such a deck states ``deck.suits``, its deal deals suited cards, and records write them. Play
# stays in ranks: the cards of a rank are interchangeable in every combination.

#: Suit letters, as a suited card is written after its rank: ``3S`` is the 3 of spades.
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
_SUITED = re.compile(r"(10|[3-9TJQKA2])([SHCD])|([BR])", re.IGNORECASE)


def parse_suited(card: str) -> tuple[int, str]:
    """Read one suited card, such as ``3S`` or ``10h``: its rank index and suit letter (a
    joker, ``B`` or ``R``, has no suit).

    >>> parse_suited("3S"), parse_suited("10h"), parse_suited("R")
    ((0, 'S'), (7, 'H'), (14, ''))
    """
    found = _SUITED.fullmatch(card.strip())
    if not found:
        raise CardError(f"bad suited card {card!r}: expected a rank (3 4 5 6 7 8 9 10 or T J Q K "
                        "A 2) followed by a suit (S spades, H hearts, C clubs, D diamonds), "
                        "such as 3S, or a joker (B or R)")
    if found.group(3):
        return RANK_INDEX[found.group(3).upper()], ""
    rank = "T" if found.group(1) == "10" else found.group(1).upper()
    return RANK_INDEX[rank], found.group(2).upper()


def suited_text(rank: int, suit: str) -> str:
    """A suited card's canonical text, the inverse of :func:`parse_suited` (``suit`` empty
    for a joker, which has none).

    >>> suited_text(0, "S"), suited_text(BIG_JOKER, "")
    ('3S', 'R')
    """
    return RANKS[rank] + suit


def suited_name(card: str) -> str:
    """A suited card in words, for prose and messages.

    >>> suited_name("3S")
    '3 of spades'
    """
    rank, suit = parse_suited(card)
    if not suit:
        return _NAMES[RANKS[rank]]
    word = "10" if RANKS[rank] == "T" else RANKS[rank]
    return f"{word} of {SUIT_NAMES[suit]}"
