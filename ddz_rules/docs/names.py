"""What the rules book calls the things of a ruleset: combination types, play classes (with
bombs named by their size where a ruleset has several), and the small words around them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import pairwise

from ddz_rules.docs.render import NUMBER_WORDS, label, number
from ddz_rules.ruleset import Ruleset

#: Readable names of the combination types; others fall back to the key.
TYPE_NAMES = {
    "single": "Single",
    "pair": "Pair",
    "trio": "Trio",
    "trio_single": "Trio with a single",
    "trio_pair": "Trio with a pair",
    "trio_two": "Trio with two",
    "straight": "Straight",
    "pair_straight": "Pair straight",
    "airplane": "Airplane",
    "airplane_singles": "Airplane with singles",
    "airplane_pairs": "Airplane with pairs",
    "airplane_wings": "Airplane with wings",
    "four_two_singles": "Four with two singles",
    "four_two_pairs": "Four with two pairs",
    "bomb": "Bomb",
    "rocket": "Rocket",
    "joker_bomb": "Joker bomb",
    "soft_bomb": "Soft bomb",
    "wild_bomb": "Wild bomb",
    "aces": "Three aces",
}

#: What a player calls the plays of each class: (one, many, a label for tables).
CLASS_NOUNS = {"plain": ("ordinary play", "ordinary plays", "Ordinary plays"),
               "bomb": ("bomb", "bombs", "Bombs"),
               "rocket": ("rocket", "rockets", "The rocket"),
               "joker_bomb": ("joker bomb", "joker bombs", "The joker bomb"),
               "soft_bomb": ("soft bomb", "soft bombs", "Soft bombs"),
               "wild_bomb": ("wild bomb", "wild bombs", "Wild bombs"),
               "aces": ("bomb of three aces", "bombs of three aces", "The three aces")}


def is_hard(ruleset: Ruleset | None, name: str, klass: bool = False) -> bool:
    """Whether a type (or, with ``klass``, every type of a class) is a hard one: in a ruleset
    with wild cards, a type whose body may hold no wild card (``wilds: none``), as the hard
    bomb of four natural cards."""
    if ruleset is None or not ruleset.wild_drawn:
        return False
    members = [c for c in ruleset.combinations if (c.klass if klass else c.name) == name]
    return bool(members) and all(c.wilds == "none" for c in members)


def size_word(n: int) -> str:
    """A small count as a word: ``five``."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else number(n)


@cache
def bomb_sizes(ruleset: Ruleset) -> dict[str, int]:
    """Where a ruleset has bombs of several sizes (two decks: four to eight cards of a rank),
    each such class with its size; empty where a bomb is only ever one size.

    A class counts when it is above ordinary plays and every type in it is N cards of one rank
    and nothing else (no run, no kickers, not a fixed set), so the sizes come from the file;
    and only where more cards always make a higher class (three aces above every bomb of four
    is a bomb named for its cards, not its size).

    >>> from ddz_rules.ruleset import load
    >>> bomb_sizes(load("four-player"))["bomb_5"], bomb_sizes(load("four-player"))["bomb"]
    (5, 4)
    >>> bomb_sizes(load("classic"))
    {}
    """
    sizes: dict[str, int] = {}
    for name, klass in ruleset.data["classes"].items():
        members = [c for c in ruleset.combinations if c.klass == name]
        widths = {c.width for c in members}
        if (klass["level"] > 0 and members and len(widths) == 1
                and all(not (c.fixed_set or c.is_chain or c.kicker_unit) for c in members)):
            sizes[name] = widths.pop()
    levels = ruleset.data["classes"]
    by_level = [sizes[n] for n in sorted(sizes, key=lambda n: levels[n]["level"])]
    if any(low >= high for low, high in pairwise(by_level)):
        return {}
    return sizes if len(set(sizes.values())) > 1 else {}


def type_name(name: str, ruleset: Ruleset | None = None) -> str:
    """A combination type's name; in a ruleset with bombs of several sizes, a bomb type is
    named by its size (``Bomb of five``)."""
    if ruleset is not None:
        klass = ruleset.class_of.get(name)
        size = bomb_sizes(ruleset).get(klass or "")
        if size:
            return f"Bomb of {size_word(size)}"
    named = TYPE_NAMES.get(name) or label(name)
    return f"Hard {named.lower()}" if is_hard(ruleset, name) else named


def _class_words(name: str, ruleset: Ruleset | None) -> tuple[str, str, str]:
    size = bomb_sizes(ruleset).get(name) if ruleset is not None else None
    if size:
        word = size_word(size)
        return f"bomb of {word}", f"bombs of {word}", f"Bombs of {word}"
    if is_hard(ruleset, name, klass=True):
        one, many, _ = _class_words(name, None)
        return f"hard {one}", f"hard {many}", f"Hard {many}"
    return CLASS_NOUNS.get(name, (f"{label(name).lower()} play", f"{label(name).lower()} plays",
                                  f"{label(name)} plays"))


def class_noun(name: str, many: bool = False, ruleset: Ruleset | None = None) -> str:
    """What a player calls a play of a class: ``bomb``, ``ordinary play``; in a ruleset with
    bombs of several sizes, ``bomb of five``."""
    one, several, _ = _class_words(name, ruleset)
    return several if many else one


def class_label(name: str, ruleset: Ruleset | None = None) -> str:
    """A class as a table label: ``Bombs``, ``Bombs of five``."""
    return _class_words(name, ruleset)[2]


def article(noun: str, only: bool = False) -> str:
    """``a bomb``, ``an ordinary play``; ``the rocket`` where there is only one such play."""
    if only or noun == "rocket":
        return f"the {noun}"
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def join_words(words: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
