"""The play rules beyond beating the last play: what a seat must, or may not, play on its turn.

Four rule points give them (the meaning of each lives here and nowhere else):

- ``play.first_play_holds_lead_card``: the hand's first play contains the card that made its
  player the first leader (cards of a rank are interchangeable, so: a card of its rank);
- ``play.last_play_only``: some combination types may be played only to empty the hand;
- ``play.last_card_warning: highest_single``: while the next player holds one card, a single
  is of the player's highest rank;
- ``play.must_beat``: a player who holds an allowed play that beats the last one may not pass.

:func:`refusal` says why a play is not allowed (or None), :func:`allowed` filters a list of
plays by it, and :func:`pass_refusal` says why a pass is not; the hand engine and the record
reader use these three, so listing and checking can never disagree.

>>> from ddz_rules.ruleset import load
>>> from ddz_rules.table import compile_table
>>> rules = load("run-fast")
>>> play = compile_table(rules).play("444")
>>> turn = Turn(hand=cards.pack_ranks(cards.parse("4445")), next_cards=5)
>>> print(refusal(rules, play, turn))  # doctest: +ELLIPSIS
a trio may be played only as a player's last play, ... (play.last_play_only)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ddz_rules import cards
from ddz_rules.errors import Named, UsageError
from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import liable_pays
from ddz_rules.table import Play


@dataclass(frozen=True)
class Turn:
    """What the duties of one turn depend on: the cards of the seat to act, the number of
    cards the next seat holds, and, on the hand's first play, the rank it must contain."""

    hand: int
    next_cards: int
    #: The rank the play must hold (``play.first_play_holds_lead_card``, first play only).
    must_hold: int | None = None


def binding(ruleset: Ruleset) -> bool:
    """Whether any duty applies under ``ruleset`` (the engine skips the filtering if not)."""
    return bool(ruleset.last_play_only or ruleset.must_beat or ruleset.first_play_holds_lead_card
                or ruleset.last_card_warning != "none")


def warns_last_card(ruleset: Ruleset) -> bool:
    """Whether a player's last card is a matter of the rules: ``play.last_card_warning`` forces
    something while the next player holds one card, or ``scoring.liability`` may make a player
    pay for letting him out."""
    return ruleset.last_card_warning != "none" or ruleset.liability != "none"


def highest_rank(hand: int) -> int:
    """The highest rank a packed hand holds (-1 for an empty hand)."""
    counts = cards.unpack(hand)
    return max((r for r, n in enumerate(counts) if n), default=-1)


def turn_of(ruleset: Ruleset, hand: int, next_cards: int | None, first: bool) -> Turn:
    """The turn ``ddz moves`` lists plays for: ``hand`` is the player's whole hand, the next
    player holds ``next_cards`` (None: more than one), and ``first`` makes it the hand's first
    play, by the holder of ``play.lead_card``. Refuses, in one line, an option no rule of
    ``ruleset`` reads."""
    if first and not ruleset.first_play_holds_lead_card:
        raise UsageError(Named("first"), f": no rule of {ruleset.id} binds the hand's first play "
                         "(play.first_play_holds_lead_card is not stated or is false)")
    if next_cards is not None:
        if not warns_last_card(ruleset):
            raise UsageError(Named("next_cards"), f": no rule of {ruleset.id} reads what the "
                             "next player "
                             "holds (play.last_card_warning and scoring.liability are none)")
        if next_cards < 1:
            raise UsageError(Named("next_cards"), f": expected a number of cards, at least 1, not "
                             f"{next_cards}")
    lead = cards.parse_suited(ruleset.lead_card)[0] if first and ruleset.lead_card else None
    if lead is not None and not hand >> (cards.FIELD_BITS * lead) & cards.FIELD_MASK:
        raise UsageError(Named("first"), f": the hand holds no {cards.RANKS[lead]}, so it "
                         "cannot make "
                         f"the hand's first play: that play must contain the lead card "
                         f"{ruleset.lead_card} (play.first_play_holds_lead_card), and only its "
                         "holder makes it")
    return Turn(hand, 2 if next_cards is None else next_cards, lead)


def last_only(ruleset: Ruleset, play: Play) -> bool:
    """Whether ``play`` may only empty its player's hand (``play.last_play_only``)."""
    return play.reading.type in ruleset.last_play_only


def warns_single(ruleset: Ruleset) -> bool:
    """Whether a single to a player warned of one card must be the highest rank held
    (``play.last_card_warning: highest_single``)."""
    return ruleset.last_card_warning == "highest_single"


def refusal(ruleset: Ruleset, play: Play, turn: Turn) -> str | None:
    """Why the play rules forbid ``play`` on this turn, in one line, or None if they allow it."""
    kind = play.reading.type
    if last_only(ruleset, play) and play.key != turn.hand:
        return (f"a {kind.replace('_', ' ')} may be played only as a player's last play, the one "
                "that empties his hand (play.last_play_only)")
    if turn.must_hold is not None and not (play.key >> (cards.FIELD_BITS * turn.must_hold)
                                           & cards.FIELD_MASK):
        return (f"the hand's first play must contain the lead card, so a "
                f"{cards.RANKS[turn.must_hold]} (play.first_play_holds_lead_card)")
    if warns_single(ruleset) and lets_out(ruleset, play, turn):
        return (f"the next player holds one card, so a single must be of your highest rank, "
                f"{cards.RANKS[highest_rank(turn.hand)]} (play.last_card_warning)")
    return None


def allowed(ruleset: Ruleset, plays: Iterable[Play], turn: Turn) -> list[Play]:
    """The plays of ``plays`` the play rules allow on this turn, in their order."""
    return [p for p in plays if refusal(ruleset, p, turn) is None]


def pass_refusal(ruleset: Ruleset, answers: list[Play]) -> str | None:
    """Why a pass is not allowed when ``answers`` are the allowed plays that beat the last
    one (``play.must_beat``), naming one of them; None if the pass is allowed."""
    if ruleset.must_beat and answers:
        return (f"a player who can beat the last play must (play.must_beat), and this one can, "
                f"with {cards.key_text(answers[0].key)}")
    return None


def lets_out(ruleset: Ruleset, play: Play, turn: Turn) -> bool:
    """Whether ``play`` is a single below the player's highest rank played while the next
    player holds one card: if that player then goes out on it, ``scoring.liability`` may make
    its player pay for everyone."""
    return (turn.next_cards == 1 and cards.size(play.key) == 1
            and cards.ranks_of(play.key)[0] != highest_rank(turn.hand))


def risky(ruleset: Ruleset, plays: Iterable[Play], turn: Turn) -> list[Play]:
    """The plays of ``plays`` that may make their player pay for everyone (``scoring.
    liability``): the singles below his highest rank while the next player holds one card,
    on which that player may go out (:func:`lets_out`)."""
    if not liable_pays(ruleset):
        return []
    return [p for p in plays if lets_out(ruleset, p, turn)]
