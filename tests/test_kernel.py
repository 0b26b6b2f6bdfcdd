"""The play table's optional compiled kernel (``ddz_rules/_kernel.c``): built where a C compiler
is, and listing exactly the plays the Python path lists, in the same order, so that nothing a
bot or a record sees depends on whether it was built."""

from __future__ import annotations

import os
import random
import shutil
import sysconfig

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import cards, compile_table, load
from ddz_rules import table as table_module
from ddz_rules.table import Play, PlayTable

LAIZI = compile_table(load("laizi"))
TWO = compile_table(load("laizi-two"))
kernel = table_module._kernel


def compiler() -> str | None:
    """The C compiler Python was built with, where this machine has it."""
    cc = (sysconfig.get_config_var("CC") or "").split()
    return shutil.which(cc[0]) if cc else None


needs_kernel = pytest.mark.skipif(kernel is None, reason="the compiled kernel was not built: "
                                  "test_the_kernel_is_built_where_a_compiler_is says why")


def test_the_kernel_is_built_where_a_compiler_is() -> None:
    """An install on a machine with a C compiler builds the kernel (hatch_build.py), unless
    DDZ_PURE_PYTHON asks it not to: a build that failed silently would fail here."""
    if os.environ.get("DDZ_PURE_PYTHON") or compiler() is None:
        pytest.skip("no C compiler here, or DDZ_PURE_PYTHON set: the Python path serves")
    assert kernel is not None, "a C compiler is here, yet ddz_rules._kernel was not built"


def plays_both_ways(table: PlayTable, hand: int,
                    wild: tuple[int, ...]) -> tuple[list[Play], list[Play]]:
    """The leads of ``hand`` with the kernel, then with the Python path."""
    compiled = table.leads(hand, wild)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "_kernel", None)
        python = table.leads(hand, wild)
    return compiled, python


@needs_kernel
@pytest.mark.parametrize("table", [LAIZI, TWO], ids=["laizi", "laizi-two"])
@given(seed=st.integers(0, 2**32 - 1), held=st.integers(0, 8), size=st.integers(1, 20))
@settings(max_examples=40, deadline=None)
def test_the_kernel_lists_the_python_paths_plays_in_the_same_order(
        table: PlayTable, seed: int, held: int, size: int) -> None:
    rng = random.Random(seed)
    wild = tuple(rng.sample(table.ruleset.wild_ranks, len(table.ruleset.wild_drawn)))
    wild_cards = [r for r in wild for _ in range(table.ruleset.copies[r])]
    others = [r for r, n in enumerate(table.ruleset.copies) for _ in range(n) if r not in wild]
    held = min(held, len(wild_cards), size)
    hand = cards.pack_ranks(rng.sample(wild_cards, held) + rng.sample(others, size - held))
    compiled, python = plays_both_ways(table, hand, wild)
    assert compiled == python
    assert all(type(p) is Play for p in compiled)


@needs_kernel
def test_the_kernel_lists_the_plays_of_a_hand_holding_every_wild_as_python_does() -> None:
    """A 20-card hand holding all four wild 5s: thousands of plays, every kind of body."""
    hand = cards.pack_ranks([cards.RANK_INDEX[c] for c in "333555577789TTJQK2BR"])
    compiled, python = plays_both_ways(LAIZI, hand, (cards.RANK_INDEX["5"],))
    assert len(compiled) > 1000
    assert compiled == python


@needs_kernel
def test_a_kicker_set_without_a_reading_leaves_the_list_as_it_was() -> None:
    """The kernel raises KeyError for a kicker set the body has not read yet (the table
    learns it and asks again), taking back what it had appended in that call."""
    assert kernel is not None
    out: list[Play] = [Play(1, None)]  # type: ignore[arg-type]
    keys = [1 << 5, 1 << 10]
    with pytest.raises(KeyError):
        kernel.kicker_plays(Play, [0], 3 << 5 | 3 << 10, -1 & ((1 << 75) - 1), cards.GUARD,
                            keys, kernel.pack(keys), {1 << 5: "first"}, out)
    assert out == [Play(1, None)]  # type: ignore[arg-type]


@needs_kernel
def test_the_kernel_skips_kicker_sets_the_fill_leaves_too_few_cards_for() -> None:
    assert kernel is not None
    out: list[Play] = []
    keys = [1 << 5, 2 << 5, 1 << 10]  # one 4, two 4s, one 5 (rank fields 1 and 2)
    readings = {k: f"r{k}" for k in keys}
    fields = (31 << 5) | (31 << 10)
    kernel.kicker_plays(Play, [1 << 5, 0], (2 << 5) | (1 << 10), fields, cards.GUARD, keys,
                        kernel.pack(keys), readings, out)
    # the first fill takes a 4, leaving one 4 and one 5; the second leaves both 4s and the 5
    assert [tuple(p) for p in out] == [
        ((1 << 5) + (1 << 5), "r32"), ((1 << 5) + (1 << 10), "r1024"),
        (1 << 5, "r32"), (2 << 5, "r64"), (1 << 10, "r1024")]


@needs_kernel
@pytest.mark.parametrize("call", [
    lambda k: k.kicker_plays(Play, [0], 0, 0, 0, [0], b"", {}, []),
    lambda k: k.kicker_plays(Play, [0], -1, 0, 0, [], b"", {}, []),
    lambda k: k.kicker_plays(Play, [0], 1 << 130, 0, 0, [], b"", {}, []),
    lambda k: k.kicker_plays(dict, [0], 0, 0, 0, [], b"", {}, []),
    lambda k: k.kicker_plays(Play, [0], 0, 0, 0, [], b""),
    lambda k: k.pack(["3"]),
    lambda k: k.plain_plays(Play, (0,), None, []),
], ids=["packed-not-of-keys", "negative", "too-wide", "not-a-tuple-type", "too-few-arguments",
        "not-an-int", "not-a-list"])
def test_the_kernel_refuses_what_it_cannot_read(call: object) -> None:
    with pytest.raises((TypeError, ValueError, OverflowError)):
        call(kernel)  # type: ignore[operator]
