"""What a seat observes, as one flat array: the same layout for every ruleset's shape.

Everything is computed from the seat's :class:`~ddz_rules.game.View` and nothing else, so an
observation can hold no card the seat may not see. Seats are counted from the observer: offset
0 is the observer, 1 the next seat to act after it, and so on round the table.

A card set is a block of ``15 * C`` numbers, ``C`` the most copies of a rank in the deck (4,
or 8 with two decks): for each rank from 3 to the big joker, ``C`` flags, the ``k``-th set when
the set holds at least ``k`` cards of that rank (a thermometer code, so that "at least two 7s"
is one feature). Other features are flags (one-hot) or numbers scaled to lie in ``[0, 1]``.
:attr:`Layout.features` lists every feature with its slice and meaning; the rules book's
Environments page prints it for each ruleset.

>>> from ddz_rules.ruleset import load
>>> layout = Layout.of(load("classic"))
>>> layout.size, layout["hand"].stop - layout["hand"].start
(725, 60)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from ddz_rules import cards
from ddz_rules.env.actions import ActionSpace
from ddz_rules.errors import EnvError
from ddz_rules.game import PASS, Phase, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import base_of

#: The phases an observation distinguishes (a seat never observes the deal or kitty phases).
PHASES = (Phase.AUCTION, Phase.CALL, Phase.PLAY, Phase.SETTLED)
#: Card sets an encoder keeps the bytes of (it forgets them all when full).
SEEN_LIMIT = 1 << 16
#: The most actions a seat back an observation's history may hold.
MAX_HISTORY = 32
#: Roles, in the order of a seat's role flags: no flag set where there is no landlord (yet).
ROLES = ("landlord", "partner", "peasant")


@dataclass(frozen=True)
class Feature:
    """One named part of the observation: ``array[start:stop]``."""

    name: str
    start: int
    stop: int
    meaning: str

    @property
    def size(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class Layout:
    """The observation's features for one ruleset, in order, and the sizes they depend on."""

    players: int
    copies: int
    types: tuple[str, ...]
    words: tuple[str, ...]
    features: tuple[Feature, ...]
    #: Each seat's last actions of the play the observation holds (0: none).
    history: int = 0

    @property
    def size(self) -> int:
        return self.features[-1].stop

    def __getitem__(self, name: str) -> Feature:
        for feature in self.features:
            if feature.name == name:
                return feature
        raise KeyError(name)

    @classmethod
    def of(cls, ruleset: Ruleset, history: int = 0) -> Layout:
        """The layout for ``ruleset``: the number of seats, copies per rank, combination
        types and auction words set the sizes. ``history`` (0 to :data:`MAX_HISTORY`) adds
        each seat's last ``history`` actions of the play, at the end so that every other
        feature keeps its place."""
        if isinstance(history, bool) or not isinstance(history, int) or not (
                0 <= history <= MAX_HISTORY):
            raise EnvError(f"history must be an integer from 0 to {MAX_HISTORY}, not "
                           f"{history!r}")
        players, copies = ruleset.players, max(ruleset.copies)
        types = tuple(c.name for c in ruleset.combinations)
        words = ActionSpace.of(ruleset).words
        block = cards.NUM_RANKS * copies
        parts: list[tuple[str, int, str]] = [
            ("hand", block, "the observer's cards"),
            *((f"played.{k}", block, f"the cards seat offset {k} has played this hand")
              for k in range(players)),
            ("unseen", block, "cards the observer has not seen: the deck less its own hand and "
                              "every card played (the kitty's cards, where shown, and undealt "
                              "cards included)"),
            ("kitty", block, "the kitty, once the observer may see it (the landlord, or "
                             "everyone where it is shown)"),
            *((f"trick.{k}", block, f"seat offset {k}'s last play in the current trick")
              for k in range(players)),
            ("to_beat", block, "the play to beat (empty when the seat to act leads)"),
            *((f"trick_pass.{k}", 1, f"1 if seat offset {k}'s last action in the current trick "
                                     "was a pass") for k in range(players)),
            ("to_beat.type", len(types), "its combination type, one flag per type: "
                                         + ", ".join(types)),
            ("to_beat.length", 1, "its chain length over 20"),
            ("to_beat.seat", players, "the seat offset that made it"),
            ("leads", 1, "1 if the seat to act leads the trick"),
            *((f"auction.{k}", len(words), f"seat offset {k}'s last auction word, one flag per "
                                            "word: " + ", ".join(words)) for k in range(players)),
            ("auction.words", 1, "auction words said so far over 12"),
            ("base", 1, "the hand's base (the bid where the bid is the base) over 10"),
            ("multiplier", 1, "log2 of the multiplier over 16"),
            ("cards_left", players, "cards in each seat's hand, by offset, over the largest hand"),
            ("role", players * len(ROLES), "each seat offset's role flags: landlord, partner "
                                           "(once joined), peasant; none without a landlord"),
            ("phase", len(PHASES), "the phase: auction, call, play, settled"),
            ("to_act", players, "the seat offset to act"),
            ("first_bidder", players, "the seat offset that bid first (or, without an auction, "
                                      "led first)"),
            ("dealer", players, "the dealer's seat offset"),
            ("wild", cards.NUM_RANKS, "the wild ranks shown so far"),
            ("called", cards.NUM_RANKS + 1, "the rank the landlord called for a partner, or the "
                                            "last flag where he plays alone"),
            ("advantage", 1, "the two-player peasant's finishing line (cards) over 20"),
            ("undealt", 1, "cards never dealt over the deck's size"),
            ("marked_card", cards.NUM_RANKS, "the marked card's rank, where a card is marked"),
            ("turned_card", cards.NUM_RANKS, "the turned card's rank, where one is turned"),
            *((f"history.{k}.{j}", block, f"seat offset {k}'s action {j + 1} back in the play "
                                          "(its cards; empty for a pass or before its first)")
              for j in range(history) for k in range(players)),
            *((f"history_pass.{k}", history, f"1 at j where seat offset {k}'s action j + 1 back "
                                             "in the play was a pass")
              for k in range(players) if history),
        ]
        features, at = [], 0
        for name, size, meaning in parts:
            features.append(Feature(name, at, at + size, meaning))
            at += size
        return cls(players, copies, types, words, tuple(features), history)

    @cached_property
    def offsets(self) -> dict[str, int]:
        """Each feature's start, by name (for the encoder's hot loop)."""
        return {f.name: f.start for f in self.features}


class Encoder:
    """Fills observation arrays from views for one ruleset (numpy; the ``rl`` extra).

    The hot path of every environment step: card blocks are joined as bytes (each card set's
    block kept once made) and written in one copy, every other feature is a few flags.
    """

    def __init__(self, ruleset: Ruleset, history: int = 0) -> None:
        import numpy as np

        self.np = np
        self.ruleset = ruleset
        layout = self.layout = Layout.of(ruleset, history)
        c = self.copies = layout.copies
        n = self.players = layout.players
        self.type_index = {t: i for i, t in enumerate(layout.types)}
        self.word_index = {w: i for i, w in enumerate(layout.words)}
        self.deck_key = ruleset.deck_key
        #: Per three ranks (a 15-bit chunk of a packed card set), their thermometer flags as
        #: float32 bytes; and the card sets seen lately, as the bytes of their whole block.
        self.triples = _triples(c)
        self.seen: dict[int, bytes] = {}
        #: The plays of the last view encoded, and what they added up to (each seat's cards
        #: played, where the trick began, the passes since): a view that extends them is read
        #: from there on, so a step costs the plays since the last one, not the whole hand.
        self.last: tuple[tuple[tuple[int, Any], ...], list[int], int, int] = ((), [0] * n, 0, 0)
        self.block_bytes = 4 * cards.NUM_RANKS * c
        #: Every card block comes first in the layout: they end here.
        self.cards_stop = layout["to_beat"].stop
        #: Per observer, each seat's offset from it, and the seats in offset order.
        self.rel = [[(seat - me) % n for seat in range(n)] for me in range(n)]
        self.order = [[(me + k) % n for k in range(n)] for me in range(n)]
        at = layout.offsets
        self.at_pass, self.at_type = at["trick_pass.0"], at["to_beat.type"]
        self.at_length, self.at_beat_seat = at["to_beat.length"], at["to_beat.seat"]
        self.at_leads, self.at_auction = at["leads"], at["auction.0"]
        self.at_words, self.at_base = at["auction.words"], at["base"]
        self.at_multiplier, self.at_left = at["multiplier"], at["cards_left"]
        self.at_role, self.at_phase = at["role"], at["phase"]
        self.at_to_act, self.at_first = at["to_act"], at["first_bidder"]
        self.at_dealer, self.at_wild = at["dealer"], at["wild"]
        self.at_called, self.at_advantage = at["called"], at["advantage"]
        self.at_undealt, self.at_marked = at["undealt"], at["marked_card"]
        self.at_turned = at["turned_card"]
        self.history = layout.history
        if self.history:
            self.at_history, self.at_history_pass = at["history.0.0"], at["history_pass.0"]
        self.phase_index = {phase: i for i, phase in enumerate(PHASES)}
        self.n_words = len(layout.words)
        self.max_hand = ruleset.max_hand
        self.deck_size = ruleset.deck_size

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its ruleset (and, for the history, its layout's depth); the card
        blocks and plays it remembers are caches, made again as needed."""
        return (Encoder, (self.ruleset, self.layout.history))

    def card_bytes(self, key: int) -> bytes:
        """A card set's block, as the float32 bytes of its thermometer flags."""
        found = self.seen.get(key)
        if found is None:
            triples = self.triples
            found = b"".join([triples[key & 0x7FFF], triples[(key >> 15) & 0x7FFF],
                              triples[(key >> 30) & 0x7FFF], triples[(key >> 45) & 0x7FFF],
                              triples[key >> 60]])
            if len(self.seen) >= SEEN_LIMIT:
                self.seen.clear()
            self.seen[key] = found
        return found

    def encode(self, view: View, out: Any | None = None) -> Any:
        """The observation of ``view``'s seat as a float32 array of :attr:`Layout.size`."""
        np = self.np
        if out is None:
            out = np.zeros(self.layout.size, dtype=np.float32)
        else:
            out.fill(0.0)
        n = self.players
        me = view.seat
        rel = self.rel[me]
        # The cards each seat has played, and where the current trick began.
        plays = view.plays
        seen, was_played, start, passes = self.last
        if len(seen) <= len(plays) and plays[:len(seen)] == seen:
            played, first = list(was_played), len(seen)
        else:
            played, start, passes, first = [0] * n, 0, 0, 0
        for i in range(first, len(plays)):
            seat, play = plays[i]
            if play is None:
                passes += 1
                if passes == n - 1:  # play.trick: others_pass, the one trick rule
                    start, passes = i + 1, 0
            else:
                passes = 0
                played[seat] += play.key
        self.last = (plays, played, start, passes)
        trick = [0] * n
        beat = view.to_beat
        if beat is not None:
            at_pass = self.at_pass
            for seat, play in plays[start:]:
                if play is None:
                    trick[seat] = 0
                    out[at_pass + rel[seat]] = 1.0
                else:
                    trick[seat] = play.key
                    out[at_pass + rel[seat]] = 0.0
            out[self.at_type + self.type_index[beat.reading.type]] = 1.0
            out[self.at_length] = min(beat.reading.length, 20) / 20
            if view.to_beat_seat is not None:
                out[self.at_beat_seat + rel[view.to_beat_seat]] = 1.0
        elif view.phase is Phase.PLAY:
            out[self.at_leads] = 1.0
        order = self.order[me]
        block = self.card_bytes
        out[:self.cards_stop] = np.frombuffer(b"".join([
            block(view.hand), *[block(played[s]) for s in order],
            block(self.deck_key - view.hand - sum(played)), block(view.kitty or 0),
            *[block(trick[s]) for s in order], block(beat.key if beat else 0)]),
            dtype=np.float32)
        if view.auction:
            last_word = dict(view.auction)
            at, width, index = self.at_auction, self.n_words, self.word_index
            for seat, word in last_word.items():
                out[at + width * rel[seat] + index[word]] = 1.0
            out[self.at_words] = min(len(view.auction), 12) / 12
        out[self.at_base] = min(_base(self.ruleset, view), 10) / 10
        out[self.at_multiplier] = min(view.multiplier.bit_length() - 1, 16) / 16
        at = self.at_left
        for seat, size in enumerate(view.hand_sizes):
            out[at + rel[seat]] = size / self.max_hand
        if view.landlord is not None:
            at = self.at_role
            out[at + 3 * rel[view.landlord]] = 1.0
            for seat in range(n):
                if seat != view.landlord:
                    out[at + 3 * rel[seat] + (1 if seat == view.joined else 2)] = 1.0
        phase = self.phase_index.get(view.phase)
        if phase is not None:
            out[self.at_phase + phase] = 1.0
        if view.to_act is not None:
            out[self.at_to_act + rel[view.to_act]] = 1.0
        out[self.at_first + rel[view.first_bidder]] = 1.0
        out[self.at_dealer + rel[view.dealer]] = 1.0
        for rank in view.wild:
            out[self.at_wild + rank] = 1.0
        if view.called is not None:
            out[self.at_called + view.called] = 1.0
        elif view.partner_call is not None:
            out[self.at_called + cards.NUM_RANKS] = 1.0
        if view.advantage is not None:
            out[self.at_advantage] = min(view.advantage, 20) / 20
        if view.undealt:
            out[self.at_undealt] = view.undealt / self.deck_size
        if view.marked_card is not None:
            out[self.at_marked + view.marked_card[1]] = 1.0
        if view.turned_card is not None:
            out[self.at_turned + view.turned_card] = 1.0
        if self.history:
            self._encode_history(view, out)
        return out

    def _encode_history(self, view: View, out: Any) -> None:
        """Each seat's last :attr:`history` actions of the play, most recent first."""
        n, depth, rel = self.players, self.history, self.rel[view.seat]
        back = [0] * n
        width = self.block_bytes // 4
        for seat, play in reversed(view.plays):
            j, k = back[seat], rel[seat]
            if j == depth:
                continue
            back[seat] = j + 1
            if play is None:
                out[self.at_history_pass + depth * k + j] = 1.0
            else:
                at = self.at_history + width * (n * j + k)
                out[at:at + width] = self.np.frombuffer(self.card_bytes(play.key),
                                                        dtype=self.np.float32)
            if sum(back) == depth * n:
                break


def _base(ruleset: Ruleset, view: View) -> int:
    """The hand's base as the view shows it: the highest bid so far (each bid outbids the
    last) where bids set it."""
    for _, word in reversed(view.auction):
        said = base_said(ruleset, word)
        if said is not None:
            return said
    return base_before_bids(ruleset)


def base_before_bids(ruleset: Ruleset) -> int:
    """The base an observation shows before any bid: the fixed bid's where the auction has
    one (``auction.fixed_bid``), else no bid's."""
    return base_of(ruleset, 0 if ruleset.fixed_bid is None else ruleset.fixed_bid)


def base_said(ruleset: Ruleset, word: str) -> int | None:
    """The base an observation shows once ``word`` is said: a bid's, where bids set it; None
    where the word leaves the base shown as it was."""
    if ruleset.fixed_bid is not None or not word.isdigit():
        return None
    return base_of(ruleset, int(word))


@cache
def _triples(copies: int) -> list[bytes]:
    """For every three ranks' counts (15 bits of a packed card set), their thermometer flags
    as float32 bytes, ``3 * copies`` of them."""
    row = [b"".join(b"\x00\x00\x80\x3f" if k < count else bytes(4) for k in range(copies))
           for count in range(32)]
    return [row[chunk & 31] + row[(chunk >> 5) & 31] + row[chunk >> 10]
            for chunk in range(1 << 15)]


__all__ = ["MAX_HISTORY", "PASS", "PHASES", "ROLES", "Encoder", "Feature", "Layout",
           "base_before_bids", "base_said"]
