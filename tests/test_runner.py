"""The hand runner (``ddz_rules/runner.py`` and ``_moves.c``'s ``Runner``): the compiled runner
plays the Python loop's hands, choice for choice and score for score, from the same seeds;
it says which rulesets it leaves to Python and why; it refuses malformed arrays, and falls
back to Python where a stake outgrows 64 bits."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import compile_table, load
from ddz_rules import runner as runner_module
from ddz_rules import table as table_module
from ddz_rules.runner import HandRunner, play_random, runner_arrays, unsupported
from ddz_rules.table import lister_arrays

from .conftest import RULESETS
from .differential import runner_mismatches

moves = table_module._moves
needs_runner = pytest.mark.skipif(
    moves is None, reason="the compiled modules are not built, or are switched off "
    "(DDZ_PURE_PYTHON): test_moves.test_the_lister_is_built_where_a_compiler_is says which")

FIXTURES = Path(__file__).parent / "fixtures" / "variants"
#: Test variants with a cap, a multiplying dealt-hand bonus, grabbers that said no-call, Run
#: Fast capped, Run Fast with bombs paid when they win their trick and every last card paid,
#: and Run Fast liable for any low single.
FIXTURE_VARIANTS = [str(FIXTURES / f"{name}.yaml")
                    for name in ("capped", "happy-doubling", "grab-after-no-call",
                                 "run-fast-15-capped", "run-fast-bomb-wins-trick",
                                 "run-fast-15-any-low-single")]


# ---------------------------------------------------------------------------- the generator


@needs_runner
@given(seed=st.one_of(st.integers(0, 2**32 + 5), st.integers(2**32 - 5, 2**64 - 1)),
       bounds=st.lists(st.integers(1, 2**31 - 1), max_size=700))
def test_the_runners_generator_draws_what_pythons_random_draws(seed: int,
                                                               bounds: list[int]) -> None:
    """The twin of ``random.Random``: its seeding (one and two 32-bit words) and
    ``randrange``, through a state refill (624 draws)."""
    rng = random.Random(seed)
    assert moves.draws(seed, bounds) == [rng.randrange(b) for b in bounds]


# ---------------------------------------------------------------------------- the same hands


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_runner_interprets_every_bundled_ruleset(ruleset_id: str) -> None:
    assert unsupported(load(ruleset_id)) is None


def test_wild_cards_with_play_duties_are_left_to_python_and_said_so() -> None:
    """No bundled ruleset has both; a ruleset that does is played in Python, the same hand."""
    ruleset = load(str(FIXTURES / "laizi-must-beat.yaml"))
    runner = HandRunner(ruleset)
    assert runner.native is None
    assert runner.why_python is not None and "play duties" in runner.why_python
    reference = play_random(ruleset, 4)
    assert reference.result is not None and runner.play(4).scores == reference.result.scores


@needs_runner
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_bundled_ruleset_is_played_by_the_compiled_runner(ruleset_id: str) -> None:
    runner = HandRunner(load(ruleset_id))
    assert runner.native is not None and runner.why_python is None


@needs_runner
@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(seed=st.integers(0, 2**64 - 1))
@settings(max_examples=12)
def test_the_compiled_runner_plays_the_python_loops_hand(ruleset_id: str, seed: int) -> None:
    """Same scores, same redeal, the same choice at every turn (so the same deal, auction,
    plays and passes), from the same seed and dealer."""
    assert runner_mismatches(ruleset_id, range(seed, seed + 1)) == []


@needs_runner
@pytest.mark.parametrize("ruleset_id", ["classic", "four-player", "two-player", "happy",
                                        "marked-card", "turned-card", "call-and-grab",
                                        "run-fast", "run-fast-15", "run-fast-45",
                                        *FIXTURE_VARIANTS])
def test_a_run_of_consecutive_seeds_finds_no_difference(ruleset_id: str) -> None:
    """Run Fast's hands among them: its duties, first leader, liability (run-fast-15 lets a
    seat out in about one hand in five) and cards-left settlement."""
    assert runner_mismatches(ruleset_id, range(300)) == []


@needs_runner
@pytest.mark.parametrize("ruleset_id", ["laizi", "laizi-two"])
def test_hands_with_wild_cards_find_no_difference(ruleset_id: str) -> None:
    """Turns where wild cards are in play are listed by Python (``wild_turn``) within the
    compiled hand: the wild ranks drawn (one after the auction, or one before and one
    after), soft bombs and wild plays to beat included."""
    assert runner_mismatches(ruleset_id, range(60)) == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_runners_hand_replays_into_the_reference_loops_hand(ruleset_id: str) -> None:
    """On either path: the choices rebuild the whole hand :func:`play_random` plays, record
    and result."""
    ruleset = load(ruleset_id)
    runner = HandRunner(ruleset)
    for seed in (3, 2**40 + 7):
        played = runner.play(seed, dealer=1)
        reference = play_random(ruleset, seed, dealer=1)
        replayed = played.replay(ruleset)
        assert replayed.log == reference.log
        assert reference.result is not None
        assert played.scores == reference.result.scores
        assert played.redeal == reference.result.redeal
        assert runner.scores(seed, 1) == (played.scores, played.redeal)


@pytest.mark.parametrize("seed", [-5, 2**64, 2**70 + 3])
def test_a_seed_outside_64_bits_is_played_in_python(seed: int) -> None:
    ruleset = load("classic")
    played = HandRunner(ruleset).play(seed)
    reference = play_random(ruleset, seed)
    assert reference.result is not None and played.scores == reference.result.scores
    assert played.replay(ruleset).log == reference.log


@needs_runner
def test_a_stake_past_64_bits_is_played_in_python() -> None:
    """A runner whose every play multiplies by 2**40 overflows on a hand's second play: it
    answers None, and :class:`HandRunner` plays that hand in Python (the true rules)."""
    ruleset = load("classic")
    runner = HandRunner(ruleset)
    table = compile_table(ruleset)
    arrays: dict[str, Any] = dict(runner_arrays(ruleset, table))
    arrays["play_factor"] = (2**40).to_bytes(8, "little") * len(table.by_id)
    huge = moves.Runner(lister=table.compiled(), teach=lambda cls: table._learn(
        table.compiled(), cls), wild_turn=None, facts=None, **arrays)
    seed = next(s for s in range(100) if not play_random(ruleset, s).result.redeal)
    assert huge.play(seed, 0) is None
    runner.native = huge
    reference = play_random(ruleset, seed)
    assert reference.result is not None
    assert runner.play(seed).scores == reference.result.scores


@needs_runner
def test_an_auction_too_large_to_flatten_is_played_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "MAX_AUCTION_STATES", 5)
    runner = HandRunner(load("open-auction"))
    assert runner.native is None
    assert runner.why_python is not None and "over 5 states" in runner.why_python
    reference = play_random(load("open-auction"), 9)
    assert reference.result is not None and runner.play(9).scores == reference.result.scores


# ---------------------------------------------------------------------------- bad input


def valid() -> dict[str, Any]:
    table = compile_table(load("two-player"))
    lister = table.compiled()
    return {"lister": lister, "teach": lambda cls: table._learn(lister, cls),
            "wild_turn": None, "facts": None, **runner_arrays(load("two-player"), table)}


def int32(values: list[int]) -> bytes:
    return b"".join(v.to_bytes(4, "little", signed=True) for v in values)


def changed(field: str, change: Callable[[Any], Any]) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        arrays = valid()
        arrays[field] = change(arrays[field])
        return arrays
    return make


@needs_runner
@pytest.mark.parametrize("make", [
    changed("first", lambda b: int32([7]) + b[4:]),
    changed("first", lambda b: b[:-4]),
    changed("deck", lambda b: bytes([40]) + b[1:]),
    changed("deck", lambda b: b[:20]),
    changed("deck", lambda b: bytes(5000)),
    changed("edge_child", lambda b: int32([10**6]) + b[4:]),
    changed("node_edges", lambda b: int32([3, 1]) + b[8:]),
    changed("roots", lambda b: int32([-1]) + b[4:]),
    changed("landlord", lambda b: int32([5]) + b[4:]),
    changed("factor", lambda b: bytes(8) + b[8:]),
    changed("play_key", lambda b: bytes(16) + b[16:]),
    changed("play_key", lambda b: b[:-16]),
    changed("calls", lambda b: int32([99])),
    changed("bonus_key", lambda b: bytes(16)),
    changed("players", lambda n: 1),
    changed("kitty", lambda n: 40),
    changed("cap", lambda n: -2),
    changed("teach", lambda f: 3),
    changed("priority", lambda b: int32([200])),
    changed("play_paid", lambda b: (-1).to_bytes(8, "little", signed=True) + b[8:]),
    changed("play_paid", lambda b: (2**50).to_bytes(8, "little") + b[8:]),
    changed("per_card", lambda n: -1),
    changed("shut_out", lambda n: 0),
    changed("last_only", lambda b: b[:-1]),
    changed("wild_pool", lambda b: bytes(range(22))),
    changed("wild_pool", lambda b: bytes([40])),
    changed("wild_before", lambda b: bytes(2)),
    lambda: {**valid(), "wild_pool": bytes([3]), "wild_before": bytes(1)},
    changed("lister", lambda f: object()),
], ids=["bidder-outside", "bidders-short", "rank-outside", "deck-too-short-to-deal",
        "deck-past-its-bound", "state-outside", "edges-backwards", "root-outside",
        "landlord-outside", "factor-zero", "play-without-cards", "plays-short",
        "call-outside", "bonus-without-amount", "one-player", "kitty-past-the-largest-hand",
        "cap-below-none", "teach-not-callable", "priority-outside", "payment-negative",
        "payment-past-its-bound", "per-card-negative", "shut-out-zero", "last-only-short",
        "wild-pool-past-its-bound", "wild-rank-outside", "more-drawn-than-the-pool",
        "drawn-without-wild-turn", "not-a-lister"])
def test_a_malformed_runner_is_refused_before_anything_is_played(
        make: Callable[[], dict[str, Any]]) -> None:
    with pytest.raises((ValueError, TypeError)):
        moves.Runner(**make())


@needs_runner
def test_an_auction_graph_with_a_cycle_is_refused_when_played() -> None:
    arrays = valid()
    arrays["node_edges"] = int32([0, 1])  # one state, its one word leading back to itself
    arrays["edge_child"] = int32([0])
    for field in ("landlord", "goal"):
        arrays[field] = int32([0])
    for field in ("base", "factor"):
        arrays[field] = (1).to_bytes(8, "little")
    arrays["roots"] = int32([0, 0])
    runner = moves.Runner(**arrays)
    with pytest.raises(ValueError, match="cycle"):
        runner.play(1, 0)


def laizi_runner(**changes: Any) -> Any:
    table = compile_table(load("laizi"))
    lister = moves.Lister(**lister_arrays(table))
    arrays: dict[str, Any] = {"lister": lister, "teach": lambda cls: table._learn(lister, cls),
                              **runner_arrays(load("laizi"), table)}
    wild_turn, facts = runner_module._wild_turns(load("laizi"), table)
    arrays.update(wild_turn=wild_turn, facts=facts)
    arrays.update(changes)
    return moves.Runner(**arrays)


@needs_runner
@pytest.mark.parametrize("changes", [
    {"wild_turn": lambda hand, previous, wild: ()},
    {"facts": lambda play: (play.key, -1, 0, 0)},
    {"facts": lambda play: (play.key, 10**9, 1, 0)},
    {"facts": lambda play: (0, -1, 1, 0)},
    {"facts": lambda play: (play.key,)},
    {"facts": lambda play: (2 << (5 * 13), -1, 1, 0)},  # two small jokers: never held
], ids=["listing-not-a-list", "multiplier-zero", "id-outside", "no-cards", "too-short",
        "cards-not-held"])
def test_wrong_answers_from_python_on_a_wild_turn_are_errors_not_crashes(
        changes: dict[str, Any]) -> None:
    runner = laizi_runner(**changes)
    with pytest.raises((TypeError, ValueError)):
        for seed in range(30):
            runner.play(seed, 0)


@needs_runner
def test_a_wild_turn_that_raises_propagates_its_error() -> None:
    def broken(hand: int, previous: object, wild: object) -> list[object]:
        raise KeyError("listing failed")
    runner = laizi_runner(wild_turn=broken)
    with pytest.raises(KeyError, match="listing failed"):
        for seed in range(30):
            runner.play(seed, 0)


@needs_runner
def test_a_first_leader_by_cards_none_of_them_dealt_is_refused_when_played() -> None:
    arrays = valid()
    arrays["priority"] = int32([35])  # two-player deals 34 of 46 cards: often not this one
    runner = moves.Runner(**arrays)
    refused = 0
    for seed in range(40):
        try:
            runner.play(seed, 0)
        except ValueError as exc:
            assert "no card of priority is dealt" in str(exc)
            refused += 1
    assert refused > 0


@needs_runner
@pytest.mark.parametrize("call", [
    lambda runner: runner.play(-1, 0),
    lambda runner: runner.play(2**64, 0),
    lambda runner: runner.play(1, 2),
    lambda runner: runner.play(1),
    lambda runner: runner.play("1", 0),
], ids=["negative-seed", "seed-past-64-bits", "dealer-outside", "no-dealer", "seed-not-an-int"])
def test_the_runner_refuses_a_call_it_cannot_read(call: Callable[[Any], Any]) -> None:
    runner = moves.Runner(**valid())
    with pytest.raises((TypeError, ValueError, OverflowError)):
        call(runner)


@needs_runner
def test_a_teacher_that_teaches_nothing_is_an_error_not_a_crash() -> None:
    arrays = valid()
    arrays["lister"] = moves.Lister(**lister_arrays(compile_table(load("two-player"))))
    arrays["teach"] = lambda cls: None  # a fresh lister, which knows no answers yet
    runner = moves.Runner(**arrays)
    with pytest.raises(RuntimeError, match="taught nothing"):
        for seed in range(50):
            runner.play(seed, 0)
