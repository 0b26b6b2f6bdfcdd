"""Precise error types. Every user-facing error is one line naming what is at fault."""

from __future__ import annotations


class DdzError(Exception):
    """Base of every error this toolkit raises on bad input."""


class CardError(DdzError, ValueError):
    """Card text that is not cards, or cards the ruleset's deck does not have."""


class RulesetError(DdzError):
    """A ruleset file that cannot be loaded: names the file, line and key at fault."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 key: str | None = None) -> None:
        where = ""
        if path is not None:
            where = path if line is None else f"{path}:{line}"
        if key:
            where = f"{where}: key '{key}'" if where else f"key '{key}'"
        super().__init__(f"{where}: {message}" if where else message)
        self.path = path
        self.line = line
        self.key = key


class IllegalPlayError(DdzError):
    """A card set that is not a legal play under the ruleset."""


class UsageError(DdzError):
    """A command used wrongly (an unknown ruleset id, a bad option)."""
