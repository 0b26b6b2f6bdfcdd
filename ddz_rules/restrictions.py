"""Kicker restrictions: each YAML key under ``kickers`` gets its meaning here, in one function.

A restriction looks at one candidate reading (a body and its kickers) and returns why it is
forbidden, or ``None``. Most restrictions judge each kicker rank on its own (*per-rank*): the
play table uses them to prune which kicker ranks it even tries, and ``explain`` uses the very
same functions to say why a card set is not a play. The rest judge the whole candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ddz_rules.cards import JOKERS, RANKS
from ddz_rules.ruleset import CombinationType

#: (ctype, body counts, rank, kicker cards of that rank) -> reason or None
PerRank = Callable[[CombinationType, Sequence[int], int, int], str | None]
#: (ctype, chain rank indices, kicker counts) -> reason or None
Whole = Callable[[CombinationType, Sequence[int], Sequence[int]], str | None]


def quads_are_blocks(ctype: CombinationType, body: Sequence[int], rank: int, n: int) -> str | None:
    """All four cards of a rank in one play must be one four-card body (S0 restriction 2)."""
    if ctype.kicker_rules.quads_are_blocks and n and body[rank] + n >= 4 and body[rank] != 4:
        return (f"the four {RANKS[rank]}s must be played as one four-card body "
                "(kickers.quads_are_blocks)")
    return None


def may_match_body(ctype: CombinationType, body: Sequence[int], rank: int, n: int) -> str | None:
    """A kicker may not share a rank with the body (S0 restriction 3)."""
    if not ctype.kicker_rules.may_match_body and n and body[rank]:
        return f"a kicker may not have the body's rank {RANKS[rank]} (kickers.may_match_body)"
    return None


def max_copies_among_kickers(ctype: CombinationType, body: Sequence[int], rank: int,
                             n: int) -> str | None:
    """No rank more than N times among the kickers (S0 restriction 4)."""
    limit = ctype.kicker_rules.max_copies_among_kickers
    if limit is not None and n > limit:
        return (f"{n} {RANKS[rank]}s among the kickers; at most {limit} cards of a rank may be "
                "kickers (kickers.max_copies_among_kickers)")
    return None


def pair_kickers_distinct(ctype: CombinationType, body: Sequence[int], rank: int,
                          n: int) -> str | None:
    """Pair kickers must be of different ranks (S1)."""
    if ctype.kicker_unit == 2 and ctype.kicker_rules.pair_kickers_distinct and n > 2:
        return (f"two kicker pairs of rank {RANKS[rank]}; kicker pairs must differ in rank "
                "(kickers.pair_kickers_distinct)")
    return None


def single_kickers_distinct(ctype: CombinationType, body: Sequence[int], rank: int,
                            n: int) -> str | None:
    """Single kickers must be of different ranks (S1 and S3 for four-with-two)."""
    if ctype.kicker_unit == 1 and ctype.kicker_rules.single_kickers_distinct and n > 1:
        return (f"{n} single kickers of rank {RANKS[rank]}; single kickers must differ in rank "
                f"for {ctype.name} (kickers.single_kickers_distinct)")
    return None


def jokers_as_kickers(ctype: CombinationType, body: Sequence[int], rank: int,
                      n: int) -> str | None:
    """Jokers may not be kickers at all (S3 for four-with-two)."""
    if not ctype.kicker_rules.jokers_as_kickers and n and rank in JOKERS:
        return f"a joker may not be a kicker of {ctype.name} (kickers.jokers_as_kickers)"
    return None


def both_jokers_as_kickers(ctype: CombinationType, chain: Sequence[int],
                           kickers: Sequence[int]) -> str | None:
    """The two jokers may not both be kickers of one play (S0 restriction 4)."""
    if not ctype.kicker_rules.both_jokers_as_kickers and all(kickers[j] for j in JOKERS):
        return "the two jokers may not both be kickers (kickers.both_jokers_as_kickers)"
    return None


def kicker_trio_beside_chain(ctype: CombinationType, chain: Sequence[int],
                             kickers: Sequence[int]) -> str | None:
    """Three single kickers of one rank may not extend an airplane's chain (RLCard's table).

    Such a play reads better as a longer airplane; RLCard's table leaves it out, except where
    the trio could not extend the chain (a trio of 2s next to an ace-high chain).
    """
    if ctype.kicker_rules.kicker_trio_beside_chain or ctype.kicker_unit != 1 or len(chain) < 2:
        return None
    for rank in (chain[0] - 1, chain[-1] + 1):
        if 0 <= rank <= ctype.high and kickers[rank] >= 3:
            return (f"the kicker trio {RANKS[rank] * 3} sits beside the chain and would lengthen "
                    "it (kickers.kicker_trio_beside_chain)")
    return None


#: Order matters only for which reason ``explain`` names first.
PER_RANK: tuple[PerRank, ...] = (
    quads_are_blocks,
    may_match_body,
    max_copies_among_kickers,
    pair_kickers_distinct,
    single_kickers_distinct,
    jokers_as_kickers,
)
WHOLE: tuple[Whole, ...] = (both_jokers_as_kickers, kicker_trio_beside_chain)


def rank_reason(ctype: CombinationType, body: Sequence[int], rank: int, n: int) -> str | None:
    """The first per-rank restriction that forbids ``n`` kicker cards of ``rank``."""
    for check in PER_RANK:
        reason = check(ctype, body, rank, n)
        if reason:
            return reason
    return None


def whole_reason(ctype: CombinationType, chain: Sequence[int],
                 kickers: Sequence[int]) -> str | None:
    """The first whole-play restriction that forbids this body and these kickers."""
    for check in WHOLE:
        reason = check(ctype, chain, kickers)
        if reason:
            return reason
    return None
