"""No command loses or half-writes a file, and none writes what it would refuse to read.

One rule for every writer (``ddz_rules/outputs.py``): a file the command did not create in
this run is never overwritten (an identical one is reused, any other refused in one line);
every file is moved into place whole. ``ddz play``'s side files are one per save file. The
seed range and every other bound a record reader enforces are enforced first by the command
line and the writers. Options that would be silently ignored are refused.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import cards, load, outputs
from ddz_rules.cli import main
from ddz_rules.errors import DdzError, UsageError
from ddz_rules.game import Hand
from ddz_rules.play.session import Session, saved_seats, sidecar_path
from ddz_rules.records import MAX_SEED, read_record, record_text, replay_match, to_record

from .conftest import FIXTURES
from .test_play import until_play

#: A ruleset file that is not bundled, with a three-hand match (fast to play).
BEST_OF_3 = FIXTURES / "variants" / "match-best-of-3.yaml"
#: The name its copy beside records gets (its id).
COPY = "match-best-of-3.yaml"


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err
    return err


def _own_ruleset(folder: Path) -> Path:
    """The user's own ruleset file (with its ``extends`` and comments) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    own = folder / "own.yaml"
    own.write_text("# my house rules\n" + BEST_OF_3.read_text(encoding="utf-8"),
                   encoding="utf-8")
    return own


def _play(argv: list[str]) -> int:
    return main(["play", "--autoplay", "--hint", "random", "--bots", "random", *argv])


# ------------------------------------------------------------ item 9: never overwrite


def test_a_match_record_never_overwrites_a_users_file_named_like_its_ruleset_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = _own_ruleset(tmp_path)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / COPY).write_text("my notes\n")
    _refused(capsys, ["match", "-r", str(own), "--bots", "random", "--record",
                      str(notes / "m.json")], str(notes / COPY), "nothing was overwritten",
             "another folder")
    assert (notes / COPY).read_text() == "my notes\n"
    assert sorted(p.name for p in notes.iterdir()) == [COPY]  # no record, no temporary file


def test_simulate_records_never_overwrite_a_users_ruleset_of_the_same_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = _own_ruleset(tmp_path)
    records = tmp_path / "records"
    records.mkdir()
    other = "id: match-best-of-3\nextends: classic\n# another ruleset of the same id\n"
    (records / COPY).write_text(other)
    _refused(capsys, ["simulate", "-r", str(own), "--hands", "2", "--records", str(records)],
             str(records / COPY), "nothing was overwritten")
    assert (records / COPY).read_text() == other


def test_the_very_ruleset_file_played_is_named_by_the_records_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The user's file sits where the copy would go and loads as the same ruleset: it is
    # named as it is, its extends and comments kept, and the records replay from it.
    played = tmp_path / COPY
    played.write_text("# mine\n" + BEST_OF_3.read_text(encoding="utf-8"), encoding="utf-8")
    before = played.read_bytes()
    assert main(["match", "-r", str(played), "--bots", "random", "--record",
                 str(tmp_path / "m.json")]) == 0
    assert main(["simulate", "-r", str(played), "--hands", "2", "--records",
                 str(tmp_path)]) == 0
    assert played.read_bytes() == before
    assert replay_match(read_record(str(tmp_path / "m.json")), str(tmp_path / "m.json")).valid


def test_running_simulate_again_reuses_its_identical_records_and_refuses_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "-r", str(BEST_OF_3), "--hands", "3", "--seed", "4", "--records",
            str(tmp_path)]
    assert main(argv) == 0
    written = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(argv) == 0  # the same run writes the same bytes: nothing to refuse
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == written
    first = sorted(n for n in written if n.endswith(".json"))[0]
    (tmp_path / first).write_text("my notes\n")
    capsys.readouterr()
    _refused(capsys, argv, first, "nothing was overwritten")
    assert (tmp_path / first).read_text() == "my notes\n"


def test_play_match_and_simulate_follow_one_rule_for_the_ruleset_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = _own_ruleset(tmp_path / "rules")
    for argv in (["match", "-r", str(own), "--bots", "random", "--record",
                  str(tmp_path / "m" / "m.json")],
                 ["simulate", "-r", str(own), "--hands", "1", "--records", str(tmp_path / "s")],
                 ["play", "--autoplay", "--hint", "random", "-r", str(own), "--seed", "1",
                  "--save", str(tmp_path / "p" / "g.json")]):
        folder = Path(argv[-1]) if argv[0] == "simulate" else Path(argv[-1]).parent
        folder.mkdir()
        (folder / COPY).write_text("my notes\n")
        err = _refused(capsys, argv, "nothing was overwritten")
        assert err.startswith(f"ddz: error: {folder / COPY} already exists"), err
        assert (folder / COPY).read_text() == "my notes\n"


# ------------------------------------------------------------ item 10: side files


def test_the_side_files_of_x_and_x_json_are_two_files() -> None:
    names = [sidecar_path(Path(n)) for n in ("x", "x.json", "x.play", "x.json.play")]
    assert len(set(names)) == len(names)


def test_a_new_game_saved_as_x_leaves_who_sat_where_in_x_json_alone(tmp_path: Path) -> None:
    assert _play(["--seat", "1", "--seed", "3", "--save", str(tmp_path / "x.json")]) == 0
    side = sidecar_path(tmp_path / "x.json")
    before = side.read_bytes()
    assert _play(["--seat", "2", "--seed", "3", "--save", str(tmp_path / "x")]) == 0
    assert side.read_bytes() == before
    assert saved_seats(tmp_path / "x.json", None, None, None, "hand")[0] == 1
    assert saved_seats(tmp_path / "x", None, None, None, "hand")[0] == 2


def _old_style(save: Path, seat: int) -> Path:
    """Turn a save's side file into the one earlier versions wrote (``NAME.play.json``)."""
    old = save.with_name(save.stem + ".play.json")
    sidecar_path(save).unlink()
    old.write_text(json.dumps({"ddz_play": 1, "seat": seat, "bots": "random",
                               "hint": "random"}) + "\n")
    return old


def test_a_game_saved_with_the_old_side_file_name_still_resumes(tmp_path: Path) -> None:
    save = tmp_path / "x.json"
    Session.new(load("classic"), seat=1, bots="random", seed=5, save=save)
    _old_style(save, seat=1)
    resumed = Session.resume(save)
    assert (resumed.seat, resumed.bots) == (1, "random")


def test_a_new_game_never_overwrites_an_old_side_file_and_ignores_a_new_one_of_x(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "x.json"
    Session.new(load("classic"), seat=1, bots="random", seed=5, save=save)
    old = _old_style(save, seat=1)
    before = old.read_bytes()
    _refused(capsys, ["play", "--autoplay", "--seed", "2", "--save", str(tmp_path / "x")],
             str(old), "nothing was overwritten")
    assert old.read_bytes() == before
    assert not (tmp_path / "x").exists()
    # A side file that names its save belongs to that save: x's is never taken for x.json's.
    other = tmp_path / "y.json"
    Session.new(load("classic"), seat=1, bots="random", seed=5, save=other)
    sidecar_path(other).unlink()
    Session.new(load("classic"), seat=2, bots="random", seed=5, save=tmp_path / "y")
    with pytest.raises(DdzError, match="give seat and bots"):
        Session.resume(other)


# ------------------------------------------------------------ item 12: bounds


@pytest.mark.parametrize("argv", [
    ["match", "--record", "F.json"],
    ["simulate", "--records", "D"],
    ["compare", "classic", "--hands", "1"],
    ["rate", "--levels", "random,standard"],
    ["play", "--autoplay", "--no-save"],
])
@pytest.mark.parametrize("seed", [str(10**30), str(-MAX_SEED), str(MAX_SEED)])
def test_every_command_refuses_a_seed_its_records_could_not_hold(
        argv: list[str], seed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _refused(capsys, [*argv, "--seed", seed], "--seed", "2**63 - 1")
    assert list(tmp_path.iterdir()) == []


def test_records_written_at_the_ends_of_the_seed_range_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "m.json"
    assert main(["match", "-r", str(BEST_OF_3), "--bots", "random", "--seed",
                 str(MAX_SEED - 1), "--record", str(record)]) == 0
    assert main(["replay", str(record)]) == 0
    assert main(["simulate", "--hands", "2", "--seed", str(1 - MAX_SEED), "--records",
                 str(tmp_path / "s")]) == 0
    for path in (tmp_path / "s").iterdir():
        assert main(["replay", str(path)]) == 0, path


def test_a_record_a_reader_would_refuse_is_never_written(tmp_path: Path) -> None:
    hand = Hand.new(load("classic"), seed=10**41)  # a deal seed of more digits than records hold
    path = tmp_path / "h.json"
    with pytest.raises(UsageError, match=r"more than 40 digits.*not written"):
        record_text(to_record(hand), path)
    match = {"ruleset": "classic", "seed": MAX_SEED, "seats": ["a", "b", "c"],
             "hands": [to_record(Hand.new(load("classic"), seed=1))], "totals": [0, 0, 0],
             "winners": [0], "tie": False}
    with pytest.raises(UsageError, match="field seed"):
        record_text(match, path)
    assert not path.exists()


def test_a_match_record_with_a_seed_play_would_refuse_is_refused_by_replay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "m.json"
    assert main(["match", "-r", str(BEST_OF_3), "--bots", "random", "--record",
                 str(record)]) == 0
    data = json.loads(record.read_text())
    data["seed"] = 10**30
    record.write_text(json.dumps(data))
    capsys.readouterr()
    _refused(capsys, ["replay", str(record)], "field seed", "2**63 - 1")


# ------------------------------------------------------------ item 15: nothing ignored


@pytest.mark.parametrize(("argv", "words"), [
    (["match", "--record", "m.json", "--out", "r.jsonl"], ["--record and --out"]),
    (["match", "--resume"], ["--resume needs --out"]),
    (["match", "--scheduler", "tcp://127.0.0.1:1"], ["--scheduler"]),
    (["match", "--workers", "2"], ["--workers"]),
    (["compare", "classic", "--hands", "1", "--resume"], ["--resume needs --out"]),
    (["compare", "classic", "--hands", "1", "--out", ""], ["--out", "empty path"]),
    (["match", "--matches", "2", "--out", ""], ["--out", "empty path"]),
    (["rate", "--levels", "random,standard", "--out", ""], ["--out", "empty path"]),
    (["match", "--record", ""], ["--record", "empty path"]),
    (["simulate", "--hands", "1", "--records", ""], ["--records", "empty path"]),
    (["play", "--autoplay", "--save", ""], ["--save", "empty path"]),
    (["compare", "classic", "--plots", " "], ["--plots", "empty path"]),
    (["classify", "-r", "laizi", "--wild", "5", "3335@"], ["'3335@'", "names no reading"]),
    (["classify", "33@"], ["'33@'", "names no reading"]),
    (["beats", "44@", "33"], ["PLAY", "names no reading"]),
    (["moves", "3344", "--beat", "33@"], ["--beat", "names no reading"]),
])
def test_an_option_that_would_be_ignored_is_refused(
        argv: list[str], words: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _refused(capsys, argv, *words)
    assert list(tmp_path.iterdir()) == []


def test_a_play_typed_with_an_empty_reading_is_refused_at_the_prompt() -> None:
    session = Session.new(load("classic"), seat=0, bots="random", seed=7)
    until_play(session)
    rank = next(r for r, n in enumerate(cards.unpack(session.view.hand)) if n)
    outcome = session.act(cards.RANKS[rank] + "@")
    assert not outcome.ok and "names no reading" in outcome.message, outcome.message


# ------------------------------------------------------------ hostile paths and crashes


def test_a_record_path_that_is_a_folder_or_under_a_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused(capsys, ["match", "--record", str(tmp_path)], str(tmp_path))
    (tmp_path / "file").write_text("x")
    _refused(capsys, ["match", "-r", str(BEST_OF_3), "--bots", "random", "--record",
                      str(tmp_path / "file" / "m.json")], "--record")
    _refused(capsys, ["simulate", "--hands", "1", "--records", str(tmp_path / "file" / "d")],
             "--records")
    assert (tmp_path / "file").read_text() == "x"


def test_an_existing_link_is_never_written_through(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    records = tmp_path / "records"
    records.mkdir()
    (records / "classic-0-000000.json").symlink_to(target)
    _refused(capsys, ["simulate", "--hands", "1", "--records", str(records)],
             "classic-0-000000.json", "nothing was overwritten")
    dangling = tmp_path / "m.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    _refused(capsys, ["match", "-r", str(BEST_OF_3), "--record", str(dangling)], "m.json",
             "is a link that leads nowhere; nothing was overwritten")
    _refused(capsys, ["play", "--autoplay", "--save", str(dangling)], "m.json")
    assert target.read_text() == "keep me\n"
    assert not (tmp_path / "nowhere.json").exists()


def test_a_users_file_named_like_a_temporary_file_is_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    part = tmp_path / "m.json.part"
    part.write_text("my draft\n")
    assert main(["match", "-r", str(BEST_OF_3), "--bots", "random", "--record",
                 str(tmp_path / "m.json")]) == 0
    assert part.read_text() == "my draft\n"


def test_a_crash_mid_write_leaves_the_old_save_whole_and_no_stray_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "game.json"
    session = Session.new(load("classic"), seat=0, bots="random", seed=3, save=save)
    before = save.read_bytes()

    def full_disk(fd: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "fsync", full_disk)
    with pytest.raises(UsageError, match="No space left on device; the hand goes on unsaved"):
        session.run_bots() if session.bot_to_act else session.act(session.hint().text)
    assert save.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json",
                                                          "game.json.play.json"]


def test_every_writer_moves_its_file_into_place_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Any write that is not a temporary file moved into place would be seen here.
    seen: list[str] = []
    real = outputs._staged

    def staged(path: Path, data: bytes, kept: str) -> Path:
        seen.append(path.name)
        return real(path, data, kept)

    monkeypatch.setattr(outputs, "_staged", staged)
    own = _own_ruleset(tmp_path / "rules")
    shutil.copy(own, tmp_path / "rules" / "x.yaml")
    assert main(["match", "-r", str(own), "--bots", "random", "--record",
                 str(tmp_path / "m" / "m.json")]) == 0
    assert main(["simulate", "-r", str(own), "--hands", "1", "--records",
                 str(tmp_path / "s")]) == 0
    assert _play(["-r", str(own), "--seed", "1", "--save", str(tmp_path / "p" / "g.json")]) == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                     if p.is_file() and p.parent.name != "rules")
    assert sorted(set(seen)) == sorted({Path(w).name for w in written})
    assert not list(tmp_path.rglob("*.part"))


def test_compare_plots_never_overwrite_a_chart_file_the_run_did_not_make(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    charts = tmp_path / "charts"
    charts.mkdir()
    mine = charts / "landlord_win.png"
    mine.write_text("my own notes", encoding="utf-8")
    argv = ["compare", "classic", "--hands", "6", "--seed", "3", "--no-progress",
            "--plots", str(charts)]
    _refused(capsys, argv, str(mine), "nothing was overwritten",
             "give --plots a folder of its own")
    assert mine.read_text(encoding="utf-8") == "my own notes"
    fresh = tmp_path / "fresh"
    assert main([*argv[:-1], str(fresh)]) == 0
    capsys.readouterr()
    drawn = {p.name: p.read_bytes() for p in fresh.iterdir()}
    assert "landlord_win.png" in drawn and not any(p.name.endswith(".part")
                                                   for p in fresh.iterdir())


def test_compare_charts_are_all_written_or_none_when_the_disk_fills(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The disk fills at the second chart: the first, which this run wrote, is removed, so
    the folder is as it was and the one line saying nothing was written is true."""
    from ddz_rules.compare import report

    charts = tmp_path / "charts"
    real_write_new = report.write_new
    calls = {"n": 0}

    def full_at_the_second(path: Path, data: bytes, instead: Any) -> bool:
        calls["n"] += 1
        if calls["n"] == 2:
            raise UsageError(f"writing {path} failed: No space left on device; nothing was "
                             "written")
        return real_write_new(path, data, instead)

    monkeypatch.setattr(report, "write_new", full_at_the_second)
    assert main(["compare", "classic", "--hands", "4", "--bots", "random", "--no-progress",
                 "--plots", str(charts)]) == 2
    assert "No space left on device; nothing was written" in capsys.readouterr().err
    assert calls["n"] == 2 and not list(charts.iterdir())


def test_a_first_save_the_disk_refuses_leaves_no_side_file_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The side file (who plays which seat) is written before the save; where the save then
    fails, it is removed again, so the same name serves the next game, with other seats."""
    from ddz_rules.play import session

    save = tmp_path / "game.json"
    real_write_new = session.write_new

    def full_for_the_save(path: Path, text: str, instead: Any, kept: Any = "") -> bool:
        if path == save:
            raise UsageError(f"writing {path} failed: No space left on device; {kept}")
        return real_write_new(path, text, instead, kept)

    monkeypatch.setattr(session, "write_new", full_for_the_save)
    assert main(["play", "--autoplay", "--seed", "1", "--save", str(save)]) == 2
    assert "No space left on device; the hand was not saved" in capsys.readouterr().err
    assert not list(tmp_path.glob("game.json*"))
    monkeypatch.setattr(session, "write_new", real_write_new)
    assert main(["play", "--autoplay", "--seed", "1", "--seat", "1", "--save", str(save)]) == 0
    capsys.readouterr()
    assert save.exists() and session.sidecar_path(save).exists()
