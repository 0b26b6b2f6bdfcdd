"""The Endgames page: positions solved with every hand open while the book is built.

Its positions (``endgames.yaml`` beside this module) are puzzles, each with its answer,
every winning play and a line of play, and positions whose answer changes with one rule,
solved under both rulesets side by side. Every answer is :func:`ddz_rules.solver.solve`'s.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

from ddz_rules.docs.render import card_faces, code_html, number, table
from ddz_rules.docs.templates import render
from ddz_rules.ruleset import load
from ddz_rules.solver import Position, Solution, role, solve

#: The positions the page solves.
DATA = Path(__file__).with_name("endgames.yaml")
#: The page, under ``docs/``.
PAGE = "endgames.md"


@cache
def positions() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return found


def position_of(item: dict[str, Any], ruleset_id: str, robs: int = 0) -> Position:
    return Position.from_text(load(ruleset_id), "/".join(item["hands"]), item["to"],
                              item.get("beat"), item.get("by"), robs=robs)


def hands_md(position: Position, item: dict[str, Any]) -> str:
    """Each seat's cards and part, the seat to act and the play to beat, as a list."""
    lines = []
    for seat, text in enumerate(item["hands"]):
        mark = " (to act)" if seat == position.to_act else ""
        lines.append(f"- seat {seat}, {role(position, seat)}{mark}: {card_faces(text)}")
    if item.get("beat"):
        lines.append(f"- to beat: {card_faces(item['beat'])}, played by seat {item['by']}")
    return "\n".join(lines)


def answer(solution: Solution) -> str:
    """The answer in words: who wins, and with what."""
    position = solution.position
    table_, wild = position.table, position.wild
    who = f"seat {position.to_act} ({role(position, position.to_act)})"
    if solution.wins is None:
        return f"unknown within the budget for {who}"
    if solution.wins:
        plays = ", ".join(code_html(table_.notation(p, wild)) if p else "pass"
                          for p in solution.winning)
        return f"{who} wins, with {plays}"
    return f"{who} loses whatever it plays"


def line_md(solution: Solution) -> str:
    table_, wild = solution.position.table, solution.position.wild
    return "; ".join(f"seat {s.seat} {s.text(table_, wild)}" for s in solution.line)


def puzzle_md(item: dict[str, Any]) -> dict[str, str]:
    position = position_of(item, item["ruleset"])
    solution = solve(position)
    return {"name": item["name"], "about": item["about"], "ruleset": item["ruleset"],
            "hands": hands_md(position, item), "answer": answer(solution),
            "line": line_md(solution), "positions": number(solution.positions)}


def contrast_md(item: dict[str, Any]) -> dict[str, str]:
    robs = item.get("robs", [0, 0])
    rows = []
    first = None
    for ruleset_id, rob in zip(item["rulesets"], robs, strict=True):
        position = position_of(item, ruleset_id, rob)
        first = first or position
        solution = solve(position)
        under = f"[{ruleset_id}](rulesets/{ruleset_id}.md)" + (
            f", {rob} rob{'s' if rob != 1 else ''}" if item.get("robs") else "")
        rows.append([under, answer(solution), line_md(solution)])
    assert first is not None
    return {"name": item["name"], "about": item["about"], "rule": item["rule"],
            "hands": hands_md(first, item),
            "table": table(["Under", "With perfect play", "A line"], rows)}


def endgames_page() -> str:
    """``endgames.md`` (``templates/endgames.md.j2``)."""
    data = positions()
    return render("endgames.md.j2", puzzles=[puzzle_md(i) for i in data["puzzles"]],
                  contrasts=[contrast_md(i) for i in data["contrasts"]])
