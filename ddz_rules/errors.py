"""Precise error types, all in one place. Every user-facing error is one line naming what is
at fault, in the library's own words: an argument of a library call is named as the call
names it (``hands``), and the command line shows the option it came from (``--hands``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class DdzError(Exception):
    """Base of every error this toolkit raises on bad input."""


class CardError(DdzError, ValueError):
    """Card text that is not cards, or cards the ruleset's deck does not have."""


class RulesetError(DdzError, ValueError):
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


class IllegalPlayError(DdzError, ValueError):
    """A card set that is not a legal play under the ruleset; ``key`` is the card set
    (packed), where known."""

    def __init__(self, message: str, key: int | None = None) -> None:
        super().__init__(message)
        self.key = key


class IllegalActionError(DdzError, ValueError):
    """An action that the rules do not allow at this point of a hand."""


class RecordError(DdzError, ValueError):
    """A record that cannot be replayed at all: bad JSON, a wrong field, a deal that does not
    add up. Names the file and the field at fault."""


class EnvError(DdzError, ValueError):
    """An environment cannot be built for a ruleset, or an action it was given is not one."""


class UsageError(DdzError, ValueError):
    """A call made wrongly: an unknown ruleset id, a value out of range, a file that is not
    what was asked for."""


@dataclass(frozen=True)
class Named:
    """An argument of a library call named in an error message (:class:`ArgumentError`):
    ``name`` is the call's own name for it."""

    name: str


class ArgumentError(UsageError):
    """A value given to a library call is refused. The message is text and :class:`Named`
    arguments: in the library's words each is its own name, and :meth:`words` lets a front
    door (the command line) name it as its user gave it.

    >>> error = ArgumentError(Named("hands"), " must be at least 1, got 0")
    >>> str(error)
    'hands must be at least 1, got 0'
    >>> error.words(lambda name: "--" + name)
    '--hands must be at least 1, got 0'
    """

    def __init__(self, *parts: str | Named) -> None:
        self.parts = parts
        super().__init__(self.words(lambda name: name))

    def words(self, name_of: Callable[[str], str]) -> str:
        """The message with each argument named by ``name_of``."""
        return "".join(p if isinstance(p, str) else name_of(p.name) for p in self.parts)


class ExecutorFault(DdzError):
    """Hands could not be played: a worker died, or the cluster cannot be used."""


class RunFailed(DdzError):
    """A run stopped by a fault outside the rules (a dead worker, a failed write)."""
