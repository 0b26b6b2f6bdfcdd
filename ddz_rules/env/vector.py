"""Many tables of self-play stepped at once: the shape learners are fed in.

:class:`VectorTables` holds ``n`` hands of one ruleset, each played by whoever supplies the
actions (one policy for every seat: self-play). One call to :meth:`VectorTables.step` plays
one action at every table and returns, as arrays, what each table's next seat to act
observes and may do. A table whose hand ends is dealt its next hand at once, so every row is
always a seat with a decision to make.

Table ``i`` of ``VectorTables(ruleset, n, seed=s)`` is the PettingZoo environment
``env(ruleset)`` reset with ``seed=s + i``: the same deals, hand after hand (its next hand
is the one ``reset()`` without a seed would deal), and, given the same actions, the same
observations (:class:`~ddz_rules.env.observation.Encoder`, with the same ``history``), legal
ids and rewards. ``tests/test_env_vector.py`` proves it on every bundled ruleset.

This module steps each table through the referee in Python, one after another: the layout
and the semantics are final; a compiled stepper for the whole batch is future work, which
this class will remain the twin of.

>>> tables = VectorTables("classic", 4, seed=0)
>>> obs, (offsets, ids) = tables.reset()
>>> obs.shape, offsets.shape, bool((ids[offsets[:-1]] >= 0).all())
((4, 725), (5,), True)
>>> obs, (offsets, ids), rewards, done, info = tables.step(ids[offsets[:-1]])
>>> rewards.shape, done.shape, info["to_act"].shape
((4, 3), (4,), (4,))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ddz_rules.env.aec import REWARDS, Game, as_action_id
from ddz_rules.errors import EnvError
from ddz_rules.ruleset import Ruleset

#: The most tables one :class:`VectorTables` holds (its arrays grow with ``n``: about 3 KB a
#: table for classic's observation, 24 KB for its dense mask when asked).
MAX_TABLES = 16_384

#: The legal ids of every table as CSR arrays: ``ids[offsets[i]:offsets[i + 1]]`` are table
#: ``i``'s, ascending.
Legal = tuple[np.ndarray, np.ndarray]


class VectorTables:
    """``n`` tables of ``ruleset``, self-play, stepped together (see the module's text)."""

    def __init__(self, ruleset: str | Ruleset, n: int, seed: int = 0, reward: str = "score",
                 history: int = 0, max_redeals: int = 100) -> None:
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not (
                1 <= n <= MAX_TABLES):
            raise EnvError(f"n must be an integer from 1 to {MAX_TABLES}, not {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise EnvError(f"seed must be a non-negative integer, not {seed!r}")
        if reward not in REWARDS:
            raise EnvError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        first = Game(ruleset, max_redeals, history)
        self.games = [first, *(Game(first.ruleset, max_redeals, history) for _ in range(n - 1))]
        self.ruleset = first.ruleset
        self.n, self.seed, self.reward = int(n), int(seed), reward
        self.players = self.ruleset.players
        self.size = first.encoder.layout.size
        self.n_actions = first.n_actions
        #: The seat to act at each table (int64, ``(n,)``).
        self.to_act = np.zeros(self.n, dtype=np.int64)
        self._obs = np.zeros((self.n, self.size), dtype=np.float32)
        self._legal: Legal = (np.zeros(self.n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64))
        self._reset = False

    def reset(self) -> tuple[np.ndarray, Legal]:
        """Deal every table its first hand: table ``i`` from seed ``seed + i``."""
        for i, game in enumerate(self.games):
            game.seed(self.seed + i)
            game.deal()
            self._ready(i)
        self._reset = True
        return self._observe()

    def step(self, actions: Any) -> tuple[np.ndarray, Legal, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Play ``actions[i]`` at table ``i``, every table at once.

        Returns ``(obs, legal, rewards, done, info)``: the next observations and legal ids
        (of the next hand where one ended), each seat's reward (non-zero only in a row whose
        hand ended, with ``done`` set), and ``info`` with ``to_act`` (the seat to act now),
        ``truncated`` (hands cut off past ``max_redeals`` thrown-in deals, with no reward)
        and ``scores`` (the hands' raw scores, as the rewards' rows). An action that is not
        legal at its table, or actions of the wrong shape or type, raise
        :class:`~ddz_rules.errors.EnvError` before any table moves: nothing changes.
        """
        if not self._reset:
            raise EnvError("reset before the first step")
        chosen = self._checked(actions)
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        scores = np.zeros((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=bool)
        truncated = np.zeros(self.n, dtype=bool)
        for i, game in enumerate(self.games):
            game.play(game.legal[chosen[i]], chosen[i])
            if game.over:
                done[i], truncated[i] = True, game.truncated
                rewards[i] = game.scores(self.reward)
                scores[i] = game.scores("score")
                game.deal()
            self._ready(i)
        obs, legal = self._observe()
        return obs, legal, rewards, done, {"to_act": self.to_act.copy(), "truncated": truncated,
                                           "scores": scores}

    def mask(self) -> np.ndarray:
        """The legal ids as a dense int8 ``(n, n_actions)`` mask."""
        offsets, ids = self._legal
        mask = np.zeros((self.n, self.n_actions), dtype=np.int8)
        mask[np.repeat(np.arange(self.n), np.diff(offsets)), ids] = 1
        return mask

    def _checked(self, actions: Any) -> list[int]:
        """The actions as ids, every one legal at its table, or :class:`EnvError`."""
        if isinstance(actions, list | tuple):
            actions = np.asarray(actions)
        if not isinstance(actions, np.ndarray) or actions.shape != (self.n,) or not (
                np.issubdtype(actions.dtype, np.integer)):
            shape = getattr(actions, "shape", None)
            dtype = getattr(actions, "dtype", type(actions).__name__)
            raise EnvError(f"actions must be an integer array of shape ({self.n},), not "
                           f"{dtype} of shape {shape}")
        chosen = [as_action_id(a) for a in actions.tolist()]
        for i, action_id in enumerate(chosen):
            if action_id not in self.games[i].legal:
                raise EnvError(f"table {i}: action {action_id} is not legal for seat "
                               f"{int(self.to_act[i])} now (masked off); no table moved")
        return chosen

    def _ready(self, i: int) -> None:
        """Deal again while a table's hand is over at its start (a hand every seat passed
        through ``max_redeals`` times is truncated and dealt afresh), then note who acts."""
        game = self.games[i]
        while game.over:
            game.deal()
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        self.to_act[i] = hand.to_act

    def _observe(self) -> tuple[np.ndarray, Legal]:
        counts = np.zeros(self.n + 1, dtype=np.int64)
        ids: list[int] = []
        for i, game in enumerate(self.games):
            hand = game.hand
            assert hand is not None
            game.encoder.encode(hand.view(int(self.to_act[i]), legal=False), self._obs[i])
            legal = sorted(game.legal)
            ids += legal
            counts[i + 1] = len(legal)
        self._legal = (np.cumsum(counts), np.asarray(ids, dtype=np.int64))
        return self._obs.copy(), self._legal


__all__ = ["MAX_TABLES", "Legal", "VectorTables"]
