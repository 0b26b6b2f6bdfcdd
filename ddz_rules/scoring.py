"""Multiplier events and settlement: what a finished hand is worth to each seat.

The meaning of ``scoring.*`` lives here: which events multiply and by how much, what counts as
a spring or an anti-spring, the base, the cap, the dealt-hand bonuses, and who pays whom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from ddz_rules.cards import BIG_JOKER, SMALL_JOKER, contains, key_text, pack_ranks, size
from ddz_rules.ruleset import DEALT_BONUSES, Ruleset


@dataclass(frozen=True)
class MultiplierEvent:
    """One event that multiplied the stake: its name, factor, and the seat and cards if a play."""

    name: str
    factor: int
    seat: int | None = None
    cards: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"event": self.name, "factor": self.factor}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = self.cards
        return out


@dataclass(frozen=True)
class BonusPayment:
    """A dealt-hand bonus paid as points (``scoring.dealt_bonus`` form ``payment``): each
    other seat pays ``amount`` to ``seat``, whatever the outcome of the hand."""

    name: str
    seat: int
    amount: int

    def to_json(self) -> dict[str, object]:
        return {"bonus": self.name, "seat": self.seat, "from_each_other_seat": self.amount}


@dataclass(frozen=True)
class Result:
    """The outcome of a hand. ``landlord`` is None and scores are zero for a redeal."""

    landlord: int | None
    winner: str | None  # "landlord", "peasants", or None for a redeal
    base: int
    events: tuple[MultiplierEvent, ...]
    scores: tuple[int, ...]
    cap: int | None = None
    #: The seat that joined the landlord by playing the called rank (``teams.partner``).
    partner: int | None = None
    #: The dealt-hand bonuses paid as points, already counted in ``scores``.
    payments: tuple[BonusPayment, ...] = ()
    #: ``scoring.settlement: cards_left`` (no landlord): the first player out, the cards each
    #: seat held at the end, the seats shut out, the liable seat if one paid for all, and the
    #: bombs paid at once (already counted in ``scores``).
    first_out: int | None = None
    cards_left: tuple[int, ...] = ()
    shut_out: tuple[int, ...] = ()
    liable: int | None = None
    bombs_paid: tuple[BonusPayment, ...] = ()

    @property
    def redeal(self) -> bool:
        return self.winner is None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the hand: the first player out, or the winning side (empty
        for a redeal)."""
        if self.first_out is not None:
            return (self.first_out,)
        if self.landlord is None:
            return ()
        side = self.landlord_side
        if self.winner == "landlord":
            return side
        return tuple(seat for seat in range(len(self.scores)) if seat not in side)

    @property
    def multiplier(self) -> int:
        """The product of every logged event's factor."""
        return prod(e.factor for e in self.events)

    @property
    def spring(self) -> bool:
        return any(e.name == "spring" for e in self.events)

    @property
    def anti_spring(self) -> bool:
        return any(e.name == "anti_spring" for e in self.events)

    @property
    def landlord_side(self) -> tuple[int, ...]:
        """The landlord and his partner, if one joined him (empty for a redeal)."""
        if self.landlord is None:
            return ()
        return (self.landlord,) if self.partner is None else (self.landlord, self.partner)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "landlord": self.landlord, "winner": self.winner, "base": self.base,
            "multiplier": self.multiplier, "events": [e.to_json() for e in self.events],
            "scores": list(self.scores), "redeal": self.redeal}
        if self.partner is not None:
            out["partner"] = self.partner
        if self.payments:
            out["bonuses"] = [p.to_json() for p in self.payments]
        if self.first_out is not None:
            out["first_out"] = self.first_out
            out["cards_left"] = list(self.cards_left)
            out["shut_out"] = list(self.shut_out)
            if self.liable is not None:
                out["liable"] = self.liable
            out["bombs_paid"] = [p.to_json() for p in self.bombs_paid]
        return out


def event(ruleset: Ruleset, name: str, seat: int | None = None,
          key: int = 0) -> MultiplierEvent | None:
    """The multiplier event ``name`` (a play class, or spring, anti_spring, rob, grab), or
    None where the ruleset does not multiply on it. ``key`` is the play's cards, if a play."""
    factor = ruleset.factors.get(name)
    if factor is None:
        return None
    return MultiplierEvent(name, factor, seat, key_text(key) if key else "")


def auction_events(ruleset: Ruleset, robs: int, grabs: int) -> list[MultiplierEvent]:
    """The events of an auction's robs and grabs, one each, where ``scoring.multipliers``
    names them.

    >>> from ddz_rules.ruleset import load
    >>> [e.factor for e in auction_events(load("two-player"), 2, 0)]
    [2, 2]
    """
    found = [event(ruleset, name) for name, count in (("rob", robs), ("grab", grabs))
             for _ in range(count)]
    return [e for e in found if e is not None]


def bomb_payment(ruleset: Ruleset, play_type: str) -> int:
    """What each other seat pays the player of a play of ``play_type`` (``scoring.
    bomb_payments``, by the type's class event), when :func:`paid_when_played` says; 0 where
    nobody pays for it.

    >>> from ddz_rules.ruleset import load
    >>> bomb_payment(load("run-fast"), "bomb"), bomb_payment(load("run-fast"), "pair")
    (10, 0)
    """
    return ruleset.paid_at_once.get(play_type, 0)


def paid_when_played(ruleset: Ruleset) -> bool:
    """Whether a bomb is paid the moment it is played, whatever follows (``scoring.
    bomb_paid_when: played``), rather than once it wins its trick (``trick_won``: every other
    player passes after it, or it empties its player's hand).

    >>> from ddz_rules.ruleset import load
    >>> paid_when_played(load("run-fast"))
    True
    """
    return ruleset.bomb_paid_when == "played"


def said_factor(ruleset: Ruleset, words: Sequence[tuple[int, str]]) -> int:
    """What the robs and grabs said so far multiply the stake by (each the event of its
    name in ``scoring.multipliers``): the auction logs them as events only once it is over,
    so a table shows the multiplier as it stands with this during the auction.

    >>> from ddz_rules.ruleset import load
    >>> said_factor(load("two-player"), [(0, "call"), (1, "rob"), (0, "rob")])
    4
    """
    return prod(ruleset.factors.get(word, 1) for _, word in words if word in ("rob", "grab"))


def base_of(ruleset: Ruleset, bid: int) -> int:
    """``scoring.base``: the winning bid, or always one."""
    return bid if ruleset.base_rule == "bid" else 1


@dataclass(frozen=True)
class SidePlays:
    """The plays each side has made so far, each counted for the side its player was on when
    it made it (the public story fixes it: everyone sees a player join).

    With a called partner (``teams.partner: called_rank``) a player joins the landlord from
    his joining play on, so his plays before it are plays of the landlord's opponents and the
    joining play, the going-out play included, is his new side's. A seat's side never changes
    otherwise, so without a partner these are the landlord's plays and everyone else's.
    """

    landlord_side: int = 0
    opponents: int = 0

    def counted(self, on_landlord_side: bool) -> SidePlays:
        """These counts with one more play, made by a seat then on (or not on) the landlord's
        side."""
        if on_landlord_side:
            return SidePlays(self.landlord_side + 1, self.opponents)
        return SidePlays(self.landlord_side, self.opponents + 1)


def whitewash(landlord_won: bool, plays: SidePlays) -> str | None:
    """``"spring"``, ``"anti_spring"`` or None: what a hand won by the landlord's side
    (``landlord_won``) or by the others is, after ``plays``, by ``scoring.spring`` and
    ``scoring.anti_spring``.

    A spring is a win of the landlord's side in which no play counted for the other side; an
    anti-spring is a win of the other side in which the landlord's side made one play, the
    landlord's opening (a partner's joining play is a second one). They have different
    winners, so a hand is never both.
    """
    if landlord_won:
        return "spring" if plays.opponents == 0 else None
    return "anti_spring" if plays.landlord_side == 1 else None


def closing_events(ruleset: Ruleset, landlord_won: bool,
                   plays: SidePlays) -> list[MultiplierEvent]:
    """The spring or anti-spring of a finished hand (:func:`whitewash`), as an event where
    ``scoring.multipliers`` names it."""
    name = whitewash(landlord_won, plays)
    found = event(ruleset, name) if name else None
    return [found] if found else []


#: The cards a dealt hand must hold to earn each dealt-hand bonus: both jokers, or one card of
#: every rank from 3 to A.
BONUS_HOLDINGS = {"double_joker": pack_ranks((SMALL_JOKER, BIG_JOKER)),
                  "full_straight": pack_ranks(range(0, 12))}


def dealt_bonuses(ruleset: Ruleset,
                  dealt: Sequence[int]) -> tuple[list[MultiplierEvent], list[BonusPayment]]:
    """The bonuses of the seats' dealt hands (``dealt``, packed, before the kitty) that
    ``scoring.dealt_bonus`` lists, in the form it names: multiplier events (form
    ``multiplier``) or payments to the holder (form ``payment``), for :func:`settle`. They
    are counted when the hand is settled, so they reveal nothing while it is played.

    >>> from ddz_rules.ruleset import load
    >>> from ddz_rules.cards import pack_ranks, parse
    >>> events, payments = dealt_bonuses(load("happy"), [pack_ranks(parse("3456789TJQKABR")), 0])
    >>> events, [(p.name, p.seat, p.amount) for p in payments]
    ([], [('double_joker', 0, 1), ('full_straight', 0, 1)])
    """
    bonus = ruleset.dealt_bonus
    events: list[MultiplierEvent] = []
    payments: list[BonusPayment] = []
    if bonus is None:
        return events, payments
    amounts = dict(bonus.amounts)
    for seat, key in enumerate(dealt):
        for name in DEALT_BONUSES:
            if name not in amounts or not contains(key, BONUS_HOLDINGS[name]):
                continue
            if bonus.form == "multiplier":
                events.append(MultiplierEvent(name, amounts[name], seat))
            else:
                payments.append(BonusPayment(name, seat, amounts[name]))
    return events, payments


def settle(ruleset: Ruleset, side: Sequence[int], landlord_won: bool, base: int,
           events: Sequence[MultiplierEvent],
           payments: Sequence[BonusPayment] = ()) -> Result:
    """``scoring.settlement``: with S = base x multiplier, each peasant settles S with the
    landlord's side, which shares the total equally; then each dealt-hand bonus paid as
    points (``payments``, see :func:`dealt_bonuses`) is paid to its holder by every other seat.

    ``side`` is the landlord, then his partner if one joined him. Alone, the landlord wins or
    loses S from each peasant (the classic rule); a side of two shares it, each of them
    settling as much as a peasant does where the sides are even. A payment is beside the
    stake: the cap does not limit it and nothing multiplies it. The scores sum to zero.

    >>> from ddz_rules.ruleset import load
    >>> settle(load("four-player"), (0, 2), True, 3, []).scores
    (3, -3, 3, -3)
    >>> settle(load("four-player"), (0,), False, 3, []).scores
    (-9, 3, 3, 3)
    """
    stake = base * prod(e.factor for e in events)
    if ruleset.cap is not None:
        stake = min(stake, ruleset.cap)
    sign = 1 if landlord_won else -1
    peasants = ruleset.players - len(side)
    share, left = divmod(stake * peasants, len(side))
    if left:  # pragma: no cover - sides are one landlord, or a landlord and one partner of four
        raise ValueError(f"a side of {len(side)} cannot share {stake * peasants} equally")
    scores = [sign * share if seat in side else -sign * stake for seat in range(ruleset.players)]
    for paid in payments:
        for seat in range(ruleset.players):
            scores[seat] += paid.amount * (ruleset.players - 1) if seat == paid.seat \
                else -paid.amount
    return Result(side[0], "landlord" if landlord_won else "peasants", base, tuple(events),
                  tuple(scores), ruleset.cap, side[1] if len(side) > 1 else None,
                  tuple(payments))


def cards_owed(ruleset: Ruleset, held: int, played: bool) -> int:
    """``scoring.settlement: cards_left``: what a losing seat holding ``held`` cards pays the
    first player out: ``scoring.per_card`` a card, times ``scoring.shut_out`` if it never
    ``played``, at most ``scoring.cap``; nothing for a single card where ``scoring.
    last_card_free`` says so.

    >>> from ddz_rules.ruleset import load
    >>> rules = load("run-fast")
    >>> [cards_owed(rules, n, True) for n in (1, 2, 16)], cards_owed(rules, 16, False)
    ([0, 2, 16], 32)
    """
    if held == 1 and ruleset.last_card_free:
        return 0
    due = held * ruleset.per_card * (1 if played else ruleset.shut_out)
    return min(due, ruleset.cap) if ruleset.cap is not None else due


def settle_alone(ruleset: Ruleset, winner: int, hands: Sequence[int], plays: Sequence[int],
                 liable: int | None, bombs: Sequence[BonusPayment]) -> Result:
    """``scoring.settlement: cards_left``: the first player out (``winner``) is paid by each
    other seat for the cards it holds (``hands``, packed), as :func:`cards_owed` says
    (``plays`` counts each seat's plays); where ``liable`` is a seat (see :func:`liable`),
    that seat pays all of it. Each bomb of ``bombs`` was paid by every other seat. The scores
    sum to zero.

    >>> from ddz_rules.ruleset import load
    >>> from ddz_rules.cards import pack_ranks, parse
    >>> hands = [0, pack_ranks(parse("3345")), pack_ranks(parse("9"))]
    >>> settle_alone(load("run-fast"), 0, hands, [3, 0, 2], None, []).scores
    (8, -8, 0)
    """
    held = tuple(size(h) for h in hands)
    shut = tuple(seat for seat in range(ruleset.players) if seat != winner and not plays[seat])
    owed = [0 if seat == winner else cards_owed(ruleset, held[seat], seat not in shut)
            for seat in range(ruleset.players)]
    total = sum(owed)
    payer = liable if liable_pays(ruleset) and liable is not None else None
    if payer is not None:
        owed = [total if seat == payer else 0 for seat in range(ruleset.players)]
    scores = [total if seat == winner else -owed[seat] for seat in range(ruleset.players)]
    for paid in bombs:
        for seat in range(ruleset.players):
            scores[seat] += paid.amount * (ruleset.players - 1) if seat == paid.seat \
                else -paid.amount
    return Result(None, "first_out", 1, (), tuple(scores), ruleset.cap, first_out=winner,
                  cards_left=held, shut_out=shut, liable=payer, bombs_paid=tuple(bombs))


def liable_pays(ruleset: Ruleset) -> bool:
    """Whether a seat that let the first player out pays what everyone owes
    (``scoring.liability: pays_for_all``)."""
    return ruleset.liability == "pays_for_all"


def liable(ruleset: Ruleset, highest: int, out_rank: int) -> bool:
    """Whether the player of a single below his highest rank (``highest``, then), on which
    the warned next player went out with a card of rank ``out_rank``, is to blame and pays
    for everyone: under ``scoring.liability: pays_for_all``, always (``scoring.liable_if:
    lower_single``), or only where his highest single would have held that card
    (``highest_would_hold``: ``out_rank`` does not rank above ``highest``).

    >>> from ddz_rules.ruleset import load
    >>> from ddz_rules.cards import RANK_INDEX as R
    >>> rules = load("run-fast-15")
    >>> liable(rules, R["5"], R["6"]), liable(rules, R["9"], R["6"])
    (False, True)
    """
    return liable_pays(ruleset) and (ruleset.liable_if == "lower_single" or out_rank <= highest)


def redeal(ruleset: Ruleset) -> Result:
    """The result of a hand nobody wanted: dealt again, nothing carried over."""
    return Result(None, None, 0, (), (0,) * ruleset.players)
