"""Markdown and HTML building blocks shared by every generated page.

Every card set on every page goes through :func:`card_faces`, so cards look the same
everywhere: one ``<span class="card">`` per card showing its rank (``10`` for the ten), the
jokers as ``B`` (small) and ``R`` (big), the same letters the ``ddz`` command reads. The whole
set carries its canonical text in ``data-cards``, which the tests use to re-check examples.

>>> card_faces("T3")
'<span class="cards" data-cards="3T"><span class="card">3</span><span class="card">10</span></span>'
>>> 'class="card joker big-joker" title="big joker">R<' in card_faces("R")
True
>>> table(["a", "b"], [["1", "x | y"]])
'| a | b |\\n| --- | --- |\\n| 1 | x \\\\| y |'
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

from markdown.extensions.toc import slugify

from ddz_rules import cards

#: The multiplication sign, for stakes and factors.
TIMES = "\u00d7"

#: What ``scoring.cap`` caps, in the words every page uses for it: the stake settled with each
#: peasant (:func:`ddz_rules.scoring.settle`), never the multiplier alone.
WORTH = f"what a hand is worth (base {TIMES} multiplier)"

#: What each joker letter means, for legends and tooltips.
JOKER_NAMES = {"B": "small joker", "R": "big joker"}

def _face(rank: str) -> str:
    if rank in JOKER_NAMES:
        kind = "small-joker" if rank == "B" else "big-joker"
        return f'<span class="card joker {kind}" title="{JOKER_NAMES[rank]}">{rank}</span>'
    shown = "10" if rank == "T" else rank
    return f'<span class="card">{shown}</span>'


def card_faces(text: str) -> str:
    """HTML for a card set given as card text (canonicalised first); ``none`` for no cards."""
    canonical = cards.text(cards.parse(text)) if text else ""
    if not canonical:
        return "none"
    faces = "".join(_face(rank) for rank in canonical)
    return f'<span class="cards" data-cards="{canonical}">{faces}</span>'


#: The suit letters of ``deck.suits`` as the symbols a player reads.
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "C": "\u2663", "D": "\u2666"}


def suited_face(card: str) -> str:
    """One suited card (``3S``) with its suit's symbol, as a player reads it.

    >>> suited_face("3S"), suited_face("TD")
    ('3\u2660', '10\u2666')
    """
    rank, suit = cards.parse_suited(card)
    shown = "10" if cards.RANKS[rank] == "T" else cards.RANKS[rank]
    return shown + SUIT_SYMBOLS.get(suit, "")


def card_list(texts: Iterable[str], sep: str = " ") -> str:
    """Several card sets, each as card faces."""
    return sep.join(card_faces(t) for t in texts)


#: The one-line legend shown wherever cards appear.
LEGEND = (
    "Cards are shown by rank, low to high: " + card_faces("3456789TJQKA2BR")
    + ". Suits never matter. " + card_faces("B") + " is the small joker and "
    + card_faces("R") + " the big joker, as in the `ddz` command, which reads `T` or `10` "
    "for the ten."
)


def number(n: int) -> str:
    """A count with thousands separators."""
    return f"{n:,}"


def plural_of(word: str) -> str:
    """The plural of a noun (or of a phrase ending in one): ``copy`` -> ``copies``.

    >>> [plural_of(w) for w in ("play", "copy", "pass", "single card", "way")]
    ['plays', 'copies', 'passes', 'single cards', 'ways']
    """
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|ch|sh)$", word):
        return word + "es"
    return word + "s"


#: Counts spelled out when a sentence reads better with words (``spell=True``).
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")


def plural(n: int, word: str, words: str | None = None, spell: bool = False) -> str:
    """A count and its noun, agreeing: every "N noun(s)" of every page goes through here.

    >>> plural(1, "play"), plural(24639, "play"), plural(1, "copy"), plural(2, "copy")
    ('1 play', '24,639 plays', '1 copy', '2 copies')
    >>> plural(2, "four", "fours"), plural(0, "pass"), plural(1, "single card", spell=True)
    ('2 fours', '0 passes', 'one single card')
    """
    shown = NUMBER_WORDS[n] if spell and 0 <= n < len(NUMBER_WORDS) else number(n)
    return f"{shown} {word if n == 1 else (words or plural_of(word))}"


def code(text: str) -> str:
    """Inline code."""
    return f"`{text}`"


def code_html(text: str) -> str:
    """Inline code as HTML, with a break opportunity after each underscore (for tables)."""
    return "<code>" + text.replace("_", "_<wbr>") + "</code>"


def code_nowrap(text: str) -> str:
    """Inline code as HTML that never breaks inside (identifiers in narrow table columns)."""
    return f'<code class="nowrap">{html.escape(text)}</code>'


def key_ref(dotted: str) -> str:
    """A ruleset file key as a small secondary reference, set after the prose it belongs to."""
    return f'<small class="key">{code_html(dotted)}</small>'


#: The glossary of the game's words, on the rules book's home page.
GLOSSARY = "index.md#glossary"


def term(text: str, anchor: str, up: str = "../") -> str:
    """A word of the game linked to its glossary entry (``up`` leads from the page to the
    book's root)."""
    return f"[{text}]({up}index.md#{anchor})"


def literal_braces(text: str) -> str:
    """Show a brace expression of source prose, such as ``{value, text}``, as code.

    >>> literal_braces("a {value, text} pair")
    'a `{value, text}` pair'
    >>> literal_braces("matching `^[3-9]{1,2}$`")
    'matching `^[3-9]{1,2}$`'
    """
    pieces = re.split(r"(`[^`]*`)", text)  # inline code is left as it is
    return "".join(piece if piece.startswith("`") else
                   re.sub(r"(\{[^{}`]*\})", r"`\1`", piece) for piece in pieces)


def label(key: str) -> str:
    """A readable label for a key: ``kitty_shown`` becomes ``Kitty shown``."""
    words = key.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def heading_id(text: str) -> str:
    """The id the ``toc`` extension gives a heading, for links to it."""
    return str(slugify(text, "-"))


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table. Refuses to render an empty table or an empty cell."""
    if not rows:
        raise ValueError(f"refusing to render an empty table ({', '.join(header)})")
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for row in rows:
        if len(row) != len(header):
            raise ValueError(f"row {row!r} does not match header {header!r}")
        cells = [_cell(c) for c in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(text: str) -> str:
    flat = " ".join(text.split())
    if not flat:
        raise ValueError("refusing to render an empty table cell")
    return flat.replace("|", "\\|")


def wide(markdown: str, kind: str = "wide-table") -> str:
    """Wrap a block (usually a table) in a horizontally scrollable container."""
    return f'<div class="{kind}" markdown>\n\n{markdown}\n\n</div>'


def indent(markdown: str, by: int = 4) -> str:
    """Indent every non-blank line (for admonition and tab bodies)."""
    pad = " " * by
    return "\n".join(pad + line if line.strip() else "" for line in markdown.splitlines())


def admonition(kind: str, title: str, body: str, collapsible: bool = False) -> str:
    """A Material admonition (``???`` when collapsible)."""
    marker = "???" if collapsible else "!!!"
    return f'{marker} {kind} "{title}"\n\n{indent(body)}\n'


def tabs(items: Sequence[tuple[str, str]]) -> str:
    """Content tabs: one tab per (label, body)."""
    if not items:
        raise ValueError("no tabs to render")
    out = []
    for title, body in items:
        out.append(f'=== "{title}"\n\n{indent(body)}\n')
    return "\n".join(out)


def value_text(value: Any, key: str = "") -> str:
    """A rule point's value as prose-friendly Markdown (no braces, no ``None``)."""
    if value is None:
        return "no limit"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value) if value else "none"
    if isinstance(value, dict):
        if not value:
            return "none"
        if "form" in value:  # scoring.dealt_bonus: a form, then each bonus's amount
            form = value["form"]
            amounts = [f"{k} {TIMES}{v}" if form == "multiplier"
                       else f"{k} {v} {'point' if v == 1 else 'points'} from each other seat"
                       for k, v in value.items() if k != "form"]
            return f"{code_html(str(form))}: " + ", ".join(amounts)
        if all(isinstance(v, list) for v in value.values()):  # play.last_play_answers
            return "; ".join(f"{k} also answers {' or '.join(map(str, v))}"
                             for k, v in value.items())
        return ", ".join(f"{k} {TIMES}{v}" for k, v in value.items())
    text = str(value)
    if key == "jokers" and re.fullmatch(r"[BR]*", text):
        return jokers_text(text)
    if key in ("ranks", "stands_for") and re.fullmatch(r"[3-9TJQKA2BR]*", text):
        return ranks_text(text)
    return code_html(text)


def jokers_text(jokers: str) -> str:
    """``deck.jokers``, one letter per card: the cards, then how many of each kind.

    >>> from re import sub
    >>> sub("<[^>]+>", "", jokers_text("BBRR"))
    'BBRR (two small jokers and two big jokers)'
    >>> sub("<[^>]+>", "", jokers_text("BR")), jokers_text("")
    ('BR (one small joker and one big joker)', 'none')
    """
    if not jokers:
        return "none"
    kinds = [plural(jokers.count(letter), JOKER_NAMES[letter], spell=True)
             for letter in "BR" if letter in jokers]
    return f"{card_faces(jokers)} ({' and '.join(kinds)})"


def ranks_text(ranks: str) -> str:
    """A rank string: the lowest and highest as card faces and the count."""
    if not ranks:
        return "none"
    if len(ranks) <= 2:
        return card_faces(ranks)
    return (f"{card_faces(ranks[0])} to {card_faces(ranks[-1])} "
            f"({plural(len(ranks), 'rank')})")
