"""The formats page: other projects' files and bots, each field mapped to ours, with examples
made while the book is built (a DouZero deal read, a replay exported, a Botzone request
answered) and the legality questions their users ask, answered under their presets."""

from __future__ import annotations

import json
from pathlib import Path

from ddz_rules import cards
from ddz_rules.bots.botzone import respond
from ddz_rules.dealsets import DOUZERO_FIELDS, douzero_deals, jsonl_text, read_deals
from ddz_rules.docs.render import code_html, table
from ddz_rules.docs.templates import render
from ddz_rules.records import read_record
from ddz_rules.ruleset import load
from ddz_rules.showdown import to_showdown
from ddz_rules.table import compile_table

#: The page, under ``docs/``.
PAGE = "using/formats.md"
#: The presets whose legality the questions are asked under, and the projects they follow.
PRESETS = (("rlcard", "RLCard"), ("douzero", "DouZero"), ("openspiel", "OpenSpiel"),
           ("botzone", "Botzone"))
#: The questions people ask of those projects' rules, each as a card set.
QUESTIONS = (
    ("333444555666", "Four trios, or three trios carrying the fourth as kickers?"),
    ("444455", "May four of a kind carry a pair as its two single kickers?"),
    ("4444BR", "May the two jokers be the kickers of a four?"),
    ("333444BR", "May an airplane carry both jokers?"),
    ("44445555", "May a four carry another four as two pair kickers?"),
    ("33334444", "Is a chain of two fours a play?"),
    ("JQKA2", "May a straight run up to the 2?"),
    ("444555666888", "May an airplane carry a trio as three single kickers?"),
)
DEALS = Path("tests/fixtures/dealsets/douzero-eval.pkl")
RECORD = Path("tests/fixtures/records/s3-bid-3-two-bombs.json")
BOTZONE = Path("tests/fixtures/botzone/ftl2-landlord-leads.json")


def answer(ruleset_id: str, text: str) -> str:
    """What ``ddz classify -r RULESET CARDS`` answers, shortly: the readings, or no."""
    table_ = compile_table(load(ruleset_id))
    key = cards.pack_ranks(cards.parse(text))
    readings = table_.readings(key)
    if not readings:
        return "no"
    return ", ".join(code_html(r.short()) for r in readings)


def questions_md() -> str:
    rows = [[f"{question} {code_html(text)}", *(answer(r, text) for r, _ in PRESETS)]
            for text, question in QUESTIONS]
    return table(["Question", *(f"[{name}](../rulesets/{r}.md)" for r, name in PRESETS)], rows)


def formats_page(root: Path) -> str:
    """``using/formats.md`` (``templates/formats.md.j2``)."""
    classic = load("classic")
    dealset = read_deals(str(root / DEALS), classic)
    first = dealset.deals[0]
    douzero = douzero_deals(classic, dealset.deals[:1])[0]
    record = read_record(str(root / RECORD))
    exported = to_showdown(record, str(root / RECORD))
    shown = {**exported, "moveHistory": exported["moveHistory"][:4]}
    botzone_input = (root / BOTZONE).read_text(encoding="utf-8").strip()
    return render(
        "formats.md.j2",
        douzero_fields=", ".join(f"`{f}`" for f in DOUZERO_FIELDS),
        douzero_first=json.dumps(douzero),
        jsonl_first=jsonl_text(classic, [first]).strip(),
        deal_count=len(dealset.deals),
        showdown=json.dumps(shown, indent=1),
        moves=len(exported["moveHistory"]),
        botzone_input=botzone_input,
        botzone_answer=json.dumps({"response": respond(botzone_input)}),
        questions=questions_md(),
    )
