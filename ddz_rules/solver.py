"""Exact play with every hand open: who wins a position with perfect play, and how.

A :class:`Position` is the cards each seat holds, the seat to act and the play it must beat
(if any); the rules are the ruleset's, read from its compiled play table and its duties, so
the solver knows no rule of its own. The sides are the ruleset's (:func:`sides`): the landlord
and his partner against the rest; in a game without a landlord every player alone, so that
"does seat N win" means "does seat N go out first whatever the others do", the paranoid
reading, in which the others may help each other against him.

The search is an AND-OR search over the game tree (a side wins if one of its moves wins where
it acts, and every move of the other side loses where the other side acts) with a
transposition table, so it answers exactly. It runs in compiled code (``_moves.Solver``, over
the arrays the compiled lister already reads) where the modules were built and the position
holds no wild card; :class:`PythonSearch` is its twin, move for move, proved equal by the
tests, and serves elsewhere. A search has a table of at most so many megabytes: once full,
it forgets answers to make room (the compiled table those that took the fewest positions, the
Python twin its oldest), so it never answers wrong, only searches again what it forgot. Before
trying a move, the search looks every move's position up (:meth:`PythonSearch.known_move`),
and on a whole deal, where a seat alone is to act, the positions where a seat's lone card or
pair is higher (:class:`Dominance`: a position its side lost with a stronger hand, it loses as
it stands).
The question's own moves are searched in rounds of growing budgets (:data:`ROUNDS`), so that
a move proved cheaply is found though a costly one is ordered before it; and the question is
asked in turns in two orders of moves (:func:`in_turns`, :data:`ORDERS`), since a proof may
be a hundred times cheaper in one than in the other. The table is small
where that keeps it in the caches, larger for a whole deal (:func:`default_memory_mb`). Its
budget is seconds, or positions searched (the same on any machine); past either it answers
unknown (``None``) with the moves it proved so far (:func:`proved_so_far`). :func:`solve` then
draws a line and sorts the other moves (:func:`settle`: what the table knows first, the rest in
rounds, so the cheapest are proved first), within :data:`REST_POSITIONS` more unless told
otherwise: a whole deal's answer may take a second where proving each of its other first
plays losing would take hours.

>>> from ddz_rules.ruleset import load
>>> puzzle = Position.of(load("puzzle"), ("A2", "33"), to_act=1, landlord=0)
>>> solution = solve(puzzle)
>>> solution.wins, [p.cards for p in solution.winning]
(True, ['33'])
"""

from __future__ import annotations

import math
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from ddz_rules import cards, duties, split
from ddz_rules.errors import Named, OutOfBudget, RoundSpent, UsageError
from ddz_rules.game import Hand, Phase, advantage_of, deal
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play, PlayTable, Reading, Wild, compile_table, native_modules

#: Megabytes a search's transposition table may take, unless told otherwise (a smaller
#: table is faster where it holds the search: it stays in the processor's caches).
MEMORY_MB = 32
#: ... and where more than :data:`LARGE_CARDS` cards are in play (a whole deal: its search
#: outgrows a small table, which then forgets answers it needs again).
LARGE_MEMORY_MB = 256
LARGE_CARDS = 30
#: Bytes the Python twin counts an entry of its table as, to bound it by the same budget
#: (the compiled table's entry and its slot word take 44 bytes for two seats, 60 for three).
ENTRY_BYTES = 64
#: The budgets, in positions, of the rounds in which a question's own moves are searched:
#: each move not yet answered within the first round's budget, then four times as many, up to
#: the last, then without one. A deal's first moves are unequal: the move the order puts
#: first may need a hundred million positions where a later one needs a thousand, and a
#: search that tried the first to the end would never come to the second.
ROUNDS = (100, 400, 1600, 6400, 25600)
#: The orders of moves a question is asked in, in turns (:func:`in_turns`; the compiled
#: search's ``order``, by its index here): the plays a hand needs after the move first
#: (:func:`ordered`), then without that key. How many positions a proof takes depends on
#: the order far more than on anything else, and unevenly: a Run Fast deal proved in 19
#: million positions in the first order takes under one million in the second, and no order
#: is best on every deal.
ORDERS = ("the plays the hand needs first", "the single cards and ranks left first")
#: The positions of each order's first turn at a question; each round of turns gets
#: :data:`TURN_GROWTH` times as many as the one before.
TURN_POSITIONS = 100_000
TURN_GROWTH = 2
#: The positions :func:`solve` may search once it has its answer, drawing the line and
#: sorting the other moves, unless told otherwise: a whole deal's answer may take a second
#: where proving every other first play losing would take hours.
REST_POSITIONS = 1_000_000
#: The budgets, in positions, of the rounds in which :func:`settle` sorts the moves the
#: table does not answer, before the moves still open are searched without one.
SORT_ROUNDS = (2_000, 8_000, 32_000, 128_000)
#: What a solution stopped by :data:`REST_POSITIONS` (or ``rest_positions``) says ran out.
REST_SPENT = "positions after the answer"


@dataclass(frozen=True)
class Position:
    """A moment of a hand with every card open: the seats' cards (packed), the seat to act,
    the play it must beat and who made it (None: it leads), the landlord and his partner
    (where the ruleset has them), the robs made (the two-player advantage line) and the wild
    ranks of the hand. ``team`` is each seat's side (:func:`sides`), fixed when the position
    is made and kept by every position after it. ``must_hold`` makes the position the hand's
    first lead, whose play must hold a card of that rank (``play.first_play_holds_lead_card``:
    the lead card's); the positions after it are free of it."""

    ruleset: Ruleset
    hands: tuple[int, ...]
    to_act: int
    beat: Play | None = None
    beat_seat: int | None = None
    landlord: int | None = None
    partner: int | None = None
    robs: int = 0
    wild: Wild = ()
    team: tuple[int, ...] = ()
    must_hold: int | None = None

    def __post_init__(self) -> None:
        if not self.team and (self.landlord is not None or not self.ruleset.has_landlord):
            object.__setattr__(self, "team", sides(self.ruleset, self.landlord, self.partner,
                                                   self.to_act))

    @classmethod
    def of(cls, ruleset: Ruleset, hands: Sequence[str], to_act: int, **rest: Any) -> Position:
        """A position from card text, one hand per seat (checked: :func:`check`)."""
        packed = tuple(compile_table(ruleset).key_of(text) for text in hands)
        found = cls(ruleset, packed, to_act, **rest)
        check(found)
        return found

    @classmethod
    def from_text(cls, ruleset: Ruleset, hands: str, to_act: int, beat: str | None = None,
                  by: int | None = None, landlord: int | None = None,
                  partner: int | None = None, robs: int = 0,
                  wild: str | None = None, first: bool = False) -> Position:
        """A position as a person writes it: the hands as card text separated by ``/``, seat
        0 first; the play to beat as play text (``CARDS`` or ``CARDS@type/length/rank``) and
        the seat that made it; the wild ranks as card text; ``first``: the hand's first lead,
        by the holder of the ruleset's lead card, whose play must hold it. Where the ruleset
        has a landlord and none is named, seat 0 is. Refused in one line naming the argument
        at fault."""
        from ddz_rules.errors import CardError, DdzError
        from ddz_rules.wilds import wild_ranks_of

        table = compile_table(ruleset)
        ranks: Wild = ()
        if wild is not None:
            try:
                ranks = wild_ranks_of(ruleset, wild, whole_draw=False)
            except DdzError as exc:
                raise UsageError(Named("wild"), f" {wild!r}: ", *exc.args) from None
        texts = hands.split("/")
        packed = []
        for seat, text in enumerate(texts):
            try:
                packed.append(table.key_of(text))
            except CardError as exc:
                raise UsageError(Named("hands"), f": seat {seat}: ", *exc.args) from None
        played = None
        if beat is not None:
            try:
                key, (reading,) = table.read_play(beat, ranks)
            except DdzError as exc:
                raise UsageError(Named("beat"), f" {beat!r}: ", *exc.args) from None
            played = Play(key, reading)
        if landlord is None and ruleset.has_landlord:
            landlord = 0
        found = cls(ruleset, tuple(packed), to_act, played, by, landlord, partner, robs, ranks)
        check(found)
        if first:  # the lead card's rank, once the seat to act is known to be one
            found = replace(found, must_hold=duties.turn_of(ruleset, found.hands[to_act], None,
                                                            True).must_hold)
            check(found)
        return found

    @property
    def table(self) -> PlayTable:
        return compile_table(self.ruleset)

    def moved(self, hands: tuple[int, ...], to_act: int, beat: Play | None,
              beat_seat: int | None) -> Position:
        """The next position of the same hand: the same sides, robs and wild ranks."""
        return Position(self.ruleset, hands, to_act, beat, beat_seat, self.landlord,
                        self.partner, self.robs, self.wild, self.team)

    def goal(self, seat: int) -> int:
        """Cards at which ``seat`` has won: 0, or a peasant's advantage line."""
        if self.landlord is not None and seat != self.landlord:
            return advantage_of(self.ruleset, self.robs) or 0
        return 0


def of_hand(hand: Hand) -> Position | None:
    """The position a hand of the referee stands at, every card open; None where it is over,
    not in its play, or where the sides are not known yet (a called partner who has not
    joined)."""
    if (hand.result is not None or hand.to_act is None or hand.phase is not Phase.PLAY
            or (hand.called is not None and hand.partner is None)):
        return None
    return Position(hand.ruleset, tuple(hand.hands), hand.to_act, hand.to_beat,
                    hand.to_beat_seat, hand.landlord, hand.partner, hand.robs, hand.wild,
                    must_hold=hand.turn().must_hold)


def deal_sides_known(ruleset: Ruleset) -> bool:
    """Whether a deal's sides are known before its play begins: not where a called rank
    makes the landlord a partner, who is known only once he joins."""
    return ruleset.partner_rule == "none"


def of_deal(ruleset: Ruleset, seed: int) -> Position:
    """Deal ``seed`` of the ruleset (:func:`ddz_rules.game.deal`, seat 0 dealing) as a whole
    deal's question, every card open: the first bidder takes the kitty and leads as the
    landlord (cards not dealt are out of play); in Run Fast, which has no landlord, the first
    leader is asked, his first play holding the lead card where the ruleset says so; with
    wild cards, the deal's wild ranks are the hand's. Refused where the sides are not known
    yet (:func:`deal_sides_known`). The deals of ``bench_solve.py`` and ``ddz solve --deal``.

    >>> from ddz_rules import load
    >>> position = of_deal(load("classic"), 4)
    >>> position.to_act == position.landlord, [cards.size(h) for h in position.hands]
    (True, [17, 20, 17])
    """
    if not deal_sides_known(ruleset):
        raise UsageError(
            Named("deal"), f" {seed}: {ruleset.id} gives the landlord a partner "
            f"(teams.partner {ruleset.partner_rule}), known only once the hand is played: "
            "ask the position with its hands and the partner's seat")
    dealt = deal(ruleset, seed)
    leader = dealt.first_bidder
    hands = list(dealt.hands)
    hands[leader] += dealt.kitty
    first = (cards.parse_suited(dealt.lead_card)[0]
             if ruleset.first_play_holds_lead_card and dealt.lead_card else None)
    position = Position(ruleset, tuple(hands), leader,
                        landlord=leader if ruleset.has_landlord else None, wild=dealt.wild,
                        must_hold=first)
    check(position)
    return position


def landlord_wins(position: Position, seconds: float | None = None,
                  memory_mb: float | None = None, positions: int | None = None) -> bool | None:
    """Whether the landlord's side wins ``position`` with perfect play, whoever is to act;
    None past the budget (``seconds``, or ``positions`` searched: the same on any
    machine)."""
    check_budgets(seconds, memory_mb, positions)
    search = search_for(position, memory_mb, seconds)
    search.last_position = positions
    try:
        return search.wins(position, 0)
    except OutOfBudget:
        return None


def sides(ruleset: Ruleset, landlord: int | None, partner: int | None,
          to_act: int) -> tuple[int, ...]:
    """Each seat's side, 0 or 1: the landlord and his partner (side 0) against the rest;
    without a landlord (``teams.sides: each_alone``) the seat to act against every other."""
    if not ruleset.has_landlord:
        return tuple(0 if seat == to_act else 1 for seat in range(ruleset.players))
    assert landlord is not None
    return tuple(0 if seat in (landlord, partner) else 1 for seat in range(ruleset.players))


def check(position: Position) -> None:
    """Refuse, in one line, a position that cannot arise (naming the argument at fault)."""
    ruleset = position.ruleset
    n = ruleset.players
    if len(position.hands) != n:
        raise UsageError(Named("hands"), f": {ruleset.id} has {n} seats, so {n} hands, "
                         f"not {len(position.hands)}")
    for seat, hand in enumerate(position.hands):
        if not cards.size(hand):
            raise UsageError(Named("hands"), f": seat {seat}'s hand is empty; a seat with no "
                             "cards has gone out, and the hand is over")
        if cards.size(hand) > ruleset.max_hand:
            raise UsageError(Named("hands"), f": seat {seat} holds {cards.size(hand)} cards; "
                             f"no seat of {ruleset.id} holds more than {ruleset.max_hand}")
    if not 0 <= position.to_act < n:
        raise UsageError(Named("to"), f" {position.to_act}: {ruleset.id} has seats 0 to {n - 1}")
    used = [sum(c) for c in zip(*(cards.unpack(h) for h in position.hands), strict=True)]
    if position.beat is not None:
        used = [u + c for u, c in zip(used, cards.unpack(position.beat.key), strict=True)]
    over = [cards.RANKS[r] for r, u in enumerate(used) if u > ruleset.copies[r]]
    if over:
        also = " and the play to beat" if position.beat is not None else ""
        raise UsageError(Named("hands"), f": the hands{also} hold more {over[0]} than the "
                         f"{ruleset.id} deck's {ruleset.copies[cards.RANK_INDEX[over[0]]]} "
                         "(a card is in two places, or not in the deck)")
    if (position.beat is None) != (position.beat_seat is None):
        raise UsageError(Named("beat"), " and ", Named("by"), ": give both, or neither")
    if position.beat_seat is not None:
        if not 0 <= position.beat_seat < n:
            raise UsageError(Named("by"), f" {position.beat_seat}: {ruleset.id} has seats 0 "
                             f"to {n - 1}")
        if position.beat_seat == position.to_act:
            raise UsageError(Named("by"), f" {position.beat_seat}: the seat to act does not "
                             "answer its own play; the trick would be its lead")
    if ruleset.has_landlord:
        if position.landlord is None or not 0 <= position.landlord < n:
            raise UsageError(Named("landlord"), f" {position.landlord}: {ruleset.id} has a "
                             f"landlord, one of seats 0 to {n - 1}")
        if ruleset.partner_rule != "none":
            partner = position.partner
            if partner is None:
                raise UsageError(f"{ruleset.id} decides the landlord's partner by a called "
                                 "rank (teams.partner called_rank), so the sides are known "
                                 "only once he has joined: give ", Named("partner"),
                                 ", his seat")
            if not 0 <= partner < n or partner == position.landlord:
                raise UsageError(Named("partner"), f" {partner}: a seat other than the "
                                 f"landlord's, 0 to {n - 1}")
        elif position.partner is not None:
            raise UsageError(Named("partner"), f" {position.partner}: {ruleset.id} gives the "
                             "landlord no partner (teams.partner none); the peasants play "
                             "together against him")
    elif position.landlord is not None or position.partner is not None:
        raise UsageError(Named("landlord"), f": {ruleset.id} has no landlord (teams.sides "
                         "each_alone); every player plays alone")
    if position.robs < 0:
        raise UsageError(Named("robs"), f" {position.robs}: the robs made, 0 or more")
    if position.robs and ruleset.peasant_goal != "advantage":
        raise UsageError(Named("robs"), f": {ruleset.id} has no advantage line "
                         "(ending.peasant_goal is not advantage)")
    if position.wild and not ruleset.wild_drawn:
        raise UsageError(Named("wild"), f": {ruleset.id} has no wild cards")
    if position.must_hold is not None:
        if not ruleset.first_play_holds_lead_card:
            raise UsageError(Named("first"), f": no rule of {ruleset.id} binds the hand's "
                             "first play (play.first_play_holds_lead_card is not stated or "
                             "is false)")
        if position.beat is not None:
            raise UsageError(Named("first"), " and ", Named("beat"), ": the hand's first play "
                             "is a lead; there is nothing to beat")
        if not cards.unpack(position.hands[position.to_act])[position.must_hold]:
            raise UsageError(Named("first"), f": seat {position.to_act} holds no "
                             f"{cards.RANKS[position.must_hold]}, so it cannot make the "
                             "hand's first play, which must hold one")
    if position.team:
        for seat, hand in enumerate(position.hands):
            if 0 < cards.size(hand) <= position.goal(seat):
                raise UsageError(Named("hands"), f": seat {seat} holds {cards.size(hand)} "
                                 f"cards, at or under its advantage line of "
                                 f"{position.goal(seat)} ({position.robs} robs): it has won")


def role(position: Position, seat: int) -> str:
    """A seat's part in the position, in words: landlord, partner, peasant; without a
    landlord, the seat asked about or another."""
    if position.landlord is None:
        return "alone" if position.team[seat] == 0 else "another player"
    if seat == position.landlord:
        return "landlord"
    return "partner" if seat == position.partner else "peasant"


# --------------------------------------------------------------------------- one step


@dataclass(frozen=True)
class Step:
    """A move of a position: a play, or a pass (``play`` None)."""

    seat: int
    play: Play | None

    def text(self, table: PlayTable, wild: Wild = ()) -> str:
        return "pass" if self.play is None else table.notation(self.play, wild)


def moves(position: Position, order: int = 0) -> list[Step]:
    """Every move the seat to act may make, in the order the search tries them
    (:func:`ordered`, in ``order`` of :data:`ORDERS`): the pass last, or first where the play
    to beat is a partner's."""
    ruleset, table, seat = position.ruleset, position.table, position.to_act
    hand = position.hands[seat]
    turn = duties.Turn(hand, cards.size(position.hands[(seat + 1) % ruleset.players]),
                       position.must_hold)
    if position.beat is None:
        plays = table.leads(hand, position.wild)
    else:
        plays = table.answers(hand, position.beat.reading, position.wild)
    if duties.binding(ruleset):
        plays = duties.allowed(ruleset, plays, turn)
    may_pass = position.beat is not None and not (ruleset.must_beat and plays)
    steps = [Step(seat, p) for p in ordered(plays, hand, position.goal(seat), order)]
    if not may_pass or position.beat_seat is None:
        return steps
    if position.team[position.beat_seat] == position.team[seat]:  # a partner's play stands
        return [Step(seat, None), *steps]
    return [*steps, Step(seat, None)]


def ordered(plays: Sequence[Play], hand: int, goal: int, order: int = 0) -> list[Play]:
    """The order the search tries plays in: those that win at once first; then those that
    leave a hand needing the fewest plays (:func:`ddz_rules.split.moves_of`, the bots'
    planning measure; not in ``order`` 1 of :data:`ORDERS`), then the fewest ranks of a
    single card, then the fewest ranks (a hand of fewer, larger groups goes out in fewer
    plays); then the most cards, a weaker class before a stronger one, the table's own
    order. The compiled search sorts by the same keys.

    >>> from ddz_rules.ruleset import load
    >>> table = compile_table(load("classic"))
    >>> hand = table.key_of("334567")
    >>> [p.cards for p in ordered(table.leads(hand), hand, 0)][:3]
    ['34567', '3', '4']
    """
    held = cards.size(hand)

    def key(item: tuple[int, Play]) -> tuple[bool, int, int, int, int, int, int]:
        index, play = item
        left = hand - play.key
        upper = (left >> 1 | left >> 2 | left >> 3) & _LOW
        size = cards.size(play.key)
        needs = split.moves_of(left) if order == 0 else 0
        return (held - size > goal, needs, (left & _LOW & ~upper).bit_count(),
                ((left & _LOW) | upper).bit_count(), -size, play.reading.level, index)

    return [p for _, p in sorted(enumerate(plays), key=key)]


#: The lowest bit of every rank's field (cards.py: the count in its low bits, a clear guard
#: bit above them), for counting the ranks a hand holds in a few operations.
_LOW = sum(1 << (cards.FIELD_BITS * r) for r in range(cards.NUM_RANKS))


# --------------------------------------------------------------------------- the quick win

#: The most plays nobody can beat that the quick win strings together before the last one.
QUICK_DEPTH = 3

#: What the quick win has learned of hands' counts of plays, per play table: for a hand and
#: the wild ranks, the least and the most leads it is known to need (0: no most known).
_FITS: WeakKeyDictionary[PlayTable, dict[tuple[Wild, int], tuple[int, int]]] = \
    WeakKeyDictionary()
#: The most hands a table's counts hold before they start again.
FITS_HANDS = 1 << 18


def fits(table: PlayTable, wild: Wild, hand: int, most: int) -> bool:
    """Whether ``hand`` can be played out in at most ``most`` leads, whoever may beat them:
    asked by the quick win before which plays are safe, since a hand that needs more plays
    than its chain has cannot win by it. A hand's count does not depend on the other hands,
    and the same hands come back at a great many positions, so it is learned once a hand.
    The compiled search's ``solver_fits``; neither changes an answer or a count.

    >>> from ddz_rules.ruleset import load
    >>> table = compile_table(load("classic"))
    >>> pairs, loose = cards.pack_ranks(cards.parse("334455")), cards.pack_ranks(cards.parse("357"))
    >>> fits(table, (), pairs, 1), fits(table, (), loose, 2)
    (True, False)
    """
    if hand == 0:
        return True
    known = _FITS.setdefault(table, {})
    least, most_known = known.get((wild, hand), (1, 0))
    if most_known and most_known <= most:
        return True
    if least > most:
        return False
    leads = table.leads(hand, wild)
    play = any(p.key == hand for p in leads)
    # the order of the plays does not matter, and one of them holds the lowest card: only
    # those are tried first, which keeps a hand with wild cards (thousands of leads) cheap
    low = (hand & -hand).bit_length() - 1
    low -= low % cards.FIELD_BITS
    found = play or (most > 1 and any(fits(table, wild, hand - p.key, most - 1)
                                      for p in leads if p.key >> low & cards.FIELD_MASK))
    if len(known) >= FITS_HANDS:
        known.clear()
    known[(wild, hand)] = (least, 1 if play else most) if found else (most + 1, most_known)
    return found


def quick_win(position: Position, steps: Sequence[Step],
              tick: Callable[[], None] | None = None) -> bool:
    """Whether the seat to act wins at once, whatever anyone does: it can go out by at most
    :data:`QUICK_DEPTH` plays that no opponent can beat, then one more (leading, from its hand;
    answering, after one of ``steps``, its moves, that goes out or that no opponent can beat).
    A play nobody on the other side can beat keeps the lead: the opponents must pass, and the
    partners may. Asked only where no duty binds (``duties.binding``: a duty may force a
    partner to beat, or forbid a play of the chain), so that it settles a position as the
    search would; the search asks it of every position before trying a move, which resolves
    most of the last plays of a hand without searching them. The compiled search's twin.
    ``tick`` is called before each hand is counted (:func:`fits`): the search's clock, since
    with wild cards a hand has thousands of leads and one position's quick win can take
    seconds.

    >>> from ddz_rules.ruleset import load
    >>> rules = load("classic")
    >>> leading = Position.of(rules, ("R2", "34", "56"), to_act=0, landlord=0)
    >>> quick_win(leading, moves(leading))  # the big joker stands, then the 2 goes out
    True
    >>> quick_win(leading.moved(leading.hands, 1, None, None), [])  # the 3 and the 4 fall
    False
    """
    if duties.binding(position.ruleset):
        return False
    table, wild, seat = position.table, position.wild, position.to_act
    opponents = [hand for s, hand in enumerate(position.hands)
                 if position.team[s] != position.team[seat]]
    safety: dict[Any, bool] = {}

    def safe(play: Play) -> bool:
        known = safety.get(play.reading)
        if known is None:
            known = safety[play.reading] = not any(
                table.answers(hand, play.reading, wild) for hand in opponents)
        return known

    goal = position.goal(seat)

    def may_finish(hand: int, depth: int) -> bool:
        if tick is not None:
            tick()
        return goal > 0 or fits(table, wild, hand, depth + 1)

    def out_by(hand: int, depth: int) -> bool:  # asked where may_finish(hand, depth) holds
        if cards.size(hand) <= goal:
            return True
        leads = table.leads(hand, wild)
        if any(cards.size(hand - p.key) <= goal for p in leads):
            return True
        return depth > 0 and any(may_finish(hand - p.key, depth - 1) and safe(p)
                                 and out_by(hand - p.key, depth - 1) for p in leads)

    hand = position.hands[seat]
    if position.beat is None:
        return may_finish(hand, QUICK_DEPTH) and out_by(hand, QUICK_DEPTH)
    return any(step.play is not None and (
        cards.size(hand - step.play.key) <= goal
        or (may_finish(hand - step.play.key, QUICK_DEPTH - 1) and safe(step.play)
            and out_by(hand - step.play.key, QUICK_DEPTH - 1)))
        for step in steps)


def after(position: Position, step: Step) -> Position | int:
    """The position after ``step``, or the side that has won by it."""
    n = position.ruleset.players
    seat = step.seat
    nxt = (seat + 1) % n
    if step.play is None:
        if nxt == position.beat_seat:  # every other player has passed: he leads
            return position.moved(position.hands, nxt, None, None)
        return position.moved(position.hands, nxt, position.beat, position.beat_seat)
    hands = list(position.hands)
    hands[seat] -= step.play.key
    if cards.size(hands[seat]) <= position.goal(seat):
        return position.team[seat]
    return position.moved(tuple(hands), nxt, step.play, seat)


# --------------------------------------------------------------------------- the search


class PythonSearch:
    """The reference search, in Python: does side ``side`` win from a position, with a
    transposition table of at most ``entries`` positions and a deadline."""

    def __init__(self, entries: int, deadline: float | None,
                 dominance: Dominance | None = None) -> None:
        self.table: OrderedDict[tuple[Any, ...], bool] = OrderedDict()
        self.entries = entries
        self.deadline = deadline
        #: Where set, a seat alone to act looks up the positions a lone group stronger first
        #: (:meth:`dominated`).
        self.dominance = dominance
        self.positions = 0
        #: Past this count of positions searched, the search stops (None: no limit).
        self.last_position: int | None = None
        #: Where the round being searched ends (None: outside a round).
        self.round_end: int | None = None
        #: The order of moves of the question being asked (an index of :data:`ORDERS`).
        self.order = 0

    def wins(self, position: Position, side: int) -> bool:
        """Whether ``side`` wins ``position``, asked in turns (:func:`in_turns`)."""
        return in_turns(self, position, side)

    def ask(self, position: Position, side: int, order: int) -> bool:
        """Whether ``side`` wins ``position``, its moves tried in ``order`` of :data:`ORDERS`
        and the question's own searched in :data:`ROUNDS`."""
        self.order = order
        return self._search(position, side, ROUNDS)

    def _search(self, position: Position, side: int, rounds: tuple[int, ...] = ()) -> bool:
        self.positions += 1
        if self.last_position is not None and self.positions > self.last_position:
            raise OutOfBudget("positions")
        # the clock at every position: it costs little beside a position of this search,
        # and one position of a whole deal with wild cards can take milliseconds
        self._tick()
        key = self.key(position, side)
        known = self.table.get(key)
        if known is not None:
            return known
        mover = position.team[position.to_act]
        want = mover == side  # the answer that settles this position at once
        steps = moves(position, self.order)
        if quick_win(position, steps, self._tick):
            found = want
        else:
            nexts = [after(position, step) for step in steps]
            if self.known_move(nexts, side, want):
                found = want
            else:
                settled = self.dominated(position, side)
                found = self._tries(nexts, side, want, rounds) if settled is None else settled
        if len(self.table) >= self.entries:  # full: the oldest answer is forgotten
            self.table.popitem(last=False)
        self.table[key] = found
        return found

    def _tick(self) -> None:
        """Stop once past the deadline."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfBudget("seconds")

    def _tries(self, nexts: Sequence[Position | int], side: int, want: bool,
               rounds: tuple[int, ...]) -> bool:
        """Whether a move of ``nexts`` gives ``want``: each searched in ``rounds`` (budgets
        of positions, then one without), a move answered in a round not searched again. A
        search past its round's budget raises :class:`RoundSpent` and answers nothing to the
        table."""
        pending = list(nexts)
        for budget in (*rounds, None):
            open_moves: list[Position | int] = []
            for nxt in pending:
                if self.round_end is not None and self.positions >= self.round_end:
                    raise RoundSpent
                if isinstance(nxt, int):
                    won = nxt == side
                elif budget is None:
                    won = self._search(nxt, side)
                else:
                    self.round_end = self.positions + budget
                    try:
                        won = self._search(nxt, side)
                    except RoundSpent:
                        open_moves.append(nxt)
                        continue
                    finally:
                        self.round_end = None
                if won == want:
                    return want
            if not open_moves:
                break
            pending = open_moves
        return not want

    @staticmethod
    def key(position: Position, side: int) -> tuple[Any, ...]:
        """What the table knows a position by: the question asked of it, whole."""
        return (position.hands, position.to_act, position.beat, position.beat_seat, side,
                position.must_hold)

    def known(self, position: Position, side: int) -> bool | None:
        """What the table holds of ``position`` for ``side`` (None: nothing), searching
        nothing: what a question stopped by its budget had proved of it."""
        return self.table.get(self.key(position, side))

    def known_move(self, nexts: Sequence[Position | int], side: int, want: bool) -> bool:
        """Whether one of ``nexts``, the positions a position's moves lead to (or the side
        a move wins for), is one the table already answers as ``want`` (the answer that
        settles that position): an enhanced transposition cutoff. Plays commute, so a move
        often reaches by another order a position answered already; looking before searching
        any move saves the search of those tried before it. The looks are not positions
        searched."""
        return any(not isinstance(nxt, int) and self.known(nxt, side) is want for nxt in nexts)

    def dominated(self, position: Position, side: int) -> bool | None:
        """Whether ``side`` wins ``position`` by what the table holds of the positions where
        one seat's hand is one lone group stronger (:meth:`Dominance.stronger`): where that
        seat's side lost one, it loses this one too. None where none is held so. Asked only
        where a seat alone is to act (on a whole deal, the landlord), where every move would
        otherwise need refuting; the looks are not positions searched."""
        rule, team = self.dominance, position.team
        if rule is None or team.count(team[position.to_act]) != 1:
            return None
        rest = (position.to_act, position.beat, position.beat_seat, side, position.must_hold)
        hands = position.hands
        for seat, hand in enumerate(hands):
            wins = team[seat] != side  # the answer where seat's side loses
            for stronger in rule.stronger(hand):
                if self.table.get(((*hands[:seat], stronger, *hands[seat + 1:]), *rest)) is wins:
                    return wins
        return None


class CompiledSearch:
    """The search in compiled code (``_moves.Solver``), over the table's compiled lister; the
    twin of :class:`PythonSearch`."""

    def __init__(self, position: Position, memory: int, deadline: float | None,
                 dominance: Dominance | None = None) -> None:
        native = native_modules()
        table = position.table
        lister = table.compiled()
        assert native is not None and lister is not None
        ruleset = position.ruleset
        self.table = table
        self.native = native.Solver(
            lister, lambda cls: table._learn(lister, cls), ruleset.players, *_plays_of(table),
            duties.binding(ruleset), ruleset.must_beat, duties.warns_single(ruleset), memory,
            None if dominance is None else dominance.packed())
        self.deadline = deadline
        #: Past this count of positions searched, the search stops (None: no limit).
        self.last_position: int | None = None

    @property
    def positions(self) -> int:
        return int(self.native.positions)

    def wins(self, position: Position, side: int) -> bool:
        """:meth:`PythonSearch.wins`'s twin."""
        return in_turns(self, position, side)

    def ask(self, position: Position, side: int, order: int) -> bool:
        """:meth:`PythonSearch.ask`'s twin."""
        hands, to_act, beat, beat_seat, team, goal, must_hold = self._question(position)
        seconds = -1.0 if self.deadline is None else max(self.deadline - time.monotonic(), 0.0)
        limit = -1 if self.last_position is None else max(self.last_position - self.positions, 0)
        found = self.native.wins(hands, to_act, beat, beat_seat, team, goal, side, seconds,
                                 limit, must_hold, order)
        if found < 0:
            raise OutOfBudget("positions" if found == -3 else "seconds")
        return bool(found)

    def known(self, position: Position, side: int) -> bool | None:
        """What the table holds of ``position`` for ``side`` (None: nothing), searching
        nothing: :meth:`PythonSearch.known`'s twin."""
        hands, to_act, beat, beat_seat, team, goal, must_hold = self._question(position)
        found = self.native.known(hands, to_act, beat, beat_seat, team, goal, side, must_hold)
        return None if found < 0 else bool(found)

    def _question(self, position: Position) -> tuple[Any, ...]:
        """A position as the compiled search reads it."""
        return (position.hands, position.to_act,
                -1 if position.beat is None else self.table.id_of(position.beat),
                -1 if position.beat_seat is None else position.beat_seat, bytes(position.team),
                bytes(position.goal(s) for s in range(position.ruleset.players)),
                -1 if position.must_hold is None else position.must_hold)


#: table -> what the compiled search reads of its plays, made once: a bot makes a search for
#: every world it solves, and writing these out costs far more than a small search.
_PLAYS: WeakKeyDictionary[PlayTable, tuple[bytes, bytes, bytes]] = WeakKeyDictionary()


def _plays_of(table: PlayTable) -> tuple[bytes, bytes, bytes]:
    """Each play's cards (16 bytes), whether it may only be a hand's last, and its level."""
    known = _PLAYS.get(table)
    if known is None:
        ruleset, by_id = table.ruleset, table.by_id
        known = _PLAYS[table] = (
            b"".join(p.key.to_bytes(16, "little") for p in by_id),
            bytes(duties.last_only(ruleset, p) for p in by_id),
            bytes(p.reading.level for p in by_id))
    return known


#: The largest lone group :class:`Dominance` raises: a single card, or a pair.
LONE_GROUPS = 2


def _held(key: int, rank: int) -> int:
    """How many cards of ``rank`` the packed set ``key`` holds."""
    return (key >> (cards.FIELD_BITS * rank)) & cards.FIELD_MASK


def _raised(key: int, low: int, high: int, size: int) -> int:
    """``key`` with ``size`` cards of rank ``low`` made cards of rank ``high``."""
    return key + size * ((1 << (cards.FIELD_BITS * high)) - (1 << (cards.FIELD_BITS * low)))


@dataclass(frozen=True)
class Dominance:
    """When one hand is surely at least as strong as another: the same hand with a lone group
    raised. The cards a hand holds of a rank are a *lone* group where they are at most
    :data:`LONE_GROUPS` (a single card, a pair) and in no body with cards of another rank
    that the hand could make (``bodies[k - 1]``: by rank, the smallest such bodies holding at
    most k cards of it; a hand only loses cards, so a group lone now stays so). Its cards
    can then only be played as a single or pair of their own, or as kickers. Raised to a
    higher rank, where every play the weaker hand could make holding them (and any cards it
    holds of the higher rank) has a twin of the same class with them raised
    (``raises[k - 1][low][high]``, bit j: where the hand holds j of the higher rank; a single
    or pair then of a higher rank, a kicker changed), they can be played everywhere the lower
    could, and beaten only where the lower could. So the stronger hand can play every line the
    weaker could, move for move, and its side wins wherever the weaker's did. Sound only
    where no one must play (``must_beat``, duties), which :func:`dominance_of` checks.

    >>> from ddz_rules.ruleset import load
    >>> rule = dominance_of(compile_table(load("classic")))
    >>> [cards.key_text(h) for h in rule.stronger(cards.pack_ranks(cards.parse("JJK")))]
    ['JJA', 'JJ2', 'QQK', 'KAA', 'K22']
    >>> [cards.key_text(h) for h in rule.stronger(cards.pack_ranks(cards.parse("9KK")))]
    ['TKK', 'JKK', 'QKK', 'KKA', 'KK2', '9AA', '922']

    (Not ``JJB``: a joker may not be a kicker, as the king may. Not ``KKK`` from ``9KK``: a
    plane of three trios may take the 9 and two kings as its kickers, but three kings would
    make it a plane of four.)
    """

    bodies: tuple[tuple[tuple[int, ...], ...], ...]
    raises: tuple[tuple[tuple[int, ...], ...], ...]

    def lone(self, hand: int, rank: int, size: int = 1) -> bool:
        """Whether ``hand``'s cards of ``rank`` are ``size`` of them, a lone group."""
        return (_held(hand, rank) == size
                and not any(cards.contains(hand, body) for body in self.bodies[size - 1][rank]))

    def stronger(self, hand: int) -> Iterator[int]:
        """Each hand one lone group of ``hand`` raised makes: single cards first, the lowest
        first, then the lowest rank to; then pairs so."""
        for size, by_low in enumerate(self.raises, 1):
            for low, row in enumerate(by_low):
                if not self.lone(hand, low, size):
                    continue
                for high in range(low + 1, len(row)):
                    if row[high] >> _held(hand, high) & 1:
                        yield _raised(hand, low, high, size)

    def packed(self) -> tuple[bytes, bytes, bytes]:
        """The compiled search's form: the bodies (16 bytes each), where each group size's
        and rank's begin (4 bytes, one more than sizes times ranks), the raises (a byte each,
        size by size, row by row)."""
        flat = [body for by_rank in self.bodies for bodies in by_rank for body in bodies]
        starts = [0]
        for by_rank in self.bodies:
            for bodies in by_rank:
                starts.append(starts[-1] + len(bodies))
        return (b"".join(body.to_bytes(16, "little") for body in flat),
                b"".join(at.to_bytes(4, "little") for at in starts),
                bytes(flag for by_low in self.raises for row in by_low for flag in row))


_DOMINANCE: WeakKeyDictionary[PlayTable, Dominance | None] = WeakKeyDictionary()


def dominance_of(table: PlayTable) -> Dominance | None:
    """The table's :class:`Dominance`, read from its plays (once a table); None where a seat
    may have to play (``must_beat``, or duties that bind), since a stronger hand could then
    be forced into a play the weaker would not have had."""
    if table in _DOMINANCE:
        return _DOMINANCE[table]
    ruleset = table.ruleset
    if ruleset.must_beat or duties.binding(ruleset):
        _DOMINANCE[table] = None
        return None
    ranks = cards.NUM_RANKS

    def kind(reading: Reading, rank: int) -> tuple[Any, ...]:
        return (reading.type, reading.length, rank, reading.level, reading.also)

    kinds: dict[int, set[tuple[Any, ...]]] = {}
    for play in table.by_id:
        kinds.setdefault(play.key, set()).add(kind(play.reading, play.reading.rank_index))
    # the most cards of each rank a play (so a hand) may hold
    most = [max(_held(play.key, rank) for play in table.by_id) for rank in range(ranks)]
    # (i, m, low, high) where some play holding i cards of the lower rank (its own single or
    # pair, or kickers) and m of the higher has no twin of the same class with those i raised
    fails: set[tuple[int, int, int, int]] = set()
    mixed: list[list[set[int]]] = [[set() for _ in range(ranks)] for _ in range(LONE_GROUPS)]
    for play in table.by_id:
        reading = play.reading
        body = play.key - reading.kicker_key
        for low in range(ranks):
            held, in_body = _held(play.key, low), _held(body, low)
            if in_body and cards.size(body) > in_body:  # with other ranks: not a lone group's
                for size in range(in_body, LONE_GROUPS + 1):
                    mixed[size - 1][low].add(body)
                continue
            if not 1 <= held <= LONE_GROUPS:
                continue
            for high in range(low + 1, ranks):
                moved = _raised(play.key, low, high, held)
                twin = kind(reading, high if in_body else reading.rank_index)
                if (in_body and in_body != held) or twin not in kinds.get(moved, ()):
                    fails.add((held, _held(play.key, high), low, high))

    def raise_mask(size: int, low: int, high: int) -> int:
        """Bit j: a lone group of ``size`` at ``low`` may be raised to ``high`` where the hand
        holds j of it (every play the weaker hand could make then has its twin)."""
        return sum(1 << held for held in range(most[high] - size + 1)
                   if not any((i, m, low, high) in fails
                              for i in range(1, size + 1) for m in range(held + 1)))

    raises = tuple(tuple(tuple(raise_mask(size, low, high) if high > low else 0
                               for high in range(ranks)) for low in range(ranks))
                   for size in range(1, LONE_GROUPS + 1))
    bodies = tuple(tuple(tuple(body for body in sorted(found, key=cards.size)
                               if not any(other != body and cards.contains(body, other)
                                          for other in found))
                         for found in by_rank) for by_rank in mixed)
    rule = _DOMINANCE[table] = Dominance(bodies, raises)
    return rule


def compiled_serves(position: Position) -> bool:
    """Whether the compiled search can search ``position``: the modules are built and the
    table flattened, and no wild card is in play (the compiled lister lists natural cards)."""
    native = native_modules()
    return (native is not None and hasattr(native, "Solver") and not position.wild
            and position.table.compiled() is not None)


#: A search of either kind: ``wins(position, side)``, its ``positions``, its ``deadline``
#: (``time.monotonic()``) and ``last_position`` (a count of positions: unlike a deadline, a
#: budget that answers the same on any machine); a caller may move both between questions,
#: the table kept.
Search = PythonSearch | CompiledSearch


def in_turns(search: Search, position: Position, side: int) -> bool:
    """Whether ``side`` wins ``position``, asked in each order of :data:`ORDERS` in turn:
    each turn within :data:`TURN_POSITIONS` more positions, each round of turns
    :data:`TURN_GROWTH` times as many, the table kept between turns (an answer one order
    proved, the next reads, since answers do not depend on the order that found them). A
    proof's size varies by orders of magnitude from one order to another on the same deal,
    so taking turns bounds the cost by a few times the cheaper order's rather than the
    costlier's. The search's own budgets (``last_position``, the deadline) bound every turn:
    within :data:`TURN_POSITIONS` positions a question is asked in the first order alone, as
    a bot's small solves are."""
    budget = TURN_POSITIONS
    while True:
        for order in range(len(ORDERS)):
            found = _within(search, budget, partial(search.ask, position, side, order))
            if found is not None:
                return found
        budget = min(budget * TURN_GROWTH, 1 << 60)


def _within(search: Search, budget: int | None, ask: Callable[[], bool]) -> bool | None:
    """``ask()`` of ``search`` within ``budget`` more positions (None: no bound of its own):
    its answer, or None where that bound stopped it. The search's own budgets stay: where
    one of them is the nearer, or the clock, stops the question, :class:`OutOfBudget` is
    raised as ever; ``last_position`` is given back as it was."""
    limit = search.last_position
    end = None if budget is None else search.positions + budget
    own = end is not None and (limit is None or end < limit)
    search.last_position = end if own else limit
    try:
        return ask()
    except OutOfBudget as exc:
        if not own or str(exc) != "positions":
            raise  # the search's own budget, not this bound
        return None
    finally:
        search.last_position = limit


def check_budgets(seconds: float | None, memory_mb: float | None, positions: int | None,
                  rest_positions: int | None = None) -> None:
    """Refuse a budget that bounds nothing: none of them may be 0 or less, and the seconds
    and megabytes must be finite numbers (NaN compares as no bound at all, and a table of
    infinite size cannot be laid out). ``rest_positions`` is :func:`solve`'s.

    >>> check_budgets(float("nan"), None, None)
    Traceback (most recent call last):
    ddz_rules.errors.UsageError: seconds nan: a budget of at least some time, a finite number
    """
    for name, value, what in (("seconds", seconds, "some time, a finite number"),
                              ("memory", memory_mb, "some memory, a finite number"),
                              ("positions", positions, "one position"),
                              ("rest_positions", rest_positions, "one position")):
        if value is not None and not 0 < value < math.inf:
            raise UsageError(Named(name), f" {value}: a budget of at least {what}")
    machine = machine_memory_mb()
    if memory_mb is not None and machine is not None and memory_mb > machine:
        raise UsageError(Named("memory"), f" {memory_mb:g}: more than this machine's "
                         f"{machine:,} MB of memory")


def machine_memory_mb() -> int | None:
    """This machine's physical memory in megabytes, where the system says (None: it does
    not), the most a search table may ask for."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (AttributeError, OSError, ValueError):
        return None


def is_large(position: Position) -> bool:
    """Whether more than :data:`LARGE_CARDS` cards are in play: a whole deal's search, which
    gets the larger table and the stronger-hand looks by default."""
    return sum(cards.size(hand) for hand in position.hands) > LARGE_CARDS


def default_memory_mb(position: Position) -> float:
    """The table's megabytes unless told otherwise: :data:`MEMORY_MB`, or
    :data:`LARGE_MEMORY_MB` where more than :data:`LARGE_CARDS` cards are in play.

    >>> from ddz_rules.ruleset import load
    >>> default_memory_mb(Position.of(load("classic"), ("33", "44", "55"), to_act=0, landlord=0))
    32
    """
    return LARGE_MEMORY_MB if is_large(position) else MEMORY_MB


def search_for(position: Position, memory_mb: float | None = None,
               seconds: float | None = None, engine: str = "auto",
               dominance: bool | None = None) -> Search:
    """A search with this budget (``memory_mb`` None: :func:`default_memory_mb`), compiled
    where it serves (``engine``: ``auto``, ``compiled`` or ``python``), looking up stronger
    hands (:class:`Dominance`) where ``dominance`` says, or (None) where more than
    :data:`LARGE_CARDS` cards are in play: a whole deal's search, which they make two to
    three times shorter. Below that the bots' solves, budgeted in positions, search as they
    were measured."""
    if memory_mb is None:
        memory_mb = default_memory_mb(position)
    if dominance is None:
        dominance = is_large(position)
    rule = dominance_of(position.table) if dominance and not position.wild else None
    memory = max(1, int(memory_mb * (1 << 20)))
    deadline = None if seconds is None else time.monotonic() + seconds
    if engine == "python" or (engine == "auto" and (
            os.environ.get("DDZ_PURE_PYTHON") or not compiled_serves(position))):
        return PythonSearch(max(1, memory // ENTRY_BYTES), deadline, rule)
    try:
        return CompiledSearch(position, max(memory, 256), deadline, rule)
    except (MemoryError, OverflowError):  # the table is laid out whole, at once
        raise UsageError(Named("memory"), f" {memory_mb:g}: the search table could not be "
                         "given that many megabytes") from None


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class Solution:
    """What a search found: whether the side to act wins (None: past the budget before that
    was known), its winning moves, where it loses the move that holds out longest, a
    principal line, the moves proved winning or losing, positions searched, seconds.

    The answer comes first: the search settles whether the side wins, then draws a line,
    then sorts the other moves (the cheapest to prove first), then, where the side loses,
    measures how long each move holds out. Where a budget runs out after the answer, ``wins``
    stands and ``winning`` holds the winning moves found so far (``complete`` False);
    ``proved`` lists the moves sorted, and ``stopped`` says which budget ran out and what it
    cut short: ``seconds``, ``positions`` or ``positions after the answer`` (``solve``'s
    ``rest_positions``) or ``positions of the resistance`` (:data:`DISTANCE_POSITIONS`),
    then ``while drawing the line``, ``while sorting the moves`` or
    ``while measuring the longest resistance``."""

    position: Position
    wins: bool | None
    winning: tuple[Play | None, ...]
    holds_out: Step | None
    line: tuple[Step, ...]
    proved: tuple[tuple[Step, bool], ...]
    positions: int
    seconds: float
    engine: str
    stopped: str | None = None
    #: Each root move's plays until the end, where the side loses (the longest is held).
    lengths: dict[int, int] = field(default_factory=dict, compare=False)

    @property
    def complete(self) -> bool:
        """Whether every move was sorted into winning or losing."""
        return self.stopped is None

    @property
    def rest_spent(self) -> bool:
        """Whether what follows the answer stopped on its own budget (``rest_positions``)."""
        return self.stopped is not None and self.stopped.startswith(REST_SPENT)

    @property
    def unsorted(self) -> int:
        """How many of the position's moves the budget left unsorted."""
        return len(moves(self.position)) - len(self.proved)

    def to_json(self) -> dict[str, Any]:
        table, wild = self.position.table, self.position.wild

        def text(step: Step) -> str:
            return step.text(table, wild)

        out: dict[str, Any] = {
            "wins": self.wins,
            "winning": ["pass" if p is None else table.notation(p, wild) for p in self.winning],
            "complete": self.complete,
            "line": [{"seat": s.seat, "play": text(s)} for s in self.line],
            "positions": self.positions, "seconds": round(self.seconds, 6),
            "engine": self.engine,
            "sides": list(self.position.team)}
        if self.holds_out is not None:
            out["holds_out"] = text(self.holds_out)
        if not self.complete:
            out["proved"] = [{"play": text(s), "wins": w} for s, w in self.proved]
            out["stopped"] = self.stopped
        return out


def solve(position: Position, seconds: float | None = None, memory_mb: float | None = None,
          engine: str = "auto", line_length: int = 60, positions: int | None = None,
          rest_positions: int | None = REST_POSITIONS) -> Solution:
    """Solve ``position`` for the side of the seat to act (see the module's text): first
    whether it wins, then a line of play, then which moves win (where it loses, the move that
    holds out longest), within one budget of ``seconds``, ``memory_mb`` of table and
    ``positions`` searched (the same on any machine). What follows the answer also stops
    after ``rest_positions`` more positions (None: no bound of its own): a whole deal is
    answered in a second where proving each of its other first plays losing may take hours."""
    check(position)
    check_budgets(seconds, memory_mb, positions, rest_positions)
    if engine != "python":
        # Lays the table out for the compiled search where it will serve, once a table: that
        # is loading the ruleset's plays, not solving, so it is done before the clock starts.
        compiled_serves(position)
    started = time.monotonic()
    search = search_for(position, memory_mb, seconds, engine)
    search.last_position = positions
    side = position.team[position.to_act]
    sorted_moves: dict[int, bool] = {}
    line: tuple[Step, ...] = ()
    holds_out = None
    lengths: dict[int, int] = {}
    stopped = None
    wins: bool | None = None
    try:
        wins = search.wins(position, side)
    except OutOfBudget as exc:
        stopped = str(exc)
    if wins is not None:
        capped = False  # whether the rest's own budget is the one that binds
        if rest_positions is not None and (
                positions is None or search.positions + rest_positions < positions):
            search.last_position, capped = search.positions + rest_positions, True
        steps = moves(position)
        doing = "drawing the line"
        try:
            line = principal_line(position, search, line_length)
            doing = "sorting the moves"
            settle(position, steps, search, side, sorted_moves)
            if not wins:
                doing = "measuring the longest resistance"
                visited = [0]
                lengths = {i: plays_left(after(position, steps[i]), search, side, line_length,
                                         visited) for i in sorted(sorted_moves)}
                holds_out = steps[max(lengths, key=lambda i: (lengths[i], -i))]
        except OutOfBudget as exc:
            rest = capped and str(exc) == "positions"
            stopped = f"{REST_SPENT if rest else exc}, while {doing}"
    proved = proved_so_far(position, search, sorted_moves)
    winning = tuple(s.play for s, won in proved if won)
    if wins is None and winning:  # a move proved winning settles it all the same
        wins = True
    return Solution(position, wins, winning, holds_out, line, tuple(proved),
                    search.positions, time.monotonic() - started,
                    "compiled" if isinstance(search, CompiledSearch) else "python", stopped,
                    lengths)


def settle(position: Position, steps: Sequence[Step], search: Search, side: int,
           sorted_moves: dict[int, bool], want: bool | None = None) -> int | None:
    """Sort ``steps``, the moves of ``position`` (:func:`moves`), into winning and losing for
    ``side``, into ``sorted_moves`` (by each move's index), up to the first whose answer is
    ``want`` (None: all of them), and return that move's index (None: there is none). First
    the moves the table answers already (searching nothing), then the rest in rounds of
    :data:`SORT_ROUNDS` positions each, then without a bound of their own: so past the
    search's budget (:class:`OutOfBudget`) the moves cheapest to prove are the ones sorted. A
    whole deal's first plays are unequal: most are proved in a few thousand positions, some
    take millions."""
    pending: list[tuple[int, Position]] = []
    for i, step in enumerate(steps):
        nxt = after(position, step)
        known = sorted_moves.get(i)
        if known is None:
            known = _known(nxt, side, search)
        if known is None:
            assert isinstance(nxt, Position)
            pending.append((i, nxt))
            continue
        sorted_moves[i] = known
        if known is want:
            return i
    for budget in (*SORT_ROUNDS, None):
        still = []
        for i, nxt in pending:
            won = _within(search, budget, partial(search.wins, nxt, side))
            if won is None:  # past the round's budget
                still.append((i, nxt))
                continue
            sorted_moves[i] = won
            if won is want:
                return i
        pending = still
    return None


def proved_so_far(position: Position, search: Search,
                  sorted_moves: dict[int, bool]) -> list[tuple[Step, bool]]:
    """The moves of ``position`` proved winning or losing for the side to act, in the order
    of :func:`moves`: ``sorted_moves`` (by index), and each other move whose position the
    table answers, searching nothing. A question stopped before its answer has still
    searched its moves in rounds, and every move it settled is in the table: a deal too
    large to answer tells which first plays lose (or win) all the same."""
    side = position.team[position.to_act]
    proved = []
    for i, step in enumerate(moves(position)):
        won = sorted_moves.get(i)
        if won is None:
            won = _known(after(position, step), side, search)
        if won is not None:
            proved.append((step, won))
    return proved


def principal_line(position: Position, search: Search,
                   longest: int) -> tuple[Step, ...]:
    """A line of play from ``position`` to its end: at each turn of the winning side, a
    winning move (one the table already knows to win where there is one, else the first that
    does), at each turn of the losing side its first move (every move of it loses). Asked of
    the side to act, as the answer was, so the line reads the answer's own table."""
    side = position.team[position.to_act]
    wins = search.wins(position, side)
    winner = side if wins else 1 - side
    line: list[Step] = []
    current: Position | int = position
    while isinstance(current, Position) and len(line) < longest:
        options = moves(current)
        chosen = options[0]
        if current.team[current.to_act] == winner:
            chosen = options[winning_move(current, options, side, winner, search)]
        line.append(chosen)
        current = after(current, chosen)
    return tuple(line)


def winning_move(position: Position, steps: Sequence[Step], side: int, winner: int,
                 search: Search) -> int:
    """The index in ``steps`` (:func:`moves`) of a move that wins ``position`` for ``winner``,
    the side to act there, which wins it: one the table already answers so where there is
    one, else the first found by :func:`settle`. ``side`` is the side the table's answers are
    asked of."""
    found = settle(position, steps, search, side, {}, winner == side)
    assert found is not None, "a position its side to act wins has a winning move"
    return found


def _known(nxt: Position | int, side: int, search: Search) -> bool | None:
    """Whether ``side`` wins ``nxt`` (a position, or the side a move won for) as far as the
    table knows, searching nothing (None: it does not know)."""
    return nxt == side if isinstance(nxt, int) else search.known(nxt, side)


def _wins_after(position: Position, step: Step, side: int,
                search: Search) -> bool:
    nxt = after(position, step)
    return nxt == side if isinstance(nxt, int) else search.wins(nxt, side)


#: Positions the search for the longest resistance may visit, for all the moves of a
#: position together, before it settles for less.
DISTANCE_POSITIONS = 20_000
#: What a solution stopped by :data:`DISTANCE_POSITIONS` says ran out.
DISTANCE_SPENT = "positions of the resistance"


def plays_left(start: Position | int, search: Search, loser: int,
               longest: int, visited: list[int] | None = None) -> int:
    """How many moves a lost position lasts with the winners winning as fast as they can and
    the losers holding out as long as they can (0 where it is over): a search by depth over
    the winners' winning moves and every move of the losers, at most
    :data:`DISTANCE_POSITIONS` positions, counted in ``visited[0]`` where given (past them,
    :class:`OutOfBudget`). The search's questions are asked of ``loser``, as the answer
    was."""
    known: dict[Position, int] = {}
    visited = [0] if visited is None else visited

    def distance(current: Position | int, depth: int) -> int:
        if not isinstance(current, Position) or depth >= longest:
            return 0
        if current in known:
            return known[current]
        visited[0] += 1
        if visited[0] > DISTANCE_POSITIONS:
            raise OutOfBudget(DISTANCE_SPENT)
        options = moves(current)
        if current.team[current.to_act] != loser:
            found = min(1 + distance(after(current, s), depth + 1) for s in options
                        if not _wins_after(current, s, loser, search))
        else:
            found = max(1 + distance(after(current, s), depth + 1) for s in options)
        known[current] = found
        return found

    return distance(start, 0)


def iter_positions(position: Position) -> Iterator[Position]:
    """The positions after each move of ``position`` (for tests and the rules book)."""
    for step in moves(position):
        nxt = after(position, step)
        if isinstance(nxt, Position):
            yield nxt
