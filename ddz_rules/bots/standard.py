"""Sensible rules of thumb: bid on control cards, lead low, answer with the smallest play that
beats, and keep bombs unless an opponent is about to go out."""

from __future__ import annotations

import random

from ddz_rules import cards
from ddz_rules.bots.base import (
    Bot,
    auction_word,
    control_points,
    distance,
    joins,
    keeps_out,
    opponents,
    plays_of,
    wild_cards,
)
from ddz_rules.game import PASS, Action, Phase, View

#: Control points needed to bid 1, 2, 3 (or to call, then to rob or grab).
BID_AT = (5.0, 8.0, 11.0)
#: An opponent this close to its goal is worth a bomb.
BOMB_WHEN_OPPONENT_WITHIN = 4


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
        plain = [p for p in plays if p.reading.level == 0]
        if view.to_beat is None:
            pool = plain or plays
            return min(pool, key=lambda p: (wild_cards(view, p.key), p.reading.rank_index,
                                            -cards.size(p.key), p.reading.kicker_key))
        if plain:
            return min(plain, key=lambda p: (wild_cards(view, p.key), p.reading.rank_index,
                                             cards.size(p.key)))
        if any(distance(view, s) <= BOMB_WHEN_OPPONENT_WITHIN for s in opponents(view)):
            return min(plays, key=lambda p: (p.reading.level, p.reading.rank_index))
        return PASS
