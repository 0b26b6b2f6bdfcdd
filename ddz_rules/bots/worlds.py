"""Worlds consistent with a view: the hidden cards dealt anew, the public story unchanged.

A seat knows its own cards, every play, the kitty once shown (so the landlord must still hold
whichever kitty cards he has not played), and the marked card's holder. Everything else it
cannot see is shuffled among the other seats, the undealt cards (the cards set aside, where
nobody has a landlord's kitty) and the unseen kitty, each keeping its size. Replaying the
public actions on such a deal reaches a state the seat cannot tell from the real one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ddz_rules import cards
from ddz_rules.game import PASS, Action, Deal, Hand, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play, PlayTable


def sample_deal(view: View, ruleset: Ruleset, rng: random.Random) -> Deal:
    """A deal that agrees with everything ``view`` shows, hidden cards drawn at random."""
    n = ruleset.players
    played = played_by_seat(view.plays, n)
    kitty_known = view.kitty is not None
    taken = view.landlord is not None
    known = [0] * n  # cards the seat knows are still in another seat's hand
    if taken and kitty_known and view.landlord != view.seat:
        assert view.landlord is not None and view.kitty is not None
        known[view.landlord] = minus(view.kitty, played[view.landlord])
    if view.marked_card is not None:
        holder, rank = view.marked_card
        one = 1 << (cards.FIELD_BITS * rank)
        already = played[holder] + (view.kitty or 0) * (holder == view.landlord)
        if holder != view.seat and not cards.contains(already, one):
            known[holder] += one
    others = [s for s in range(n) if s != view.seat]
    hidden_sizes = {s: view.hand_sizes[s] - cards.size(known[s]) for s in others}
    unseen = ruleset.deck_key - view.hand - sum(played) - sum(known)
    pool = cards.ranks_of(unseen)
    rng.shuffle(pool)

    def take(count: int) -> int:
        drawn = pool[:count]
        del pool[:count]
        return cards.pack_ranks(drawn)

    current = [view.hand if s == view.seat else 0 for s in range(n)]
    for s in others:
        current[s] = known[s] + take(hidden_sizes[s])
    undealt = take(view.undealt)
    if not taken:
        kitty = take(ruleset.kitty)
    elif kitty_known:
        assert view.kitty is not None
        kitty = view.kitty
    else:  # taken but never shown: some of the landlord's cards were the kitty
        assert view.landlord is not None
        owned = current[view.landlord] + played[view.landlord]
        kitty = cards.pack_ranks(rng.sample(cards.ranks_of(owned), ruleset.kitty))
    dealt = []
    for s in range(n):
        start = current[s] + played[s]
        if taken and s == view.landlord:
            start -= kitty
        dealt.append(start)
    marked = view.marked_card[1] if view.marked_card else None
    return Deal(tuple(dealt), kitty, undealt, view.dealer, view.first_bidder, marked,
                view.turned_card, None, _wild_ranks(view, ruleset, rng),
                lead_card=_lead_card(view, ruleset))


def _lead_card(view: View, ruleset: Ruleset) -> str | None:
    """The lead card of a world (``play.first_leader: card_holder``) where the hand still needs
    it: before the first play, which must hold its rank. Only the first leader decides then,
    and he knows his cards: ``play.lead_card`` if he holds its rank, else (it was not dealt,
    ``play.lead_card_missing``) the lowest card of his lowest rank. Once the first play is
    made nothing needs it (and a world's cards may move between seats), so it is None."""
    if (ruleset.first_bidder != "card_holder" or ruleset.lead_card is None or view.plays
            or view.seat != view.first_bidder):
        return None
    named = cards.parse_suited(ruleset.lead_card)[0]
    if view.hand >> (cards.FIELD_BITS * named) & cards.FIELD_MASK:
        return ruleset.lead_card
    low = cards.ranks_of(view.hand)[0]
    return next((c for c in ruleset.suited_deck if cards.parse_suited(c)[0] == low),
                ruleset.lead_card)


def _wild_ranks(view: View, ruleset: Ruleset, rng: random.Random) -> tuple[int, ...]:
    """The wild ranks of a world: those the view has seen drawn, then, for any still to be
    drawn, ranks drawn at random from the rest."""
    seen = list(view.wild)
    left = [r for r in ruleset.wild_ranks if r not in seen]
    rng.shuffle(left)
    return tuple(seen + left[:len(ruleset.wild_drawn) - len(seen)])


#: The public story: every auction word, the landlord's call for a partner where there is
#: one, then every play or pass, with the seat that acted.
Story = tuple[tuple[int, Action], ...]


def story_of(view: View) -> Story:
    """The public actions of ``view`` in order, passes as ``"pass"``."""
    plays = tuple((seat, play if play is not None else PASS) for seat, play in view.plays)
    call: Story = ()
    if view.partner_call is not None:
        assert view.landlord is not None
        call = ((view.landlord, view.partner_call),)
    return tuple(view.auction) + call + plays


def replayed(view: View, ruleset: Ruleset, deal: Deal, table: PlayTable) -> Hand:
    """The hand reached by replaying the public actions of ``view`` on ``deal``."""
    hand = Hand(ruleset, deal, table)
    for _, action in story_of(view):
        hand.apply(action)
    return hand


def played_by_seat(plays: Sequence[tuple[int, Play | None]], players: int) -> list[int]:
    """The cards each seat has played in ``plays`` (a view's or a hand's public plays)."""
    played = [0] * players
    for seat, play in plays:
        if play is not None:
            played[seat] += play.key
    return played


def minus(a: int, b: int) -> int:
    """The cards of ``a`` not in ``b``, rank by rank (never below zero)."""
    return cards.pack([max(x - y, 0) for x, y in zip(cards.unpack(a), cards.unpack(b),
                                                      strict=True)])


