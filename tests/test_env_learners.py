"""What learners expect of the environments: actions as Gymnasium's ``Discrete`` takes them,
environments that pickle and deep-copy, a table drawn in text, readable actions in ``info``,
a registered Gymnasium id, a terminal mask a masked choice survives, an observation history
equal to an independent reading of the hand's record, and clear errors where PettingZoo's
and Python's own used to escape."""

from __future__ import annotations

import copy
import pickle
import random
import re
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from ddz_rules import cards
from ddz_rules.env import SINGLE_ID, Layout, env, raw_env, single
from ddz_rules.errors import DdzError, EnvError
from ddz_rules.game import Hand, Passed, Played

from .test_env import decoded, play_to_end


@pytest.fixture(autouse=True)
def _quiet_api_warnings() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _first_legal(game: Any) -> int:
    obs, *_ = game.last()
    return int(np.flatnonzero(obs["action_mask"])[0])


# ------------------------------------------------------------- actions as Discrete takes them


@pytest.mark.parametrize("wrap", [np.array, np.int64, np.int8, np.uint16, int])
def test_an_integer_like_action_the_space_contains_is_played(wrap: Any) -> None:
    game = env("classic")
    game.reset(seed=3)
    agent = game.agent_selection
    action = wrap(_first_legal(game))
    assert game.action_space(agent).contains(action)
    game.step(action)
    assert not any(game.terminations.values()) and "illegal" not in game.infos[agent]
    assert game.infos[game.agent_selection]["last_action_id"] == int(action)


@pytest.mark.parametrize("action", [0.0, [0], "0", np.array([0]), np.array(0.0), True])
def test_an_action_the_space_refuses_is_refused_by_the_raw_env(action: Any) -> None:
    game = raw_env("classic")
    game.reset(seed=3)
    log = list(game.hand.log)
    with pytest.raises(EnvError, match=r"an action is an integer id \(an int, a NumPy integer "
                                       r"or a 0-d integer array\), not "):
        game.step(action)
    assert game.hand.log == log


def test_the_single_env_plays_the_index_argmax_returns() -> None:
    learner = single("classic")
    obs, _ = learner.reset(seed=5)
    _, reward, terminated, _, info = learner.step(np.argmax(obs["action_mask"]))
    assert "illegal" not in info and reward == 0.0 and not terminated


# --------------------------------------------------------------------- pickling and copying


@pytest.mark.parametrize("make", [lambda: env("laizi"), lambda: raw_env("four-player"),
                                  lambda: single("two-player", bots="medium")])
def test_an_environment_pickles_and_deep_copies_mid_hand_and_plays_on_alike(make: Any) -> None:
    game = make()
    if isinstance(game, gymnasium.Env):
        obs, _ = game.reset(seed=4)
        game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    else:
        game.reset(seed=4)
        for _ in range(3):
            game.step(_first_legal(game))
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        inner, original = twin.unwrapped.game, game.unwrapped.game
        assert inner.hand.log == original.hand.log and inner.table is original.table
        if isinstance(game, gymnasium.Env):  # the learner's next step, on each copy
            again = copy.deepcopy(game)
            steps = [g.step(int(np.flatnonzero(g.game.mask(g.seat))[-1])) for g in (again, twin)]
            assert (steps[0][0]["observation"] == steps[1][0]["observation"]).all()
            assert steps[0][1:4] == steps[1][1:4]
        else:  # the rest of the hand, the same random choices on each copy
            assert play_to_end(copy.deepcopy(game), random.Random(1)) == play_to_end(
                twin, random.Random(1))


def test_a_pickled_environment_carries_no_table() -> None:
    game = env("classic")
    game.reset(seed=1)
    assert len(pickle.dumps(game)) < 400_000  # the play table alone pickles to 2.6 MB


# --------------------------------------------------------------------- after the end, errors


def test_a_raw_env_stepped_after_every_agent_is_done_takes_none_and_refuses_an_id() -> None:
    game = raw_env("two-player")
    game.reset(seed=2)
    play_to_end(game, random.Random(2))
    game.step(None)
    with pytest.raises(EnvError, match="the episode is over: a step now takes only None"):
        game.step(0)


def test_a_step_before_the_first_reset_is_refused() -> None:
    with pytest.raises(EnvError, match="reset before the first step"):
        raw_env("classic").step(0)


def test_a_refused_first_reset_leaves_the_wrapped_env_unreset() -> None:
    game = env("classic")
    with pytest.raises(EnvError, match="Seed must be None or a non-negative integer, not -1"):
        game.reset(seed=-1)
    with pytest.raises(Exception, match=r"reset\(\) needs to be called before step"):
        game.step(0)
    game.reset(seed=1)
    game.step(_first_legal(game))


@pytest.mark.parametrize("value", ["x", None, float("nan"), True])
@pytest.mark.parametrize("make", [raw_env, single])
def test_a_reward_that_is_not_a_number_is_refused_naming_it(make: Any, value: Any) -> None:
    with pytest.raises(EnvError, match=r"illegal_reward must be a (finite )?number, not "):
        make("classic", illegal_reward=value)


@pytest.mark.parametrize("name", ["a\0b.yaml", "rules/cl\0assic.yaml", "cl\0assic"])
def test_a_ruleset_name_holding_a_nul_byte_is_refused_in_one_line(name: str) -> None:
    with pytest.raises(DdzError, match="a name or path cannot hold a NUL byte") as refused:
        env(name)
    assert "\n" not in str(refused.value)


# ------------------------------------------------------------------ render, info, names


def test_render_draws_the_table_from_the_acting_seats_view() -> None:
    game = raw_env("classic", render_mode="ansi")
    game.reset(seed=6)
    for _ in range(4):
        game.step(_first_legal(game))
    text = game.render()
    hand = game.hand
    seat = hand.to_act
    lines = text.splitlines()
    assert lines[0].startswith(f"classic: {hand.phase.value}, seat_{seat} to act")
    for other in range(3):
        assert f"seat_{other}" in text and f"{cards.size(hand.hands[other])} cards" in text
    assert lines[-1] == f"seat_{seat}'s hand: {cards.key_text(hand.hands[seat])}"
    for other in range(3):  # no other hand's cards are drawn
        if other != seat:
            assert cards.key_text(hand.hands[other]) not in text


def test_render_follows_the_render_mode(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = raw_env("classic")
    quiet.reset(seed=1)
    assert quiet.render() is None and capsys.readouterr().out == ""
    loud = raw_env("classic", render_mode="human")
    loud.reset(seed=1)
    assert loud.render() is None and "seat_0" in capsys.readouterr().out
    learner = single("classic", render_mode="ansi")
    learner.reset(seed=1)
    assert "seat_0's hand" in learner.render()


def test_info_tells_the_last_action_and_on_request_the_legal_ids_by_name() -> None:
    game = raw_env("classic", legal_names=True)
    game.reset(seed=1)
    agent = game.agent_selection
    info = game.infos[agent]
    assert info["last_action"] == "" and info["last_action_id"] == -1
    legal = np.flatnonzero(game.observe(agent)["action_mask"]).tolist()
    assert sorted(info["legal"]) == legal
    assert {info["legal"][i] for i in legal} == {"bid 1", "bid 2", "bid 3", "pass"}
    game.step(legal[-1])
    assert game.infos[game.agent_selection]["last_action"] == f"{agent}: pass"
    plain = raw_env("classic")
    plain.reset(seed=1)
    assert "legal" not in plain.infos[plain.agent_selection]


def test_action_to_string_names_words_bids_and_plays() -> None:
    game = raw_env("classic")
    space = game.action_ids
    assert game.action_to_string(0) == "bid 1"
    assert game.action_to_string(np.int32(space.id_of("pass"))) == "pass"
    assert game.action_to_string(space.first_play) == "3 (single/1/3)"
    assert single("four-player").action_to_string(4) == "alone"
    with pytest.raises(EnvError, match="out of range"):
        game.action_to_string(10**6)


# ------------------------------------------------------------------- Gymnasium's registry


def test_the_single_env_is_made_by_gymnasium_make() -> None:
    made = gymnasium.make(SINGLE_ID, ruleset="two-player", bots="standard")
    obs, _info = made.reset(seed=3)
    assert obs["observation"].shape == made.observation_space["observation"].shape
    assert made.unwrapped.level == "standard"
    by_module = gymnasium.make("ddz_rules.env:ddz_rules/Single-v0")
    assert by_module.unwrapped.ruleset.id == "classic"


def test_a_masked_choice_survives_the_terminal_observation_under_vector_autoreset() -> None:
    vector = SyncVectorEnv([lambda: gymnasium.make(SINGLE_ID, ruleset="two-player")
                            for _ in range(3)])
    obs, _ = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        mask = obs["action_mask"]
        assert (mask.sum(axis=1) > 0).all()
        actions = np.argmax(np.where(mask > 0, rng.random(mask.shape), -1.0), axis=1)
        obs, _, terminated, truncated, info = vector.step(actions)
        ends += int((terminated | truncated).sum())
        assert "illegal" not in info
    assert ends > 0


def test_the_terminal_mask_holds_pass_alone() -> None:
    learner = single("two-player")
    obs, _ = learner.reset(seed=1)
    done = False
    while not done:
        obs, _, done, cut, info = learner.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = done or cut
    assert np.flatnonzero(obs["action_mask"]).tolist() == [learner.game.pass_id]
    assert (info["action_mask"] == obs["action_mask"]).all()


# ------------------------------------------------------------------- observation history


def independent_history(hand: Hand, seat: int, depth: int) -> dict[int, list[int | None]]:
    """From the hand's record alone: each seat offset's last ``depth`` actions of the play,
    most recent first, a play as its key and a pass as None."""
    players = hand.ruleset.players
    done: dict[int, list[int | None]] = {k: [] for k in range(players)}
    for op in hand.log:
        if isinstance(op, Played | Passed):
            key = op.play.key if isinstance(op, Played) else None
            done[(op.seat - seat) % players].append(key)
    return {k: list(reversed(actions))[:depth] for k, actions in done.items()}


@pytest.mark.parametrize("ruleset", ["classic", "four-player", "run-fast", "laizi-two"])
def test_the_history_is_each_seats_last_actions_in_the_record(ruleset: str) -> None:
    depth = 3
    game = raw_env(ruleset, history=depth)
    base = Layout.of(game.ruleset)
    layout = game.game.encoder.layout
    assert layout.features[:len(base.features)] == base.features
    rng = random.Random(ruleset)
    seen_pass = seen_play = False
    game.reset(seed=11)
    for agent in game.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = game.last()
        if term or trunc:
            game.step(None)
            continue
        hand = game.hand
        seat = game.agent_name_mapping[agent]
        truth = independent_history(hand, seat, depth)
        flags = layout["history_pass.0"]
        for k in range(hand.ruleset.players):
            passes = obs["observation"][flags.start + depth * k:flags.start + depth * (k + 1)]
            for j in range(depth):
                key = truth[k][j] if j < len(truth[k]) else 0
                assert passes[j] == (1.0 if key is None else 0.0)
                want = list(cards.unpack(key or 0))
                assert decoded(layout, obs["observation"], f"history.{k}.{j}") == want
                seen_pass |= key is None
                seen_play |= bool(key)
        game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert seen_pass and seen_play


@pytest.mark.parametrize("history", [-1, 33, 1.0, True])
def test_a_bad_history_depth_is_refused(history: Any) -> None:
    with pytest.raises(EnvError, match=r"history must be an integer from 0 to 32, not "):
        raw_env("classic", history=history)


# --------------------------------------------------------------------------- the docs


def test_the_docs_state_the_single_envs_default_bots() -> None:
    root = Path(__file__).parent.parent
    default = single("classic").level
    for path in (root / "README.md", root / "docs" / "using" / "agents.md"):
        for said in re.findall(r"single\([^)]*bots=\"(\w+)\"\)", path.read_text()):
            assert said == default, path
