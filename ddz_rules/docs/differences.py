"""The differences page: ``ddz diff`` for each variant against its base, and ``classic``
against each peer preset. Each pair shows the plays legal in one ruleset only, by type, the
plays read differently, and examples of each, all from
:func:`ddz_rules.reports.diff_report`."""

from __future__ import annotations

from typing import Any

from ddz_rules.docs.book import Book
from ddz_rules.docs.names import type_name
from ddz_rules.docs.render import card_faces, code_html, heading_id, number, plural, table
from ddz_rules.reports import diff_report
from ddz_rules.table import PlayTable

#: Examples shown per section of a pair.
EXAMPLES = 5


def pair_heading(a: str, b: str) -> str:
    """The heading of a pair (ruleset pages link to it)."""
    return f"{b} against {a}"


def readings_text(table_: PlayTable, cards_text: str) -> str:
    readings = table_.classify(cards_text)
    return "<br>".join(code_html(r.short()) for r in readings)


def wild_note(book: Book, a: str, b: str) -> str:
    """Where the two rulesets differ in their wild cards: that the tables hold the plays of
    natural cards only (empty otherwise)."""
    ra, rb = book.ruleset(a), book.ruleset(b)
    if ra.wild_drawn == rb.wild_drawn:
        return ""
    wild = [r.id for r in (ra, rb) if r.wild_drawn]
    links = " and ".join(f"[{rid}](../rulesets/{rid}.md#wild-cards)" for rid in wild)
    return (f" Both tables hold the plays of natural cards only: with the wild cards of "
            f"{' and '.join(wild)}, more card sets are plays in a hand, and some read several "
            f"ways, which no table lists (see {links}).")


def pair_md(book: Book, a: str, b: str, report: dict[str, Any]) -> str:
    """One pair: counts by type, then examples of each kind of difference."""
    ta, tb = book.table(a), book.table(b)
    only_a, only_b = report["only_a"], report["only_b"]
    differ = report["read_differently"]
    parts = [f"## {pair_heading(a, b)}",
             f"[{a}](../rulesets/{a}.md) has {plural(report['plays'][a], 'play')}, "
             f"[{b}](../rulesets/{b}.md) has {plural(report['plays'][b], 'play')}: "
             f"{number(only_a['count'])} legal in {a} only, {number(only_b['count'])} legal "
             f"in {b} only, and {number(differ['count'])} legal in both but read "
             f"differently.",
             f"```console\n$ ddz diff {a} {b}\n```"]
    wild = wild_note(book, a, b)
    if not (only_a["count"] or only_b["count"] or differ["count"]):
        parts.append(f"The two rulesets have exactly the same plays with the same readings; "
                     f"what {b} changes lies outside the play table (see "
                     f"[its page](../rulesets/{b}.md#what-it-changes-from-{a}))." + wild)
        return "\n\n".join(parts)
    if wild:
        parts.append(wild.strip())
    types = sorted(set(only_a["readings_by_type"]) | set(only_b["readings_by_type"]),
                   key=lambda t: list(book.counts(a)).index(t) if t in book.counts(a) else 99)
    if types:
        rows = [[type_name(t) + f" · {code_html(t)}", number(only_a["readings_by_type"].get(t, 0)),
                 number(only_b["readings_by_type"].get(t, 0))] for t in types]
        parts.append("Plays legal in one ruleset only, by the type they read as there (a play "
                     "that reads several ways counts once for each reading):")
        parts.append(table(["Type", f"only in {a}", f"only in {b}"], rows))
    for section, source, name in ((only_a, ta, a), (only_b, tb, b)):
        if section["examples"]:
            rows = [[card_faces(c), readings_text(source, c)] for c in section["examples"]]
            parts.append(f"Legal in {name} only, the first {len(rows)} in table order:")
            parts.append(table(["Cards", f"Readings in {name}"], rows))
    if differ["examples"]:
        rows = [[card_faces(item["cards"]),
                 "<br>".join(code_html(s) for s in item[a]),
                 "<br>".join(code_html(s) for s in item[b])] for item in differ["examples"]]
        parts.append(f"Read differently, the first {len(rows)} in table order:")
        parts.append(table(["Cards", f"Readings in {a}", f"Readings in {b}"], rows))
    return "\n\n".join(parts)


def differences_page(book: Book) -> str:
    """``compare/differences.md``."""
    pairs = book.pairs()
    reports = {(a, b): diff_report(book.table(a), book.table(b), EXAMPLES) for a, b in pairs}
    parts = ["# Differences",
             "What changes in the play table between two rulesets: the plays legal in one "
             "and not the other, and the plays legal in both but read differently (another "
             "type, chain length or body rank). Each pair is the output of `ddz diff`, "
             "computed from the two compiled tables; every example below is a real play of the "
             "ruleset named. Each variant is compared with its base"
             + (f", and classic with each peer preset ({', '.join(book.presets)})"
                if book.presets else "") + "."]
    rows = []
    for (a, b), report in reports.items():
        rows.append([f"[{b}](#{heading_id(pair_heading(a, b))})", a,
                     number(report["only_b"]["count"]), number(report["only_a"]["count"]),
                     number(report["read_differently"]["count"])])
    parts.append(table(["Ruleset", "Against", "Legal in the ruleset only",
                        "Legal in the other only", "Read differently"], rows))
    parts += [pair_md(book, a, b, report) for (a, b), report in reports.items()]
    return "\n\n".join(parts) + "\n"
