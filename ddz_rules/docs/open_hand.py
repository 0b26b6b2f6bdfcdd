"""The Open-hand values page: who wins whole deals with every hand open and perfect play.

Shows the last run of ``benchmarks/open_hand_table.py`` (kept in ``benchmarks/open_hand.json``;
solving a thousand deals takes hours, too long for a site build): for each ruleset, the deals
answered within the run's budget of positions, the landlord's open-hand win rate over them
with its 95% interval, bounds over every deal, and how often the kitty decides a deal.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ddz_rules.docs.render import code, number, table
from ddz_rules.ruleset import load

RESULTS = Path("benchmarks") / "open_hand.json"
#: The page, under ``docs/``.
PAGE = "compare/open-hand.md"


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(estimate: list[float] | None) -> str:
    if estimate is None:
        return "none answered"
    mean, low, high = estimate
    return f"{_percent(mean)} [{100 * low:.1f}, {100 * high:.1f}]"


def _row(row: dict[str, Any]) -> list[str]:
    played, answered = row["deals_played"], row["answered"]
    low, high = row["bounds"]
    if not load(row["ruleset"]).kitty:
        kitty = "no kitty"
    elif row["kitty_rate"] is None:
        kitty = "none answered both ways"
    else:
        kitty = (f"{_interval(row['kitty_rate'])} ({row['kitty_decides']} of "
                 f"{number(row['kitty_answered'])})")
    bots = row["bots_landlord_win"]
    return [code(row["ruleset"]), number(played), number(row["whole_positions"]),
            f"{number(answered)} ({_percent(answered / played)})",
            _interval(row["win_rate"]), f"{_percent(low)} to {_percent(high)}", kitty,
            f"{_percent(bots['mean'])} [{100 * bots['low']:.1f}, {100 * bots['high']:.1f}]"]


def open_hand_page(root: Path) -> str:
    """The page, from the results file under ``root`` (the checkout)."""
    run = json.loads((root / RESULTS).read_text(encoding="utf-8"))
    rows = [_row(row) for row in run["rows"]]
    # one command for the rows of as many deals run together (a row run again on its own
    # carries its own date and checkout)
    sittings: dict[tuple[int, str, str], list[str]] = {}
    for row in run["rows"]:
        sitting = (row["hands"], row.get("date", run["date"]), row.get("commit", run["commit"]))
        sittings.setdefault(sitting, []).append(f"{row['ruleset']}:{row['whole_positions']}")
    commands = "; ".join(
        f"`python benchmarks/open_hand_table.py --rulesets {','.join(budgets)} --hands {hands} "
        f"--seed {run['seed']}` on {date} (checkout `{commit}`)"
        for (hands, date, commit), budgets in sittings.items())
    return "\n".join([
        "# Open-hand values",
        "",
        "Who wins a deal when every hand is open and every seat plays perfectly? Bridge "
        "players call this a deal's double-dummy value; here it is the answer of `ddz solve` "
        "to the whole deal, from the landlord's first lead, depending on no bot's skill. The "
        "table gives it for seeded deals, with the landlord the auction chose (every seat "
        "bidding as the `medium` bots do) and the kitty in his hand, beside the share of the "
        "same deals the bots' landlord won in play.",
        "",
        table(["ruleset", "deals", "positions a deal", "answered", "landlord wins, answered",
               "bounds, every deal", "kitty decides", "bots' landlord wins"], rows),
        "",
        "How to read it:",
        "",
        "- **answered**: the deals whose value the search found within its budget of "
        "positions (the same answer on any machine). A deal not answered is never counted "
        "as a win or a loss.",
        "- **landlord wins, answered**: the share of the answered deals the landlord's side "
        "wins with perfect play, with its 95% interval (Wilson). The deals answered soonest "
        "are the one-sided ones, so this rate is over those deals, not over every deal.",
        "- **bounds, every deal**: the landlord's open-hand win rate over every deal lies "
        "between these two: each unanswered deal counted as a loss, then as a win.",
        "- **kitty decides**: among the deals answered both as dealt and with the kitty's "
        "cards out of play (the landlord leading with the cards he was dealt), the share "
        "whose answer the kitty changes, with its interval and the count.",
        "",
        "## Method",
        "",
        "Each row is one run of `ddz compare RULESET --open-hand --whole-positions N` over "
        "the seeded deals that `ddz compare` plays with the same seed: the auction is played "
        "by the bots, then the whole deal is solved with every hand open, as dealt and "
        "without the kitty, each search limited to N positions and 64 MB of table. The "
        "search is exact: an answer is a proof, and the solver's compiled search is checked "
        "move for move against its Python twin in the tests.",
        "",
        "Open-hand play is not the real game: a seat that sees every card makes no guess, "
        "and a side that wins with every hand open may lose when the cards are hidden. The "
        "gap between the two columns is the price of hidden cards and of the bots' play "
        "together. Three-seat deals (a landlord of 20 cards against two peasants of 17) are "
        "mostly beyond the search today: it answers the one-sided ones, which is why the "
        "classic row's rate over the answered deals sits far above its lower bound.",
        "",
        f"Run with {commands}, on {run['machine']}. A run stopped early is resumed by the "
        "same command with more "
        "deals: the deals already solved are kept, and none is solved twice.",
        "",
    ])
