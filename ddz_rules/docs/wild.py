"""Wild cards (laizi) in the rules book: every example with wild cards, computed by the engine
with a stated wild rank, and what each wild card of such a play is.

A play's readings depend on the hand's wild ranks, so every example with wild cards states
them ("wild 5"), as ``ddz classify --wild 5`` does. The wild ranks a page states are those of
the ruleset's own examples (:func:`stated_wild`). What each wild card of a play is, a stand-in
for a card its body needs, a card of its own rank, or a kicker, comes from
:func:`ddz_rules.wilds.stand_ins`, which makes the body by the engine's own rule
(:func:`ddz_rules.wilds.body_fills`); :func:`wild_roles` says it.

>>> from ddz_rules.docs.book import Book
>>> book = Book()
>>> laizi = book.ruleset("laizi")
>>> wild = stated_wild(book, laizi)
>>> wild_arg(wild)
'5'
>>> play = read(book.table("laizi"), "3335", wild, "soft_bomb")
>>> play.reading.short(), play.notation()
('soft_bomb/1/3', '3335@soft_bomb/1/3')
>>> import re
>>> re.sub("<[^>]+>", "", wild_roles(laizi, play))
'the wild 5 stands for a 3'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.cards import RANKS
from ddz_rules.docs.book import Book
from ddz_rules.docs.names import join_words
from ddz_rules.docs.render import card_faces, code_html, plural
from ddz_rules.ruleset import CombinationType, Ruleset
from ddz_rules.table import Play, PlayTable, Reading, Wild
from ddz_rules.wilds import StandIn, stand_ins, wild_count

#: When a wild rank is drawn (``wild.drawn``), in words (as the schema defines each value).
WHEN = {"before_auction": "at the deal, before the auction",
        "after_auction": "once the landlord has taken the kitty"}


def when_text(ruleset: Ruleset, when: str) -> str:
    """When a wild rank is drawn, in words; with no kitty, after the auction."""
    if when == "after_auction" and not ruleset.kitty:
        return "once the auction is over"
    return WHEN.get(when, when.replace("_", " "))


def draws_text(ruleset: Ruleset) -> str:
    """How many wild ranks a hand has and when each is drawn, from ``wild.drawn``:
    ``one wild rank a hand, drawn once ...``; ``none`` without wild cards."""
    drawn = ruleset.wild_drawn
    if not drawn:
        return "none"
    if len(drawn) == 1:
        return f"one wild rank a hand, drawn {when_text(ruleset, drawn[0])}"
    ordinals = ("the first", "the second", "the third", "the fourth")
    each = [f"{ordinals[i] if i < len(ordinals) else f'number {i + 1}'} drawn "
            f"{when_text(ruleset, when)}" for i, when in enumerate(drawn)]
    return f"{plural(len(drawn), 'wild rank', spell=True)} a hand: {'; '.join(each)}"


def wild_cards_in_play(ruleset: Ruleset) -> int:
    """How many cards are wild in a hand: every copy of each drawn rank."""
    copies = max((ruleset.copies[r] for r in ruleset.wild_ranks), default=0)
    return copies * len(ruleset.wild_drawn)


def wild_arg(wild: Wild) -> str:
    """The wild ranks as ``--wild`` takes them: ``5``, ``52``."""
    return cards.text(wild)


def wild_label(wild: Wild) -> str:
    """``wild 5``, ``wild 5 and 2``, the ranks as card faces."""
    return "wild " + join_words([card_faces(RANKS[r]) for r in sorted(wild)])


# --------------------------------------------------------------------------- plays with wilds


@dataclass(frozen=True)
class WildPlay:
    """A card set read by the engine with the stated wild ranks, and the reading shown."""

    key: int
    wild: Wild
    reading: Reading
    #: Every reading of the card set with these wild ranks, one per ``type/length/rank``.
    readings: tuple[Reading, ...]
    table: PlayTable

    @property
    def cards(self) -> str:
        return cards.key_text(self.key)

    @property
    def wilds_held(self) -> int:
        return wild_count(cards.unpack(self.key), self.wild)

    def notation(self) -> str:
        """The play as a player writes it, and as a hand record keeps it (the engine's
        :meth:`ddz_rules.table.PlayTable.notation`)."""
        return self.table.notation(Play(self.key, self.reading), self.wild)


def named(readings: Iterable[Reading]) -> tuple[Reading, ...]:
    """One reading per ``type/length/rank`` (readings that differ only in their kickers are
    one reading to name), in the engine's order."""
    seen: dict[str, Reading] = {}
    for r in readings:
        seen.setdefault(r.short(), r)
    return tuple(seen.values())


def read(table: PlayTable, text: str | int, wild: Wild, type_: str | None = None
         ) -> WildPlay | None:
    """A card set read with the wild ranks ``wild``: as a reading of type ``type_`` (the
    lowest), else its first reading; None where it is no play (or not of that type)."""
    key = text if isinstance(text, int) else table.key_of(text)
    readings = named(table.readings(key, wild))
    mine = [r for r in readings if type_ is None or r.type == type_]
    if not mine:
        return None
    return WildPlay(key, wild, mine[0], readings, table)


def _origins(book: Book, ruleset: Ruleset) -> list[Ruleset]:
    """The ruleset, then the ruleset it extends, and so on."""
    chain = [ruleset]
    while chain[-1].base is not None:
        chain.append(book.ruleset(chain[-1].base))
    return chain


def prose_wild_examples(book: Book, ruleset: Ruleset) -> list[Mapping[str, Any]]:
    """The examples of the ruleset's prose that state a wild rank (``wild:``), its own first,
    then those of the rulesets it extends."""
    out: list[Mapping[str, Any]] = []
    for source in _origins(book, ruleset):
        data = source.data
        items = [e for i in data.get("interpretations", []) for e in i.get("examples", [])]
        items += [e for group in data.get("examples", {}).values() for e in group]
        out += [e for e in items if isinstance(e, Mapping) and e.get("wild")]
    return out


def top_up(ruleset: Ruleset, ranks: Sequence[int], avoid: Iterable[int] = ()) -> Wild:
    """Wild ranks for a hand of this ruleset: ``ranks`` (those it may draw), then, where a
    hand draws more, the highest other ranks of ``wild.ranks`` not in ``avoid``."""
    wanted = len(ruleset.wild_drawn)
    chosen = list(dict.fromkeys(r for r in ranks if r in ruleset.wild_ranks))[:wanted]
    blocked = set(avoid)
    for rank in reversed(ruleset.wild_ranks):
        if len(chosen) >= wanted:
            break
        if rank not in chosen and rank not in blocked:
            chosen.append(rank)
    return tuple(sorted(chosen))


def stated_wild(book: Book, ruleset: Ruleset) -> Wild:
    """The wild ranks a page's examples state: those of the first prose example that names
    one (the ruleset's own, else its base's), topped up to as many as a hand draws; without
    such an example, the middle rank of ``wild.ranks``."""
    for example in prose_wild_examples(book, ruleset):
        ranks = [r for r in cards.parse(str(example["wild"])) if r in ruleset.wild_ranks]
        if ranks:
            return top_up(ruleset, ranks)
    middle = ruleset.wild_ranks[len(ruleset.wild_ranks) // 2]
    return top_up(ruleset, [middle])


def type_examples(book: Book, ruleset: Ruleset, ctype: CombinationType, wild: Wild
                  ) -> list[WildPlay]:
    """Card sets the engine reads as ``ctype`` with the wild ranks ``wild``, lowest body rank
    first: each body of the type's shortest run with none to all of its cards replaced by
    wild cards of the first wild rank (a body of natural cards of a wild rank is all wild)."""
    table_ = book.table(ruleset.id)
    width, length = ctype.width, ctype.min_length
    size = width * length
    ranks = [r for r in range(ctype.low, ctype.high + 1) if ruleset.copies[r] >= width]
    found: dict[int, WildPlay] = {}
    for start in ranks:
        chain = list(range(start, start + length))
        if any(r not in ranks for r in chain):
            continue
        body = [r for r in reversed(chain) for _ in range(width)]
        for k in range(size + 1):
            held = body[k:] + [wild[0]] * k
            counts = cards.counts_of(held)
            if any(n > ruleset.copies[r] for r, n in enumerate(counts) if n):
                continue
            key = cards.pack(counts)
            if key in found:
                continue
            play = read(table_, key, wild, ctype.name)
            if play is not None and play.wilds_held:
                found[key] = play
    return sorted(found.values(), key=lambda p: (p.reading.rank_index, p.wilds_held, p.key))


def spread(items: Sequence[WildPlay], n: int) -> list[WildPlay]:
    """Up to ``n`` items spread over the list: the first, ..., the last."""
    if len(items) <= n:
        return list(items)
    picks = sorted({round(i * (len(items) - 1) / (n - 1)) for i in range(n)})
    return [items[i] for i in picks]


def class_end(book: Book, ruleset: Ruleset, name: str, wild: Wild, highest: bool
              ) -> WildPlay | None:
    """The lowest (or highest) play of class ``name`` with the wild ranks ``wild``: from the
    play table for a type of natural cards (a card set that keeps its reading with these wild
    ranks), from :func:`type_examples` for a type that needs wild cards."""
    table_ = book.table(ruleset.id)
    found: list[WildPlay] = []
    for ctype in ruleset.combinations:
        if ctype.klass != name:
            continue
        if ctype.needs_wilds:
            found += type_examples(book, ruleset, ctype, wild)
            continue
        keys = book.keys_by_type(ruleset.id)[ctype.name]
        order = sorted(keys, key=lambda k: (-table_.readings(k)[0].rank_index if highest
                                            else table_.readings(k)[0].rank_index, k))
        for key in order:
            play = read(table_, key, wild, ctype.name)
            if play is not None and not play.wilds_held:
                found.append(play)
                break
    if not found:
        return None
    if highest:
        return max(found, key=lambda p: (p.reading.rank_index, -p.wilds_held, -p.key))
    return min(found, key=lambda p: (p.reading.rank_index, p.wilds_held, p.key))


# --------------------------------------------------------------------------- what a wild is


def _faces(counts: Sequence[int]) -> str:
    return card_faces(cards.key_text(cards.pack(counts)))


def _article_faces(counts: Sequence[int]) -> str:
    """``a 3``, ``an 8``, ``an A``, or the cards where there are several."""
    if sum(counts) == 1:
        rank = RANKS[next(r for r, n in enumerate(counts) if n)]
        return ("an " if rank in "8A" else "a ") + card_faces(rank)
    return _faces(counts)


def wild_roles(ruleset: Ruleset, play: WildPlay) -> str:
    """What each wild card of a play is, as its reading has it: a stand-in for a card of the
    body (``the wild 5 stands for a 3``), a card of its own rank in the body, or a kicker, of
    its own rank or standing for another (``the wild 5 is a kicker standing for a 4``; the
    engine's derivation, :func:`ddz_rules.wilds.stand_ins`)."""
    roles = stand_ins(ruleset, play, play.wild)
    body = [role for role in roles if not role.kicker]
    standing = [role for role in body if role.rank != role.card]
    own = cards.counts_of(role.card for role in body if role.rank == role.card)
    kicked = cards.counts_of(role.card for role in roles if role.kicker and role.rank == role.card)
    kicked_for = [role for role in roles if role.kicker and role.rank != role.card]
    parts = []
    if standing:
        parts.append(_standing_for(standing, "stands", "stand"))
    if sum(own):
        one = sum(own) == 1
        size = ruleset.combination(play.reading.type).width * play.reading.length
        alone = ", played alone," if size == 1 else ""
        parts.append(f"the {'wild' if one else 'wilds'} {_faces(own)}{alone} "
                     f"{'is' if one else 'are'} "
                     f"{'a card' if one else 'cards'} of {'its' if one else 'their'} own rank")
    if sum(kicked):
        one = sum(kicked) == 1
        parts.append(f"the {'wild' if one else 'wilds'} {_faces(kicked)} "
                     f"{'is a kicker, a card' if one else 'are kickers, cards'} of "
                     f"{'its' if one else 'their'} own rank")
    if kicked_for:
        parts.append(_standing_for(kicked_for, "is a kicker standing", "are kickers standing"))
    return "; ".join(parts) if parts else "no wild card"


def _standing_for(roles: list[StandIn], one_verb: str, many_verb: str) -> str:
    """``the wild 5 stands for a 4``: wilds standing for other ranks, with their verb."""
    one = len(roles) == 1
    return (f"the {'wild' if one else 'wilds'} "
            f"{_faces(cards.counts_of(role.card for role in roles))} "
            f"{one_verb if one else many_verb} for "
            f"{_article_faces(cards.counts_of(role.rank for role in roles))}")


def other_readings(play: WildPlay) -> str:
    """The play's other readings with the same wild ranks, runs of one type and length
    summed up (``12 readings from trio_single/1/3 to trio_single/1/2``); ``none``."""
    others = [r for r in play.readings if r.short() != play.reading.short()]
    if not others:
        return "none"
    groups: dict[tuple[str, int], list[Reading]] = {}
    for r in others:
        groups.setdefault((r.type, r.length), []).append(r)
    out = []
    for members in groups.values():
        if len(members) <= 2:
            out += [code_html(r.short()) for r in members]
        else:
            out.append(f"{len(members)} readings from {code_html(members[0].short())} to "
                       f"{code_html(members[-1].short())}")
    return "<br>".join(out)


def play_cell(play: WildPlay) -> str:
    """A play's cards, with the reading it is played as where it holds a wild or reads
    several ways."""
    text = card_faces(play.cards)
    if "@" in play.notation():
        text += f" as {code_html(play.reading.short())}"
    return text


# --------------------------------------------------------------------------- commands


def console(root: Path, argvs: Sequence[Sequence[str]]) -> str:
    """A console block of ``ddz`` commands, each run in-process now, with what it printed."""
    from ddz_rules.docs.reference import Example, run_example

    lines = []
    for argv in argvs:
        example = Example(tuple(argv), "")
        _, output = run_example(example, root)
        lines += [f"$ {example.command()}", output]
    return "```console\n" + "\n".join(lines) + "\n```"


# --------------------------------------------------------------------------- the worked examples


def _as(play: WildPlay, reading: Reading) -> WildPlay:
    return WildPlay(play.key, play.wild, reading, play.readings, play.table)


@dataclass(frozen=True)
class Completion:
    """A run completed by a wild card: the play, the type, and the rank the wild stands for."""

    play: WildPlay
    ctype: CombinationType
    missing: int


def chain_completion(book: Book, ruleset: Ruleset) -> Completion | None:
    """The lowest run of single cards (a straight) with its next-to-highest card missing and a
    wild card in its place, as the engine reads it. The wild rank is the highest one no run
    of that type may hold (the 2 of a straight), where there is one, so that the wild plainly
    stands in; else the page's stated rank, on a run that avoids it."""
    table_ = book.table(ruleset.id)
    stated = stated_wild(book, ruleset)
    for ctype in ruleset.combinations:
        if (not ctype.is_chain or ctype.width != 1 or ctype.kicker_unit or ctype.fixed_set
                or ctype.wilds != "any"):
            continue
        outside = [r for r in reversed(ruleset.wild_ranks) if not ctype.low <= r <= ctype.high]
        principal = outside[0] if outside else stated[0]
        for start in range(ctype.low, ctype.high - ctype.min_length + 2):
            chain = list(range(start, start + ctype.min_length))
            if principal in chain or chain[-1] not in ruleset.stands_for:
                continue
            missing = chain[-2]
            wild = top_up(ruleset, [principal], avoid=chain)
            held = [r for r in chain if r != missing] + [principal]
            play = read(table_, cards.pack_ranks(held), wild, ctype.name)
            if play is None:
                continue
            for reading in play.readings:
                if (reading.type == ctype.name and reading.length == len(chain)
                        and reading.rank_index == chain[-1]):
                    return Completion(_as(play, reading), ctype, missing)
    return None


def two_readings(book: Book, ruleset: Ruleset) -> WildPlay | None:
    """A card set with wild cards that reads several ways, shown as the reading of a type
    that needs wild cards where it has one: the first such example of the ruleset's prose
    (its own, else its base's), else the first of :func:`type_examples`."""
    table_ = book.table(ruleset.id)
    candidates: list[WildPlay] = []
    for example in prose_wild_examples(book, ruleset):
        held = cards.parse(str(example["cards"]))
        wild = top_up(ruleset, cards.parse(str(example["wild"])), avoid=held)
        play = read(table_, str(example["cards"]), wild)
        if play is not None:
            candidates.append(play)
    stated = stated_wild(book, ruleset)
    for ctype in ruleset.combinations:
        if ctype.needs_wilds:
            candidates += type_examples(book, ruleset, ctype, stated)
    needing = {c.name for c in ruleset.combinations if c.needs_wilds}
    several = [p for p in candidates if len(p.readings) > 1]
    # best: a card set one of whose readings needs wild cards (a soft bomb), and few readings
    several.sort(key=lambda p: (not any(r.type in needing for r in p.readings),
                                len(p.readings)))
    for play in several:
        first = next((r for r in play.readings if r.type in needing), play.readings[0])
        return _as(play, first)
    return None


@dataclass(frozen=True)
class ClassPair:
    """Two classes next to each other in the order of strength, with the lowest play of the
    higher one and the highest of the lower one, with the same wild ranks."""

    lower: str
    higher: str
    low_play: WildPlay
    high_play: WildPlay


def class_pairs(book: Book, ruleset: Ruleset, wild: Wild) -> list[ClassPair]:
    """Every two classes next to each other by level (classes with types only), with plays."""
    levels = ruleset.data["classes"]
    names = sorted({c.klass for c in ruleset.combinations}, key=lambda n: levels[n]["level"])
    out = []
    for lower, higher in pairwise(names):
        low = class_end(book, ruleset, lower, wild, highest=True)
        high = class_end(book, ruleset, higher, wild, highest=False)
        if low is not None and high is not None:
            out.append(ClassPair(lower, higher, low, high))
    return out


def needs_wilds(ruleset: Ruleset, klass: str) -> bool:
    """Whether every type of a class needs wild cards (soft bombs, four wilds)."""
    members = [c for c in ruleset.combinations if c.klass == klass]
    return bool(members) and all(c.needs_wilds for c in members)
