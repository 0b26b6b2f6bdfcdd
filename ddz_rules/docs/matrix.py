"""Every ruleset against every rule point: the variant matrix and the side-by-side page.

Rule points are every ``{value, text}`` leaf of any bundled ruleset, plus each combination type
(enabled or not, with its parameters) and each play class. A cell that differs from the
reference ruleset (``classic``) is marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from ddz_rules import cards
from ddz_rules.docs import wild
from ddz_rules.docs.book import REFERENCE, Book, is_point, lookup, rule_points
from ddz_rules.docs.names import class_label, size_word, type_name
from ddz_rules.docs.render import (
    card_faces,
    key_ref,
    label,
    number,
    plural,
    table,
    tabs,
    term,
    value_text,
    wide,
)
from ddz_rules.docs.rulesets import (
    beats_text,
    class_scoring,
    fixed_cards,
    playable_ranks,
    point_label,
)
from ddz_rules.ruleset import CombinationType, Ruleset, inert_points

#: Headings of the groups of rule points, by top-level key; unknown keys get a label.
GROUPS = {
    "players": "Who plays",
    "deck": "The deck",
    "deal": "The deal",
    "teams": "Sides",
    "auction": "The auction",
    "play": "The play",
    "ending": "How a hand ends",
    "scoring": "Scoring",
    "readings": "Readings",
    "kickers": "Kicker rules",
    "wild": "Wild cards",
}


#: The group of the rows that say which plays beat other types (the play classes).
CLASS_GROUP = "What beats other types"


@dataclass(frozen=True)
class Row:
    """One row of the matrix: a label, the key it stands for, a cell per ruleset."""

    group: str
    label: str
    key: str
    cells: tuple[str, ...]


def point_paths(book: Book) -> list[tuple[str, ...]]:
    """Every rule point path of any bundled ruleset, outside combinations, in first-seen order."""
    seen: dict[tuple[str, ...], None] = {}
    for rid in book.ids:
        data = book.ruleset(rid).data
        for point in rule_points({k: v for k, v in data.items() if k != "combinations"}):
            seen.setdefault(point.path, None)
    return list(seen)


def combination_names(book: Book) -> list[str]:
    seen: dict[str, None] = {}
    for rid in book.ids:
        for name in book.ruleset(rid).data["combinations"]:
            seen.setdefault(name, None)
    return list(seen)


def override_paths(book: Book) -> list[tuple[str, ...]]:
    """Per-type kicker rule points (``combinations.T.kickers.K``) of any ruleset."""
    seen: dict[tuple[str, ...], None] = {}
    for rid in book.ids:
        data = book.ruleset(rid).data
        for point in rule_points({"combinations": data["combinations"]}):
            seen.setdefault(point.path, None)
    return list(seen)


#: What one body rank is, by width.
UNITS = {1: ("single", "singles"), 2: ("pair", "pairs"), 3: ("trio", "trios"),
         4: ("four", "fours")}


def shape_text(ctype: CombinationType) -> str:
    """A compact shape: ``one trio``, ``5 to 12 singles in a row``, ``2+ trios in a row``."""
    one, many = UNITS.get(ctype.width, (f"{ctype.width} cards", f"sets of {ctype.width} cards"))
    lo, hi = ctype.min_length, ctype.max_length
    if hi == 1:
        return f"one {one}" if ctype.width in UNITS else f"{size_word(ctype.width)} of one rank"
    if hi is None:
        return f"{lo}+ {many} in a row"
    if hi == lo:
        return f"exactly {plural(lo, one, many)} in a row"
    return f"{lo} to {hi} {many} in a row"


def deck_cell(ruleset: Ruleset) -> str:
    """The deck counted from ``deck.ranks``, ``deck.copies`` and ``deck.jokers``."""
    jokers = sum(ruleset.copies[r] for r in ruleset.deck_ranks if r in cards.JOKERS)
    suited = ruleset.deck_size - jokers
    return (f"{plural(ruleset.deck_size, 'card')}: {number(suited)} of the ranks and "
            f"{plural(jokers, 'joker')}")


def sides_cell(ruleset: Ruleset) -> str:
    """The sides a hand can have, from ``players``, ``teams.sides`` and ``teams.partner``."""
    if not ruleset.has_landlord:
        return f"no landlord: each of the {ruleset.players} alone"
    text = f"landlord alone against {ruleset.players - 1}"
    if ruleset.partner_rule != "none":
        text += f", or landlord and partner against {ruleset.players - 2}"
    return text


def wild_cell(ruleset: Ruleset) -> str:
    """How many wild ranks a hand has and when each is drawn (``wild.drawn``), with the wild
    cards that makes; ``none`` without wild cards."""
    if not ruleset.wild_drawn:
        return "none"
    return (f"{wild.draws_text(ruleset)} "
            f"({plural(wild.wild_cards_in_play(ruleset), 'wild card')})")


def wilds_cell(ruleset: Ruleset, ctype: CombinationType) -> str:
    """The wild cards a type's main part may hold (``wilds``), in a few words."""
    size = ctype.width * ctype.min_length
    if ctype.wilds == "none":
        return "natural cards only"
    if ctype.wilds == "some":
        return f"1 to {size - 1} wilds" if ctype.max_length == 1 else "some wilds"
    if ctype.wilds == "all":
        return "all wilds, of one rank"
    if not any(r in ruleset.stands_for for r in playable_ranks(ruleset, ctype)):
        return "no wild stands in"
    return "wilds may stand in"


def combination_cell(book: Book, ruleset: Ruleset, name: str) -> str:
    ctype = _enabled(ruleset, name)
    if ctype is None:
        return "not a play"
    lines = []
    if ctype.fixed_set:
        lines.append(card_faces(fixed_cards(ctype)))
    else:
        ranks = playable_ranks(ruleset, ctype)
        lines.append(shape_text(ctype))
        lines.append(f"{card_faces(cards.RANKS[ranks[0]])} to "
                     f"{card_faces(cards.RANKS[ranks[-1]])}")
    if ctype.kicker_unit:
        one, many = UNITS[ctype.kicker_unit]
        lines.append(f"+ {plural(ctype.kickers_per_rank, one, many)} each")
    if ruleset.wild_drawn:
        lines.append(wilds_cell(ruleset, ctype))
    count = plural(book.counts(ruleset.id)[name], "play")
    lines.append(f"{count} of natural cards" if ctype.needs_wilds else count)
    return "<br>".join(lines)


def _enabled(ruleset: Ruleset, name: str) -> CombinationType | None:
    for ctype in ruleset.combinations:
        if ctype.name == name:
            return ctype
    return None


def override_cell(ruleset: Ruleset, path: tuple[str, ...]) -> str:
    name, key = path[1], path[-1]
    ctype = _enabled(ruleset, name)
    if ctype is None:
        return "not a play"
    node = lookup(ruleset.data, path)
    value = getattr(ctype.kicker_rules, key)
    return value_text(value) if is_point(node) else f"{value_text(value)} (as for all types)"


def rows(book: Book) -> list[Row]:
    """Every row of the matrix, grouped."""
    rulesets = [book.ruleset(rid) for rid in book.ids]
    out: list[Row] = []
    for path in point_paths(book):
        cells = []
        for r in rulesets:
            node = lookup(r.data, path)
            unused = ".".join(path) in inert_points(r)
            cells.append(value_text(node["value"], path[-1]) if is_point(node) and not unused
                         else "none (no wild cards)" if path[0] == "wild" and not r.wild_drawn
                         else "not used")
        out.append(Row(GROUPS.get(path[0], label(path[0])), point_label(path), ".".join(path),
                       tuple(cells)))
        if path == ("wild", "drawn"):
            out.append(Row(GROUPS["wild"], "Wild cards in a hand", "wild",
                           tuple(wild_cell(r) for r in rulesets)))
        if path == ("deck", "jokers"):
            out.append(Row(GROUPS["deck"], "Cards in the deck", "deck",
                           tuple(deck_cell(r) for r in rulesets)))
        if path == ("teams", "partner"):
            out.append(Row(GROUPS["teams"], "Who plays against whom",
                           "players, teams.sides, teams.partner",
                           tuple(sides_cell(r) for r in rulesets)))
    classes: dict[str, None] = {}
    for r in rulesets:
        classes.update(dict.fromkeys(r.data["classes"]))
    for name in classes:
        first = next(r for r in rulesets if name in r.data["classes"])
        row_label = class_label(name, first)
        cells = []
        for r in rulesets:
            if name not in r.data["classes"]:
                cells.append("no such kind")
                continue
            own = class_label(name, r)  # bombs of four, where bombs come in several sizes
            cells.append(f"{f'{own}: ' if own != row_label else ''}beats "
                         f"{beats_text(book, r, name, short=True)}<br>"
                         f"{class_scoring(r, name)}")
        out.append(Row(CLASS_GROUP, row_label, f"classes.{name}", tuple(cells)))
    for name in combination_names(book):
        enabled = next((r for r in rulesets if name in r.class_of), None)
        out.append(Row("Combination types", type_name(name, enabled), f"combinations.{name}",
                       tuple(combination_cell(book, r, name) for r in rulesets)))
    for path in override_paths(book):
        out.append(Row("Kicker rules of one type",
                       f"{type_name(path[1])}: {point_label(path).lower()}", ".".join(path),
                       tuple(override_cell(r, path) for r in rulesets)))
    out.append(Row("The play table", "Legal plays", "ddz check",
                   tuple(number(book.check(r.id)["plays"]) for r in rulesets)))
    out.append(Row("The play table", "Plays that read several ways", "ddz check",
                   tuple(number(book.check(r.id)["ambiguous"]) for r in rulesets)))
    return out


def matrix_page(book: Book) -> str:
    """``compare/matrix.md``."""
    ref = book.ids.index(REFERENCE) if REFERENCE in book.ids else 0
    header = ["Rule point"] + [f"[{rid}](../rulesets/{rid}.md)" for rid in book.ids]
    parts = ["---\nhide:\n  - navigation\n  - toc\n---",
             "# The variant matrix",
             f"Every bundled ruleset against every rule point: each rule point (a value with "
             f"its prose) of any ruleset file, among them who plays with whom "
             f"(`teams.sides`, `teams.partner`) and the deck's copies and jokers; what each "
             f"stronger kind of play (bombs of every size, the rocket, the joker bomb, the three "
             f"aces) beats, and the multiplier event it counts as (`classes.NAME.event`, else "
             f"the class's own name) or, where there is no landlord, what each other player "
             f"pays at once for it (`scoring.bomb_payments`); the wild "
             f"cards ({term('laizi', 'wild-card')}): how many wild ranks a hand has and when "
             f"each is drawn, which ranks may be wild and what a wild may stand for (`wild`), "
             f"none where a ruleset has no wild cards; each "
             f"combination "
             f"type with its shape (one rank, or a run of consecutive ranks), the ranks its main "
             f"part may use (its {term('body', 'body')}), the extra cards it carries for each "
             f"rank of the main part ({term('kickers', 'kicker')}), in a ruleset with wild "
             f"cards which wilds its main part may hold (`wilds`), and its count of plays (of "
             f"natural cards: a type made only with wild cards has none in the table); and "
             f"each kicker rule a single type sets for itself. Each row leads with the rule in "
             f"words; the ruleset file's key follows in small type. A cell that differs from "
             f"{book.ids[ref]} is <span class=\"changed\">marked</span>. The prose of each "
             f"point is on the ruleset's own page; the points whose prose differs between "
             f"rulesets are [side by side](side-by-side.md).",
             "Cards: " + card_faces("3") + " to " + card_faces("2") + " are the suited ranks, "
             + card_faces("B") + " the small joker, " + card_faces("R") + " the big joker."]
    groups: dict[str, list[Row]] = {}
    for row in rows(book):
        groups.setdefault(row.group, []).append(row)
    for group, members in groups.items():
        body = []
        for row in members:
            first = f"{row.label}<br>{key_ref(row.key)}"
            cells = [c if i == ref or c == row.cells[ref] else f'<span class="changed">{c}</span>'
                     for i, c in enumerate(row.cells)]
            body.append([first, *cells])
        parts.append(f"## {group}\n\n" + wide(table(header, body), "wide-table matrix"))
    return "\n\n".join(parts) + "\n"


# --------------------------------------------------------------------------- side by side


def _point_text(ruleset: Ruleset, path: tuple[str, ...]) -> tuple[str, str] | None:
    """A rule point's value and prose, or "not used" and why where it has no effect."""
    node = lookup(ruleset.data, path)
    if not is_point(node):
        return None
    unused = inert_points(ruleset).get(".".join(path))
    if unused is not None:
        return "not used", f"Not used under this ruleset: {unused}."
    return value_text(node["value"], path[-1]), str(node["text"])


def side_by_side_page(book: Book) -> str:
    """``compare/side-by-side.md``: each rule point whose prose differs, in content tabs."""
    rulesets = [book.ruleset(rid) for rid in book.ids]
    parts = ["# Side by side",
             "Each rule point whose wording differs between the bundled rulesets, with each "
             "ruleset's value and prose in its own tab. Choosing a ruleset's tab once switches "
             "every section of the page to it. Rule points worded the same everywhere are "
             "listed at the end."]
    same: list[tuple[str, str, str]] = []
    current_group = ""
    for path in point_paths(book):
        texts = [_point_text(r, path) for r in rulesets]
        present = [(r.id, t) for r, t in zip(rulesets, texts, strict=True) if t is not None]
        if len({t for _, t in present}) == 1:
            value, text = present[0][1]
            same.append((point_label(path), ".".join(path), f"{value}: {text}"))
            continue
        group = GROUPS.get(path[0], label(path[0]))
        if group != current_group:
            parts.append(f"## {group}")
            current_group = group
        items = [(rid, f"**{value}**\n\n{text}") for rid, (value, text) in present]
        missing = [r.id for r, t in zip(rulesets, texts, strict=True) if t is None]
        note = (f"\n\nNot a rule point of {', '.join(missing)}." if missing else "")
        parts.append(f"### {point_label(path)} · `{'.'.join(path)}`{note}\n\n" + tabs(items))
    parts.append("## Combination types")
    for name in combination_names(book):
        items = []
        for r in rulesets:
            spec = r.data["combinations"].get(name)
            ctype = _enabled(r, name)
            if spec is None:
                items.append((r.id, "Not declared by this ruleset."))
            elif ctype is None:
                items.append((r.id, f"**Not a play here.** {spec['text']}"))
            else:
                items.append((r.id, f"{combination_cell(book, r, name)}\n\n{ctype.text}"))
        if len({body for _, body in items}) > 1:
            parts.append(f"### {type_name(name)} · `{name}`\n\n" + tabs(items))
    if same:
        parts.append("## The same in every ruleset")
        parts.append(table(["Rule point", "Value and prose"],
                           [[f"{lab}<br>{key_ref(key)}", text]
                            for lab, key, text in same]))
    return "\n\n".join(parts) + "\n"
