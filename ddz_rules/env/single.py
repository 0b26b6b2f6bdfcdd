"""One learner seat against bots: any ruleset as a Gymnasium environment.

The learner plays ``seat``; every other seat is a bot of ``bots`` (``random``, ``standard``,
``medium``, ``extreme``), deciding from its own view as in ``ddz compare``. An episode is one
hand: ``reset`` deals and lets the bots act until the learner's turn, ``step`` plays the
learner's action and the bots' answers, and the reward, the learner's score for the hand (or
that score over the stake, ``reward="stake"``), comes when the hand ends. The observation and
the action ids are those of the PettingZoo environment (:mod:`ddz_rules.env.aec`); the mask
in the observation says which ids are legal, and ``info["action_mask"]`` repeats it.

Bad input: an action outside the action space or masked off ends the episode, the learner
scoring ``illegal_reward`` (-1 by default) and ``info["illegal"]`` saying why, as PettingZoo's
``TerminateIllegalWrapper`` does and as Gymnasium's ``check_env`` (which steps with unmasked
samples) expects; with ``illegal="raise"`` it raises :class:`~ddz_rules.errors.EnvError`
(a ``ValueError``) instead, changing nothing. A step after the episode has ended raises
``EnvError`` until ``reset``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium

from ddz_rules.bots import make_bot
from ddz_rules.env.aec import REWARDS, Game, a_number, as_action_id
from ddz_rules.env.render import table_text
from ddz_rules.errors import EnvError
from ddz_rules.ruleset import Ruleset

#: What a masked-off action does: end the episode with ``illegal_reward``, or raise.
ILLEGAL = ("end", "raise")
#: Hands ``reset`` deals in a row, at most, looking for one in which the learner acts.
MAX_DEALS = 1000


class SingleSeatEnv(gymnasium.Env[dict[str, Any], Any]):
    """A hand of ``ruleset`` in which the learner plays ``seat`` and bots play the rest."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, ruleset: str | Ruleset = "classic", seat: int = 0, bots: str = "random",
                 reward: str = "score", max_redeals: int = 100, illegal: str = "end",
                 illegal_reward: float = -1.0, render_mode: str | None = None,
                 history: int = 0, legal_names: bool = False) -> None:
        if illegal not in ILLEGAL:
            raise EnvError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = a_number("illegal_reward", illegal_reward)
        self.legal_names = bool(legal_names)
        if reward not in REWARDS:
            raise EnvError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode != "ansi":
            raise EnvError(f"render_mode must be ansi or None, not {render_mode!r}")
        self.game = Game(ruleset, max_redeals, history)
        self.ruleset = self.game.ruleset
        players = self.ruleset.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise EnvError(f"seat must be an integer from 0 to {players - 1}, not {seat!r}")
        self.seat = seat
        self.level = bots
        self.bots = {s: make_bot(bots, self.ruleset) for s in range(players) if s != seat}
        self.reward_form = reward
        self.render_mode = render_mode
        observation, action = self.game.spaces()
        self.observation_space: gymnasium.spaces.Space[Any] = observation
        self.action_space: gymnasium.spaces.Space[Any] = action
        self.bot_rng = random.Random(0)
        self._done = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None or not hasattr(self, "_seeded"):
            self.game.seed(seed)  # a bad seed is refused here, before anything changes
        super().reset(seed=seed)
        if seed is not None or not hasattr(self, "_seeded"):
            self.bot_rng = random.Random(int(self.game.rng.integers(2**63 - 1)))
            self._seeded = True
        for _ in range(MAX_DEALS):
            self.game.deal()
            self._bots_act()
            if not self.game.over:
                break
        else:  # pragma: no cover - every bundled ruleset lets each seat act in every hand
            raise EnvError(f"no hand of {MAX_DEALS} dealt let seat {self.seat} act")
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise EnvError("the hand is over: reset before stepping again")
        try:
            self.game.step(action)
        except EnvError as refused:
            if self.illegal == "raise":
                raise
            self._done = True
            info = self._info()
            info["illegal"] = str(refused)
            return self._observation(), self.illegal_reward, True, False, info
        self._bots_act()
        reward = 0.0
        terminated = truncated = False
        if self.game.over:
            self._done = True
            truncated = self.game.truncated
            terminated = not truncated
            reward = self.game.scores(self.reward_form)[self.seat]
        return self._observation(), reward, terminated, truncated, self._info()

    def _bots_act(self) -> None:
        game = self.game
        while not game.over:
            hand = game.hand
            assert hand is not None and hand.to_act is not None
            if hand.to_act == self.seat:
                return
            game.play(self.bots[hand.to_act].choose(hand.view(hand.to_act), self.bot_rng))

    def _observation(self) -> dict[str, Any]:
        return self.game.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        hand = self.game.hand
        assert hand is not None
        return {"action_mask": self.game.mask(self.seat), "result": hand.result,
                "redeals": self.game.redeals, **self.game.info(self.seat, self.legal_names)}

    def render(self) -> str | None:
        """The table as text from the learner's view (:func:`~ddz_rules.env.render.table_text`),
        with the scores once the hand is over; with no render mode, Gymnasium's warning and
        ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode: give "
                                  "render_mode='ansi' to the environment")
            return None
        hand = self.game.hand
        if hand is None:
            return None
        text = table_text(hand.view(self.seat, legal=False), self.ruleset)
        if hand.result is not None and not hand.result.redeal:
            text += f"\nscores: {list(hand.result.scores)}"
        return text

    def action_to_string(self, action_id: Any) -> str:
        """An id as a learner reads it: ``bid 2``, ``pass``, ``33 (pair/1/3)``."""
        return self.game.text(as_action_id(action_id))

    def action_masks(self) -> Any:
        """The legal ids as a boolean array (the convention of maskable-action learners);
        after the end, pass's id alone, as in the observation."""
        return self.game.mask(self.seat).astype(bool)


#: The single env's id for ``gymnasium.make`` (its keywords are :class:`SingleSeatEnv`'s).
SINGLE_ID = "ddz_rules/Single-v0"


def register_single() -> None:
    """Register :class:`SingleSeatEnv` with Gymnasium as :data:`SINGLE_ID` (once)."""
    if SINGLE_ID not in gymnasium.registry:
        gymnasium.register(id=SINGLE_ID, entry_point="ddz_rules.env.single:SingleSeatEnv")


def single(ruleset: str | Ruleset = "classic", **kwargs: Any) -> SingleSeatEnv:
    """A Gymnasium environment of ``ruleset`` for one learner seat against bots."""
    return SingleSeatEnv(ruleset, **kwargs)


__all__ = ["SINGLE_ID", "SingleSeatEnv", "register_single", "single"]
