"""Every ruleset as an OpenSpiel game (ddz_rules.env.openspiel): registered under its own name,
loadable by pyspiel, passing OpenSpiel's own random-simulation test, and played by its
algorithms; legal ids, observations and returns agree with the referee and the encoder."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from ddz_rules import cards  # noqa: E402
from ddz_rules.env.observation import Encoder, Layout  # noqa: E402
from ddz_rules.env.openspiel import DdzState, load, register  # noqa: E402
from ddz_rules.errors import EnvError  # noqa: E402
from ddz_rules.game import deal  # noqa: E402
from ddz_rules.ruleset import load as load_ruleset  # noqa: E402

#: A ruleset of each shape: three seats, two, four on two decks, wild cards, no landlord.
RULESETS = ("classic", "two-player", "four-player", "laizi", "run-fast")


@cache
def game(ruleset: str) -> Any:
    """The ruleset's game, loaded once for the whole file (building its action ids takes a
    second or two)."""
    return pyspiel.load_game(register(ruleset))


def walk(ruleset: str, seed: int) -> Iterator[DdzState]:
    """Every state of one game of random legal actions, from the deal to the end."""
    rng = random.Random(seed)
    state = game(ruleset).new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ruleset_registers_under_its_own_name_and_pyspiel_loads_it(ruleset: str) -> None:
    name = register(ruleset)
    assert name == "python_ddz_" + ruleset.replace("-", "_")
    assert register(ruleset) == name  # registering again is a no-op
    assert name in pyspiel.registered_names()
    loaded = game(ruleset)
    rules = load_ruleset(ruleset)
    kind = loaded.get_type()
    assert kind.short_name == name
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert loaded.num_players() == rules.players
    assert loaded.ruleset is rules
    assert loaded.num_distinct_actions() == len(loaded.action_space)
    assert loaded.observation_tensor_shape() == [Layout.of(rules).size]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_openspiels_random_simulation_test_passes(ruleset: str) -> None:
    """pyspiel's own checks: sorted legal actions and masks, clones and serialized states equal
    to the original, the game within its length bound, returns within the utility bounds."""
    pyspiel.random_sim_test(game(ruleset), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_legal_id_plays_a_legal_referee_action_with_that_id(ruleset: str) -> None:
    space = game(ruleset).action_space
    for state in walk(ruleset, seed=1):
        if state.is_chance_node() or state.is_terminal():
            continue
        hand = state.hand
        legal = hand.legal_actions()
        ids = state.legal_actions()
        assert ids == sorted(space.legal(legal, hand.wild))
        names = [state.action_to_string(i) for i in ids]
        assert len(set(names)) == len(names)
        for action_id in ids:
            action = state.referee_action(action_id)
            assert action in legal
            assert space.id_of(action, hand.wild) == action_id
            if not hand.wild:
                assert space.action(action_id) == action


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_observation_tensor_is_the_encoders_encoding_of_the_seats_view(
        ruleset: str) -> None:
    encoder = Encoder(load_ruleset(ruleset))
    players = game(ruleset).num_players()
    for state in walk(ruleset, seed=2):
        if state.is_chance_node():
            assert not any(state.observation_tensor(0))  # nothing dealt yet
            continue
        for seat in range(players):
            expected = encoder.encode(state.hand.view(seat))
            assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32),
                                  expected)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_returns_are_the_referees_scores_and_sum_to_zero(ruleset: str) -> None:
    for seed in (3, 4):
        *_, end = walk(ruleset, seed)
        assert end.is_terminal()
        assert end.returns() == [float(s) for s in end.hand.result.scores]
        assert sum(end.returns()) == 0


def test_a_chance_outcome_deals_its_seed_from_its_dealer() -> None:
    rules = load_ruleset("two-player")
    small = load("two-player", deals=5, first_seed=100)
    state = small.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(10))
    assert all(p == pytest.approx(0.1) for _, p in outcomes)
    state.apply_action(7)
    assert state.hand.deal == deal(rules, 103, 1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal seed 103, dealer 1"


def test_a_thrown_in_deal_ends_the_game_with_zero_returns() -> None:
    state = game("classic").new_initial_state()
    state.apply_action(0)
    passing = game("classic").action_space.id_of("pass")
    while not state.is_terminal():
        state.apply_action(passing)
    assert state.hand.result.redeal
    assert state.returns() == [0.0, 0.0, 0.0]


def test_an_information_state_grows_with_every_action_and_hides_other_hands() -> None:
    seen: list[str] = []
    for state in walk("classic", seed=5):
        if state.is_chance_node():
            continue
        text = state.information_state_string(0)
        assert text not in seen  # perfect recall: no two moments look alike
        seen.append(text)
        hand = state.hand
        assert f"hand {cards.key_text(hand.hands[0]) or '-'} |" in text
        assert "hands" not in text and "seed" not in text  # the whole state's text, not this
        assert text == state.information_state_string(0)
        if hand.result is None and hand.to_act is not None:
            assert state.information_state_string() == state.information_state_string(
                hand.to_act)


def test_an_illegal_id_is_refused() -> None:
    state = game("classic").new_initial_state()
    state.apply_action(0)
    with pytest.raises(EnvError, match="not legal"):
        state.referee_action(10_000)
    with pytest.raises(EnvError, match="not legal"):
        state._apply_action(10_000)


def test_bad_parameters_are_refused() -> None:
    name = register("two-player")
    with pytest.raises(EnvError, match="deals"):
        pyspiel.load_game(f"{name}(deals=0)")
    with pytest.raises(EnvError, match="first_seed"):
        pyspiel.load_game(f"{name}(first_seed=-1)")
    with pytest.raises(EnvError, match="2 players"):
        pyspiel.load_game(f"{name}(ruleset=classic)")


def test_a_ruleset_file_registers_by_its_path_and_its_state_survives_serialization(
        tmp_path: Path) -> None:
    path = tmp_path / "duel.yaml"
    path.write_text("id: duel-capped\nextends: two-player\ntitle: Duel, capped\n"
                    "summary: The duel capped at 4.\nsource: {text: none, about: a fixture}\n"
                    "scoring:\n  cap:\n    value: 4\n    text: At most 4.\n")
    name = register(str(path))
    assert name == "python_ddz_duel_capped"
    loaded = pyspiel.load_game(name)
    assert loaded.max_utility() == 4.0  # the cap bounds the one peasant's stake
    assert f"ruleset={path}" in str(loaded)
    *_, end = walk_game(loaded, seed=6)
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(loaded, end))[1]
    assert str(copy) == str(end)
    other = tmp_path / "other"
    other.mkdir()
    (other / "duel.yaml").write_text(path.read_text())
    with pytest.raises(EnvError, match="same id"):
        register(str(other / "duel.yaml"))


def walk_game(loaded: Any, seed: int) -> Iterator[Any]:
    """Every state of one random game of ``loaded``."""
    rng = random.Random(seed)
    state = loaded.new_initial_state()
    yield state
    while not state.is_terminal():
        actions = ([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        state.apply_action(rng.choice(actions))
        yield state


def test_openspiels_mcts_with_random_rollouts_chooses_legal_moves() -> None:
    loaded = game("two-player")
    bot = mcts.MCTSBot(loaded, uct_c=2.0, max_simulations=4,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    state = loaded.new_initial_state()
    state.apply_action(0)
    for _ in range(3):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_openspiels_evaluate_bots_plays_uniform_random_bots_to_a_zero_sum_end() -> None:
    loaded = game("run-fast")
    rng = np.random.RandomState(0)
    bots = [uniform_random.UniformRandomBot(p, rng) for p in range(loaded.num_players())]
    for _ in range(2):
        returns = evaluate_bots.evaluate_bots(loaded.new_initial_state(), bots, rng)
        assert sum(returns) == 0 and any(returns)


def test_openspiels_rl_environment_gives_agents_the_observation_tensor() -> None:
    loaded = game("two-player")
    env = rl_environment.Environment(loaded, seed=0)
    step = env.reset()
    size = Layout.of(load_ruleset("two-player")).size
    rng = random.Random(0)
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == 0
