"""Checking how ``ddz replay`` refuses a broken record, against a case of a fixture file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ddz_rules.cli import main


def assert_refused(path: Path, case: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    """``ddz replay PATH --json`` exits with the case's code: 2 with one line on stderr, or 1
    with ``valid: false`` at the case's action index; either way the message holds each of
    the case's ``contains`` and no traceback reaches the user."""
    code = main(["replay", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == case["exit"]
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("ddz: error: ")
        message = err
    else:
        payload = json.loads(out)
        assert payload["valid"] is False
        assert payload["index"] == case["index"] and payload["action"] == case["action"]
        message = payload["reason"]
    assert "Traceback" not in err
    for words in case["contains"]:
        assert words in message, message
