"""The play table: every legal play of a ruleset with all its readings.

Compiling a ruleset enumerates, for every declared combination type, every body (a chain of
ranks, ``width`` cards each) and every allowed set of kickers, up to the largest hand a seat can
hold. Classification is a lookup in this table, ``beats`` compares readings, and legal plays are
the table's plays that a hand contains, so the three cannot disagree.

>>> from ddz_rules import ruleset
>>> table = compile_table(ruleset.load("classic"))
>>> [r.short() for r in table.classify("33344456")]
['airplane_singles/2/4']
>>> table.classify("44445555")
()

Every enumeration is bounded before it starts. A ruleset's plays are counted combinatorially
(bodies times kicker choices, without enumerating them: :meth:`PlayTable.size_estimate`), and a
table or a hand's plays that would exceed :data:`MAX_READINGS` are refused with one line
instead of exhausting memory; a hand larger than any seat can hold is refused too.
Classifying one card set never enumerates: its kickers are checked against each body directly,
and neither does drawing plays at random (:meth:`PlayTable.sample_plays`), which is how
``ddz check`` examines a table too large to enumerate.
"""

from __future__ import annotations

import os
import random
from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import repeat
from typing import Any, NamedTuple, TypedDict, cast

from ddz_rules import cards
from ddz_rules.cards import RANKS
from ddz_rules.errors import IllegalPlayError, RulesetError, UsageError
from ddz_rules.restrictions import rank_reason, whole_reason
from ddz_rules.ruleset import CombinationType, Ruleset
from ddz_rules.wilds import Fills, kicker_counts, kicker_stand_ins, wild_choices, wild_count

try:  # built at install where a C compiler is found (hatch_build.py); else the same in Python
    from ddz_rules import _kernel, _moves
except ImportError:  # no compiler at install, or DDZ_PURE_PYTHON=1
    _kernel = None  # type: ignore[assignment]
    _moves = None  # type: ignore[assignment]
if os.environ.get("DDZ_PURE_PYTHON"):  # switched off at run time: the Python path serves
    _kernel = None  # type: ignore[assignment]
    _moves = None  # type: ignore[assignment]

def native_modules() -> Any:
    """The compiled module ``_moves`` (lister and hand runner) where it serves in this process,
    else None."""
    return _moves


def listing_path() -> str:
    """Which path lists a hand's plays in this process, as ``ddz --version`` says it."""
    if _moves is not None:
        return "compiled (ddz_rules/_moves.c and _kernel.c)"
    if os.environ.get("DDZ_PURE_PYTHON"):
        return "Python (DDZ_PURE_PYTHON is set)"
    return ("Python (the compiled modules were not built: no C compiler at install, or "
            "DDZ_PURE_PYTHON was set then; the same plays, slower)")


#: Listings a table serves in Python before it builds its compiled lister (:meth:`PlayTable.
#: compiled`): flattening takes the whole table (0.1 to 0.4 s for the bundled ones), which a
#: one-off ``ddz moves`` should not pay for; a bot or an environment lists thousands of times.
NATIVE_AFTER = 256

#: Most readings one enumeration may produce: the whole table, or the plays of one hand.
#: Measured on two cores: ``ddz check`` of a table just under it (976,843 readings) takes about
#: 25 s and 730 MB, so the limit keeps any check under ~30 s and ~1 GB; the bundled tables hold
#: 8,798 to 30,383 readings (DouZero's, the largest, compiles in 0.3 s; ``ddz check douzero``
#: takes 1.4 s and 46 MB in all).
MAX_READINGS = 1_000_000


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a play: combination type, chain length, body rank and kickers.

    ``rank`` is the body's highest rank (what the rules compare); ``level`` is the class level
    (0 for plain plays, higher for bombs and the rocket); ``also`` are the other types it may
    answer (``play.last_play_answers``: a trio with one card, played to go out, beating a trio
    with two), empty for nearly every play.
    """

    type: str
    length: int
    rank_index: int
    kicker_key: int
    level: int
    also: tuple[str, ...] = ()

    @property
    def rank(self) -> str:
        return RANKS[self.rank_index]

    @property
    def kickers(self) -> str:
        return cards.key_text(self.kicker_key)

    def beats(self, other: Reading) -> bool:
        """The one rule of comparison.

        A higher class beats any lower class whatever the type; otherwise a play beats only a
        play of the same type (or of a type in :attr:`also`) and chain length with a lower
        body rank. Kickers never count.
        """
        if self.level != other.level:
            return self.level > other.level
        return ((self.type == other.type or other.type in self.also)
                and self.length == other.length and self.rank_index > other.rank_index)

    def short(self) -> str:
        """``type/length/rank``, the notation used to name a reading."""
        return f"{self.type}/{self.length}/{self.rank}"

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "length": self.length, "rank": self.rank,
                "kickers": self.kickers}


class Play(NamedTuple):
    """A card set (packed) together with the reading it is played as.

    A named tuple rather than a dataclass: legal-play generation makes many of them.
    """

    key: int
    reading: Reading

    @property
    def cards(self) -> str:
        return cards.key_text(self.key)

    def __str__(self) -> str:
        return self.cards


class PlayTable:
    """Every legal play of one ruleset, with lookup, comparison and move generation.

    The whole table is enumerated on first need (iterating, counting, diffing); a single
    classification or a hand's legal plays need only the part of the enumeration bounded by
    those cards, so a one-off ``ddz classify`` does not pay for the whole table.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._runs = _runs(ruleset)
        self._index = _index(self._runs)
        self._answering: dict[Reading, Runs] = {}
        self._wild_answering: dict[Reading, WildRuns] = {}
        self._read_cache: dict[int, tuple[Reading, ...]] = {}
        self._wild_read_cache: dict[tuple[int, Wild], tuple[Reading, ...]] = {}
        self._deck_estimate: int | None = None
        self._lister: _moves.Lister | None = None
        self._countdown = NATIVE_AFTER
        _check_playable(ruleset, self._runs, self._index)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its ruleset: the table is compiled once per process and ruleset."""
        return (compile_table, (self.ruleset,))

    def size_estimate(self, bound: int | None = None) -> int:
        """An upper bound on the readings whose cards lie within ``bound`` (packed; default the
        whole deck, so the size of the table), counted without enumerating them.

        Each body within ``bound`` counts its kicker choices: the ways to pick its kicker units
        from the ranks the per-rank kicker rules allow, with the cards ``bound`` has left
        beside the body (a polynomial product per body, not an enumeration). Only the
        whole-play rules (both jokers, a kicker trio beside the chain) are not applied, so the
        bound is exact for most rulesets and never too small. It costs milliseconds where the
        enumeration it bounds may cost minutes.
        """
        if bound is None:
            if self._deck_estimate is None:
                self._deck_estimate = _estimate(self._runs, self.ruleset.deck_key)
            return self._deck_estimate
        return _estimate_within(self._index, bound)

    def size_by_type(self) -> dict[str, int]:
        """:meth:`size_estimate` of the whole table, per combination type: the readings of each
        type, at most (exactly where :meth:`uncounted_rules` is empty). They sum to the estimate.
        """
        counts = {c.name: 0 for c in self.ruleset.combinations}
        bodies, _, weights, _ = self._drawable
        for body, weight in zip(bodies, weights, strict=True):
            counts[body.ctype.name] += weight
        return counts

    @cached_property
    def uncounted_rules(self) -> tuple[str, ...]:
        """The whole-play kicker rules that may refuse kicker sets :meth:`size_estimate` counts
        (``kickers.both_jokers_as_kickers``, ``kickers.kicker_trio_beside_chain``); empty where
        none can, and then the estimate is the exact number of readings.

        A rule is named when some body could carry the kickers it forbids: both jokers, or three
        of a rank next to a chain. It is a cheap test of the rules in force, not a count.
        """
        found: set[str] = set()
        for body in self._drawable[0]:
            rules, unit = body.ctype.kicker_rules, body.ctype.kicker_unit
            if not unit or body.n_units < 2:
                continue
            most = {rank: by_avail[-1][-1][0] * unit
                    for rank, by_avail in body.options if by_avail[-1]}
            if not rules.both_jokers_as_kickers and all(j in most for j in cards.JOKERS):
                found.add("kickers.both_jokers_as_kickers")
            if (not rules.kicker_trio_beside_chain and unit == 1 and body.n_units >= 3
                    and len(body.chain) >= 2
                    and any(most.get(r, 0) >= 3 and r <= body.ctype.high
                            for r in (body.chain[0] - 1, body.chain[-1] + 1))):
                found.add("kickers.kicker_trio_beside_chain")
        return tuple(sorted(found))

    def sample_plays(self, count: int, rng: random.Random) -> list[Play]:
        """``count`` plays drawn at random, each a card set with one of its readings, uniformly
        over the readings of the table, without enumerating it.

        A draw picks a body with probability proportional to its kicker choices (the weights
        :meth:`size_estimate` sums), then one of those choices uniformly, so every reading it
        counts is equally likely; a draw a whole-play rule refuses is drawn again (at most
        ``4 * count`` draws in all, so fewer plays may come back where such rules refuse most
        draws). A card set that reads several ways is drawn once per reading, so it is the
        likelier to be drawn. Draws are independent: a play may come back more than once.

        >>> import random
        >>> from ddz_rules.ruleset import load
        >>> table = PlayTable(load("classic"))
        >>> plays = table.sample_plays(500, random.Random(1))
        >>> len(plays), all(p.reading in table.read(p.key) for p in plays)
        (500, True)
        >>> "plays" in table.__dict__  # the table was not enumerated
        False
        """
        bodies, cumulative, _, suffixes = self._drawable
        total = cumulative[-1] if cumulative else 0
        out: list[Play] = []
        deck = self.ruleset.deck_key
        for _ in range(4 * count if total else 0):
            if len(out) == count:
                break
            i = bisect_right(cumulative, rng.randrange(total))
            body = bodies[i]
            if body.play is not None:
                out.append(body.play)
                continue
            suffix = suffixes[i]
            if suffix is None:
                suffix = suffixes[i] = _kicker_ways(body, deck - body.key)
            kick_key = _draw_kickers(body, suffix, rng)
            play = body.plays.get(kick_key, _UNSEEN)
            if play is _UNSEEN:
                play = _kicker_play(body, kick_key)
            if play is not None:
                out.append(play)  # type: ignore[arg-type]
        return out

    @cached_property
    def _drawable(self) -> tuple[list[_Body], list[int], list[int], list[_Suffix | None]]:
        """Every body within the deck, the running sum of their kicker choices, the choices
        themselves, and (filled as bodies are drawn) each body's table for drawing kickers."""
        deck = self.ruleset.deck_key
        top, guard = deck | cards.GUARD, cards.GUARD
        bodies = [body for run in self._runs for body in run if (top - body.key) & guard == guard]
        weights = [_kicker_sets(body, deck - body.key) for body in bodies]
        cumulative, running = [], 0
        for weight in weights:
            running += weight
            cumulative.append(running)
        return bodies, cumulative, weights, [None] * len(bodies)

    def _refuse_if_too_many(self, estimate: int, what: str) -> None:
        if estimate > MAX_READINGS:
            raise RulesetError(
                f"{what} would hold up to {estimate:,} readings under {self.ruleset.id}; at most "
                f"{MAX_READINGS:,} are enumerated (tighten the kicker rules, such as "
                "kickers.max_copies_among_kickers, or deal smaller hands)", path=self.ruleset.path)

    def _check_hand(self, hand: int, runs: Runs | None = None) -> None:
        """Refuse a hand no seat can hold, or whose plays are too many to enumerate."""
        n = cards.size(hand)
        if n > self.ruleset.max_hand:
            raise UsageError(f"a hand holds at most {self.ruleset.max_hand} cards under "
                             f"{self.ruleset.id}; got {n}")
        if self.size_estimate() > MAX_READINGS:  # else no hand can exceed it: skip the count
            estimate = (_estimate_within(self._index, hand) if runs is None
                        else _estimate(runs, hand))
            self._refuse_if_too_many(estimate, f"the plays of this {n}-card hand")

    @cached_property
    def plays(self) -> dict[int, tuple[Reading, ...]]:
        """Every legal play (packed) and its readings.

        Refused with a :class:`RulesetError` where :meth:`size_estimate` exceeds
        :data:`MAX_READINGS`.
        """
        self._refuse_if_too_many(self.size_estimate(), "the play table")
        found: dict[int, list[Reading]] = defaultdict(list)
        for key, reading in _plays_within(self._index, self.ruleset.deck_key):
            found[key].append(reading)
        return {k: _ordered(v) for k, v in found.items()}

    @cached_property
    def _keys(self) -> list[int]:
        return sorted(self.plays, key=table_order)

    # ------------------------------------------------------------------ lookup

    def __len__(self) -> int:
        return len(self.plays)

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def key_of(self, text: str) -> int:
        """Parse card text against the ruleset's deck and pack it."""
        return cards.pack_ranks(self.ruleset.parse_cards(text))

    def readings(self, key: int, wild: Wild = ()) -> tuple[Reading, ...]:
        """Every reading of a packed card set; empty when it is not a legal play. ``wild``
        names the hand's wild ranks (laizi): a card set holding wild cards reads every way
        they can be stood in (:meth:`read_wild`)."""
        if wild and wild_count(cards.unpack(key), wild):
            found = self._wild_read_cache.get((key, wild))
            if found is None:
                found = self._wild_read_cache[key, wild] = self.read_wild(key, wild)
            return found
        if "plays" in self.__dict__:
            return self.plays.get(key, ())
        known = self._read_cache.get(key)
        if known is None:
            known = self._read_cache[key] = self.read(key)
        return known

    def is_reading(self, play: Play, wild: Wild = ()) -> bool:
        """Whether ``play.reading`` is a reading of its cards (memoized per card set)."""
        return play.reading in self.readings(play.key, wild)

    def read_wild(self, key: int, wild: Wild) -> tuple[Reading, ...]:
        """The readings of one card set holding wild cards of the ranks ``wild``.

        Each body of every type is made from the cards every way the rule of
        :func:`~ddz_rules.wilds.body_fills` allows (:class:`~ddz_rules.wilds.Fills`), the
        cards left over tried as its kickers (a wild among them played as
        :func:`~ddz_rules.wilds.kicker_stand_ins` allows). Readings
        that differ only in their kickers are one play (the cards are the same, and kickers
        never count): the one with the lowest kickers stands for them, as in :meth:`play`.
        """
        fills = Fills(cards.unpack(key), wild, self._stands_for)
        groups, runs = self._wild_runs
        kick = self._wild_kickers(wild)
        made = [fills.of_run(chain, lengths, width, rule)
                if fills.can_start(chain[0], width, rule) else []
                for chain, lengths, width, rule in groups]
        found: set[Reading] = set()
        for group, bodies in runs:
            levels = made[group]
            for wild_body in bodies:
                for fill in levels[wild_body.level] if wild_body.level < len(levels) else ():
                    rest = key - fill
                    if kick is None:
                        play = _exact_play(wild_body.body, rest)
                        reading = None if play is None else play.reading
                    else:
                        reading = kick.reading(wild_body.body, rest)
                    if reading is not None:
                        found.add(reading)
        return tuple(_named(_ordered(found)))

    @cached_property
    def _wild_bodies(self) -> Runs:
        """Every body of every type, the soft bombs' included (for hands holding wilds)."""
        return _runs(self.ruleset, natural=False)

    @cached_property
    def _kinds(self) -> _Kinds:
        return _Kinds(self._wild_bodies, self.ruleset, self._stands_for)

    @cached_property
    def _wild_runs(self) -> WildRuns:
        """:attr:`_wild_bodies` as :meth:`_wild_plays` takes them."""
        return _wild_runs(self._wild_bodies, self._kinds)

    @cached_property
    def _stands_for(self) -> frozenset[int]:
        return frozenset(self.ruleset.stands_for)

    def _wild_kickers(self, wild: Wild) -> _WildKickers | None:
        """How kicker wilds are read with the wild ranks ``wild``: None where each is a card of
        its own rank (``wild.in_kickers: own_rank``), which the natural kicker rules settle."""
        if self.ruleset.wild_in_kickers != "any_rank":
            return None
        return _WildKickers(wild, self._kinds)

    def _wild_plays(self, runs: WildRuns, hand: int, wild: Wild) -> list[Play]:
        """Every play of ``runs``' bodies from a hand holding wild cards: each body made every
        way the hand can make it (:class:`Fills`, a run at a time), with every allowed set of
        kickers from what is left.

        Where one card set and reading could come from two fills (the same cards, a wild in the
        body or among the kickers), the lowest kickers stand for them, as in :meth:`read_wild`;
        that needs a natural rank of the chain or two wild ranks among the body's kicker
        ranks, so other bodies skip the check. Where a kicker wild may stand for another rank
        (:class:`_WildKickers`), every wild rank is a kicker rank of every body with kickers.
        """
        fills = Fills(cards.unpack(hand), wild, self._stands_for)
        fills_of, can_start = fills.of_run, fills.can_start
        wild_bits = sum(1 << r for r in wild)
        kick = self._wild_kickers(wild)
        wild_fields, known = (0, ()) if kick is None else (kick.fields, wild)
        kinds = self._kinds.kinds
        shared: list[_Choices | None] = [None] * len(kinds)
        groups, wild_runs = runs
        made: list[list[list[int]] | None] = [None] * len(groups)
        out: list[Play] = []
        for group, bodies in wild_runs:
            levels = made[group]
            if levels is None:
                chain, lengths, width, rule = groups[group]
                levels = made[group] = (fills_of(chain, lengths, width, rule)
                                        if can_start(chain[0], width, rule) else [])
            if not levels:
                continue
            for body, level, kicker_ranks, chain_kickers, fields, kind, readings in bodies:
                if level >= len(levels):
                    break  # no longer chain can be made either
                made_of = levels[level]
                if not made_of:
                    continue
                plain = body.play
                if plain is not None:
                    if _kernel is None:
                        out += map(_new_play, repeat(Play), zip(made_of, repeat(plain.reading)))
                    else:
                        _kernel.plain_plays(Play, made_of, plain.reading, out)
                    continue
                every = None
                if kind >= 0:
                    every = shared[kind]
                    if every is None:
                        every = shared[kind] = _choices(
                            _choose(*kinds[kind], hand) if kick is None
                            else kick.choices(kick.kind_options(kind, body), body, hand))
                both = (kicker_ranks | (wild_bits if wild_fields else 0)) & wild_bits
                clash = len(made_of) > 1 and bool(chain_kickers & ~wild_bits or both & (both - 1))
                mine = readings.get(known)
                if mine is None:
                    mine = readings[known] = {}
                _wild_kicker_plays(body, mine, fields | wild_fields, made_of, hand, clash, every,
                                   out, kick)
        return out

    def read(self, key: int) -> tuple[Reading, ...]:
        """The readings of one card set, found afresh from its own cards.

        Each body the cards contain is tried with exactly the cards left over as its kickers,
        so the cost is one check per body, however many plays lie within the cards.
        """
        found: list[Reading] = []
        top = key | cards.GUARD
        guard, bits, mask = cards.GUARD, cards.FIELD_BITS, cards.FIELD_MASK
        for rank, by_width in enumerate(self._index):
            for width in _WIDTHS[(key >> (bits * rank)) & mask]:
                for run in by_width[width]:
                    for body in run:
                        if (top - body.key) & guard != guard:
                            break
                        play = _exact_play(body, key - body.key)
                        if play is not None:
                            found.append(play.reading)
        return _ordered(found)

    def classify(self, text: str) -> tuple[Reading, ...]:
        """Every reading of card text; empty when it is not a legal play."""
        return self.readings(self.key_of(text))

    def ambiguous(self) -> list[int]:
        """Plays with more than one reading, in table order."""
        return [k for k in self._keys if len(self.plays[k]) > 1]

    def by_type(self) -> dict[str, int]:
        """Number of plays of each combination type (a play counts once per type it reads as)."""
        counts = {c.name: 0 for c in self.ruleset.combinations}
        for readings in self.plays.values():
            for t in {r.type for r in readings}:
                counts[t] += 1
        return counts

    # ------------------------------------------------------------------ moves

    def leads(self, hand: int, wild: Wild = ()) -> list[Play]:
        """Every play the holder of ``hand`` may lead.

        Generated from the hand itself (the compile enumeration, bounded by the hand's cards
        instead of the deck), far quicker than scanning the table; a property test proves it
        equals :meth:`filter_leads`. A hand larger than :attr:`Ruleset.max_hand` is refused
        (:class:`UsageError`), and so is one whose plays would exceed :data:`MAX_READINGS`.
        Where the compiled lister is built (:meth:`compiled`), it lists the same plays in the
        same order. Every call returns a new list, the caller's to keep or extend (as
        :meth:`answers` does).
        """
        if wild and wild_count(cards.unpack(hand), wild):
            self._check_hand(hand)
            return self._wild_plays(self._wild_runs, hand, wild)
        lister = self._lister or self._count_listing()
        if lister is not None:
            found = lister.leads(hand)
            if found is not None:
                return found
        self._check_hand(hand)
        return _plays_within(self._index, hand)

    def lead_ids(self, hand: int) -> list[int]:
        """The ids (:attr:`by_id`) of :meth:`leads` of a hand of natural cards, in the same
        order: for callers that need numbers, not plays (an environment, a search).

        >>> from ddz_rules import load
        >>> table = compile_table(load("classic"))
        >>> [table.by_id[i].cards for i in table.lead_ids(table.key_of("3345"))]
        ['3', '33', '4', '5']
        """
        lister = self._lister or self._count_listing()
        if lister is not None:
            found = lister.lead_ids(hand)
            if found is not None:
                return found
        self._check_hand(hand)
        ids = self._ids
        return [ids[p] for p in _plays_within(self._index, hand)]

    def answer_ids(self, hand: int, previous: int) -> list[int]:
        """The ids of :meth:`answers` of a hand of natural cards to the play of id
        ``previous``, in the same order.

        >>> from ddz_rules import load
        >>> table = compile_table(load("classic"))
        >>> five = table.id_of(table.play("5"))
        >>> [table.by_id[i].cards for i in table.answer_ids(table.key_of("3345"), five)]
        []
        >>> [table.by_id[i].cards for i in table.answer_ids(table.key_of("3346"), five)]
        ['6']
        """
        lister = self._lister or self._count_listing()
        if lister is not None and 0 <= previous < len(self.by_id):
            found = lister.answer_ids(hand, previous)
            if found is None:  # too many cards, or the first answer to this class
                self._check_hand(hand)
                self._learn(lister, self._class_of(self.by_id[previous].reading))
                found = lister.answer_ids(hand, previous)
            return cast("list[int]", found)
        if not 0 <= previous < len(self.by_id):
            raise UsageError(f"no play has id {previous} under {self.ruleset.id}; ids run from "
                             f"0 to {len(self.by_id) - 1}")
        ids = self._ids
        return [ids[p] for p in self._python_answers(hand, self.by_id[previous].reading)]

    def answers(self, hand: int, previous: Reading, wild: Wild = ()) -> list[Play]:
        """Every play from ``hand`` that beats ``previous`` (generated from the hand), in a
        new list."""
        if wild and wild_count(cards.unpack(hand), wild):
            runs = self._wild_answering.get(previous)
            if runs is None:
                runs = self._wild_answering[previous] = _wild_runs(
                    _answering_runs(self._wild_bodies, previous), self._kinds)
            self._check_hand(hand)
            return [p for p in self._wild_plays(runs, hand, wild)
                    if p.reading.beats(previous)]
        lister = self._lister or self._count_listing()
        if lister is not None:
            found = lister.answers_to(hand, previous)  # a reading of the table's own plays
            if found is not None:
                return found
            cls = self._class_of(previous)
            if cls >= 0:
                found = lister.answers(hand, cls)
                if found is None:  # too many cards, or the first answer to this class
                    self._check_hand(hand)
                    self._learn(lister, cls)
                    found = lister.answers(hand, cls)
                return cast("list[Play]", found)
        return self._python_answers(hand, previous)

    def _python_answers(self, hand: int, previous: Reading) -> list[Play]:
        candidates = self._answering.get(previous)
        if candidates is None:
            candidates = self._answering[previous] = _answering_runs(self._runs, previous)
        self._check_hand(hand, candidates)
        return [p for p in _plays_within_runs(candidates, hand) if p.reading.beats(previous)]

    # ------------------------------------------------------------------ ids and the lister

    @cached_property
    def by_id(self) -> tuple[Play, ...]:
        """Every play of the table with each of its readings, in table order: a play's id is
        its index here (:meth:`lead_ids`, :meth:`answer_ids`)."""
        return tuple(Play(key, reading) for key in self._keys for reading in self.plays[key])

    @cached_property
    def _ids(self) -> dict[Play, int]:
        return {play: i for i, play in enumerate(self.by_id)}

    def id_of(self, play: Play) -> int:
        """The id of a play of the table (:attr:`by_id`); a play holding wild cards has none."""
        found = self._ids.get(play)
        if found is None:
            raise IllegalPlayError(f"{self.notation(play)} is not a play of the "
                                   f"{self.ruleset.id} table (a play with wild cards has no id)")
        return found

    @cached_property
    def _bodies(self) -> tuple[_Body, ...]:
        """Every natural body, in run order: the compiled lister's bodies and classes."""
        return tuple(body for run in self._runs for body in run)

    @cached_property
    def _classes(self) -> dict[tuple[str, int, int, int], int]:
        """Each body's class (type, length, rank, level), which is its index: what the
        compiled lister answers by."""
        return {(b.ctype.name, b.length, b.top, b.ctype.level): i
                for i, b in enumerate(self._bodies)}

    def _class_of(self, reading: Reading) -> int:
        """The class of a reading, or -1 where no natural body reads so (a soft bomb). The
        lister finds the class of the table's own readings itself (``answers_to``)."""
        return self._classes.get(
            (reading.type, reading.length, reading.rank_index, reading.level), -1)

    def _count_listing(self) -> _moves.Lister | None:
        """Count one listing made in Python; build the lister at the :data:`NATIVE_AFTER`th."""
        if _moves is None:
            return None
        self._countdown -= 1
        return self.compiled() if self._countdown == 0 else None

    def compiled(self) -> _moves.Lister | None:
        """The compiled lister of this table, built now if it was not (else after
        :data:`NATIVE_AFTER` listings); None where it was not built at install, is switched
        off (``DDZ_PURE_PYTHON``), or the table is too large to enumerate."""
        if self._lister is None and _moves is not None and self._flattenable():
            self._lister = _flatten(self)
            self._serve(self._lister)
        self._countdown = -1
        return self._lister

    def _serve(self, lister: _moves.Lister) -> None:
        """Let ``lister`` answer :meth:`leads`, :meth:`lead_ids`, :meth:`answers` and
        :meth:`answer_ids` of this table directly (``_moves.Served``): a call the lister can
        list pays no Python frame, about half the time of a short answer. Where it cannot
        (wild cards held, a hand over the largest, a class not learnt yet, a play not of the
        table) the method of this class answers, with the same arguments."""
        for name, raw in (("leads", lister.leads), ("lead_ids", lister.lead_ids),
                          ("answers", lister.answers_to), ("answer_ids", lister.answer_ids)):
            setattr(self, name, _moves.Served(raw, getattr(type(self), name).__get__(self)))

    def _flattenable(self) -> bool:
        return (self.size_estimate() <= MAX_READINGS
                and len(self._bodies) == len(self._classes))

    def _learn(self, lister: _moves.Lister, cls: int) -> None:
        """Tell the lister which bodies' plays beat class ``cls``, by :meth:`Reading.beats`."""
        readings = [b.reading() for b in self._bodies]
        previous = readings[cls]
        lister.learn(cls, bytes(r.beats(previous) for r in readings))

    def filter_leads(self, hand: int) -> list[Play]:
        """Reference: the table's plays contained in ``hand``, by brute force."""
        guard = cards.GUARD
        top = hand | guard
        return [Play(k, r) for k in self._keys if (top - k) & guard == guard
                for r in self.plays[k]]

    def filter_answers(self, hand: int, previous: Reading) -> list[Play]:
        """Reference: the plays of :meth:`filter_leads` whose reading beats ``previous``."""
        return [p for p in self.filter_leads(hand) if p.reading.beats(previous)]

    # ------------------------------------------------------------------ naming a reading

    def notation(self, play: Play, wild: Wild = ()) -> str:
        """A play as text: its cards, with ``@type/length/rank`` where they read several ways
        or hold a wild card (a record states the reading of every play with wilds).

        The inverse of :meth:`play`.
        """
        holds_wild = bool(wild) and wild_count(cards.unpack(play.key), wild) > 0
        if holds_wild or len(self.readings(play.key, wild)) > 1:
            return f"{play.cards}@{play.reading.short()}"
        return play.cards

    def play(self, text: str, wild: Wild = ()) -> Play:
        """A play from text: ``CARDS``, or ``CARDS@type[/length[/rank]]`` naming a reading
        (:meth:`read_play`, one reading)."""
        key, (reading,) = self.read_play(text, wild)
        return Play(key, reading)

    def read_play(self, text: str, wild: Wild = (),
                  any_reading: bool = False) -> tuple[int, tuple[Reading, ...]]:
        """The card set play text names and the readings it is played as: the one parser of a
        play, for every command, the hand engine and the records.

        ``CARDS@type[/length[/rank]]`` names a reading: a card set has one reading per
        ``type/length/rank`` (:meth:`read_wild` keeps one where wild cards could carry
        different kickers), so naming those three names one. ``CARDS`` alone is its only
        reading, or with ``any_reading`` (a play to be made, which may be any of them) all of
        them. Refused in one line: text that is not cards (:class:`CardError`), a card set
        that is no play (:class:`IllegalPlayError`, with its ``key``), or a reading not named
        where one must be (:class:`UsageError`).

        >>> from ddz_rules.ruleset import load
        >>> table = compile_table(load("marked-card"))
        >>> key, readings = table.read_play("333444555666", any_reading=True)
        >>> len(readings), table.read_play("333444555666@airplane")[1][0].short()
        (3, 'airplane/4/6')
        """
        cards_part, named = split_reading(text)
        key = self.key_of(cards_part)
        readings = self.readings(key, wild)
        if not readings:
            raise IllegalPlayError(f"{cards.key_text(key) or 'no cards'} is not a legal play under "
                                   f"{self.ruleset.id}: {self.explain(key, wild)}", key)
        if named is not None:
            chosen = [r for r in readings
                      if r.short() == named or r.short().startswith(named + "/")]
            if len(chosen) != 1:
                options = ", ".join(self.notation(Play(key, r), wild) for r in readings)
                raise UsageError(f"reading {named!r} does not name one reading of "
                                 f"{cards.key_text(key)}; its readings: {options}")
            return key, (chosen[0],)
        if len(readings) > 1 and not any_reading:
            options = ", ".join(self.notation(Play(key, r), wild) for r in readings)
            raise UsageError(f"{cards.key_text(key)} reads {len(readings)} ways under "
                             f"{self.ruleset.id}; name one: {options}")
        return key, readings

    # ------------------------------------------------------------------ explain

    def explain(self, key: int, wild: Wild = ()) -> str:
        """Why a card set is, or is not, a legal play: names the rule at fault."""
        readings = self.readings(key, wild)
        if readings:
            return "legal: " + ", ".join(r.short() for r in readings)
        if wild and wild_count(cards.unpack(key), wild):
            held = "".join(RANKS[r] for r in wild if cards.unpack(key)[r])
            return (f"no combination type of {self.ruleset.id} can be made of these "
                    f"{cards.size(key)} cards, whatever the wild {held} stands for")
        n = cards.size(key)
        if n == 0:
            return "a play needs at least one card"
        if n > self.ruleset.max_hand:
            return f"{n} cards; no hand ever holds more than {self.ruleset.max_hand}"
        counts = cards.unpack(key)
        reasons: dict[str, list[str]] = {}
        for ctype, chain, kickers, shape_fault in _shapes(self.ruleset.combinations, counts):
            reason = shape_fault or _kicker_fault(ctype, chain, kickers)
            if reason is None:  # pragma: no cover - would mean the table is wrong
                reason = "no rule forbids it, yet the table lacks it (please report)"
            types = reasons.setdefault(reason, [])
            if ctype.name not in types:
                types.append(ctype.name)
        for ctype, *_ in _shapes(self.ruleset.switched_off, counts):
            reason = (f"{ctype.name} is not played under {self.ruleset.id} "
                      f"(combinations.{ctype.name}: \"{ctype.text}\")")
            reasons.setdefault(reason, [ctype.name])
        if not reasons:
            return f"no combination type of {self.ruleset.id} has the shape of these {n} cards"
        return "; ".join(reason if reason.startswith(f"{types[0]} is not played") else
                         f"as {', '.join(types)}: {reason}" for reason, types in reasons.items())


def split_reading(text: str) -> tuple[str, str | None]:
    """Play text as its cards and the reading it names: ``CARDS`` names none (None), and
    ``CARDS@type/length/rank`` names one. An ``@`` followed by nothing names no reading, so it
    is refused rather than read as the plain cards (the same for every command, the play
    prompt and records).

    >>> split_reading("3335@soft_bomb")
    ('3335', 'soft_bomb')
    >>> split_reading("33")
    ('33', None)
    """
    cards_part, at, named = text.partition("@")
    if at and not named.strip():
        raise UsageError(f"{text.strip()!r}: '@' names no reading; write "
                         "CARDS@type/length/rank, or the cards alone")
    return cards_part, named if at else None


def beats_reason(ruleset: Ruleset, play: Play, previous: Play) -> str:
    """Why ``play`` beats ``previous``, or does not, in one sentence: :meth:`Reading.beats`
    told in words, from the side of the play being made.

    >>> from ddz_rules.ruleset import load
    >>> table = compile_table(load("classic"))
    >>> beats_reason(table.ruleset, table.play("3333"), table.play("BR"))  # doctest: +ELLIPSIS
    '3333 (bomb/1/3), of class bomb, is below BR (rocket/1/R), of class rocket; ...'
    >>> beats_reason(table.ruleset, table.play("R"), table.play("B"))
    'R (single/1/R) ranks higher than B (single/1/B) (R over B)'
    """
    mine, theirs = play.reading, previous.reading
    shown = f"{play.cards} ({mine.short()})"
    other = f"{previous.cards} ({theirs.short()})"
    classes = ruleset.class_of
    if mine.level != theirs.level:
        if mine.level > theirs.level:
            return (f"{shown}, of class {classes[mine.type]}, is above {other}, of class "
                    f"{classes[theirs.type]}, and beats it whatever its type")
        return (f"{shown}, of class {classes[mine.type]}, is below {other}, of class "
                f"{classes[theirs.type]}; a play beats only plays of its own class or a lower one")
    also = f" (or, played to go out, {' or '.join(mine.also)})" if mine.also else ""
    if theirs.type != mine.type and theirs.type in mine.also and mine.length == theirs.length:
        shown += f", played to go out, may answer {theirs.type} (play.last_play_answers), and"
    elif (mine.type, mine.length) != (theirs.type, theirs.length):
        return (f"{shown} and {other} differ in type or length; within a class, a play beats "
                f"only the same type{also} and length")
    kickers = "; kickers never count" if mine.kicker_key or theirs.kicker_key else ""
    if mine.beats(theirs):
        return f"{shown} ranks higher than {other} ({mine.rank} over {theirs.rank}){kickers}"
    return f"{shown} does not rank higher than {other} ({mine.rank} vs {theirs.rank}){kickers}"


def _length_phrase(ctype: CombinationType) -> str:
    """How many ranks a chain of this type spans, as a player would say it.

    >>> from ddz_rules.ruleset import load
    >>> _length_phrase(load("classic").combination("pair_straight"))
    'at least 3'
    >>> _length_phrase(load("turned-card").combination("pair_straight"))
    'exactly 3'
    """
    low, high = ctype.min_length, ctype.max_length
    if high is None:
        return f"at least {low}"
    return f"exactly {low}" if low == high else f"{low} to {high}"


def table_order(key: int) -> tuple[int, bytes]:
    """Sort key of the table: fewer cards first, then by ranks low to high (a byte a card,
    its rank index, so that comparing them compares the ranks in turn).

    >>> from ddz_rules import cards
    >>> table_order(cards.pack_ranks([0, 0, 2]))
    (3, b'\\x00\\x00\\x02')
    """
    ranks = b"".join([_RANK_RUNS[rank][(key >> shift) & cards.FIELD_MASK]
                      for rank, shift in enumerate(_SHIFTS)])
    return len(ranks), ranks


#: ``_RANK_RUNS[rank][n]``: n bytes of value ``rank``; the shift of each rank's field.
_RANK_RUNS = tuple(tuple(bytes([rank]) * n for n in range(cards.FIELD_MASK + 1))
                   for rank in range(cards.NUM_RANKS))
_SHIFTS = tuple(cards.FIELD_BITS * rank for rank in range(cards.NUM_RANKS))


def _kicker_fault(ctype: CombinationType, chain: Sequence[int],
                  kickers: Sequence[int]) -> str | None:
    body = [0] * cards.NUM_RANKS
    for r in chain:
        body[r] = ctype.width
    for rank, n in enumerate(kickers):
        if n:
            reason = rank_reason(ctype, body, rank, n)
            if reason:
                return reason
    return whole_reason(ctype, chain, kickers)


def _shapes(types: Iterable[CombinationType], counts: Sequence[int]
            ) -> Iterator[tuple[CombinationType, tuple[int, ...], list[int], str | None]]:
    """Every way the counts split into a body chain and kickers of one of ``types``' shapes.

    Chain range and length are checked here and reported as the shape's fault, so ``explain``
    can say "a straight stops at A" rather than "no such shape".
    """
    for ctype in types:
        for start in range(cards.NUM_RANKS):
            for end in range(start, cards.NUM_RANKS):
                if counts[end] < ctype.width:
                    break
                chain = tuple(range(start, end + 1))
                length = len(chain)
                if length > 1 and not ctype.is_chain:
                    break
                if ctype.fixed_set and (start, end) != (ctype.low, ctype.high):
                    continue
                rest = list(counts)
                for r in chain:
                    rest[r] -= ctype.width
                units = ctype.kicker_count(length)
                if ctype.kicker_unit == 0:
                    if any(rest):
                        continue
                elif ctype.kicker_unit == 1:
                    if sum(rest) != units:
                        continue
                elif any(n % 2 for n in rest) or sum(rest) != 2 * units:
                    continue
                fault = None
                if start < ctype.low or end > ctype.high:
                    fault = (f"its body runs {RANKS[start]}-{RANKS[end]}, but {ctype.name} "
                             f"bodies may only use ranks {RANKS[ctype.low]}-{RANKS[ctype.high]}")
                elif length < ctype.min_length or (ctype.max_length is not None
                                                    and length > ctype.max_length):
                    fault = (f"a {ctype.name} runs over {_length_phrase(ctype)} "
                             f"consecutive ranks; these cards run over {length}")
                yield ctype, chain, rest, fault


# ---------------------------------------------------------------------- compiling


@cache
def compile_table(ruleset: Ruleset) -> PlayTable:
    """The play table of ``ruleset`` (one per ruleset; enumerated on first need)."""
    return PlayTable(ruleset)


def _ordered(readings: Iterable[Reading]) -> tuple[Reading, ...]:
    return tuple(sorted(readings, key=lambda r: (r.type, r.length, r.rank_index, r.kicker_key)))


def _named(readings: Sequence[Reading]) -> list[Reading]:
    """One reading per ``type/length/rank`` (the first), in order: what a player names."""
    seen: dict[str, Reading] = {}
    for r in readings:
        seen.setdefault(r.short(), r)
    return list(seen.values())


#: The wild ranks of a hand (laizi), as rank indices; empty where there are none.
Wild = tuple[int, ...]


Runs = tuple[tuple["_Body", ...], ...]
#: Runs indexed by the lowest rank of their bodies and the cards of it they need:
#: ``index[rank][width]``. A hand visits only the runs whose first rank it holds enough of.
RunIndex = tuple[tuple[Runs, ...], ...]
#: (rank, kicker units allowed for each number of cards available, as (units, key) pairs)
Option = tuple[int, tuple[tuple[tuple[int, int], ...], ...]]


def _index(runs: Iterable[tuple[_Body, ...]]) -> RunIndex:
    table: list[list[list[tuple[_Body, ...]]]] = [
        [[] for _ in range(MAX_WIDTH + 1)] for _ in range(cards.NUM_RANKS)]
    for run in runs:
        first = run[0]
        table[first.chain[0]][first.ctype.width].append(run)
    return tuple(tuple(tuple(by_width) for by_width in by_rank) for by_rank in table)


def _answering_runs(all_runs: Runs, previous: Reading) -> Runs:
    """The bodies whose plays can beat ``previous``: a higher class, or a higher body
    (kickers never count, so a body's reading beats where its plays do)."""
    runs = (tuple(b for b in run if b.reading().beats(previous)) for run in all_runs)
    return tuple(run for run in runs if run)


class _WildBody(NamedTuple):
    """A body as :meth:`PlayTable._wild_plays` takes it, with what that needs worked out once."""

    body: _Body
    #: Where its fills are among those of its group (:data:`WildRuns`).
    level: int
    #: A bit per rank its kickers may have, and those of them on its chain.
    kicker_ranks: int
    chain_kickers: int
    #: The bit fields of its kicker ranks in a packed card set.
    fields: int
    #: Its kicker choices as a share of those of its type (:class:`_Kinds`), or -1.
    kind: int
    #: The reading of each kicker set met so far (None where the kicker rules forbid it), by
    #: the wild ranks it was read with (``()`` where kicker wilds are of their own rank).
    readings: dict[Wild, dict[int, Reading | None]]


#: A chain, the chain lengths of the bodies of it to make, the type's width and ``wilds``: what
#: :meth:`Fills.of_run` takes.
FillGroup = tuple[tuple[int, ...], tuple[int, ...], int, str]
#: Runs as :meth:`PlayTable._wild_plays` takes them: the groups of runs whose bodies are made
#: alike (the same chains, width and ``wilds``: trio, trio_single and trio_pair of one rank),
#: and each run as its group's index and its bodies, in the order of the runs.
WildRuns = tuple[tuple[FillGroup, ...], tuple[tuple[int, tuple[_WildBody, ...]], ...]]


class _Kinds:
    """Kicker choices one hand's bodies share, and what each body of a table has read.

    Per type and number of kicker units, a kind holds the per-rank options of the type's bodies
    off their chain. A type's kicker rules judge a kicker rank by the body's cards of that
    rank, so a body whose options are its type's (none on its own chain) has as kicker choices
    from some cards exactly its kind's choices from the whole hand that those cards contain, in
    the same order (:func:`_choose` orders choices by the units taken of each rank, whatever
    is available). A hand then builds each kind's choices once and each body filters them,
    instead of each body building its own for each way it is made.
    """

    def __init__(self, runs: Runs, ruleset: Ruleset, stands_for: frozenset[int]) -> None:
        self.ruleset, self.stands_for = ruleset, stands_for
        off_chain: dict[str, dict[int, tuple[tuple[tuple[int, int], ...], ...] | None]] = {}
        for run in runs:
            for body in run:
                ranks = off_chain.setdefault(body.ctype.name, {})
                for rank, by_avail in body.options:
                    if rank not in body.chain:  # bodies that disagree share no rank: None
                        ranks[rank] = by_avail if ranks.get(rank, by_avail) == by_avail else None
        self.options: dict[str, tuple[Option, ...]] = {
            name: tuple(sorted((rank, by_avail) for rank, by_avail in ranks.items()
                               if by_avail is not None))
            for name, ranks in off_chain.items()}
        self._index: dict[tuple[str, int], int] = {}
        #: The options and number of units of each kind, by index.
        self.kinds: list[tuple[tuple[Option, ...], int]] = []
        #: Each body's readings (:attr:`_WildBody.readings`), by ``id``.
        self.readings: dict[int, dict[Wild, dict[int, Reading | None]]] = {}
        #: Per body (by ``id``), what :class:`_WildKickers` needs of it, worked out on first need.
        self.wild_options: dict[int, tuple[_WildOption, ...]] = {}
        self.allowed: dict[int, tuple[frozenset[int], ...]] = {}
        #: Per kind, its options as :class:`_WildKickers` takes them.
        self.kind_wild_options: dict[int, tuple[_WildOption, ...]] = {}

    def of(self, body: _Body) -> int:
        """The kind whose choices ``body`` shares, or -1 where it has options of its own."""
        if body.play is not None:
            return -1
        name = body.ctype.name
        mine = dict(self.options[name])
        if any(mine.get(rank) != by_avail for rank, by_avail in body.options):
            return -1
        if body.n_units == 1 and any(fits[0][0] != 1 for _, by_avail in body.options
                                     for fits in by_avail if fits):
            return -1  # one unit takes each rank's first option (_kicker_keys)
        key = name, body.n_units
        if key not in self._index:
            self._index[key] = len(self.kinds)
            self.kinds.append((self.options[name], body.n_units))
        return self._index[key]


def _wild_runs(runs: Runs, kinds: _Kinds) -> WildRuns:
    """Runs with what making their bodies with wild cards needs, computed once.

    The bodies of a run have chains of one lowest rank, each the one before it and one rank
    more (:func:`_runs`), so the runs of a group are made from the longest chain among them.
    """
    bits = cards.FIELD_BITS
    groups: dict[tuple[int, int, str], tuple[list[int], list[int]]] = {}
    for run in runs:
        ctype = run[0].ctype
        chain, lengths = groups.setdefault((run[0].chain[0], ctype.width, ctype.wilds), ([], []))
        if len(run[-1].chain) > len(chain):
            chain[:] = run[-1].chain
        lengths += [len(body.chain) for body in run]
    made = {key: (tuple(chain), tuple(sorted(set(lengths))), key[1], key[2])
            for key, (chain, lengths) in groups.items()}
    index = {key: i for i, key in enumerate(made)}
    out = []
    for run in runs:
        ctype = run[0].ctype
        key = run[0].chain[0], ctype.width, ctype.wilds
        bodies = []
        for body in run:
            kicker_ranks = sum(1 << rank for rank, _ in body.options)
            chain_ranks = sum(1 << rank for rank in body.chain)
            fields = sum(cards.FIELD_MASK << (bits * rank) for rank, _ in body.options)
            bodies.append(_WildBody(body, made[key][1].index(len(body.chain)), kicker_ranks,
                                    kicker_ranks & chain_ranks, fields, kinds.of(body),
                                    kinds.readings.setdefault(id(body), {})))
        out.append((index[key], tuple(bodies)))
    return tuple(made.values()), tuple(out)


#: ``tuple.__new__``: a :class:`Play` built without the named tuple's own ``__new__`` (a Python
#: function call per play, where listing thousands of them is most of the cost).
_new_play = tuple.__new__

#: A hand's kicker choices of one kind (:class:`_Kinds`), and the same packed for the compiled
#: kernel (None where it was not built).
_Choices = tuple[list[int], bytes | None]


def _choices(every: list[int]) -> _Choices:
    """A kind's kicker choices from one hand, packed once for the kernel where it was built."""
    return every, (None if _kernel is None else _kernel.pack(every))


def _wild_kicker_plays(body: _Body, readings: dict[int, Reading | None], fields: int,
                       fills: list[int], hand: int, clash: bool, every: _Choices | None,
                       out: list[Play], kick: _WildKickers | None = None) -> None:
    """Append the plays of ``body`` made each of the ways ``fills`` (packed cards), with every
    allowed set of kickers from the rest of ``hand`` (``fields``: the bit fields of its kicker
    ranks; ``readings``: :attr:`_WildBody.readings`).

    A fill's kicker choices are those of ``every`` (its kind's from the whole hand:
    :class:`_Kinds`) that the cards it leaves of the kicker ranks contain, in the same order;
    a body of no kind finds its own. With ``clash``, a card set two fills can make keeps its
    lowest kickers, in the order of first appearance.

    Where the compiled kernel was built (``ddz_rules/_kernel.c``), it runs this loop for a body
    of a kind without ``clash``, play for play as the Python below does. With ``kick``, a kicker
    wild may stand for another rank: the kicker sets tried and their readings are its.
    """
    guard = cards.GUARD
    learn = _learn if kick is None else kick.learn
    if every is not None and (packed := every[1]) is not None and not clash:
        keys = every[0]
        for _ in range(2):
            try:
                _kernel.kicker_plays(Play, fills, hand, fields, guard, keys, packed, readings, out)
                return
            except KeyError:  # a kicker set not met before: learn them all, then go again
                for fill in fills:
                    top = ((hand - fill) & fields) | guard
                    learn(body, readings, [k for k in keys if (top - k) & guard == guard])
    found: dict[int, Play] = {}
    plays: list[Play] = []
    for fill in fills:
        rest = hand - fill
        keys = (every[0] if every is not None else _kicker_keys(body, rest) if kick is None
                else kick.keys(body, rest))
        top = (rest & fields) | guard
        for _ in range(2):
            try:
                plays = [_new_play(Play, (fill + k, r)) for k in keys
                         if (top - k) & guard == guard and (r := readings[k]) is not None]
                break
            except KeyError:  # a kicker set not met before: learn them all, then go again
                learn(body, readings, [k for k in keys if (top - k) & guard == guard])
        if not clash:
            out += plays
            continue
        for play in plays:
            seen = found.get(play.key)
            if seen is None or play.reading.kicker_key < seen.reading.kicker_key:
                found[play.key] = play
    out += found.values()


#: A kicker rank as :class:`_WildKickers` lists it: the rank, and for each number of natural
#: cards of it a kicker set may hold, (that number, the fewest wilds that make it a count the
#: rules allow, the cards packed).
_WildOption = tuple[int, tuple[tuple[int, int, int], ...]]


class _WildKickers:
    """The kicker sets of a hand's plays where a kicker wild may stand for another rank
    (``wild.in_kickers: any_rank``), with the wild ranks ``wild``.

    A kicker set is listed as the cards it is made of: natural cards, each of its own rank, and
    wild cards, which :func:`~ddz_rules.wilds.kicker_stand_ins` plays as whatever ranks make
    kickers the rules allow. Listing keeps natural cards to counts some number of wilds could
    complete (a lone 4 is half a pair of 4s), and only where the set holds that many wilds;
    whether a set is legal is decided once per body and set, by
    :func:`~ddz_rules.wilds.kicker_stand_ins`, and kept in the body's readings.
    """

    __slots__ = ("fields", "kinds", "wild")

    def __init__(self, wild: Wild, kinds: _Kinds) -> None:
        self.wild, self.kinds = wild, kinds
        #: The bit fields of the wild ranks: every body with kickers may hold them as kickers.
        self.fields = sum(cards.FIELD_MASK << (cards.FIELD_BITS * r) for r in wild)

    def kind_options(self, kind: int, body: _Body) -> tuple[_WildOption, ...]:
        """The kicker ranks of a kind (:class:`_Kinds`) as :meth:`choices` takes them."""
        known = self.kinds.kind_wild_options.get(kind)
        if known is None:
            known = self.kinds.kind_wild_options[kind] = _relaxed(
                self.kinds.kinds[kind][0], body.ctype.kicker_unit, self.kinds.stands_for)
        return known

    def keys(self, body: _Body, rest: int) -> list[int]:
        """Every kicker set ``body`` may be tried with from the cards ``rest``."""
        known = self.kinds.wild_options.get(id(body))
        if known is None:
            known = self.kinds.wild_options[id(body)] = _relaxed(
                body.options, body.ctype.kicker_unit, self.kinds.stands_for)
        return self.choices(known, body, rest)

    def choices(self, options: Sequence[_WildOption], body: _Body, rest: int) -> list[int]:
        """The kicker sets of ``body``'s size from the cards ``rest``: natural cards by
        ``options``, and as many wild cards as the set lacks, no fewer than its natural cards
        need, each split among the wild ranks every way."""
        bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
        total = body.ctype.kicker_unit * body.n_units
        counts = cards.unpack(rest)
        most = min(total, sum(counts[r] for r in self.wild))
        ways: dict[tuple[int, int], list[int]] = {(0, 0): [0]}
        for rank, steps in options:
            avail = (rest >> (bits * rank)) & mask
            if not avail or rank in self.wild:
                continue
            more: dict[tuple[int, int], list[int]] = {}
            for (size, need), keys in ways.items():
                for n, wilds, step in steps:
                    if n > avail:
                        break
                    grown, needs = size + n, need + wilds
                    if grown <= total and needs <= min(most, total - grown):
                        more.setdefault((grown, needs), []).extend([k + step for k in keys])
            for at, keys in more.items():
                ways.setdefault(at, []).extend(keys)
        out: list[int] = []
        for (size, need), keys in ways.items():
            left = total - size
            if need <= left <= most:
                for part in wild_choices(counts, self.wild, left):
                    out += [k + part for k in keys]
        return out

    def reading(self, body: _Body, kick: int) -> Reading | None:
        """The reading of ``body`` carrying exactly the cards ``kick``, or None where no way to
        play its wild cards makes kickers the rules allow."""
        counts = cards.unpack(kick)
        if not any(counts[r] for r in self.wild):
            play = _exact_play(body, kick)
            return None if play is None else play.reading
        ctype = body.ctype
        if body.play is not None or cards.size(kick) != ctype.kicker_unit * body.n_units:
            return None
        allowed = self.kinds.allowed.get(id(body))
        if allowed is None:
            allowed = self.kinds.allowed[id(body)] = kicker_counts(
                ctype, body.chain, self.kinds.ruleset.copies)
        if kicker_stand_ins(ctype, body.chain, counts, self.wild, "any_rank",
                            self.kinds.stands_for, allowed) is None:
            return None
        return body.reading(kick)

    def learn(self, body: _Body, readings: dict[int, Reading | None],
              keys: Iterable[int]) -> None:
        """As :func:`_learn`, by :meth:`reading`."""
        for k in keys:
            if k not in readings:
                readings[k] = self.reading(body, k)


def _relaxed(options: Sequence[Option], unit: int,
             stands_for: frozenset[int]) -> tuple[_WildOption, ...]:
    """Per-rank kicker options (:attr:`_Body.options`) as :class:`_WildKickers` lists natural
    cards: any number up to the most the rules allow of a rank a wild may stand for, with the
    fewest wilds that complete it to an allowed count; exactly the allowed counts of another."""
    bits = cards.FIELD_BITS
    out = []
    for rank, by_avail in options:
        allowed = sorted(units * unit for units, _ in by_avail[-1])
        if not allowed:
            continue
        counts = range(1, allowed[-1] + 1) if rank in stands_for else allowed
        out.append((rank, tuple((n, min(a for a in allowed if a >= n) - n, n << (bits * rank))
                                for n in counts)))
    return tuple(out)


def _learn(body: _Body, readings: dict[int, Reading | None], keys: Iterable[int]) -> None:
    """Note the reading of ``body`` with each kicker set of ``keys`` not met before (None where
    a whole-play rule forbids it), from the body's own plays (:func:`_kicker_play`)."""
    for k in keys:
        if k not in readings:
            known = body.plays.get(k, _UNSEEN)
            play = _kicker_play(body, k) if known is _UNSEEN else cast("Play | None", known)
            readings[k] = None if play is None else play.reading


@dataclass(frozen=True, slots=True)
class _Body:
    """One body of one type (a chain of ranks, ``width`` cards each) and what it may carry.

    ``options`` lists, per kicker rank, the numbers of kicker units that the per-rank
    restrictions allow beside this body, computed once by calling those restrictions, and
    indexed by how many cards of that rank are available. ``plays`` caches each kicker set's
    play (None where a whole-play restriction forbids it).
    """

    ctype: CombinationType
    key: int
    chain: tuple[int, ...]
    length: int
    top: int
    n_units: int
    options: tuple[Option, ...]
    play: Play | None
    plays: dict[int, Play | None]

    def reading(self, kick_key: int = 0) -> Reading:
        """The reading of this body carrying the kickers ``kick_key``."""
        ctype = self.ctype
        return Reading(ctype.name, self.length, self.top, kick_key, ctype.level, ctype.answers)


def _runs(ruleset: Ruleset, natural: bool = True) -> Runs:
    """Every body of every declared type that fits the deck and the largest hand; with
    ``natural``, only the types a body of natural cards can be (not a soft bomb).

    Bodies come in runs of one type and one lowest rank, shortest chain first: when a hand
    lacks a body, it lacks every longer body of its run too.
    """
    runs: dict[tuple[str, int], list[_Body]] = {}
    bits = cards.FIELD_BITS
    for ctype in ruleset.combinations:
        if natural and ctype.needs_wilds:
            continue
        width, unit = ctype.width, ctype.kicker_unit
        longest = ctype.high - ctype.low + 1
        if ctype.max_length is not None:
            longest = min(longest, ctype.max_length)
        for chain_length in range(ctype.min_length, longest + 1):
            n_units = ctype.kicker_count(chain_length)
            if width * chain_length + unit * n_units > ruleset.max_hand:
                break
            for start in range(ctype.low, ctype.high - chain_length + 2):
                chain = tuple(range(start, start + chain_length))
                if any(ruleset.copies[r] < width for r in chain):
                    continue
                body = [0] * cards.NUM_RANKS
                for r in chain:
                    body[r] = width
                key = cards.pack(body)
                length = ctype.reading_length(chain_length)
                options: list[Option] = []
                for rank in range(cards.NUM_RANKS) if unit else ():
                    room = (ruleset.copies[rank] - body[rank]) // unit
                    allowed = tuple((k, (k * unit) << (bits * rank)) for k in range(1, room + 1)
                                    if rank_reason(ctype, body, rank, k * unit) is None)
                    if allowed:
                        by_avail = tuple(tuple(a for a in allowed if a[0] * unit <= avail)
                                         for avail in range(cards.FIELD_MASK + 1))
                        options.append((rank, by_avail))
                plain = None if unit else Play(key, Reading(ctype.name, length, chain[-1], 0,
                                                            ctype.level, ctype.answers))
                runs.setdefault((ctype.name, start), []).append(_Body(
                    ctype, key, chain, length, chain[-1], n_units, tuple(options), plain, {}))
    return tuple(tuple(run) for run in runs.values())


#: The widest body: a bomb of eight, from two decks (the schema's limit on ``width``).
MAX_WIDTH = 8
#: For each count of a rank held, the body widths a hand holding it may start a body with.
_WIDTHS = tuple(tuple(range(1, min(held, MAX_WIDTH) + 1)) for held in range(cards.FIELD_MASK + 1))


def _plays_within(index: RunIndex, bound: int) -> list[Play]:
    """Every legal play, with its reading, whose cards lie within the packed set ``bound``."""
    top = bound | cards.GUARD
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    out: list[Play] = []
    for rank, by_width in enumerate(index):
        held = (bound >> (bits * rank)) & mask
        for width in _WIDTHS[held]:
            _collect(by_width[width], bound, top, out)
    return out


def _flatten(table: PlayTable) -> _moves.Lister:
    """The compiled lister of ``table`` (:func:`lister_arrays`)."""
    return _moves.Lister(**lister_arrays(table))


class ListerArrays(TypedDict):
    """The arguments of the compiled lister (``ddz_rules/_moves.c``): card-field sizes, then
    arrays of little-endian 128-bit card sets or 32-bit ints, then the plays in id order."""

    ranks: int
    bits: int
    max_width: int
    max_hand: int
    keys: bytes
    body_play: bytes
    body_kicks: bytes
    kick_keys: bytes
    kick_ids: bytes
    lead_bodies: bytes
    lead_skip: bytes
    slots: bytes
    answer_bodies: bytes
    answer_skip: bytes
    play_class: bytes
    plays: tuple[Play, ...]


def lister_arrays(table: PlayTable) -> ListerArrays:
    """What the compiled lister of ``table`` is made of: its bodies, each one's plays (its one
    play, or its kicker sets from the whole deck in the order :func:`_add_kickers` lists them),
    and two walks over the bodies with where each run ends: by lowest rank and width (leads, as
    :func:`_plays_within`) and in run order (answers, as :func:`_plays_within_runs`)."""
    bodies, ids, deck = table._bodies, table._ids, table.ruleset.deck_key
    where = {id(body): i for i, body in enumerate(bodies)}
    keys, kick_keys = bytearray(), bytearray()
    body_play, body_kicks, kick_ids = array("i"), array("i", [0]), array("i")
    for body in bodies:
        keys += body.key.to_bytes(16, "little")
        if body.play is not None:
            body_play.append(ids[body.play])
        else:
            body_play.append(-1)
            found: list[Play] = []
            _add_kickers(body, deck, found)
            for play in found:
                kick_keys += (play.key - body.key).to_bytes(16, "little")
                kick_ids.append(ids[play])
        body_kicks.append(len(kick_ids))

    def walk(runs: Iterable[tuple[_Body, ...]], order: array[int], skip: array[int]) -> None:
        for run in runs:
            end = len(order) + len(run)
            order.extend(where[id(body)] for body in run)
            skip.extend(repeat(end, len(run)))

    lead_bodies, lead_skip, slots = array("i"), array("i"), array("i")
    for by_width in table._index:
        for runs in by_width:
            slots.append(len(lead_bodies))
            walk(runs, lead_bodies, lead_skip)
    slots.append(len(lead_bodies))
    answer_bodies, answer_skip = array("i"), array("i")
    walk(table._runs, answer_bodies, answer_skip)
    play_class = array("i", map(table._class_of, (play.reading for play in table.by_id)))
    return {"ranks": cards.NUM_RANKS, "bits": cards.FIELD_BITS, "max_width": MAX_WIDTH,
            "max_hand": table.ruleset.max_hand, "keys": bytes(keys),
            "body_play": body_play.tobytes(), "body_kicks": body_kicks.tobytes(),
            "kick_keys": bytes(kick_keys), "kick_ids": kick_ids.tobytes(),
            "lead_bodies": lead_bodies.tobytes(), "lead_skip": lead_skip.tobytes(),
            "slots": slots.tobytes(), "answer_bodies": answer_bodies.tobytes(),
            "answer_skip": answer_skip.tobytes(), "play_class": play_class.tobytes(),
            "plays": table.by_id}


def _plays_within_runs(runs: Runs, bound: int) -> list[Play]:
    """As :func:`_plays_within`, for a short list of runs (answering a play)."""
    out: list[Play] = []
    _collect(runs, bound, bound | cards.GUARD, out)
    return out


def _collect(runs: Runs, bound: int, top: int, out: list[Play]) -> None:
    """Append the plays of every body of ``runs`` within ``bound`` (``top``: bound | GUARD)."""
    guard = cards.GUARD
    for run in runs:
        for body in run:
            if (top - body.key) & guard != guard:
                break
            if body.play is not None:
                out.append(body.play)
            else:
                _add_kickers(body, bound, out)


def _add_kickers(body: _Body, bound: int, out: list[Play]) -> None:
    """Append the plays of one body with every allowed set of kickers from ``bound``."""
    cache = body.plays
    for kick_key in _kicker_keys(body, bound - body.key):
        play = cache.get(kick_key, _UNSEEN)
        if play is _UNSEEN:
            play = _kicker_play(body, kick_key)
        if play is not None:
            out.append(play)  # type: ignore[arg-type]


_UNSEEN = object()


def _kicker_keys(body: _Body, rest: int) -> list[int]:
    """Every kicker set (packed) ``body`` may carry from the cards ``rest``, per-rank rules
    applied (0 alone for a type with no kickers).

    Several kicker units: :func:`_choose`.
    """
    if body.play is not None:
        return [0]
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    if body.n_units == 1:  # one kicker unit: one choice per rank that has it
        return [fits[0][1] for rank, by_avail in body.options
                if (fits := by_avail[(rest >> (bits * rank)) & mask])]
    return _choose(body.options, body.n_units, rest)


def _choose(options: Sequence[Option], total: int, rest: int) -> list[int]:
    """Every choice (packed) of ``total`` kicker units from the cards ``rest`` under the
    per-rank ``options``, ranks lowest first, a rank's fewer units first, as
    :func:`_multisets` walks them.

    Built from the highest rank down: ``ways[t]`` lists the choices of ``t`` units among the
    ranks seen so far, so each rank costs a list comprehension per count of units, not a call
    per choice.
    """
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    ways: list[list[int]] = [[0], *([] for _ in range(total))]
    reach = 0
    for rank, by_avail in reversed(options):
        fits = by_avail[(rest >> (bits * rank)) & mask]
        if not fits:
            continue
        reach = min(total, reach + fits[-1][0])
        for t in range(reach, 1, -1):  # down, so ways[t - units] is still without this rank
            head = [step + key for units, step in fits if units <= t for key in ways[t - units]]
            if head:
                head += ways[t]
                ways[t] = head
        if total and fits[0][0] == 1:  # one unit of this rank alone
            ways[1] = [fits[0][1], *ways[1]]
    return ways[total]


def _exact_play(body: _Body, rest: int) -> Play | None:
    """The play of ``body`` with exactly the cards ``rest`` as its kickers, or None where the
    type's kicker rules (or its lack of kickers) do not allow them."""
    if body.play is not None:
        return body.play if rest == 0 else None
    unit = body.ctype.kicker_unit
    if not unit or cards.size(rest) != unit * body.n_units:
        return None
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    units = 0
    covered = 0
    for rank, by_avail in body.options:
        n = (rest >> (bits * rank)) & mask
        if not n:
            continue
        fits = by_avail[n]  # the allowed unit counts up to n, ascending: is n itself one?
        if not fits or fits[-1][0] * unit != n:
            return None
        units += n // unit
        covered += n << (bits * rank)
    if covered != rest or units != body.n_units:
        return None
    play = body.plays.get(rest, _UNSEEN)
    if play is _UNSEEN:
        play = _kicker_play(body, rest)
    return play  # type: ignore[return-value]


def _kicker_sets(body: _Body, rest: int) -> int:
    """How many kicker choices ``body`` has from the cards ``rest`` (whole-play rules aside):
    the coefficient of x**n_units in the product, over the allowed ranks, of
    1 + the sum of x**k for each allowed number k of units of that rank."""
    total = body.n_units
    if body.play is not None or not total:
        return 1
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    ways = [1] + [0] * total
    for rank, by_avail in body.options:
        fits = by_avail[(rest >> (bits * rank)) & mask]
        if not fits:
            continue
        new = list(ways)
        for k, _ in fits:
            for t in range(k, total + 1):
                new[t] += ways[t - k]
        ways = new
    return ways[total]


#: A body's kicker options from some cards, and for each option ``i`` and number of units
#: ``t``, the ways to pick ``t`` units from options ``i`` onward (the last row: none left).
_Suffix = tuple[list[tuple[int, tuple[tuple[int, int], ...]]], list[list[int]]]


def _kicker_ways(body: _Body, rest: int) -> _Suffix:
    """What :func:`_draw_kickers` needs to draw one of ``body``'s kicker choices from ``rest``:
    the polynomial product of :func:`_kicker_sets`, kept for every suffix of the ranks."""
    total = body.n_units
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    options = [(rank, fits) for rank, by_avail in body.options
               if (fits := by_avail[(rest >> (bits * rank)) & mask])]
    ways = [[0] * (total + 1) for _ in range(len(options) + 1)]
    ways[-1][0] = 1
    for i in range(len(options) - 1, -1, -1):
        after, here = ways[i + 1], list(ways[i + 1])
        for k, _ in options[i][1]:
            for t in range(k, total + 1):
                here[t] += after[t - k]
        ways[i] = here
    return options, ways


def _draw_kickers(body: _Body, suffix: _Suffix, rng: random.Random) -> int:
    """One of ``body``'s kicker choices (packed), each with the same chance: rank by rank, a
    number of units is taken with probability proportional to the ways to finish the choice."""
    options, ways = suffix
    left, key = body.n_units, 0
    for i, (_, fits) in enumerate(options):
        if not left:
            break
        pick = rng.randrange(ways[i][left]) - ways[i + 1][left]  # below 0: none of this rank
        for k, step in fits:
            if pick < 0 or k > left:
                break
            pick -= ways[i + 1][left - k]
            if pick < 0:
                key += step
                left -= k
    return key


def _estimate(runs: Runs, bound: int) -> int:
    """:meth:`PlayTable.size_estimate` over some runs: readings within ``bound``, at most."""
    top = bound | cards.GUARD
    guard = cards.GUARD
    total = 0
    for run in runs:
        for body in run:
            if (top - body.key) & guard != guard:
                break
            total += _kicker_sets(body, bound - body.key)
    return total


def _estimate_within(index: RunIndex, bound: int) -> int:
    """As :func:`_estimate` over every run, visiting only those whose first rank ``bound``
    holds (as :func:`_plays_within` does)."""
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    total = 0
    for rank, by_width in enumerate(index):
        for width in _WIDTHS[(bound >> (bits * rank)) & mask]:
            total += _estimate(by_width[width], bound)
    return total


#: Kicker choices tried per body, at most, when looking for one play a type can make.
_SEARCH = 1000


def _check_playable(ruleset: Ruleset, runs: Runs, index: RunIndex) -> None:
    """Refuse a ruleset the engine could not play: a combination type no card set of the deck
    can form (a mistake, such as pair kickers from a one-copy deck), or a card that is no play
    by itself (a seat left holding only that card could never lead, and the hand could not go
    on)."""
    deck = ruleset.deck_key
    formable = {c.name: False for c in ruleset.combinations if not c.needs_wilds}
    for run in runs:
        name = run[0].ctype.name
        if formable[name]:
            continue
        formable[name] = any(_can_form(body, deck - body.key) for body in run)
    for name, ok in formable.items():
        if not ok:
            raise ruleset.error(
                f"no card set of this {ruleset.deck_size}-card deck, in a hand of at most "
                f"{ruleset.max_hand} cards, can form it; remove it with 'enabled: false' or "
                "change its shape", "combinations", name)
    for rank in ruleset.deck_ranks:
        if not _plays_within(index, 1 << (cards.FIELD_BITS * rank)):
            raise ruleset.error(
                f"no combination type plays a lone {RANKS[rank]}, so a seat left holding only "
                "that card could never lead; every card of the deck must be a play by itself",
                "combinations")


def _can_form(body: _Body, rest: int) -> bool:
    """Whether ``body`` makes at least one play with kickers from ``rest``."""
    if body.play is not None:
        return True
    choices = _kicker_sets(body, rest)
    if not choices:
        return False
    bits, mask = cards.FIELD_BITS, cards.FIELD_MASK
    options = [(rank, fits) for rank, by_avail in body.options
               if (fits := by_avail[(rest >> (bits * rank)) & mask])]
    for tried, picked in enumerate(_multisets(options, body.n_units)):
        if tried >= _SEARCH:
            return True  # more choices than a whole-play rule could ever refuse: assume so
        if _kicker_play(body, sum(step for _, step in picked)) is not None:
            return True
    return False


def _kicker_play(body: _Body, kick_key: int) -> Play | None:
    """The play of a body with these kickers, or None where a whole-play rule forbids it."""
    ctype = body.ctype
    kickers = cards.unpack(kick_key)
    play = None
    if whole_reason(ctype, body.chain, kickers) is None:
        play = Play(body.key + kick_key, body.reading(kick_key))
    body.plays[kick_key] = play
    return play


def _multisets(options: Sequence[tuple[int, Sequence[tuple[int, int]]]], total: int
               ) -> Iterator[list[tuple[int, int]]]:
    """Every choice of (units, key step) per rank, ranks increasing, units summing to ``total``."""
    picked: list[tuple[int, int]] = []

    def walk(i: int, left: int) -> Iterator[list[tuple[int, int]]]:
        if left == 0:
            yield picked
            return
        for j in range(i, len(options)):
            for choice in options[j][1]:
                if choice[0] > left:
                    break
                picked.append(choice)
                yield from walk(j + 1, left - choice[0])
                picked.pop()

    yield from walk(0, total)
