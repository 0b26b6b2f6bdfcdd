"""The compiled move lister (``ddz_rules/_moves.c``): the same leads and answers as the
Python path, in the same order and with the same ids, for every bundled ruleset; bounded and
refusing on bad input; clean under AddressSanitizer and UndefinedBehaviorSanitizer."""

from __future__ import annotations

import dataclasses
import gc
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import weakref
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import IllegalPlayError, UsageError, cards, compile_table, load
from ddz_rules import table as table_module
from ddz_rules.table import (
    NATIVE_AFTER,
    Play,
    PlayTable,
    Reading,
    _plays_within,
    lister_arrays,
    table_order,
)

from .conftest import RULESETS
from .differential import mismatches, random_hand, sweep

ROOT = Path(__file__).resolve().parents[1]
moves = table_module._moves
needs_lister = pytest.mark.skipif(
    moves is None, reason="the compiled lister is not built, or is switched off (DDZ_PURE_PYTHON): "
    "test_the_lister_is_built_where_a_compiler_is says which")


def compiler() -> str | None:
    """The C compiler Python was built with, where this machine has it."""
    cc = (sysconfig.get_config_var("CC") or "").split()
    return shutil.which(cc[0]) if cc else None


def test_the_lister_is_built_where_a_compiler_is() -> None:
    """An install on a machine with a C compiler builds the lister with warnings as errors
    (hatch_build.py), unless DDZ_PURE_PYTHON asks it not to: a build that failed, a warning
    included, would fail here."""
    if os.environ.get("DDZ_PURE_PYTHON") or compiler() is None:
        pytest.skip("no C compiler here, or DDZ_PURE_PYTHON set: the Python path serves")
    assert moves is not None, "a C compiler is here, yet ddz_rules._moves was not built"


# ---------------------------------------------------------------------------- the same plays


@needs_lister
@pytest.mark.parametrize("ruleset_id", RULESETS)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(0, 25), previous=st.integers(0, 10**6))
@settings(max_examples=15)
def test_the_lister_lists_the_python_paths_plays_in_the_same_order(
        ruleset_id: str, seed: int, size: int, previous: int) -> None:
    table = compile_table(load(ruleset_id))
    hand = random_hand(table, random.Random(seed), min(size, table.ruleset.max_hand))
    assert mismatches(table, hand, previous % len(table.by_id)) == []


@needs_lister
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_sweep_of_every_hand_size_finds_no_difference(ruleset_id: str) -> None:
    """Hands of 0 to the largest size in turn, each answering a random play of the table."""
    assert sweep(compile_table(load(ruleset_id)), seed=11, count=150) == []


@needs_lister
def test_a_whole_deck_lists_every_play_of_the_table() -> None:
    """Leading from the whole deck (past any seat's hand, so asked of the lister itself)
    lists each play of the table once: the walks visit every body."""
    table = compile_table(load("four-player"))
    lister = table.compiled()
    assert lister is not None
    deck = table.ruleset.deck_key
    arrays = lister_arrays(table)
    arrays["max_hand"] = cards.size(deck)
    whole = moves.Lister(**arrays)
    assert sorted(whole.lead_ids(deck)) == list(range(len(table.by_id)))


@needs_lister
def test_answers_to_a_reading_no_natural_body_has_take_the_python_path() -> None:
    """Laizi's soft bomb is made only with wild cards: a hand of natural cards answering it
    is listed in Python, and the lister is not asked."""
    table = compile_table(load("laizi"))
    assert table.compiled() is not None
    soft = Reading("soft_bomb", 1, cards.RANK_INDEX["7"], 0, 1)
    assert table._class_of(soft) == -1
    hand = table.key_of("3888899992")
    assert table.answers(hand, soft) == table._python_answers(hand, soft)
    assert [p.cards for p in table.answers(hand, soft)] == ["8888", "9999"]


@needs_lister
def test_a_reading_equal_to_the_tables_but_another_object_gets_the_same_answers() -> None:
    """The lister finds a reading's class by the reading object's address, which only the
    table's own readings have; an equal reading made elsewhere takes the slower lookup."""
    table = compile_table(load("classic"))
    lister = table.compiled()
    assert lister is not None
    own = table.by_id[table.id_of(table.play("5"))].reading
    other = dataclasses.replace(own)
    assert other == own and other is not own
    hand = table.key_of("3346778899TJ")
    expected = table._python_answers(hand, own)
    assert table.answers(hand, own) == expected  # learns the class
    assert lister.answers_to(hand, own) == expected
    assert lister.answers_to(hand, other) is None
    assert table.answers(hand, other) == expected
    assert lister.answers_to(table.ruleset.deck_key, own) is None  # past the largest hand


def test_the_table_builds_its_lister_after_a_number_of_listings() -> None:
    """A one-off listing does not pay for flattening the table; the NATIVE_AFTER-th does."""
    table = PlayTable(load("two-player"))
    hand = table.key_of("56789TJQK")
    for _ in range(NATIVE_AFTER - 1):
        table.leads(hand)
    assert table._lister is None
    table.leads(hand)
    assert (table._lister is not None) == (moves is not None)


def test_a_table_too_large_to_enumerate_is_never_flattened() -> None:
    """Flattening needs the whole table: one past MAX_READINGS keeps the Python path, which
    enumerates only within each hand, and the lister allocates nothing."""
    table = PlayTable(load(str(ROOT / "tests" / "fixtures" / "hostile" / "rulesets"
                               / "two-decks-loose.yaml")))
    assert table.compiled() is None
    assert "plays" not in table.__dict__
    hand = random_hand(table, random.Random(1), table.ruleset.max_hand)
    assert table.leads(hand) == table_module._plays_within(table._index, hand)
    assert "plays" not in table.__dict__


# ---------------------------------------------------------------------------- ids


def test_ids_number_the_tables_plays_with_their_readings_in_table_order(
        table: PlayTable) -> None:
    keys = [play.key for play in table.by_id]
    assert keys == sorted(keys, key=table_order)
    assert len(table.by_id) == sum(len(readings) for readings in table.plays.values())
    assert all(table.id_of(play) == i for i, play in enumerate(table.by_id))


@pytest.mark.parametrize("native", [True, False], ids=["lister", "python"])
def test_lead_and_answer_ids_are_the_ids_of_the_plays_listed(native: bool) -> None:
    table = PlayTable(load("classic"))
    with pytest.MonkeyPatch.context() as patch:
        if not native:
            patch.setattr(table_module, "_moves", None)
        table.compiled()
        hand = table.key_of("33334445678TJQKA2R")
        trio = table.id_of(table.play("555K"))
        assert [table.by_id[i] for i in table.lead_ids(hand)] == table.leads(hand)
        answers = table.answers(hand, table.by_id[trio].reading)
        assert [table.by_id[i] for i in table.answer_ids(hand, trio)] == answers
        assert "3333" in {p.cards for p in answers}
        assert all(p.reading.beats(table.by_id[trio].reading) for p in answers)


@pytest.mark.parametrize("native", [True, False], ids=["lister", "python"])
def test_a_hand_larger_than_a_seat_holds_is_refused_in_one_line(native: bool) -> None:
    table = PlayTable(load("classic"))
    with pytest.MonkeyPatch.context() as patch:
        if not native:
            patch.setattr(table_module, "_moves", None)
        table.compiled()
        hand = table.key_of("33334444555566667777")  # 20 cards: the landlord's most
        table.leads(hand)
        too_many = hand + table.key_of("8")
        five = table.id_of(table.play("5"))
        for call in (lambda: table.leads(too_many), lambda: table.lead_ids(too_many),
                     lambda: table.answers(too_many, table.by_id[five].reading),
                     lambda: table.answer_ids(too_many, five)):
            with pytest.raises(UsageError, match=r"^a hand holds at most 20 cards under "
                                                 r"classic; got 21$"):
                call()


@pytest.mark.parametrize("native", [True, False], ids=["lister", "python"])
@pytest.mark.parametrize("previous", [-1, 24_639, 10**9])
def test_an_id_outside_the_table_is_refused_in_one_line(previous: int, native: bool) -> None:
    table = PlayTable(load("classic"))
    with pytest.MonkeyPatch.context() as patch:
        if not native:
            patch.setattr(table_module, "_moves", None)
        table.compiled()
        with pytest.raises(UsageError, match=f"^no play has id {previous} under classic; ids "
                                             "run from 0 to 24638$"):
            table.answer_ids(table.key_of("345"), previous)


def test_a_play_with_wild_cards_has_no_id() -> None:
    table = compile_table(load("laizi"))
    wild = (cards.RANK_INDEX["5"],)
    play = table.play("35@pair/1/3", wild)
    with pytest.raises(IllegalPlayError, match="has no id"):
        table.id_of(play)


# ---------------------------------------------------------------------------- served


LISTINGS = ("leads", "lead_ids", "answers", "answer_ids")


@needs_lister
def test_a_compiled_table_lists_through_its_lister_with_its_own_methods_behind() -> None:
    """Once compiled, the table's four listing methods are the lister's (no Python frame a
    call), each with the class's method as its fallback, and they list the same."""
    table = PlayTable(load("classic"))
    table.compiled()
    for name in LISTINGS:
        served = getattr(table, name)
        assert isinstance(served, moves.Served)
        assert served.fallback == getattr(PlayTable, name).__get__(table)
    hand = table.key_of("33344456789TJQKA2B")
    trio = table.id_of(table.play("555K"))
    reading = table.by_id[trio].reading
    assert table.leads(hand) == PlayTable.leads(table, hand) == _plays_within(table._index,
                                                                              hand)
    assert table.lead_ids(hand) == PlayTable.lead_ids(table, hand)
    assert table.answers(hand, reading) == PlayTable.answers(table, hand, reading)
    assert table.answer_ids(hand, trio) == PlayTable.answer_ids(table, hand, trio)
    assert table.leads(hand) is not table.leads(hand)  # a new list each call


@needs_lister
def test_what_the_lister_cannot_list_is_left_to_the_tables_own_methods() -> None:
    """Wild cards held, a keyword, a reading that is not the table's own object: each goes
    to the class's method, and the plays are those of a table that was never compiled."""
    served, python = PlayTable(load("laizi")), PlayTable(load("laizi"))
    served.compiled()
    wild = (cards.RANK_INDEX["5"],)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "_moves", None)
        for hand_text in ("3345556", "33445566778899TT", "3456789TJQKA2BR"):
            hand = served.key_of(hand_text)
            pair = served.play("44").reading
            twin = dataclasses.replace(pair)  # equal, but not the table's own object
            assert twin is not pair
            assert served.leads(hand, wild) == python.leads(hand, wild)
            assert served.leads(hand, wild=wild) == python.leads(hand, wild)
            assert served.leads(hand, ()) == python.leads(hand)
            assert served.answers(hand, pair, wild) == python.answers(hand, pair, wild)
            assert served.answers(hand, twin) == python.answers(hand, pair)
            assert served.answers(hand, pair, list(wild)) == python.answers(hand, pair, wild)


@needs_lister
@pytest.mark.parametrize("call", [
    lambda lister, hand: lister.answer_ids(hand, 10**6),
    lambda lister, hand: lister.answer_ids(hand, -1),
    lambda lister, hand: lister.leads(hand, (cards.RANK_INDEX["3"],)),
    lambda lister, hand: lister.leads(hand, [0]),
    lambda lister, hand: lister.leads(hand, ("3",)),
    lambda lister, hand: lister.answers_to(hand, lister.leads(hand)[0].reading, (0,)),
    lambda lister, hand: lister.lead_ids(hand * 6),  # 24 cards
], ids=["play-outside", "play-negative", "wild-held", "wild-not-a-tuple", "wild-not-a-rank",
        "answer-wild-held", "too-many-cards"])
def test_the_lister_gives_none_for_what_python_must_list_or_refuse(
        call: Callable[[object, int], object]) -> None:
    table = compile_table(load("classic"))
    lister = table.compiled()
    assert call(lister, table.key_of("3345")) is None


@needs_lister
def test_a_subclass_of_the_table_keeps_its_own_methods_behind_the_lister() -> None:
    """What the lister leaves to Python goes to the subclass's override, not PlayTable's."""
    asked: list[int] = []

    class Watched(PlayTable):
        def leads(self, hand: int, wild: tuple[int, ...] = ()) -> list[Play]:
            asked.append(hand)
            return super().leads(hand, wild)

    table = Watched(load("laizi"))
    table.compiled()
    natural, holding = table.key_of("3344"), table.key_of("3355")
    table.leads(natural, (cards.RANK_INDEX["5"],))  # served by the lister
    assert asked == []
    wild_leads = table.leads(holding, (cards.RANK_INDEX["5"],))  # the wild path: Python's
    assert asked == [holding]
    assert wild_leads == PlayTable(load("laizi")).leads(holding, (cards.RANK_INDEX["5"],))


@needs_lister
def test_a_served_table_is_freed_once_unreferenced() -> None:
    """A table and its served methods refer to each other; the collector frees them."""
    table = PlayTable(load("two-player"))
    table.compiled()
    gone = weakref.ref(table)
    del table
    gc.collect()
    assert gone() is None


@needs_lister
def test_served_takes_two_callables() -> None:
    with pytest.raises(TypeError, match="two callables"):
        moves.Served(1, print)
    with pytest.raises(TypeError):
        moves.Served(print)


# ---------------------------------------------------------------------------- bad input


def valid_arrays() -> dict[str, object]:
    return dict(lister_arrays(compile_table(load("two-player"))))


def int32(values: list[int]) -> bytes:
    return b"".join(v.to_bytes(4, "little", signed=True) for v in values)


def corrupt(field: str, change: Callable[[bytes], bytes]) -> dict[str, object]:
    arrays = valid_arrays()
    value = arrays[field]
    assert isinstance(value, bytes)
    arrays[field] = change(value)
    return arrays


@needs_lister
@pytest.mark.parametrize("arrays", [
    corrupt("body_play", lambda b: int32([10**6]) + b[4:]),
    corrupt("body_play", lambda b: b[:-4]),
    corrupt("body_kicks", lambda b: b[:4] + int32([-5]) + b[8:]),
    corrupt("kick_ids", lambda b: int32([-1]) + b[4:]),
    corrupt("lead_bodies", lambda b: int32([10**6]) + b[4:]),
    corrupt("lead_skip", lambda b: int32([0]) + b[4:]),
    corrupt("lead_bodies", lambda b: b[4:8] + b[4:]),
    corrupt("answer_skip", lambda b: b[:-4] + int32([10**6])),
    corrupt("slots", lambda b: int32([1]) + b[4:]),
    corrupt("slots", lambda b: b[:-4]),
    corrupt("keys", lambda b: b[:-1]),
    corrupt("keys", lambda b: (1 << 4).to_bytes(16, "little") + b[16:]),
    corrupt("kick_keys", lambda b: (1 << 127).to_bytes(16, "little") + b[16:]),
    corrupt("play_class", lambda b: int32([-1]) + b[4:]),
    {**valid_arrays(), "bits": 9},
    {**valid_arrays(), "plays": list(compile_table(load("two-player")).by_id)},
], ids=["play-id-outside", "play-ids-short", "kicker-offset-negative", "kicker-id-negative",
        "body-outside", "skip-backwards", "body-visited-twice", "skip-past-the-end",
        "slots-not-from-zero", "slots-short", "keys-ragged", "key-with-a-guard-bit",
        "kicker-wider-than-the-deck", "class-outside", "fields-wider-than-128-bits",
        "plays-not-a-tuple"])
def test_a_malformed_table_is_refused_before_anything_is_listed(
        arrays: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        moves.Lister(**arrays)


@needs_lister
@pytest.mark.parametrize("call", [
    lambda lister: lister.leads(-1),
    lambda lister: lister.leads(1 << 100),
    lambda lister: lister.leads(1 << 130),
    lambda lister: lister.leads(cards.GUARD),
    lambda lister: lister.lead_ids("345"),
    lambda lister: lister.answers(0, -1),
    lambda lister: lister.answers(0, 10**6),
    lambda lister: lister.answer_ids(0),
    lambda lister: lister.answers_to(0),
    lambda lister: lister.learn(0, b"\x01"),
    lambda lister: lister.learn(10**6, b""),
], ids=["negative", "past-the-ranks", "too-wide", "guard-bits", "not-an-int",
        "class-negative", "class-outside", "too-few-arguments",
        "answers-to-without-a-reading",
        "mask-short", "learn-class-outside"])
def test_the_lister_refuses_what_it_cannot_read(call: Callable[[object], object]) -> None:
    lister = compile_table(load("two-player")).compiled()
    with pytest.raises((TypeError, ValueError, OverflowError)):
        call(lister)


@needs_lister
def test_a_hand_past_the_largest_makes_the_lister_answer_none() -> None:
    """The lister counts the cards before listing, so the table can refuse in its words."""
    table = compile_table(load("two-player"))
    lister = table.compiled()
    assert lister is not None
    assert lister.leads(table.ruleset.deck_key) is None


# ---------------------------------------------------------------------------- sanitizers

SANITIZE = ["-shared", "-fPIC", "-O1", "-g", "-fno-omit-frame-pointer",
            "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-Wall", "-Wextra", "-Werror"]
#: One ruleset of each shape of table (compiling every one under the sanitizers takes over a
#: minute, most of it in Python): one deck, two decks, suits and the largest table, several
#: readings per play, wild cards (the kernel), chains capped in length.
SANITIZED_RULESETS = ("classic", "four-player", "run-fast", "marked-card", "laizi",
                      "turned-card")
SANITIZED_RUN = """
import random, sys
import ddz_rules
from ddz_rules import cards, compile_table, load
from ddz_rules import table as table_module
from differential import runner_mismatches, sweep
here = sys.argv[1]
assert table_module._moves.__file__.startswith(here), table_module._moves.__file__
assert table_module._kernel.__file__.startswith(here), table_module._kernel.__file__
for ruleset_id in sys.argv[3].split(","):
    found = sweep(compile_table(load(ruleset_id)), seed=3, count=int(sys.argv[2]))
    assert not found, (ruleset_id, found[:3])
laizi = compile_table(load("laizi"))
laizi.compiled()  # its listings served by the lister, wild hands falling back on Python
rng = random.Random(5)
deck = [r for r, n in enumerate(laizi.ruleset.copies) for _ in range(n)]
for _ in range(int(sys.argv[2])):
    hand = cards.pack_ranks(rng.sample(deck, rng.randrange(1, 21)))
    wild = (rng.randrange(13),)
    compiled = laizi.leads(hand, wild)
    kernel, table_module._kernel = table_module._kernel, None
    assert laizi.leads(hand, wild) == compiled
    table_module._kernel = kernel
for ruleset_id in ("classic", "four-player", "two-player", "happy", "marked-card",
                   "turned-card", "call-and-grab", "run-fast", "run-fast-15", "laizi",
                   "laizi-two"):
    found = runner_mismatches(ruleset_id, range(int(sys.argv[2])))
    assert not found, found[:3]
from ddz_rules.env.vector import VectorTables
from differential import same_steps
for ruleset_id, history in (("classic", 2), ("four-player", 0), ("laizi", 1), ("run-fast", 1)):
    stepped = VectorTables(ruleset_id, 4, seed=11, history=history, reward="stake")
    assert stepped.native is not None, stepped.why_python
    twin = VectorTables(ruleset_id, 4, seed=11, history=history, reward="stake", native=False)
    assert same_steps(stepped, twin, 3 * int(sys.argv[2]), seed=2) > 0
from ddz_rules import _split, split
assert _split.__file__.startswith(here), _split.__file__
for deck in (laizi.ruleset.copies, load("four-player").copies):
    ranks = [r for r, n in enumerate(deck) for _ in range(n)]
    for _ in range(100 * int(sys.argv[2])):
        hand = cards.pack_ranks(rng.sample(ranks, rng.randrange(0, 34)))
        held = cards.ranks_of(hand)
        plays = [cards.pack_ranks(rng.sample(held, min(k, len(held)))) for k in range(3)]
        assert _split.moves_after(hand, plays) == split.python_moves_after(hand, plays)
print("sanitized sweep passed")
"""


@pytest.mark.skipif(compiler() is None or not sys.platform.startswith("linux")
                    or bool(os.environ.get("DDZ_PURE_PYTHON")),
                    reason="needs the C compiler Python was built with, on Linux, and the "
                    "compiled modules not switched off (DDZ_PURE_PYTHON)")
def test_the_compiled_modules_pass_the_differential_sweep_under_asan_and_ubsan(
        tmp_path: Path) -> None:
    """The compiled modules, rebuilt with AddressSanitizer and UndefinedBehaviorSanitizer
    (aborting on the first finding) into a copy of the package, list every bundled ruleset's
    sweep as the Python path does, the hand runner plays the Python loop's hands under each
    auction family, a called partner, dealt-hand bonuses, Run Fast and wild cards, the
    stepped tables play as their Python twin (one deck and two, wild cards, Run Fast, with
    history), and the bots' split counts as the Python split on hands of one deck and two."""
    cc = compiler()
    assert cc is not None
    asan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True,
                          text=True, check=True).stdout.strip()
    if not os.path.isabs(asan):
        pytest.skip(f"{cc} has no AddressSanitizer runtime here")
    package = tmp_path / "ddz_rules"
    shutil.copytree(ROOT / "ddz_rules", package,
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for folder in ("rules", "variants"):  # the bundled rulesets, found beside the package
        shutil.copytree(ROOT / folder, tmp_path / folder)
    shutil.copy(ROOT / "tests" / "differential.py", tmp_path)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    include = sysconfig.get_paths()["include"]
    for name in ("_moves", "_kernel", "_split"):
        subprocess.run([cc, *SANITIZE, "-I", include, str(package / f"{name}.c"), "-o",
                        str(package / f"{name}{suffix}")], check=True)
    env = {**os.environ, "LD_PRELOAD": asan, "ASAN_OPTIONS": "detect_leaks=0",
           "UBSAN_OPTIONS": "print_stacktrace=1", "PYTHONMALLOC": "malloc",
           "PYTHONPATH": str(tmp_path)}
    env.pop("DDZ_PURE_PYTHON", None)
    run = subprocess.run([sys.executable, "-c", SANITIZED_RUN, str(tmp_path), "40",
                          ",".join(SANITIZED_RULESETS)],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "sanitized sweep passed" in run.stdout


def test_an_install_without_a_c_compiler_works_and_says_so(tmp_path: Path) -> None:
    """A wheel built where the C compiler is missing carries no compiled module; installed,
    it lists plays in Python, and ``ddz --version`` and the build's warning say so."""
    env = {**os.environ, "CC": str(tmp_path / "no-such-cc")}
    env.pop("DDZ_PURE_PYTHON", None)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w",
                            str(tmp_path / "wheel"), str(ROOT)], env=env, capture_output=True,
                           text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    assert "ddz-rules: the compiled modules were not built" in build.stdout + build.stderr
    (wheel,) = (tmp_path / "wheel").glob("ddz_rules-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")  # nothing compiled inside
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(tmp_path / "site"), str(wheel)], env=env, check=True)
    script = ("import ddz_rules, sys; from ddz_rules import compile_table, load; "
              "from ddz_rules.cli import main; "
              "assert ddz_rules.__file__.startswith(sys.argv[1]), ddz_rules.__file__; "
              "t = compile_table(load('classic')); "
              "print(len(t.leads(t.key_of('33344456789TJQKA2R')))); main(['--version'])")
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path / "site")],
                         cwd=tmp_path, env={**env, "PYTHONPATH": str(tmp_path / "site")},
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    *_, count, version = run.stdout.splitlines()
    assert int(count) > 100
    assert version.startswith("ddz-rules 0.1.0; plays listed by Python (the compiled modules "
                              "were not built")

