"""Computer players, by level, each deciding from ``view(seat)`` alone.

Levels are named as the two-player site names its opponents, with ``random`` as a baseline:

- ``random``: uniform over legal actions.
- ``standard``: rule-based bidding on control cards and play; leads its lowest card in the
  play that sheds the most with it; the smallest sufficient answer; keeps its bombs (never
  spent as plain plays) and its wild cards.
- ``medium``: bids, calls, robs and grabs by expected score under the ruleset's stakes
  (:mod:`ddz_rules.bots.stakes`, from the ruleset's fitted :mod:`~ddz_rules.bots.outlook`);
  plans by splitting its hand into the fewest plays, counts control cards (and wild cards,
  spent late), weighs what a bomb or a spring pays, cooperates with its teammates, watches
  the two-player advantage line; with a called partner, joins the landlord's side only once
  he leads the race. The comparison-grade level, the default of ``ddz compare``.
- ``extreme``: believes deals for the hidden cards that agree with its view and explain the
  other seats' bids and plays (:mod:`ddz_rules.bots.belief`), and plays each candidate out with
  ``medium`` in every one.
"""

from __future__ import annotations

from ddz_rules.bots.base import Bot
from ddz_rules.bots.extreme import ExtremeBot
from ddz_rules.bots.medium import MediumBot
from ddz_rules.bots.random_bot import RandomBot
from ddz_rules.bots.standard import StandardBot
from ddz_rules.errors import UsageError
from ddz_rules.ruleset import Ruleset

#: Player counts the bots play: the two-player duel, three seats, and four seats in teams.
BOT_PLAYERS = (2, 3, 4)

LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "standard": StandardBot,
    "medium": MediumBot,
    "extreme": ExtremeBot,
}


def make_bot(level: str, ruleset: Ruleset) -> Bot:
    """A bot of ``level`` for ``ruleset``; a clear error for an unknown level."""
    if level not in LEVELS:
        raise UsageError(f"unknown bot level '{level}'; expected one of {', '.join(LEVELS)}")
    return LEVELS[level](ruleset)


__all__ = ["BOT_PLAYERS", "LEVELS", "Bot", "ExtremeBot", "MediumBot", "RandomBot", "StandardBot",
           "make_bot"]
