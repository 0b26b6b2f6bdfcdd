"""Replays in the browser (ddz_rules.play.web.replays) through the server's API: a record's
frames from the deal to the end with every hand open, its trick marks, a match's running
totals, a record's fault drawn where it comes, a table's saves offered only once over, and
every bad request refused in one line; and ``ddz replay FILE --serve`` wiring."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddz_rules import cards
from ddz_rules.cli import main
from ddz_rules.play.web.game import WebGame
from ddz_rules.play.web.replays import MAX_HELD, Replays
from ddz_rules.play.web.server import create_app
from ddz_rules.records import MAX_RECORD_BYTES, read_record, replay, replay_match
from ddz_rules.ruleset import bundled_ids, load_bundled
from ddz_rules.simulate import simulate

WEB = Path(__file__).parent / "fixtures" / "web"
HAND = WEB / "hand-marked-card.json"
MATCH = WEB / "match-classic.json"
JSON = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games", replay_files=[HAND, MATCH])) as test_client:
        yield test_client


def frames_of(client: TestClient, replay_id: str, hand: int = 0) -> dict[str, Any]:
    reply = client.get(f"/api/replays/{replay_id}/hands/{hand}")
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


def test_a_hand_record_steps_from_the_deal_to_its_result_with_every_hand_open(
        client: TestClient) -> None:
    record = read_record(str(HAND))
    done = replay(record, str(HAND))
    data = frames_of(client, "file-0")
    frames = data["frames"]
    assert data["fault"] is None
    assert len(frames) == 1 + len(record["auction"]) + len(record["plays"])
    assert frames[0]["open"] == [cards.key_text(cards.pack_ranks(cards.parse(h)))
                                 for h in record["deal"]["hands"]]
    assert all(f["seat"] is None and f["hand"] == [] for f in frames)  # nobody's own seat
    for frame in frames:  # the cards shown at the seats are what each seat holds then
        assert [len(h) for h in frame["open"]] == [s["cards_left"] for s in frame["seats"]]
    assert frames[-1]["result"]["scores"] == list(done.hand.result.scores)  # type: ignore
    assert frames[-1]["phase"] == "settled" and frames[0]["phase"] == "auction"
    assert frames[-1]["log"][-1] == frames[-1]["log"][-1].strip()
    assert len(frames[-1]["details"]) == len(frames[-1]["log"])  # the notation, line by line


@pytest.mark.parametrize("ruleset_id", bundled_ids())
def test_a_simulated_hand_of_every_bundled_ruleset_replays_to_its_result(
        ruleset_id: str, tmp_path: Path) -> None:
    simulate(load_bundled(ruleset_id), 1, 3, tmp_path)
    paths = sorted(tmp_path.glob(f"{ruleset_id}-*.json"))  # a deal thrown in is one too
    assert paths
    replays = Replays(None, paths)
    for number, path in enumerate(paths):
        data = replays.find(f"file-{number}").hand(0)
        frames = data["frames"]
        assert data["fault"] is None and frames[-1]["result"] is not None
        assert frames[-1]["result"]["scores"] == list(
            replay(read_record(str(path)), str(path)).hand.result.scores)  # type: ignore
        kitty = len(frames[-1]["kitty"] or "")
        held = [sum(len(h) for h in frame["open"]) for frame in frames]
        # cards only leave the hands, but for the kitty the landlord takes
        assert all(after <= before + kitty for before, after in pairwise(held))
        assert frames[-1]["open"] == frames[-1]["result"]["hands"]


def test_trick_marks_stop_at_the_auction_end_and_where_each_trick_is_won(
        client: TestClient) -> None:
    data = frames_of(client, "file-0")
    frames, marks = data["frames"], data["marks"]
    assert marks[0] == 0 and marks[-1] == len(frames) - 1
    assert frames[marks[1]]["phase"] != "auction" and frames[marks[1] - 1]["phase"] == "auction"
    won = marks[2:-1]
    assert won, "the hand has tricks"
    for at in won:  # the middle has just cleared: the trick won is the last one
        assert frames[at]["trick"] == [] and frames[at]["last_trick"]
        assert frames[at - 1]["trick"]
    tricks = sum(1 for i in range(1, len(frames)) if frames[i]["phase"] == "play"
                 and not frames[i]["trick"] and frames[i - 1]["trick"])
    assert len(won) == tricks


def test_a_match_record_steps_hand_by_hand_with_the_running_totals(client: TestClient) -> None:
    record = read_record(str(MATCH))
    summary = client.get("/api/replays/file-1").json()
    assert summary["match"] and summary["hands"] == len(record["hands"])
    assert summary["verdict"] == "valid" and summary["seats"] == record["seats"]
    before = [0] * len(record["totals"])
    for number in range(summary["hands"]):
        frames = frames_of(client, "file-1", number)["frames"]
        assert frames[0]["match"]["totals"] == before
        assert frames[0]["match"]["hand"] == number + 1
        before = frames[-1]["match"]["totals"]
    assert before == record["totals"] and frames[-1]["match"]["over"]
    assert replay_match(record, str(MATCH)).valid


def test_a_record_that_breaks_a_rule_is_drawn_up_to_its_fault(tmp_path: Path) -> None:
    record = json.loads(HAND.read_text())
    record["plays"][3] = record["plays"][1]  # cards already played
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    with TestClient(create_app(None, replay_files=[path])) as client:
        summary = client.get("/api/replays/file-0").json()
        data = frames_of(client, "file-0")
    assert summary["verdict"].startswith("invalid: ")
    index = len(record["auction"]) + 3
    assert data["fault"].startswith(f"action {index} ({record['plays'][3]}): ")
    assert len(data["frames"]) == index + 1  # the deal, then every action before the fault


def test_a_tables_save_is_offered_for_replay_only_once_its_hand_is_over(
        tmp_path: Path) -> None:
    ruleset = load_bundled("two-player")
    people, _ = WebGame.create(ruleset, ["human", "standard"], seed=3, games_dir=tmp_path)
    bots, _ = WebGame.create(ruleset, ["standard", "standard"], seed=4, games_dir=tmp_path)
    while bots.bot_step():
        pass
    replays = Replays(tmp_path)
    listed = {r["id"] for r in replays.listed()}
    assert listed == {f"{bots.id}.hand-0"}
    with pytest.raises(Exception, match="still being played"):
        replays.find(f"{people.id}.hand-0")
    frames = replays.find(f"{bots.id}.hand-0").hand(0)["frames"]
    assert frames[-1]["result"]["scores"] == list(bots.hand.result.scores)  # type: ignore


def test_the_replays_held_in_memory_are_bounded(tmp_path: Path) -> None:
    replays = Replays(None)
    raw = HAND.read_bytes()
    sent = [replays.add_sent(raw).id for _ in range(MAX_HELD + 3)]
    assert len(replays.held) == MAX_HELD and list(replays.held) == sent[3:]
    with pytest.raises(Exception, match="no such replay"):
        replays.find(sent[0])


def test_a_record_sent_from_the_lobby_opens_a_replay_page(client: TestClient) -> None:
    reply = client.post("/api/replays/new", content=HAND.read_bytes(), headers=JSON)
    assert reply.status_code == 201, reply.text
    page = reply.json()["page"]
    assert client.get(page).status_code == 200
    replay_id = page.rsplit("/", 1)[1]
    def drawn(replay_id: str) -> list[dict[str, Any]]:  # a frame names its replay
        return [{k: v for k, v in f.items() if k != "game"}
                for f in frames_of(client, replay_id)["frames"]]

    assert drawn(replay_id) == drawn("file-0")


@pytest.mark.parametrize(("body", "headers", "status", "words"), [
    (b"{}", {"content-type": "text/plain"}, 415, "takes a JSON body"),
    (b"{}", {**JSON, "origin": "http://elsewhere.example"}, 403, "may not drive a table"),
    (b" " * (MAX_RECORD_BYTES + 1), JSON, 400, f"over {MAX_RECORD_BYTES} bytes"),
    (b"not json", JSON, 400, "the record sent:1: not JSON"),
    (b"[" * 5000 + b"]" * 5000, JSON, 400, "the record sent"),
    (json.dumps({**json.loads(HAND.read_text()), "ruleset": "../../etc/x.yaml"}).encode(),
     JSON, 400, "a record sent from the lobby names a bundled ruleset"),
    # records that parse but cannot be opened are refused when sent, not when first shown
    (json.dumps({**json.loads(HAND.read_text()), "first_bidder": 7}).encode(),
     JSON, 400, "the record sent: field first_bidder"),
    (json.dumps({**json.loads(HAND.read_text()), "seed": 12345}).encode(),
     JSON, 400, "the record sent"),
])
def test_a_bad_record_sent_is_refused_in_one_line(client: TestClient, body: bytes,
                                                  headers: dict[str, str], status: int,
                                                  words: str) -> None:
    reply = client.post("/api/replays/new", content=body, headers=headers)
    assert reply.status_code == status, reply.text
    error = reply.json()["error"]
    assert words in error and "\n" not in error


@pytest.mark.parametrize(("url", "status", "words"), [
    ("/api/replays/file-9", 404, "no such replay"),
    ("/api/replays/nothing.hand-0", 404, "no such replay"),
    ("/api/replays/file-0/hands/1", 404, "the record has hands 0 to 0"),
    ("/api/replays/file-0/hands/x", 400, "is not a hand number"),
    ("/api/replays/file-0/hands/%C2%B2", 400, "is not a hand number"),
])
def test_an_unknown_replay_or_hand_is_refused_in_one_line(client: TestClient, url: str,
                                                          status: int, words: str) -> None:
    reply = client.get(url)
    assert reply.status_code == status and words in reply.json()["error"]
    assert client.get("/replay/file-9").status_code == 404


def test_replay_serve_prints_each_pages_link_and_serves_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    served: dict[str, Any] = {}

    def fake_serve(games: Path | None, host: str, port: int, announce: Any, pace: float,
                   files: list[Path]) -> None:
        served.update(games=games, host=host, port=port, pace=pace, files=files)
        announce(None)

    monkeypatch.setattr("ddz_rules.play.serve.serve", fake_serve)
    monkeypatch.setattr("ddz_rules.play.serve.check_address", lambda host, port: None)
    assert main(["replay", str(HAND), "--serve", "--port", "8123"]) == 0
    out = capsys.readouterr().out
    assert f"replay of {HAND.name}: http://127.0.0.1:8123/replay/file-0" in out
    assert served == {"games": None, "host": "127.0.0.1", "port": 8123, "pace": 0.0,
                      "files": [HAND]}


@pytest.mark.parametrize(("argv", "words"), [
    (["--port", "8000"], "--host and --port go with --serve"),
    (["--serve", "--port", "0"], "--port must be between 1 and 65535, got 0"),
])
def test_bad_replay_serve_options_are_one_line_with_exit_2(
        argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(HAND), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_replay_serve_of_a_file_that_is_not_a_record_is_refused_before_serving(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "junk.json"
    path.write_text("[1, 2")
    assert main(["replay", str(path), "--serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err


def test_replay_serve_of_a_record_whose_ruleset_cannot_be_read_is_refused_before_serving(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(HAND.read_text())
    record["ruleset"] = "no-such-ruleset"
    path = tmp_path / "orphan.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown ruleset 'no-such-ruleset'" in err
