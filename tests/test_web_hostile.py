"""The browser table's server against hostile input: every input refused in one clear line
with no state changed and the socket kept open (whatever its depth, size or characters),
state-changing requests taken as JSON only and from this server's own pages, a damaged game
named with its reason and left untouched, a game whose files disagree refused, and no
traceback for a client's input."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddz_rules.play.serve import tables_lines
from ddz_rules.play.web.server import MAX_DEPTH, Tables, create_app

NESTED = "[" * 2000 + "]" * 2000


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def make(client: TestClient, seats: list[str] | None = None) -> dict[str, Any]:
    reply = client.post("/api/games", json={"ruleset": "two-player",
                                            "seats": seats or ["human", "human"], "seed": 7})
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def socket_path(made: dict[str, Any], seat: str = "0") -> str:
    return "/ws/" + made["links"][seat].removeprefix("/game/")


# --------------------------------------------------------------- depth, characters, size


@pytest.mark.parametrize("message", [
    NESTED,
    '{"type": "act", "action": ' + NESTED + "}",
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
])
def test_json_nested_too_deep_is_refused_on_the_socket_which_stays_open(
        client: TestClient, message: str) -> None:
    made = make(client)
    with client.websocket_connect(socket_path(made)) as ws:
        before = ws.receive_json()["state"]
        ws.send_text(message)
        reply = ws.receive_json()
        assert reply["type"] == "refused" and "\n" not in reply["reason"]
        assert f"nested deeper than {MAX_DEPTH} levels" in reply["reason"]
        ws.send_json({"type": "hint"})  # the socket answers on
        assert ws.receive_json()["type"] in ("hint", "refused")
    token = made["links"]["0"].split("token=")[1]
    after = client.get(f"/api/games/{made['id']}/state", params={"seat": 0, "token": token})
    assert after.json()["log"] == before["log"]


def test_json_nested_just_deep_enough_is_read() -> None:
    from ddz_rules.play.web.server import parse_message

    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_message(deep) is not None
    assert parse_message('{"a": "[[[[[[[[[[[[[[[[[[[[[[["}') == {"a": "[" * 23}


@pytest.mark.parametrize("body", [NESTED, '{"ruleset": "two-player", "seats": ' + NESTED + "}"])
def test_a_new_game_nested_too_deep_is_a_400_with_one_line(client: TestClient, body: str) -> None:
    reply = client.post("/api/games", content=body,
                        headers={"content-type": "application/json"})
    assert reply.status_code == 400
    assert reply.json()["error"].startswith(f"nested deeper than {MAX_DEPTH} levels")


@pytest.mark.parametrize("seat", ["%C2%B2", "%D9%A3", "%EF%BC%91", "-1", "1.0", "999"])
def test_a_seat_that_is_not_an_ascii_number_is_refused(client: TestClient, seat: str) -> None:
    made = make(client)
    reply = client.get(f"/api/games/{made['id']}/state?seat={seat}&token=x")
    assert reply.status_code == 400 and "is not a seat number" in reply.json()["error"]
    with client.websocket_connect(f"/ws/{made['id']}?seat={seat}&token=x") as ws:
        refused = ws.receive_json()
        assert refused["type"] == "refused" and "is not a seat number" in refused["reason"]
        assert ws.receive()["code"] == 4403


# --------------------------------------------------------------- JSON only, this site only


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_a_new_game_is_asked_for_in_json_only(client: TestClient, kind: str | None) -> None:
    body = json.dumps({"ruleset": "two-player", "seats": ["human", "human"]})
    headers = {"content-type": kind} if kind else {}
    reply = client.post("/api/games", content=body, headers=headers)
    assert reply.status_code == 415
    assert "this request takes a JSON body (application/json)" in reply.json()["error"]


def test_a_page_of_another_site_cannot_make_or_drive_a_table(client: TestClient) -> None:
    body = {"ruleset": "two-player", "seats": ["human", "human"]}
    foreign = client.post("/api/games", json=body, headers={"origin": "https://evil.example"})
    assert foreign.status_code == 403 and "evil.example" in foreign.json()["error"]
    own = client.post("/api/games", json=body, headers={"origin": "http://testserver"})
    assert own.status_code == 201
    made = own.json()
    with client.websocket_connect(socket_path(made),
                                  headers={"origin": "https://evil.example"}) as ws:
        assert ws.receive_json()["type"] == "refused"
        assert ws.receive()["code"] == 4403
    with client.websocket_connect(socket_path(made),
                                  headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_a_body_cut_off_is_answered_without_a_traceback(tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(tmp_path)
    sent: list[dict[str, Any]] = []
    incoming = [{"type": "http.request", "body": b'{"ruleset": ', "more_body": True},
                {"type": "http.disconnect"}]

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "raw_path": b"/api/games",
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "server": ("testserver", 80), "client": ("127.0.0.1", 1),
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")]}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400
    assert "Traceback" not in caplog.text


# ------------------------------------------------------------- damaged and disagreeing games


def _saved_game(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A games folder holding one game, made and saved by a server that then stopped."""
    with TestClient(create_app(tmp_path)) as client:
        made = make(client, ["human", "standard"])
    return tmp_path / made["id"], made


def _snapshot(folder: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every entry under ``folder`` (not following links): its kind and bytes or target."""
    seen: dict[str, tuple[str, bytes | str]] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            seen[name] = ("link", os.readlink(path))
        elif path.is_file():
            seen[name] = ("file", path.read_bytes())
        else:
            seen[name] = ("other", "")
    return seen


def _damage(kind: str, game: Path) -> None:
    meta = game / "game.json"
    if kind == "truncated":
        meta.write_bytes(meta.read_bytes()[:40])
    elif kind == "junk":
        meta.write_bytes(b"\x00\xff junk \x80" * 10)
    elif kind == "link to a system file":
        meta.unlink()
        meta.symlink_to("/etc/passwd")
    elif kind == "folder where the file belongs":
        meta.unlink()
        meta.mkdir()
    elif kind == "fifo where the file belongs":
        meta.unlink()
        os.mkfifo(meta)
    elif kind == "ruleset path outside":
        data = json.loads(meta.read_text())
        data["ruleset"] = "../../../../etc/ruleset.yaml"
        meta.write_text(json.dumps(data))
    elif kind == "record of another ruleset":
        record = next(game.glob("hand-*.json"))
        data = json.loads(record.read_text())
        data["ruleset"] = "classic"
        record.write_text(json.dumps(data))
    elif kind == "record missing":
        next(game.glob("hand-*.json")).unlink()
    else:  # pragma: no cover - every kind above is one of the parameters
        raise AssertionError(kind)


@pytest.mark.parametrize("kind", [
    "truncated", "junk", "link to a system file", "folder where the file belongs",
    "fifo where the file belongs", "ruleset path outside", "record of another ruleset",
    "record missing"])
def test_a_damaged_game_is_named_with_its_reason_and_left_untouched(tmp_path: Path,
                                                                    kind: str) -> None:
    game, made = _saved_game(tmp_path)
    _damage(kind, game)
    before = _snapshot(tmp_path)
    announced: list[str] = []
    app = create_app(tmp_path, announce=lambda tables: announced.extend(
        tables_lines(tables, "http://x", "")))
    with TestClient(app) as client:
        damaged = app.state.tables.damaged
        assert list(damaged) == [made["id"]] and "\n" not in damaged[made["id"]]
        assert announced == [f"not resumed: {made['id']}: {damaged[made['id']]}"]
        reply = client.get(f"/api/games/{made['id']}/state")
        assert reply.status_code == 404
        assert reply.json()["error"] == f"this game could not be resumed: {damaged[made['id']]}"
        page = client.get(f"/game/{made['id']}")
        assert page.status_code == 404 and "could not be resumed" in page.text
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            assert "could not be resumed" in ws.receive_json()["reason"]
        assert make(client)["id"] != made["id"]  # the server goes on making tables
    after = _snapshot(tmp_path)
    assert {name: after.get(name) for name in before} == before


def test_a_record_of_another_ruleset_says_the_files_disagree(tmp_path: Path) -> None:
    game, made = _saved_game(tmp_path)
    _damage("record of another ruleset", game)
    app = create_app(tmp_path)
    reason = app.state.tables.damaged[made["id"]]
    assert "the record is of ruleset 'classic', but game.json names 'two-player'" in reason
    assert "the files disagree" in reason


def test_a_starting_server_lists_the_tables_it_resumed_with_their_links(tmp_path: Path) -> None:
    _, made = _saved_game(tmp_path)
    _, other = _saved_game(tmp_path)
    shutil.copytree(tmp_path / other["id"], tmp_path / "broken-copy-1")
    announced: list[str] = []
    app = create_app(tmp_path, announce=lambda tables: announced.extend(
        tables_lines(tables, "http://h:1", other["id"])))
    with TestClient(app):
        pass
    assert announced[0] == f"resumed: http://h:1/game/{made['id']} (people at seats 0)"
    assert announced[1].startswith("not resumed: broken-copy-1: ")
    assert "field id" in announced[1]
    assert isinstance(app.state.tables, Tables)


# --------------------------------------------------------------------------- the cap


def test_past_the_cap_an_idle_table_is_put_away_and_comes_back_by_its_link(
        tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, max_games=2)) as client:
        first, second = make(client), make(client)
        third = make(client)  # the cap is memory's: the idle table unused longest goes
        tables = client.app.state.tables  # type: ignore[attr-defined]
        assert set(tables.tables) == {second["id"], third["id"]}
        token = first["links"]["0"].split("token=")[1]
        again = client.get(f"/api/games/{first['id']}/state",
                           params={"seat": 0, "token": token})
        assert again.status_code == 200 and again.json()["game"] == first["id"]
        assert set(tables.tables) == {first["id"], third["id"]}


def test_the_cap_refuses_a_new_table_only_while_every_table_is_in_use(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, max_games=2)) as client:
        one, two = make(client), make(client)
        with client.websocket_connect(socket_path(one)) as a, \
                client.websocket_connect(socket_path(two)) as b:
            a.receive_json()
            b.receive_json()
            full = client.post("/api/games", json={"ruleset": "two-player",
                                                   "seats": ["human", "human"]})
            assert full.status_code == 503 and "2 games in play" in full.json()["error"]
        assert make(client)["id"] not in (one["id"], two["id"])


def test_a_restarted_server_holds_the_games_played_last_within_the_cap(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        made = [make(client) for _ in range(3)]
    for age, game in enumerate(reversed(made)):  # the first made is the oldest save
        record = next((tmp_path / game["id"]).glob("hand-*.json"))
        os.utime(record, (1_000_000 - age, 1_000_000 - age))
    app = create_app(tmp_path, max_games=2)
    assert set(app.state.tables.tables) == {made[1]["id"], made[2]["id"]}
    with TestClient(app) as client:
        assert client.get(f"/api/games/{made[0]['id']}/state").status_code == 200
