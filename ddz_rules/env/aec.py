"""Every ruleset as a PettingZoo environment: agents are seats, one hand an episode.

:class:`DdzEnv` (``raw_env``) follows PettingZoo's AEC API and its classic-game conventions:
an observation is ``{"observation": float32 array, "action_mask": int8 array}`` (the mask all
zeros for an agent not to act), an action is an id of the ruleset's
:class:`~ddz_rules.env.actions.ActionSpace`, and the rewards come at the end of the hand.
:func:`env` wraps it as PettingZoo's classic environments are wrapped.

Rewards are each seat's score for the hand (``reward="score"``, zero-sum), or that score over
the hand's stake (``reward="stake"``: the base times the multiplier, or the points a card
under ``scoring.settlement: cards_left``; still zero-sum). A deal thrown in (nobody bid) is
dealt again by the next dealer within the same episode, at most ``max_redeals`` times in a
row; past that the episode is truncated with no reward.

Bad input, by PettingZoo's conventions: with ``illegal="raise"`` (the raw environment's
default) an id out of range or masked off, or an action that is not an integer, raises
:class:`~ddz_rules.errors.EnvError` (a ``ValueError``), changing nothing; with
``illegal="end"`` (:func:`env`'s) it ends the game instead, the offender scoring
``illegal_reward`` (-1) and every other seat 0, as PettingZoo's ``TerminateIllegalWrapper``
does for classic games, and ``infos[agent]["illegal"]`` says why. A step for an agent whose
episode is over takes only ``None``; a seed that is not a non-negative integer is refused by
Gymnasium's seeding.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ddz_rules.env.actions import ActionSpace
from ddz_rules.env.observation import Encoder
from ddz_rules.env.render import table_text
from ddz_rules.errors import EnvError
from ddz_rules.game import PASS, Action, Hand, deal
from ddz_rules.match import next_dealer
from ddz_rules.ruleset import Ruleset, load
from ddz_rules.table import compile_table

#: Reward forms: the hand's score, or the score over the hand's stake.
REWARDS = ("score", "stake")
#: What an illegal action does: raise :class:`EnvError`, or end the game with a penalty.
ILLEGAL = ("raise", "end")
#: Seeds of a hand's deal are drawn below this, the range every record's seeds fit in.
SEED_LIMIT = 2**63 - 1


def as_action_id(action: Any) -> int:
    """``action`` as an id, taking what Gymnasium's ``Discrete`` space takes: a Python
    integer, a NumPy integer, or a 0-d NumPy integer array (what ``argmax`` returns); a bool,
    float, string, list or array of another shape is refused with :class:`EnvError`.

    >>> as_action_id(np.array(7)), as_action_id(np.int8(3))
    (7, 3)
    """
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype,
                                                                               np.integer):
        return int(action)
    shape = f" of shape {action.shape}" if isinstance(action, np.ndarray) else ""
    dtype = f" {action.dtype}" if isinstance(action, np.ndarray | np.generic) else ""
    raise EnvError(f"an action is an integer id (an int, a NumPy integer or a 0-d integer "
                   f"array), not {type(action).__name__}{dtype}{shape}")


def a_number(name: str, value: Any) -> float:
    """An option that is a real number (a reward), or :class:`EnvError` naming it."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise EnvError(f"{name} must be a number, not {value!r}")
    if not np.isfinite(value):
        raise EnvError(f"{name} must be a finite number, not {value!r}")
    return float(value)


def _ruleset(ruleset: str | Ruleset) -> Ruleset:
    if isinstance(ruleset, Ruleset):
        return ruleset
    if not isinstance(ruleset, str):
        raise EnvError(f"ruleset must be a bundled id or a ruleset file's path, not "
                       f"{type(ruleset).__name__}")
    return load(ruleset)


def stake_unit(ruleset: Ruleset, by_cards: bool, stake: int) -> int:
    """What ``reward="stake"`` divides a hand's scores by: a card's worth where the hand is
    settled by the cards left (no landlord), else its stake (base times multiplier, before
    any cap); at least 1."""
    return max(1, ruleset.per_card if by_cards else stake)


class Game:
    """The hand an environment plays, its action ids and its observations: what the
    PettingZoo and Gymnasium environments share."""

    def __init__(self, ruleset: str | Ruleset, max_redeals: int = 100,
                 history: int = 0) -> None:
        self.ruleset = _ruleset(ruleset)
        if isinstance(max_redeals, bool) or not isinstance(max_redeals, int) or not (
                0 <= max_redeals <= 10_000):
            raise EnvError(f"max_redeals must be an integer from 0 to 10000, not {max_redeals!r}")
        self.max_redeals = max_redeals
        self.actions = ActionSpace.of(self.ruleset)
        self.encoder = Encoder(self.ruleset, history)
        self.table = compile_table(self.ruleset)
        self.n_actions = len(self.actions)
        self.hand: Hand | None = None
        self.legal: dict[int, Action] = {}
        self.rng = np.random.default_rng(0)
        self.dealer = 0
        self.redeals = 0
        self.truncated = False
        #: The last action played, as (seat, action, its id where known): what
        #: ``info["last_action"]`` tells (a bot's id is looked up only when asked).
        self.last: tuple[int, Action, int | None] | None = None
        self.last_wild: tuple[int, ...] = ()

    def seed(self, seed: int | None) -> None:
        """Start the deals again from ``seed``, seat 0 dealing first: the same seed gives the
        same hands whatever was played before. A seed that is not ``None`` or an integer from
        0 is refused, changing nothing."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer)
                                 or seed < 0):
            raise EnvError(f"Seed must be None or a non-negative integer, not {seed!r}")
        self.rng, _ = seeding.np_random(None if seed is None else int(seed))
        self.dealer = 0

    def deal(self) -> None:
        """Deal a new hand (the dealer passing as ``match.rotation`` says)."""
        self.redeals = 0
        self.truncated = False
        self.last = None
        self._deal()

    def _deal(self) -> None:
        seed = int(self.rng.integers(SEED_LIMIT))
        self.hand = Hand(self.ruleset, deal(self.ruleset, seed, self.dealer), self.table)
        self.advance()

    def advance(self) -> None:
        hand = self.hand
        assert hand is not None
        if hand.result is not None and hand.result.redeal:
            self.dealer = next_dealer(self.ruleset, self.dealer, True)
            if self.redeals >= self.max_redeals:
                self.truncated = True
                self.legal = {}
                return
            self.redeals += 1
            self._deal()
            return
        if hand.result is not None:
            self.dealer = next_dealer(self.ruleset, self.dealer, False)
            self.legal = {}
            return
        self.legal = self.actions.legal(hand.legal_actions(), hand.wild)

    @property
    def over(self) -> bool:
        return self.truncated or (self.hand is not None and self.hand.result is not None)

    def step(self, action_id: Any) -> None:
        """Play the action an id names for the seat to act; refuse it changing nothing."""
        action_id = as_action_id(action_id)
        if self.over or self.hand is None:
            raise EnvError("the hand is over: reset before stepping again")
        action = self.legal.get(action_id)
        if action is None:
            named = self.actions.action(action_id)  # raises when out of range
            shown = named if isinstance(named, str) else self.table.notation(named)
            raise EnvError(f"action {action_id} ({shown}) is not legal for seat "
                           f"{self.hand.to_act} now (masked off)")
        self.play(action, action_id)

    def play(self, action: Action, action_id: int | None = None) -> None:
        """Play a referee action for the seat to act (a bot's), then deal again or list the
        next seat's legal ids."""
        hand = self.hand
        assert hand is not None and hand.to_act is not None
        self.last = (hand.to_act, action, action_id)
        self.last_wild = hand.wild
        hand.apply(action)
        self.advance()

    def text(self, action_id: int) -> str:
        """An id as a learner reads it: ``pass``, ``bid 2``, ``33 (pair/1/3)``."""
        return self.actions.text(action_id)

    def info(self, seat: int, legal_names: bool) -> dict[str, Any]:
        """What ``info`` tells a seat besides the result: the last action as text and id
        (``""`` and -1 before the first: one type each, as Gymnasium's vector environments
        need), and where asked and the seat is to act, its legal ids by name."""
        info: dict[str, Any] = {"last_action": "", "last_action_id": -1}
        if self.last is not None:
            by, action, action_id = self.last
            if action_id is None:
                action_id = self.actions.id_of(action, self.last_wild)
                self.last = (by, action, action_id)
            info["last_action"] = f"seat_{by}: {self.text(action_id)}"
            info["last_action_id"] = action_id
        if legal_names and self.hand is not None and seat == self.hand.to_act and self.legal:
            info["legal"] = {i: self.text(i) for i in self.legal}
        return info

    def observe(self, seat: int) -> dict[str, Any]:
        """The seat's observation and action mask, from its view alone."""
        assert self.hand is not None
        return {"observation": self.encoder.encode(self.hand.view(seat, legal=False)),
                "action_mask": self.mask(seat)}

    def mask(self, seat: int) -> Any:
        """The seat's legal ids as int8 flags: all zeros while another seat is to act; once
        the hand is over, pass's id alone (the terminal mask), so that a masked choice (an
        argmax, a masked softmax) taken on a final observation still has an id to pick."""
        assert self.hand is not None
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if self.over:
            mask[self.pass_id] = 1
        elif self.legal and seat == self.hand.to_act:
            mask[list(self.legal)] = 1
        return mask

    @property
    def pass_id(self) -> int:
        return self.actions.id_of(PASS)

    def scores(self, reward: str) -> list[float]:
        """Each seat's reward for the finished hand (zeros for a truncated episode)."""
        assert self.hand is not None
        result = self.hand.result
        if result is None or result.redeal:
            return [0.0] * self.ruleset.players
        unit = 1
        if reward == "stake":
            unit = stake_unit(self.ruleset, result.first_out is not None,
                              result.base * result.multiplier)
        return [s / unit for s in result.scores]

    def spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        size = self.encoder.layout.size
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8)})
        return observation, spaces.Discrete(self.n_actions)


class DdzEnv(AECEnv):  # type: ignore[misc]
    """One hand of any ruleset, seats as agents ``seat_0``, ``seat_1``, ..."""

    metadata: ClassVar[dict[str, Any]] = {"name": "ddz_rules_v0",
                                          "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, ruleset: str | Ruleset = "classic", reward: str = "score",
                 max_redeals: int = 100, illegal: str = "raise", illegal_reward: float = -1.0,
                 render_mode: str | None = None, history: int = 0,
                 legal_names: bool = False) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise EnvError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal not in ILLEGAL:
            raise EnvError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = a_number("illegal_reward", illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode must be one of ansi, human or None, not {render_mode!r}")
        self.legal_names = bool(legal_names)
        self.game = Game(ruleset, max_redeals, history)
        self.ruleset = self.game.ruleset
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{i}" for i in range(self.ruleset.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        observation, action = self.game.spaces()
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self.agents: list[str] = []
        self._seeded = False
        #: Whether a reset has dealt a hand (a step before one is refused).
        self._dealt = False

    @property
    def action_ids(self) -> ActionSpace:
        """The ruleset's actions as ids: ``action(id)`` and ``id_of(action)``."""
        return self.game.actions

    @property
    def hand(self) -> Hand | None:
        """The hand in play (every seat's cards: for tests and records, not for agents)."""
        return self.game.hand

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def action_to_string(self, action_id: Any) -> str:
        """An id as a learner reads it: ``bid 2``, ``pass``, ``33 (pair/1/3)``."""
        return self.game.text(as_action_id(action_id))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not self._seeded:
            self.game.seed(seed)  # a bad seed is refused here, before anything changes
            self._seeded = True
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.game.deal()
        self._dealt = True
        self.infos: dict[str, dict[str, Any]] = {}
        self._tell()
        self._settle_if_over()
        self.agent_selection = self._selected()

    def _tell(self) -> None:
        """Each agent's info: the last action, and the legal ids by name where asked."""
        for agent in self.agents:
            self.infos[agent] = self.game.info(self.agent_name_mapping[agent],
                                               self.legal_names)

    def _selected(self) -> str:
        hand = self.game.hand
        assert hand is not None
        if hand.to_act is not None and not self.game.over:
            return self.possible_agents[hand.to_act]
        return self.agent_selection if hasattr(self, "agent_selection") else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.game.observe(self.agent_name_mapping[agent])

    def step(self, action: Any) -> None:
        if not self._dealt:
            raise EnvError("reset before the first step")
        if not self.agents:  # every agent is done: as PettingZoo's wrapper does, nothing
            if action is not None:
                raise EnvError("the episode is over: a step now takes only None; reset to "
                               "play again")
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            if action is None:
                raise EnvError(f"{agent} is to act: None is an action only once its episode "
                               "is over")
            self.game.step(action)
        except EnvError as refused:
            if self.illegal == "raise":
                raise
            self._end_illegal(agent, str(refused))
            return
        self._cumulative_rewards[agent] = 0.0
        self._tell()
        self._settle_if_over()
        self.agent_selection = self._selected()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str, why: str) -> None:
        """``illegal="end"``: the game ends, ``agent`` scoring the penalty and the others 0."""
        self.game.truncated = True
        self.game.legal = {}
        for other in self.agents:
            self.rewards[other] = self.illegal_reward if other == agent else 0.0
            self.terminations[other] = True
            self.infos[other] = {**self.infos.get(other, {}), "illegal": f"{agent}: {why}"}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()
        self._deads_step_first()

    def _settle_if_over(self) -> None:
        if not self.game.over:
            return
        scores = self.game.scores(self.reward)
        for agent, score in zip(self.possible_agents, scores, strict=True):
            self.rewards[agent] = score
            if self.game.truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True
        hand = self.game.hand
        assert hand is not None
        for agent in self.agents:
            self.infos[agent].update(result=hand.result, redeals=self.game.redeals)

    def render(self) -> str | None:
        """The table as text from the view of the agent selected (the seat to act), every
        other hand shown as a count (:func:`~ddz_rules.env.render.table_text`), and the
        scores once the hand is over: returned with ``render_mode="ansi"``, printed with
        ``"human"``; with no render mode, Gymnasium's warning and ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode: give "
                                  "render_mode='ansi' or 'human' to the environment")
            return None
        hand = self.game.hand
        if hand is None or not self._dealt:
            return None
        seat = self.agent_name_mapping[self.agent_selection]
        text = table_text(hand.view(seat, legal=False), self.ruleset)
        if hand.result is not None and not hand.result.redeal:
            text += f"\nscores: {list(hand.result.scores)}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


raw_env = DdzEnv


def env(ruleset: str | Ruleset = "classic", **kwargs: Any) -> AECEnv:
    """:class:`DdzEnv` for ``ruleset`` as PettingZoo's classic games are given: an illegal
    action (masked off, out of range, not an id) ends the game with -1 for its agent, and
    PettingZoo's ``OrderEnforcingWrapper`` enforces the API's order (reset before step).

    The raw environment ends the game itself (``illegal="end"``), as
    ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper`` would: every wrapper layer
    costs each attribute read a forwarding call, three layers about a third of a step."""
    kwargs.setdefault("illegal", "end")
    return _OrderEnforcing(DdzEnv(ruleset, **kwargs))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, which counts a reset as done once called: here a reset that was
    refused (a bad seed) leaves the environment as it was, not reset, so that a step or
    ``last()`` after it is refused with the wrapper's own error rather than passing quietly."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        was_reset: bool = getattr(self, "_has_reset", False)
        try:
            super().reset(seed=seed, options=options)
        except EnvError:
            self._has_reset = was_reset
            raise


__all__ = ["REWARDS", "DdzEnv", "Game", "env", "raw_env"]
