"""Many tables stepped at once (``ddz_rules.env.vector.VectorTables``): table ``i`` of a
batch seeded ``s`` is the PettingZoo environment reset with ``s + i``, deal for deal, and
given the same actions it observes, lists legal ids and pays exactly as that environment
does, hand after hand; bad input changes no table."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from ddz_rules import bundled_ids
from ddz_rules.env import raw_env
from ddz_rules.env.actions import ActionSpace
from ddz_rules.env.observation import Layout
from ddz_rules.env.vector import MAX_TABLES, VectorTables
from ddz_rules.errors import EnvError
from ddz_rules.ruleset import load
from ddz_rules.table import native_modules

from .differential import same_steps
from .test_env import readme_block
from .test_runner import needs_runner

RULESETS = bundled_ids()


README_VECTOR = readme_block("VectorTables(")


def test_the_readme_example_steps_256_classic_tables_and_prints_the_speed(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert len(README_VECTOR.strip().splitlines()) <= 9
    scope: dict[str, Any] = {}
    exec(compile(README_VECTOR, "README.md", "exec"), scope)
    assert re.fullmatch(r"[\d,]+ steps a second\n", capsys.readouterr().out)
    assert scope["tables"].n == 256 and scope["obs"].shape == (256, 725)


def _aec_row(game: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """The observation, legal ids and seat to act of a raw environment's agent to act."""
    agent = game.agent_selection
    seen = game.observe(agent)
    return seen["observation"], np.flatnonzero(seen["action_mask"]), game.agent_name_mapping[agent]


def _finish(game: Any) -> list[float]:
    """Step the done agents of an ended hand out and return each seat's reward."""
    rewards = [game.rewards[a] for a in game.possible_agents]
    while game.agents:
        game.step(None)
    return rewards


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("history", [0, 2])
def test_each_table_plays_as_the_environment_reset_with_its_seed(ruleset: str,
                                                                 history: int) -> None:
    n, seed, steps = 3, 40, 90
    tables = VectorTables(ruleset, n, seed=seed, history=history)
    games = [raw_env(ruleset, history=history) for _ in range(n)]
    for i, game in enumerate(games):
        game.reset(seed=seed + i)
    obs, (offsets, ids) = tables.reset()
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        chosen = np.zeros(n, dtype=np.int64)
        for i, game in enumerate(games):
            want_obs, want_ids, want_seat = _aec_row(game)
            assert (obs[i] == want_obs).all()
            assert (ids[offsets[i]:offsets[i + 1]] == want_ids).all()
            assert tables.to_act[i] == want_seat
            chosen[i] = rng.choice(want_ids)
        obs, (offsets, ids), rewards, done, info = tables.step(chosen)
        for i, game in enumerate(games):
            game.step(int(chosen[i]))
            over = all(game.terminations.values()) or all(game.truncations.values())
            assert done[i] == over
            if over:
                assert rewards[i].tolist() == _finish(game)
                assert info["truncated"][i] == (game.game.truncated)
                game.reset()
                ended += 1
            else:
                assert not rewards[i].any()
        assert (info["to_act"] == tables.to_act).all()
    assert ended > 0


def test_the_dense_mask_is_the_csr_ids() -> None:
    tables = VectorTables("laizi", 5, seed=3)
    _, (offsets, ids) = tables.reset()
    mask = tables.mask()
    assert mask.dtype == np.int8 and mask.shape == (5, tables.n_actions)
    for i in range(5):
        assert (np.flatnonzero(mask[i]) == ids[offsets[i]:offsets[i + 1]]).all()


@pytest.mark.parametrize("native", [True, False])
def test_a_finished_table_is_dealt_its_next_hand_at_once(native: bool) -> None:
    tables = VectorTables("two-player", 2, seed=9, native=native)
    layout = Layout.of(tables.ruleset)
    played = slice(layout["played.0"].start, layout["unseen"].start)
    auction = layout["phase"].start
    _, (offsets, ids) = tables.reset()
    rng = np.random.default_rng(0)
    ended = [0, 0]
    for _ in range(400):
        pick = offsets[:-1] + (rng.random(2) * np.diff(offsets)).astype(np.int64)
        obs, (offsets, ids), rewards, done, _ = tables.step(ids[pick])
        for i in np.flatnonzero(done):
            assert not obs[i, played].any() and obs[i, auction] == 1.0  # a fresh deal
            assert rewards[i].sum() == 0 and rewards[i].any()
            ended[i] += 1
        assert (np.diff(offsets) > 0).all()
    assert min(ended) > 3


@pytest.mark.parametrize("native", [True, False])
def test_stake_rewards_are_the_scores_over_the_stake(native: bool) -> None:
    tables = VectorTables("classic", 4, seed=1, reward="stake", native=native)
    _, (offsets, ids) = tables.reset()
    seen = 0
    for _ in range(300):
        _, (offsets, ids), rewards, done, info = tables.step(ids[offsets[:-1]])
        for i in np.flatnonzero(done & ~info["truncated"]):
            landlord_share = np.abs(rewards[i]).max()
            assert landlord_share == 2.0
            assert (np.sign(rewards[i]) == np.sign(info["scores"][i])).all()
            seen += 1
    assert seen > 0


# --------------------------------------------------------------------------- the twins


@needs_runner
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_compiled_stepper_is_its_python_twin_step_for_step(ruleset: str) -> None:
    """Deals, legal ids, observations (with history), stake rewards and truncation: the
    compiled stepper and the Python one agree at every step, on every ruleset it plays."""
    n, steps = (4, 160) if load(ruleset).wild_drawn else (8, 300)  # naming wild plays is slow
    compiled = VectorTables(ruleset, n, seed=77, history=3, reward="stake")
    assert compiled.native is not None and compiled.why_python is None
    python = VectorTables(ruleset, n, seed=77, history=3, reward="stake", native=False)
    assert python.native is None
    assert same_steps(compiled, python, steps, seed=1) > 0


@needs_runner
def test_thrown_in_deals_past_max_redeals_are_cut_off_alike() -> None:
    compiled = VectorTables("classic", 16, seed=3, max_redeals=0)
    python = VectorTables("classic", 16, seed=3, max_redeals=0, native=False)
    compiled.reset()
    python.reset()
    pass_id = ActionSpace.of(compiled.ruleset).id_of("pass")
    cut = 0
    for _ in range(3):  # everyone passes: every table's deal is thrown in, then cut off
        chosen = np.full(16, pass_id, dtype=np.int64)
        *_, info = compiled.step(chosen)
        *_, twin = python.step(chosen)
        assert np.array_equal(info["truncated"], twin["truncated"])
        assert np.array_equal(info["thrown_in"], info["truncated"])
        cut += int(info["truncated"].sum())
    assert cut == 16
    assert same_steps(compiled, python, 120, seed=4) > 0


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("n", "message"), [
    (0, "n must be an integer from 1 to"), (-3, "n must be an integer from 1 to"),
    (MAX_TABLES + 1, f"from 1 to {MAX_TABLES}, not {MAX_TABLES + 1}"),
    (2.0, "n must be an integer"), (True, "n must be an integer")])
def test_a_bad_table_count_is_refused(n: Any, message: str) -> None:
    with pytest.raises(EnvError, match=message):
        VectorTables("classic", n)


def test_a_bad_seed_reward_or_ruleset_is_refused() -> None:
    with pytest.raises(EnvError, match="seed must be a non-negative integer, not -1"):
        VectorTables("classic", 2, seed=-1)
    with pytest.raises(EnvError, match="reward must be one of score, stake"):
        VectorTables("classic", 2, reward="win")
    with pytest.raises(Exception, match="unknown ruleset 'nope'"):
        VectorTables("nope", 2)


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize(("actions", "message"), [
    (np.zeros(2, dtype=np.int64), r"actions must be an integer array of shape \(3,\)"),
    (np.zeros((3, 1), dtype=np.int64), r"of shape \(3, 1\)"),
    (np.zeros(3, dtype=np.float32), "not float32"),
    ("pass", "not str"),
])
def test_actions_of_the_wrong_shape_or_type_change_no_table(actions: Any, message: str,
                                                           native: bool) -> None:
    tables = VectorTables("classic", 3, seed=2, native=native)
    untouched = VectorTables("classic", 3, seed=2, native=native)
    tables.reset()
    with pytest.raises(EnvError, match=message):
        tables.step(actions)
    assert same_steps(tables, untouched, 60, seed=5) >= 0


@pytest.mark.parametrize("native", [True, False])
@pytest.mark.parametrize("bad", [24_000, -1, 2**63 + 5])
def test_an_illegal_id_at_one_table_raises_and_no_table_moves(native: bool, bad: int) -> None:
    tables = VectorTables("classic", 3, seed=2, native=native)
    untouched = VectorTables("classic", 3, seed=2, native=native)
    _, (offsets, ids) = tables.reset()
    chosen = ids[offsets[:-1]].astype(np.uint64 if bad >= 2**63 else np.int64)
    chosen[1] = bad  # no bid is a play, and no id is negative or that large
    with pytest.raises(EnvError, match=rf"table 1: action {bad} is not legal for seat \d now "
                                       r"\(masked off\); no table moved"):
        tables.step(chosen)
    tables.step(ids[offsets[:-1]])  # the tables still play, as if nothing had been asked
    untouched.reset()
    untouched.step(ids[offsets[:-1]])
    assert same_steps(tables, untouched, 60, seed=6) >= 0


def test_a_step_before_reset_is_refused() -> None:
    with pytest.raises(EnvError, match="reset before the first step"):
        VectorTables("classic", 1).step(np.zeros(1, dtype=np.int64))


def test_the_tables_say_which_path_steps_them() -> None:
    asked = VectorTables("classic", 2, native=False)
    assert asked.native is None and asked.why_python == "native=False was asked for"
    default = VectorTables("laizi", 2)
    if native_modules() is None:
        assert default.native is None and "not built" in str(default.why_python)
    else:
        assert default.native is not None and default.why_python is None
