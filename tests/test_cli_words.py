"""The command line's words for bad input stay what they were when the library learnt to
speak in its own words (:class:`ddz_rules.errors.Named`): every case of
``tests/fixtures/cli/bad-inputs.yaml`` gives the same exit code and the same output, byte
for byte, as when the list was written.

``python -m tests.test_cli_words`` writes each case's ``expected`` anew (only to add a case:
the point of the file is that the answers do not change).
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from ddz_rules.cli import main

from .conftest import FIXTURES

CASES_FILE = FIXTURES / "cli" / "bad-inputs.yaml"
HAND_RECORD = FIXTURES / "records" / "s1-bid-2-one-bomb.json"


def load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    return cases


def lay_out(folder: Path) -> None:
    """The files every case may name."""
    (folder / "afile").write_text("x\n", encoding="utf-8")
    (folder / "adir").mkdir()
    (folder / "exists.jsonl").write_text("{}\n", encoding="utf-8")
    (folder / "junk.jsonl").write_text("not json\n", encoding="utf-8")
    shutil.copy(HAND_RECORD, folder / "hand.json")


def run_case(argv: list[str], folder: Path) -> dict[str, Any]:
    """Run ``ddz argv`` in ``folder``: its exit code and both streams."""
    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(here)
    return {"exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: c["argv"])
def test_bad_input_gets_the_same_answer_as_before(case: dict[str, Any], tmp_path: Path) -> None:
    lay_out(tmp_path)
    got = run_case(shlex.split(case["argv"]), tmp_path)
    assert got == case["expected"]
    assert got["exit"] == 2 and got["stderr"].count("\n") == 1 and not got["stdout"]


def write_expected() -> None:  # pragma: no cover - run by hand to add a case
    import tempfile
    header = CASES_FILE.read_text(encoding="utf-8").split("cases:")[0]
    cases = []
    for line in sys.stdin.read().splitlines():
        if not line.strip():
            continue
        with tempfile.TemporaryDirectory() as folder:
            lay_out(Path(folder))
            cases.append({"argv": line, "expected": run_case(shlex.split(line), Path(folder))})
    text = yaml.safe_dump({"cases": cases}, allow_unicode=True, sort_keys=False, width=200)
    CASES_FILE.write_text(header + text, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    write_expected()
