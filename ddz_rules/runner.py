"""Whole hands played at random, by compiled code where it is built: the fast path for random
play at scale (benchmarks, smoke runs, environments' rollouts) beside :mod:`ddz_rules.game`.

:func:`play_random` is the reference: deal with a seed, then every seat chooses uniformly
among :meth:`Hand.legal_actions <ddz_rules.game.Hand.legal_actions>` with a second generator,
seeded ``seed ^ CHOICE_SEED``. A :class:`HandRunner` plays the same hands: in C
(``_moves.Runner``, built from :func:`runner_arrays`) where the compiled modules are built and
the ruleset uses nothing the runner does not interpret (:func:`unsupported` says what), else
with :func:`play_random`. Either way it returns a :class:`RandomHand`: the scores, whether the
hand was dealt again, and each choice as an index into the legal actions, from which
:meth:`RandomHand.replay` rebuilds the whole :class:`~ddz_rules.game.Hand` (its record) on
request.

The C runner knows no rule: this module flattens the deck, who bids first, the auction's
state graph, each play's multiplier and payment, the duties that apply, the closing and
dealt-hand bonuses, the cap and the cards-left settlement's amounts into arrays, each value
computed by the one function that gives it meaning (:mod:`ddz_rules.game`,
:mod:`ddz_rules.auction`, :mod:`ddz_rules.scoring`, :mod:`ddz_rules.duties`). Its loop is
:class:`~ddz_rules.game.Hand`'s, written again in C and proved equal by the differential
tests. A turn where wild cards are in play is listed by Python (the table's wild path and
its compiled kernel), the rest of the hand staying in C.

>>> runner = HandRunner(load("classic"))
>>> hand = runner.play(7)
>>> hand.scores == runner.play(7).scores == play_random(load("classic"), 7).result.scores
True
"""

from __future__ import annotations

import copy
import random
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from typing import TYPE_CHECKING, TypedDict

from ddz_rules import cards, duties
from ddz_rules.auction import Auction, new_auction
from ddz_rules.errors import AuctionTooLarge
from ddz_rules.game import (
    Deal,
    Hand,
    advantage_of,
    bidder_draw,
    first_bidder,
    lead_priority,
    wild_in_play,
)
from ddz_rules.ruleset import DEALT_BONUSES, Ruleset, load  # noqa: F401  (load: doctest)
from ddz_rules.scoring import (
    BONUS_HOLDINGS,
    auction_events,
    base_of,
    bomb_payment,
    cards_owed,
    event,
    liable,
    liable_pays,
    paid_when_played,
)
from ddz_rules.table import Play, PlayTable, compile_table, native_modules

if TYPE_CHECKING:
    from ddz_rules import _moves

#: What the seed of a hand's choices differs from its deal's seed by (xor).
CHOICE_SEED = 0x5EED
#: The auction's state graph is flattened up to this many states; a larger one is played in
#: Python (every bundled auction has at most a few hundred).
MAX_AUCTION_STATES = 1 << 16
#: Seeds the compiled runner takes: 0 <= seed < 2**64 (others play in Python).
SEED_LIMIT = 1 << 64


@dataclass(frozen=True)
class RandomHand:
    """A hand played at random: its seed and dealer, its scores (zero for a redeal), and each
    choice as an index into the legal actions of its turn."""

    seed: int
    dealer: int
    scores: tuple[int, ...]
    redeal: bool
    choices: tuple[int, ...]

    def replay(self, ruleset: Ruleset) -> Hand:
        """The whole hand, record and all, rebuilt by applying the choices in Python."""
        hand = Hand.new(ruleset, self.seed, self.dealer)
        for choice in self.choices:
            hand.apply(hand.legal_actions()[choice])
        return hand


def play_random(ruleset: Ruleset, seed: int, dealer: int = 0, dealt: Deal | None = None
                ) -> Hand:
    """Deal with ``seed`` (or play the deal ``dealt``) and play to the end, every seat
    choosing uniformly at random."""
    return _play_in_python(ruleset, seed, dealer, dealt)[0]


def _play_in_python(ruleset: Ruleset, seed: int, dealer: int, dealt: Deal | None = None
                    ) -> tuple[Hand, list[int]]:
    hand = Hand.new(ruleset, seed, dealer) if dealt is None else Hand(ruleset, dealt)
    rng = random.Random(seed ^ CHOICE_SEED)
    choices: list[int] = []
    while hand.result is None:
        legal = hand.legal_actions()
        choice = rng.choice(range(len(legal)))  # the draws of rng.choice(legal)
        choices.append(choice)
        hand.apply(legal[choice])
    return hand, choices


def unsupported(ruleset: Ruleset) -> str | None:
    """Why the compiled runner cannot play ``ruleset`` (one line, naming the rule point),
    or None where it can."""
    if ruleset.wild_drawn and duties.binding(ruleset):
        return ("wild ranks (wild.drawn) with play duties (play.must_beat and the like): the "
                "duties of plays holding wild cards are checked in Python")
    return None


class RunnerArrays(TypedDict):
    """The arguments of the compiled runner (``ddz_rules/_moves.c``) besides its lister."""

    players: int
    hand_size: int
    kitty: int
    deck: bytes
    draw: int
    first: bytes
    node_edges: bytes
    edge_child: bytes
    roots: bytes
    landlord: bytes
    goal: bytes
    base: bytes
    factor: bytes
    calls: bytes
    play_key: bytes
    play_factor: bytes
    spring: int
    anti_spring: int
    cap: int
    bonus_key: bytes
    bonus_amount: bytes
    bonus_paid: bytes
    priority: bytes
    alone: bool
    last_only: bytes
    play_paid: bytes
    bound: bool
    must_beat: bool
    warns_single: bool
    first_holds: bool
    per_card: int
    shut_out: int
    liable_pays: bool
    last_card_free: bool
    liable_causal: bool
    paid_on_win: bool
    wild_pool: bytes
    wild_before: bytes


def _factor(ruleset: Ruleset, name: str) -> int:
    found = event(ruleset, name)
    return found.factor if found else 1


def _play_multiplier(ruleset: Ruleset, play: Play) -> int:
    """What a play multiplies the stake by: its class event's factor (1: none)."""
    return _factor(ruleset, ruleset.event_of[play.reading.type])


def runner_arrays(ruleset: Ruleset, table: PlayTable) -> RunnerArrays:
    """What the compiled runner of ``ruleset`` is made of.

    * The deck's ranks in their order before shuffling (a suited deck's, card by card).
    * Who bids first: :func:`~ddz_rules.game.first_bidder` for each dealer, deal draw
      (:func:`~ddz_rules.game.bidder_draw`) and top card.
    * The auction's states, from each first bidder's: each state's legal words in order, each
      leading to a state; an ending state's landlord (-1: dealt again), base, the factor of
      its robs and grabs, and the peasant's goal (:func:`~ddz_rules.game.advantage_of`).
    * The landlord's calls (``teams.partner: called_rank``): the ranks in
      :meth:`Hand.legal_actions` order, -1 for alone; empty where he calls none.
    * Each play's cards and multiplier, the spring and anti-spring factors, the cap, and each
      dealt-hand bonus's cards, amount and form.
    * The ranks the deal draws wild from, and whether each drawn rank is wild from the deal on
      (:func:`~ddz_rules.game.wild_in_play`); the turns where wild cards are in play are
      listed in Python (``wild_turn``, :func:`_wild_turns`).
    * Where a card's holder leads first (:func:`~ddz_rules.game.lead_priority`), the cards
      that decide it; whether there is no landlord (settled by the cards left, at so much a
      card, times so much for a seat shut out, nothing for a last card where
      :func:`~ddz_rules.scoring.cards_owed` says so, the liable seat paying for all where it
      does, always or only where :func:`~ddz_rules.scoring.liable` asks that its highest single
      would have held the winner); each play's payment
      (:func:`~ddz_rules.scoring.bomb_payment`), made when it is played or when it wins its
      trick (:func:`~ddz_rules.scoring.paid_when_played`), and whether it may only empty a
      hand (:func:`~ddz_rules.duties.last_only`); which duties apply.
    """
    players = ruleset.players
    suited = [cards.parse_suited(card)[0] for card in ruleset.suited_deck]
    deck = suited if ruleset.suits else [r for r, n in enumerate(ruleset.copies)
                                         for _ in range(n)]
    draw = bidder_draw(ruleset)
    first = array("i", (first_bidder(ruleset, dealer, turned_card=top, drawn=drawn)
                        for dealer in range(players) for drawn in range(max(draw, 1))
                        for top in range(cards.NUM_RANKS)))
    graph = AuctionGraph(ruleset)
    roots = array("i", (graph.explore(new_auction(ruleset, seat)) for seat in range(players)))
    calls = array("i")
    if ruleset.partner_rule == "called_rank":
        calls.append(-1)
        calls.extend(ruleset.deck_ranks)
    by_id = table.by_id
    bonus = ruleset.dealt_bonus
    amounts = dict(bonus.amounts) if bonus else {}
    named = [name for name in DEALT_BONUSES if name in amounts]
    position = {card: i for i, card in enumerate(ruleset.suited_deck)}
    return {
        "players": players, "hand_size": ruleset.hand_size, "kitty": ruleset.kitty,
        "deck": bytes(deck), "draw": draw, "first": first.tobytes(),
        "node_edges": graph.node_edges.tobytes(), "edge_child": graph.edge_child.tobytes(),
        "roots": roots.tobytes(), "landlord": graph.landlord.tobytes(),
        "goal": graph.goal.tobytes(), "base": graph.base.tobytes(),
        "factor": graph.factor.tobytes(), "calls": calls.tobytes(),
        "play_key": b"".join(p.key.to_bytes(16, "little") for p in by_id),
        "play_factor": array("q", (_play_multiplier(ruleset, p) for p in by_id)).tobytes(),
        "spring": _factor(ruleset, "spring"), "anti_spring": _factor(ruleset, "anti_spring"),
        "cap": -1 if ruleset.cap is None else ruleset.cap,
        "bonus_key": b"".join(BONUS_HOLDINGS[n].to_bytes(16, "little") for n in named),
        "bonus_amount": array("q", (amounts[n] for n in named)).tobytes(),
        "bonus_paid": bytes(bonus.form == "payment" for _ in named) if bonus else b"",
        "priority": array("i", (position[c] for c in lead_priority(ruleset))).tobytes(),
        "alone": not ruleset.has_landlord,
        "last_only": bytes(duties.last_only(ruleset, p) for p in by_id),
        "play_paid": array("q", (bomb_payment(ruleset, p.reading.type)
                                 for p in by_id)).tobytes(),
        "bound": duties.binding(ruleset), "must_beat": ruleset.must_beat,
        "warns_single": duties.warns_single(ruleset),
        "first_holds": ruleset.first_play_holds_lead_card,
        "per_card": ruleset.per_card, "shut_out": ruleset.shut_out,
        "liable_pays": liable_pays(ruleset),
        "last_card_free": cards_owed(ruleset, 1, True) == 0,
        "liable_causal": liable_pays(ruleset) and not liable(ruleset, 0, 1),
        "paid_on_win": not paid_when_played(ruleset),
        "wild_pool": bytes(ruleset.wild_ranks) if ruleset.wild_drawn else b"",
        "wild_before": bytes(wild_in_play(when, False) for when in ruleset.wild_drawn)}


class AuctionGraph:
    """The states of an auction reached by its legal words, numbered as first met (a tree:
    a state is the words said so far). Bounded by :data:`MAX_AUCTION_STATES`. Besides what
    the runner reads, each state's seat to speak (-1 once over) and each edge's word, which
    the stepped environments (:mod:`ddz_rules.env.vector`) read."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.node_edges = array("i", [0])
        self.edge_child = array("i")
        self.landlord, self.goal = array("i"), array("i")
        self.base, self.factor = array("q"), array("q")
        self.seat = array("i")
        self.edge_word: list[str] = []

    def explore(self, root: Auction) -> int:
        """Number every state reachable from ``root``; ``root``'s number."""
        first = len(self.landlord)
        pending = deque([root])
        children: list[list[int]] = []
        while pending:  # breadth first: a state's children are numbered after it
            auction = pending.popleft()
            if len(self.landlord) >= MAX_AUCTION_STATES:
                raise AuctionTooLarge(f"the auction has over {MAX_AUCTION_STATES} states")
            self._ending(auction)
            words = [] if auction.done else auction.legal()
            self.seat.append(-1 if auction.done else auction.to_act)
            self.edge_word.extend(words)
            start = len(self.landlord) + len(pending)
            children.append(list(range(start, start + len(words))))
            for word in words:
                child = copy.deepcopy(auction)
                child.apply(word)
                pending.append(child)
        for edges in children:
            self.edge_child.extend(edges)
            self.node_edges.append(len(self.edge_child))
        return first

    def _ending(self, auction: Auction) -> None:
        ruleset = self.ruleset
        if not auction.done or auction.outcome().landlord is None:
            self.landlord.append(-1)
            self.goal.append(-1)
            self.base.append(0)
            self.factor.append(1)
            return
        outcome = auction.outcome()
        assert outcome.landlord is not None
        goal = advantage_of(ruleset, outcome.robs)
        self.landlord.append(outcome.landlord)
        self.goal.append(-1 if goal is None else goal)
        self.base.append(base_of(ruleset, outcome.bid))
        self.factor.append(prod(e.factor for e in auction_events(ruleset, outcome.robs,
                                                                  outcome.grabs)))


class HandRunner:
    """Plays hands of one ruleset at random: in C where it can (:attr:`native`), else in
    Python; the same hands either way."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.table = compile_table(ruleset)
        self.native: _moves.Runner | None = None
        #: Why the hands are played in Python (None where they are not).
        self.why_python: str | None = unsupported(ruleset)
        if self.why_python is None:
            self.native, self.why_python = _compiled(ruleset, self.table)

    def play(self, seed: int, dealer: int = 0) -> RandomHand:
        """The hand dealt with ``seed`` from ``dealer``, played at random (:func:`play_random`)."""
        if self.native is not None and 0 <= seed < SEED_LIMIT:
            done = self.native.play(seed, dealer, True)
            if done is not None:
                scores, redeal, trace = done
                return RandomHand(seed, dealer, scores, redeal,
                                  tuple(array("i", trace)))
        hand, choices = _play_in_python(self.ruleset, seed, dealer)
        assert hand.result is not None
        return RandomHand(seed, dealer, hand.result.scores, hand.result.redeal,
                          tuple(choices))

    def scores(self, seed: int, dealer: int = 0) -> tuple[tuple[int, ...], bool]:
        """Only the scores of :meth:`play`'s hand and whether it was dealt again: the
        fastest call, for callers that need no more."""
        if self.native is not None and 0 <= seed < SEED_LIMIT:
            done = self.native.play(seed, dealer)
            if done is not None:
                return done
        result = _play_in_python(self.ruleset, seed, dealer)[0].result
        assert result is not None
        return result.scores, result.redeal


def _compiled(ruleset: Ruleset, table: PlayTable) -> tuple[_moves.Runner | None, str | None]:
    """The compiled runner of ``ruleset`` and None, or None and why it is not built."""
    moves = native_modules()
    if moves is None:
        return None, "the compiled modules are not built (or DDZ_PURE_PYTHON is set)"
    lister = table.compiled()
    if lister is None:
        return None, "the play table is too large to flatten"
    try:
        arrays = runner_arrays(ruleset, table)
    except AuctionTooLarge as exc:
        return None, str(exc)
    except OverflowError:
        return None, "a factor, base, cap or bonus does not fit in 64 bits"

    def teach(cls: int) -> None:
        table._learn(lister, cls)

    wild_turn, facts = _wild_turns(ruleset, table)
    return moves.Runner(lister=lister, teach=teach, wild_turn=wild_turn, facts=facts,
                        **arrays), None


def _wild_turns(ruleset: Ruleset, table: PlayTable) -> tuple[
        Callable[[int, Play | None, tuple[int, ...]], list[Play]],
        Callable[[Play], tuple[int, int, int, int]]]:
    """What the compiled runner asks Python on a turn where wild cards are in play (the hand
    holds one, or the play to beat was made with them): the plays, as
    :meth:`Hand.legal_actions <ddz_rules.game.Hand.legal_actions>` lists them (the pass
    aside), and of the play chosen its cards, table id (-1: a play with wild cards has none),
    multiplier and payment at once."""
    ids = table._ids

    def wild_turn(hand: int, previous: Play | None, wild: tuple[int, ...]) -> list[Play]:
        if previous is None:
            return table.leads(hand, wild)
        return table.answers(hand, previous.reading, wild)

    def facts(play: Play) -> tuple[int, int, int, int]:
        return (play.key, ids.get(play, -1), _play_multiplier(ruleset, play),
                bomb_payment(ruleset, play.reading.type))

    return wild_turn, facts
