"""One hand of Dou Dizhu, from the deal through the auction and the play to the score.

A :class:`Hand` is a state machine with an explicit :class:`Phase`. ``legal_actions()`` lists
what the seat to act may do, ``apply(action)`` does it or refuses it with a precise reason and
no change, every step is appended to ``log`` as a frozen operation record, and ``view(seat)``
holds only what that seat may know. Deals are seeded and reproducible.

>>> hand = Hand.new(load("classic"), seed=7)
>>> str(hand.phase), hand.to_act == hand.deal.first_bidder
('auction', True)
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import cast

from ddz_rules import cards, duties
from ddz_rules.auction import Auction, new_auction
from ddz_rules.errors import DdzError, IllegalActionError
from ddz_rules.ruleset import Ruleset, load  # noqa: F401  (load: for the doctest)
from ddz_rules.scoring import (
    BonusPayment,
    MultiplierEvent,
    Result,
    SidePlays,
    auction_events,
    base_of,
    bomb_payment,
    closing_events,
    dealt_bonuses,
    event,
    liable,
    paid_when_played,
    redeal,
    settle,
    settle_alone,
)
from ddz_rules.table import Play, PlayTable, compile_table

PASS = "pass"
#: The landlord's words after taking the kitty where ``teams.partner`` is ``called_rank``:
#: ``"call A"`` calls a rank (its first other player joins him), ``"alone"`` calls none.
ALONE = "alone"
CALL = "call "
Action = str | Play

#: The number a turned card counts as (``auction.first_bidder: turned_card``).
TURNED_CARD_VALUE = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, "2": 2, "B": 14, "R": 15,
                     **{str(n): n for n in range(3, 10)}}


class Phase(StrEnum):
    """Where a hand stands. The kitty phase passes as soon as the landlord is known."""

    DEAL = "deal"
    AUCTION = "auction"
    KITTY = "kitty"
    CALL = "call"
    PLAY = "play"
    SETTLED = "settled"


# --------------------------------------------------------------------------- operations


@dataclass(frozen=True)
class Deal:
    """The deal: every seat's cards, the kitty, the undealt cards, and who bids first."""

    hands: tuple[int, ...]
    kitty: int
    undealt: int
    dealer: int
    first_bidder: int
    marked_card: int | None = None
    turned_card: int | None = None
    seed: int | None = None
    #: The hand's wild ranks, in the order ``wild.drawn`` lists them; empty without wilds.
    wild: tuple[int, ...] = ()
    #: Where the deck has suits (``deck.suits``): each seat's cards as suited card text,
    #: lowest first, then the cards not dealt to a seat (kitty, then undealt); else empty.
    suited: tuple[tuple[str, ...], ...] = ()
    suited_rest: tuple[str, ...] = ()
    #: ``play.first_leader: card_holder``: the card whose holder leads first (the lead card,
    #: or what stands for it when it is not dealt); None otherwise.
    lead_card: str | None = None


@dataclass(frozen=True)
class Said:
    """An auction word."""

    seat: int
    word: str


@dataclass(frozen=True)
class KittyTaken:
    """The landlord takes the kitty (shown to all where ``deal.kitty_shown``)."""

    seat: int
    kitty: int
    shown: bool


@dataclass(frozen=True)
class Called:
    """The landlord calls a rank for a partner, or (``rank`` None) plays alone."""

    seat: int
    rank: int | None

    @property
    def named(self) -> str:
        """The call as a record states it: the rank's card text, or ``"alone"``."""
        return ALONE if self.rank is None else cards.RANKS[self.rank]


@dataclass(frozen=True)
class Joined:
    """A player's play held the called rank: from now on he is the landlord's partner."""

    seat: int


@dataclass(frozen=True)
class Played:
    """A play, with the reading it was played as."""

    seat: int
    play: Play


@dataclass(frozen=True)
class Passed:
    """A pass in the play phase."""

    seat: int


@dataclass(frozen=True)
class Settled:
    """The hand is over."""

    result: Result


Operation = Deal | Said | KittyTaken | Called | Played | Joined | Passed | Settled


# --------------------------------------------------------------------------- dealing


def deal(ruleset: Ruleset, seed: int, dealer: int = 0) -> Deal:
    """Shuffle with ``seed`` and deal one card at a time from the dealer's left.

    The first bidder follows ``auction.first_bidder``; this function and :func:`first_bidder`
    are the only places that give it meaning.
    """
    rng = random.Random(seed)
    suited: list[str] = []
    if ruleset.suits:
        suited = list(ruleset.suited_deck)
        rng.shuffle(suited)
        deck = [cards.parse_suited(card)[0] for card in suited]
    else:
        deck = [r for r, n in enumerate(ruleset.copies) for _ in range(n)]
        rng.shuffle(deck)
    n, size = ruleset.players, ruleset.hand_size
    dealt = n * size
    seats = [0] * n
    holder: list[int] = []
    for i, rank in enumerate(deck[:dealt]):
        seat = dealt_to(ruleset, dealer, i)
        seats[seat] += 1 << (cards.FIELD_BITS * rank)
        holder.append(seat)
    kitty = cards.pack_ranks(deck[dealt:dealt + ruleset.kitty])
    undealt = cards.pack_ranks(deck[dealt + ruleset.kitty:])
    marked = turned = None
    lead = None
    by_seat: tuple[tuple[str, ...], ...] = ()
    if suited:
        order = {card: i for i, card in enumerate(ruleset.suited_deck)}
        dealt_cards = list(zip(suited[:dealt], holder, strict=True))
        by_seat = tuple(tuple(sorted((c for c, h in dealt_cards if h == seat),
                                     key=order.__getitem__)) for seat in range(n))
    method = ruleset.first_bidder
    draw = bidder_draw(ruleset)
    drawn = rng.randrange(draw) if draw else 0
    if method == "card_holder":
        first, lead = first_leader(ruleset, by_seat)
    else:
        first = first_bidder(ruleset, dealer, turned_card=deck[0], drawn=drawn)
    if method == "marked_card":
        marked = deck[drawn]
    elif method == "turned_card":
        turned = deck[0]
    wild = tuple(rng.sample(ruleset.wild_ranks, len(ruleset.wild_drawn)))
    return Deal(tuple(seats), kitty, undealt, dealer, first, marked, turned, seed, wild,
                by_seat, tuple(suited[dealt:]), lead)


def first_leader(ruleset: Ruleset, suited: tuple[tuple[str, ...], ...]) -> tuple[int, str]:
    """``play.first_leader: card_holder``: the seat that leads first, and the card that makes
    it so: ``play.lead_card`` if dealt, else (``play.lead_card_missing: lowest_card``) the
    lowest card dealt, by rank and then by suit in ``deck.suits`` order.

    >>> hand = Hand.new(load("run-fast"), seed=3)
    >>> seat, card = first_leader(hand.ruleset, hand.deal.suited)
    >>> card, card in hand.deal.suited[seat]
    ('3S', True)
    """
    holders = {card: seat for seat, held in enumerate(suited) for card in held}
    card = next(card for card in lead_priority(ruleset) if card in holders)
    return holders[card], card


def lead_priority(ruleset: Ruleset) -> tuple[str, ...]:
    """``play.first_leader: card_holder``: the cards whose holder leads first, the first of
    them dealt deciding: the lead card, then (``play.lead_card_missing: lowest_card``) every
    card from the lowest; empty where the first leader is not a card's holder."""
    if ruleset.first_bidder != "card_holder":
        return ()
    assert ruleset.lead_card is not None  # the ruleset's loading requires it
    return (ruleset.lead_card, *ruleset.suited_deck)


def dealt_to(ruleset: Ruleset, dealer: int, index: int) -> int:
    """The seat dealt the card at ``index`` of the shuffled deck: one at a time from the
    dealer's left."""
    return (dealer + 1 + index) % ruleset.players


def bidder_draw(ruleset: Ruleset) -> int:
    """How many outcomes the deal draws from (after shuffling) to choose the first bidder: a
    seat (``random``), a dealt card (``marked_card``), or nothing (0)."""
    if ruleset.first_bidder == "random":
        return ruleset.players
    if ruleset.first_bidder == "marked_card":
        return ruleset.players * ruleset.hand_size
    return 0


def first_bidder(ruleset: Ruleset, dealer: int, turned_card: int | None = None,
                 drawn: int = 0) -> int:
    """The first bidder where it follows from the dealer, the deck's top card
    (``turned_card``, a rank) and the deal's draw (``drawn``, see :func:`bidder_draw`): every
    method but ``card_holder``, which :func:`first_leader` serves."""
    method = ruleset.first_bidder
    if method == "turned_card":
        assert turned_card is not None
        return (dealer + TURNED_CARD_VALUE[cards.RANKS[turned_card]]) % ruleset.players
    if method == "random":
        return drawn
    if method == "marked_card":
        return dealt_to(ruleset, dealer, drawn)
    return (dealer + 1) % ruleset.players


def wild_in_play(when: str, past_auction: bool) -> bool:
    """Whether a wild rank drawn ``when`` (a ``wild.drawn`` entry) is wild yet: one drawn
    before the auction from the deal on, the others once the landlord has taken the kitty
    (so never, in a game without a landlord)."""
    return when == "before_auction" or past_auction


def advantage_of(ruleset: Ruleset, robs: int) -> int | None:
    """Cards at which a peasant wins after ``robs`` robs (``ending.peasant_goal: advantage``,
    the two-player game), else None: he must empty his hand."""
    return robs if ruleset.peasant_goal == "advantage" else None


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class View:
    """What one seat may know: its own cards and everything public, nothing else."""

    seat: int
    phase: Phase
    to_act: int | None
    hand: int
    hand_sizes: tuple[int, ...]
    dealer: int
    first_bidder: int
    auction: tuple[tuple[int, str], ...]
    landlord: int | None
    kitty: int | None
    plays: tuple[tuple[int, Play | None], ...]
    to_beat: Play | None
    to_beat_seat: int | None
    multiplier: int
    advantage: int | None
    undealt: int
    marked_card: tuple[int, int] | None
    turned_card: int | None
    legal: tuple[Action, ...] = ()
    robs: int = 0
    #: The rank the landlord called for a partner (``teams.partner: called_rank``), if any.
    called: int | None = None
    #: The seat that joined the landlord by playing the called rank, once it has.
    joined: int | None = None
    #: The landlord's call as said, ``"call A"`` or ``"alone"``, once said (public).
    partner_call: str | None = None
    #: The wild ranks drawn so far, in the order ``wild.drawn`` lists them; empty without wilds.
    wild: tuple[int, ...] = ()
    #: The plays each side has made so far, each for the side its player was on then (public:
    #: everyone sees a player join); what a spring or an anti-spring is judged on.
    side_plays: SidePlays = field(default_factory=SidePlays)

    @classmethod
    def made(cls, **values: object) -> View:
        """A view of every field's value, made without the frozen dataclass's ``__init__``:
        that sets each of the 26 fields through ``object.__setattr__``, most of the cost of a
        view, and one is made for every decision of every seat (bots, environments). The
        view is as frozen and compares as any other.

        >>> hand = Hand.new(load("classic"), seed=7)
        >>> hand.view(0) == View(**vars(hand.view(0)))
        True
        """
        if values.keys() != _VIEW_FIELDS:
            raise TypeError(f"View.made takes every field of View: "
                            f"{sorted(_VIEW_FIELDS ^ values.keys())} differ")
        view = object.__new__(cls)
        vars(view).update(values)
        return view

    @property
    def teammates(self) -> tuple[int, ...]:
        """The seats this seat knows to be on its side now.

        The landlord's side is the landlord and the player who joined him; every other seat is
        a peasant. Before anyone has joined, the peasants count each other as teammates, though
        one of them may still join the landlord.
        """
        if self.landlord is None:
            return ()
        side = {self.landlord} | ({self.joined} if self.joined is not None else set())
        mine = side if self.seat in side else set(range(len(self.hand_sizes))) - side
        return tuple(sorted(mine - {self.seat}))

    @property
    def opponents(self) -> tuple[int, ...]:
        """Every other seat not among :attr:`teammates` (everyone, before there is a landlord)."""
        mates = self.teammates
        return tuple(s for s in range(len(self.hand_sizes)) if s != self.seat and s not in mates)

    @property
    def partner(self) -> int | None:
        """The one teammate, where there is exactly one, else None."""
        mates = self.teammates
        return mates[0] if len(mates) == 1 else None

    @property
    def undecided(self) -> bool:
        """Whether a called rank still waits for a player to join the landlord."""
        return self.called is not None and self.joined is None

    def goal(self, seat: int) -> int:
        """Cards at which ``seat`` wins: 0, or the two-player game's advantage for a peasant."""
        if self.advantage is not None and seat != self.landlord:
            return self.advantage
        return 0


#: Every field of :class:`View`, which :meth:`View.made` must be given.
_VIEW_FIELDS = {f.name for f in fields(View)}


# --------------------------------------------------------------------------- the hand


class Hand:
    """One hand under one ruleset."""

    def __init__(self, ruleset: Ruleset, dealt: Deal, table: PlayTable | None = None) -> None:
        self.ruleset = ruleset
        self.table = table or compile_table(ruleset)
        self.deal = dealt
        self.hands = list(dealt.hands)
        self.log: list[Operation] = [dealt]
        #: The play phase as every seat sees it: (seat, play), or (seat, None) for a pass.
        self.public_plays: list[tuple[int, Play | None]] = []
        self.phase = Phase.AUCTION
        self.auction: Auction = new_auction(ruleset, dealt.first_bidder)
        self.to_act: int | None = dealt.first_bidder
        self.landlord: int | None = None
        self.bid = 0
        self.robs = 0
        self.events: list[MultiplierEvent] = []
        self.plays_by_seat = [0] * ruleset.players
        #: The plays each side has made, each for the side its player was on then.
        self.side_plays = SidePlays()
        self.to_beat: Play | None = None
        self.to_beat_seat: int | None = None
        self.passes = 0
        self.result: Result | None = None
        #: ``teams.partner: called_rank``: the rank called (None: none, or alone) and the seat
        #: that joined the landlord by playing it.
        self.called: int | None = None
        self.partner: int | None = None
        self.partner_call: str | None = None
        #: Bombs paid (``scoring.bomb_payments``), in the order they were paid.
        self.bombs_paid: list[BonusPayment] = []
        #: ``scoring.bomb_paid_when: trick_won``: the payment of the bomb that leads the trick
        #: now, made if it wins it (cleared by the next play).
        self.bomb_waiting: BonusPayment | None = None
        #: ``scoring.liability``: the seat whose single, below its highest rank, the warned
        #: next player may now go out on, and that highest rank (cleared by the next action).
        self.letting_out: tuple[int, int] | None = None
        #: Whether any play duty applies (:func:`ddz_rules.duties.binding`): else none is checked.
        self.bound = duties.binding(ruleset)
        if not ruleset.has_landlord:  # every player alone: the first leader plays at once
            self.phase = Phase.PLAY
        elif self.auction.done:  # auction.family none: the deal names the landlord
            self._end_auction()

    def clone(self) -> Hand:
        """An independent copy of this hand in its current state (for search)."""
        other = copy.copy(self)
        other.hands = list(self.hands)
        other.log = list(self.log)
        other.public_plays = list(self.public_plays)
        # A finished auction never changes again: share it (copying it is most of a clone).
        other.auction = self.auction if self.auction.done else copy.deepcopy(self.auction)
        other.events = list(self.events)
        other.plays_by_seat = list(self.plays_by_seat)
        other.bombs_paid = list(self.bombs_paid)
        return other

    @classmethod
    def new(cls, ruleset: Ruleset, seed: int, dealer: int = 0) -> Hand:
        """A freshly dealt hand."""
        return cls(ruleset, deal(ruleset, seed, dealer))

    # ------------------------------------------------------------ queries

    def legal_actions(self) -> list[Action]:
        """What the seat to act may do now: auction words, or plays and ``"pass"``."""
        if self.phase is Phase.AUCTION:
            return list(self.auction.legal())
        if self.phase is Phase.CALL:
            return [ALONE, *(CALL + cards.RANKS[r] for r in self.ruleset.deck_ranks)]
        if self.phase is not Phase.PLAY:
            return []
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        # PlayTable.leads and answers return a new list each call: extended here, not copied.
        if self.to_beat is None:
            leads = self.table.leads(hand, self.wild)
            return cast("list[Action]", duties.allowed(self.ruleset, leads, self.turn())
                        if self.bound else leads)
        answers = self.table.answers(hand, self.to_beat.reading, self.wild)
        if self.bound:
            answers = duties.allowed(self.ruleset, answers, self.turn())
            if duties.pass_refusal(self.ruleset, answers):
                return cast("list[Action]", answers)
        actions = cast("list[Action]", answers)
        actions.append(PASS)
        return actions

    def play_of(self, key: int) -> Play | None:
        """The first legal play of the seat to act made of exactly the cards ``key``, in the
        reading the table lists first; None where it holds them in no legal play. What a
        move is when its source names no reading (another project's replay, a Botzone
        request)."""
        if self.to_act is None or not cards.contains(self.hands[self.to_act], key):
            return None
        return next((action for action in self.legal_actions()
                     if not isinstance(action, str) and action.key == key), None)

    def turn(self) -> duties.Turn:
        """What the duties of the seat to act depend on (see :mod:`ddz_rules.duties`)."""
        assert self.to_act is not None
        lead = self.deal.lead_card
        must_hold = (cards.parse_suited(lead)[0] if lead is not None and not self.public_plays
                     and self.ruleset.first_play_holds_lead_card else None)
        return duties.Turn(self.hands[self.to_act],
                           cards.size(self.hands[(self.to_act + 1) % self.ruleset.players]),
                           must_hold)

    @property
    def wild(self) -> tuple[int, ...]:
        """The wild ranks drawn so far, in the order ``wild.drawn`` lists them: those it draws
        before the auction from the deal on, the others once the landlord has taken the
        kitty."""
        if not self.deal.wild:
            return ()
        past_auction = self.landlord is not None
        return tuple(rank for rank, when in zip(self.deal.wild, self.ruleset.wild_drawn,
                                                strict=True)
                     if wild_in_play(when, past_auction))

    @property
    def multiplier(self) -> int:
        """The product of the multiplier events so far."""
        out = 1
        for e in self.events:
            out *= e.factor
        return out

    def view(self, seat: int, legal: bool = True) -> View:
        """Everything ``seat`` may know, and nothing it may not; ``legal=False`` leaves out
        the seat's legal actions (an observation that does not list them need not pay for
        them)."""
        kitty_known = self.landlord is not None and (self.ruleset.kitty_shown
                                                     or seat == self.landlord)
        marked = None
        if self.deal.marked_card is not None:
            marked = (self.deal.first_bidder, self.deal.marked_card)
        return View.made(
            seat=seat, phase=self.phase, to_act=self.to_act, hand=self.hands[seat],
            hand_sizes=tuple(cards.size(h) for h in self.hands), dealer=self.deal.dealer,
            first_bidder=self.deal.first_bidder, auction=tuple(self.auction.history),
            landlord=self.landlord, kitty=self.deal.kitty if kitty_known else None,
            plays=tuple(self.public_plays), to_beat=self.to_beat, to_beat_seat=self.to_beat_seat,
            multiplier=self.multiplier, advantage=self.advantage,
            undealt=cards.size(self.deal.undealt), marked_card=marked,
            turned_card=self.deal.turned_card,
            legal=tuple(self.legal_actions()) if legal and seat == self.to_act else (),
            robs=self.robs,
            called=self.called, joined=self.partner, partner_call=self.partner_call,
            wild=self.wild, side_plays=self.side_plays)

    @property
    def advantage(self) -> int | None:
        """Cards at which the peasant wins (``ending.peasant_goal: advantage``), else None."""
        return None if self.landlord is None else advantage_of(self.ruleset, self.robs)

    # ------------------------------------------------------------ acting

    def apply(self, action: Action) -> None:
        """Do ``action`` for the seat to act, or raise IllegalActionError changing nothing."""
        if self.phase is Phase.AUCTION:
            if not isinstance(action, str):
                raise IllegalActionError(f"the auction is on: {cards.key_text(action.key)} is "
                                         "a play, not an auction word")
            seat = self.auction.to_act
            self.auction.apply(action)
            self.log.append(Said(seat, action))
            if self.auction.done:
                self._end_auction()
            else:
                self.to_act = self.auction.to_act
            return
        if self.phase is Phase.CALL:
            self._call(action)
            return
        if self.phase is not Phase.PLAY:
            raise IllegalActionError("the hand is over" if self.phase is Phase.SETTLED
                                     else f"no action is taken in the {self.phase.value} phase")
        if isinstance(action, str):
            if action != PASS:
                action = self._parse_play(action)
            else:
                self._pass()
                return
        self._play(action)

    def _parse_play(self, text: str) -> Play:
        try:
            return self.table.play(text, self.wild)
        except DdzError as exc:  # not cards, not a play, or a reading not named
            raise IllegalActionError(str(exc)) from None

    def _end_auction(self) -> None:
        outcome = self.auction.outcome()
        if outcome.landlord is None:
            self._settle(redeal(self.ruleset))
            return
        self.landlord, self.bid, self.robs = outcome.landlord, outcome.bid, outcome.robs
        self.events += auction_events(self.ruleset, outcome.robs, outcome.grabs)
        self.phase = Phase.KITTY
        self.hands[self.landlord] += self.deal.kitty
        self.log.append(KittyTaken(self.landlord, self.deal.kitty, self.ruleset.kitty_shown))
        self.phase = Phase.CALL if self.ruleset.partner_rule == "called_rank" else Phase.PLAY
        self.to_act = self.landlord

    def _call(self, action: Action) -> None:
        """``teams.partner: called_rank``: the landlord calls a rank, or plays alone."""
        if action not in self.legal_actions():
            shown = action if isinstance(action, str) else cards.key_text(action.key)
            raise IllegalActionError(
                f"the landlord calls a partner now: {shown!r} is not 'alone' or 'call RANK' "
                f"with RANK one of {cards.text(self.ruleset.deck_ranks)}")
        assert isinstance(action, str) and self.landlord is not None
        self.called = None if action == ALONE else cards.RANK_INDEX[action[len(CALL):]]
        self.partner_call = action
        self.log.append(Called(self.landlord, self.called))
        self.phase = Phase.PLAY

    def _pass(self) -> None:
        seat = self.to_act
        assert seat is not None
        if self.to_beat is None:
            raise IllegalActionError(f"seat {seat} leads this trick and may not pass")
        if self.ruleset.must_beat:
            answers = duties.allowed(self.ruleset, self.table.answers(
                self.hands[seat], self.to_beat.reading, self.wild), self.turn())
            why = duties.pass_refusal(self.ruleset, answers)
            if why:
                raise IllegalActionError(f"seat {seat} may not pass: {why}")
        self.letting_out = None
        self.log.append(Passed(seat))
        self.public_plays.append((seat, None))
        self.passes += 1
        if self.passes == self.ruleset.players - 1:  # play.trick: others_pass
            self._pay_waiting_bomb()
            self.to_act, self.to_beat, self.to_beat_seat, self.passes = (
                self.to_beat_seat, None, None, 0)
        else:
            self.to_act = (seat + 1) % self.ruleset.players

    def _play(self, play: Play) -> None:
        seat = self.to_act
        assert seat is not None
        hand = self.hands[seat]
        if not cards.contains(hand, play.key):
            raise IllegalActionError(f"seat {seat} does not hold {cards.key_text(play.key)}")
        if not self.table.is_reading(play, self.wild):
            raise IllegalActionError(f"{cards.key_text(play.key)} cannot be read as "
                                     f"{play.reading.short()}")
        if self.to_beat is not None and not play.reading.beats(self.to_beat.reading):
            raise IllegalActionError(
                f"{cards.key_text(play.key)} ({play.reading.short()}) does not beat "
                f"{cards.key_text(self.to_beat.key)} ({self.to_beat.reading.short()})")
        lets_out = None
        if self.bound:
            turn = self.turn()
            why = duties.refusal(self.ruleset, play, turn)
            if why:
                raise IllegalActionError(f"seat {seat} may not play {cards.key_text(play.key)}: "
                                         f"{why}")
            if duties.lets_out(self.ruleset, play, turn):
                lets_out = (seat, duties.highest_rank(hand))
        to_blame = None
        if self.letting_out is not None and liable(self.ruleset, self.letting_out[1],
                                                   duties.highest_rank(play.key)):
            to_blame = self.letting_out[0]
        self.letting_out = lets_out
        self.hands[seat] = hand - play.key
        self.plays_by_seat[seat] += 1
        self.log.append(Played(seat, play))
        self.public_plays.append((seat, play))
        if (self.called is not None and self.partner is None and seat != self.landlord
                and (play.key >> (cards.FIELD_BITS * self.called)) & cards.FIELD_MASK):
            self.partner = seat
            self.log.append(Joined(seat))
        name = self.ruleset.event_of[play.reading.type]
        if self.landlord is not None:
            # the side the seat is on now: a joining play is already the landlord side's
            self.side_plays = self.side_plays.counted(seat in self.landlord_side)
        found = event(self.ruleset, name, seat, play.key)
        if found:
            self.events.append(found)
        paid = bomb_payment(self.ruleset, play.reading.type)
        self.bomb_waiting = BonusPayment(name, seat, paid) if paid else None
        if paid_when_played(self.ruleset):
            self._pay_waiting_bomb()
        self.to_beat, self.to_beat_seat, self.passes = play, seat, 0
        left = cards.size(self.hands[seat])
        if self.landlord is None:
            if left == 0:
                self._pay_waiting_bomb()  # a bomb that empties its player's hand wins the trick
                self._settle(settle_alone(self.ruleset, seat, self.hands, self.plays_by_seat,
                                          to_blame, self.bombs_paid))
            else:
                self.to_act = (seat + 1) % self.ruleset.players
            return
        if left == 0 or (seat != self.landlord and self.advantage is not None
                         and left <= self.advantage):
            self._finish(winner=seat)
        else:
            self.to_act = (seat + 1) % self.ruleset.players

    def _pay_waiting_bomb(self) -> None:
        """Pay the bomb waiting for its payment (:attr:`bomb_waiting`), if there is one."""
        if self.bomb_waiting is not None:
            self.bombs_paid.append(self.bomb_waiting)
            self.bomb_waiting = None

    def _finish(self, winner: int) -> None:
        assert self.landlord is not None
        side = self.landlord_side
        landlord_won = winner in side
        bonus_events, payments = dealt_bonuses(self.ruleset, self.deal.hands)
        self.events += bonus_events
        self.events += closing_events(self.ruleset, landlord_won, self.side_plays)
        self._settle(settle(self.ruleset, side, landlord_won, base_of(self.ruleset, self.bid),
                            self.events, payments))

    @property
    def landlord_side(self) -> tuple[int, ...]:
        """The landlord, and his partner once one has joined him."""
        assert self.landlord is not None
        return (self.landlord,) if self.partner is None else (self.landlord, self.partner)

    def _settle(self, result: Result) -> None:
        self.result = result
        self.phase = Phase.SETTLED
        self.to_act = None
        self.log.append(Settled(result))
