"""Plays and auction words as people say them: "pair of 10s", "three 8s and a 5", "bomb of
4s", "airplane 3-4 with wings 5 and 6", "bid 2", "call 5 as partner".

A reading is named from its combination type's shape, never from the type's name alone: the
body's width (copies of each rank), its chain (one rank, or a run from low to high), its
kickers (singles or pairs), and its class (a bomb-like class, or a fixed set such as the
rocket). So every ruleset's types, bundled or a file's, are named without a list of names;
only a class or fixed set is named by its type's own name ("rocket", "soft bomb", "joker
bomb"). The engine's notation (``TT``, ``pair/1/T``) stays what records and the command line
read; these words are for a person at a table.

>>> from ddz_rules.ruleset import load
>>> from ddz_rules.table import compile_table
>>> table = compile_table(load("classic"))
>>> [play_words(table.ruleset, table.play(text)) for text in ("TT", "8885", "4444", "BR")]
['pair of 10s', 'three 8s and a 5', 'bomb of 4s', 'rocket']
"""

from __future__ import annotations

from ddz_rules import cards
from ddz_rules.ruleset import CombinationType, Ruleset
from ddz_rules.table import Play, Reading

#: How a rank is said, one and several: the card's own number, or its name.
_SAID = {"T": ("10", "10s"), "J": ("jack", "jacks"), "Q": ("queen", "queens"),
         "K": ("king", "kings"), "A": ("ace", "aces"), "B": ("small joker", "small jokers"),
         "R": ("big joker", "big jokers")}
#: How many copies of a rank a body holds, said as a word.
_COUNTS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight")


def rank_word(rank: int, plural: bool = False) -> str:
    """A rank as said: ``rank_word(7) == "10"``, ``rank_word(11, plural=True) == "aces"``."""
    char = cards.RANKS[rank]
    one, many = _SAID.get(char, (char, char + "s"))
    return many if plural else one


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "8aeiou" else f"a {word}"


def _count(n: int) -> str:
    return _COUNTS[n] if n < len(_COUNTS) else str(n)


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _kickers(ctype: CombinationType, reading: Reading) -> str:
    """The kickers as said: ``a 5``, ``a pair of 5s``, ``5 and 6``, ``pairs of 5s and 6s``."""
    counts = cards.unpack(reading.kicker_key)
    unit = ctype.kicker_unit
    ranks = [r for r, n in enumerate(counts) for _ in range(n // unit)]
    if len(ranks) == 1:
        one = ranks[0]
        return _article(rank_word(one)) if unit == 1 else f"a pair of {rank_word(one, True)}"
    if unit == 1:
        return _listed([rank_word(r) for r in ranks])
    return "pairs of " + _listed([rank_word(r, True) for r in ranks])


def _type_words(ctype: CombinationType) -> str:
    """A class's or fixed set's own name as words: ``soft_bomb`` -> ``soft bomb``, and a
    width spelt out in the name dropped (``bomb_5`` -> ``bomb``)."""
    parts = ctype.name.split("_")
    if len(parts) > 1 and parts[-1].isdigit():
        parts = parts[:-1]
    return " ".join(parts)


def reading_words(ruleset: Ruleset, reading: Reading) -> str:
    """A reading as said (its type's shape read off the ruleset; see the module's text)."""
    ctype = ruleset.combination(reading.type)
    if ctype.fixed_set:
        return _type_words(ctype)
    high = reading.rank_index
    low = high - reading.length + 1
    plural = rank_word(high, plural=True)
    kickers = _kickers(ctype, reading) if reading.kicker_key else ""
    if reading.length == 1:
        if ctype.klass != "plain":
            copies = "" if ctype.width == 4 else f"{_count(ctype.width)} "
            body = f"{_type_words(ctype)} of {copies}{plural}"
        elif ctype.width == 1:
            body = f"single {rank_word(high)}"
        elif ctype.width == 2:
            body = f"pair of {plural}"
        else:
            body = f"{_count(ctype.width)} {plural}"
        if not kickers:
            return body
        joined = " and " if ctype.kicker_count(1) == 1 else " with "
        return body + joined + kickers
    run = (f"{rank_word(low)}-{rank_word(high)}" if reading.length == 2
           else f"{rank_word(low)} to {rank_word(high)}")
    if ctype.klass != "plain":
        body = f"{_type_words(ctype)} {run}"
    else:
        body = {1: "straight", 2: "pairs", 3: "airplane"}.get(
            ctype.width, f"{_count(ctype.width)} of each") + " " + run
    return f"{body} with wings {kickers}" if kickers else body


def play_words(ruleset: Ruleset, play: Play) -> str:
    """A play as said, by the reading it is played as."""
    return reading_words(ruleset, play.reading)


def word_words(word: str) -> str:
    """An auction word or partner call as said: ``bid 2``, ``call 5 as partner``; any other
    word as it is (``pass``, ``rob``, ``double``, ``alone``).

    >>> word_words("2"), word_words("call T"), word_words("pass")
    ('bid 2', 'call 10 as partner', 'pass')
    """
    if word.isdigit():
        return f"bid {word}"
    if word.startswith("call ") and len(word) == 6 and word[5] in cards.RANKS:
        return f"call {rank_word(cards.RANKS.index(word[5]))} as partner"
    return word


__all__ = ["play_words", "rank_word", "reading_words", "word_words"]
