"""A comparison run: which hands to play, where results go, and how a run resumes.

With ``out``, the run writes a header line naming the run, then appends each finished hand as
one JSON line. ``resume`` reads such a file back, refuses one from a different run, drops a
half-written last line, and plays only the hands still missing: no hand is lost or counted
twice, and the results are the same as an uninterrupted run's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ddz_rules.compare import executors
from ddz_rules.compare.runner import Task, check_bots
from ddz_rules.errors import UsageError
from ddz_rules.ruleset import load

Trace = dict[str, Any]


@dataclass(frozen=True)
class RunSpec:
    """What a run plays: rulesets, hands per ruleset, bot level, seed."""

    rulesets: tuple[str, ...]
    hands: int
    bots: str
    seed: int

    def check(self) -> None:
        if self.hands < 1:
            raise UsageError(f"--hands must be at least 1, got {self.hands}")
        if not self.rulesets:
            raise UsageError("name at least one ruleset to compare")
        for name in self.rulesets:
            check_bots(load(name), [self.bots])

    def header(self) -> dict[str, Any]:
        return {"run": {**asdict(self), "rulesets": list(self.rulesets)}}

    def tasks(self) -> list[Task]:
        return [Task(name, self.bots, self.seed, i)
                for name in self.rulesets for i in range(self.hands)]


def execute(spec: RunSpec, *, workers: int = 1, scheduler: str | None = None,
            out: Path | None = None, resume: bool = False,
            progress: Callable[[int, int], None] | None = None) -> dict[str, list[Trace]]:
    """Play the run (or what is left of it); return each ruleset's traces by index."""
    spec.check()
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if resume and out is None:
        raise UsageError("--resume needs --out FILE, the results file to continue")
    ids = {name: load(name).id for name in spec.rulesets}
    done: dict[tuple[str, int], Trace] = {}
    if out is not None:
        done = _open_results(spec, out, resume)
    todo = [t for t in spec.tasks() if (ids[t.ruleset], t.index) not in done]
    total = len(spec.rulesets) * spec.hands
    finished = total - len(todo)
    if progress:
        progress(finished, total)
    handle = out.open("a", encoding="utf-8") if out is not None else None
    try:
        for batch in executors.run(todo, workers, scheduler):
            for trace in batch:
                done[(trace["ruleset"], trace["index"])] = trace
                if handle is not None:
                    handle.write(json.dumps(trace, separators=(",", ":")) + "\n")
            if handle is not None:
                handle.flush()
            finished += len(batch)
            if progress:
                progress(finished, total)
    finally:
        if handle is not None:
            handle.close()
    return {ids[name]: [done[(ids[name], i)] for i in range(spec.hands)]
            for name in spec.rulesets}


def _open_results(spec: RunSpec, out: Path, resume: bool) -> dict[tuple[str, int], Trace]:
    """Start a results file, or read back the one a run is resuming."""
    if not resume:
        if out.exists():
            raise UsageError(f"{out} already exists; pass --resume to continue that run, or "
                             "choose another file (nothing was overwritten)")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(spec.header()) + "\n", encoding="utf-8")
        return {}
    if not out.exists():
        raise UsageError(f"--resume: {out} does not exist")
    raw = out.read_text(encoding="utf-8")
    complete = raw[:raw.rfind("\n") + 1]
    lines = complete.splitlines()
    try:
        header = json.loads(lines[0])["run"] if lines else None
    except (json.JSONDecodeError, KeyError, TypeError):
        header = None
    if header is None:
        raise UsageError(f"--resume: {out} is not a ddz compare results file")
    wanted = spec.header()["run"]
    for key in ("rulesets", "bots", "seed"):
        if header.get(key) != wanted[key]:
            raise UsageError(f"--resume: {out} holds a run with {key} {header.get(key)!r}, "
                             f"not {wanted[key]!r}; nothing was changed")
    done: dict[tuple[str, int], Trace] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            trace = json.loads(line)
            done[(trace["ruleset"], trace["index"])] = trace
        except (json.JSONDecodeError, KeyError, TypeError):
            raise UsageError(f"--resume: {out}:{number} is not a hand result") from None
    if len(complete) != len(raw):
        out.write_text(complete, encoding="utf-8")  # drop the half-written last line
    return done
