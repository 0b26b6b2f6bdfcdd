"""``ddz play --match`` and ``ddz play --serve``: a whole match with running totals, saved and
resumed as a match record, in the session, the command and the app; and ``ddz play --serve``
serving the browser table, for real, in a subprocess.

The short matches are the fixture ``match-best-of-3`` (best of three, a thrown-in deal counted
and dealt again by the same dealer); ``classic`` is ten hands, a thrown-in deal not counted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import load
from ddz_rules.cli import main
from ddz_rules.compare.matches import match_deal_seed
from ddz_rules.game import PASS, Phase
from ddz_rules.match import ranked_by
from ddz_rules.play.match_session import MatchSession, autoplay_match, open_game
from ddz_rules.play.session import Session, sidecar_path
from ddz_rules.records import read_record, replay, replay_match

from .conftest import FIXTURES
from .test_play import enter, message, pilot_test, play_hint

BEST_OF = str(FIXTURES / "variants" / "match-best-of-3.yaml")


def person_plays_deal(match: MatchSession) -> None:
    """The person plays the hint, the bots their choice, to the end of the current deal."""
    session = match.session
    while not session.over:
        session.run_bots()
        if not session.over:
            play_hint(session)


def throw_in(session: Session) -> None:
    """Every seat passes in the auction: the deal is thrown in."""
    while not session.over:
        if session.hand.to_act == session.seat:
            assert session.act("pass").ok
        else:
            session.apply_bot(PASS)
    assert session.hand.result is not None and session.hand.result.redeal


def scores_of(record: dict[str, Any]) -> list[list[int]]:
    return [h["result"]["scores"] for h in record["hands"]]


# --------------------------------------------------------------------------- the session


@pytest.mark.parametrize("ruleset", ["classic", "two-player", "four-player", BEST_OF])
def test_a_whole_match_has_totals_that_sum_its_hands_and_winners_by_match_ranked_by(
        ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = open_game(ruleset, seat=1, bots="standard", seed=4, save=str(path), match=True)
    assert isinstance(match, MatchSession)
    autoplay_match(match)
    assert match.over
    record = read_record(str(path))
    players = load(ruleset).players
    sums = [sum(scores[s] for scores in scores_of(record)) for s in range(players)]
    standing = match.standing()
    assert list(standing.totals) == sums == record["totals"]
    key = standing.totals if ranked_by(load(ruleset)) == "totals" else standing.hands_won
    assert list(standing.leaders) == [s for s in range(players) if key[s] == max(key)]
    assert record["winners"] == list(standing.leaders) and record["tie"] == standing.tie
    checked = replay_match(record, str(path))
    assert checked.valid and checked.outcome is not None
    assert checked.outcome.totals == standing.totals
    assert checked.outcome.winners == standing.leaders
    # every deal's seed comes from the match seed, and its dealer from match.rotation
    assert [h["seed"] for h in record["hands"]] == [
        match_deal_seed(4, 0, d) for d in range(len(record["hands"]))]
    assert [h["dealer"] for h in record["hands"]] == [h.dealer for h in match.state.hands]
    assert match.table()[-1].split()[-players:] == [f"{t:+d}" for t in sums]


@pytest.mark.parametrize(("ruleset", "counted", "dealer_after"), [
    ("classic", False, 1),  # match.redeal not_counted; rotation every_deal: the deal passes
    (BEST_OF, True, 0),  # match.redeal counted; rotation every_hand: the same dealer again
])
def test_a_thrown_in_deal_is_counted_and_dealt_again_as_match_redeal_and_rotation_say(
        ruleset: str, counted: bool, dealer_after: int, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = MatchSession.new(load(ruleset), seat=0, seed=7, save=path)
    throw_in(match.session)
    last = match.state.hands[-1]
    assert match.hand_over and not match.over and last.redeal and last.counted == counted
    assert match.state.counted == int(counted)
    assert "is dealt by seat" in match.progress_line()
    match.next_hand()
    deal = match.session.hand.deal
    assert (deal.dealer, deal.seed) == (dealer_after, match_deal_seed(7, 0, 1))
    autoplay_match(match)
    record = read_record(str(path))
    assert record["hands"][0]["result"]["redeal"] is True
    assert replay_match(record, str(path)).valid


def test_a_match_saved_mid_hand_resumes_exactly_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = MatchSession.new(load(BEST_OF), seat=1, bots="medium", seed=5, save=path)
    person_plays_deal(match)  # deal 1 played out
    assert json.loads(path.read_text()) == match.record()
    assert len(read_record(str(path))["hands"]) == 1
    match.next_hand()
    for _ in range(3):  # into deal 2: saved after every action, the deal in progress last
        match.session.run_bots()
        play_hint(match.session)
        saved = json.loads(path.read_text())
        assert saved == match.record() and len(saved["hands"]) == 2
        assert "result" not in saved["hands"][-1]
    match.session.run_bots()
    # a copy continues on its own, as the original does
    copy = tmp_path / "copy.json"
    shutil.copy(path, copy)
    shutil.copy(sidecar_path(path), sidecar_path(copy))
    resumed = MatchSession.resume(copy)
    assert (resumed.seat, resumed.bots, resumed.hint_level, resumed.seed) == (1, "medium",
                                                                              "medium", 5)
    assert resumed.record() == match.record()
    assert resumed.state.hands == match.state.hands
    assert resumed.session.view == match.session.view
    assert resumed.session.hint() == match.session.hint()
    assert resumed.totals_line() == match.totals_line()
    for game in (match, resumed):
        while not game.over:
            person_plays_deal(game)
            if not game.over:
                game.next_hand()
    assert resumed.record() == match.record()  # the bots played on exactly alike
    assert replay_match(read_record(str(copy)), str(copy)).valid


def test_a_match_saved_between_deals_resumes_at_the_next_deal(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = MatchSession.new(load("classic"), seat=0, seed=2, save=path)
    person_plays_deal(match)
    resumed = MatchSession.resume(path)
    assert resumed.hand_over and not resumed.over and resumed.deals == 1
    assert resumed.session.hand.result == match.session.hand.result
    resumed.next_hand()
    match.next_hand()
    assert resumed.session.view == match.session.view


def test_resuming_a_match_refuses_what_cannot_be_continued_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = MatchSession.new(load("classic"), seat=2, seed=3, save=path)
    person_plays_deal(match)
    match.next_hand()
    with pytest.raises(Exception, match="saved with seat 2"):
        MatchSession.resume(path, seat=0)
    record = read_record(str(path))
    hand = tmp_path / "hand.json"
    Session.new(load("classic"), seed=1, save=hand)
    tampered = [
        ({**record, "seed": None}, "match seed"),
        ({**record, "hands": [{**record["hands"][0], "dealer": 1, "seed": None},
                              record["hands"][1]]}, "match.rotation"),
        ({**record, "hands": [record["hands"][1], record["hands"][0]]}, "cannot be continued"),
    ]
    for number, (bad, words) in enumerate(tampered):
        other = tmp_path / f"bad{number}.json"
        other.write_text(json.dumps(bad))
        shutil.copy(sidecar_path(path), sidecar_path(other))
        with pytest.raises(Exception, match=words) as caught:
            MatchSession.resume(other)
        assert "\n" not in str(caught.value)
    with pytest.raises(Exception, match="holds one hand, not a match"):
        open_game("classic", resume=str(hand), match=True)
    with pytest.raises(Exception, match="keeps the seed"):
        open_game("classic", resume=str(path), seed=3)


# --------------------------------------------------------------------------- the command


def test_ddz_play_match_autoplay_prints_each_deal_and_the_standing_replay_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--match", "--autoplay", "-r", BEST_OF, "--seed", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    name = "ddz-play-match-best-of-3-match-seed2.json"
    assert out[0].startswith("match-best-of-3: a match (best of 3 hands") and "seed 2" in out[0]
    assert out[-1] == f"record: {name} (ddz replay {name} checks it)"
    record = read_record(name)
    deals = [line for line in out if re.match(r"^\s+\d+\s+\d+\s+", line)]
    assert len(deals) == len(record["hands"])
    shown = re.search(r"; totals (\[[-\d, ]+\])", out[-2])
    assert shown is not None and out[-2].startswith("result: ")
    assert "decided" not in out[-2]
    assert re.search(r"(wins, led alone from hand \d+ of \d+ on|a tie between .*); totals",
                     out[-2]) is not None
    assert main(["replay", name]) == 0
    replayed = capsys.readouterr().out.strip()
    assert replayed.startswith("valid match: ") and replayed.endswith(f"totals {shown[1]}")
    verdict = re.search(r"; (seat \d wins|a tie between .*?);", replayed)
    assert verdict is not None
    if verdict[1].startswith("seat"):
        assert out[-2].startswith(f"result: {verdict[1].split()[0]} {verdict[1].split()[1]} (")
    # resuming the finished match prints the same standing; --json has ddz match's fields
    assert main(["play", "--autoplay", "--resume", name, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["match"] is True and payload["over"] is True
    assert payload["totals"] == json.loads(shown[1]) == record["totals"]
    assert payload["winners"] == record["winners"]


def test_ddz_play_resume_continues_a_match_saved_mid_hand_to_a_valid_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    match = MatchSession.new(load(BEST_OF), seat=0, seed=9, save=Path("m.json"))
    match.session.run_bots()
    play_hint(match.session)
    assert main(["replay", "m.json"]) == 1  # unfinished: it says where it stops
    assert "stops before the hand ends" in capsys.readouterr().out
    Session.new(load("classic"), seed=1, save=Path("hand.json"))
    for argv, words in ((["--match", "--resume", "hand.json"], "holds one hand, not a match"),
                        (["--resume", "m.json", "--seed", "3"], "keeps the seed"),
                        (["--resume", "m.json", "--no-save"], "goes on saving to FILE"),
                        (["--resume", "m.json", "--seat", "2"], "saved with --seat 0")):
        assert main(["play", *argv, "--autoplay"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("ddz: error: ") and err.count("\n") == 1 and words in err, err
    assert main(["play", "--resume", "m.json", "--autoplay"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("record: m.json")
    assert main(["replay", "m.json"]) == 0
    assert capsys.readouterr().out.startswith("valid match: ")


#: What the options that only a server takes say without --serve.
SERVE_ONLY = "--host, --port, --games, --pace, --timer, --expire and --relink go with --serve"


@pytest.mark.parametrize(("argv", "words"), [
    (["--match", "--seed", str(2**63)], "--seed: a seed must be an integer between "
     "-(2**63 - 1) and 2**63 - 1"),
    (["--match", "--bots", "genius"], "--bots 'genius': unknown bot level"),
    (["--match", "--seat", "3"], "--seat 3: classic has seats 0 to 2"),
    (["--match", "--save", "x.json", "--no-save"], "--save and --no-save: choose one"),
    (["--port", "8000"], SERVE_ONLY),
    (["--host", "localhost"], SERVE_ONLY),
    (["--games", "g"], SERVE_ONLY),
    (["--pace", "0"], SERVE_ONLY),
    (["--serve", "--pace", "-1"], "--pace must be between 0 and 10 seconds, got -1"),
    (["--serve", "--pace", "11"], "--pace must be between 0 and 10 seconds, got 11"),
    (["--serve", "--save", "x.json"], "--save does not go with --serve"),
    (["--serve", "--bots", "genius"], "--bots 'genius': unknown bot level"),
    (["--serve", "--autoplay"], "--serve and --autoplay: choose one"),
    (["--serve", "--port", "0"], "--port must be between 1 and 65535, got 0"),
    (["--serve", "--port", "65536"], "--port must be between 1 and 65535, got 65536"),
    (["--serve", "--port", "http"], "invalid int value: 'http'"),
    (["--serve", "--host", " "], "--host is empty"),
])
def test_bad_values_of_match_and_serve_are_one_line_with_exit_2(
        argv: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    extra = ["--autoplay"] if "--serve" not in argv and "--match" in argv else []
    assert main(["play", *argv, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1 and words in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_serve_without_starlette_names_the_install_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "starlette", None)  # as if it were not installed
    assert main(["play", "--serve", "--games", str(tmp_path / "games")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "needs starlette and uvicorn: pip install 'ddz-rules[play]'" in err
    assert list(tmp_path.iterdir()) == []


def test_play_help_states_the_exit_codes_and_the_new_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit codes: 0 the hand or match was played" in text
    assert "2 a usage error" in text and "130 interrupted" in text
    for option in ("--match", "--serve", "--host H", "--port P", "--resume FILE"):
        assert option in text


# --------------------------------------------------------------------------- the app


def test_the_app_plays_two_deals_of_a_match_showing_the_running_totals(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = MatchSession.new(load(BEST_OF), seat=0, seed=5, save=path)

    async def body(app: Any, pilot: Any) -> None:
        totals = app.query_one("#totals")
        assert totals.display and "totals after 0 hands" in str(totals.render())
        for deal in (1, 2):
            assert f"deal {deal}, hand {deal}" in str(totals.render())
            moves = 0
            while not match.hand_over and moves < 60:
                hint = match.session.hint()
                await enter(app, pilot, "pass" if hint.action == PASS and
                            match.session.view.phase is Phase.PLAY else hint.text)
                moves += 1
            assert match.hand_over
            shown = str(totals.render())
            assert f"totals after {deal} hand" in shown
            for seat, total in enumerate(match.state.totals):
                assert f"seat {seat}{' (you)' if seat == 0 else ''} {total:+d}" in shown
            result = str(app.query_one("#result").render())
            assert match.totals_line() in result and "scores" in result
            log = "\n".join(str(line.text) for line in app.query_one("#log").lines)
            assert match.deal_line(deal - 1) in " ".join(log.split())
            if match.over:
                assert match.result_line() in result and str(path) in result
                await enter(app, pilot, "next")
                assert "the match is over" in message(app)
                return
            await enter(app, pilot, "")  # enter on an empty prompt deals the next deal
            assert match.deals == deal + 1 and not match.hand_over

    pilot_test(match, body)
    assert json.loads(path.read_text()) == match.record()


def test_the_app_continues_a_resumed_match_with_its_totals(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = MatchSession.new(load("classic"), seat=2, seed=11, save=path)
    person_plays_deal(match)
    match.next_hand()
    match.session.run_bots()
    resumed = MatchSession.resume(path)

    async def body(app: Any, pilot: Any) -> None:
        log = " ".join(str(line.text) for line in app.query_one("#log").lines)
        assert resumed.deal_line(0) in " ".join(log.split())
        assert resumed.totals_line() in str(app.query_one("#totals").render())
        await enter(app, pilot, "next")
        assert "still being played" in message(app)
        assert resumed.deals == 2

    pilot_test(resumed, body)


# --------------------------------------------------------------------------- served


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get(url: str, tries: int = 150) -> tuple[int, str, str]:
    """GET ``url``, retrying while the server starts (a bounded number of times)."""
    for _ in range(tries):
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return answer.status, answer.headers["Content-Type"], answer.read().decode()
        except (urllib.error.URLError, ConnectionError):
            import time

            time.sleep(0.1)
    raise AssertionError(f"{url} never answered")


def read_links(path: Path, tries: int = 300) -> list[str]:
    """The lines ``ddz play --serve`` prints once it serves (a bounded wait)."""
    import time

    for _ in range(tries):
        lines = path.read_text().splitlines()
        if any(line.startswith("lobby: ") for line in lines):
            return lines
        time.sleep(0.1)
    raise AssertionError(f"ddz play --serve printed no links: {path.read_text()!r}")


def test_ddz_play_serve_prints_the_links_and_plays_a_game_over_its_websocket(
        tmp_path: Path) -> None:
    from websockets.sync.client import connect

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    games = tmp_path / "games"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    out, err = (tmp_path / "serve.out").open("w"), (tmp_path / "serve.err").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "ddz_rules.cli", "play", "--serve", "-r", "two-player",
         "--port", str(port), "--seed", "5", "--games", str(games), "--pace", "0"],
        cwd=tmp_path, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    try:
        lines = read_links(tmp_path / "serve.out")
        seat = next(line for line in lines if line.startswith("seat 0: "))
        link = seat.removeprefix("seat 0: ")
        assert link.startswith(f"{url}/game/") and "?seat=0&token=" in link
        assert f"lobby: {url}/ (new tables, and replays of finished hands)" in lines
        status, kind, _ = get(f"{url}/api/rulesets")
        assert status == 200 and kind.startswith("application/json")
        game_id = link.removeprefix(f"{url}/game/").split("?")[0]
        # a second server on the same port: one line, exit 2
        taken = subprocess.run(
            [sys.executable, "-m", "ddz_rules.cli", "play", "--serve", "--port", str(port),
             "--games", str(tmp_path / "other")], cwd=tmp_path, env=env, capture_output=True,
            text=True, timeout=60)
        assert taken.returncode == 2 and taken.stderr.count("\n") == 1
        assert f"cannot listen on 127.0.0.1:{port}" in taken.stderr
        query = link.split("?", 1)[1]
        with connect(f"ws://127.0.0.1:{port}/ws/{game_id}?{query}") as ws:
            state = json.loads(ws.recv(timeout=60))["state"]
            while not state["your_turn"]:
                state = json.loads(ws.recv(timeout=60))["state"]
            ws.send(json.dumps({"type": "act", "action": "bogus"}))
            assert json.loads(ws.recv(timeout=60))["type"] == "refused"
            # far over the 4 KB a message may be: refused on the page, the socket kept open
            ws.send("x" * 200_000)
            big = json.loads(ws.recv(timeout=60))
            assert big["type"] == "refused" and "at most 4096 bytes" in big["reason"]
            word = state["words"][0]
            ws.send(json.dumps({"type": "act", "action": word}))
            after = json.loads(ws.recv(timeout=60))["state"]
            assert after["log"][-1] == f"seat 0 (you) says {word}"
        record = games / game_id / "hand-0.json"
        done = replay(read_record(str(record)), str(record))
        assert (0, word) in done.hand.auction.history
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()
            out.close()
            err.close()
    said = (tmp_path / "serve.out").read_text()
    assert code == 0, (said, (tmp_path / "serve.err").read_text())
    assert f"stopped serving on {url}" in said
