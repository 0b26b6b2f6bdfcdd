"""Where hands are played: in this process, in local worker processes, or on a Dask cluster.

Every path plays the same tasks and yields the same traces (each depends only on its task),
in whatever order they finish; the caller orders them by index.

Faults end in an :class:`ExecutorFault` with one line, never a hang: a worker process that
dies breaks the run at once; worker processes exit when their parent dies (however it dies);
a scheduler address is checked before connecting, the connection has a deadline, and a
cluster left without workers for :data:`NO_WORKER_SECONDS` ends the run.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ddz_rules.bots import LEVELS
from ddz_rules.compare.runner import play_batch
from ddz_rules.errors import DdzError, ExecutorFault, Named, UsageError

BATCH = 25
#: How long the parent waits on its worker processes at a time: how late it may notice an
#: interrupt held during the wait (:func:`_interrupts_deferred`).
WAIT_SECONDS = 0.2
#: How long connecting to a Dask scheduler may take.
CONNECT_SECONDS = 15.0
#: How long a run waits on a cluster that has no worker before giving up.
NO_WORKER_SECONDS = 60.0
#: How often a run on a cluster checks that it still has workers.
POLL_SECONDS = 2.0
#: The address schemes a Dask client speaks.
DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


def batches(tasks: Sequence[Any], size: int | None = None) -> list[list[Any]]:
    """Units of work: ``size`` tasks each, by default what the slowest bot level asks for."""
    if size is None:
        levels = {lvl for t in tasks for lvl in t.levels}
        size = min([BATCH, *(LEVELS[lvl].hands_per_batch for lvl in levels if lvl in LEVELS)])
    return [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]


def run(tasks: Sequence[Any], workers: int = 1, scheduler: str | None = None,
        play: Callable[[list[Any]], list[dict[str, Any]]] | None = None,
        size: int | None = None) -> Iterator[list[dict[str, Any]]]:
    """Play ``tasks`` with ``play`` (a module-level function of a batch, by default
    :func:`~ddz_rules.compare.runner.play_batch`), ``size`` tasks a batch (by default as
    :func:`batches` decides); yield the results of each finished batch."""
    play = play or play_batch
    units = batches(tasks, size)
    if scheduler is not None:
        yield from _dask(units, scheduler, play)
    elif workers > 1:
        yield from _processes(units, workers, play)
    else:
        for batch in units:
            yield play(batch)


# ----------------------------------------------------------------------- local processes


def _processes(units: list[list[Any]], workers: int,
               play: Callable[[list[Any]], list[dict[str, Any]]]
               ) -> Iterator[list[dict[str, Any]]]:
    if not units:
        return
    pool = ProcessPoolExecutor(max_workers=min(workers, len(units)),
                               initializer=_worker_started, initargs=(os.getpid(),))
    finished = False
    try:
        with _signals_held():  # the first submit forks the workers
            futures = {pool.submit(play, batch) for batch in units}
        while futures:
            with _interrupts_deferred():
                ready, futures = wait(futures, timeout=WAIT_SECONDS,
                                      return_when=FIRST_COMPLETED)
            for future in ready:
                yield _result(future)
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # an error, an interrupt or a consumer that stopped: stop the workers now
            _terminate(pool)
            _abandoned.append(os.getpid())


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while waiting on the pool's futures, then deliver them.

    ``wait`` takes every future's lock in turn; an interrupt raised between two of them
    (Ctrl-C, or SIGTERM, which ``ddz`` turns into one) would leave locks taken for good, and
    the pool's thread, which needs them to fail the futures of the stopped workers, would then
    keep the interpreter from exiting. So a signal that arrives in the wait is recorded, and
    raised again once the wait is over (waits are short: :data:`WAIT_SECONDS`).
    """
    caught: list[int] = []

    def record(signum: int, frame: object) -> None:
        caught.append(signum)

    try:
        previous = {sig: signal.signal(sig, record) for sig in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread: no handler of ours runs here anyway
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


#: The signals a worker is born blocking, until its own handlers are in place, where this
#: platform can block signals (POSIX).
_HELD = (signal.SIGINT, signal.SIGTERM)
_CAN_HOLD = hasattr(signal, "pthread_sigmask")


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Block Ctrl-C and SIGTERM in this thread while it forks the workers.

    A forked worker inherits this process's handlers (``ddz`` turns SIGTERM into an
    interrupt) until :func:`_worker_started` replaces them; stopped in that window, it would
    raise an interrupt wherever it stood and print a traceback. It inherits the blocked mask
    instead and unblocks once its own handlers are set. A signal that reaches this process
    meanwhile is delivered when the block ends. (No-op where signals cannot be blocked.)
    """
    if not _CAN_HOLD:
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _result(future: Future[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    try:
        return future.result()
    except BrokenProcessPool:
        raise ExecutorFault("a worker process died (it was killed, or ran out of memory)"
                            ) from None


#: The processes (this one, or none) that stopped a pool's workers mid-run.
_abandoned: list[int] = []


def pools_abandoned() -> bool:
    """Whether this process stopped worker processes mid-run (a fault or an interrupt).

    A worker stopped while it sent its results can leave the pool's thread waiting for the
    rest of them for good, and the interpreter waits for that thread before it exits; so the
    ``ddz`` program then ends without waiting (:func:`ddz_rules.cli.run`), its results file
    already closed.
    """
    return os.getpid() in _abandoned


def _terminate(pool: ProcessPoolExecutor) -> None:
    processes = list(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for pid in processes:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)


def _worker_started(parent: int) -> None:
    """In each worker: leave Ctrl-C to the parent, end quietly on SIGTERM (a forked worker
    inherits the parent's handlers, and is born with them blocked: :func:`_signals_held`),
    and exit when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if _CAN_HOLD:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    _die_with_parent()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="ddz-parent-watch", daemon=True).start()


def _die_with_parent() -> None:
    """Linux: have the kernel send SIGKILL to this process when its parent dies."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the watch thread does it
        return


# ----------------------------------------------------------------------- Dask


def check_address(address: str) -> None:
    """Refuse what is not a Dask scheduler address, before connecting; needs the extra."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(Named("scheduler"), " needs dask.distributed: pip install "
                         "'ddz-rules[dask]'"
                         ) from None
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in DASK_SCHEMES:
        raise UsageError(Named("scheduler"), f" {address!r}: '{scheme}' is not a Dask protocol; "
                         f"expected {', '.join(s + '://' for s in DASK_SCHEMES)} "
                         "(for example tcp://HOST:8786)")
    if scheme == "inproc":
        return
    match = re.fullmatch(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})", rest)
    if match is None or not 0 < int(match.group(2)) < 65536:
        raise UsageError(Named("scheduler"), f" {address!r}: expected HOST:PORT, for example "
                         "tcp://127.0.0.1:8786")


def connect(address: str) -> Any:
    """A Dask client for ``address``, or a one-line error; never waits past a deadline.

    The client is made in a helper thread: something that is not a Dask scheduler (a web
    server, say) can accept the connection and then never answer the handshake, and nothing
    in the client itself bounds that wait.
    """
    check_address(address)
    box: dict[str, Any] = {}
    handover = threading.Lock()

    def attempt() -> None:
        from distributed import Client

        try:
            client = Client(  # type: ignore[no-untyped-call]
                address, timeout=f"{int(CONNECT_SECONDS)}s")
        except BaseException as exc:  # the reason is reported on the caller's thread
            box["error"] = exc
            return
        with handover:
            if not box.get("abandoned"):
                box["client"] = client
                return
        # Connected after the caller gave up: close it here, rather than leave it to a
        # finaliser that may run on any thread at any time (and close it under a lock there).
        client.close()  # type: ignore[no-untyped-call]

    thread = threading.Thread(target=attempt, name="ddz-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 5)
    with handover:
        if "client" in box:
            return box["client"]
        box["abandoned"] = True
    if thread.is_alive():
        reason = f"no answer in {CONNECT_SECONDS + 5:.0f} s (is it a Dask scheduler?)"
    else:
        exc = box.pop("error", None)
        first = str(exc).splitlines()[0] if exc is not None and str(exc) else ""
        reason = first[:200] or type(exc).__name__
        # The error's traceback holds the half-made client: let it go now, on this thread,
        # not whenever a collection happens to find the cycle.
        del exc
    raise UsageError(f"cannot reach the Dask scheduler at {address}: {reason}")


def _dask(units: list[list[Any]], address: str,
          play: Callable[[list[Any]], list[dict[str, Any]]]) -> Iterator[list[dict[str, Any]]]:
    from distributed import wait as dask_wait

    client = connect(address)
    try:
        pending = set(client.map(play, units, pure=False))
        idle_since: float | None = None
        while pending:
            try:
                done, pending = dask_wait(  # type: ignore[no-untyped-call]
                    pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            for future in done:
                yield _dask_result(future)
            if done:
                idle_since = None
                continue
            if _workers(client):
                idle_since = None
            elif idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since > NO_WORKER_SECONDS:
                raise ExecutorFault(f"the Dask cluster at {address} has had no worker for "
                                    f"{NO_WORKER_SECONDS:.0f} s")
    finally:
        client.close()


def _workers(client: Any) -> int:
    try:
        return len(client.scheduler_info().get("workers", {}))
    except (OSError, TimeoutError):
        return 0


def _dask_result(future: Any) -> list[dict[str, Any]]:
    try:
        result: list[dict[str, Any]] = future.result()
    except DdzError:
        raise
    except Exception as exc:
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ExecutorFault(f"a batch failed on the Dask cluster: {type(exc).__name__}"
                            f"{': ' + first[:200] if first else ''}") from None
    return result
