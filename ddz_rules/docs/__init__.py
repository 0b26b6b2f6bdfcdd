"""The rules book: Markdown pages generated from the bundled rulesets by the engine itself.

:func:`generate` returns every generated page (path under ``docs/`` -> Markdown). The
MkDocs build writes them through ``mkdocs-gen-files`` (see :mod:`ddz_rules.docs.gen_pages`);
the tests call it directly and re-check what the pages claim. Nothing generated is committed.
"""

from ddz_rules.docs.pages import generate

__all__ = ["generate"]
