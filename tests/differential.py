"""The compiled move lister (``ddz_rules/_moves.c``) against the Python path, play for play.

Used by ``tests/test_moves.py``, ``tests/test_runner.py`` and ``tests/test_env_vector.py`` and,
under AddressSanitizer and UndefinedBehaviorSanitizer, by ``test_moves``'s sanitizer run,
which copies this file beside a sanitized build; so it imports only ``ddz_rules``, the
standard library and (for the stepped tables) NumPy.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ddz_rules import cards
from ddz_rules.table import PlayTable, _plays_within

if TYPE_CHECKING:
    from ddz_rules.env.vector import VectorTables


def random_hand(table: PlayTable, rng: random.Random, size: int) -> int:
    """A hand of ``size`` cards drawn from the ruleset's deck."""
    deck = [rank for rank, copies in enumerate(table.ruleset.copies) for _ in range(copies)]
    return cards.pack_ranks(rng.sample(deck, min(size, len(deck))))


def mismatches(table: PlayTable, hand: int, previous: int) -> list[str]:
    """Every way the compiled lister's leads and answers of ``hand`` (answering the play of
    id ``previous``) differ from the Python path's: plays, order and ids."""
    lister = table.compiled()
    assert lister is not None, "no compiled lister to compare"
    ids = table._ids
    found: list[str] = []
    python_leads = _plays_within(table._index, hand)
    if lister.leads(hand) != python_leads:
        found.append(f"leads of {cards.key_text(hand)}")
    if lister.lead_ids(hand) != [ids[p] for p in python_leads]:
        found.append(f"lead ids of {cards.key_text(hand)}")
    reading = table.by_id[previous].reading
    python_answers = table._python_answers(hand, reading)
    if table.answers(hand, reading) != python_answers:
        found.append(f"answers of {cards.key_text(hand)} to {reading.short()}")
    if table.answer_ids(hand, previous) != [ids[p] for p in python_answers]:
        found.append(f"answer ids of {cards.key_text(hand)} to {reading.short()}")
    return found


def sweep(table: PlayTable, seed: int, count: int) -> list[str]:
    """:func:`mismatches` over ``count`` seeded hands of every size up to the largest."""
    rng = random.Random(seed)
    found: list[str] = []
    for i in range(count):
        hand = random_hand(table, rng, i % (table.ruleset.max_hand + 1))
        found += mismatches(table, hand, rng.randrange(len(table.by_id)))
    return found


def runner_mismatches(ruleset_id: str, seeds: range) -> list[str]:
    """Every hand of ``seeds`` (dealt by each seat in turn) that the compiled hand runner
    plays otherwise than the Python loop: scores, redeal or a single choice."""
    from ddz_rules import load
    from ddz_rules.runner import HandRunner, _play_in_python

    ruleset = load(ruleset_id)
    runner = HandRunner(ruleset)
    assert runner.native is not None, f"{ruleset_id} is played in Python: {runner.why_python}"
    found: list[str] = []
    for seed in seeds:
        dealer = seed % ruleset.players
        played = runner.play(seed, dealer)
        hand, choices = _play_in_python(ruleset, seed, dealer)
        assert hand.result is not None
        if (played.scores, played.redeal, list(played.choices)) != (
                hand.result.scores, hand.result.redeal, choices):
            found.append(f"{ruleset_id} seed {seed} dealer {dealer}")
    return found


def same_steps(a: VectorTables, b: VectorTables, steps: int, seed: int) -> int:
    """Step ``a`` and ``b`` (the compiled stepper and its Python twin) with the same random
    legal actions, asserting that every output is equal; the hands that ended."""
    import numpy as np

    obs_a, (off_a, ids_a) = a.reset()
    obs_b, (off_b, ids_b) = b.reset()
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        assert np.array_equal(obs_a, obs_b)
        assert np.array_equal(off_a, off_b) and np.array_equal(ids_a, ids_b)
        assert np.array_equal(a.to_act, b.to_act)
        pick = ids_a[off_a[:-1] + (rng.random(a.n) * np.diff(off_a)).astype(np.int64)]
        obs_a, (off_a, ids_a), rewards_a, done_a, info_a = a.step(pick)
        obs_b, (off_b, ids_b), rewards_b, done_b, info_b = b.step(pick)
        assert np.array_equal(rewards_a, rewards_b) and np.array_equal(done_a, done_b)
        for key in ("to_act", "truncated", "scores", "thrown_in"):
            assert np.array_equal(info_a[key], info_b[key])
        ended += int(done_a.sum())
    return ended
