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

The tables are stepped in compiled code (``ddz_rules/_tables.h``: the hand runner's loop
moved one action at a time, and the Encoder's layout written in C) wherever the hand runner
plays the ruleset in C (:attr:`VectorTables.why_python` says why not, else None); a turn
with wild cards in play is listed by Python and its plays named by the action space, as the
runner and the environments do. Elsewhere, and with ``native=False``, each table is
stepped through the referee in Python, one after another: that path is the compiled one's
twin, and
``tests/test_env_vector.py`` proves the two equal, step for step, on every ruleset the
compiled path plays.

>>> tables = VectorTables("classic", 4, seed=0)
>>> obs, (offsets, ids) = tables.reset()
>>> obs.shape, offsets.shape, bool((ids[offsets[:-1]] >= 0).all())
((4, 725), (5,), True)
>>> obs, (offsets, ids), rewards, done, info = tables.step(ids[offsets[:-1]])
>>> rewards.shape, done.shape, info["to_act"].shape
((4, 3), (4,), (4,))
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium.utils import seeding

from ddz_rules.auction import new_auction
from ddz_rules.env.actions import ActionSpace
from ddz_rules.env.aec import REWARDS, Game, as_action_id, stake_unit
from ddz_rules.env.observation import base_before_bids, base_said
from ddz_rules.errors import EnvError
from ddz_rules.match import next_dealer
from ddz_rules.ruleset import Ruleset
from ddz_rules.runner import AuctionGraph, HandRunner
from ddz_rules.table import Play

if TYPE_CHECKING:
    from ddz_rules import _moves

#: The most tables one :class:`VectorTables` holds (its arrays grow with ``n``: about 3 KB a
#: table for classic's observation, 24 KB for its dense mask when asked, and 2 KB of state).
MAX_TABLES = 16_384

INT64_MAX = np.iinfo(np.int64).max

#: The legal ids of every table as CSR arrays: ``ids[offsets[i]:offsets[i + 1]]`` are table
#: ``i``'s, ascending.
Legal = tuple[np.ndarray, np.ndarray]

#: The features whose starts the compiled stepper is given, in its order (``_tables.h``).
NATIVE_FEATURES = ("trick_pass.0", "to_beat.type", "to_beat.length", "to_beat.seat", "leads",
                   "auction.0", "auction.words", "base", "multiplier", "cards_left", "role",
                   "phase", "to_act", "first_bidder", "dealer", "called", "advantage",
                   "undealt", "marked_card", "turned_card", "history.0.0", "history_pass.0",
                   "wild")


class VectorTables:
    """``n`` tables of ``ruleset``, self-play, stepped together (see the module's text).

    ``native=False`` steps them in Python even where the compiled stepper serves.
    """

    def __init__(self, ruleset: str | Ruleset, n: int, seed: int = 0, reward: str = "score",
                 history: int = 0, max_redeals: int = 100, native: bool = True) -> None:
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not (
                1 <= n <= MAX_TABLES):
            raise EnvError(f"n must be an integer from 1 to {MAX_TABLES}, not {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise EnvError(f"seed must be a non-negative integer, not {seed!r}")
        if reward not in REWARDS:
            raise EnvError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        first = Game(ruleset, max_redeals, history)
        self.ruleset = first.ruleset
        self.n, self.seed, self.reward = int(n), int(seed), reward
        self.players = self.ruleset.players
        self.size = first.encoder.layout.size
        self.n_actions = first.n_actions
        #: The compiled stepper, or None where the tables are stepped in Python ...
        self.native: _moves.Tables | None = None
        #: ... and then why (one line), else None.
        self.why_python: str | None = "native=False was asked for"
        if native:
            self.native, self.why_python = _compiled(first, self.n, max_redeals)
        self.games: list[Game] = []
        if self.native is None:
            self.games = [first, *(Game(first.ruleset, max_redeals, history)
                                   for _ in range(self.n - 1))]
        #: The seat to act at each table (int64, ``(n,)``).
        self.to_act = np.zeros(self.n, dtype=np.int64)
        #: Where the Python path writes its observations (the compiled one writes new arrays).
        self._obs = np.zeros((self.n if self.games else 0, self.size), dtype=np.float32)
        self._legal: Legal = (np.zeros(self.n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64))
        self._reset = False

    def reset(self) -> tuple[np.ndarray, Legal]:
        """Deal every table its first hand: table ``i`` from seed ``seed + i``."""
        if self.native is not None:
            states = b"".join(_pcg_state(self.seed + i) for i in range(self.n))
            obs, offsets = self._arrays()
            to_act = np.empty(self.n, dtype=np.int64)
            ids = self._native(self.native.reset, states, obs, offsets, to_act)
            self._reset = True
            return self._published(obs, offsets, ids, to_act)
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
        ``scores`` (the hands' raw scores, as the rewards' rows) and ``thrown_in`` (where
        the action threw the deal in, nobody having bid, so that the table was dealt again
        within the same hand's episode, or cut off: the thrown-in deal's decisions scored
        0). An action that is not
        legal at its table, or actions of the wrong shape or type, raise
        :class:`~ddz_rules.errors.EnvError` before any table moves: nothing changes. A
        stake that outgrows 64 bits in the compiled stepper (no bundled ruleset comes near)
        raises :class:`~ddz_rules.errors.EnvError` too, and the tables must be reset.
        """
        if not self._reset:
            raise EnvError("reset before the first step")
        chosen = self._checked(actions)
        done = np.zeros(self.n, dtype=bool)
        truncated = np.zeros(self.n, dtype=bool)
        thrown = np.zeros(self.n, dtype=bool)
        if self.native is not None:
            obs, offsets = self._arrays()
            to_act = np.empty(self.n, dtype=np.int64)
            points = np.zeros((self.n, self.players), dtype=np.int64)
            stakes = np.zeros(self.n, dtype=np.int64)
            ids = self._native(self.native.step, chosen, obs, offsets, to_act, points, stakes,
                               done, truncated, thrown)
            if isinstance(ids, int):
                self._refuse(ids, int(chosen[ids]))
            obs, legal = self._published(obs, offsets, ids, to_act)
            scores, rewards = self._rewards(points, stakes, done & ~truncated)
        else:
            rewards = np.zeros((self.n, self.players), dtype=np.float32)
            scores = np.zeros((self.n, self.players), dtype=np.float32)
            for i, game in enumerate(self.games):
                if chosen[i] not in game.legal:
                    self._refuse(i, int(chosen[i]))
            for i, game in enumerate(self.games):
                action_id, redeals = int(chosen[i]), game.redeals
                game.play(game.legal[action_id], action_id)
                thrown[i] = game.redeals != redeals or game.truncated
                if game.over:
                    done[i], truncated[i] = True, game.truncated
                    rewards[i] = game.scores(self.reward)
                    scores[i] = game.scores("score")
                    game.deal()
                self._ready(i)
            obs, legal = self._observe()
        return obs, legal, rewards, done, {"to_act": self.to_act.copy(), "truncated": truncated,
                                           "scores": scores, "thrown_in": thrown}

    def _rewards(self, points: np.ndarray, stakes: np.ndarray, ended: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """The compiled stepper's scores, and the rewards made of them as ``Game.scores``
        makes them (each score over :func:`~ddz_rules.env.aec.stake_unit` for ``stake``)."""
        scores = points.astype(np.float32)
        if self.reward != "stake":
            return scores, scores.copy()
        rewards = np.zeros_like(scores)
        by_cards = not self.ruleset.has_landlord
        for i in np.flatnonzero(ended):
            unit = stake_unit(self.ruleset, by_cards, int(stakes[i]))
            rewards[i] = [int(s) / unit for s in points[i]]
        return scores, rewards

    def mask(self) -> np.ndarray:
        """The legal ids as a dense int8 ``(n, n_actions)`` mask."""
        offsets, ids = self._legal
        mask = np.zeros((self.n, self.n_actions), dtype=np.int8)
        mask[np.repeat(np.arange(self.n), np.diff(offsets)), ids] = 1
        return mask

    def _checked(self, actions: Any) -> np.ndarray:
        """The actions as an int64 array of ids, or :class:`EnvError`."""
        if isinstance(actions, list | tuple):
            actions = np.asarray(actions)
        if not isinstance(actions, np.ndarray) or actions.shape != (self.n,) or (
                actions.dtype.kind not in "iu"):
            shape = getattr(actions, "shape", None)
            dtype = getattr(actions, "dtype", type(actions).__name__)
            raise EnvError(f"actions must be an integer array of shape ({self.n},), not "
                           f"{dtype} of shape {shape}")
        if actions.dtype == np.uint64 and (actions > INT64_MAX).any():
            i = int(np.argmax(actions > INT64_MAX))
            self._refuse(i, int(actions[i]))
        return np.ascontiguousarray(actions, dtype=np.int64)

    def _refuse(self, i: int, action_id: int) -> None:
        raise EnvError(f"table {i}: action {as_action_id(action_id)} is not legal for seat "
                       f"{int(self.to_act[i])} now (masked off); no table moved")

    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.empty((self.n, self.size), dtype=np.float32),
                np.empty(self.n + 1, dtype=np.int64))

    @staticmethod
    def _native(call: Any, *args: Any) -> Any:
        """A compiled stepper's call, its errors as :class:`EnvError`."""
        try:
            return call(*args)
        except (OverflowError, ValueError) as exc:
            raise EnvError(str(exc)) from None

    def _published(self, obs: np.ndarray, offsets: np.ndarray, ids: bytearray,
                   to_act: np.ndarray) -> tuple[np.ndarray, Legal]:
        """Keep and return what the compiled stepper wrote."""
        self.to_act = to_act
        self._legal = (offsets, np.frombuffer(ids, dtype=np.int64))
        return obs, self._legal

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


def _pcg_state(seed: int) -> bytes:
    """The PCG64 state an environment seeded ``seed`` deals from (``Game.seed``), as the
    compiled stepper takes it: the state, then the increment, 16 little-endian bytes each."""
    rng, _ = seeding.np_random(seed)
    state: dict[str, int] = rng.bit_generator.state["state"]
    return state["state"].to_bytes(16, "little") + state["inc"].to_bytes(16, "little")


def _compiled(game: Game, n: int, max_redeals: int) -> tuple[_moves.Tables | None, str | None]:
    """The compiled stepper of ``n`` tables of ``game``'s ruleset and None, or None and why
    the tables are stepped in Python. Every value comes from the function that gives it
    meaning: the auction's graph and the runner's arrays (:mod:`ddz_rules.runner`), the
    action ids (:class:`~ddz_rules.env.actions.ActionSpace`), the layout
    (:class:`~ddz_rules.env.observation.Layout`)."""
    ruleset = game.ruleset
    runner = HandRunner(ruleset)
    if runner.native is None:
        return None, runner.why_python
    from ddz_rules import _moves

    space, layout = ActionSpace.of(ruleset), game.encoder.layout
    graph = AuctionGraph(ruleset)
    for seat in range(ruleset.players):
        graph.explore(new_auction(ruleset, seat))
    words = {word: i for i, word in enumerate(space.words)}
    plays = runner.table.by_id
    at = layout.offsets
    types = {name: i for i, name in enumerate(layout.types)}

    def wild_ids(plays: list[Play], wild: tuple[int, ...]) -> dict[int, tuple[Play, int, int]]:
        """A turn with wild cards (the runner lists it in Python): each legal play's id, as
        the action space names it, with its type's index and chain length."""
        return {i: (p, types[p.reading.type], p.reading.length)
                for i, p in space.legal(plays, wild).items() if not isinstance(p, str)}

    return _moves.Tables(
        runner=runner.native, n=n, max_redeals=max_redeals, n_actions=len(space),
        n_words=len(space.words),
        first_call=len(space.words), first_play=space.first_play, pass_id=space.id_of("pass"),
        edge_action=array("i", (words[w] for w in graph.edge_word)).tobytes(),
        node_seat=graph.seat.tobytes(),
        word_base=array("q", (-1 if (said := base_said(ruleset, w)) is None else said
                              for w in space.words)).tobytes(),
        next_dealer=array("i", (next_dealer(ruleset, dealer, thrown)
                                for dealer in range(ruleset.players)
                                for thrown in (False, True))).tobytes(),
        play_action=array("i", (space.id_of(p) for p in plays)).tobytes(),
        play_type=array("i", (layout.types.index(p.reading.type) for p in plays)).tobytes(),
        play_length=array("i", (p.reading.length for p in plays)).tobytes(),
        size=layout.size, at=array("i", (at.get(name, 0) for name in NATIVE_FEATURES)).tobytes(),
        copies=layout.copies, history=layout.history, max_hand=ruleset.max_hand,
        undealt=ruleset.deck_size - ruleset.players * ruleset.hand_size - ruleset.kitty,
        deck_size=ruleset.deck_size, deck_key=ruleset.deck_key.to_bytes(16, "little"),
        kitty_shown=ruleset.kitty_shown, marked=ruleset.first_bidder == "marked_card",
        turned=ruleset.first_bidder == "turned_card",
        base_none=base_before_bids(ruleset),
        wild_ids=wild_ids if ruleset.wild_drawn else None), None


__all__ = ["MAX_TABLES", "Legal", "VectorTables"]
