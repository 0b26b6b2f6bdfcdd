"""Every ``$ ddz ...`` example in the README prints exactly what the README shows."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from ddz_rules.cli import main

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
EXAMPLES = [
    (command, expected.strip())
    for block in re.findall(r"```console\n(.*?)```", README, re.S)
    for command, _, expected in (part.partition("\n")
                                 for part in re.split(r"^\$ ", block, flags=re.M)[1:])
]


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example_prints_what_the_readme_shows(command: str, expected: str,
                                                     capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).parent.parent)
    argv = shlex.split(command)
    assert argv[0] == "ddz"
    main(argv[1:])
    out, err = capsys.readouterr()
    assert (out + err).strip() == expected


def test_the_readmes_interpreter_examples_print_what_they_show() -> None:
    blocks = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if b.startswith(">>>")]
    assert blocks
    for block in blocks:
        test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=lambda text: None)
        assert runner.failures == 0, block


def test_the_readme_lists_every_bundled_ruleset() -> None:
    from ddz_rules import bundled_ids

    listed = set(re.findall(r"^\| `([a-z0-9-]+)` \| `(?:rules|variants)/", README, re.M))
    assert listed == set(bundled_ids())


def test_the_readme_says_what_ci_runs() -> None:
    """CI runs the README's test command (whose tests build the rules book strictly), the
    suite again without the compiled modules, and the linters; the README says so."""
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    test_command = README.split("```sh\n", 1)[1].splitlines()[1].split("&& ", 1)[1]
    assert test_command == "pytest" and "python3 -m pytest -q\n" in ci
    assert "DDZ_PURE_PYTHON=1 python3 -m pytest" in ci and "ruff check" in ci and "mypy" in ci
    docs_tests = (Path(__file__).parent / "test_docs.py").read_text(encoding="utf-8")
    assert "def test_the_site_builds_strictly" in docs_tests and "strict=True" in docs_tests
    assert "rules book" in README.split("```", 2)[2][:900]
