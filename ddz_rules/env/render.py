"""The table as text, from one seat's view: what an environment's ``render()`` draws.

Only the view is read, so a drawing, like an observation, holds no card its seat may not see:
every seat's count of cards, the observing seat's own hand, the auction as said so far, the
current trick and the play to beat.

>>> from ddz_rules.game import Hand
>>> from ddz_rules.ruleset import load
>>> hand = Hand.new(load("classic"), seed=7)
>>> print(table_text(hand.view(0), load("classic")).splitlines()[0])
classic: auction, seat_2 to act, multiplier x1
"""

from __future__ import annotations

from ddz_rules import cards
from ddz_rules.game import View
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play
from ddz_rules.words import word_words


def play_text(play: Play | None) -> str:
    """A play with its reading, ``33 (pair/1/3)``; ``pass`` for a pass."""
    if play is None:
        return "pass"
    return f"{play.cards} ({play.reading.short()})"


def table_text(view: View, ruleset: Ruleset) -> str:
    """Several lines: the hand's state, then a line a seat, then the observer's cards."""
    head = f"{ruleset.id}: {view.phase.value}"
    if view.to_act is not None:
        head += f", seat_{view.to_act} to act"
    head += f", multiplier x{view.multiplier}"
    if view.wild:
        head += f", wild {' '.join(cards.RANKS[r] for r in view.wild)}"
    lines = [head]
    said = dict(view.auction)
    last = _last_in_trick(view)
    for seat, size in enumerate(view.hand_sizes):
        role = ""
        if view.landlord is not None:
            role = " landlord" if seat == view.landlord else (
                " partner" if seat == view.joined else " peasant")
        parts = [f"{'>' if seat == view.to_act else ' '} seat_{seat}{role}: {size} cards"]
        if seat in said:
            parts.append(f"said {word_words(said[seat])}")
        if seat in last:
            parts.append(f"last {play_text(last[seat])}")
        lines.append(", ".join(parts))
    if view.to_beat is not None:
        lines.append(f"to beat: {play_text(view.to_beat)} by seat_{view.to_beat_seat}")
    if view.kitty is not None:
        lines.append(f"kitty: {cards.key_text(view.kitty) or '-'}")
    lines.append(f"seat_{view.seat}'s hand: {cards.key_text(view.hand) or '-'}")
    return "\n".join(lines)


def _last_in_trick(view: View) -> dict[int, Play | None]:
    """Each seat's action since the play to beat was made, that play included (nothing
    while a seat leads)."""
    if view.to_beat is None:
        return {}
    last: dict[int, Play | None] = {}
    for seat, play in reversed(view.plays):
        last.setdefault(seat, play)
        if play is not None and seat == view.to_beat_seat:
            break
    return last


__all__ = ["play_text", "table_text"]
