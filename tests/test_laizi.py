"""Wild cards (laizi): readings only the player can name, and the invariants that still hold.

``laizi`` draws one wild rank a hand after the auction, ``laizi-two`` a sky rank at the deal and
an earth rank after the auction. Each test is named after the rule clause it proves; the
exhaustive checks run where the space allows (every sub-multiset of a small hand), the
property checks where it does not (Hypothesis over hands and wild ranks).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import cards, compile_table, load
from ddz_rules.cards import RANK_INDEX
from ddz_rules.cli import main
from ddz_rules.errors import RecordError, RulesetError
from ddz_rules.game import Hand, Phase
from ddz_rules.play.session import stand_ins as session_stand_ins
from ddz_rules.records import replay, to_record
from ddz_rules.reports import check_report
from ddz_rules.ruleset import CombinationType, Ruleset
from ddz_rules.simulate import play_random
from ddz_rules.table import Play, PlayTable, Reading
from ddz_rules.wilds import StandIn, stand_ins

LAIZI = compile_table(load("laizi"))
TWO = compile_table(load("laizi-two"))
SUITED = tuple(range(13))


def wild(text: str) -> tuple[int, ...]:
    return tuple(RANK_INDEX[c] for c in text)


def shorts(table: PlayTable, text: str, wild_text: str) -> list[str]:
    return sorted({r.short() for r in table.readings(table.key_of(text), wild(wild_text))})


def sub_multisets(key: int) -> Iterator[int]:
    """Every non-empty sub-multiset of a packed card set."""
    counts = cards.unpack(key)
    held = [(r, n) for r, n in enumerate(counts) if n]
    for taken in itertools.product(*(range(n + 1) for _, n in held)):
        sub = sum(t << (cards.FIELD_BITS * r) for (r, _), t in zip(held, taken, strict=True))
        if sub:
            yield sub


# ---------------------------------------------------------------------------- what a wild is


def test_a_wild_stands_for_a_missing_card_of_a_straight() -> None:
    assert shorts(LAIZI, "34572", "2") == ["straight/5/7"]


def test_a_soft_bomb_is_three_natural_cards_and_a_wild() -> None:
    assert shorts(LAIZI, "3335", "5") == ["soft_bomb/1/3", "trio_single/1/3"]


def test_four_natural_cards_are_a_hard_bomb_and_four_wilds_the_wild_bomb() -> None:
    assert shorts(LAIZI, "3333", "5") == ["bomb/1/3"]
    assert "wild_bomb/1/5" in shorts(LAIZI, "5555", "5")
    assert not any(s.startswith(("bomb/", "soft_bomb/")) for s in shorts(LAIZI, "5555", "5"))


def test_a_wild_alone_is_a_card_of_its_own_rank() -> None:
    assert shorts(LAIZI, "5", "5") == ["single/1/5"]


def test_a_wild_never_stands_for_a_joker() -> None:
    assert shorts(LAIZI, "5B", "5") == []
    assert "rocket/1/R" not in shorts(LAIZI, "55", "5")


def test_a_wild_kicker_is_of_its_own_rank_where_the_kicker_rules_allow_it() -> None:
    """333 carrying the wild 5 as a single: the kicker is the 5, played as a 5."""
    w = wild("5")
    play = LAIZI.play("3335@trio_single/1/3", w)
    assert play.reading.kickers == "5"
    assert stand_ins(LAIZI.ruleset, play, w) == (StandIn(RANK_INDEX["5"], RANK_INDEX["5"], True),)


OWN_RANK_KICKERS = compile_table(load(str(Path(__file__).parent / "fixtures" / "variants"
                                          / "laizi-own-rank-kickers.yaml")))


def test_a_wild_kicker_may_complete_a_pair_kicker(capsys: pytest.CaptureFixture[str]) -> None:
    """wild.in_kickers: any_rank. 33345 with the 5s wild is three 3s carrying a pair of 4s made
    with the wild; the tool names it so, and says the wild plays a 4."""
    w = wild("5")
    key = LAIZI.key_of("33345")
    assert [r.short() for r in LAIZI.readings(key, w)] == ["trio_pair/1/3"]
    play = LAIZI.play("33345", w)
    assert LAIZI.notation(play, w) == "33345@trio_pair/1/3"
    assert play in LAIZI.leads(key, w)
    assert stand_ins(LAIZI.ruleset, play, w) == (StandIn(RANK_INDEX["5"], RANK_INDEX["4"], True),)
    assert session_stand_ins(LAIZI.ruleset, play, w) == "wild for 4"
    code, out, _ = run_cli(capsys, "classify", "-r", "laizi", "--wild", "5", "33345")
    assert (code, out.strip()) == (0, "33345: trio_pair, length 1, rank 3, kickers 45")
    code, out, _ = run_cli(capsys, "moves", "-r", "laizi", "--wild", "5", "33345")
    assert "33345@trio_pair/1/3" in out.splitlines()
    assert OWN_RANK_KICKERS.readings(key, w) == ()  # the other value: a kicker 5 is a 5


@pytest.mark.parametrize(("table", "text", "wilds", "forbidden"), [
    (LAIZI, "33335", "5", "trio_pair/1/3"),  # a kicker pair of the body's rank
    (LAIZI, "33334445", "5", "four_two_pairs/1/3"),  # two kicker pairs of 4s: four 4s split
    (LAIZI, "4445", "5", ""),  # the wild may not be the fourth 4 beside the trio of 4s
    (LAIZI, "3334445536", "6", "airplane_pairs/2/4"),  # ...nor half a pair of the chain's 3s
    (TWO, "33339", "59", "trio_pair/1/3"),  # two wild ranks: the 9 may not be a 3 either
])
def test_a_kicker_wild_never_makes_a_kicker_the_rules_forbid(
        table: PlayTable, text: str, wilds: str, forbidden: str) -> None:
    """The kicker rules judge the ranks the kickers are played as, beside the ranks the body is
    played as: whatever a kicker wild stands for, it is a kicker the rules allow."""
    w = wild(wilds)
    key = table.key_of(text)
    readings = table.readings(key, w)
    assert forbidden not in [r.short() for r in readings]
    assert all(r.type != "trio_single" or r.kickers == "5" for r in readings)
    for reading in readings:
        played = {s.rank for s in stand_ins(table.ruleset, Play(key, reading), w) if s.kicker}
        ctype = table.ruleset.combination(reading.type)
        chain = range(reading.rank_index - reading.length + 1, reading.rank_index + 1)
        if not ctype.kicker_rules.may_match_body:
            assert not played & set(chain), (text, reading.short())


def test_bombs_rank_soft_hard_four_wilds_rocket() -> None:
    w = wild("5")
    ladder = [LAIZI.play("3335@soft_bomb", w), LAIZI.play("AAA5@soft_bomb", w),
              LAIZI.play("3333", w), LAIZI.play("2222", w), LAIZI.play("5555@wild_bomb", w),
              LAIZI.play("BR", w)]
    for i, low in enumerate(ladder):
        for high in ladder[i + 1:]:
            assert high.reading.beats(low.reading), (high, low)
            assert not low.reading.beats(high.reading), (low, high)


def test_two_wild_ranks_make_a_wild_bomb_only_of_one_rank() -> None:
    assert "wild_bomb/1/9" in shorts(TWO, "9999", "59")
    assert not any(s.startswith("wild_bomb") for s in shorts(TWO, "5599", "59"))


def test_a_declared_reading_names_one_of_several() -> None:
    w = wild("5")
    assert LAIZI.play("3335@soft_bomb", w).reading.type == "soft_bomb"
    assert LAIZI.play("3335@trio_single/1/3", w).reading.type == "trio_single"
    with pytest.raises(Exception, match="reads 2 ways"):
        LAIZI.play("3335", w)
    with pytest.raises(Exception, match="does not name one reading"):
        LAIZI.play("3335@pair", w)


# ---------------------------------------------------------------------------- legal plays


@pytest.mark.parametrize(("table", "wilds"), [(LAIZI, "5"), (LAIZI, "2"), (TWO, "59")])
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_legal_plays_are_exactly_the_readings_of_every_card_set_the_hand_holds(
        table: PlayTable, wilds: str, seed: int) -> None:
    """Exhaustive over the hand: every sub-multiset of a 7-card hand holding two wilds, read
    afresh, gives exactly the (cards, reading) pairs the generator lists."""
    rng = random.Random(seed)
    w = wild(wilds)
    deck = [r for r, n in enumerate(table.ruleset.copies) for _ in range(n) if r not in w]
    ranks = [*rng.sample(deck, 5), w[0], w[-1]]
    hand = cards.pack_ranks(ranks)
    generated = {(p.key, p.reading) for p in table.leads(hand, w)}
    expected = {(k, r) for k in sub_multisets(hand) for r in table.readings(k, w)}
    assert generated == expected


@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6))
@settings(max_examples=25, deadline=None)
def test_answers_are_the_legal_plays_that_beat(seed: int, pick: int) -> None:
    rng = random.Random(seed)
    w = wild(rng.choice("3456789TJQKA2"))
    deck = [r for r, n in enumerate(LAIZI.ruleset.copies) for _ in range(n)]
    hand = cards.pack_ranks(rng.sample(deck, 12))
    other = cards.pack_ranks(rng.sample(deck, 12))
    previous = sorted(LAIZI.leads(other, w), key=lambda p: (p.key, p.reading.short()))
    chosen = previous[pick % len(previous)].reading
    leads = {(p.key, p.reading) for p in LAIZI.leads(hand, w) if p.reading.beats(chosen)}
    assert {(p.key, p.reading) for p in LAIZI.answers(hand, chosen, w)} == leads


def sized_subsets(counts: list[int], size: int, start: int = 0) -> Iterator[int]:
    """Every sub-multiset of ``size`` cards of a card set given as counts, packed."""
    if size == 0:
        yield 0
        return
    for r in range(start, len(counts)):
        for n in range(1, min(size, counts[r]) + 1):
            for more in sized_subsets(counts, size - n, r + 1):
                yield (n << (cards.FIELD_BITS * r)) + more


def played_kickers(ruleset: Ruleset, kick: int, w: tuple[int, ...]) -> Iterator[int]:
    """Every kicker set (packed) the cards ``kick`` can be played as, from the words of
    ``wild.in_kickers``: natural cards as they are, each wild card its own rank or, with
    ``any_rank``, any rank of ``wild.stands_for``."""
    counts = cards.unpack(kick)
    natural = kick - sum(counts[r] << (cards.FIELD_BITS * r) for r in w)
    wilds = [r for r in w for _ in range(counts[r])]
    stands = set(ruleset.stands_for)
    if ruleset.wild_in_kickers != "any_rank" or not wilds:
        yield kick
    elif all(r in stands for r in wilds):  # the wilds are alike: each multiset of ranks once
        for ranks in itertools.combinations_with_replacement(sorted(stands), len(wilds)):
            yield natural + cards.pack_ranks(ranks)
    else:
        for ranks in itertools.product(*(sorted(stands | {r}) for r in wilds)):
            yield natural + cards.pack_ranks(ranks)


def brute_plays(table: PlayTable, hand: int, w: tuple[int, ...]) -> set[tuple[int, Reading]]:
    """Every (cards, reading) pair ``hand`` can lead with the wild ranks ``w``, by brute force
    from the rules' words, with none of the generator's code for making bodies or listing
    kickers: every chain of every type, each rank of it filled with any number of its natural
    cards and wild cards for the rest, every way to take those wild cards, then every set of
    the right number of kicker cards left. Whether kickers are legal is the word of the table
    without wilds: the natural cards the play stands for must read so, for some rank each wild
    kicker is played as (its own, or under ``wild.in_kickers: any_rank`` any rank of
    ``wild.stands_for``). Of readings that differ only in their kickers the lowest is kept."""
    ruleset, bits = table.ruleset, cards.FIELD_BITS
    have = list(cards.unpack(hand))
    stands = set(ruleset.stands_for)
    best: dict[tuple[int, str, int, int], Reading] = {}
    judged: dict[tuple[str, int, int], bool] = {}

    def legal_kickers(ctype: CombinationType, chain: list[int], shown: int, kick: int) -> bool:
        slot = (ctype.name, chain[0] * 16 + len(chain), kick)
        if slot not in judged:
            judged[slot] = any(
                Reading(ctype.name, ctype.reading_length(len(chain)), chain[-1], played,
                        ctype.level) in table.read(shown + played)
                for played in played_kickers(ruleset, kick, w))
        return judged[slot]

    for ctype in ruleset.combinations:
        longest = ctype.high - ctype.low + 1 if ctype.max_length is None else ctype.max_length
        for length in range(ctype.min_length, longest + 1):
            for start in range(ctype.low, ctype.high - length + 2):
                chain = list(range(start, start + length))
                size = ctype.width * length
                units = ctype.kicker_unit * ctype.kicker_count(length)
                if size + units > cards.size(hand):
                    continue
                shown = sum(ctype.width << (bits * r) for r in chain)  # what the body stands for
                naturals = [range(min(ctype.width, have[r]) + 1) if r not in w else range(1)
                            for r in chain]
                for taken in itertools.product(*naturals):
                    if any(r not in w and r not in stands and n < ctype.width
                           for r, n in zip(chain, taken, strict=True)):
                        continue  # no wild stands for a joker
                    natural = sum(n << (bits * r) for r, n in zip(chain, taken, strict=True))
                    need = size - sum(taken)
                    for used in sized_subsets([have[r] if r in w else 0
                                               for r in range(cards.NUM_RANKS)], need):
                        counts = cards.unpack(used)
                        own = all(counts[r] >= ctype.width for r in chain if r in w)
                        if ctype.wilds == "none" and need:
                            continue
                        if ctype.wilds == "some" and not 0 < need < size:
                            continue
                        if ctype.wilds == "all" and not (set(chain) <= set(w) and own):
                            continue
                        if size == 1 and need and used != shown:
                            continue  # a wild alone is its own rank
                        if any(r in w and r not in stands for r in chain) and not own:
                            continue
                        rest = list(cards.unpack(hand - natural - used))
                        for kick in sized_subsets(rest, units):
                            reading = Reading(ctype.name, ctype.reading_length(length),
                                              chain[-1], kick, ctype.level)
                            if not ctype.needs_wilds and not legal_kickers(ctype, chain, shown,
                                                                           kick):
                                continue
                            slot = (natural + used + kick, ctype.name, reading.length, chain[-1])
                            if slot not in best or kick < best[slot].kicker_key:
                                best[slot] = reading
    return {(slot[0], reading) for slot, reading in best.items()}


@pytest.mark.parametrize(("table", "wilds", "held"),
                         [(LAIZI, 1, 4), (LAIZI, 1, 2), (TWO, 2, 3), (TWO, 2, 6),
                          (OWN_RANK_KICKERS, 1, 4)])
@pytest.mark.parametrize("seed", range(4))
def test_leads_and_answers_with_wilds_equal_brute_force(table: PlayTable, wilds: int,
                                                         held: int, seed: int) -> None:
    """Seeded hands of 12 to 17 cards (fewer than a deal, for the brute force's sake) holding
    ``held`` wild cards: the generator lists exactly the brute-force pairs, each once, and
    answers are those of them that beat five leads of another hand."""
    rng = random.Random(f"{table.ruleset.id}:{held}:{seed}")
    w = tuple(rng.sample(table.ruleset.wild_ranks, wilds))
    wild_cards = [r for r in w for _ in range(table.ruleset.copies[r])]
    others = [r for r, n in enumerate(table.ruleset.copies) for _ in range(n) if r not in w]
    size = rng.randint(12, 17)
    hand = cards.pack_ranks(rng.sample(wild_cards, held) + rng.sample(others, size - held))
    leads = table.leads(hand, w)
    expected = brute_plays(table, hand, w)
    assert {(p.key, p.reading) for p in leads} == expected
    assert len(leads) == len(expected)
    other = cards.pack_ranks(rng.sample(others, 17))
    for previous in rng.sample(table.leads(other, w), 5):
        beating = {(k, r) for k, r in expected if r.beats(previous.reading)}
        answers = table.answers(hand, previous.reading, w)
        assert {(p.key, p.reading) for p in answers} == beating
        assert len(answers) == len(beating)


#: Every reading a 20-card hand holding all four wild 5s can lead: plain plays, soft and hard
#: bombs, four wilds and the rocket, many of them possible only with wilds.
WILD_READINGS: list[Reading] = sorted(
    {p.reading for p in LAIZI.leads(cards.pack_ranks([RANK_INDEX[c] for c in
                                                      "333555577789TTJQK2BR"]), wild("5"))},
    key=lambda r: (r.type, r.length, r.rank_index, r.kicker_key))


@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_comparison_stays_a_strict_partial_order_over_wild_readings(
        data: st.DataObject) -> None:
    a, b, c = (data.draw(st.sampled_from(WILD_READINGS)) for _ in range(3))
    assert not a.beats(a)
    assert not (a.beats(b) and b.beats(a))
    if a.beats(b) and b.beats(c):
        assert a.beats(c)


# ---------------------------------------------------------------------------- whole hands


@pytest.mark.parametrize("ruleset_id", ["laizi", "laizi-two"])
def test_whole_hands_conserve_cards_sum_to_zero_and_replay_with_declared_readings(
        ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    seen_wild_play = False
    for seed in range(25):
        hand = play_random(ruleset, seed)
        result = hand.result
        assert result is not None and sum(result.scores) == 0
        record = to_record(hand)
        assert len(record["deal"]["wild"]) == len(ruleset.wild_drawn)
        checked = replay(record)
        assert checked.valid and checked.hand.result is not None
        assert checked.hand.result.scores == result.scores
        for text, op in zip(record["plays"], [o for o in hand.log
                                              if o.__class__.__name__ in ("Played", "Passed")],
                            strict=True):
            play = getattr(op, "play", None)
            if isinstance(play, Play) and any(cards.unpack(play.key)[r] for r in hand.deal.wild):
                seen_wild_play = True
                assert text == f"{play.cards}@{play.reading.short()}"
    assert seen_wild_play


def test_the_wild_rank_is_public_only_once_drawn() -> None:
    """laizi draws after the auction: no seat sees it before; laizi-two shows the sky rank from
    the deal and the earth rank after the auction."""
    for ruleset_id, before in (("laizi", 0), ("laizi-two", 1)):
        ruleset = load(ruleset_id)
        hand = Hand.new(ruleset, 11)
        assert len(hand.deal.wild) == len(ruleset.wild_drawn)
        assert all(len(hand.view(s).wild) == before for s in range(3))
        while hand.phase is Phase.AUCTION:
            hand.apply(hand.legal_actions()[-1])
        if hand.landlord is not None:
            assert all(hand.view(s).wild == hand.deal.wild for s in range(3))


def test_a_record_without_its_wild_ranks_or_with_a_bad_one_is_refused() -> None:
    record = to_record(play_random(load("laizi"), 4))
    missing = {**record, "deal": {k: v for k, v in record["deal"].items() if k != "wild"}}
    with pytest.raises(RecordError, match=r"deal\.wild"):
        replay(missing)
    joker = {**record, "deal": {**record["deal"], "wild": "B"}}
    with pytest.raises(RecordError, match=r"deal\.wild: B is never wild"):
        replay(joker)
    classic = to_record(play_random(load("classic"), 4))
    with pytest.raises(RecordError, match="has no wild cards"):
        replay({**classic, "deal": {**classic["deal"], "wild": "5"}})


def test_a_declared_reading_the_cards_cannot_make_is_an_illegal_action() -> None:
    hand = play_random(load("laizi"), 2)
    record = to_record(hand)
    index = next(i for i, p in enumerate(record["plays"]) if p != "pass")
    cards_part = record["plays"][index].partition("@")[0]
    record["plays"][index] = f"{cards_part}@rocket/1/R"
    checked = replay(record)
    assert not checked.valid and checked.index is not None


def test_a_ruleset_with_wilds_must_let_the_player_name_readings(tmp_path: object) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "unique.yaml").write_text(
        "id: laizi-unique\nextends: laizi\ntitle: t\nsummary: s\n"
        "source: {text: none, about: a test}\n"
        "readings:\n  settlement:\n    value: unique\n    text: Every play one reading.\n",
        encoding="utf-8")
    with pytest.raises(RulesetError, match=r"readings\.settlement must be 'declared'"):
        load(str(folder / "unique.yaml"))


def test_a_card_set_without_wilds_reads_as_in_classic() -> None:
    """Only the class levels differ: a hard bomb sits above the soft one."""
    classic = compile_table(load("classic"))
    assert set(LAIZI) == set(classic)

    def named(table: PlayTable, key: int) -> list[tuple[str, str]]:
        return [(r.short(), r.kickers) for r in table.readings(key)]

    assert all(named(LAIZI, k) == named(classic, k) for k in classic)


# ---------------------------------------------------------------------------- the command line


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from ddz_rules.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_classify_lists_every_reading_of_a_card_set_with_wilds(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "classify", "-r", "laizi", "--wild", "5", "3335")
    assert code == 0
    assert out.splitlines() == ["3335: soft_bomb, length 1, rank 3",
                                "3335: trio_single, length 1, rank 3, kickers 5"]


def test_classify_takes_a_named_reading(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "classify", "-r", "laizi", "--wild", "5", "3335@soft_bomb")
    assert (code, out.strip()) == (0, "3335: soft_bomb, length 1, rank 3")
    code, out, _ = run_cli(capsys, "classify", "33344456@airplane_singles")
    assert code == 0 and "airplane_singles" in out


def test_moves_lists_every_cards_and_reading_pair(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "moves", "-r", "laizi", "--wild", "5", "3455")
    listed = out.splitlines()
    assert code == 0 and "55@pair/1/2" in listed and "3455@trio_single/1/4" in listed
    assert listed.index("55@pair/1/3") < listed.index("55@pair/1/2")  # by rank, 3 to 2


@pytest.mark.parametrize(("argv", "words"), [
    (["classify", "--wild", "5", "33"], "--wild: classic has no wild cards"),
    (["classify", "-r", "laizi", "--wild", "B", "33"], "B is never wild"),
    (["classify", "-r", "laizi", "--wild", "57", "33"], "draws 1 wild rank(s)"),
    (["classify", "-r", "laizi", "--wild", "5", "3335@pair"], "does not name one reading"),
    (["beats", "-r", "laizi", "--wild", "5", "3333", "3335"], "reads 2 ways"),
    (["moves", "-r", "laizi-two", "--wild", "X", "33"], "--wild: bad card 'X'"),
])
def test_bad_wild_input_is_one_line_with_exit_2(capsys: pytest.CaptureFixture[str],
                                                argv: list[str], words: str) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and words in err, err


def test_replay_says_which_declared_reading_the_cards_cannot_make(
        capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    import json
    from pathlib import Path

    record = to_record(play_random(load("laizi"), 2))
    index = next(i for i, p in enumerate(record["plays"]) if p != "pass")
    record["plays"][index] = record["plays"][index].partition("@")[0] + "@rocket/1/R"
    path = Path(str(tmp_path)) / "bad-reading.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", "--json", str(path))
    verdict = json.loads(out)
    assert code == 1 and verdict["valid"] is False and verdict["index"] >= 0
    assert "rocket" in verdict["reason"]


def test_readings_that_differ_only_in_their_kickers_are_one_play() -> None:
    """558T with 5 and 8 wild: a trio of 10s carrying the 5 or carrying the 8 is the same cards
    read the same way; the engine lists it once, with the lowest kickers, in classification
    and in the legal plays alike, so a record names one play and replays to it."""
    w = wild("58")
    readings = TWO.readings(TWO.key_of("558T"), w)
    assert [r.kickers for r in readings if r.short() == "trio_single/1/T"] == ["5"]
    hand = TWO.key_of("558T")
    plays = [p for p in TWO.leads(hand, w) if p.key == hand]
    assert len({(p.reading.short()) for p in plays}) == len(plays)
    assert TWO.play("558T@trio_single/1/T", w).reading.kickers == "5"


def test_check_says_its_uniqueness_check_covers_natural_cards_and_measures_wild_readings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``ddz check laizi`` must not claim every play reads one way: its own example 3335
    (wild 5) reads two ways. The exhaustive check covers natural cards; plays with wilds are
    measured on a seeded sample, and the example it names really reads several ways."""
    assert main(["check", "laizi"]) == 0
    out = capsys.readouterr().out
    assert "every play has exactly one reading" not in out
    assert "every play of natural cards has exactly one reading" in out
    assert "with wild cards (not part of that check)" in out
    laizi = load("laizi")
    wilds = check_report(laizi)["wilds"]
    assert wilds == check_report(laizi)["wilds"]  # seeded: the same every time
    assert wilds["sets"] > 0 and 0 < wilds["several"] <= wilds["plays"] <= wilds["sets"]
    assert f"{wilds['plays']} are plays and {wilds['several']} of them" in out
    example = wilds["example"]
    table = compile_table(laizi)
    wild = tuple(cards.RANK_INDEX[c] for c in example["wild"])
    shown = [f"{r['type']}/{r['length']}/{r['rank']}" for r in example["readings"]]
    assert [r.short() for r in table.readings(table.key_of(example["cards"]), wild)] == shown
    assert len(shown) > 1
    assert "wilds" not in check_report(load("classic"))
