"""The results file of a comparison run: a header line, then one JSON line per finished hand.

Guarantees, whatever happens to the process:

* every finished hand's line is intact, and none is there twice: lines are appended and
  flushed batch by batch, and a crash can at worst leave a half-written last line, which
  :meth:`ResultsFile.reopen` cuts off in place with one ``truncate`` (the file is never
  rewritten, so it cannot be left empty);
* one writer at a time: the file is locked for the whole run, and a second run on it is
  refused;
* a resume continues only the run the file was started with: the header records the rulesets'
  content digests, the bots and the seed, and every line read back is checked.

The header does not record the number of hands: a resume may ask for more (the missing ones
are played) or fewer (lines beyond are kept, and left out of the summary), and may change
``--workers`` and ``--scheduler``; results depend only on the seed.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import IO, Any

from ddz_rules.errors import Named, UsageError
from ddz_rules.inputs import strict_validator, why

try:  # POSIX advisory locks; elsewhere, O_EXCL creation still stops two new runs on one file
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

Trace = dict[str, Any]
#: No line of a results file is longer: a hand's trace is a few hundred bytes, a match's
#: row (``ddz match``) about 80 bytes a hand, and a match holds at most 1,000 hands.
MAX_LINE = 1 << 20

_count = {"type": "integer", "minimum": 0}
_seat = {"type": ["integer", "null"], "minimum": 0}
#: What every hand line must hold: the fields the measures read, with their types.
TRACE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["ruleset", "index", "players", "first_bidder", "landlord", "winner", "bid",
                 "robs", "grabs", "base", "multiplier", "events", "scores", "decisions",
                 "tricks", "lead_changes", "decisive_at", "redeals", "deal_seed"],
    "properties": {
        "ruleset": {"type": "string"}, "index": _count,
        "players": {"type": "integer", "minimum": 2}, "first_bidder": _count,
        "landlord": _seat, "winner": {"enum": ["landlord", "peasants", "first_out", None]},
        "partner": _seat, "partner_call": {"type": ["string", "null"], "maxLength": 8},
        "wild": {"type": ["string", "null"], "maxLength": 8},
        "wild_plays": {"type": ["integer", "null"], "minimum": 0},
        "bid": {"type": ["integer", "null"]}, "robs": _count, "grabs": _count,
        "base": {"type": "integer"}, "multiplier": {"type": "integer"},
        "events": {"type": "array", "items": {"type": "string"}},
        "scores": {"type": "array", "items": {"type": "integer"}},
        "decisions": _count, "tricks": _count, "lead_changes": _count,
        "decisive_at": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
        "redeals": _count, "deal_seed": {"type": ["integer", "null"]},
        # With no landlord (``winner`` "first_out"): the first player out, the cards each seat
        # held at the end, the seats shut out, the bombs played, and (where
        # ``scoring.liability`` applies) the seat that paid for all, if one did.
        "first_out": _count, "cards_left": {"type": "array", "items": _count},
        "shut_out": {"type": "array", "items": _count}, "bombs_played": _count,
        "liable": _seat,
        # Whether the landlord's side wins with perfect play, every card open, from the first
        # position holding runner.OPEN_CARDS cards or fewer (null: never reached, or unknown);
        # the whole deal as the play begins, and the same with the kitty out of play.
        "open_value": {"enum": [0, 1, None]}, "open_whole": {"enum": [0, 1, None]},
        "open_whole_bare": {"enum": [0, 1, None]},
    },
}


@dataclass(frozen=True)
class RowKind:
    """What a results file holds: the format its header names, and the schema of its rows."""

    format: str
    schema: dict[str, Any]

    @property
    def command(self) -> str:
        """The command whose results file this is, from its format's name.

        >>> TRACES.command
        'ddz compare'
        """
        return "ddz " + self.format.split("-")[1]

    @cached_property
    def validator(self) -> Any:
        return strict_validator(self.schema)


#: One line per hand of a comparison.
TRACES = RowKind("ddz-compare-results/2", TRACE_SCHEMA)

#: A check of one row read back against the run being resumed (its seats, its ruleset's
#: rules): what is wrong, in a phrase naming the field and what the run expects, or None.
#: The schema says a row is well formed; only the run can say it is one of its own.
RowCheck = Callable[[Trace], str | None]


class ResultsFile:
    """An open, locked results file that hand lines are appended to."""

    def __init__(self, path: Path, handle: IO[bytes], done: dict[tuple[str, int], Trace]
                 ) -> None:
        self.path = path
        self._handle = handle
        self.done = done
        self.rows = len(done)

    # ------------------------------------------------------------------ opening

    @classmethod
    def create(cls, path: Path, identity: dict[str, Any], kind: RowKind = TRACES
               ) -> ResultsFile:
        """Start a new results file; refuse one that exists (nothing is overwritten)."""
        _check_parent(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        except FileExistsError:
            raise UsageError(Named("out"), f" {path} already exists; pass ", Named("resume"),
                             " to continue that run, or choose another file (nothing was "
                             "overwritten)") from None
        except OSError as exc:
            raise UsageError(Named("out"), f" {path}: cannot create it: {exc.strerror}") from None
        handle = os.fdopen(fd, "ab")
        _lock(handle, path)
        header = json.dumps({"format": kind.format, "run": identity}, sort_keys=True)
        try:
            handle.write(header.encode("utf-8") + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        except OSError as exc:
            handle.close()
            path.unlink(missing_ok=True)
            raise UsageError(Named("out"), f" {path}: cannot write it: {exc.strerror}; nothing "
                             "was kept") from None
        return cls(path, handle, {})

    @classmethod
    def reopen(cls, path: Path, identity: dict[str, Any], kind: RowKind = TRACES,
               check: RowCheck | None = None) -> ResultsFile:
        """Open the file of the run being resumed, check every line, and cut a torn last line.

        Every row is checked against its schema, the run's rulesets and, where given,
        ``check`` (the run's own rules for a row). Nothing is changed unless every complete
        line checks out; the only change ever made is cutting off a half-written last line.
        """
        try:
            fd = os.open(path, os.O_RDWR | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            raise UsageError(Named("resume"), f": {path} does not exist") from None
        except OSError as exc:
            raise UsageError(Named("resume"), f": {path}: cannot open it: {why(exc)}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise UsageError(Named("resume"), f": {path} is not a regular file")
        handle = os.fdopen(fd, "r+b")
        try:
            _lock(handle, path)
            done, complete = _read_back(handle, path, identity, kind, check)
            if complete != os.fstat(fd).st_size:
                handle.truncate(complete)  # drop the half-written last line, in place
            handle.seek(0, os.SEEK_END)
        except BaseException:
            handle.close()
            raise
        return cls(path, handle, done)

    # ------------------------------------------------------------------ writing

    def append(self, traces: list[Trace]) -> None:
        """Append finished hands, straight to the file: once this returns, they survive a
        crash. A write that fails (a full disk) is cut off again, so that no half-written
        line stays behind the ones kept."""
        data = b"".join(json.dumps(t, separators=(",", ":")).encode("utf-8") + b"\n"
                        for t in traces)
        fd = self._handle.fileno()
        end = os.lseek(fd, 0, os.SEEK_END)
        try:
            rest = memoryview(data)
            while rest:
                rest = rest[os.write(fd, rest):]
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)
            raise UsageError(f"writing {self.path} failed: {exc.strerror or exc}") from None
        self.rows += len(traces)

    def close(self) -> None:
        with contextlib.suppress(OSError):  # what was flushed before is what is kept
            self._handle.close()


def _check_parent(path: Path) -> None:
    """A results file needs a folder to go in: create it, or say why not."""
    if path.is_dir():
        raise UsageError(Named("out"), f" {path} is a directory; name a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(Named("out"),
                         f" {path}: cannot create its folder: {exc.strerror}") from None


def _lock(handle: IO[bytes], path: Path) -> None:
    if fcntl is None:  # pragma: no cover - not on POSIX
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise UsageError(f"{path} is being written by another run; wait for it to finish "
                         "(nothing was changed)") from None


def _read_back(handle: IO[bytes], path: Path, identity: dict[str, Any], kind: RowKind,
               check: RowCheck | None = None) -> tuple[dict[tuple[str, int], Trace], int]:
    """Every hand of a results file, checked line by line, and where its last full line ends."""
    handle.seek(0)
    done: dict[tuple[str, int], Trace] = {}
    offset = 0
    number = 0
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            break
        number += 1
        if not line.endswith(b"\n"):
            if len(line) > MAX_LINE:
                raise UsageError(Named("resume"), f": {path}:{number}: a line longer than "
                                 f"{MAX_LINE} bytes; this is not a {kind.command} "
                                 "results file")
            break  # the half-written last line of a crash
        item = _parse(line, path, number)
        if number == 1:
            _check_header(item, path, identity, kind)
        else:
            key = _check_row(item, path, number, identity, kind, check)
            if key in done:
                raise UsageError(Named("resume"), f": {path}:{number}: hand {key[1]} of "
                                 f"{key[0]} is "
                                 "already in the file; it is damaged (nothing was changed)")
            done[key] = item
        offset += len(line)
    if number == 0 or offset == 0:
        raise UsageError(Named("resume"), f": {path} has no header line; it is not a "
                         f"{kind.command} results file")
    return done, offset


def _parse(line: bytes, path: Path, number: int) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(Named("resume"), f": {path}:{number}: not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise UsageError(Named("resume"), f": {path}:{number}: not a JSON line") from None


def _check_header(item: Any, path: Path, identity: dict[str, Any], kind: RowKind) -> None:
    if not (isinstance(item, dict) and item.get("format") == kind.format
            and isinstance(item.get("run"), dict)):
        raise UsageError(Named("resume"), f": {path}:1: not the header of a results file of this "
                         f"command (format {kind.format}); nothing was changed")
    run = item["run"]
    for key in [k for k in identity if k != "digests"]:
        if run.get(key) != identity[key]:
            raise UsageError(Named("resume"), f": {path} holds a run with {key} "
                             f"{run.get(key)!r}, not "
                             f"{identity[key]!r}; nothing was changed")
    for ruleset_id, digest in identity["digests"].items():
        if run.get("digests", {}).get(ruleset_id) != digest:
            raise UsageError(Named("resume"), f": ruleset '{ruleset_id}' is not the one {path} was "
                             "started with (its content changed); finish with the original "
                             "ruleset, or start a new file (nothing was changed)")


def _check_row(item: Any, path: Path, number: int, identity: dict[str, Any], kind: RowKind,
               check: RowCheck | None = None) -> tuple[str, int]:
    error = next(iter(kind.validator.iter_errors(item)), None)
    if error is not None:
        field = ".".join(map(str, error.absolute_path)) or "(the line)"
        raise UsageError(Named("resume"), f": {path}:{number}: not a result line: {field}: "
                         f"{error.message}; nothing was changed")
    if item["ruleset"] not in identity["rulesets"]:
        raise UsageError(Named("resume"), f": {path}:{number}: a hand of ruleset "
                         f"{item['ruleset']!r}, "
                         "which this run does not play; nothing was changed")
    fault = check(item) if check is not None else None
    if fault is not None:
        raise UsageError(Named("resume"), f": {path}:{number}: {fault}; the file is damaged "
                         "(nothing "
                         "was changed)")
    return item["ruleset"], item["index"]
