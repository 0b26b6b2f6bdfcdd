"""MkDocs hooks (``hooks:`` in ``mkdocs.yml``): the rules book's generated pages and nav.

MkDocs itself can add files to a build and set the nav, so the book needs no plugin for that:
:func:`on_files` adds every page :func:`ddz_rules.docs.pages.generate` writes (and the charts)
to the build, never to ``docs/``; :func:`on_config` expands the ``rulesets/`` nav entry into
one page per bundled ruleset, grouped as the overview groups them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

#: The nav entry that stands for the generated ruleset pages.
RULESETS_ENTRY = "rulesets/"


def _root(config: MkDocsConfig) -> Path | None:
    path = config.config_file_path
    return Path(path).resolve().parent if path else None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Replace the ``rulesets/`` nav entry with the rulesets' pages."""
    from ddz_rules.docs.book import Book
    from ddz_rules.docs.rulesets import ruleset_nav

    nav = ruleset_nav(Book(_root(config)))

    def expand(items: Any) -> Any:
        if isinstance(items, list):
            return [expand(i) for i in items]
        if isinstance(items, dict):
            return {k: nav if v == RULESETS_ENTRY else expand(v) for k, v in items.items()}
        return items

    config.nav = expand(config.nav)
    return config


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add every generated page and chart to the build."""
    from ddz_rules.docs.pages import assets, generate

    made: dict[str, str | bytes] = {**generate(_root(config)), **assets()}
    for path, content in made.items():
        if files.get_file_from_path(path) is not None:
            files.remove(files.get_file_from_path(path))  # type: ignore[arg-type]
        files.append(File.generated(config, path, content=content))
    return files
