"""Auction families: small state machines that choose the landlord.

Each family is chosen by ``auction.family`` in the ruleset and implemented once here. An
auction takes words (``pass``, ``1``..``3``, ``call``, ``no-call``, ``rob``, ``no-rob``,
``grab``, ``no-grab``), says whose turn it is and which words are legal, and when it is over
names the landlord (or none, for a redeal), the winning bid, and the robs or grabs made. The
family ``none`` takes no word at all: it is over as soon as it starts (:class:`NoAuction`).

>>> auction = new_auction(load("classic"), first=1)
>>> for word in ["1", "pass", "3"]:
...     auction.apply(word)
>>> auction.done, auction.outcome().landlord, auction.outcome().bid
(True, 0, 3)
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ddz_rules.errors import IllegalActionError
from ddz_rules.ruleset import Ruleset, load  # noqa: F401  (load: for the doctest)


@dataclass(frozen=True)
class AuctionOutcome:
    """How an auction ended: ``landlord`` is None when the hand is to be dealt again."""

    landlord: int | None
    bid: int = 0
    robs: int = 0
    grabs: int = 0


@dataclass
class Auction:
    """Shared state of every family: seats in playing order, the words said so far."""

    players: int
    first: int
    first_bidder_on_all_pass: bool = False
    #: The bid the first speaker holds when ``auction.all_pass`` makes him landlord.
    all_pass_bid: int = 0
    history: list[tuple[int, str]] = field(default_factory=list)
    to_act: int = 0
    done: bool = False
    result: AuctionOutcome | None = None
    #: Whether ``auction.all_pass`` made the first speaker landlord (nobody bid or called).
    landlord_by_all_pass: bool = False

    def __post_init__(self) -> None:
        self.to_act = self.first

    def legal(self) -> list[str]:
        """The words the player to act may say."""
        raise NotImplementedError

    def words(self) -> tuple[str, ...]:
        """Every word this family ever takes, whoever speaks and whenever (none by
        default): the vocabulary :meth:`legal` draws from."""
        return ()

    def apply(self, word: str) -> None:
        """Say ``word`` for the player to act; refuse it, changing nothing, if illegal."""
        if self.done:
            raise IllegalActionError(self.refusal(word))
        legal = self.legal()
        if word not in legal:
            raise IllegalActionError(
                f"seat {self.to_act} may not say {word!r} now; legal: {', '.join(legal)}")
        self.history.append((self.to_act, word))
        self._step(word)

    def _step(self, word: str) -> None:
        raise NotImplementedError

    def refusal(self, word: str) -> str:
        """Why ``word`` is refused once the auction is over: one line."""
        return f"the auction is already over; {word!r} is one auction word too many"

    def _finish(self, outcome: AuctionOutcome) -> None:
        """End the auction. Where nobody bid or called, ``auction.all_pass`` decides."""
        if outcome.landlord is None and self.first_bidder_on_all_pass:
            outcome = AuctionOutcome(self.first, bid=self.all_pass_bid)
            self.landlord_by_all_pass = True
        self.done = True
        self.result = outcome

    def outcome(self) -> AuctionOutcome:
        if self.result is None:
            raise IllegalActionError("the auction is not over")
        return self.result

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.players


@dataclass
class _Bidding(Auction):
    """Families where players bid numbers, each strictly above the highest so far."""

    bids: tuple[int, ...] = ()
    high: int = 0
    high_seat: int | None = None

    def legal(self) -> list[str]:
        return ["pass", *(str(b) for b in self.bids if b > self.high)]

    def words(self) -> tuple[str, ...]:
        return ("pass", *(str(b) for b in self.bids))

    def _raise(self, word: str) -> bool:
        """Record a bid; True when it is the top bid, which ends the auction at once."""
        self.high, self.high_seat = int(word), self.to_act
        if self.high == self.bids[-1]:
            self._finish(AuctionOutcome(self.to_act, self.high))
            return True
        return False

    def _won(self) -> AuctionOutcome:
        return AuctionOutcome(self.high_seat, self.high if self.high_seat is not None else 0)


@dataclass
class SingleRound(_Bidding):
    """Each player speaks exactly once (text 000); a top bid ends it at once."""

    def _step(self, word: str) -> None:
        if word != "pass" and self._raise(word):
            return
        if len(self.history) == self.players:
            self._finish(self._won())
        else:
            self.to_act = self._next(self.to_act)


@dataclass
class OpenConsecutivePasses(_Bidding):
    """Round and round; after a bid, every other player passing in a row ends it (text 001).

    A pass is not final. Before any bid, a full round of passes means nobody wants the hand.
    """

    passes_in_a_row: int = 0

    def _step(self, word: str) -> None:
        if word != "pass":
            self.passes_in_a_row = 0
            if self._raise(word):
                return
        else:
            self.passes_in_a_row += 1
            needed = self.players - 1 if self.high_seat is not None else self.players
            if self.passes_in_a_row >= needed:
                self._finish(self._won())
                return
        self.to_act = self._next(self.to_act)


@dataclass
class OpenUntilPassed(_Bidding):
    """Round and round, a pass being final, until all but one have passed (text 003).

    If all but one have passed and nobody has bid, the last player may still bid or pass.
    """

    passed: set[int] = field(default_factory=set)

    def _step(self, word: str) -> None:
        if word != "pass":
            if self._raise(word):
                return
        else:
            self.passed.add(self.to_act)
        if len(self.passed) == self.players or (
                len(self.passed) == self.players - 1 and self.high_seat is not None):
            self._finish(self._won())
            return
        seat = self._next(self.to_act)
        while seat in self.passed:
            seat = self._next(seat)
        self.to_act = seat


#: The words of the calling families: a call and its refusal, then a rob or a grab and theirs.
CALLS = ("call", "no-call")
ROBS = ("rob", "no-rob")
GRABS = ("grab", "no-grab")


@dataclass
class _Calling(Auction):
    """Families that open with call / no-call in turn; nobody calling leaves the hand."""

    calls_refused: int = 0

    def _refuse_call(self) -> bool:
        """Count a no-call; True when everyone has refused (the auction is then over)."""
        self.calls_refused += 1
        if self.calls_refused == self.players:
            self._finish(AuctionOutcome(None))
            return True
        return False


@dataclass
class CallRob(_Calling):
    """Call, then rob in turn, for two players (text 002).

    After a call the others may rob; a rob makes the robber the candidate and passes the turn
    on. The first refusal makes the candidate landlord; the last allowed rob wins at once.
    If nobody calls, ``all_pass`` decides (text 002: the first speaker is landlord).
    """

    max_robs: int = 4
    candidate: int | None = None
    robs: int = 0

    def legal(self) -> list[str]:
        return list(CALLS if self.candidate is None else ROBS)

    def words(self) -> tuple[str, ...]:
        return (*CALLS, *ROBS)

    def _step(self, word: str) -> None:
        if word == "no-call":
            if self._refuse_call():
                return
        elif word == "call":
            self.candidate = self.to_act
        elif word == "rob":
            self.candidate = self.to_act
            self.robs += 1
            if self.robs == self.max_robs:
                self._finish(AuctionOutcome(self.candidate, robs=self.robs))
                return
        else:  # no-rob
            self._finish(AuctionOutcome(self.candidate, robs=self.robs))
            return
        self.to_act = self._next(self.to_act)


@dataclass
class CallGrab(_Calling):
    """Call, then one chance to grab for each player ``auction.grabbers`` admits, then the
    caller's last word.

    The variant of text 003: each grab makes the grabber the candidate and doubles the stake.
    ``grabbers`` is ``any_other`` (every player but the caller is asked in turn) or
    ``not_declined`` (a player who said no-call before the call is never asked: the apps' rule).
    Once anyone has grabbed, the caller is asked last; ``max_grabs`` grabs end it at once.
    """

    max_grabs: int = 3
    grabbers: str = "any_other"
    caller: int | None = None
    candidate: int | None = None
    grabs: int = 0
    waiting: list[int] = field(default_factory=list)

    def legal(self) -> list[str]:
        return list(CALLS if self.caller is None else GRABS)

    def words(self) -> tuple[str, ...]:
        return (*CALLS, *GRABS)

    @property
    def declined(self) -> list[int]:
        """The seats that said no-call, in the order they said it."""
        return [seat for seat, word in self.history if word == "no-call"]

    def may_grab(self, seat: int) -> bool:
        """``auction.grabbers``: whether ``seat``, not the caller, is offered a grab."""
        return self.grabbers == "any_other" or seat not in self.declined

    def _step(self, word: str) -> None:
        if word == "no-call":
            if not self._refuse_call():
                self.to_act = self._next(self.to_act)
            return
        if word == "call":
            self.caller = self.candidate = self.to_act
            others = [(self.to_act + i) % self.players for i in range(1, self.players)]
            self.waiting = [seat for seat in others if self.may_grab(seat)]
        else:
            if word == "grab":
                self.candidate = self.to_act
                self.grabs += 1
                if self.to_act != self.caller and self.caller not in self.waiting:
                    self.waiting.append(self.caller)  # type: ignore[arg-type]
            if self.grabs == self.max_grabs:
                self.waiting = []
        if not self.waiting:
            self._finish(AuctionOutcome(self.candidate, grabs=self.grabs))
            return
        self.to_act = self.waiting.pop(0)

    def refusal(self, word: str) -> str:
        shut_out = [seat for seat in self.declined if not self.may_grab(seat)]
        if word != "grab" or not shut_out or self.caller is None:
            return super().refusal(word)
        seats = " and ".join(f"seat {seat}" for seat in shut_out)
        return (f"the auction is already over (seat {self.candidate} is the landlord), so "
                f"{word!r} is one auction word too many: {seats} said no-call, and a player who "
                f"said no-call may not grab (auction.grabbers: {self.grabbers})")


@dataclass
class NoAuction(Auction):
    """No auction (``auction.family: none``, as RLCard and DouZero play): the first bidder is
    the landlord at once, at the bid ``auction.fixed_bid``; nobody says a word.

    >>> auction = new_auction(load("rlcard"), first=2)
    >>> auction.done, auction.legal(), auction.outcome()
    (True, [], AuctionOutcome(landlord=2, bid=1, robs=0, grabs=0))
    """

    bid: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        self._finish(AuctionOutcome(self.first, self.bid))

    def legal(self) -> list[str]:
        return []

    def refusal(self, word: str) -> str:
        return (f"there is no auction (auction.family: none): the deal made seat {self.first} "
                f"the landlord at a bid of {self.bid}, so no auction word is said, {word!r} "
                "included")

    def _step(self, word: str) -> None:  # pragma: no cover - apply refuses every word first
        raise IllegalActionError(self.refusal(word))


@dataclass
class Leaderless(Auction):
    """No auction and no landlord (``teams.sides: each_alone``, as in Run Fast): over before
    it starts, with nobody made landlord; nobody says a word.

    >>> auction = new_auction(load("run-fast"), first=1)
    >>> auction.done, auction.legal(), auction.outcome()
    (True, [], AuctionOutcome(landlord=None, bid=0, robs=0, grabs=0))
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        self.done = True
        self.result = AuctionOutcome(None)

    def legal(self) -> list[str]:
        return []

    def refusal(self, word: str) -> str:
        return ("there is no auction and no landlord (teams.sides: each_alone): every player "
                f"plays for himself, so no auction word is said, {word!r} included")

    def _step(self, word: str) -> None:  # pragma: no cover - apply refuses every word first
        raise IllegalActionError(self.refusal(word))


def new_auction(ruleset: Ruleset, first: int) -> Auction:
    """The auction a ruleset's ``auction.family`` names, with the first bidder to speak."""
    on_all_pass = ruleset.all_pass != "redeal"
    lowest = (ruleset.bids[0] if ruleset.all_pass == "first_bidder_lowest_bid" and ruleset.bids
              else 0)
    family = ruleset.auction_family
    common = {"players": ruleset.players, "first": first, "first_bidder_on_all_pass": on_all_pass,
              "all_pass_bid": lowest}
    if family == "single_round":
        return SingleRound(**common, bids=ruleset.bids)  # type: ignore[arg-type]
    if family == "open_consecutive_passes":
        return OpenConsecutivePasses(**common, bids=ruleset.bids)  # type: ignore[arg-type]
    if family == "open_until_passed":
        return OpenUntilPassed(**common, bids=ruleset.bids)  # type: ignore[arg-type]
    if family == "call_rob":
        return CallRob(**common, max_robs=ruleset.max_robs)  # type: ignore[arg-type]
    if family == "call_grab":
        return CallGrab(**common, max_grabs=ruleset.max_grabs,  # type: ignore[arg-type]
                        grabbers=ruleset.grabbers)
    if family == "leaderless":
        return Leaderless(**common)  # type: ignore[arg-type]
    if family == "none":
        assert ruleset.fixed_bid is not None  # the ruleset's loading requires it
        return NoAuction(**common, bid=ruleset.fixed_bid)  # type: ignore[arg-type]
    raise ValueError(f"unknown auction family {family!r}")  # the schema forbids it


#: Words :func:`finished_auctions` looks ahead at most: every bundled auction names a
#: landlord at its lowest stake in fewer.
CHEAPEST_WORDS = 12


def finished_auctions(ruleset: Ruleset, first: int, said: Sequence[str] = ()
                      ) -> Iterator[tuple[tuple[str, ...], AuctionOutcome]]:
    """Every auction opened by ``first`` that begins with the words ``said`` and is over
    within :data:`CHEAPEST_WORDS` words: its words and how it ended. How a record is made of
    a game whose auction was not kept whole (an imported replay, a Botzone request).

    >>> sorted(w for w, o in finished_auctions(load("classic"), 0, ["pass", "pass"]))
    [('pass', 'pass', '1'), ('pass', 'pass', '2'), ('pass', 'pass', '3'), ('pass', 'pass', 'pass')]
    """
    frontier: list[tuple[tuple[str, ...], Auction]] = [((), new_auction(ruleset, first))]
    while frontier:
        words, auction = frontier.pop()
        if auction.done:
            yield words, auction.outcome()
            continue
        if len(words) == CHEAPEST_WORDS:
            continue
        for word in auction.legal():
            if len(words) < len(said) and word != said[len(words)]:
                continue
            following = copy.deepcopy(auction)
            following.apply(word)
            frontier.append(((*words, word), following))


def cheapest_auction(ruleset: Ruleset, first: int, landlord: int) -> tuple[str, ...] | None:
    """The words of an auction opened by ``first`` that make ``landlord`` the landlord at the
    lowest stake (the lowest bid, then the fewest robs and grabs, then the fewest words), or
    None where none of :func:`finished_auctions` does.

    >>> cheapest_auction(load("classic"), first=0, landlord=1)
    ('pass', '1', 'pass')
    """
    costs = [((o.bid, o.robs + o.grabs, len(words)), words)
             for words, o in finished_auctions(ruleset, first) if o.landlord == landlord]
    return min(costs)[1] if costs else None
