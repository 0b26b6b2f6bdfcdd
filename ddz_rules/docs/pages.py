"""Every generated page of the rules book, by its path under ``docs/``."""

from __future__ import annotations

from pathlib import Path

from ddz_rules.docs.book import Book
from ddz_rules.docs.comparisons import charts, comparisons_page
from ddz_rules.docs.differences import differences_page
from ddz_rules.docs.endgames import PAGE as ENDGAMES_PAGE
from ddz_rules.docs.endgames import endgames_page
from ddz_rules.docs.environments import PAGE as ENVIRONMENTS_PAGE
from ddz_rules.docs.environments import environments_page
from ddz_rules.docs.formats import PAGE as FORMATS_PAGE
from ddz_rules.docs.formats import formats_page
from ddz_rules.docs.invariants import invariants_page
from ddz_rules.docs.matrix import matrix_page, side_by_side_page
from ddz_rules.docs.open_hand import PAGE as OPEN_HAND_PAGE
from ddz_rules.docs.open_hand import open_hand_page
from ddz_rules.docs.reference import cli_page, records_page, ruleset_format_page
from ddz_rules.docs.rulesets import overview_page, page_path, ruleset_page
from ddz_rules.docs.sensitivity import sensitivity_page


def generate(root: Path | None = None) -> dict[str, str]:
    """Every generated page: ``{path under docs/: Markdown}``.

    ``root`` is the checkout (for the hand records in ``tests/fixtures``); by default the one
    this package sits in.
    """
    book = Book(root)
    pages = {"rulesets/index.md": overview_page(book)}
    for ruleset_id in book.ids:
        pages[page_path(ruleset_id)] = ruleset_page(book, ruleset_id)
    pages["compare/matrix.md"] = matrix_page(book)
    pages["compare/side-by-side.md"] = side_by_side_page(book)
    pages["compare/differences.md"] = differences_page(book)
    pages["invariants.md"] = invariants_page(book)
    pages["using/cli.md"] = cli_page(book.root)
    pages["using/records.md"] = records_page(book)
    pages["using/ruleset-format.md"] = ruleset_format_page(book)
    pages["compare/comparisons.md"] = comparisons_page()
    pages["compare/sensitivity.md"] = sensitivity_page(book.root)
    pages[OPEN_HAND_PAGE] = open_hand_page(book.root)
    pages[ENVIRONMENTS_PAGE] = environments_page(book)
    pages[ENDGAMES_PAGE] = endgames_page()
    pages[FORMATS_PAGE] = formats_page(book.root)
    return pages


def assets() -> dict[str, bytes]:
    """Generated binary files (the comparison charts): ``{path under docs/: bytes}``."""
    return {f"compare/charts/{name}": data for name, data in charts().items()}
