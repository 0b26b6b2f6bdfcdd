"""A Markdown extension for the API pages: doctest blocks in docstrings become code blocks.

The package's docstrings hold ``>>>`` examples (they run as doctests). Plain Markdown would read
``>>>`` as nested quotes and ``['a']`` on the next line as a link, so each doctest block (from a
``>>>`` line after a blank line to the next blank line) is fenced as ``pycon`` first. Fenced
blocks are left alone. Enabled in ``mkdocs.yml`` as ``ddz_rules.docs.mdx``.

>>> DoctestFences().run(["Text.", "", ">>> 1 + 1", "2", "", "More."])
['Text.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
"""

from __future__ import annotations

from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor


class DoctestFences(Preprocessor):
    """Fence every doctest block that is not already inside a fence."""

    def __init__(self, md: Markdown | None = None) -> None:
        super().__init__(md)

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        fence: str | None = None
        block: list[str] = []
        indent = ""
        for line in [*lines, ""]:
            stripped = line.lstrip()
            if block:
                if stripped:
                    block.append(line)
                    continue
                out += [f"{indent}```pycon", *block, f"{indent}```"]
                block = []
            if fence is not None:
                if stripped.startswith(fence):
                    fence = None
            elif stripped.startswith(("```", "~~~")):
                fence = stripped[:3]
            elif (stripped.startswith(">>> ") or stripped == ">>>") and (
                    not out or not out[-1].strip()):
                indent = line[:len(line) - len(stripped)]
                block = [line]
                continue
            out.append(line)
        return out[:-1]


class DoctestFencesExtension(Extension):
    """Registers :class:`DoctestFences` before the fenced-code preprocessors."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(DoctestFences(md), "ddz_doctest_fences", 40)


def makeExtension(**kwargs: Any) -> DoctestFencesExtension:
    """The entry point Markdown looks for."""
    return DoctestFencesExtension(**kwargs)
