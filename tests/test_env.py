"""The environments for learning agents (``ddz_rules.env``): PettingZoo's and Gymnasium's API
checks on every bundled ruleset, action ids, masks equal to the referee's legal actions,
observations equal to an independent count from the hand's record, zero-sum rewards, seeds,
secrecy, and the answer to every kind of bad input."""

from __future__ import annotations

import ast
import random
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from ddz_rules import bundled_ids, cards, load
from ddz_rules.env import ActionSpace, Layout, env, raw_env, single
from ddz_rules.env.aec import stake_unit
from ddz_rules.env.observation import Encoder
from ddz_rules.errors import DdzError, EnvError
from ddz_rules.game import PASS, Hand, KittyTaken, Played
from ddz_rules.table import Play

RULESETS = bundled_ids()
FIXTURES = Path(__file__).parent / "fixtures" / "env"


@pytest.fixture(autouse=True)
def _quiet_api_warnings() -> Any:
    """PettingZoo's checks warn that a dict observation is not a Box, as for every classic
    game with an action mask; the warning says nothing about this environment."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play_to_end(game: Any, rng: random.Random, check: Any = None) -> dict[str, float]:
    """Play a raw environment to the end with uniformly random masked actions; ``check`` is
    called before every action. Returns each agent's reward, as ``last()`` gives it once the
    agent's episode is over."""
    final: dict[str, float] = {}
    for agent in game.agent_iter(max_iter=10_000):
        obs, reward, term, trunc, _ = game.last()
        if term or trunc:
            final[agent] = reward
            game.step(None)
            continue
        if check is not None:
            check(game, agent, obs)
        game.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert game.agents == [] and set(final) == set(game.possible_agents)
    return final


# --------------------------------------------------------------------------- the APIs


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test_passes(ruleset: str) -> None:
    api_test(env(ruleset), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("ruleset", ["classic", "two-player", "four-player", "laizi", "run-fast"])
def test_gymnasium_check_env_passes(ruleset: str) -> None:
    check_env(single(ruleset), skip_render_check=True)


def readme_block(marker: str) -> str:
    """The README's Python example that holds ``marker``."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    return next(block for block in re.findall(r"```python\n(.*?)```", readme, re.S)
                if marker in block)


README_EXAMPLE = readme_block('env("laizi")')


def test_the_readme_example_plays_a_laizi_game_to_the_end_and_prints_the_rewards(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert len(README_EXAMPLE.strip().splitlines()) <= 7
    exec(compile(README_EXAMPLE, "README.md", "exec"), {})
    rewards = ast.literal_eval(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(rewards) == {"seat_0", "seat_1", "seat_2"}
    assert sum(rewards.values()) == 0 and any(rewards.values())


# --------------------------------------------------------------------------- action ids


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_action_id_round_trips(ruleset: str) -> None:
    space = ActionSpace(load(ruleset))
    assert [space.id_of(space.action(i)) for i in range(len(space))] == list(range(len(space)))
    assert space.action(space.id_of(PASS)) == PASS


def test_classic_ids_are_words_then_pass_then_the_table_in_order() -> None:
    space = ActionSpace(load("classic"))
    assert space.words == ("1", "2", "3", "pass")
    assert space.calls == ()
    assert len(space) == 4 + len(space.table.plays) == 4 + sum(
        len(r) for r in space.table.plays.values())
    first = space.action(space.first_play)
    assert isinstance(first, Play) and first.cards == "3"


def test_four_player_ids_hold_the_partner_calls() -> None:
    space = ActionSpace(load("four-player"))
    assert space.calls[0] == "alone" and "call A" in space.calls
    assert space.action(space.id_of("call 2")) == "call 2"


def test_a_play_read_two_ways_has_two_ids() -> None:
    space = ActionSpace(load("marked-card"))
    table = space.table
    key = next(k for k in table if len(table.readings(k)) > 1)
    ids = {space.id_of(Play(key, r)) for r in table.readings(key)}
    assert len(ids) == len(table.readings(key))


def test_a_wild_play_is_named_by_what_it_is_played_as() -> None:
    """3335 with the 5s wild: a soft bomb of 3s is played as 3333, a trio with a single as
    3335 (laizi's interpretation)."""
    laizi = load("laizi")
    space = ActionSpace(laizi)
    five = (cards.RANK_INDEX["5"],)
    soft, trio = sorted(space.table.readings(cards.pack_ranks(cards.parse("3335")), five),
                        key=lambda r: r.type)
    key = cards.pack_ranks(cards.parse("3335"))
    as_soft = space.action(space.id_of(Play(key, soft), five))
    as_trio = space.action(space.id_of(Play(key, trio), five))
    assert isinstance(as_soft, Play) and isinstance(as_trio, Play)
    assert (as_soft.cards, as_soft.reading.type) == ("3333", "soft_bomb")
    assert (as_trio.cards, as_trio.reading.type) == ("3335", "trio_single")


def test_a_play_made_two_ways_keeps_the_wild_cards() -> None:
    """Holding 3 3 4 4 5 and a wild 7, the pair straight 334455 needs the wild; holding 3 3
    4 4 5 5 and a wild 7 too, the id plays the natural 334455 and keeps the wild."""
    laizi = load("laizi")
    space = ActionSpace(laizi)
    seven = (cards.RANK_INDEX["7"],)
    hand = cards.pack_ranks(cards.parse("3344557"))
    legal = space.table.leads(hand, seven)
    chosen = space.legal(legal, seven)
    natural = cards.pack_ranks(cards.parse("334455"))
    pair_straight = [i for i, a in chosen.items() if isinstance(a, Play)
                     and a.reading.type == "pair_straight" and a.reading.length == 3
                     and a.reading.rank == "5"]
    assert len(pair_straight) == 1
    play = chosen[pair_straight[0]]
    assert isinstance(play, Play) and play.key == natural
    made_with_wild = [a for a in legal if isinstance(a, Play) and a.key != natural
                      and space.played_as(a, seven) == play]
    assert made_with_wild, "the hand can also make it with the wild"


def test_a_ruleset_whose_wild_only_type_carries_kickers_is_refused() -> None:
    with pytest.raises(EnvError, match=r"combinations\.soft_bomb needs wild cards and "
                                       r"carries kickers"):
        raw_env(str(FIXTURES / "soft-bomb-with-kickers.yaml"))


# ------------------------------------------------------------ masks, observations, rewards


def independent_counts(hand: Hand) -> dict[str, list[list[int]]]:
    """From the hand's operation record alone (the deal, the kitty taken, each play): every
    seat's cards now and what each seat has played, per rank."""
    players = hand.ruleset.players
    held = [list(cards.unpack(h)) for h in hand.log[0].hands]  # type: ignore[union-attr]
    played = [[0] * cards.NUM_RANKS for _ in range(players)]
    for op in hand.log[1:]:
        if isinstance(op, KittyTaken):
            for r, n in enumerate(cards.unpack(op.kitty)):
                held[op.seat][r] += n
        elif isinstance(op, Played):
            for r, n in enumerate(cards.unpack(op.play.key)):
                played[op.seat][r] += n
                held[op.seat][r] -= n
    return {"held": held, "played": played}


def decoded(layout: Layout, observation: Any, name: str) -> list[int]:
    feature = layout[name]
    block = observation[feature.start:feature.stop].reshape(cards.NUM_RANKS, layout.copies)
    assert set(np.unique(block)) <= {0.0, 1.0}
    # a thermometer code: no flag set after an unset one
    assert (np.diff(block, axis=1) <= 0).all()
    return [int(n) for n in block.sum(axis=1)]


def check_step(game: Any, agent: str, obs: dict[str, Any]) -> None:
    """Before an action: the mask is exactly the legal actions' ids, each id plays a legal
    action, and every seat's observation agrees with the independent count."""
    hand: Hand = game.hand
    space: ActionSpace = game.action_ids
    legal = set(hand.legal_actions())
    mask = obs["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (len(space),)
    assert set(np.flatnonzero(mask).tolist()) == {space.id_of(a, hand.wild) for a in legal}
    for i in np.flatnonzero(mask).tolist():
        action = game.game.legal[i]
        assert action in legal
        named = space.action(i)
        assert named == (action if isinstance(action, str) else space.played_as(action,
                                                                                 hand.wild))
    layout = game.game.encoder.layout
    players = hand.ruleset.players
    truth = independent_counts(hand)
    deck = cards.unpack(hand.ruleset.deck_key)
    all_played = [sum(p[r] for p in truth["played"]) for r in range(cards.NUM_RANKS)]
    for seat in range(players):
        observed = game.observe(f"seat_{seat}")
        if seat != hand.to_act:
            assert not observed["action_mask"].any()
        values = observed["observation"]
        assert values.dtype == np.float32 and ((values >= 0) & (values <= 1)).all()
        assert decoded(layout, values, "hand") == truth["held"][seat]
        assert decoded(layout, values, "unseen") == [
            deck[r] - truth["held"][seat][r] - all_played[r] for r in range(cards.NUM_RANKS)]
        for k in range(players):
            assert decoded(layout, values, f"played.{k}") == truth["played"][(seat + k) % players]
        left = layout["cards_left"]
        assert [round(float(x) * hand.ruleset.max_hand) for x in values[left.start:left.stop]] \
            == [sum(truth["held"][(seat + k) % players]) for k in range(players)]


@settings(max_examples=max(12, settings.default.max_examples // 3))
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 2**32 - 1),
       reward=st.sampled_from(["score", "stake"]))
def test_random_masked_games_keep_masks_observations_and_zero_sum(ruleset: str, seed: int,
                                                                  reward: str) -> None:
    game = raw_env(ruleset, reward=reward)
    game.reset(seed=seed)
    final = play_to_end(game, random.Random(seed), check_step)
    result = game.hand.result
    assert result is not None and not result.redeal
    assert sum(final.values()) == pytest.approx(0.0, abs=1e-9)
    assert any(final.values()) or not any(result.scores)
    unit = 1 if reward == "score" else stake_unit(game.game.ruleset, result.first_out is not None,
                                                  result.base * result.multiplier)
    assert [final[f"seat_{s}"] for s in range(len(result.scores))] == [
        s / unit for s in result.scores]


def test_the_stake_reward_is_the_score_over_base_times_multiplier() -> None:
    game = raw_env("classic", reward="stake")
    game.reset(seed=3)
    final = play_to_end(game, random.Random(3))
    result = game.hand.result
    unit = result.base * result.multiplier
    assert unit > 1
    assert [final[f"seat_{s}"] for s in range(3)] == [s / unit for s in result.scores]
    assert sorted(abs(r) for r in final.values()) == [1.0, 1.0, 2.0]


def test_a_thrown_in_deal_is_dealt_again_within_the_episode() -> None:
    """classic with every seat passing: the deal is thrown in, and the episode goes on with
    a new deal by the next dealer."""
    game = raw_env("classic")
    game.reset(seed=0)
    first = game.hand
    space = game.action_ids
    for _ in range(3):
        game.step(space.id_of(PASS))
    assert game.hand is not first and game.game.redeals == 1
    assert game.hand.deal.dealer == 1 and not any(game.terminations.values())


def test_past_max_redeals_the_episode_is_truncated() -> None:
    game = raw_env("classic", max_redeals=0)
    game.reset(seed=0)
    for _ in range(3):
        game.step(game.action_ids.id_of(PASS))
    assert all(game.truncations.values()) and not any(game.terminations.values())
    assert play_to_end(game, random.Random(0)) == {a: 0.0 for a in game.possible_agents}


# --------------------------------------------------------------------------- seeds and secrecy


def trace(ruleset: str, seed: int) -> list[tuple[str, int, bytes]]:
    game = raw_env(ruleset)
    game.reset(seed=seed)
    out: list[tuple[str, int, bytes]] = []
    rng = np.random.default_rng(seed)
    for agent in game.agent_iter(max_iter=10_000):
        obs, _, term, trunc, _ = game.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        out.append((agent, -1 if action is None else action, obs["observation"].tobytes()))
        game.step(action)
    return out


@pytest.mark.parametrize("ruleset", ["classic", "laizi", "run-fast"])
def test_the_same_seed_gives_the_same_game(ruleset: str) -> None:
    assert trace(ruleset, 11) == trace(ruleset, 11)
    assert trace(ruleset, 11) != trace(ruleset, 12)


def test_a_seed_deals_the_same_hand_whatever_was_played_before() -> None:
    fresh = raw_env("classic")
    fresh.reset(seed=5)
    used = raw_env("classic")
    used.reset(seed=9)
    play_to_end(used, random.Random(9))
    used.reset(seed=5)
    assert used.hand.deal == fresh.hand.deal
    learner = single("classic")
    obs, _ = learner.reset(seed=5)
    first = learner.game.hand.deal
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, _, terminated, truncated, _ = learner.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    learner.reset(seed=5)
    assert learner.game.hand.deal == first


def test_the_deal_of_a_seed_is_fixed_on_every_machine() -> None:
    """The deal follows from the seed by numpy's PCG64 and Python's Mersenne Twister, both
    the same everywhere: this is seed 5's first classic deal."""
    game = raw_env("classic")
    game.reset(seed=5)
    assert [cards.key_text(h) for h in game.hand.deal.hands] == EXPECTED_SEED_5


EXPECTED_SEED_5 = (Path(FIXTURES / "seed-5-classic-deal.txt").read_text(encoding="utf-8")
                   .split())


@pytest.mark.parametrize("ruleset", ["classic", "four-player", "laizi"])
def test_an_observation_holds_no_hidden_card(ruleset: str) -> None:
    """Swap cards between two seats other than the observer, and the observer's observation
    does not change (nor does any seat's whose cards did not change)."""
    rs = load(ruleset)
    rng = random.Random(1)
    encoder = Encoder(rs)
    checked = 0
    for seed in range(20):
        hand = Hand.new(rs, seed)
        for _ in range(rng.randrange(0, 25)):
            if hand.result is not None:
                break
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.result is not None:
            continue
        others = [s for s in range(rs.players) if s != 0]
        a, b = others[0], others[-1]
        if a == b:
            continue
        ranks_a = [r for r, n in enumerate(cards.unpack(hand.hands[a])) if n]
        ranks_b = [r for r, n in enumerate(cards.unpack(hand.hands[b])) if n]
        swap = [(x, y) for x in ranks_a for y in ranks_b if x != y and y not in hand.wild
                and x not in hand.wild]
        if not swap:
            continue
        x, y = swap[0]
        before = encoder.encode(hand.view(0)).copy()
        other = hand.clone()
        field = cards.FIELD_BITS
        other.hands[a] += (1 << (field * y)) - (1 << (field * x))
        other.hands[b] += (1 << (field * x)) - (1 << (field * y))
        assert other.hands[a] != hand.hands[a]
        assert (encoder.encode(other.view(0)) == before).all()
        assert not (encoder.encode(other.view(a)) == encoder.encode(hand.view(a))).all()
        checked += 1
    assert checked >= 5


def test_an_observation_does_not_depend_on_the_views_encoded_before_it() -> None:
    """The encoder carries its sums over from one view to the next that extends it; views
    taken out of order, or from another hand, give what a fresh encoder gives."""
    rs = load("classic")
    rng = random.Random(3)
    views = []
    for seed in (3, 4):
        hand = Hand.new(rs, seed)
        while hand.result is None:
            views.append(hand.view(hand.to_act or 0, legal=False))
            hand.apply(rng.choice(hand.legal_actions()))
    shared = Encoder(rs)
    order = list(range(len(views)))
    rng.shuffle(order)
    for i in [*range(len(views)), *order]:
        assert (shared.encode(views[i]) == Encoder(rs).encode(views[i])).all(), i


# --------------------------------------------------------------------------- bad input


def test_an_id_out_of_range_is_refused_changing_nothing() -> None:
    game = raw_env("classic")
    game.reset(seed=1)
    log = list(game.hand.log)
    with pytest.raises(EnvError, match=r"action id 99999 is out of range: classic has ids 0 "
                                       r"to 24642"):
        game.step(99999)
    assert game.hand.log == log


def test_a_masked_off_action_is_refused_by_the_raw_env_changing_nothing() -> None:
    game = raw_env("classic")
    game.reset(seed=1)
    log = list(game.hand.log)
    play_id = game.action_ids.first_play
    with pytest.raises(EnvError, match=r"action \d+ \(3\) is not legal for seat \d now "
                                       r"\(masked off\)"):
        game.step(play_id)
    assert game.hand.log == log and game.agent_selection == f"seat_{game.hand.to_act}"


@pytest.mark.parametrize(("action", "why"), [
    (4, r"action 4 \(3\) is not legal for seat \d now \(masked off\)"),
    (10**6, "action id 1000000 is out of range"),
    (-1, "action id -1 is out of range"),
    ("pass", r"an action is an integer id \(an int, a NumPy integer or a 0-d integer "
             r"array\), not str"),
    (None, "None is an action only once its episode is over"),
])
def test_an_illegal_action_ends_the_wrapped_game_with_minus_one(action: Any, why: str) -> None:
    game = env("classic")
    game.reset(seed=1)
    offender = game.agent_selection
    game.step(action)
    assert all(game.terminations.values())
    assert re.search(why, game.infos[offender]["illegal"])
    final = play_to_end(game, random.Random(0))
    assert final == {a: (-1.0 if a == offender else 0.0) for a in game.possible_agents}


def test_an_action_of_the_wrong_type_is_refused() -> None:
    game = raw_env("classic")
    game.reset(seed=1)
    with pytest.raises(EnvError, match=r"an action is an integer id \(.*\), not str"):
        game.step("pass")
    with pytest.raises(EnvError, match="None is an action only once its episode is over"):
        game.step(None)


def test_a_step_after_the_end_takes_only_none() -> None:
    game = raw_env("two-player")
    game.reset(seed=2)
    play_to_end(game, random.Random(2))
    assert game.agents == []
    with pytest.raises(EnvError, match="the hand is over: reset before stepping again"):
        game.game.step(0)


@pytest.mark.parametrize("seed", ["7", 1.5, -1])
def test_a_seed_of_the_wrong_type_is_refused(seed: Any) -> None:
    game = raw_env("classic")
    with pytest.raises(Exception, match="Seed must be"):
        game.reset(seed=seed)


def test_an_unknown_ruleset_is_refused_in_one_line() -> None:
    with pytest.raises(DdzError) as refused:
        env("no-such-ruleset")
    assert "\n" not in str(refused.value) and "no-such-ruleset" in str(refused.value)


@pytest.mark.parametrize(("option", "value", "message"), [
    ("reward", "win", "reward must be one of score, stake, not 'win'"),
    ("max_redeals", -1, "max_redeals must be an integer from 0 to 10000, not -1"),
    ("render_mode", "rgb_array", "render_mode must be one of ansi, human or None"),
    ("illegal", "ignore", "illegal must be one of raise, end, not 'ignore'"),
])
def test_a_bad_option_is_refused(option: str, value: Any, message: str) -> None:
    with pytest.raises(EnvError, match=message):
        raw_env("classic", **{option: value})


# --------------------------------------------------------------------------- one learner


def test_the_learner_acts_at_every_step_and_is_paid_its_score() -> None:
    learner = single("classic", seat=1, bots="standard")
    obs, info = learner.reset(seed=4)
    done = False
    reward = 0.0
    rng = np.random.default_rng(4)
    while not done:
        game = learner.game
        assert game.hand.to_act == 1
        assert (obs["action_mask"] == info["action_mask"]).all()
        obs, reward, done, cut, info = learner.step(int(rng.choice(
            np.flatnonzero(obs["action_mask"]))))
        done = done or cut
    assert reward == learner.game.hand.result.scores[1]


def test_the_learner_env_ends_on_a_masked_off_action_or_raises_if_asked() -> None:
    learner = single("two-player")
    learner.reset(seed=0)
    _, reward, terminated, _, info = learner.step(learner.game.actions.first_play + 5)
    assert terminated and reward == -1.0 and "masked off" in info["illegal"]
    with pytest.raises(EnvError, match="the hand is over: reset before stepping again"):
        learner.step(0)
    strict = single("two-player", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(EnvError, match="masked off"):
        strict.step(strict.game.actions.first_play + 5)


def test_a_bad_seat_or_bot_level_is_refused() -> None:
    with pytest.raises(EnvError, match="seat must be an integer from 0 to 2, not 3"):
        single("classic", seat=3)
    with pytest.raises(DdzError, match="unknown bot level 'genius'"):
        single("classic", bots="genius")
