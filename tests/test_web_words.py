"""The browser table speaks as people do (``ddz_rules.words`` in the table's state): the log,
the trick, each seat's last play, the auction's buttons and the reading chooser name plays
and words in words, never in the engine's notation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddz_rules import load
from ddz_rules.play.web.server import create_app
from ddz_rules.words import word_words

#: What the engine's notation looks like: a reading (pair/1/T), a named reading (@), ten as T.
NOTATION = re.compile(r"\w+/\d+/\w+|@|\bT\b|\(single|\(pair")


class Ticking:
    """A clock a second further on at every reading: the rate limit never meets this test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, clock=Ticking())) as test_client:
        yield test_client


def _play_out(client: TestClient, ruleset: str) -> list[dict[str, Any]]:
    """A hand of ``ruleset``, seat 0 a person taking every hint, the rest standard bots:
    every state seat 0 was sent."""
    seats = ["human"] + ["standard"] * (3 if ruleset == "four-player" else 2)
    if ruleset == "two-player":
        seats = seats[:2]
    made = client.post("/api/games", json={"ruleset": ruleset, "seats": seats, "seed": 11})
    assert made.status_code == 201, made.text
    path = "/ws/" + made.json()["links"]["0"].removeprefix("/game/")
    states: list[dict[str, Any]] = []
    asked: list[str] | None = None
    with client.websocket_connect(path) as ws:
        for _ in range(2000):
            message = ws.receive_json()
            if message["type"] == "state":
                states.append(message["state"])
                state = message["state"]
                if state["phase"] == "settled":
                    break
                if state["your_turn"] and state["log"] != asked:  # once a turn
                    asked = state["log"]
                    ws.send_json({"type": "hint"})
            elif message["type"] == "hint":
                assert not NOTATION.search(message["text"]), message
                hinted = message["action"]
                if hinted in states[-1]["words"]:
                    ws.send_json({"type": "act", "action": hinted})
                else:
                    cards, _, reading = hinted.partition("@")
                    ws.send_json({"type": "act", "play": cards,
                                  **({"reading": reading} if reading else {})})
            elif message["type"] == "refused":
                raise AssertionError(message)
            elif message["type"] == "readings":
                assert all(not NOTATION.search(o["text"]) for o in message["options"])
                ws.send_json({"type": "act", "action": message["options"][0]["notation"]})
    assert states[-1]["phase"] == "settled"
    return states


@pytest.mark.parametrize("ruleset", ["classic", "two-player", "four-player", "laizi"])
def test_the_log_trick_and_seats_name_plays_in_words(client: TestClient, ruleset: str) -> None:
    states = _play_out(client, ruleset)
    said = set()
    for state in states:
        for line in [*state["log"], state["aids"]["status"]]:
            assert not NOTATION.search(line), line
        for entry in state["trick"]:
            assert not NOTATION.search(entry["said"]), entry
            said.add(entry["said"])
        for seat in state["seats"]:
            if seat["last_said"] is not None:
                assert not NOTATION.search(seat["last_said"]), seat
        assert state["word_labels"] == [word_words(w) for w in state["words"]]
    assert said - {"pass"}, "some play was named"


def test_the_auction_buttons_read_bid_n(client: TestClient) -> None:
    made = client.post("/api/games", json={"ruleset": "classic", "seed": 3,
                                           "seats": ["human", "human", "human"]})
    links = made.json()["links"]
    for seat in "012":
        token = links[seat].split("token=")[1]
        state = client.get(f"/api/games/{made.json()['id']}/state",
                           params={"seat": seat, "token": token}).json()
        if state["your_turn"]:
            assert state["word_labels"] == [word_words(w) for w in state["words"]]
            assert set(state["word_labels"]) == {"bid 1", "bid 2", "bid 3", "pass"}
            return
    raise AssertionError("nobody was to bid")


@pytest.mark.parametrize("ruleset", ["classic", "two-player"])
def test_the_end_of_a_hand_has_a_banner_and_the_counter_shows_every_hand(
        client: TestClient, ruleset: str) -> None:
    final = _play_out(client, ruleset)[-1]
    score = final["result"]["scores"][0]
    banner = final["result"]["banner"]
    assert banner == (f"You won {score:+d}" if score > 0 else f"You lost {score:+d}")
    # every hand shown: only cards never dealt stay unseen
    assert sum(final["aids"]["unseen"].values()) == load(ruleset).undealt
    assert sum(line.startswith("  scores") for line in final["result"]["lines"]) == 1
