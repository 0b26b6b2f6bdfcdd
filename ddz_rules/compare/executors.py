"""Where hands are played: in this process, in local worker processes, or on a Dask cluster.

Every path plays the same tasks and yields the same traces (each depends only on its task),
in whatever order they finish; the caller orders them by index.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from ddz_rules.compare.runner import Task, play_batch
from ddz_rules.errors import UsageError

BATCH = 25


def batches(tasks: Sequence[Task], size: int = BATCH) -> list[list[Task]]:
    return [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]


def run(tasks: Sequence[Task], workers: int = 1, scheduler: str | None = None
        ) -> Iterator[list[dict[str, Any]]]:
    """Play ``tasks``; yield the traces of each finished batch."""
    if scheduler is not None:
        yield from _dask(tasks, scheduler)
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_batch, batch) for batch in batches(tasks)]
            for future in as_completed(futures):
                yield future.result()
    else:
        for batch in batches(tasks):
            yield play_batch(batch)


def connect(address: str) -> Any:
    """A Dask client for ``address``, or a one-line error if it cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs dask.distributed: pip install 'ddz-rules[dask]'"
                         ) from None
    try:
        return Client(address, timeout="5s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


def _dask(tasks: Sequence[Task], address: str) -> Iterator[list[dict[str, Any]]]:
    from distributed import as_completed as dask_completed

    client = connect(address)
    try:
        futures = client.map(play_batch, batches(tasks), pure=False)
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()
    finally:
        client.close()
