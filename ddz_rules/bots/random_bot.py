"""The baseline: every legal action equally likely."""

from __future__ import annotations

import random

from ddz_rules.bots.base import Bot
from ddz_rules.game import Action, View


class RandomBot(Bot):
    """Uniform over legal actions."""

    level = "random"

    def choose(self, view: View, rng: random.Random) -> Action:
        return rng.choice(view.legal)
