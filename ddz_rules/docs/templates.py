"""The rules book's pages that are mostly text with values in it, written as Jinja2 templates
(``ddz_rules/docs/templates/*.md.j2``; Jinja2 comes with MkDocs) rather than built in Python.

A template receives values already rendered as Markdown (a table, a code block's text): the
logic stays in Python, the page's words and shape in the template.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2

#: Where the templates are.
FOLDER = Path(__file__).with_name("templates")


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(FOLDER), autoescape=False,
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def render(name: str, **values: Any) -> str:
    """The page of template ``name`` (``records.md.j2``) with ``values``; a value the template
    names and is not given is an error, not an empty string."""
    return _environment().get_template(name).render(**values)
