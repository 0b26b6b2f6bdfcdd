"""The browser table's server (ddz_rules.play.web.server) under Starlette's TestClient: games
made over HTTP, states by seat, play over the websocket reaching every open page, and every
bad input refused while the server goes on answering."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddz_rules.play.web.server import MAX_MESSAGE, RATE, create_app


class FrozenClock:
    """A clock that moves only when told: the rate limit without the wall clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def client(tmp_path: Path, clock: FrozenClock) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, clock=clock)) as test_client:
        yield test_client


def make(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json={"ruleset": "two-player", "seats": seats,
                                            "seed": 7, **extra})
    assert reply.status_code == 201, reply.text
    return dict(reply.json())


def until_turn(ws: Any) -> dict[str, Any]:
    """States from the socket until one where the seat is to act (or the hand is over)."""
    while True:
        message = ws.receive_json()
        assert message["type"] == "state"
        state = message["state"]
        if state["your_turn"] or state["phase"] == "settled":
            return dict(state)


def test_rulesets_are_listed_and_a_game_is_made_with_a_link_per_human_seat(
        client: TestClient) -> None:
    listed = client.get("/api/rulesets").json()
    assert {"id": "two-player", "title": "Two-player Dou Dizhu", "players": 2} in listed
    made = make(client, ["human", "human"])
    assert set(made["links"]) == {"0", "1"} and made["watch"] == f"/game/{made['id']}"
    for seat, link in made["links"].items():
        token = link.split("token=")[1]
        state = client.get(f"/api/games/{made['id']}/state",
                           params={"seat": seat, "token": token}).json()
        assert state["seat"] == int(seat) and len(state["hand"]) == 17
    watch = client.get(f"/api/games/{made['id']}/state").json()
    assert watch["seat"] is None and watch["hand"] == []
    assert client.get(f"/api/games/{made['id']}/state",
                      params={"seat": 0, "token": "forged"}).status_code == 403
    assert client.get(f"/game/{made['id']}").status_code == 200


@pytest.mark.parametrize("body", [
    {"ruleset": "nope", "seats": ["human", "human"]},
    {"ruleset": "two-player", "seats": ["human"]},
    {"ruleset": "two-player", "seats": ["human", "grandmaster"]},
    {"ruleset": "two-player", "seats": ["human", "human"], "match": "yes"},
    {"ruleset": "two-player", "seats": ["human", "human"], "colour": 1},
    ["two-player"],
])
def test_a_bad_new_game_is_a_400_with_one_line(client: TestClient, body: Any) -> None:
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 400
    assert "\n" not in reply.json()["error"]


def test_an_unknown_game_is_404_everywhere(client: TestClient) -> None:
    assert client.get("/game/nosuchgame").status_code == 404
    assert client.get("/api/games/nosuchgame/state").status_code == 404
    with client.websocket_connect("/ws/nosuchgame") as ws:
        assert ws.receive_json()["type"] == "refused"


def test_a_move_over_one_socket_reaches_every_page_on_the_game(client: TestClient) -> None:
    made = make(client, ["human", "standard"])
    link = made["links"]["0"]
    path = "/ws/" + link.removeprefix("/game/").replace("?", "?", 1)
    with client.websocket_connect(path) as first, client.websocket_connect(path) as second, \
            client.websocket_connect(f"/ws/{made['id']}") as watcher:
        state = until_turn(first)
        assert until_turn(second) == state
        word = state["words"][0]
        first.send_json({"type": "act", "action": word})
        after_first = first.receive_json()["state"]
        after_second = second.receive_json()["state"]
        watched = watcher.receive_json()["state"]
        while len(watched["log"]) < len(after_first["log"]):
            watched = watcher.receive_json()["state"]
        assert after_first == after_second
        # the word said is the line after what the page showed (a bot may have answered it
        # before the state was sent)
        assert after_first["log"][len(state["log"])].endswith(f"says {word}")
        assert watched["hand"] == [] and watched["log"] == [
            line.replace(" (you)", "") for line in after_first["log"]]


def test_a_forged_token_is_refused_and_its_socket_closed(client: TestClient) -> None:
    made = make(client, ["human", "human"])
    with client.websocket_connect(f"/ws/{made['id']}?seat=0&token=forged") as ws:
        assert ws.receive_json()["type"] == "refused"
        closed = ws.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4403


def test_junk_oversized_and_flooding_messages_are_refused_and_the_server_answers_on(
        client: TestClient, clock: FrozenClock) -> None:
    made = make(client, ["human", "human"])
    path = "/ws/" + made["links"]["1"].removeprefix("/game/")
    with client.websocket_connect(path) as ws:
        ws.receive_json()
        for junk in ("not json", "[1, 2", '{"type": 3}', "x" * (MAX_MESSAGE + 1)):
            ws.send_text(junk)
            reply = ws.receive_json()
            assert reply["type"] == "refused" and "\n" not in reply["reason"]
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["type"] == "refused"
        clock.now = 10.0
        reasons = []
        for _ in range(RATE + 5):
            ws.send_json({"type": "hint"})
            reasons.append(ws.receive_json())
        flooded = [r for r in reasons if "messages a second" in r.get("reason", "")]
        assert len(flooded) == 5
        clock.now = 12.0
        ws.send_json({"type": "hint"})
        assert "messages a second" not in ws.receive_json().get("reason", "")
    assert client.get(f"/api/games/{made['id']}/state").status_code == 200


def test_games_are_resumed_when_a_server_starts_on_the_same_folder(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        made = make(client, ["human", "human"])
        path = "/ws/" + made["links"]["0"].removeprefix("/game/")
        token = made["links"]["0"].split("token=")[1]
        with client.websocket_connect(path) as ws:
            state = ws.receive_json()["state"]
        before = client.get(f"/api/games/{made['id']}/state",
                            params={"seat": 0, "token": token}).json()
    with TestClient(create_app(tmp_path)) as again:
        after = again.get(f"/api/games/{made['id']}/state",
                          params={"seat": 0, "token": token}).json()
    assert after == before and state["game"] == made["id"]


def test_the_bots_move_one_at_a_time_at_the_tables_pace(tmp_path: Path) -> None:
    waited: list[float] = []

    async def sleep(seconds: float) -> None:  # the pace without the wall clock
        waited.append(seconds)

    with TestClient(create_app(tmp_path, pace=0.7, sleep=sleep)) as paced:
        made = make(paced, ["human", "standard"])
        path = "/ws/" + made["links"]["0"].removeprefix("/game/")
        with paced.websocket_connect(path) as ws:
            state = until_turn(ws)
            bot_lines = [line for line in state["log"] if not line.startswith("seat 0")]
            assert waited == [0.7] * len(bot_lines)
            ws.send_json({"type": "act", "action": state["words"][0]})
            after = ws.receive_json()["state"]  # the person's move, sent before any bot's
            assert after["log"][-1].startswith("seat 0")
            state = until_turn(ws)
            moves = [line for line in state["log"] if not line.startswith("seat 0")]
            assert waited == [0.7] * len(moves) and moves
