#!/usr/bin/env python3
"""Time the learning environments, ``ddz_rules.env``, step by step, against their peers' envs.

Usage::

    python benchmarks/bench_env.py [--hands N] [--seed S] [--breakdown RULESET] [--json FILE]

A step is one action taken by the seat to act, with that seat's observation and action mask
built before it; a game is one whole hand (an episode): deal, auction, play and settlement.
Every action is drawn uniformly from the legal ones with a ``random.Random`` seeded per hand.
Hand ``i`` is seeded ``hand_seed(S, i)`` (as ``ddz simulate`` seeds it), so every repeat of a
batch plays the same hands, and all of our lines for one ruleset play the same hands.

* **ddz-rules, PettingZoo loop** (``classic``, ``two-player``, ``four-player``, ``laizi``, and
  the ``rlcard`` preset, which has no auction like RLCard and DouZero): the loop as a user
  writes it, ``e = env(ruleset); e.reset(seed=s)``, then for each agent of
  ``e.agent_iter()``: ``e.last()``, a random choice among
  ``np.flatnonzero(mask.view(bool))`` (the int8 mask read as booleans, a tenth of the time
  ``np.flatnonzero`` takes on the int8 array itself; ``None``
  once the agent's episode is over), ``e.step(action)``. Steps count the actions taken, not
  the ``None`` steps that end an episode.
* **ddz-rules, Game loop**: the same hands on the ``Game`` that ``raw_env`` plays, with no
  PettingZoo around it: ``game.observe(seat to act)``, a choice from its mask,
  ``game.step(id)``. For the ruleset broken down (``--breakdown``, ``classic`` by default) also
  ``raw_env`` (the AEC loop without the wrappers), so that the PettingZoo API's cost and the
  wrappers' can be told apart.
* **RLCard** 1.2.0 ``rlcard.make('doudizhu')``: ``env.reset()``, then ``env.step(id)`` (which
  returns the next state, its ``obs`` array and ``legal_actions``) with a random legal id until
  ``env.is_over()``. No auction: seat 0 is always the landlord.
* **DouZero** 1.1.0 ``douzero.env.env.Env`` (``GameEnv`` with ``get_obs`` building every
  observation), when it imports without torch, else ``GameEnv`` with ``get_obs`` called by
  the agents; the script says which. No auction: the deal names the landlord.
* **OpenSpiel** 2.0.2 ``dou_dizhu`` from Python: at each decision
  ``state.observation_tensor(player)`` and ``state.legal_actions()``, a random choice,
  ``apply_action``; chance nodes sampled from ``chance_outcomes()`` with the same generator.
  Its own auction. And OpenSpiel alone in C++ (``pyspiel.evaluate_bots``, random bots, no
  observation), for reference.

Each line plays a few warm-up hands (seeds outside the batch), then the batch three times
with garbage collection off (our lines of one ruleset take turns); the best pass gives steps/s,
games/s and µs/step in wall time, and the best in CPU time (``time.process_time``) is shown
beside it, since other work on the machine changes it less. Then, on the same hands of the
ruleset broken down, each part of a step (the engine, the view, the encoding, the mask, the
action ids, the agent's choice) is timed alone on the recorded states, in CPU time, and the
rest is the difference between the loops. Peers that are not installed are skipped with a
note.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import inspect
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from bench_hands import _check_openspiel_chance, douzero_deal
from bench_plays import PEERS, machine, machine_line, peer_status, publish

from ddz_rules.game import Action, Hand, deal
from ddz_rules.simulate import hand_seed

DEFAULT_HANDS = 40
DEFAULT_SEED = 20240601
REPEATS = 3
#: The loops of the ruleset broken down are compared by difference: more rounds steady them.
BREAKDOWN_REPEATS = 7
#: Hands played before timing a line (imports, the play table's caches, the encoder's).
WARMUP_HANDS = 3
#: Tables a VectorTables line steps at once (the issue's batch of 256), and the hands its
#: batch plays a seed of the batch (1,000 hands for the default 40 seeds: about four a table).
VECTOR_TABLES = 256
VECTOR_HANDS = 25
#: VectorTables' targets: classic steps a second, and its ratios to OpenSpiel's Python loop
#: and to RLCard's environment.
VECTOR_TARGET, VECTOR_OPENSPIEL, VECTOR_RLCARD = 1_000_000, 10, 100
OUR_RULESETS = ("classic", "two-player", "four-player", "laizi", "run-fast")
#: Our line that is like RLCard's and DouZero's envs: their play rules, and no auction.
LIKE_PRESET = "rlcard"
#: The issue's targets: at least this many times RLCard env's steps/s, and OpenSpiel's Python
#: loop with its observation tensor at least matched.
RLCARD_TARGET = 30.0
OPENSPIEL_TARGET = 1.0
#: ``random.Random`` seed offset for action choices, as ``play_random`` uses.
CHOICE_SALT = 0x5EED


@dataclass
class Tally:
    """What one batch played: actions taken, games (hands), and deals thrown in."""

    steps: int
    games: int
    redeals: int | None = None


@dataclass(frozen=True)
class Line:
    """One timed line: a batch runner, and the line of ours it is compared with."""

    key: str
    engine: str
    loop: str
    rules: str
    run: Callable[[Sequence[int]], Tally]
    like: str | None = None  # the key of our line most like this peer's
    note: str = ""


@dataclass
class Row:
    """The measured numbers of one line."""

    key: str
    engine: str
    loop: str
    rules: str
    games: int
    steps: int
    best_s: float
    first_s: float
    cpu_s: float  # the best batch in CPU time (time.process_time)
    redeals: int | None = None
    like: str | None = None
    vs_classic: float | None = None
    vs_like: float | None = None
    vs_classic_cpu: float | None = None  # the same ratios in CPU time
    vs_like_cpu: float | None = None
    steps_estimated: bool = False
    note: str = ""
    repeats: int = REPEATS

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.best_s

    @property
    def games_per_s(self) -> float:
        return self.games / self.best_s

    @property
    def us_per_step(self) -> float:
        return self.best_s / self.steps * 1e6

    @property
    def cpu_us_per_step(self) -> float:
        return self.cpu_s / self.steps * 1e6

    @property
    def steps_per_game(self) -> float:
        return self.steps / self.games


@dataclass
class Part:
    """One part of a step of the ruleset broken down, in CPU µs per step."""

    name: str
    us: float | None
    how: str
    level: int = 0  # 0: a part; 1: a sub-part (already inside the part above); 2: a total


@dataclass
class Report:
    """Everything the run measured, as written by ``--json``."""

    meta: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    parts_meta: dict[str, Any] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, key: str) -> Row | None:
        return next((r for r in self.rows if r.key == key), None)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for row, data in zip(self.rows, out["rows"], strict=True):
            data["steps_per_s"] = row.steps_per_s
            data["games_per_s"] = row.games_per_s
            data["us_per_step"] = row.us_per_step
            data["cpu_us_per_step"] = row.cpu_us_per_step
            data["steps_per_game"] = row.steps_per_game
            data["first_steps_per_s"] = row.steps / row.first_s
        return out


# ---------------------------------------------------------------------------- ours


def _ours_pettingzoo(ruleset_id: str, wrapped: bool = True) -> Line:
    """The PettingZoo loop as a user writes it, on ``env()`` or on the unwrapped ``raw_env()``."""
    from ddz_rules.env import env, raw_env

    built = env(ruleset_id) if wrapped else raw_env(ruleset_id)
    game = built.unwrapped.game

    def run(seeds: Sequence[int]) -> Tally:
        game.dealer = 0  # every pass deals the same hands (the dealer passes between hands)
        rng = random.Random()
        steps = redeals = 0
        for s in seeds:
            built.reset(seed=s)
            rng.seed(s ^ CHOICE_SALT)
            for _agent in built.agent_iter():
                obs, _reward, terminated, truncated, _info = built.last()
                if terminated or truncated:
                    action = None
                else:
                    action = rng.choice(np.flatnonzero(obs["action_mask"].view(bool)))
                    steps += 1
                built.step(action)
            redeals += game.redeals
        return Tally(steps, len(seeds), redeals)

    if wrapped:
        return Line(f"pz:{ruleset_id}", "ddz-rules", "PettingZoo env(), wrapped", ruleset_id, run)
    return Line(f"aec:{ruleset_id}", "ddz-rules", "PettingZoo raw_env(), no wrappers",
                ruleset_id, run)


def _ours_game(ruleset_id: str) -> Line:
    """The same hands on ``raw_env(...).game``: observe the seat to act, choose, step."""
    from ddz_rules.env import raw_env

    game = raw_env(ruleset_id).game

    def run(seeds: Sequence[int]) -> Tally:
        game.dealer = 0
        rng = random.Random()
        steps = redeals = 0
        for s in seeds:
            game.seed(s)
            game.deal()
            rng.seed(s ^ CHOICE_SALT)
            while not game.over:
                obs = game.observe(game.hand.to_act)
                game.step(rng.choice(np.flatnonzero(obs["action_mask"].view(bool))))
                steps += 1
            redeals += game.redeals
        return Tally(steps, len(seeds), redeals)

    return Line(f"game:{ruleset_id}", "ddz-rules", "Game loop (observe, mask, step)",
                ruleset_id, run)


def _ours_vector(ruleset_id: str, n: int = VECTOR_TABLES) -> Line:
    """``VectorTables``: ``n`` tables of self-play stepped at once, a random legal id at each
    table drawn from the CSR arrays, observations built at every step, until
    :data:`VECTOR_HANDS` hands a seed of the batch have ended. The tables are made and dealt
    on the first (warm-up) batch, and play on from where they stand in the next ones."""
    from ddz_rules.env import VectorTables

    tables = VectorTables(ruleset_id, n, seed=0)
    path = "compiled" if tables.native is not None else "Python"
    state: dict[str, Any] = {}

    def run(seeds: Sequence[int]) -> Tally:
        if not state:
            state["rng"] = np.random.default_rng(seeds[0] % 2**32)
            state["legal"] = tables.reset()[1]
        rng = state["rng"]
        offsets, ids = state["legal"]
        steps = games = 0
        while games < VECTOR_HANDS * len(seeds):
            pick = offsets[:-1] + (rng.random(n) * np.diff(offsets)).astype(np.int64)
            _, (offsets, ids), _, done, _ = tables.step(ids[pick])
            steps += n
            games += int(done.sum())
        state["legal"] = (offsets, ids)
        return Tally(steps, games)

    return Line(f"vec:{ruleset_id}", "ddz-rules", f"VectorTables, n = {n} ({path})",
                ruleset_id, run, note="" if tables.why_python is None else
                f"stepped in Python: {tables.why_python}")


# ---------------------------------------------------------------------------- peers


def _rlcard_env() -> Line:
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 0})
    # env.seed() gave the env and its game one RandomState, which the dealer shuffles with
    shuffler = env.game.np_random

    def run(seeds: Sequence[int]) -> Tally:
        rng = random.Random()
        steps = 0
        for s in seeds:
            shuffler.seed([s & 0xFFFFFFFF, s >> 32])
            rng.seed(s ^ CHOICE_SALT)
            state, _player = env.reset()
            while not env.is_over():
                # legal ids in a reproducible order (the actions come from a set when leading)
                state, _player = env.step(rng.choice(sorted(state["legal_actions"])))
                steps += 1
        return Tally(steps, len(seeds))

    return Line("rlcard", "RLCard", "rlcard.make('doudizhu'): reset, step", "its own",
                run, f"pz:{LIKE_PRESET}", "no auction: seat 0 is always the landlord")


def _douzero_imports_without_torch() -> bool:
    """Whether ``douzero.env.env`` imports in a fresh interpreter where torch cannot be."""
    code = "import sys; sys.modules['torch'] = None; import douzero.env.env"
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


class _ObservingAgent:
    """A DouZero player for the fallback: builds its observation, then picks at random."""

    def __init__(self, rng: random.Random, get_obs: Callable[[Any], dict[str, Any]]) -> None:
        self.rng = rng
        self.get_obs = get_obs

    def act(self, infoset: Any) -> Any:
        return self.rng.choice(self.get_obs(infoset)["legal_actions"])


def _douzero_env(with_env: bool) -> Line:
    """DouZero's ``Env`` (``with_env``), else ``GameEnv`` whose agents call ``get_obs``."""
    from douzero.env.env import Env, deck, get_obs
    from douzero.env.game import GameEnv

    rng = random.Random()
    if with_env:
        env = Env("adp")

        def run(seeds: Sequence[int]) -> Tally:
            steps = 0
            for s in seeds:
                np.random.seed(s % 2**32)  # Env.reset shuffles with numpy's global generator
                rng.seed(s ^ CHOICE_SALT)
                obs = env.reset()
                done = False
                while not done:
                    obs, _reward, done, _info = env.step(rng.choice(obs["legal_actions"]))
                    steps += 1
            return Tally(steps, len(seeds))

        return Line("douzero", "DouZero", "douzero.env.env.Env: reset, step", "its own", run,
                    f"pz:{LIKE_PRESET}", "no auction: the deal names the landlord")

    agent = _ObservingAgent(rng, get_obs)
    game = GameEnv({pos: agent for pos in ("landlord", "landlord_up", "landlord_down")})

    def run_game(seeds: Sequence[int]) -> Tally:
        steps = 0
        for s in seeds:
            rng.seed(s)
            game.reset()
            game.card_play_init(douzero_deal(rng, deck))
            while not game.game_over:
                game.step()
                steps += 1
        return Tally(steps, len(seeds))

    return Line("douzero", "DouZero", "GameEnv + get_obs per step", "its own", run_game,
                f"pz:{LIKE_PRESET}", "no auction: the deal names the landlord")


def _openspiel_python() -> Line:
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")

    def run(seeds: Sequence[int]) -> Tally:
        rng = random.Random()
        steps = 0
        for s in seeds:
            rng.seed(s)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    # equally likely outcomes (bench_hands._check_openspiel_chance)
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.observation_tensor(state.current_player())
                    state.apply_action(rng.choice(state.legal_actions()))
                    steps += 1
        return Tally(steps, len(seeds))

    return Line("openspiel", "OpenSpiel", "dou_dizhu Python loop + observation_tensor",
                "its own", run, "pz:classic",
                "its own auction; 52 chance nodes a hand drawn in Python too")


def _openspiel_cpp() -> Line:
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")

    def run(seeds: Sequence[int]) -> Tally:
        # fresh bots per batch, so every repeat plays the same hands
        bots = [pyspiel.make_uniform_random_bot(p, (seeds[0] + p) % 2**31)
                for p in range(game.num_players())]
        for s in seeds:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, s % 2**31)
        return Tally(0, len(seeds))  # steps: estimated from the Python loop

    return Line("openspiel-cpp", "OpenSpiel", "dou_dizhu C++ evaluate_bots, no observation",
                "its own", run, "pz:classic", "reference: whole hand in C++, random bots")


# ---------------------------------------------------------------------------- timing


def measure(lines: Sequence[Line], seeds: Sequence[int], warmup: Sequence[int],
            repeats: int = REPEATS) -> list[Row]:
    """A few warm-up hands on each line, then ``repeats`` rounds in which each line plays the
    batch once, gc off; each line keeps its best batch, in wall time and in CPU time. Lines
    timed together (our loops of one ruleset) alternate, so that a change in the machine's
    load touches them alike."""
    for line in lines:
        line.run(warmup)
    wall: list[list[float]] = [[] for _ in lines]
    cpu: list[list[float]] = [[] for _ in lines]
    tallies = [Tally(0, 0) for _ in lines]
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for i, line in enumerate(lines):
                start, start_cpu = time.perf_counter(), time.process_time()
                tallies[i] = line.run(seeds)
                wall[i].append(time.perf_counter() - start)
                cpu[i].append(time.process_time() - start_cpu)
    finally:
        if gc_was_enabled:
            gc.enable()
    return [Row(line.key, line.engine, line.loop, line.rules, tally.games, tally.steps,
                min(w), w[0], min(c), tally.redeals, line.like, note=line.note,
                repeats=repeats)
            for line, tally, w, c in zip(lines, tallies, wall, cpu, strict=True)]


def best_cpu(work: Callable[[], object], repeats: int = BREAKDOWN_REPEATS) -> float:
    """The best of ``repeats`` runs of ``work`` in CPU seconds (``time.process_time``), gc off."""
    times = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            work()
            times.append(time.process_time() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return min(times)


# ---------------------------------------------------------------------------- breakdown


@dataclass
class Recorded:
    """The classic hands of the lines, step by step, as the Game loop played them."""

    deals: list[tuple[int, int]] = field(default_factory=list)  # (deal seed, dealer)
    states: list[Hand] = field(default_factory=list)  # the hand before each step
    actions: list[Action] = field(default_factory=list)  # the referee's action taken
    ids: list[dict[int, Action]] = field(default_factory=list)  # Game.legal at each step
    finals: list[Hand] = field(default_factory=list)  # each episode's last hand


def record(ruleset_id: str, seeds: Sequence[int]) -> tuple[Any, Recorded]:
    """Play the Game loop's hands once more, keeping a copy of every state."""
    from ddz_rules.env import raw_env

    game = raw_env(ruleset_id).game
    rng = random.Random()
    out = Recorded()
    for s in seeds:
        game.seed(s)
        game.deal()
        rng.seed(s ^ CHOICE_SALT)
        last_deal = None
        while True:
            hand = game.hand
            if hand.deal is not last_deal:
                last_deal = hand.deal
                out.deals.append((hand.deal.seed, hand.deal.dealer))
            if game.over:
                break
            obs = game.observe(hand.to_act)
            choice = int(rng.choice(np.flatnonzero(obs["action_mask"].view(bool))))
            out.states.append(hand.clone())
            out.ids.append(dict(game.legal))
            out.actions.append(game.legal[choice])
            game.step(choice)
        out.finals.append(game.hand)
    return game, out


def wrapper_chain(ruleset_id: str) -> list[str]:
    """The class names of the wrappers ``env()`` puts around ``raw_env``, outermost first."""
    from ddz_rules.env import env

    names, layer = [], env(ruleset_id)
    while layer is not layer.unwrapped:
        names.append(type(layer).__name__)
        layer = layer.env
    return names


def wrapper_lookups(ruleset_id: str, seeds: Sequence[int]) -> tuple[float, float]:
    """PettingZoo's wrappers forward every attribute they lack to the env inside them through
    ``BaseWrapper.__getattr__``, one call per wrapper layer, after a failed normal lookup.
    Returns those calls per step of the PettingZoo loop (counted on ``seeds``) and the CPU
    µs of one (a read of ``agent_selection`` through ``env()``'s layers, over their number)."""
    from pettingzoo.utils.wrappers import base

    from ddz_rules.env import env

    line = _ours_pettingzoo(ruleset_id)
    calls = 0
    forward = base.BaseWrapper.__getattr__

    def counting(self: Any, name: str) -> Any:
        nonlocal calls
        calls += 1
        return forward(self, name)

    base.BaseWrapper.__getattr__ = counting  # type: ignore[method-assign]
    try:
        steps = line.run(seeds).steps
    finally:
        base.BaseWrapper.__getattr__ = forward  # type: ignore[method-assign]
    layers = len(wrapper_chain(ruleset_id))
    wrapped = env(ruleset_id)
    wrapped.reset(seed=0)
    reads = 2000

    def read() -> None:
        for _ in range(reads):
            wrapped.agent_selection  # noqa: B018 (the read is what is timed)

    return calls / steps, best_cpu(read) / reads / max(layers, 1) * 1e6


def _view_without_legal() -> bool:
    """Whether ``Game.observe`` asks ``Hand.view`` to leave the legal actions out (it may, since
    ``Hand.view(seat, legal=False)``); else each view lists them again."""
    from ddz_rules.env.aec import Game

    return ("legal" in inspect.signature(Hand.view).parameters
            and "legal=False" in inspect.getsource(Game.observe))


def breakdown(report: Report, ruleset_id: str, seeds: Sequence[int]) -> None:
    """Time each part of a step of ``ruleset_id`` alone, on the recorded hands."""
    from gymnasium import spaces

    game, rec = record(ruleset_id, seeds)
    steps = len(rec.states)
    ruleset, table, space, encoder = game.ruleset, game.table, game.actions, game.encoder
    n_actions = game.n_actions
    states = rec.states
    per_step = 1e6 / steps
    lean_view = _view_without_legal()  # the view as Game.observe builds it
    view_args: dict[str, bool] = {"legal": False} if lean_view else {}

    legal_lists = [h.legal_actions() for h in states]
    wilds = [h.wild for h in states]
    views = [h.view(h.to_act, **view_args) for h in states]
    masks = []
    for ids in rec.ids:
        mask = np.zeros(n_actions, dtype=np.int8)
        mask[list(ids)] = 1
        masks.append(mask)
    choice_rng = random.Random(0)

    def deals() -> None:
        for seed, dealer in rec.deals:
            Hand(ruleset, deal(ruleset, seed, dealer), table)

    def legal() -> None:
        for h in states:
            h.legal_actions()

    def apply_all() -> None:
        for h, action in zip(fresh, rec.actions, strict=True):
            h.apply(action)

    def id_map() -> None:
        for actions, wild in zip(legal_lists, wilds, strict=True):
            space.legal(actions, wild)

    def view() -> None:
        for h in states:
            h.view(h.to_act, **view_args)

    def encode() -> None:
        for v in views:
            encoder.encode(v)

    def mask_build() -> None:
        for ids in rec.ids:
            mask = np.zeros(n_actions, dtype=np.int8)
            mask[list(ids)] = 1

    def choose() -> None:
        for mask in masks:
            choice_rng.choice(np.flatnonzero(mask.view(bool)))

    def choose_int8() -> None:
        for mask in masks:
            choice_rng.choice(np.flatnonzero(mask))

    sampler = spaces.Discrete(n_actions, seed=0)

    def choose_sample() -> None:
        for mask in masks:
            sampler.sample(mask)

    def dead_observations() -> None:
        for h in rec.finals:
            game.hand = h
            for seat in range(ruleset.players):
                game.observe(seat)

    apply_times = []
    for _ in range(BREAKDOWN_REPEATS):  # apply changes the hand: fresh copies every time
        fresh = [h.clone() for h in states]
        apply_times.append(best_cpu(apply_all, 1))
    t = {
        "deal": best_cpu(deals), "legal": best_cpu(legal), "apply": min(apply_times),
        "ids": best_cpu(id_map), "view": best_cpu(view), "encode": best_cpu(encode),
        "mask": best_cpu(mask_build), "choice": best_cpu(choose),
        "choice_int8": best_cpu(choose_int8), "choice_sample": best_cpu(choose_sample),
        "dead": best_cpu(dead_observations),
    }
    us = {k: v * per_step for k, v in t.items()}
    layers = wrapper_chain(ruleset_id)
    lookups, lookup_us = wrapper_lookups(ruleset_id, seeds[:10]) if layers else (0.0, 0.0)
    game_row, aec_row = report.row(f"game:{ruleset_id}"), report.row(f"aec:{ruleset_id}")
    pz_row = report.row(f"pz:{ruleset_id}")
    same = all(r is not None and r.steps == steps for r in (game_row, aec_row, pz_row))
    counted = (us["legal"] + us["apply"] + us["deal"] + us["ids"] + us["view"] + us["encode"]
               + us["mask"] + us["choice"])
    # every part and every loop in CPU time, so that other work on the machine counts less
    game_us = game_row.cpu_us_per_step if game_row else None
    aec_us = aec_row.cpu_us_per_step if aec_row else None
    pz_us = pz_row.cpu_us_per_step if pz_row else None
    players = ruleset.players
    if lean_view:
        view_parts = [Part("view: Hand.view(seat, legal=False)", us["view"],
                           "timed alone on every recorded state")]
    else:
        view_parts = [
            Part("view: Hand.view, less its legal actions", us["view"] - us["legal"],
                 "Hand.view timed alone, less the legal actions line"),
            Part("view: legal actions again (View.legal, unread)", us["legal"],
                 "Hand.view lists them again for the seat to act; the encoder never reads "
                 "them"),
        ]
    parts = [
        Part("engine: legal actions (Hand.legal_actions, in Game.advance)", us["legal"],
             "timed alone on every recorded state"),
        Part("engine: apply (Hand.apply)", us["apply"], "timed alone on copies of the states"),
        Part("engine: deal (deal() and Hand(), per step)", us["deal"],
             f"{len(rec.deals)} deals, redeals included"),
        Part("action ids: ActionSpace.legal (actions -> id dict)", us["ids"],
             "timed alone on each state's legal actions"),
        *view_parts,
        Part("observation: Encoder.encode", us["encode"], "timed alone on the recorded views"),
        Part("mask: np.zeros + mask[ids] = 1", us["mask"], "timed alone on the recorded id dicts"),
        Part("agent: random.choice(np.flatnonzero(mask.view(bool)))", us["choice"],
             "the loop's own choice, timed alone on the recorded masks"),
        Part("  the same on the int8 mask itself", us["choice_int8"],
             "np.flatnonzero is far slower on int8 than on bool", 1),
        Part("  action_space(agent).sample(mask) instead", us["choice_sample"],
             "Gymnasium's masked sampler, as the README's example chooses", 1),
        Part("Game glue: observe/step/advance bookkeeping, the loop", None if game_us is None
             else game_us - counted, "Game loop less every part above"),
        Part("= Game loop (measured)", game_us, "the game: line", 2),
        Part("PettingZoo AEC API: agent_iter, last(), rewards, dead steps",
             None if aec_us is None or game_us is None else aec_us - game_us,
             "raw_env loop less Game loop"),
        Part(f"  of which the end-of-hand observations ({players} a hand)", us["dead"],
             "each agent's last() once its episode is over; timed alone", 1),
        Part("PettingZoo wrappers: " + (", ".join(w.removesuffix("Wrapper") for w in layers)
                                        or "none"),
             None if aec_us is None or pz_us is None else pz_us - aec_us,
             "env loop less raw_env loop"),
        Part(f"  of which forwarding: {lookups:.0f} __getattr__ calls a step x {lookup_us:.2f} µs",
             lookups * lookup_us,
             "calls counted on the first hands, one call timed alone", 1),
        Part("= PettingZoo loop (measured)", pz_us, "the pz: line", 2),
    ]
    report.parts = parts
    report.parts_meta = {
        "ruleset": ruleset_id, "hands": len(seeds), "steps": steps, "deals": len(rec.deals),
        "same_hands_as_lines": same, "seconds": t, "players": players,
        "view_without_legal": lean_view, "wrappers": layers,
        "wrapper_getattr_calls_per_step": lookups, "wrapper_getattr_call_us": lookup_us,
        "legal_actions_per_step": sum(map(len, legal_lists)) / steps,
    }


# ---------------------------------------------------------------------------- summary


def _ratio(ours: Row | None, peer: Row) -> float | None:
    """Our steps/s over the peer's: above 1 means ddz-rules is faster."""
    if ours is None or not peer.steps:
        return None
    return ours.steps_per_s / peer.steps_per_s


def _cpu_ratio(ours: Row | None, peer: Row | None) -> float | None:
    """The same in CPU time (steps per CPU second)."""
    if ours is None or peer is None or not peer.steps:
        return None
    return peer.cpu_us_per_step / ours.cpu_us_per_step


def summarize(report: Report) -> list[str]:
    lines = []
    rl = report.row("rlcard")
    if rl is not None:
        met = "met" if (rl.vs_like or 0) >= RLCARD_TARGET else "NOT met"
        lines.append(f"Target >= {RLCARD_TARGET:.0f}x RLCard's env (steps/s): {met}. "
                     f"Ours {rl.vs_like:.2f}x with the {LIKE_PRESET} preset (no auction, like "
                     f"RLCard; {rl.vs_like_cpu or 0:.2f}x in CPU "
                     f"time), {rl.vs_classic:.2f}x with classic (auction words are steps).")
    osp = report.row("openspiel")
    if osp is not None:
        met = "met" if (osp.vs_classic or 0) >= OPENSPIEL_TARGET else "NOT met"
        lines.append(f"Target >= OpenSpiel's Python loop with its observation tensor: {met}. "
                     f"Ours (classic) runs at {osp.vs_classic:.3f}x its steps/s "
                     f"({osp.vs_classic_cpu or 0:.3f}x in CPU time): "
                     f"OpenSpiel is {1 / osp.vs_classic:.0f}x faster.")
    cpp = report.row("openspiel-cpp")
    if cpp is not None and cpp.vs_classic:
        lines.append(f"OpenSpiel in C++ (evaluate_bots, no observation): {1 / cpp.vs_classic:.0f}"
                     "x our classic steps/s (its steps estimated).")
    dz = report.row("douzero")
    if dz is not None:
        lines.append(f"DouZero's env: ours {dz.vs_like:.2f}x its steps/s with the "
                     f"{LIKE_PRESET} preset, {dz.vs_classic:.2f}x with classic.")
    costs = []
    for rid in OUR_RULESETS:
        pz, gm = report.row(f"pz:{rid}"), report.row(f"game:{rid}")
        if pz is not None and gm is not None:
            costs.append(f"{rid} {pz.cpu_us_per_step - gm.cpu_us_per_step:.0f} µs "
                         f"({1 - gm.cpu_us_per_step / pz.cpu_us_per_step:.0%})")
    if costs:
        lines.append("PettingZoo's cost a step (PettingZoo loop less Game loop, CPU time; share "
                     "of the PettingZoo loop): " + ", ".join(costs) + ".")
    lines += _vector_summary(report, rl, osp)
    return lines


def _vector_summary(report: Report, rl: Row | None, osp: Row | None) -> list[str]:
    """VectorTables against the issue's three targets: steps a second, and the ratios to
    OpenSpiel's Python loop and to RLCard's environment."""
    vec = report.row("vec:classic")
    if vec is None:
        return []
    rate = vec.steps_per_s
    parts = [f"VectorTables, classic, n = {VECTOR_TABLES}: {rate:,.0f} steps/s (target "
             f">= {VECTOR_TARGET:,}: {'met' if rate >= VECTOR_TARGET else 'NOT met'})"]
    for peer, name, target in ((osp, "OpenSpiel's Python loop", VECTOR_OPENSPIEL),
                               (rl, "RLCard's env", VECTOR_RLCARD)):
        if peer is not None:
            ratio = rate / peer.steps_per_s
            parts.append(f"{ratio:.2f}x {name} (target >= {target}x: "
                         f"{'met' if ratio >= target else 'NOT met'})")
    others = [f"{rid} {row.steps_per_s:,.0f}" for rid in OUR_RULESETS[1:]
              if (row := report.row(f"vec:{rid}")) is not None]
    return ["; ".join(parts) + (f". Other rulesets, steps/s: {', '.join(others)}."
                                if others else ".")]


# ---------------------------------------------------------------------------- output


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def render(report: Report) -> str:
    meta = report.meta
    lines = [
        f"ddz-rules environment benchmark, {meta['date']}: {meta['hands']} whole hands per line "
        f"(seed {meta['seed']}), best of {REPEATS} after {WARMUP_HANDS} warm-up hands "
        f"({meta['breakdown']}: best of {BREAKDOWN_REPEATS})",
        f"{machine_line(meta)}; load average {meta['load_before']} before, "
        f"{meta.get('load_after', '-')} after",
        f"env: pettingzoo {meta['pettingzoo']}, gymnasium {meta['gymnasium']}, numpy "
        f"{meta['numpy']}; env() wraps raw_env in "
        f"{', '.join(meta['env_wrappers']) or 'nothing'}",
        "peers: " + ", ".join(f"{name} {meta['peers'][name] or 'not installed'}"
                              for name in PEERS),
        "",
        "step: one action taken, its seat's observation and mask built first; game: one whole "
        "hand (an episode).",
        "vs classic: our classic PettingZoo steps/s over the peer's; vs like: the same with our "
        f"line most like the peer ({LIKE_PRESET} preset, no auction, for RLCard and DouZero). "
        "> 1: ddz-rules is faster.",
        "steps/s, games/s, µs/step: the best batch in wall time; CPU µs: the best batch in CPU "
        "time (process_time), which other work on the machine changes less.",
        "",
    ]
    header = (f"{'engine':<10} {'loop':<44} {'rules':<11} {'games':>5} {'steps/game':>10} "
              f"{'steps/s':>9} {'games/s':>8} {'µs/step':>8} {'CPU µs':>8} {'vs classic':>10} "
              f"{'vs like':>8}  note")
    lines += [header, "-" * len(header)]
    section = ""
    for row in report.rows:
        kind = row.rules if row.engine == "ddz-rules" else "peer"
        if section and kind != section:
            lines.append("")
        section = kind
        est = "~" if row.steps_estimated else ""
        lines.append(
            f"{row.engine:<10} {row.loop:<44} {row.rules:<11} {row.games:>5} "
            f"{est + format(row.steps_per_game, '.1f'):>10} "
            f"{est + format(row.steps_per_s, ',.0f'):>9} {row.games_per_s:>8,.1f} "
            f"{est + format(row.us_per_step, '.1f'):>8} "
            f"{est + format(row.cpu_us_per_step, '.1f'):>8} {_fmt(row.vs_classic, '.3f'):>10} "
            f"{_fmt(row.vs_like, '.3f'):>8}  {row.note}".rstrip())
    lines += ["", *report.summary]
    if report.parts:
        pm = report.parts_meta
        pz = report.row(f"pz:{pm['ruleset']}")
        lines += [
            "",
            f"Where the time goes: {pm['ruleset']}, PettingZoo loop, the same {pm['hands']} "
            f"hands ({pm['steps']:,} steps, {pm['deals']} deals, "
            f"{pm['legal_actions_per_step']:.1f} legal actions a step), CPU µs per step.",
            f"Parts timed alone on the recorded states (best of {BREAKDOWN_REPEATS}, CPU time); "
            "glue, API and wrappers as differences between the loops' CPU µs/step.",
            "",
        ]
        for part in report.parts:
            share = ("" if part.us is None or pz is None or part.level == 1
                     else f"{part.us / pz.cpu_us_per_step:6.0%}")
            value = (f"({part.us:.1f})" if part.level == 1 and part.us is not None
                     else _fmt(part.us, ".1f"))
            lines.append(f"  {part.name:<74} {value:>8} {share:>6}".rstrip())
        if not pm["same_hands_as_lines"]:
            lines.append("  (the lines' step counts differ from the recording's: "
                         "the hands were not the same)")
    if report.notes:
        lines += ["", "Notes:", *[f"  - {n}" for n in report.notes]]
    return "\n".join(lines)


def _notes(versions: dict[str, str | None], douzero_mode: str | None,
           skipped: list[str]) -> list[str]:
    notes = [
        "ours: each line plays the same seeded hands (a fresh deal after an all-pass auction "
        "stays in the episode; its auction words are steps). The PettingZoo loop uses "
        "env(ruleset) with its wrapper; the choice is random.Random.choice over "
        "np.flatnonzero(obs['action_mask'].view(bool)). The Game loop and raw_env line show "
        "the cost of PettingZoo's API and of its wrapper.",
        f"{LIKE_PRESET} preset: RLCard's play rules with no auction (the deal names the "
        "landlord), the like-for-like line for RLCard and DouZero, which have no auction.",
        "each peer deals its own hands from the seeds, so steps per game are comparable only on "
        "average.",
    ]
    if versions.get("rlcard"):
        notes.append("RLCard: env.step builds the next player's state (its obs array, the legal "
                     "ids with their card arrays, raw_obs); legal ids sorted before the choice. "
                     "Seat 0 is always the landlord: no auction.")
    if douzero_mode:
        notes.append(f"DouZero: {douzero_mode}. Its observation holds one row of features per "
                     "legal action (x_batch), and Env.step checks the action against the legal "
                     "list. No auction: the deal names the landlord.")
    if versions.get("openspiel"):
        notes.append("OpenSpiel: steps are its player decisions (its auction's bids included); "
                     "its 52 chance nodes a hand are sampled in the loop and count in its time. "
                     "An all-pass auction ends its game. evaluate_bots builds no observation; "
                     "its steps per game are the Python loop's mean (marked ~).")
    notes += skipped
    for name, peer in PEERS.items():
        if not versions.get(name):
            notes.append(f"{peer.label} is not installed: its lines are skipped.")
    return notes


# ---------------------------------------------------------------------------- main


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands per line (default {DEFAULT_HANDS})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the hands (default {DEFAULT_SEED})")
    parser.add_argument("--breakdown", default="classic", choices=OUR_RULESETS,
                        help="the ruleset whose step is broken down (default classic)")
    parser.add_argument("--json", metavar="FILE", help="also write every number to FILE")
    opts = parser.parse_args(argv)
    if opts.hands < 1:
        parser.error("--hands must be at least 1")
    if opts.seed < 0:
        parser.error("--seed must not be negative")
    try:
        import ddz_rules.env  # noqa: F401 (the rl extra: pettingzoo, gymnasium, numpy)
    except ImportError as missing:
        parser.error(f"ddz_rules.env needs the rl extra (pip install -e '.[rl]'): {missing}")

    started = time.perf_counter()
    versions = {name: peer_status(peer) for name, peer in PEERS.items()}
    report = Report(meta={
        **machine(), "load_before": _load(), "hands": opts.hands, "seed": opts.seed,
        "repeats": REPEATS,
        "warmup_hands": WARMUP_HANDS, "breakdown": opts.breakdown,
        "breakdown_repeats": BREAKDOWN_REPEATS, "peers": versions,
        "pettingzoo": _version("pettingzoo"), "gymnasium": _version("gymnasium"),
        "numpy": np.__version__, "env_wrappers": wrapper_chain("classic"),
        "rlcard_target": RLCARD_TARGET, "openspiel_target": OPENSPIEL_TARGET,
    })
    seeds = [hand_seed(opts.seed, i) for i in range(opts.hands)]
    warmup = [hand_seed(opts.seed, opts.hands + k) for k in range(WARMUP_HANDS)]

    # Each group is timed together, its lines alternating: our loops of one ruleset, or a peer.
    groups: list[list[Callable[[], Line]]] = []
    for rid in OUR_RULESETS:
        group = [lambda rid=rid: _ours_pettingzoo(rid)]
        if rid == opts.breakdown:
            group.append(lambda rid=rid: _ours_pettingzoo(rid, wrapped=False))
        groups.append([*group, lambda rid=rid: _ours_game(rid),
                       lambda rid=rid: _ours_vector(rid)])
    broken_down = groups[OUR_RULESETS.index(opts.breakdown)]
    groups.append([lambda: _ours_pettingzoo(LIKE_PRESET)])
    douzero_mode = None
    if versions["rlcard"]:
        groups.append([_rlcard_env])
    if versions["douzero"]:
        with_env = _douzero_imports_without_torch()
        douzero_mode = ("douzero.env.env.Env, which imports without torch (checked in a fresh "
                        "interpreter with torch blocked)" if with_env else
                        "douzero.env.env does not import without torch: GameEnv with get_obs "
                        "called by each agent")
        groups.append([lambda: _douzero_env(with_env)])
    if versions["openspiel"]:
        _check_openspiel_chance(warmup[0])
        groups += [[_openspiel_python], [_openspiel_cpp]]
    skipped: list[str] = []
    for group in groups:
        lines = []
        for make in group:
            try:
                lines.append(make())
            except ImportError as missing:
                skipped.append(f"a line could not be built and is skipped: {missing}")
        repeats = BREAKDOWN_REPEATS if group is broken_down else REPEATS
        report.rows += measure(lines, seeds, warmup, repeats)
        for line in lines:
            print(f"  timed {line.engine}: {line.loop} ({line.rules})", file=sys.stderr,
                  flush=True)

    osp, cpp = report.row("openspiel"), report.row("openspiel-cpp")
    if cpp is not None:
        if osp is not None:  # the same random play: the Python loop's mean steps per game
            cpp.steps = round(osp.steps_per_game * cpp.games)
            cpp.steps_estimated = True
        else:
            report.rows.remove(cpp)
    classic = report.row("pz:classic")
    for row in report.rows:
        if row.engine != "ddz-rules":
            row.vs_classic = _ratio(classic, row)
            row.vs_like = _ratio(report.row(row.like) if row.like else None, row)
            row.vs_classic_cpu = _cpu_ratio(classic, row)
            row.vs_like_cpu = _cpu_ratio(report.row(row.like) if row.like else None, row)

    breakdown(report, opts.breakdown, seeds)
    report.summary = summarize(report)
    report.notes = _notes(versions, douzero_mode, skipped)
    report.meta["run_seconds"] = time.perf_counter() - started
    report.meta["load_after"] = _load()
    publish(render(report), report.to_json(), opts.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
