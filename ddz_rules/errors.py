"""Precise error types, all in one place. Every user-facing error is one line naming what is
at fault, in the library's own words: an argument of a library call is named as the call
names it (``hands``), and a front door (the command line) names the option it came from
(``--hands``) with :meth:`DdzError.words`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Named:
    """An argument of a library call named in an error message: ``name`` is the call's own
    name for it, which a front door may put in its own words (:meth:`DdzError.words`)."""

    name: str


#: A message as text alone, or as text and :class:`Named` arguments.
Words = str | tuple["str | Named", ...]


def quoted(text: str, most: int = 60) -> str:
    """``text`` as an error message quotes it (``repr``), cut in the middle past ``most``
    characters, so that a huge input does not make a huge line.

    >>> print(quoted("3" * 100, 20))
    '3333333333333...3333' (100 characters)
    """
    if len(text) <= most:
        return repr(text)
    return f"{text[:most * 2 // 3]!r}...{text[-(most // 5):]!r} ({len(text):,} characters)" \
        .replace("'...'", "...")


def parts_of(words: Words) -> tuple[str | Named, ...]:
    """The parts of a message (:data:`Words`), to build an error from."""
    return (words,) if isinstance(words, str) else words


def _own(name: str) -> str:
    return name


class DdzError(Exception):
    """Base of every error this toolkit raises on bad input. Its message is text and
    :class:`Named` arguments; ``str()`` names each argument as the library does.

    >>> error = UsageError(Named("hands"), " must be at least 1, got 0")
    >>> str(error)
    'hands must be at least 1, got 0'
    >>> error.words(lambda name: "--" + name)
    '--hands must be at least 1, got 0'
    """

    def __init__(self, *parts: object) -> None:
        super().__init__(*parts)  # kept as args, so that the error pickles whole

    def words(self, name_of: Callable[[str], str] = _own) -> str:
        """The message with each :class:`Named` argument named by ``name_of``."""
        return "".join(name_of(p.name) if isinstance(p, Named) else str(p) for p in self.args)

    def __str__(self) -> str:
        return self.words()


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


class ExecutorFault(DdzError):
    """Hands could not be played: a worker died, or the cluster cannot be used."""


class RunFailed(DdzError):
    """A run stopped by a fault outside the rules (a dead worker, a failed write)."""


class AuctionTooLarge(ValueError):
    """An auction with more states than the compiled runner flattens
    (:data:`ddz_rules.runner.MAX_AUCTION_STATES`): its hands are played in Python."""


class OutOfBudget(Exception):
    """A search (:mod:`ddz_rules.solver`) ran past its seconds or its memory: its answer is
    unknown, which is no fault of the input."""


class RoundSpent(Exception):
    """A search of one of a question's moves ran past its round's budget of positions
    (:data:`ddz_rules.solver.ROUNDS`): the move is searched again in a later round. Caught
    inside the solver; it never reaches a user."""


class OutputFailed(OSError):
    """Standard output refused what was written (a full disk behind a redirection): the
    user's to know in one line, not a bug (:func:`ddz_rules.cli.main`)."""
