"""The ``mkdocs-gen-files`` script named in ``mkdocs.yml``: writes every generated page.

MkDocs runs this file with :func:`runpy.run_path` (``__name__ == "<run_path>"``); importing it
does nothing.
"""

from __future__ import annotations

from pathlib import Path


def main() -> None:
    """Write the generated pages into the build (never into ``docs/``)."""
    from mkdocs_gen_files.editor import FilesEditor

    from ddz_rules.docs import generate
    from ddz_rules.docs.pages import assets

    editor = FilesEditor.current()
    config_file = editor.config.config_file_path
    root = Path(config_file).resolve().parent if config_file else None
    for path, markdown in generate(root).items():
        with editor.open(path, "w", encoding="utf-8") as handle:
            handle.write(markdown)
    for path, data in assets().items():
        with editor.open(path, "wb") as binary:
            binary.write(data)


if __name__ == "<run_path>":
    main()
