"""Matches: how hands add up to a match, under a ruleset's ``match`` rule points.

A match is a series of deals. After each, :class:`MatchState` records the hand's scores, says
whether it counts toward the match's length (``match.redeal``), who deals next
(``match.rotation``), and whether the match is over (``match.length``, ``match.hands``,
``match.target``, ``match.ties``); :meth:`MatchState.outcome` gives the totals and the winners.
The rules live here alone: playing a match with bots, checking a match record and the
comparison's match measures all walk a :class:`MatchState`.

>>> from ddz_rules.ruleset import load
>>> state = MatchState(load("classic"))
>>> state.add(scores=(-2, -2, 4), winners=(2,))
>>> state.totals, state.dealer, state.counted, state.over
((-2, -2, 4), 1, 1, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import Result

#: Deals thrown in one after another before a match gives up on a hand (as in a comparison).
MAX_REDEALS = 64


@dataclass(frozen=True)
class MatchHand:
    """One deal of a match: who dealt, what each seat scored, and whose side won."""

    dealer: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    redeal: bool
    counted: bool


@dataclass(frozen=True)
class Outcome:
    """A finished match: totals, the seats that hold the top (``winners``), and a tie flag.

    ``led_alone_from`` is the counted hand from which the winner held the top alone to the
    end (equal to ``counted`` when only the last hand put him there); ``None`` for a tie. It
    says when the winner took the lead for good, not that no later hand could have changed
    the winner: without a cap on a hand's score (``scoring.cap``) a later hand always could.
    """

    totals: tuple[int, ...]
    hands_won: tuple[int, ...]
    winners: tuple[int, ...]
    tie: bool
    counted: int
    led_alone_from: int | None


@dataclass
class MatchState:
    """A match in progress under one ruleset, dealt first by ``first_dealer``."""

    ruleset: Ruleset
    first_dealer: int = 0
    hands: list[MatchHand] = field(default_factory=list)

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def dealer(self) -> int:
        """Who deals next (``match.rotation``)."""
        seat = self.first_dealer
        for hand in self.hands:
            seat = next_dealer(self.ruleset, seat, hand.redeal)
        return seat

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(h.scores[s] for h in self.hands) for s in range(self.players))

    @property
    def hands_won(self) -> tuple[int, ...]:
        """Counted hands each seat's side won."""
        return tuple(sum(1 for h in self.hands if h.counted and s in h.winners)
                     for s in range(self.players))

    @property
    def counted(self) -> int:
        return sum(1 for h in self.hands if h.counted)

    def leaders(self) -> tuple[int, ...]:
        """The seats at the top so far, by what ranks the match (:func:`ranked_by`)."""
        key = getattr(self, ranked_by(self.ruleset))
        top = max(key)
        return tuple(s for s in range(self.players) if key[s] == top)

    @property
    def regular_over(self) -> bool:
        """Whether the match's length rule alone is met (before any tie is played on)."""
        rules, counted = self.ruleset.match, self.counted
        if counted >= rules.hands:
            return True
        if rules.length == "target":
            assert rules.target is not None
            return counted > 0 and max(self.totals) >= rules.target
        if rules.length == "best_of":
            return max(self.hands_won) * 2 > rules.hands
        return False

    @property
    def over(self) -> bool:
        """Whether the match is over: its length is met and, where ties are played on, one
        seat leads alone or ``match.hands`` extra hands have been played."""
        if not self.regular_over:
            return False
        if self.ruleset.match.ties == "play_on" and len(self.leaders()) > 1:
            return self.counted >= 2 * self.ruleset.match.hands
        return True

    def counts(self, redeal: bool) -> bool:
        """Whether a deal counts as one of the match's hands (``match.redeal``)."""
        return not redeal or self.ruleset.match.redeal == "counted"

    def add(self, scores: tuple[int, ...], winners: tuple[int, ...], redeal: bool = False
            ) -> None:
        """Record the deal just played by :attr:`dealer`."""
        if self.over:
            raise ValueError("the match is over; no more hands are played")
        if len(scores) != self.players:
            raise ValueError(f"{len(scores)} scores for {self.players} seats")
        self.hands.append(MatchHand(self.dealer, tuple(scores), tuple(winners), redeal,
                                    self.counts(redeal)))

    def outcome(self) -> Outcome:
        """The result of the finished match."""
        if not self.over:
            raise ValueError("the match is not over")
        leaders = self.leaders()
        return Outcome(self.totals, self.hands_won, leaders, len(leaders) > 1, self.counted,
                       None if len(leaders) > 1 else self._led_alone_from(leaders[0]))

    def _led_alone_from(self, winner: int) -> int:
        """The counted hand from which ``winner`` led alone to the end."""
        best_of = ranked_by(self.ruleset) == "hands_won"
        running = [0] * self.players
        since, counted = 0, 0
        for hand in self.hands:
            if not hand.counted:
                continue
            counted += 1
            for s in range(self.players):
                running[s] += (s in hand.winners) if best_of else hand.scores[s]
            alone = all(running[winner] > running[s] for s in range(self.players)
                        if s != winner)
            if not alone:
                since = 0
            elif not since:
                since = counted
        return since or counted


def led_alone(since: int | None, counted: int) -> str:
    """What a match result adds about its winner's lead (nothing for a tie): the hand from
    which he led alone to the end, ", led alone from hand 5 of 10 on". It is not "decided":
    a later hand could still have changed the winner.

    >>> led_alone(5, 10)
    ', led alone from hand 5 of 10 on'
    """
    return "" if since is None else f", led alone from hand {since} of {counted} on"


def ranked_by(ruleset: Ruleset) -> str:
    """What ranks the seats of a match (``match.length``): ``hands_won`` in a best-of match,
    ``totals`` otherwise; the name of the :class:`MatchState` (and match row) field."""
    return "hands_won" if ruleset.match.length == "best_of" else "totals"


def first_dealer(ruleset: Ruleset, index: int) -> int:
    """Who deals the first hand of match number ``index`` of a series: the seats take turns,
    match after match, so that no seat deals first more often than another."""
    return index % ruleset.players


def next_dealer(ruleset: Ruleset, dealer: int, thrown_in: bool) -> int:
    """Who deals after ``dealer``'s deal (``match.rotation``): the next seat to the left,
    unless the deal was thrown in and the deal passes only after hands played out.

    Every command that plays more than one deal follows it: matches, comparison runs (where a
    thrown-in deal is dealt again) and ``ddz simulate``.

    >>> from ddz_rules.ruleset import load
    >>> next_dealer(load("classic"), 2, thrown_in=True)
    0
    """
    if thrown_in and ruleset.match.rotation == "every_hand":
        return dealer
    return (dealer + 1) % ruleset.players


def side_winners(players: int, landlord: int | None, winner: str | None,
                 partner: int | None = None, first_out: int | None = None) -> tuple[int, ...]:
    """The seats that won a hand, lowest first: the landlord's side or the others (none for a
    deal nobody took); ``partner`` is the seat that joined the landlord, if one did. Where
    there is no landlord (``teams.sides: each_alone``) the first player out, ``first_out``,
    won it alone."""
    if first_out is not None:
        return (first_out,)
    if landlord is None or winner is None:
        return ()
    side = (landlord,) if partner is None else tuple(sorted((landlord, partner)))
    if winner == "landlord":
        return side
    return tuple(s for s in range(players) if s not in side)


def hand_winners(result: Result) -> tuple[int, ...]:
    """The seats that won the hand ``result`` settles (:func:`side_winners`), what a match
    counts as its hands won."""
    return side_winners(len(result.scores), result.landlord, result.winner, result.partner,
                        result.first_out)
