"""The rules book: Markdown pages generated from the bundled rulesets by the engine itself.

:func:`generate` returns every generated page (path under ``docs/`` -> Markdown). The
MkDocs build adds them through its own hooks (see :mod:`ddz_rules.docs.hooks`); the tests
call it directly and re-check what the pages claim. Nothing generated is committed.
"""

from ddz_rules.docs.pages import generate

__all__ = ["generate"]
