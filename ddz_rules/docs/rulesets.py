"""One page per bundled ruleset, the rulesets overview, and the navigation of that section.

A page states every rule point of the ruleset (value and prose), every combination type with
real examples from the compiled play table and the count of its plays, what beats what with
examples the engine decides, how a hand ends, the scoring, and a worked scoring example. A
variant's page opens with what it changes from its base.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ddz_rules import cards
from ddz_rules.docs import wild, worked
from ddz_rules.docs.book import Book, RulePoint, is_point, lookup, rule_points
from ddz_rules.docs.names import (
    article,
    bomb_sizes,
    class_label,
    class_noun,
    join_words,
    size_word,
    type_name,
)
from ddz_rules.docs.render import (
    GLOSSARY,
    JOKER_NAMES,
    LEGEND,
    TIMES,
    WORTH,
    admonition,
    card_faces,
    card_list,
    code_html,
    heading_id,
    key_ref,
    label,
    number,
    plural,
    suited_face,
    table,
    term,
    value_text,
)
from ddz_rules.game import ALONE, CALL
from ddz_rules.ruleset import CombinationType, Ruleset, inert_points
from ddz_rules.scoring import BonusPayment, Result, paid_when_played, settle, settle_alone
from ddz_rules.table import PlayTable, Reading

#: Readable labels for the rule points the bundled rulesets use; others fall back to the key.
LABELS = {
    "players": "Players",
    "deck.ranks": "Ranks",
    "deck.copies": "Copies of each rank",
    "deck.jokers": "Jokers",
    "deal.hand_size": "Cards per player",
    "deal.kitty": "Kitty",
    "deal.kitty_shown": "Kitty shown to all",
    "auction.first_bidder": "First bidder",
    "auction.family": "Auction",
    "auction.bids": "Bids",
    "auction.max_robs": "Most robs",
    "auction.max_grabs": "Most grabs",
    "auction.grabbers": "Who may grab",
    "auction.fixed_bid": "Fixed bid (no auction)",
    "auction.all_pass": "If nobody bids",
    "play.trick": "Tricks",
    "ending.peasant_goal": "End of the hand",
    "readings.settlement": "Readings",
    "scoring.base": "Base",
    "scoring.multipliers": "Multipliers",
    "scoring.dealt_bonus": "Dealt-hand bonuses",
    "scoring.spring": "Spring",
    "scoring.anti_spring": "Anti-spring",
    "scoring.cap": f"Cap on {WORTH}",
    "scoring.settlement": "Settlement",
    "scoring.per_card": "Paid for each card left",
    "scoring.shut_out": "Factor for a player shut out",
    "scoring.bomb_payments": "Bombs paid",
    "scoring.bomb_paid_when": "When a bomb is paid",
    "scoring.last_card_free": "A last card is free",
    "scoring.liability": "Liability for letting a player out",
    "scoring.liable_if": "When the low single is to blame",
    "teams.sides": "Sides",
    "deck.suits": "Suits",
    "deck.removed": "Cards taken out",
    "play.first_leader": "Who leads the first trick",
    "play.lead_card": "Lead card",
    "play.lead_card_missing": "When the lead card is not dealt",
    "play.first_play_holds_lead_card": "The first play holds the lead card",
    "play.must_beat": "Must beat",
    "play.last_card_warning": "Last-card warning",
    "play.last_play_only": "Plays allowed only as a player's last",
    "play.last_play_answers": "What a last play may also answer",
    "may_match_body": "Kicker of the same rank as the main part",
    "max_copies_among_kickers": "Most cards of one rank among kickers",
    "both_jokers_as_kickers": "Both jokers as kickers",
    "quads_are_blocks": "Four of a rank is one block",
    "pair_kickers_distinct": "Pair kickers of different ranks",
    "single_kickers_distinct": "Single kickers of different ranks",
    "jokers_as_kickers": "Jokers as kickers",
    "kicker_trio_beside_chain": "Kicker trio next to the run",
    "wild.drawn": "Wild ranks a hand, and when each is drawn",
    "wild.ranks": "Ranks that may be wild",
    "wild.stands_for": "What a wild may stand for",
    "wild.alone": "A wild played alone",
    "wild.in_kickers": "A wild as a kicker",
}

#: The sections of a page that hold rule points, in order: (heading, top-level key).
SECTIONS = (
    ("Who plays", "players"),
    ("The deck", "deck"),
    ("The deal", "deal"),
    ("Who bids first and how the auction runs", "auction"),
    ("The landlord's side", "teams"),
    ("The play", "play"),
)
LATER_SECTIONS = (
    ("How a hand ends", "ending"),
    ("Scoring", "scoring"),
)
#: Examples shown per combination type.
EXAMPLES = 4
#: What one rank of a play's main part is, by how many cards of the rank it holds.
WIDTH_WORDS = {1: "one card", 2: "a pair", 3: "a trio", 4: "four cards"}
#: The same, as the noun a kicker is counted against ("for each trio of the run").
WIDTH_NOUNS = {1: "card", 2: "pair", 3: "trio", 4: "four"}
#: A kicker unit, by its width.
UNIT_WORDS = {1: "single card", 2: "pair"}


#: Labels of rule points whose meaning depends on the sides: where there is no landlord
#: (``teams.sides: each_alone``) the cap caps what each losing player pays for his cards.
ALONE_LABELS = {"scoring.cap": "Cap on what a losing player pays for his cards"}


def point_label(path: Sequence[str], ruleset: Ruleset | None = None) -> str:
    dotted = ".".join(path)
    if ruleset is not None and not ruleset.has_landlord and dotted in ALONE_LABELS:
        return ALONE_LABELS[dotted]
    return LABELS.get(dotted) or LABELS.get(path[-1]) or label(path[-1])


def point_md(point: RulePoint, ruleset: Ruleset | None = None) -> str:
    """A rule point: its label and value in bold, then its prose, then its file key (small)."""
    value = value_text(point.value, point.path[-1])
    return (f"**{point_label(point.path, ruleset)}: {value}**\n\n{point.text} "
            f"{key_ref(point.dotted)}")


def class_plays(book: Book, ruleset: Ruleset, name: str) -> int:
    """How many plays of the table belong to class ``name``."""
    counts = book.counts(ruleset.id)
    return sum(counts[c.name] for c in ruleset.combinations if c.klass == name)


def class_many(book: Book, ruleset: Ruleset, name: str) -> bool:
    """Whether two plays of class ``name`` can meet: it has several plays in the table, or a
    type of it needs wild cards and a hand can make it of two ranks (a soft bomb of any rank;
    four wilds only where a hand has two wild ranks)."""
    if class_plays(book, ruleset, name) > 1:
        return True
    for ctype in ruleset.combinations:
        if ctype.klass == name and ctype.needs_wilds:
            if ctype.wilds == "all" and len(ruleset.wild_drawn) > 1:
                return True
            if ctype.wilds == "some" and len(playable_ranks(ruleset, ctype)) > 1:
                return True
    return False


def beats_text(book: Book, ruleset: Ruleset, name: str, short: bool = False) -> str:
    """What a play of class ``name`` beats, in a player's words (``short``: for the matrix)."""
    classes = ruleset.data["classes"]
    level = classes[name]["level"]
    lower = [n for n, k in sorted(classes.items(), key=lambda kv: kv[1]["level"])
             if k["level"] < level]
    if not lower:
        return ("only a play of its own type" if short else
                "only a play of the same type and the same length of run whose main part is "
                "lower; the extra cards never count")
    text = f"any {join_words([class_noun(n, ruleset=ruleset) for n in lower], 'or')}"
    if short:
        return text
    text += ", whatever its type"
    if class_many(book, ruleset, name):
        text += (f"; between two {class_noun(name, many=True, ruleset=ruleset)}, the higher "
                 f"main part wins")
    elif all(k["level"] < level for n, k in classes.items() if n != name):
        text += "; nothing beats it"
    return text


# --------------------------------------------------------------------------- prose examples


def prose_examples(ruleset: Ruleset) -> dict[str, list[Mapping[str, Any]]]:
    """The examples of each rule point's, combination's or class's prose, by its dotted key.

    They are the card sets that prose names, each with what the engine makes of it
    (``tests/test_prose_examples.py`` checks every one). An example belongs to the prose of the
    file that states it: where a variant rewrites a base's prose, the base's examples of it are
    left out, and the variant states the examples of its own words.
    """
    out: dict[str, list[Mapping[str, Any]]] = {}
    for key, items in ruleset.data.get("examples", {}).items():
        path = tuple(key.split("."))
        if not isinstance(lookup(ruleset.data, path), Mapping):
            continue
        stated_in = ruleset.origins.get(("examples", key), ("", 0))[0]
        prose_in = ruleset.origins.get((*path, "text"), ("", 0))[0]
        if stated_in == prose_in:
            out[key] = list(items)
    return out


def reading_md(written: str) -> str:
    """A reading as an example states it: ``type/length/rank``, then the kickers if named."""
    short, _, kickers = written.partition("+")
    return code_html(short) + (f" carrying {card_faces(kickers)}" if kickers else "")


def example_md(example: Mapping[str, Any]) -> str:
    """One prose example: the cards, what they read as (or that they are no play), and what
    they beat."""
    line = card_faces(str(example["cards"]))
    if example.get("wild"):
        line += f", with the {wild.wild_label(cards.parse(str(example['wild'])))},"
    assuming = example.get("assuming") or {}
    if assuming:
        line += ", with " + " and ".join(
            f"`{key}` set to {value_text(value, key.rsplit('.', 1)[-1])}"
            for key, value in assuming.items()) + ","
    reads = [str(r) for r in example["reads"]]
    if not reads:
        line += " is not a play"
        if example.get("forbidden_by"):
            line += f" (`{example['forbidden_by']}`)"
    elif len(reads) == 1:
        line += " reads as " + reading_md(reads[0])
    else:
        line += f" reads {plural(len(reads), 'way')}: " + "; ".join(reading_md(r) for r in reads)
    if example.get("beats"):
        line += ", and beats " + card_list(example["beats"], ", ")
    if example.get("does_not_beat"):
        line += ", and does not beat " + card_list(example["does_not_beat"], ", ")
    return line + "."


def examples_md(examples: Sequence[Mapping[str, Any]]) -> str:
    """The examples of one piece of prose, as the engine checks them; empty if none."""
    if not examples:
        return ""
    return ("Examples, checked against the engine:\n\n"
            + "\n".join(f"- {example_md(e)}" for e in examples))


def point_block(ruleset: Ruleset, point: RulePoint) -> str:
    """A rule point with the examples of its prose; a point that has no effect under this
    ruleset (:func:`~ddz_rules.ruleset.inert_points`) is shown as not used, never its prose."""
    unused = inert_points(ruleset).get(point.dotted)
    if unused is not None:
        return (f"**{point_label(point.path, ruleset)}: not used**\n\nNot used under this "
                f"ruleset: {unused}. {key_ref(point.dotted)}")
    shown = examples_md(prose_examples(ruleset).get(point.dotted, []))
    return point_md(point, ruleset) + (f"\n\n{shown}" if shown else "")


def points_md(ruleset: Ruleset, points: Sequence[RulePoint]) -> str:
    return "\n\n".join(point_block(ruleset, p) for p in points)


def page_path(ruleset_id: str) -> str:
    return f"rulesets/{ruleset_id}.md"


# --------------------------------------------------------------------------- changes


@dataclass(frozen=True)
class Change:
    """One thing a variant changes from its base."""

    where: str
    what: str
    text: str


def changes(book: Book, ruleset: Ruleset) -> list[Change]:
    """What a variant's own file changes from its base: walk the overlay against the base."""
    assert ruleset.base is not None
    base = book.ruleset(ruleset.base)
    out: list[Change] = []
    overlay: Mapping[str, Any] = ruleset.overlay
    for point in rule_points({k: v for k, v in overlay.items() if k != "combinations"}):
        change = _point_change(point, lookup(base.data, point.path))
        if change is not None:
            out.append(change)
    for name, klass in overlay.get("classes", {}).items():
        old_class = base.data["classes"].get(name)
        if old_class is None:
            out.append(Change(f"class {code_html(name)}", f"new, level {klass['level']}",
                              klass["text"]))
        elif old_class["level"] != klass["level"]:
            out.append(Change(f"class {code_html(name)}",
                              f"level {old_class['level']} → {klass['level']}", klass["text"]))
    for name, spec in overlay.get("combinations", {}).items():
        out.extend(_combination_changes(base, ruleset, name, spec))
    return out


def _point_change(point: RulePoint, old: Any) -> Change | None:
    """How a rule point differs from the base's; None if it restates it word for word."""
    new = value_text(point.value, point.path[-1])
    where = f"{point_label(point.path)} · `{point.dotted}`"
    if not is_point(old):
        return Change(where, f"new rule point: {new}", point.text)
    before = value_text(old["value"], point.path[-1])
    if old["value"] == point.value:
        if old["text"] == point.text:
            return None
        return Change(where, f"same value ({new}), new wording", point.text)
    return Change(where, f"{before} → {new}", point.text)


def _combination_changes(base: Ruleset, ruleset: Ruleset, name: str,
                         spec: Mapping[str, Any]) -> list[Change]:
    where = f"{type_name(name, ruleset)} · {code_html(name)}"
    base_types = {c.name: c for c in base.combinations}
    new_types = {c.name: c for c in ruleset.combinations}
    old, new = base_types.get(name), new_types.get(name)
    if old is not None and new is None:
        return [Change(where, "no longer a play", spec["text"])]
    if new is None:
        return [Change(where, "declared but not a play", spec["text"])]
    if old is None:
        return [Change(where, "a new combination type", new.text)]
    diffs = []
    for aspect, before, after in (
            ("main part", body_text(base, old), body_text(ruleset, new)),
            ("run", chain_text(old), chain_text(new)),
            ("extra cards", kicker_text(old), kicker_text(new)),
            ("kind of play", class_noun(old.klass, ruleset=base),
             class_noun(new.klass, ruleset=ruleset))):
        if before != after:
            diffs.append(f"{aspect}: {before} → {after}")
    texts = []
    for point in rule_points(spec.get("kickers", {}), ("combinations", name, "kickers")):
        key = point.path[-1]
        before_value = getattr(old.kicker_rules, key)
        if before_value != point.value:
            diffs.append(f"{point_label(point.path).lower()}: "
                         f"{value_text(before_value)} → {value_text(point.value)}")
            texts.append(point.text)
    if old.text != new.text and not diffs:
        diffs.append("new wording")
    return [Change(where, "; ".join(diffs), " ".join([*texts, new.text]))] if diffs else []


def _same_readings(a: PlayTable, b: PlayTable) -> bool:
    """Whether two tables hold the same plays, each read the same ways (type, length and rank),
    as ``ddz diff`` compares them."""
    if a.plays.keys() != b.plays.keys():
        return False
    return all([r.short() for r in readings] == [r.short() for r in b.plays[key]]
               for key, readings in a.plays.items())


def changes_md(book: Book, ruleset: Ruleset) -> str:
    """The section that opens a variant's page."""
    assert ruleset.base is not None
    base_id = ruleset.base
    items = changes(book, ruleset)
    lines = [f"## What it changes from {base_id}", "",
             f"This ruleset `extends: {base_id}`: it is [{base_id}]({base_id}.md) except for "
             f"what its own file (`{ruleset.path}`) states, listed here. Its source and "
             f"interpretations are its own.", ""]
    for change in items:
        lines.append(f"- **{change.where}**: {change.what}. {change.text}")
    if not items:
        lines.append("- Nothing beyond its name and source.")
    base_table, table_ = book.table(base_id), book.table(ruleset.id)
    base = book.ruleset(base_id)
    anchor = heading_id(f"{ruleset.id} against {base_id}")
    if _same_readings(table_, base_table):
        lines += ["", f"The play table is {base_id}'s, play for play and reading for reading "
                  f"({plural(len(table_), 'play')}; see the "
                  f"[differences page](../compare/differences.md#{anchor}))."]
        if ruleset.wild_drawn != base.wild_drawn:
            lines[-1] += (" It holds the plays of natural cards only; with wild cards more "
                          "card sets are plays (see [Wild cards](#wild-cards)).")
    else:
        lines += ["", f"The play table has {plural(len(table_), 'play')} against "
                  f"{number(len(base_table))} in {base_id}; the plays that differ are on the "
                  f"[differences page](../compare/differences.md#{anchor})."]
    return "\n".join(lines)


# --------------------------------------------------------------------------- combinations


def playable_ranks(ruleset: Ruleset, ctype: CombinationType) -> list[int]:
    """Ranks a body of this type may use: in its range, with enough copies in the deck."""
    return [r for r in range(ctype.low, ctype.high + 1) if ruleset.copies[r] >= ctype.width]


def body_text(ruleset: Ruleset, ctype: CombinationType) -> str:
    """The main part of a play of this type (its body), in a player's words."""
    if ctype.fixed_set:
        return "exactly these cards: " + card_faces(fixed_cards(ctype))
    unit = WIDTH_WORDS.get(ctype.width, f"{size_word(ctype.width)} cards")
    ranks = playable_ranks(ruleset, ctype)
    low, high = card_faces(cards.RANKS[ranks[0]]), card_faces(cards.RANKS[ranks[-1]])
    if ctype.max_length == 1:
        return f"{unit}{' of one rank' if ctype.width > 1 else ''}, any rank from {low} to {high}"
    return f"{unit} of each rank of the run, ranks {low} to {high} only"


def chain_text(ctype: CombinationType) -> str:
    """How many consecutive ranks a play of this type runs over (its chain), in words."""
    if ctype.fixed_set:
        return "none"
    lo, hi = ctype.min_length, ctype.max_length
    if hi == 1:
        return "none (a single rank)"
    if hi is None:
        return (f"a run of {lo} or more consecutive ranks, as many as the ranks and the "
                f"largest hand allow")
    if hi == lo:
        return f"a run of exactly {plural(lo, 'consecutive rank')}"
    return f"a run of {lo} to {hi} consecutive ranks"


def kicker_text(ctype: CombinationType) -> str:
    """The extra cards a play of this type carries (its kickers), in words."""
    if not ctype.kicker_unit:
        return "none"
    extra = plural(ctype.kickers_per_rank, UNIT_WORDS[ctype.kicker_unit], spell=True)
    noun = WIDTH_NOUNS.get(ctype.width, f"{ctype.width} cards")
    if ctype.max_length == 1:
        return f"{extra} beside the {noun}, of other ranks"
    return f"{extra} for each {noun} of the run, of other ranks"


def wilds_text(ruleset: Ruleset, ctype: CombinationType) -> str:
    """Which wild cards the main part of a play of this type may hold (its ``wilds``), in a
    player's words, for a ruleset with wild cards."""
    size = ctype.width * ctype.min_length
    if ctype.wilds == "none":
        return "none: natural cards only, not one wild among them"
    if ctype.wilds == "some":
        many = (f"one to {size_word(size - 1)} of its {size_word(size)} cards"
                if ctype.max_length == 1 else "at least one of its cards")
        return f"{many} are wilds standing in, beside at least one natural card"
    if ctype.wilds == "all":
        return (f"every card is a wild: the {size_word(ctype.width)} cards of one wild rank "
                f"together, each of its own rank")
    ranks = [r for r in playable_ranks(ruleset, ctype) if r in ruleset.stands_for]
    if not ranks:
        return "none: a wild never stands for these cards"
    alone = lookup(ruleset.data, ("wild", "alone", "value")) == "own_rank"
    if ctype.width == 1 and ctype.max_length == 1:
        return ("a wild played alone is a card of its own rank" if alone
                else "a wild may be played alone")
    text = "any card of the main part may be a wild standing in for it"
    if ctype.kicker_unit:
        text += ("; a wild among the extra cards is a card of its own rank"
                 if ruleset.wild_in_kickers == "own_rank" else
                 "; a wild among the extra cards may be its own rank or stand for another")
    return text


def keys_md(ruleset: Ruleset, ctype: CombinationType) -> str:
    """The combination type as its file states it (after merging), as a small reference."""
    length = (str(ctype.min_length) if ctype.min_length == ctype.max_length
              else f"{ctype.min_length}-{ctype.max_length or 'no limit'}")
    keys = [f"combinations.{ctype.name}", f"width: {ctype.width}",
            f"ranks: {cards.RANKS[ctype.low]}-{cards.RANKS[ctype.high]}", f"length: {length}"]
    if ctype.kicker_unit:
        keys.append(f"kickers: {UNIT_WORDS[ctype.kicker_unit].split()[0]} "
                    f"{TIMES}{ctype.kickers_per_rank}")
    if ruleset.wild_drawn:
        keys.append(f"wilds: {ctype.wilds}")
    keys.append(f"class: {ctype.klass} (level {ctype.level})")
    return '<small class="key">' + " · ".join(code_html(k) for k in keys) + "</small>"


def reading_cell(readings: Sequence[Reading]) -> str:
    return "<br>".join(code_html(r.short()) for r in readings)


def kickers_cell(readings: Sequence[Reading]) -> str:
    return "<br>".join(card_faces(r.kickers) for r in readings)


def example_keys(keys: Sequence[int], n: int = EXAMPLES) -> list[int]:
    """Up to ``n`` plays spread over the type's plays in table order: first, ..., last."""
    if len(keys) <= n:
        return list(keys)
    picks = sorted({round(i * (len(keys) - 1) / (n - 1)) for i in range(n)})
    return [keys[i] for i in picks]


def examples_table(table_: PlayTable, keys: Sequence[int]) -> str:
    rows = []
    for key in keys:
        readings = table_.readings(key)
        rows.append([card_faces(cards.key_text(key)), reading_cell(readings),
                     kickers_cell(readings)])
    return table(["Cards", "Readings", "Kickers"], rows)


def combination_md(book: Book, ruleset: Ruleset, ctype: CombinationType) -> str:
    table_ = book.table(ruleset.id)
    keys = book.keys_by_type(ruleset.id)[ctype.name]
    count = book.counts(ruleset.id)[ctype.name]
    facts = [f"**Main part:** {body_text(ruleset, ctype)}",
             f"**Run:** {chain_text(ctype)}",
             f"**Extra cards:** {kicker_text(ctype)}",
             f"**Beats:** {beats_text(book, ruleset, ctype.klass)}"]
    if ruleset.wild_drawn:
        facts.append(f"**Wild cards:** {wilds_text(ruleset, ctype)}")
    spec = ruleset.data["combinations"][ctype.name]
    own = rule_points(spec.get("kickers", {}), ("combinations", ctype.name, "kickers"))
    parts = [f"### {type_name(ctype.name, ruleset)} · `{ctype.name}`", ctype.text]
    shown = examples_md(prose_examples(ruleset).get(f"combinations.{ctype.name}", []))
    if shown:
        parts.append(shown)
    parts.append("\n".join(f"- {f}" for f in facts))
    parts.append(keys_md(ruleset, ctype))
    for point in own:
        parts.append(f"Kicker rule for this type only: {point_block(ruleset, point)}")
    if ctype.needs_wilds:
        parts.append(wild_type_md(book, ruleset, ctype, count))
        return "\n\n".join(parts)
    parts.append(f"**{plural(count, 'play')}** of this type in the play table. "
                 + ("Examples, from the lowest to the highest:" if len(keys) > 1
                    else "The only one:"))
    parts.append(examples_table(table_, example_keys(keys)))
    return "\n\n".join(parts)


#: The header of a table of plays with wild cards.
WILD_EXAMPLE_HEADER = ["Cards", "Wild", "Reading", "What the wild cards are", "Other readings"]


def wild_examples_table(ruleset: Ruleset, plays: Sequence[wild.WildPlay]) -> str:
    """Plays with wild cards: the cards, the wild ranks, the reading shown, what each wild card
    is in that reading, and the card set's other readings with the same wild ranks."""
    rows = [[card_faces(p.cards), wild.wild_label(p.wild), code_html(p.reading.short()),
             wild.wild_roles(ruleset, p), wild.other_readings(p)] for p in plays]
    return table(WILD_EXAMPLE_HEADER, rows)


def wild_type_md(book: Book, ruleset: Ruleset, ctype: CombinationType, count: int) -> str:
    """A type that needs wild cards: why the play table has none of it, and examples the engine
    reads with the page's stated wild rank."""
    stated = wild.stated_wild(book, ruleset)
    plays = wild.spread(wild.type_examples(book, ruleset, ctype, stated), EXAMPLES)
    text = (f"**{plural(count, 'play')}** of this type in the play table, which lists the plays "
            f"of natural cards: the main part of this type must hold wild cards "
            f"(`wilds: {ctype.wilds}`), so its plays exist only once a hand's wild rank is "
            f"drawn ([Wild cards](#wild-cards)).")
    if not plays:
        return text + f" With the {wild.wild_label(stated)}, the engine finds no example."
    return (text + f" Examples the engine reads with the {wild.wild_label(stated)}"
            + (", from the lowest to the highest:" if len(plays) > 1 else ":")
            + "\n\n" + wild_examples_table(ruleset, plays))


def reading_example(book: Book, ruleset: Ruleset) -> tuple[int, Reading]:
    """A play of this ruleset's table to explain readings with: of the first type that carries
    kickers beside one rank (else any type with kickers, else the first type), the first whose
    main part is kings, else the highest."""
    table_ = book.table(ruleset.id)
    kinds = ([c for c in ruleset.combinations if c.kicker_unit and not c.is_chain]
             or [c for c in ruleset.combinations if c.kicker_unit] or list(ruleset.combinations))
    name = kinds[0].name
    found = [(key, next(r for r in table_.readings(key) if r.type == name))
             for key in book.keys_by_type(ruleset.id)[name]]
    kings = [(key, r) for key, r in found if r.rank == "K"]
    return (kings or found[-1:])[0]


def combinations_md(book: Book, ruleset: Ruleset) -> str:
    table_ = book.table(ruleset.id)
    enabled = [c.name for c in ruleset.combinations]
    disabled = [(n, s) for n, s in ruleset.data["combinations"].items() if n not in enabled]
    key, reading = reading_example(book, ruleset)
    shown = card_faces(cards.key_text(key))
    body = card_faces(cards.key_text(key - reading.kicker_key))
    kind = article(type_name(reading.type, ruleset).lower())
    parts = ["## Combinations",
             f"{plural(len(enabled), 'combination type')}, and {plural(len(table_), 'legal play')} "
             f"in all. Every play has a main part, the cards that decide what it beats (its "
             f"{term('body', 'body')}: {body} in {shown}, {kind}). Some types are a run "
             f"of consecutive ranks (a {term('chain', 'chain')}), and some carry extra cards of "
             f"other ranks ({term('kickers', 'kicker')}), which never count when plays are "
             f"compared.",
             f"The compiled play table lists every card set that can be played, up to the "
             f"largest hand ({plural(ruleset.max_hand, 'card')}), with every way it reads. A "
             f"play's reading says what it is: its type, the number of ranks in its run (1 when "
             f"it is not a run) and the highest rank of its main part, written "
             f"`type/length/rank`, as `{reading.short()}` for {shown}. "
             + (LEGEND if not ruleset.suits else LEGEND.replace(
                 "Suits never matter.", "Suits never matter in a play; they only name the "
                 "lead card."))]
    if ruleset.wild_drawn:
        parts.append("The play table holds the plays of natural cards, as if no card were "
                     "wild. With a hand's wild cards more card sets are plays, and the types "
                     "made only with wild cards have plays at all; each type says which wild "
                     "cards its main part may hold, and examples with wild cards state the "
                     "wild rank (see [Wild cards](#wild-cards)).")
    parts += [combination_md(book, ruleset, c) for c in ruleset.combinations]
    if disabled:
        rows = [[f"{type_name(n)} · {code_html(n)}", str(s["text"])] for n, s in disabled]
        parts += ["### Not played here", table(["Type", "Why not"], rows)]
    return "\n\n".join(parts)


# --------------------------------------------------------------------------- beats


@dataclass(frozen=True)
class BeatsExample:
    play: int
    previous: int
    why: str

    def beats(self, table_: PlayTable) -> bool:
        return table_.readings(self.play)[0].beats(table_.readings(self.previous)[0])


def beats_examples(book: Book, ruleset_id: str) -> list[BeatsExample]:
    """Pairs of plays that show the comparison rule, each play with one reading only."""
    table_ = book.table(ruleset_id)
    ruleset = table_.ruleset
    by_type = {name: [k for k in keys if len(table_.readings(k)) == 1]
               for name, keys in book.keys_by_type(ruleset_id).items()}

    def first_length(keys: list[int]) -> list[int]:
        length = table_.readings(keys[0])[0].length
        return [k for k in keys if table_.readings(k)[0].length == length]

    out: list[BeatsExample] = []
    plain = [c for c in ruleset.combinations if c.level == 0 and by_type[c.name]]
    with_kickers = [c for c in plain if c.kicker_unit and len(first_length(by_type[c.name])) > 1]
    if with_kickers:
        same = first_length(by_type[with_kickers[0].name])
        out.append(BeatsExample(same[-1], same[0], "same type and length, higher main part; "
                                "the extra cards never count"))
        out.append(BeatsExample(same[0], same[-1], "same type and length, lower main part"))
    chains = [c for c in plain if len(first_length(by_type[c.name])) < len(by_type[c.name])]
    if chains:
        keys = by_type[chains[0].name]
        longer = keys[len(first_length(keys))]
        out.append(BeatsExample(longer, keys[0], "same type, but a run of a different length"))
    if len(plain) >= 2:
        out.append(BeatsExample(by_type[plain[1].name][-1], by_type[plain[0].name][0],
                                "different types, both ordinary plays"))
    levels = sorted({c.level for c in ruleset.combinations if by_type[c.name]})
    names = {k["level"]: n for n, k in ruleset.data["classes"].items()}
    sizes = bomb_sizes(ruleset)
    for lower, higher in pairwise(levels):
        low_keys = [k for c in ruleset.combinations if c.level == lower for k in by_type[c.name]]
        high_keys = [k for c in ruleset.combinations if c.level == higher
                     for k in by_type[c.name]]
        if not low_keys or not high_keys:
            continue
        top_low = max(low_keys, key=lambda k: (table_.readings(k)[0].rank_index, -k))
        high, low = names[higher], names[lower]
        high_noun, low_noun = class_noun(high, ruleset=ruleset), class_noun(low, ruleset=ruleset)
        only = class_plays(book, ruleset, high) == 1
        if high in sizes and low in sizes:
            out.append(BeatsExample(high_keys[0], top_low,
                                    f"{article(high_noun)} beats any {low_noun}, whatever the "
                                    f"ranks: more cards beat fewer"))
            out.append(BeatsExample(top_low, high_keys[0],
                                    f"{article(low_noun)} never beats {article(high_noun)}, "
                                    f"even of a lower rank"))
        else:
            out.append(BeatsExample(high_keys[0], top_low,
                                    f"{article(high_noun, only)} beats any {low_noun}, "
                                    f"whatever its type"))
        if len(high_keys) >= 2:
            out.append(BeatsExample(high_keys[-1], high_keys[0],
                                    f"two {class_noun(high, many=True, ruleset=ruleset)}: the "
                                    f"higher main part wins"))
    return out


def fixed_cards(ctype: CombinationType) -> str:
    """The cards of a fixed set (the rocket ``BR``; with two decks, the joker bomb ``BBRR``)."""
    return "".join(cards.RANKS[r] * ctype.width for r in range(ctype.low, ctype.high + 1))


def class_event(ruleset: Ruleset, name: str) -> str:
    """The multiplier event a play of class ``name`` is (``classes.NAME.event``, else the class
    name), with its factor, or ``none`` where ``scoring.multipliers`` does not name it."""
    event = str(ruleset.data["classes"][name].get("event", name))
    factor = ruleset.factors.get(event)
    return "none" if factor is None else f"{code_html(event)} {TIMES}{factor}"


def class_payment(ruleset: Ruleset, name: str) -> str:
    """What each other player pays at once for a play of class ``name``
    (``scoring.bomb_payments``), or ``none``."""
    amount = dict(ruleset.bomb_payments).get(name)
    return "none" if amount is None else f"{amount} from each other player"


def class_scoring(ruleset: Ruleset, name: str) -> str:
    """How a play of class ``name`` counts in the scoring: its multiplier event where a hand
    has a stake, else what it is paid at once (``scoring.settlement: cards_left``)."""
    if ruleset.has_landlord:
        return f"multiplier event: {class_event(ruleset, name)}"
    return f"paid {paid_when(ruleset)}: {class_payment(ruleset, name)}"


def paid_when(ruleset: Ruleset) -> str:
    """When a bomb is paid (``scoring.bomb_paid_when``), as words after "paid"."""
    return "at once" if paid_when_played(ruleset) else "once it wins its trick"


def class_span(book: Book, ruleset: Ruleset, name: str) -> str:
    """The plays of a class, lowest to highest: ``3333 to 2222 (13 plays)``, or the one play."""
    table_ = book.table(ruleset.id)
    keys = [k for c in ruleset.combinations if c.klass == name
            for k in book.keys_by_type(ruleset.id)[c.name]]
    if not keys:
        return wild_span(book, ruleset, name)
    if len(keys) == 1:
        return f"{card_faces(cards.key_text(keys[0]))}, the only one"
    low = min(keys, key=lambda k: (table_.readings(k)[0].rank_index, k))
    high = max(keys, key=lambda k: (table_.readings(k)[0].rank_index, -k))
    return (f"{card_faces(cards.key_text(low))} to {card_faces(cards.key_text(high))} "
            f"({plural(len(keys), 'play')})")


def wild_span(book: Book, ruleset: Ruleset, name: str) -> str:
    """The plays of a class made only with wild cards, lowest to highest, as the engine reads
    them with the page's stated wild rank."""
    stated = wild.stated_wild(book, ruleset)
    low = wild.class_end(book, ruleset, name, stated, highest=False)
    high = wild.class_end(book, ruleset, name, stated, highest=True)
    if low is None or high is None:
        return f"none with the {wild.wild_label(stated)}"
    if low.key == high.key:
        return f"{card_faces(low.cards)}, the only one with the {wild.wild_label(stated)}"
    return (f"{card_faces(low.cards)} to {card_faces(high.cards)} with the "
            f"{wild.wild_label(stated)}")


def ladder_md(book: Book, ruleset: Ruleset) -> str:
    """The classes above ordinary plays, weakest first, each with its lowest and highest play,
    and the card sets a fixed set's ranks make that are no play (one small and one big joker,
    where the top play is all four jokers)."""
    classes = sorted((k["level"], n) for n, k in ruleset.data["classes"].items()
                     if k["level"] > 0 and any(c.klass == n for c in ruleset.combinations))
    if not classes:
        return ""
    steps = []
    for _level, name in classes:
        only = class_plays(book, ruleset, name) == 1
        noun = class_noun(name, many=not only, ruleset=ruleset)
        label_ = noun if not only else article(noun, only=True)
        steps.append(f"1. **{label_[:1].upper()}{label_[1:]}**: "
                     f"{class_span(book, ruleset, name)}; {class_scoring(ruleset, name)}")
    top = classes[-1][1]
    top_only = class_plays(book, ruleset, top) == 1
    strongest = article(class_noun(top, ruleset=ruleset), top_only)
    text = ["The stronger kinds of play form a ladder, weakest first. Each kind beats every "
            "kind before it, whatever the types and ranks; within one kind, the higher main part "
            f"wins; nothing beats {strongest}{'' if top_only else ' of the highest rank'}. Each "
            + ("counts in the scoring as the multiplier event shown (`scoring.multipliers`)."
               if ruleset.has_landlord else
               (f"is paid {paid_when(ruleset)} as shown (`scoring.bomb_payments`, "
                "`scoring.bomb_paid_when`)"
                + (", whatever happens next." if paid_when_played(ruleset) else ".")))
            + (" A kind made with wild cards is shown as the engine reads it with the wild "
               "rank stated." if ruleset.wild_drawn else ""),
            "\n".join(steps)]
    table_ = book.table(ruleset.id)
    for ctype in ruleset.combinations:
        if not ctype.fixed_set or ctype.width == 1:
            continue
        one_each = cards.RANKS[ctype.low:ctype.high + 1]
        if table_.classify(one_each):
            continue
        names = join_words([f"one {JOKER_NAMES.get(r, r)}" for r in one_each])
        whole = article(type_name(ctype.name, ruleset).lower(), only=True)
        text.append(f"{card_faces(one_each)}, {names} together, is no play here: "
                    f"{card_faces(fixed_cards(ctype))} together is {whole}, and no "
                    f"combination type reads {card_faces(one_each)} "
                    f"(`ddz classify -r {ruleset.id} {one_each}` finds no reading).")
    return "\n\n".join(text)


def beats_md(book: Book, ruleset: Ruleset) -> str:
    table_ = book.table(ruleset.id)
    rows = []
    for name, klass in sorted(ruleset.data["classes"].items(), key=lambda kv: kv[1]["level"]):
        members = [type_name(c.name, ruleset) for c in ruleset.combinations if c.klass == name]
        rows.append([f'{class_label(name, ruleset)}<br><small class="key">'
                     f"{code_html(f'classes.{name}')} · level {klass['level']}</small>",
                     ", ".join(members) if members else "no type of this ruleset",
                     beats_text(book, ruleset, name) if members else "does not apply",
                     class_event(ruleset, name) if ruleset.has_landlord
                     else class_payment(ruleset, name),
                     str(klass["text"])])
    stronger = sorted((k["level"], n) for n, k in ruleset.data["classes"].items()
                      if any(c.klass == n for c in ruleset.combinations))
    above = [n for lv, n in stronger if lv > stronger[0][0]]
    intro = ("A play answers the play before it only if it beats it. An ordinary play beats "
             "only a play of the same type and the same length of run whose main part is "
             "lower; the extra cards never count.")
    if above:
        only = class_plays(book, ruleset, above[0]) == 1
        intro += (f" A few plays are stronger kinds, each its own {term('class', 'class')}: "
                  f"{article(class_noun(above[0], ruleset=ruleset), only)} beats any "
                  f"{class_noun(stronger[0][1], ruleset=ruleset)}, whatever its type"
                  + (", and each kind above it beats every kind below." if len(above) > 1
                     else "."))
    parts = ["## What beats what", intro]
    ladder = ladder_md(book, ruleset)
    if ladder:
        parts.append(ladder)
    if not ruleset.has_landlord:
        parts.append(f"Every kind of play, with what each other player pays {paid_when(ruleset)} "
                     "for a play of it (`scoring.bomb_payments`):")
        parts.append(table(["Kind of play", "Types", "Beats", f"Paid {paid_when(ruleset)}",
                            "Rule"], rows))
    else:
        parts.append("Every kind of play, with the multiplier event a play of it counts as in the "
                 "scoring (`scoring.multipliers`):")
        parts.append(table(["Kind of play", "Types", "Beats", "Multiplier event", "Rule"], rows))
    examples = prose_examples(ruleset)
    for name in ruleset.data["classes"]:
        shown = examples_md(examples.get(f"classes.{name}", []))
        if shown:
            parts.append(f"{class_label(name, ruleset)} ({code_html(name)}). {shown}")
    parts.append("The engine decides these examples (`ddz beats PLAY PREVIOUS`):")
    example_rows = []
    for ex in beats_examples(book, ruleset.id):
        example_rows.append([card_faces(cards.key_text(ex.play)),
                             card_faces(cards.key_text(ex.previous)),
                             "yes" if ex.beats(table_) else "no", ex.why])
    parts.append(table(["Play", "Previous play", "Beats?", "Why"], example_rows))
    if ruleset.wild_drawn:
        parts.append(wild_beats_md(book, ruleset))
    return "\n\n".join(parts)


def wild_beats_md(book: Book, ruleset: Ruleset) -> str:
    """With wild cards: each kind of play against the kind next to it, where either is made
    with wild cards, and two plays of such a kind, as the engine decides them with the page's
    stated wild rank."""
    stated = wild.stated_wild(book, ruleset)
    levels = ruleset.data["classes"]
    rows = []

    def noun(name: str) -> str:
        return class_noun(name, ruleset=ruleset)

    def row(play: wild.WildPlay, previous: wild.WildPlay, why: str) -> list[str]:
        verdict = play.reading.beats(previous.reading)
        return [wild.play_cell(play), wild.wild_label(play.wild), wild.play_cell(previous),
                "yes" if verdict else "no", why]

    for pair in wild.class_pairs(book, ruleset, stated):
        if not (wild.needs_wilds(ruleset, pair.lower) or wild.needs_wilds(ruleset, pair.higher)):
            continue
        low_level, high_level = levels[pair.lower]["level"], levels[pair.higher]["level"]
        only = class_plays(book, ruleset, pair.higher) == 1
        rows.append(row(pair.high_play, pair.low_play,
                        f"{article(noun(pair.higher), only)} (level {high_level}) beats any "
                        f"{noun(pair.lower)} (level {low_level}), whatever the ranks"))
        if low_level > 0:
            higher_rank = pair.low_play.reading.rank_index > pair.high_play.reading.rank_index
            rows.append(row(pair.low_play, pair.high_play,
                            f"{article(noun(pair.lower))} (level {low_level}) never beats "
                            f"{article(noun(pair.higher), only)} (level {high_level})"
                            + (", even of a higher rank" if higher_rank else "")))
    for name in sorted({c.klass for c in ruleset.combinations},
                       key=lambda n: levels[n]["level"]):
        if wild.needs_wilds(ruleset, name) and class_many(book, ruleset, name):
            low = wild.class_end(book, ruleset, name, stated, highest=False)
            high = wild.class_end(book, ruleset, name, stated, highest=True)
            if low is not None and high is not None and low.key != high.key:
                rows.append(row(high, low, f"two {class_noun(name, True, ruleset)}: the "
                                           f"higher main part wins"))
    if not rows:
        return ""
    command = f"ddz beats -r {ruleset.id} --wild {wild.wild_arg(stated)} PLAY PREVIOUS"
    return (f"With wild cards, the engine decides these with the {wild.wild_label(stated)} "
            f"(`{command}`; a play holding a wild is named with its reading, as "
            f"`CARDS@type/length/rank`):\n\n"
            + table(["Play", "Wild", "Previous play", "Beats?", "Why"], rows))


# --------------------------------------------------------------------------- the page


def _section(data: Mapping[str, Any], key: str) -> list[RulePoint]:
    node = data.get(key)
    if isinstance(node, Mapping) and is_point(node):
        return [RulePoint((key,), node["value"], str(node["text"]))]
    if isinstance(node, Mapping):
        return rule_points(node, (key,))
    return []


def deck_facts(ruleset: Ruleset) -> str:
    """The deck counted out: suited cards, jokers, and the whole."""
    suited = [r for r in ruleset.deck_ranks if r not in cards.JOKERS]
    jokers = "".join(cards.RANKS[r] * ruleset.copies[r] for r in ruleset.deck_ranks
                     if r in cards.JOKERS)
    removed = [str(c) for c in lookup(ruleset.data, ("deck", "removed", "value")) or ()]
    copies = (int(ruleset.data["deck"]["copies"]["value"]) if removed
              else ruleset.copies[suited[0]] if suited else 0)
    text = (f"In all, {plural(ruleset.deck_size, 'card')}: {plural(len(suited), 'rank')} "
            f"{TIMES} {plural(copies, 'copy')} = {plural(len(suited) * copies, 'card')}")
    if removed:
        text += (f", less the {size_word(len(removed))} "
                 f"taken out ({' '.join(suited_face(c) for c in removed)})")
    text += f", and {plural(len(jokers), 'joker')}"
    return text + (f" ({card_faces(jokers)})." if jokers else ".")


def deal_facts(ruleset: Ruleset) -> str:
    dealt = ruleset.players * ruleset.hand_size
    text = f"{ruleset.players} {TIMES} {ruleset.hand_size} = {plural(dealt, 'card')} are dealt"
    text += (f" and {plural(ruleset.kitty, 'card')} go to the kitty" if ruleset.kitty
             else " and none goes to a kitty")
    if ruleset.undealt:
        text += (f"; the other {number(ruleset.undealt)} of the "
                 f"{plural(ruleset.deck_size, 'card')} are never dealt"
                 + ("" if ruleset.has_landlord else
                    f": they are {term('set aside', 'set-aside')} face down for the whole "
                    f"hand, and nobody takes them") + ".")
    else:
        text += f": the whole deck of {plural(ruleset.deck_size, 'card')}."
    if not ruleset.kitty and lookup(ruleset.data, ("deal", "kitty_shown")) is not None:
        text += (" With no kitty, whether it is shown (`deal.kitty_shown`) never comes into "
                 "play.")
    return text


def sides_text(ruleset: Ruleset) -> str:
    """Who plays against whom, from ``players``, ``teams.sides`` and ``teams.partner``."""
    if not ruleset.has_landlord:
        return (f"each for himself, with no landlord: the first player out wins the hand "
                f"({term('Run Fast', 'run-fast')})")
    peasants = plural(ruleset.players - 1, term("peasant", "peasant"),
                      term("peasants", "peasant"), spell=True)
    text = f"the {term('landlord', 'landlord')} alone against {peasants}"
    if ruleset.partner_rule == "called_rank":
        text += (f", or, once a {term('partner', 'partner')} joins him by playing the "
                 f"{term('called rank', 'called-rank')}, the two of them against "
                 f"{plural(ruleset.players - 2, 'peasant', spell=True)}")
    return text


def call_facts(ruleset: Ruleset) -> str:
    """How the call is made and kept, where the landlord calls a rank for a partner."""
    ranks = card_faces(cards.text(ruleset.deck_ranks))
    return (f"The landlord's choice is one word, said right after he takes the kitty and before "
            f"he leads: `{ALONE}`, or `{CALL.strip()}` and a rank of the deck ({ranks}), as "
            f"`{CALL}7`. A hand record keeps it as `partner_call`. Every player sees the "
            f"called rank, and who the partner is once he has joined; until then there is no "
            f"partner, hidden or not. How a partner changes the settlement is under "
            f"[Scoring](#scoring), and the [worked example](#a-worked-example) shows a call, "
            f"a join and the settlement by side.")


def lead_facts(ruleset: Ruleset) -> str:
    """Who leads the first trick without a landlord: the holder of the lead card, and who
    leads where it is not dealt."""
    assert ruleset.lead_card is not None
    card = f"{cards.suited_name(ruleset.lead_card)} ({suited_face(ruleset.lead_card)})"
    text = f"the holder of the {term('lead card', 'lead-card')}, the {card}"
    if ruleset.first_play_holds_lead_card:
        text += ", who must play it in his first play"
    if ruleset.undealt and ruleset.lead_card_missing == "lowest_card":
        text += "; when it is set aside, the holder of the lowest card dealt"
    return text


def glance_md(book: Book, ruleset: Ruleset) -> str:
    report = book.check(ruleset.id)
    readings = ("every play has exactly one reading" if not report["ambiguous"]
                else f"{plural(report['ambiguous'], 'play')} read several ways; the player "
                     f"names the reading")
    if ruleset.wild_drawn:
        natural = ("every play of natural cards has one reading" if not report["ambiguous"]
                   else readings)
        readings = (f"{natural}; a play holding wild cards may read several ways, and its "
                    f"player names the one meant")
    undealt = (("all dealt" if not ruleset.undealt else
                f"{number(ruleset.undealt)} never dealt") if ruleset.has_landlord else
               "all dealt" if not ruleset.undealt else f"{number(ruleset.undealt)} set aside")
    hand = plural(ruleset.hand_size, "card")
    if not ruleset.has_landlord:
        hand += ("; nobody takes more cards" if not ruleset.undealt else
                 f"; {plural(ruleset.undealt, 'card')} are set aside and nobody takes them")
    elif ruleset.kitty:
        hand += (f"; the landlord takes the {term('kitty', 'kitty')} of "
                 f"{plural(ruleset.kitty, 'card')} and holds {ruleset.max_hand}")
    else:
        hand += "; there is no kitty, so the landlord plays the cards he was dealt"
    top = max(((k["level"], n) for n, k in ruleset.data["classes"].items()
               if any(c.klass == n for c in ruleset.combinations)))[1]
    only = class_plays(book, ruleset, top) == 1
    rows = [["Players", f"{ruleset.players}: {sides_text(ruleset)}"],
            ["Deck", f"{plural(ruleset.deck_size, 'card')}, {undealt}"],
            ["Hand", hand],
            (["Auction", code_html(ruleset.auction_family)] if ruleset.has_landlord else
             ["First leader", lead_facts(ruleset)]),
            ["Combination types", str(len(ruleset.combinations))],
            ["Legal plays", number(report["plays"]) + (
                " of natural cards; with wild cards, more card sets are plays"
                if ruleset.wild_drawn else "")],
            ["Strongest play", f"{article(class_noun(top, ruleset=ruleset), only)}, "
                               f"{class_span(book, ruleset, top)}"],
            ["Readings", readings]]
    if ruleset.wild_drawn:
        rows.insert(3, ["Wild cards", f"{wild.draws_text(ruleset)[:1].upper()}"
                                      f"{wild.draws_text(ruleset)[1:]} "
                                      f"({plural(wild.wild_cards_in_play(ruleset), 'wild card')} "
                                      f"in play); see [Wild cards](#wild-cards)"])
    return "## At a glance\n\n" + table(["Rule", "This ruleset"], rows)


def readings_md(book: Book, ruleset: Ruleset) -> str:
    report = book.check(ruleset.id)
    parts = ["## Readings and kickers"]
    parts += [point_block(ruleset, p) for p in _section(ruleset.data, "readings")]
    if report["ambiguous"]:
        parts.append(f"The exhaustive check finds {plural(report['ambiguous'], 'play')} that "
                     f"read more than one way, all listed on the "
                     f"[invariants page](../invariants.md#{heading_id(ruleset.id)}); such a "
                     f"play is written with its reading, as in "
                     f"`{report['ambiguous_examples'][0]['cards']}@"
                     f"{_short(report['ambiguous_examples'][0]['readings'][0])}`.")
    else:
        parts.append(f"The exhaustive check reads all {plural(report['plays'], 'play')}: "
                     f"every one has exactly one reading.")
    if ruleset.wild_drawn:
        parts.append("That table holds the plays of natural cards. A play holding wild cards "
                     "often reads several ways, since each wild may stand for a different "
                     "card; its player names the reading meant, as `CARDS@type/length/rank`, "
                     "and a hand record keeps every play holding a wild that way (see "
                     "[Wild cards](#wild-cards)).")
    parts.append("### Kicker rules")
    carriers = [article(type_name(c.name, ruleset).lower()) for c in ruleset.combinations
                if c.kicker_unit]
    if carriers:
        parts.append(f"{term('Kickers', 'kicker')} are the extra cards a play carries beside its "
                     f"main part; here {join_words(carriers, 'or')} carries them. These rules "
                     f"hold for every type with kickers unless the type states its own.")
    else:
        parts.append(f"{term('Kickers', 'kicker')} are the extra cards a play carries beside its "
                     f"main part; no type of this ruleset carries any, so these rules never "
                     f"come into play.")
    parts += [point_block(ruleset, p) for p in _section(ruleset.data, "kickers")]
    return "\n\n".join(parts)


def _short(reading: Mapping[str, Any]) -> str:
    return f"{reading['type']}/{reading['length']}/{reading['rank']}"


#: A source text's file name: ``000_7c482f6b1d29a3cf.txt``, then any note on which part.
SOURCE_FILE = re.compile(r"(\d{3})_[0-9a-f]+\.txt")


def source_reference(text: str) -> str:
    """The source's ``text`` as a small reference: which source text, then its file name."""
    found = SOURCE_FILE.match(text)
    if found is None:
        return f'<small class="key">Reference: {text}</small>'
    rest = text[found.end():].strip()
    return (f'<small class="key">Reference: source text {found.group(1)}, file '
            f"{code_html(found.group(0))}{f' {rest}' if rest else ''}</small>")


def source_md(ruleset: Ruleset) -> str:
    """What the ruleset's source text is (its ``about``), then which text (small)."""
    source = ruleset.data["source"]
    body = f"{source['about']}\n\n{source_reference(str(source['text']))}"
    return admonition("info", "Source", body)


def interpretations_md(ruleset: Ruleset) -> str:
    items = ruleset.data.get("interpretations", [])
    parts = ["## Interpretations",
             "Where the source is silent or ambiguous, this ruleset makes a choice, stated here "
             "with its reason."]
    if not items:
        parts.append("None: the source text settles every rule point.")
    for item in items:
        body = f"**Choice.** {item['choice']}\n\n**Why.** {item['reason']}"
        shown = examples_md(item.get("examples", []))
        if shown:
            body += f"\n\n{shown}"
        parts.append(admonition("question", str(item["question"]), body))
    return "\n\n".join(parts)


def covered_keys() -> set[str]:
    return {k for _, k in SECTIONS + LATER_SECTIONS} | {"readings", "kickers", "classes",
                                                      "combinations", "wild"}


def glossary_ids(book: Book) -> list[str]:
    """The entries of the glossary on the home page (``docs/index.md``), by anchor."""
    path = book.root / "docs" / "index.md"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return re.findall(r'<dt id="([^"]+)">', text)


def glossary_words(book: Book, ruleset: Ruleset) -> str:
    """The words of the game a ruleset's page uses, each linked to its glossary entry: the
    roles and sides the ruleset has, the kitty if it has one, its stronger kinds of play, and
    the scoring words its multipliers need."""
    known = set(glossary_ids(book))
    words = ([("landlord", "landlord"), ("peasant", "peasant")] if ruleset.has_landlord else
             [("Run Fast", "run-fast"), ("first out", "first-out"), ("lead card", "lead-card")])
    if ruleset.suits:
        words.append(("suited card", "suited-card"))
    if ruleset.must_beat:
        words.append(("must beat", "must-beat"))
    if ruleset.last_card_warning != "none" or ruleset.liability != "none":
        words.append(("last-card warning", "last-card-warning"))
    if "scoring.liability" not in inert_points(ruleset) and ruleset.liability != "none":
        words.append(("liability", "liability"))
    if not ruleset.has_landlord and ruleset.undealt:
        words.append(("set-aside cards", "set-aside"))
    if ruleset.wild_drawn:
        words.append(("wild card", "wild-card"))
        if {"before_auction", "after_auction"} <= set(ruleset.wild_drawn):
            words.append(("sky and earth laizi", "sky-and-earth"))
    if ruleset.partner_rule != "none":
        words += [("partner", "partner"), ("called rank", "called-rank"), ("side", "side")]
    if ruleset.kitty:
        words.append(("kitty", "kitty"))
    words += [("bid", "bid")] if ruleset.has_landlord else []
    words += [("trick", "trick"), ("kicker", "kicker"), ("run", "chain")]
    if not ruleset.has_landlord and any(c.is_chain and c.width == 3 and c.kicker_unit
                                        for c in ruleset.combinations):
        words.append(("wings", "wings"))
    levels = ruleset.data["classes"]
    for name in sorted(set(ruleset.class_of.values()), key=lambda n: levels[n]["level"]):
        if name in bomb_sizes(ruleset):
            words.append(("bomb", "bomb"))
        else:
            noun = class_noun(name, ruleset=ruleset)
            anchors = [noun.replace(" ", "-"), name.replace("_", "-")]
            words.append((noun, next((a for a in anchors if a in known), anchors[-1])))
    if ruleset.settlement == "declared":
        words.append(("declared reading", "declared-reading"))
    if ruleset.has_landlord:
        words += [("multiplier", "multiplier"), ("stake", "stake")]
    elif ruleset.shut_out != 1:
        words.append(("shut out", "shut-out"))
    if {"spring", "anti_spring"} & set(ruleset.factors):
        words.append(("spring", "spring"))
    return ", ".join(term(word, anchor) for word, anchor in dict.fromkeys(words)
                     if anchor in known)


def score_units(score: int) -> str:
    """A score in units of the stake: ``+2S``, ``-S``."""
    size = abs(score)
    return ("+" if score > 0 else "-") + ("" if size == 1 else str(size)) + "S"


@dataclass(frozen=True)
class AloneCase:
    """A hand's end to settle without a landlord: the cards each seat holds, whether it ever
    played, who let the first player out (liability) and the bombs paid at once."""

    what: str
    left: tuple[int, ...]
    played: tuple[bool, ...]
    liable: int | None = None
    bombs: tuple[tuple[str, int], ...] = ()

    def settled(self, ruleset: Ruleset) -> Result:
        """The engine's settlement of this end (:func:`ddz_rules.scoring.settle_alone`), seat
        0 out first."""
        order = [r for r in ruleset.deck_ranks for _ in range(ruleset.copies[r])]
        hands = [cards.pack_ranks(order[:n]) for n in self.left]
        bombs = [BonusPayment(name, seat, dict(ruleset.bomb_payments)[name])
                 for name, seat in self.bombs]
        return settle_alone(ruleset, 0, hands, [int(p) for p in self.played], self.liable,
                            bombs)


def alone_cases(ruleset: Ruleset) -> list[AloneCase]:
    """The ends of a hand the scoring table of a ruleset without a landlord settles: the other
    seats holding a few cards, one of them shut out, one of them paying for everyone, and a
    bomb paid at once, each where the rules give it an effect."""
    others = list(range(1, ruleset.players))
    left = tuple([0] + [3 if seat == 1 else 1 for seat in others])
    played = (True,) * ruleset.players
    out = [AloneCase("every other player holds a few cards", left, played)]
    if ruleset.shut_out != 1:
        last = others[-1]
        out.append(AloneCase(f"seat {last} never played a card",
                             tuple(ruleset.hand_size if s == last else n
                                   for s, n in enumerate(left)),
                             tuple(s != last for s in range(ruleset.players))))
    if "scoring.liability" not in inert_points(ruleset) and ruleset.liability != "none":
        before = others[-1]  # the seat that plays just before seat 0
        out.append(AloneCase(f"seat {before} let seat 0 out with a low single", left, played,
                             liable=before))
    if ruleset.bomb_payments:
        name = ruleset.bomb_payments[0][0]
        noun = article(class_noun(name, ruleset=ruleset))
        out.append(AloneCase(f"seat {others[-1]} had played {noun}", left, played,
                             bombs=((name, others[-1]),)))
    return out


def alone_settlement_md(ruleset: Ruleset) -> str:
    """What each seat scores without a landlord, as the engine settles a few ends of a hand
    (:func:`ddz_rules.scoring.settle_alone`)."""
    rows = []
    for case in alone_cases(ruleset):
        result = case.settled(ruleset)
        rows.append([case.what,
                     "; ".join(f"seat {s} {n}" for s, n in enumerate(result.cards_left)),
                     join_words([f"seat {s}" for s in result.shut_out]) or "nobody",
                     f"seat {result.liable}" if result.liable is not None else "nobody",
                     "<br>".join(f"seat {p.seat}: {p.amount} from each other player"
                                 for p in result.bombs_paid) or "none",
                     "; ".join(f"seat {s} {n:+d}" if n else f"seat {s} 0"
                               for s, n in enumerate(result.scores))])
    per = plural(ruleset.per_card, "point")
    return (f"What each seat scores as the engine settles a hand, seat 0 having gone out "
            f"first ({term('first out', 'first-out')}): each other player pays him {per} for "
            f"each card he still holds"
            + (f", {ruleset.shut_out} times that if he is {term('shut out', 'shut-out')}"
               if ruleset.shut_out != 1 else "")
            + (", and nothing if he holds a single card" if ruleset.last_card_free else "")
            + ("; the seat who let him out pays for everyone where liability applies"
               if any(c.liable is not None for c in alone_cases(ruleset)) else "")
            + (("; a bomb is paid at once, whoever wins" if paid_when_played(ruleset) else
                "; a bomb is paid once it wins its trick, whoever wins the hand")
               if ruleset.bomb_payments else "")
            + ".\n\n"
            + table(["The end of the hand", "Cards left", "Shut out", "Pays for everyone",
                     "Bombs paid", "Scores"], rows))


def settlement_md(ruleset: Ruleset) -> str:
    """Who pays whom, in units of the stake S, as the engine settles a hand
    (:func:`ddz_rules.scoring.settle`): for the landlord alone and, where a partner may join
    him, for a side of two; without a landlord, :func:`alone_settlement_md`."""
    if not ruleset.has_landlord:
        return alone_settlement_md(ruleset)
    stake = 1 if ruleset.cap is None else min(1, ruleset.cap)
    if stake < 1:
        return ""
    sides = [(0,)] + ([(0, 1)] if ruleset.partner_rule != "none" else [])
    with_partner = len(sides) > 1
    rows = []
    for side in sides:
        for won in (True, False):
            scores = settle(ruleset, side, won, 1, []).scores
            peasant = next(s for seat, s in enumerate(scores) if seat not in side)
            who = ("the landlord and his partner" if len(side) > 1 else
                   "the landlord alone")
            against = plural(ruleset.players - len(side), "peasant", spell=True)
            peasant_side = ("the peasant" if ruleset.players - len(side) == 1
                            else "the peasants")
            row = [f"{who}, against {against}",
                   ("the landlord's side" if with_partner else "the landlord") if won
                   else peasant_side,
                   score_units(scores[0])]
            if with_partner:
                row.append(score_units(scores[1]) if len(side) > 1 else "no partner")
            row.append(score_units(peasant))
            rows.append(row)
    header = ["Landlord's side", "Winner", "Landlord"]
    header += ["Partner"] if with_partner else []
    header += ["Each peasant"]
    return (f"What each seat scores as the engine settles a hand, counted in stakes: the "
            f"stake S is {WORTH}.\n\n" + table(header, rows))


def ruleset_page(book: Book, ruleset_id: str) -> str:
    """The page of one ruleset."""
    ruleset = book.ruleset(ruleset_id)
    head = [f"# {ruleset.title}", ruleset.summary,
            f"Ruleset `{ruleset.id}`, file `{ruleset.path}`"
            + (f", extends [{ruleset.base}]({ruleset.base}.md)." if ruleset.base else "."),
            source_md(ruleset),
            f"The words of the game this page uses ({glossary_words(book, ruleset)}...) are "
            f"explained in the [glossary](../{GLOSSARY})."]
    if ruleset.base is not None:
        head.append(changes_md(book, ruleset))
    head.append(glance_md(book, ruleset))
    body: list[str] = []
    for heading, key in SECTIONS:
        if key == "teams" and not ruleset.has_landlord:
            heading = "Each for himself"
        points = _section(ruleset.data, key)
        if points:
            body.append(f"## {heading}\n\n" + points_md(ruleset, points))
        if key == "deck":
            body.append(deck_facts(ruleset))
        if key == "deal":
            body.append(deal_facts(ruleset))
        if key == "teams" and ruleset.partner_rule == "called_rank":
            body.append(call_facts(ruleset))
    if ruleset.wild_drawn:
        body.append(wild_md(book, ruleset))
    body.append(combinations_md(book, ruleset))
    body.append(readings_md(book, ruleset))
    body.append(beats_md(book, ruleset))
    for heading, key in LATER_SECTIONS:
        points = _section(ruleset.data, key)
        if points:
            body.append(f"## {heading}\n\n" + points_md(ruleset, points))
        if key == "scoring":
            body.append(settlement_md(ruleset))
    example = worked.worked_example(book, ruleset_id)
    body.append("## A worked example\n\n" + worked.render(example, worked.alone_example(ruleset),
                                                          worked.other_hands(book, example)))
    others = [k for k in ruleset.data if k not in covered_keys() and k not in
              ("id", "title", "summary", "source", "interpretations", "extends",
               "examples")]
    for key in others:
        points = _section(ruleset.data, key)
        if points:
            body.append(f"## {label(key)}\n\n" + points_md(ruleset, points))
    body.append(interpretations_md(ruleset))
    return "\n\n".join(head + body) + "\n"


# --------------------------------------------------------------------------- overview, nav


def overview_page(book: Book) -> str:
    """``rulesets/index.md``: every bundled ruleset as a card."""
    parts = ["# Rulesets",
             "Every bundled ruleset has its page here, generated from its YAML file by the same "
             "engine that referees it. A base ruleset (`rules/`) states every rule; a variant "
             "(`variants/`) extends a base and states only what changes; a peer preset "
             "reproduces another engine's play set exactly."]
    for group in ("Base rulesets", "Variants", "Peer presets"):
        members = [rid for rid in book.ids if book.group(rid) == group]
        if not members:
            continue
        cards_md = []
        for rid in members:
            r = book.ruleset(rid)
            report = book.check(rid)
            extends = f", extends `{r.base}`" if r.base else ""
            cards_md.append(
                f"-   **[{r.title}]({rid}.md)**\n\n    ---\n\n    {r.summary}\n\n"
                f"    `{rid}`{extends} · {plural(r.players, 'player')} · "
                f"{plural(report['plays'], 'play')}")
        parts.append(f"## {group}\n\n<div class=\"grid cards\" markdown>\n\n"
                     + "\n\n".join(cards_md) + "\n\n</div>")
    return "\n\n".join(parts) + "\n"


def ruleset_nav(book: Book) -> list[Any]:
    """The rules book's nav for the rulesets section: the overview, then each group's pages."""
    nav: list[Any] = [{"Overview": "rulesets/index.md"}]
    for group in ("Base rulesets", "Variants", "Peer presets"):
        members = [rid for rid in book.ids if book.group(rid) == group]
        if members:
            nav.append({group: [{rid: page_path(rid)} for rid in members]})
    return nav


# --------------------------------------------------------------------------- wild cards


def wild_md(book: Book, ruleset: Ruleset) -> str:
    """The "Wild cards" section of a ruleset with wild cards: how many wild ranks a hand has
    and when each is drawn, which ranks may be wild, what a wild may stand for and what it is
    alone or as a kicker, each as the ruleset states it; then three examples the engine
    computes: a run completed by a wild, one card set that reads two ways and how its player
    names the one meant, and a kind of play made with wild cards against the kind above it."""
    stated = wild.stated_wild(book, ruleset)
    draws = wild.draws_text(ruleset)
    parts = ["## Wild cards",
             f"This ruleset plays with {term('wild cards', 'wild-card')} (laizi): {draws}. Every "
             f"card of a drawn rank is wild from then on: "
             f"{plural(wild.wild_cards_in_play(ruleset), 'wild card')} in a hand"
             f"{' once every wild rank is drawn' if len(ruleset.wild_drawn) > 1 else ''}. "
             f"A wild rank is drawn from {value_text(cards.text(ruleset.wild_ranks), 'ranks')}, "
             f"and a wild may stand for {value_text(cards.text(ruleset.stands_for), 'ranks')}.",
             points_md(ruleset, _section(ruleset.data, "wild")),
             f"A card set's readings depend on the hand's wild ranks, so every example with wild "
             f"cards on this page states them, as `ddz classify`, `ddz beats` and `ddz moves` "
             f"take them (`--wild {wild.wild_arg(stated)}`); most use the "
             f"{wild.wild_label(stated)}. Each is computed by the engine while the page is "
             f"built."]
    for block in (completion_md(book, ruleset), two_readings_md(book, ruleset),
                  soft_hard_md(book, ruleset, stated)):
        if block:
            parts.append(block)
    return "\n\n".join(parts)


def completion_md(book: Book, ruleset: Ruleset) -> str:
    """A run completed by a wild card (:func:`ddz_rules.docs.wild.chain_completion`)."""
    found = wild.chain_completion(book, ruleset)
    if found is None:
        return ""
    play, ctype = found.play, found.ctype
    noun = type_name(ctype.name, ruleset).lower()
    reading = play.reading
    low = reading.rank_index - reading.length + 1
    principal = next(r for r in cards.parse(play.cards) if r in play.wild)
    face = card_faces(cards.RANKS[principal])
    text = [f"### {article(noun).capitalize()} completed by a wild card",
            f"With the {wild.wild_label(play.wild)}, {card_faces(play.cards)} is "
            f"{article(noun)}: {wild.wild_roles(ruleset, play)}, so it reads "
            f"{code_html(reading.short())}, a run of {reading.length} from "
            f"{card_faces(cards.RANKS[low])} to {card_faces(reading.rank)}."]
    if not ctype.low <= principal <= ctype.high:
        text[-1] += (f" No {noun} may hold a {face} (its ranks run from "
                     f"{card_faces(cards.RANKS[ctype.low])} to "
                     f"{card_faces(cards.RANKS[ctype.high])}), yet the wild {face} completes "
                     f"one: in the main part of a play of two or more cards a wild stands for "
                     f"the card the play needs.")
    alone = wild.read(book.table(ruleset.id), cards.RANKS[principal], play.wild)
    if alone is not None:
        text[-1] += (f" Played alone, the same {face} reads {code_html(alone.reading.short())}: "
                     f"{wild.wild_roles(ruleset, alone)}.")
    others = wild.other_readings(play)
    text[-1] += (" The cards read no other way." if others == "none" else
                 " Its other readings: " + others.replace("<br>", ", ") + ".")
    text.append(wild.console(book.root, [["classify", "-r", ruleset.id, "--wild",
                                          wild.wild_arg(play.wild), play.cards]]))
    return "\n\n".join(text)


def _answer_to(book: Book, ruleset: Ruleset, play: wild.WildPlay, reading: Reading
               ) -> wild.WildPlay | None:
    """The highest play of natural cards of ``reading``'s type and length that ``reading``
    does not beat (for showing that a named reading decides what a play beats)."""
    table_ = book.table(ruleset.id)
    keys = book.keys_by_type(ruleset.id).get(reading.type, [])
    best: wild.WildPlay | None = None
    for key in keys:
        found = wild.read(table_, key, play.wild, reading.type)
        if (found is None or found.wilds_held or found.reading.length != reading.length
                or reading.beats(found.reading) or len(found.readings) > 1):
            continue
        if best is None or found.reading.rank_index > best.reading.rank_index:
            best = found
    return best


def two_readings_md(book: Book, ruleset: Ruleset) -> str:
    """One card set that reads several ways with wild cards, and how its player names the
    reading meant (:func:`ddz_rules.docs.wild.two_readings`)."""
    play = wild.two_readings(book, ruleset)
    if play is None:
        return ""
    table_ = book.table(ruleset.id)
    count = len(play.readings)
    ways = "\n".join(f"- {code_html(r.short())}, {article(type_name(r.type, ruleset).lower())}: "
                     f"{wild.wild_roles(ruleset, wild._as(play, r))}" for r in play.readings)
    names = [f"`{play.cards}@{r.short()}`" for r in play.readings]
    parts = ["### One card set, two readings" if count == 2 else
             f"### One card set, {plural(count, 'reading', spell=True)}",
             f"With the {wild.wild_label(play.wild)}, {card_faces(play.cards)} reads "
             f"{plural(count, 'way', spell=True)}, because its wild cards may be more than one "
             f"thing:\n\n{ways}",
             f"The cards alone cannot say which is meant, so the player names the reading, "
             f"written after the cards as `CARDS@type/length/rank` "
             f"({term('declared reading', 'declared-reading')}): "
             f"{join_words(names, 'or')}."]
    short = [f"`{play.cards}@{r.type}`" for r in play.readings
             if sum(1 for o in play.readings if o.type == r.type) == 1
             and table_.play(f"{play.cards}@{r.type}", play.wild).reading.short() == r.short()]
    if short:
        parts[-1] += (f" A shorter name is enough where it fits one reading only: "
                      f"{join_words(short, 'or')}.")
    others = [r for r in play.readings if r.short() != play.reading.short()]
    previous = _answer_to(book, ruleset, play, others[0]) if others else None
    if previous is not None and play.reading.beats(previous.reading):
        parts.append(f"The play is then answered and compared as the reading named. Named "
                     f"{code_html(play.reading.short())}, {card_faces(play.cards)} beats "
                     f"{card_faces(previous.cards)} ({code_html(previous.reading.short())}); "
                     f"named {code_html(others[0].short())}, it does not.")
    parts.append(f"A hand record writes every play holding a wild card with its reading, as "
                 f"`{play.notation()}`, so that a replay reads it as it was played.")
    arg = wild.wild_arg(play.wild)
    parts.append(wild.console(book.root, [
        ["classify", "-r", ruleset.id, "--wild", arg, play.cards],
        ["classify", "-r", ruleset.id, "--wild", arg, f"{play.cards}@{play.reading.short()}"]]))
    return "\n\n".join(parts)


def soft_hard_md(book: Book, ruleset: Ruleset, stated: tuple[int, ...]) -> str:
    """The first kind of play made with wild cards against the kind of natural cards just
    above it (a soft bomb against a hard bomb): which beats which, and why."""
    levels = ruleset.data["classes"]
    pairs = [p for p in wild.class_pairs(book, ruleset, stated)
             if wild.needs_wilds(ruleset, p.lower) and not wild.needs_wilds(ruleset, p.higher)
             and levels[p.lower]["level"] > 0]
    if not pairs:
        return ""
    pair = pairs[0]
    low, high = pair.low_play, pair.high_play
    if not high.reading.beats(low.reading) or low.reading.beats(high.reading):
        raise RuntimeError(f"{ruleset.id}: {high.cards} against {low.cards} is not decided "
                           f"by class")
    low_noun = class_noun(pair.lower, ruleset=ruleset)
    high_noun = class_noun(pair.higher, ruleset=ruleset)
    low_many = class_noun(pair.lower, True, ruleset)
    high_many = class_noun(pair.higher, True, ruleset)
    low_level, high_level = levels[pair.lower]["level"], levels[pair.higher]["level"]
    arg = wild.wild_arg(stated)
    text = [f"### {article(low_noun).capitalize()} against {article(high_noun)}",
            f"Every kind of play is a {term('class', 'class')} with a level "
            f"(`classes.NAME.level`): {low_many} are level {low_level}, {high_many} level "
            f"{high_level}. A play of a higher level beats any play of a lower one, whatever "
            f"the ranks; ranks count only between two plays of one class. So with the "
            f"{wild.wild_label(stated)}, the lowest {high_noun}, {card_faces(high.cards)} "
            f"({code_html(high.reading.short())}), beats the highest {low_noun}, "
            f"{card_faces(low.cards)} played as {code_html(low.reading.short())} "
            f"({wild.wild_roles(ruleset, low)}), and the {low_noun} never beats it:",
            wild.console(book.root, [
                ["beats", "-r", ruleset.id, "--wild", arg, high.notation(), low.notation()],
                ["beats", "-r", ruleset.id, "--wild", arg, low.notation(), high.notation()]]),
            f"They count differently in the scoring too: {article(low_noun)} is the "
            f"multiplier event {class_event(ruleset, pair.lower)}, {article(high_noun)} "
            f"{class_event(ruleset, pair.higher)} (`scoring.multipliers`). The whole ladder, "
            f"from the weakest kind to the strongest, is under "
            f"[What beats what](#what-beats-what)."]
    return "\n\n".join(text)
