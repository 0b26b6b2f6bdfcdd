"""Botzone's requests made from a whole hand played in our referee, as Botzone's judges send
them (``docs/using/formats.md`` states the protocol): the test side of ``ddz botzone``.

A hand is dealt under a Botzone preset by seat 2, so seat 0 bids first (or, in Fight the
Landlord, is the landlord); each card gets Botzone's number (rank times four plus a copy
index, the jokers 52 and 53). At each turn the acting seat is sent what the judge would send
it, with its earlier requests and its own answers, and its answer is applied to the hand:
an answer the referee refuses fails the test.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ddz_rules import cards
from ddz_rules.game import PASS, Hand, Phase
from ddz_rules.ruleset import Ruleset

Answer = Callable[[str], Any]


@dataclass
class Seat:
    """What one seat has been sent and has answered."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    responses: list[Any] = field(default_factory=list)

    def input(self) -> str:
        return json.dumps({"requests": self.requests, "responses": self.responses})


def numbered(key: int, taken: dict[int, int]) -> list[int]:
    """Botzone's numbers for the cards of ``key``, each rank's copies numbered in turn."""
    out = []
    for rank in cards.ranks_of(key):
        if rank >= cards.RANK_INDEX["B"]:
            out.append(52 + rank - cards.RANK_INDEX["B"])
        else:
            out.append(rank * 4 + taken.get(rank, 0))
            taken[rank] = taken.get(rank, 0) + 1
    return out


def play_hand(ruleset: Ruleset, seed: int, answer: Answer, two: bool) -> tuple[Hand, list[Seat]]:
    """Play a hand with every seat answered by ``answer`` (a Botzone input in, a response
    out), as Fight the Landlord 2 (``two``) or Fight the Landlord sends the requests."""
    hand = Hand.new(ruleset, seed, dealer=2)
    taken: dict[int, int] = {}
    dealt = [numbered(h, taken) for h in hand.deal.hands]
    public = numbered(hand.deal.kitty, taken)
    seats = [Seat() for _ in range(3)]
    bids: list[int] = []
    while hand.phase is Phase.AUCTION:
        seat = hand.to_act
        assert seat is not None
        seats[seat].requests.append({"own": dealt[seat], "bid": list(bids)})
        bid = answer(seats[seat].input())
        seats[seat].responses.append(bid)
        hand.apply(PASS if bid == 0 else str(bid))
        bids.append(bid)
    landlord = hand.landlord
    assert landlord is not None
    whole = [list(d) + (public if s == landlord else []) for s, d in enumerate(dealt)]
    held = [list(w) for w in whole]
    log: list[list[int]] = []
    opened = [False] * 3
    while hand.result is None:
        seat = hand.to_act
        assert seat is not None
        history = [[], [], *log][-2:]
        if opened[seat]:
            request: dict[str, Any] = {"history": history}
        elif two:
            request = {"history": history, "own": dealt[seat], "publiccard": public,
                       "landlord": landlord, "pos": seat, "finalbid": max(hand.bid, 1)}
        else:
            request = {"own": whole[seat], "history": history, "publiccard": public}
        opened[seat] = True
        seats[seat].requests.append(request)
        move = answer(seats[seat].input())
        assert isinstance(move, list) and set(move) <= set(held[seat]), (seat, move)
        seats[seat].responses.append(move)
        if move:
            for card in move:
                held[seat].remove(card)
            ranks = [card // 4 if card < 52 else card - 52 + cards.RANK_INDEX["B"]
                     for card in move]
            hand.apply(cards.text(sorted(ranks)))  # the presets read every play one way
        else:
            hand.apply(PASS)
        log.append(move)
    return hand, seats
