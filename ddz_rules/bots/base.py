"""What every bot shares: the interface, and hand measures used by the rule-based levels."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ddz_rules import cards, duties
from ddz_rules.cards import BIG_JOKER, FIELD_BITS, FIELD_MASK, RANK_INDEX, SMALL_JOKER
from ddz_rules.game import ALONE, CALL, PASS, Action, View
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play, PlayTable, compile_table

TWO = RANK_INDEX["2"]
assert (SMALL_JOKER, BIG_JOKER) == (TWO + 1, TWO + 2)
ACE = RANK_INDEX["A"]


class Bot:
    """A player. ``choose`` sees only a view, and draws any randomness from ``rng``."""

    level = "bot"
    #: Hands a worker plays per unit of work: fewer for slow bots, so that progress (and the
    #: estimate of the run's time) comes hand by hand instead of after minutes.
    hands_per_batch = 25

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.table: PlayTable = compile_table(ruleset)

    @classmethod
    def prepare(cls, ruleset: Ruleset) -> None:
        """Compute and keep whatever this level needs for ``ruleset`` before a run starts (by
        default nothing)."""

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action to take; ``view.legal`` lists the choices."""
        raise NotImplementedError

    def call(self, view: View) -> str:
        """The landlord's call for a partner (``teams.partner: called_rank``): by default the
        rule of thumb :func:`partner_call`, never alone."""
        return partner_call(view, alone=False)


def plays_of(legal: Sequence[Action]) -> list[Play]:
    return [a for a in legal if not isinstance(a, str)]


#: Ranks a landlord calls for a partner, best first: the 2s, aces and kings are control cards,
#: so the peasants who hold them must choose between keeping them and joining him.
CALLED_RANKS = (TWO, ACE, RANK_INDEX["K"])


def partner_call(view: View, alone: bool) -> str:
    """The landlord's call: ``alone`` if asked, else the rank of :data:`CALLED_RANKS` he holds
    fewest of, so that the most of it lies with the others (the higher rank on a tie)."""
    if alone:
        return ALONE
    counts = cards.unpack(view.hand)
    callable_ = [r for r in CALLED_RANKS if CALL + cards.RANKS[r] in view.legal]
    if not callable_:
        return ALONE
    return CALL + cards.RANKS[min(callable_, key=lambda r: counts[r])]


def joins(view: View, play: Play) -> bool:
    """Whether ``play`` would make this seat the landlord's partner: it holds the called rank,
    nobody has joined yet, and this seat is not the landlord."""
    return (view.undecided and view.seat != view.landlord and view.called is not None
            and cards.unpack(play.key)[view.called] > 0)


def keeps_out(view: View) -> bool:
    """Whether a seat that could join the landlord should keep out of his side for now.

    Joining moves a seat to the side it expects to win: it keeps out while some peasant (itself
    included) is as close to going out as the landlord, and joins him once he leads the race.
    """
    if not view.undecided or view.landlord is None or view.seat == view.landlord:
        return False
    peasants = [s for s in range(len(view.hand_sizes)) if s != view.landlord]
    return min(distance(view, s) for s in peasants) <= distance(view, view.landlord)


def control_points(counts: Sequence[int]) -> float:
    """Hand strength from control cards: jokers, 2s and bombs (four or more of a rank)."""
    points = 4.0 * counts[BIG_JOKER] + 3.0 * counts[SMALL_JOKER] + 2.0 * counts[TWO]
    points += sum(4.0 + 2.0 * (counts[r] - 4) for r in range(TWO) if counts[r] >= 4)
    if counts[BIG_JOKER] and counts[SMALL_JOKER]:
        points += 2.0
    return points


def control_cards(key: int) -> int:
    """How many control cards (2s, jokers) a card set uses."""
    top = key >> (FIELD_BITS * TWO)  # the 2s, then the small and the big joker
    return (top & FIELD_MASK) + (top >> FIELD_BITS & FIELD_MASK) + (top >> 2 * FIELD_BITS)


def wild_cards(view: View, key: int) -> int:
    """How many wild cards (laizi) a card set uses: each can stand for what a later play
    needs, so spending one is a cost like spending a control card."""
    if not view.wild:
        return 0
    return sum(key >> (FIELD_BITS * r) & FIELD_MASK for r in view.wild)


def auction_word(legal: Sequence[Action], strength: float, thresholds: Sequence[float]) -> str:
    """The auction word a hand of ``strength`` says, for every auction family.

    ``thresholds`` are the strengths needed to bid 1, 2, 3 (or to call, rob, grab: the first
    threshold calls, the second robs or grabs).
    """
    words = [a for a in legal if isinstance(a, str)]
    numbers = sorted(int(w) for w in words if w.isdigit())
    if numbers:
        wanted = sum(1 for t in thresholds if strength >= t)
        affordable = [n for n in numbers if n <= wanted]
        return str(affordable[-1]) if affordable else PASS
    if "call" in words:
        return "call" if strength >= thresholds[0] else "no-call"
    for yes, no in (("rob", "no-rob"), ("grab", "no-grab")):
        if yes in words:
            return yes if strength >= thresholds[1] else no
    return words[0]


def distance(view: View, seat: int) -> int:
    """Cards ``seat`` still has to shed to reach its goal."""
    return view.hand_sizes[seat] - view.goal(seat)


def opponents(view: View) -> list[int]:
    """The seats on the other side from ``view.seat`` (:attr:`View.opponents`)."""
    return list(view.opponents)


def lets_out(view: View, ruleset: Ruleset, play: Play) -> bool:
    """Whether ``play`` is a single below this seat's highest rank while the next seat, an
    opponent, holds one card (:func:`ddz_rules.duties.lets_out`): it may go out on it, and
    where ``scoring.liability`` says so this seat then pays for everyone."""
    n = len(view.hand_sizes)
    following = (view.seat + 1) % n
    return following in view.opponents and duties.lets_out(
        ruleset, play, duties.Turn(view.hand, view.hand_sizes[following]))

