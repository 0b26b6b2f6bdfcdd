"""Sensible rules of thumb: bid on control cards, lead low, answer with the smallest play that
beats, and keep bombs unless an opponent is about to go out or a bomb is paid for at once
(where a pass is not allowed, the lowest play that beats). With no landlord, no low single is
played to a next player holding one card while another play will do.

Leading low means leading the lowest card held, in the play that sheds the most cards with it:
with ``3456789TJQKA`` in hand that is the whole chain, not the lone 3. Keeping bombs means
never spending one as a plain play: four 3s are not led as a four-with-two, and neither joker
of a rocket is played alone, while a play that leaves every bomb whole will do.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ddz_rules import cards
from ddz_rules.bots.base import (
    Bot,
    auction_word,
    control_points,
    distance,
    joins,
    keeps_out,
    lets_out,
    opponents,
    plays_of,
    wild_cards,
)
from ddz_rules.cards import BIG_JOKER, SMALL_JOKER
from ddz_rules.game import PASS, Action, Phase, View
from ddz_rules.scoring import bomb_payment
from ddz_rules.table import Play

#: Control points needed to bid 1, 2, 3 (or to call, then to rob or grab).
BID_AT = (5.0, 8.0, 11.0)
#: An opponent this close to its goal is worth a bomb.
BOMB_WHEN_OPPONENT_WITHIN = 4


def bomb_ranks(hand: int) -> frozenset[int]:
    """The ranks of the bombs a hand holds: four or more of a rank, and both jokers (the
    rocket) where it holds them."""
    counts = cards.unpack(hand)
    ranks = {r for r in range(SMALL_JOKER) if counts[r] >= 4}
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        ranks |= {SMALL_JOKER, BIG_JOKER}
    return frozenset(ranks)


def breaks(play: Play, bombs: frozenset[int]) -> bool:
    """Whether a plain play spends cards of a bomb (its four 3s as a four-with-two, one joker
    of the rocket): such a play breaks the bomb up."""
    if not bombs or play.reading.level > 0:
        return False
    counts = cards.unpack(play.key)
    return any(counts[r] for r in bombs)


def lowest(play: Play) -> int:
    """The lowest rank among a play's cards, kickers included."""
    return _lowest_rank(play.key)


@lru_cache(maxsize=1 << 16)
def _lowest_rank(key: int) -> int:
    """The lowest rank a non-empty card set holds (remembered: a seat's leads are many, and
    the same ones come back at every lead)."""
    return next(r for r, n in enumerate(cards.unpack(key)) if n)


class StandardBot(Bot):
    """Rule-based bidding and play."""

    level = "standard"

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase is Phase.AUCTION:
            return auction_word(view.legal, control_points(cards.unpack(view.hand)), BID_AT)
        if view.phase is Phase.CALL:
            return self.call(view)
        plays = plays_of(view.legal)
        # A peasant keeps out of the landlord's side while it has another choice, unless the
        # landlord leads the race.
        staying = [p for p in plays if not joins(view, p)]
        if keeps_out(view) and (staying or view.to_beat is not None):
            plays = staying
        if not plays:
            return PASS
        if not self.ruleset.has_landlord:
            # Every other seat is an opponent: no low single to a next seat holding one card
            # while another play will do.
            plays = [p for p in plays if not lets_out(view, self.ruleset, p)] or plays
        bombs = bomb_ranks(view.hand)
        plain = [p for p in plays if p.reading.level == 0]
        if view.to_beat is None:
            pool = plain or plays
            return min(pool, key=lambda p: (wild_cards(view, p.key), breaks(p, bombs), lowest(p),
                                            -cards.size(p.key), p.reading.kicker_key))
        if plain:
            best = min(plain, key=lambda p: (wild_cards(view, p.key), breaks(p, bombs),
                                             p.reading.rank_index, cards.size(p.key)))
            if not breaks(best, bombs):
                return best
        # A bomb is spent on an opponent about to go out, or where each bomb is paid for at
        # once (``scoring.bomb_payments``).
        if (any(bomb_payment(self.ruleset, p.reading.type) for p in plays)
                or any(distance(view, s) <= BOMB_WHEN_OPPONENT_WITHIN for s in opponents(view))):
            return min(plays, key=lambda p: (p.reading.level == 0, p.reading.level,
                                             p.reading.rank_index))
        if PASS not in view.legal:  # play.must_beat: a seat that can beat may not pass
            return min(plays, key=lambda p: (p.reading.level, p.reading.rank_index,
                                             cards.size(p.key)))
        return PASS
