"""Positions to test a bot's choice from: a seat's view built from a few facts in a fixture."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml

from ddz_rules import cards
from ddz_rules.game import PASS, Hand, Phase, View
from ddz_rules.ruleset import Ruleset, load
from ddz_rules.scoring import SidePlays
from ddz_rules.table import compile_table

POSITIONS = Path(__file__).parent / "fixtures" / "positions"


def advanced(ruleset_id: str, seed: int, steps: int, dealer: int = 0) -> Hand:
    """A hand dealt by ``dealer`` from ``seed``, ``steps`` random legal actions in (or
    finished sooner): a varied position to test from."""
    hand = Hand.new(load(ruleset_id), seed, dealer=dealer)
    rng = random.Random(seed)
    for _ in range(steps):
        if hand.result is not None:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def load_positions(name: str) -> list[dict[str, Any]]:
    """The positions of ``fixtures/positions/NAME.yaml``."""
    found: list[dict[str, Any]] = yaml.safe_load((POSITIONS / f"{name}.yaml").read_text())
    return found


def play_view(ruleset: Ruleset, hand: str, sizes: list[int], to_beat: str | None = None,
              by: int | None = None, landlord: int = 0, seat: int = 0) -> View:
    """Seat ``seat``'s view in the play, holding ``hand``, every seat holding ``sizes[s]``
    cards, with ``to_beat`` (played by seat ``by``) to answer, or a lead."""
    table = compile_table(ruleset)
    key = cards.pack_ranks(cards.parse(hand))
    previous = table.play(to_beat) if to_beat else None
    legal = (list(table.leads(key)) if previous is None
             else [*table.answers(key, previous.reading), PASS])
    plays = ((by, previous),) if previous is not None and by is not None else ()
    sides = SidePlays().counted(by == landlord) if plays else SidePlays()
    return View(seat=seat, phase=Phase.PLAY, to_act=seat, hand=key, hand_sizes=tuple(sizes),
                dealer=0, first_bidder=0, auction=(), landlord=landlord, kitty=None,
                plays=plays, to_beat=previous, to_beat_seat=by, multiplier=1, advantage=None,
                undealt=0, marked_card=None, turned_card=None, legal=tuple(legal),
                side_plays=sides)
