"""Comparison runs under hostile input and faults: nothing wrong, nothing lost, no traceback.

Each test is named after the guarantee it proves: rulesets are never merged or reloaded by
id, a results file is never emptied, duplicated or shared by two writers, a resume continues
only the run it started, bad output paths and scheduler addresses are refused before a hand is
played, and dead workers, dead parents and empty clusters end in one line.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ddz_rules.cli import main
from ddz_rules.compare import executors
from ddz_rules.compare.results import ResultsFile
from ddz_rules.compare.run import RunSpec, execute
from ddz_rules.compare.runner import Task, play_batch, play_task
from ddz_rules.errors import DdzError, UsageError

from .conftest import FIXTURES, local_cluster

HOSTILE = FIXTURES / "hostile" / "compare"
IMPOSTOR = str(HOSTILE / "classic-impostor.yaml")
HOUSE = str(HOSTILE / "house-bombs.yaml")
LINUX = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _spec(hands: int = 12, *rulesets: str) -> RunSpec:
    return RunSpec(rulesets or ("classic", "two-player"), hands, "random", 4)


def _one_line_error(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


def _compare(*argv: str) -> list[str]:
    return ["compare", *argv, "--no-progress"]


# ------------------------------------------------------------------ rulesets are kept apart


def test_two_rulesets_with_one_id_are_refused_not_merged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.jsonl"
    assert main(_compare("classic", IMPOSTOR, "--hands", "3", "--out", str(out))) == 2
    _one_line_error(capsys, "same id 'classic'", "classic-impostor.yaml")
    assert not out.exists()


@pytest.mark.parametrize("twice", [["classic", "classic"], ["classic", "rules/classic.yaml"]])
def test_one_ruleset_named_twice_is_refused(twice: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_compare(*twice, "--hands", "3")) == 2
    _one_line_error(capsys, "are the same ruleset")


def test_a_ruleset_file_whose_id_is_not_bundled_is_compared(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_compare("classic", HOUSE, "--hands", "4", "--json")) == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary["rulesets"]) == ["classic", "house-bombs"]
    assert summary["differences"][0]["paired"] is True


def test_the_docs_example_variant_can_be_compared(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_compare("classic", "docs/examples/my-variant.yaml", "--hands", "3",
                         "--bots", "random", "--json")) == 0
    assert "house-rules" in json.loads(capsys.readouterr().out)["rulesets"]


def test_a_worker_refuses_a_ruleset_whose_content_changed() -> None:
    task = Task("classic", "random", 0, 0, digest="0" * 16)
    with pytest.raises(UsageError, match="changed after the run started"):
        play_task(task)


def test_a_ruleset_file_edited_during_a_run_is_not_mixed_in(tmp_path: Path) -> None:
    ruleset = tmp_path / "house.yaml"
    ruleset.write_text(Path(HOUSE).read_text())
    spec = RunSpec(("classic", str(ruleset)), 30, "random", 1)
    original = spec.resolve()
    ruleset.write_text(Path(HOUSE).read_text().replace("bomb: 3", "bomb: 4"))
    with pytest.raises(DdzError, match="changed after the run started"):
        execute(spec, out=tmp_path / "run.jsonl")
    assert spec.resolve() == original  # the run's rulesets were loaded once, before playing


# ------------------------------------------------------------------ the results file


def test_resume_cuts_a_torn_last_line_in_place_and_never_rewrites(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    full = execute(_spec(), out=out)
    lines = out.read_bytes().splitlines(keepends=True)
    kept = b"".join(lines[:10])
    out.write_bytes(kept + lines[10][:15])
    inode = out.stat().st_ino
    assert execute(_spec(), out=out, resume=True) == full
    assert out.stat().st_ino == inode
    assert out.read_bytes().startswith(kept)
    rows = [json.loads(line) for line in out.read_bytes().splitlines()[1:]]
    assert len(rows) == len({(r["ruleset"], r["index"]) for r in rows}) == 24


def test_a_second_writer_on_one_results_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    execute(_spec(3), out=out)
    spec = _spec(6)
    first = ResultsFile.reopen(out, spec.identity)
    try:
        before = out.read_bytes()
        with pytest.raises(UsageError, match="being written by another run"):
            execute(spec, out=out, resume=True)
        assert out.read_bytes() == before
    finally:
        first.close()
    assert len(execute(spec, out=out, resume=True)["classic"]) == 6


def test_resume_refuses_a_ruleset_whose_content_changed(tmp_path: Path) -> None:
    ruleset = tmp_path / "house.yaml"
    ruleset.write_text(Path(HOUSE).read_text())
    out = tmp_path / "run.jsonl"
    execute(RunSpec(("classic", str(ruleset)), 3, "random", 1), out=out)
    before = out.read_bytes()
    ruleset.write_text(Path(HOUSE).read_text().replace("bomb: 3", "bomb: 4"))
    with pytest.raises(UsageError, match=r"'house-bombs' is not the one .* started with"):
        execute(RunSpec(("classic", str(ruleset)), 6, "random", 1), out=out, resume=True)
    assert out.read_bytes() == before


def test_resume_may_ask_for_more_or_fewer_hands(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    execute(_spec(5), out=out)
    more = execute(_spec(8), out=out, resume=True)
    assert more == execute(_spec(8))
    fewer = execute(_spec(3), out=out, resume=True)
    assert fewer == {k: v[:3] for k, v in more.items()}
    assert len(out.read_bytes().splitlines()) == 1 + 16


@pytest.mark.parametrize(("damage", "words"), [
    (lambda row: {k: v for k, v in row.items() if k != "winner"}, "'winner' is a required"),
    (lambda row: {**row, "index": str(row["index"])}, "index"),
    (lambda row: {**row, "index": 1.0}, "index"),
    (lambda row: {**row, "scores": "lots"}, "scores"),
    (lambda row: {**row, "ruleset": "turned-card"}, "which this run does not play"),
    (lambda row: row, "already in the file"),
])
def test_resume_checks_every_row_and_changes_nothing_when_one_is_bad(
        tmp_path: Path, damage: object, words: str) -> None:
    out = tmp_path / "run.jsonl"
    execute(_spec(3), out=out)
    lines = out.read_text().splitlines()
    bad = damage(json.loads(lines[1]))  # type: ignore[operator]
    out.write_text("\n".join([*lines, json.dumps(bad)]) + "\n")
    before = out.read_bytes()
    with pytest.raises(UsageError, match=":8: ") as info:
        execute(_spec(3), out=out, resume=True)
    assert words in str(info.value)
    assert out.read_bytes() == before


@pytest.mark.parametrize("content", [
    b"\xff\xfe not utf-8\n", b'{"run": 5}\n', b"[1, 2]\n", b"", b"x" * 70000 + b"\n",
    b'{"format": "ddz-compare-results/2", "run": {}}\n',
])
def test_resume_of_a_file_that_is_not_a_results_file_is_one_line(
        tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.jsonl"
    out.write_bytes(content)
    assert main(_compare("classic", "--hands", "3", "--out", str(out), "--resume")) == 2
    _one_line_error(capsys, str(out))
    assert out.read_bytes() == content


@pytest.mark.parametrize("where", ["dir", "parent-is-file", "unwritable"])
def test_a_bad_out_path_is_refused_before_playing(
        tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("x")
    path = {"dir": tmp_path, "parent-is-file": tmp_path / "afile" / "run.jsonl",
            "unwritable": Path("/proc/ddz-no-such-place/run.jsonl")}[where]
    assert main(_compare("classic", "--hands", "3", "--out", str(path))) == 2
    _one_line_error(capsys, "--out")
    assert (tmp_path / "afile").read_text() == "x"


def test_a_full_disk_is_one_line_that_says_what_was_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    real_append = ResultsFile.append
    calls = {"n": 0}

    def append_then_fill(self: ResultsFile, traces: list[dict[str, object]]) -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the disk fills after the first batch
            self._handle = open("/dev/full", "ab")  # noqa: SIM115
        real_append(self, traces)

    monkeypatch.setattr(ResultsFile, "append", append_then_fill)
    out = tmp_path / "run.jsonl"
    assert main(_compare("classic", "--hands", "60", "--bots", "random",
                         "--out", str(out))) == 2
    _one_line_error(capsys, "No space left on device", "25 hands are kept", "--resume")
    monkeypatch.setattr(ResultsFile, "append", real_append)
    assert main(_compare("classic", "--hands", "60", "--bots", "random", "--out", str(out),
                         "--resume", "--json")) == 0
    assert len(out.read_bytes().splitlines()) == 61


def test_a_batch_the_disk_cuts_short_leaves_no_half_written_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills in the middle of a batch has taken part of it: the part is cut off
    again, so the file ends with its last whole line and the next batch starts clean."""
    path = tmp_path / "run.jsonl"
    results = ResultsFile.create(path, {"rulesets": ["classic"], "digests": {}})
    results.append([{"hand": 0}])
    kept = path.read_bytes()
    real_write = os.write

    def half_then_full(fd: int, data: bytes) -> int:
        if fd == results._handle.fileno():
            real_write(fd, bytes(data[:len(data) // 2]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", half_then_full)
    with pytest.raises(UsageError, match="No space left on device"):
        results.append([{"hand": 1}, {"hand": 2}])
    monkeypatch.setattr(os, "write", real_write)
    assert path.read_bytes() == kept and results.rows == 1
    results.append([{"hand": 1}])
    results.close()
    assert path.read_bytes() == kept + b'{"hand":1}\n'


@pytest.mark.parametrize("where", ["file", "unwritable"])
def test_a_bad_plots_path_is_refused_before_playing(
        tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    existing = tmp_path / "chart.png"
    existing.write_text("x")
    path = existing if where == "file" else Path("/proc/ddz-no-such-place/charts")
    out = tmp_path / "run.jsonl"
    assert main(_compare("classic", "--hands", "3", "--plots", str(path),
                         "--out", str(out))) == 2
    _one_line_error(capsys, "--plots")
    assert not out.exists() and existing.read_text() == "x"


# ------------------------------------------------------------------ the scheduler


@pytest.mark.parametrize("address", ["not an address", "", "foo://x", "http://x",
                                     "tcp://host:99999", "tcp://host"])
def test_what_is_not_a_scheduler_address_is_refused_before_connecting(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_compare("classic", "--hands", "3", "--scheduler", address)) == 2
    _one_line_error(capsys, "--scheduler")


def test_scheduler_without_the_dask_extra_names_the_install(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert main(_compare("classic", "--hands", "3", "--scheduler", "tcp://127.0.0.1:8786")) == 2
    _one_line_error(capsys, "pip install 'ddz-rules[dask]'")


def _serve(answer: bytes | None) -> Iterator[str]:
    """A local server that is no Dask scheduler: it says ``answer``, or nothing at all."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.fixture
def silent_server() -> Iterator[str]:
    yield from _serve(None)


@pytest.fixture
def http_server() -> Iterator[str]:
    yield from _serve(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)


@pytest.mark.parametrize("server", ["silent_server", "http_server"])
def test_a_server_that_is_no_scheduler_gives_one_line_not_a_hang(
        server: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(executors, "CONNECT_SECONDS", 2.0)
    address = request.getfixturevalue(server)
    assert main(_compare("classic", "--hands", "3", "--scheduler", address)) == 2
    _one_line_error(capsys, f"cannot reach the Dask scheduler at {address}")


def test_a_cluster_with_no_worker_ends_the_run_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(executors, "NO_WORKER_SECONDS", 1.0)
    monkeypatch.setattr(executors, "POLL_SECONDS", 0.2)
    with local_cluster(n_workers=0) as cluster:
        code = main(_compare("classic", "--hands", "3", "--scheduler",
                             cluster.scheduler_address, "--out", str(tmp_path / "r.jsonl")))
    assert code == 2
    _one_line_error(capsys, "no worker for 1 s", "0 hands are kept", "--resume")


# ------------------------------------------------------------------ worker processes


def dies_on_second_batch(batch: list[Task]) -> list[dict[str, object]]:
    """A batch function whose worker is killed on the second batch, as a kill -9 would."""
    if batch[0].index == executors.BATCH:
        os.kill(os.getpid(), signal.SIGKILL)
    return play_batch(batch)


def test_a_killed_worker_process_is_one_line_naming_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(executors, "play_batch", dies_on_second_batch)
    out = tmp_path / "run.jsonl"
    assert main(_compare("classic", "--hands", "100", "--bots", "random", "--workers", "2",
                         "--out", str(out))) == 2
    _one_line_error(capsys, "a worker process died", "--resume")
    rows = [json.loads(line) for line in out.read_bytes().splitlines()[1:]]
    assert len(rows) == len({r["index"] for r in rows})
    assert executors.pools_abandoned()  # so the ddz program exits without waiting on it


def held_now() -> str:
    """Which of Ctrl-C and SIGTERM this thread blocks, by name."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return ",".join(sorted(signal.Signals(s).name for s in mask if s in executors._HELD))


def blocked_signals(batch: list[int]) -> list[dict[str, object]]:
    """A batch function that reports which of Ctrl-C and SIGTERM its worker blocks."""
    return [{"pid": os.getpid(), "blocked": held_now()}]


@LINUX
def test_a_worker_is_born_deaf_to_interrupts_until_its_own_handlers_are_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A forked worker inherits the parent's handlers (ddz's SIGTERM raises an interrupt);
    # stopped before it set its own, it printed a traceback. Born blocking both signals, it
    # cannot be stopped in that window, and it unblocks them once its handlers are in place.
    born = tmp_path / "born"
    started = executors._worker_started

    def spy(parent: int) -> None:
        with born.open("a", encoding="utf-8") as f:
            f.write(held_now() + "\n")
        started(parent)

    monkeypatch.setattr(executors, "_worker_started", spy)
    rows = [row for batch in executors._processes([[1], [2], [3], [4]], 2, blocked_signals)
            for row in batch]
    assert born.read_text(encoding="utf-8").splitlines() == ["SIGINT,SIGTERM"] * 2
    assert len(rows) == 4 and all(row["blocked"] == "" for row in rows)
    assert held_now() == ""  # and this process blocks them no longer


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def _until(condition: object, limit: float = 60.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


@LINUX
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_worker_processes_exit_when_their_parent_dies(tmp_path: Path, how: int) -> None:
    out = tmp_path / "run.jsonl"
    parent = subprocess.Popen(
        [sys.executable, "-m", "ddz_rules.cli", "compare", "classic", "--hands", "5000",
         "--bots", "medium", "--workers", "2", "--no-progress", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert _until(lambda: len(_children(parent.pid)) >= 2 and out.exists()
                      and len(out.read_bytes().splitlines()) > 1)
        workers = _children(parent.pid)
        parent.send_signal(how)
        _, err = parent.communicate(timeout=120)
        assert _until(lambda: not _alive(workers)), "workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    if how == signal.SIGTERM:
        assert parent.returncode == 130
        assert err.decode().count("\n") == 1 and "hands are kept" in err.decode()
    rows = out.read_bytes().splitlines()[1:]
    complete = [r for r in rows if r.endswith(b"}")]
    assert len({json.loads(r)["index"] for r in complete}) == len(complete)


@LINUX
def test_kill_and_resume_cycles_lose_no_hand_and_count_none_twice(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    argv = [sys.executable, "-m", "ddz_rules.cli", "compare", "classic", "two-player",
            "--hands", "400", "--bots", "random", "--seed", "7", "--no-progress", "--json",
            "--out", str(out)]
    reference = execute(RunSpec(("classic", "two-player"), 400, "random", 7))
    for cycle in range(4):
        command = argv if cycle == 0 else [*argv, "--resume"]
        before = out.read_bytes() if out.exists() else b""
        grown = len(before) + 2000
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _until(lambda size=grown: out.exists() and out.stat().st_size > size, 30)
        run.kill()
        run.wait()
        now = out.read_bytes()
        intact = before[:before.rfind(b"\n") + 1]
        assert now.startswith(intact), "a finished row was changed"
    finished = subprocess.run([*argv, "--resume"], capture_output=True, check=True)
    summary = json.loads(finished.stdout)
    rows = [json.loads(line) for line in out.read_bytes().splitlines()[1:]]
    assert sorted((r["ruleset"], r["index"]) for r in rows) == sorted(
        (name, i) for name in ("classic", "two-player") for i in range(400))
    by_key = {(r["ruleset"], r["index"]): r for r in rows}
    assert all(by_key[(name, t["index"])] == t for name in reference for t in reference[name])
    assert summary["rulesets"]["classic"]["landlord_win"]["n"] == 400


@pytest.mark.parametrize(("argv", "words"), [
    (["--matches", "3", "--hands", "2"], "--matches counts the matches of --match-levels"),
    (["--match-levels", "medium,standard", "--hands", "3"],
     "--match-levels plays whole matches with its own two levels, so --hands, --bots"),
    (["--match-levels", "medium,standard", "--bots", "random"], "so --hands, --bots"),
    (["--match-levels", "medium,standard", "--open-hand"], "--open-hand"),
])
def test_options_a_comparison_would_ignore_are_refused_before_playing(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "classic", "--no-progress", *argv]) == 2
    _one_line_error(capsys, words)
