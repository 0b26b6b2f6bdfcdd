"""A table's life among several people: the turn timer (the standard bot plays for someone
absent, or the next hand is dealt, said in a notice), a seat given a new link (the old one
stops), a table ended by its creator, and a finished table expiring; with the options of
``ddz play --serve`` that reach them."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddz_rules.cli import main
from ddz_rules.play.web.game import STAND_IN, WebGame, new_id
from ddz_rules.play.web.server import CLOSE_UNKNOWN, create_app
from ddz_rules.ruleset import load_bundled

TWO = load_bundled("two-player")
DAY = 24 * 3600.0


def person_and_bot(tmp_path: Path | None = None, timer: int | None = 30,
                   owner: str | None = None,
                   game_id: str | None = None) -> tuple[WebGame, dict[int, str]]:
    return WebGame.create(TWO, ["human", "standard"], seed=7, games_dir=tmp_path,
                          timer=timer, owner=owner, game_id=game_id)


def to_persons_turn(game: WebGame) -> None:
    while game.bot_step():
        pass


# --------------------------------------------------------------------------- the timer


def test_when_the_timer_runs_out_the_stand_in_bot_plays_the_persons_turn() -> None:
    game, _ = person_and_bot()
    to_persons_turn(game)
    seat, before = game.hand.to_act, len(game.hand.log)
    assert seat == 0 and game.awaits_person
    assert game.time_out(game.version)
    assert len(game.hand.log) == before + 1
    assert game.notices[-1].startswith(f"seat 0 took longer than 30 s: the {STAND_IN} bot "
                                       "played for them (")
    assert game.state(0)["notices"] == list(game.notices)


def test_a_timer_that_runs_out_after_the_person_acted_changes_nothing() -> None:
    game, tokens = person_and_bot()
    to_persons_turn(game)
    version = game.version
    assert game.act(0, tokens[0], {"type": "act", "action": game.words(0)[0]}).changed
    log = list(game.hand.log)
    assert not game.time_out(version)  # the turn it timed has been played
    assert game.hand.log == log and not game.notices


def test_when_the_timer_runs_out_on_a_result_the_next_hand_is_dealt() -> None:
    game, tokens = WebGame.create(TWO, ["human", "human"], seed=7, timer=30)
    while game.hand.result is None:  # both people let the timer play for them
        assert game.time_out(game.version)
    assert not game.awaits_person and not game.time_out(game.version)  # nobody asked yet
    assert game.number == 0 and game.hand.result is not None
    assert game.act(0, tokens[0], {"type": "next"}).changed
    assert game.awaits_person
    assert game.waiting_for() == [1]
    assert game.time_out(game.version)
    assert game.number == 1 and game.hand.result is None
    assert game.notices[-1] == "seat 1 did not ask for the next hand within 30 s: it is dealt"


@pytest.mark.parametrize("timer", [4, 3601, True, "30", 2.5])
def test_a_timer_outside_5_to_3600_whole_seconds_is_refused_in_one_line(timer: Any,
                                                                      tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        reply = client.post("/api/games", json={"ruleset": "two-player",
                                                "seats": ["human", "standard"],
                                                "timer": timer})
    assert reply.status_code == 400
    assert "a turn timer is whole seconds from 5 to 3600" in reply.json()["error"]
    assert list(tmp_path.iterdir()) == []


class Gate:
    """A ``sleep`` for the server whose turn timers run out at once, ``budget`` times, and
    then never (so that a table does not play on by itself for ever); paces pass at once."""

    def __init__(self, budget: int) -> None:
        self.budget = budget

    async def __call__(self, seconds: float) -> None:
        if seconds < 5:
            return
        if self.budget <= 0:
            await asyncio.Event().wait()
        self.budget -= 1


def test_a_served_table_plays_on_for_an_absent_person_and_says_so(tmp_path: Path) -> None:
    app = create_app(tmp_path, sleep=Gate(4))
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": "two-player", "timer": 20,
                                               "seats": ["human", "standard"], "seed": 7})
        assert made.status_code == 201
        path = "/ws/" + made.json()["links"]["0"].removeprefix("/game/")
        with client.websocket_connect(path) as ws:
            notices: list[str] = []
            while len(notices) < 4:
                state = ws.receive_json()["state"]
                assert state["timer"] == 20
                notices = state["notices"]
        game = app.state.tables.tables[made.json()["id"]].game
        record = json.loads((tmp_path / game.id / "hand-0.json").read_text())
    assert all("took longer than 20 s" in n for n in notices)
    # the stand-in's actions are saved like any other
    assert len(record["auction"]) + len(record["plays"]) >= 2


def test_a_state_says_how_long_is_left_on_the_timer(tmp_path: Path) -> None:
    now = [100.0]
    app = create_app(tmp_path, clock=lambda: now[0], sleep=Gate(0))
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": "two-player", "timer": 30,
                                               "seats": ["human", "human"], "seed": 7}).json()
        path = "/ws/" + made["links"]["0"].removeprefix("/game/")
        with client.websocket_connect(path) as ws:
            first = ws.receive_json()["state"]
            ws.send_json({"type": "act", "action": first["words"][0]} if first["your_turn"]
                          else {"type": "hint"})
            now[0] = 110.0
            state = client.get(made["links"]["0"].replace("/game/", "/api/games/", 1)
                               .replace("?", "/state?", 1)).json()
    assert state["timer"] == 30 and state["timer_left"] in (20, 30)


# --------------------------------------------------------------------------- new links


def test_a_seat_given_a_new_link_refuses_the_old_one(tmp_path: Path) -> None:
    game, tokens = person_and_bot(tmp_path)
    new = game.relink(0)
    loaded = WebGame.load(tmp_path / game.id)
    assert not loaded.check_token(0, tokens[0]) and loaded.check_token(0, new)
    assert game.act(0, tokens[0], {"type": "hint"}).forged
    with pytest.raises(Exception, match="seat 1 is not a person's"):
        game.relink(1)


@pytest.mark.parametrize(("game_id", "relink"), [
    (None, lambda which: ["--relink", which]),
    ("-older1234ab", lambda which: [f"--relink={which}"]),
], ids=["a-new-id", "a-saved-id-beginning-with-a-dash"])
def test_relink_at_start_prints_the_new_link_and_deals_no_new_table(
        game_id: str | None, relink: Callable[[str], list[str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    game, tokens = person_and_bot(tmp_path, game_id=game_id)
    monkeypatch.setattr("ddz_rules.play.serve.serve", lambda *a, **k: a[3](
        type("T", (), {"tables": {}, "damaged": {}, "ended": {}})()))
    monkeypatch.setattr("ddz_rules.play.serve.check_address", lambda host, port: None)
    assert main(["play", "--serve", "-r", "two-player", "--games", str(tmp_path),
                 *relink(f"{game.id}:0")]) == 0
    out = capsys.readouterr().out
    link = next(line for line in out.splitlines() if line.startswith("seat 0 of game"))
    token = link.rsplit("token=", 1)[1]
    loaded = WebGame.load(tmp_path / game.id)
    assert loaded.check_token(0, token) and not loaded.check_token(0, tokens[0])
    assert [p.name for p in tmp_path.iterdir()] == [game.id]


def test_a_new_game_id_never_begins_with_a_dash_which_a_command_line_reads_as_an_option(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter(["-AbC123xyz_0", "-Zz9-Zz9-Zz9", "AbC-123xyz_0"])
    monkeypatch.setattr("ddz_rules.play.web.game.secrets.token_urlsafe",
                        lambda n: next(drawn))
    assert new_id() == "AbC-123xyz_0"


def test_a_server_that_resumed_tables_says_how_to_give_a_seat_a_new_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from ddz_rules.play.web.server import Tables

    game, _ = person_and_bot(tmp_path)
    tables = Tables(tmp_path, 10)
    tables.add(game)
    monkeypatch.setattr("ddz_rules.play.serve.serve", lambda *a, **k: a[3](tables))
    monkeypatch.setattr("ddz_rules.play.serve.check_address", lambda host, port: None)
    assert main(["play", "--serve", "-r", "two-player", "--games", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"resumed: http://127.0.0.1:8000/game/{game.id} (people at seats 0)" in out
    assert ("a seat's new link (its old one then stops working): ddz play --serve --games "
            f"{tmp_path} --relink=ID:SEAT") in out


@pytest.mark.parametrize(("relink", "words"), [
    ("nothing", "--relink 'nothing': expected a game's id and a seat"),
    ("AbCdEf123:x", "expected a game's id and a seat"),
    ("AbCdEf123:0", "--relink AbCdEf123: no such game in"),
])
def test_a_bad_relink_is_one_line_with_exit_2(relink: str, words: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("ddz_rules.play.serve.check_address", lambda host, port: None)
    assert main(["play", "--serve", "--games", str(tmp_path), "--relink", relink]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


# --------------------------------------------------------------------------- ending


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def made_with_owner(client: TestClient) -> dict[str, Any]:
    reply = client.post("/api/games", json={"ruleset": "two-player",
                                            "seats": ["human", "standard"], "seed": 7})
    assert reply.status_code == 201
    return dict(reply.json())


def test_the_creator_ends_a_table_and_its_pages_are_told(client: TestClient,
                                                         tmp_path: Path) -> None:
    made = made_with_owner(client)
    end = made["end"]
    assert client.get(end).status_code == 200  # the page with the button
    owner = end.rsplit("owner=", 1)[1]
    path = "/ws/" + made["links"]["0"].removeprefix("/game/")
    with client.websocket_connect(path) as ws:
        ws.receive_json()
        wrong = client.post(f"/api/games/{made['id']}/end", json={"owner": "x" * 32})
        assert wrong.status_code == 403 and "only the table's creator" in wrong.json()["error"]
        done = client.post(f"/api/games/{made['id']}/end", json={"owner": owner})
        assert done.status_code == 200
        message = ws.receive_json()
        assert message == {"type": "refused",
                           "reason": "this table has ended: ended by its creator"}
        with pytest.raises(Exception) as closed:
            ws.receive_json()
        assert getattr(closed.value, "code", None) == CLOSE_UNKNOWN
    state = client.get(made["links"]["0"].replace("/game/", "/api/games/", 1)
                       .replace("?", "/state?", 1))
    assert state.status_code == 404
    assert state.json()["error"] == "this table has ended: ended by its creator"
    meta = json.loads((tmp_path / made["id"] / "game.json").read_text())
    assert meta["ended"] == "ended by its creator"


@pytest.mark.parametrize(("body", "headers", "status"), [
    ("{}", {"content-type": "text/plain"}, 415),
    ('{"owner": 1}', {"content-type": "application/json"}, 403),
    ("[[[", {"content-type": "application/json"}, 400),
    ("{}", {"content-type": "application/json", "origin": "http://other.example"}, 403),
])
def test_a_bad_request_to_end_a_table_changes_nothing(client: TestClient, body: str,
                                                      headers: dict[str, str],
                                                      status: int) -> None:
    made = made_with_owner(client)
    reply = client.post(f"/api/games/{made['id']}/end", content=body, headers=headers)
    assert reply.status_code == status and "\n" not in reply.json()["error"]
    assert client.get(made["watch"]).status_code == 200


def finished_table(tmp_path: Path) -> WebGame:
    game, _ = WebGame.create(TWO, ["standard", "standard"], seed=4, games_dir=tmp_path)
    while game.bot_step():
        pass
    assert game.finished
    return game


def test_a_finished_table_unchanged_past_the_expiry_is_ended_at_start(tmp_path: Path) -> None:
    old = finished_table(tmp_path)
    playing, _ = person_and_bot(tmp_path)
    app = create_app(tmp_path, now=lambda: time.time() + 2 * DAY)
    with TestClient(app) as client:
        reply = client.get(f"/api/games/{old.id}/state")
        assert reply.status_code == 404
        assert reply.json()["error"] == ("this table has ended: expired: over and unchanged "
                                         "for 1 day")
        assert client.get(f"/game/{playing.id}").status_code == 200
        listed = {r["id"] for r in client.get("/api/replays").json()}
        assert f"{old.id}.hand-0" in listed  # its hand can still be replayed
    assert json.loads((tmp_path / old.id / "game.json").read_text())["ended"].startswith(
        "expired")


def test_a_finished_table_expires_while_the_server_runs(tmp_path: Path) -> None:
    game = finished_table(tmp_path)
    now = [time.time()]
    app = create_app(tmp_path, now=lambda: now[0], expire_after=3600)
    with TestClient(app) as client:
        assert client.get(f"/game/{game.id}").status_code == 200
        now[0] += 2 * 3600
        page = client.get(f"/game/{game.id}")
        assert page.status_code == 404
        assert "expired: over and unchanged for 1 hour" in page.text


@pytest.mark.parametrize(("argv", "words"), [
    (["--serve", "--expire", "0"], "--expire must be more than 0 and at most 525600 minutes"),
    (["--serve", "--timer", "4"], "--timer 4: a turn timer is whole seconds from 5 to 3600"),
    (["--timer", "30"], "go with --serve"),
    (["--serve", "--timer", "30", "--relink", "x:0"], "--relink and --timer: choose one"),
])
def test_bad_table_options_are_one_line_with_exit_2(argv: list[str], words: str,
                                                    tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", *argv, "--games", str(tmp_path / "g")]
                if "--serve" in argv else ["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_table_put_away_to_make_room_has_its_timer_stopped(tmp_path: Path) -> None:
    from ddz_rules.play.web.server import Tables

    class Timer:
        cancelled = False

        def cancel(self) -> None:
            self.cancelled = True

    tables = Tables(tmp_path, 1)
    game, _ = person_and_bot(tmp_path)
    timer = Timer()
    tables.add(game).timer = timer  # type: ignore[assignment]
    assert tables.make_room() and game.id not in tables.tables
    assert timer.cancelled  # else it would act on this copy after the link reloads another
