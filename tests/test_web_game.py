"""The browser table's game (ddz_rules.play.web.game): seats and tokens, refusals that change
nothing, states that hold only what a seat may see, and a game resumed from its folder."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import cards
from ddz_rules.bots import make_bot
from ddz_rules.play.web.game import WebGame
from ddz_rules.records import read_record, replay, replay_match
from ddz_rules.ruleset import load
from ddz_rules.table import Play


def new_game(tmp_path: Path, seats: list[str], ruleset: str = "two-player", seed: int = 11,
             match: bool = False) -> tuple[WebGame, dict[int, str]]:
    return WebGame.create(load(ruleset), seats, match, seed, tmp_path)


def message_for(game: WebGame, seat: int) -> dict[str, Any]:
    """What the standard bot would send for ``seat``, as a page sends it."""
    action = make_bot("standard", game.ruleset).choose(game.hand.view(seat), random.Random(1))
    if isinstance(action, Play):
        return {"type": "act", "play": action.cards,
                "reading": game.hand.table.notation(action, game.hand.wild)
                if "@" in game.hand.table.notation(action, game.hand.wild) else None}
    return {"type": "act", "action": action}


def check_state_secret(game: WebGame) -> None:
    """Every seat's state holds its own cards only; the watcher's none; kitty as the rules say."""
    hand = game.hand
    over = hand.result is not None
    for seat in [*range(game.ruleset.players), None]:
        state = game.state(seat)
        text = json.dumps(state)
        mine = "" if seat is None else cards.key_text(hand.hands[seat])
        assert "".join(state["hand"]) == mine
        others = [cards.key_text(h) for s, h in enumerate(hand.hands)
                  if s != seat and cards.size(h) >= 5]
        if over:
            assert state["result"]["hands"] == [cards.key_text(h) for h in hand.hands]
        else:
            assert state["result"] is None
            assert not [h for h in others if h in text]  # no other seat's cards, in any form
        landlord = hand.landlord
        may_see = landlord is not None and (game.ruleset.kitty_shown or seat == landlord)
        assert state["kitty"] == (cards.key_text(hand.deal.kitty) if may_see else None)
        assert all(info["cards_left"] == cards.size(hand.hands[info["seat"]])
                   for info in state["seats"])


def play_out(game: WebGame, tokens: dict[int, str], check: bool = True) -> int:
    actions = 0
    while game.hand.result is None:
        if game.bot_to_act:
            list(game.bot_steps())
            continue
        seat = game.hand.to_act
        assert seat is not None
        reply = game.act(seat, tokens[seat], message_for(game, seat))
        assert reply.changed, reply
        actions += 1
        if check:
            check_state_secret(game)
    return actions


# --------------------------------------------------------------------------- a whole hand


def test_two_people_play_a_whole_two_player_hand_and_the_record_replays(tmp_path: Path) -> None:
    game, tokens = new_game(tmp_path, ["human", "human"])
    check_state_secret(game)
    assert play_out(game, tokens) > 0
    assert game.hand.result is not None
    record = read_record(str(game.record_path()))
    assert replay(record, str(game.record_path())).valid
    assert game.state(0)["can_next"] and not game.state(None)["can_next"]


def test_a_bot_seat_acts_between_the_people_and_each_step_is_a_new_version(
        tmp_path: Path) -> None:
    game, tokens = new_game(tmp_path, ["human", "standard", "human"], ruleset="classic")
    versions: list[int] = []
    while game.hand.result is None:
        if game.bot_to_act:
            versions += list(game.bot_steps())
            continue
        seat = game.hand.to_act
        assert seat is not None and game.seats[seat] == "human"
        assert game.act(seat, tokens[seat], message_for(game, seat)).changed
        check_state_secret(game)
    assert versions and versions == sorted(set(versions))
    assert replay(read_record(str(game.record_path())), str(game.record_path())).valid


def test_next_deals_again_and_a_match_is_saved_as_a_match_record(tmp_path: Path) -> None:
    game, tokens = new_game(tmp_path, ["human", "random"], match=True, seed=3)
    while True:
        play_out(game, tokens, check=False)
        assert game.match is not None
        if game.match.state.over:
            break
        assert game.act(0, tokens[0], {"type": "next"}).changed
    path = game.record_path()
    assert replay_match(read_record(str(path)), str(path)).valid
    assert game.state(0)["match"]["over"]


def test_the_next_hand_waits_until_every_person_has_seen_the_result(tmp_path: Path) -> None:
    game, tokens = new_game(tmp_path, ["human", "human"])
    play_out(game, tokens, check=False)
    ended = game.hand
    assert game.act(1, tokens[1], {"type": "next"}).changed
    assert game.hand is ended  # seat 0 has not asked yet: its result stays on its page
    assert game.state(1)["waiting_for"] == [0] and not game.state(1)["can_next"]
    assert game.state(0)["can_next"] and game.state(0)["result"] is not None
    assert "once seat 0 has seen the result" in game.state(1)["aids"]["status"]
    assert game.act(1, tokens[1], {"type": "next"}).changed  # asking twice changes nothing
    assert game.hand is ended
    assert game.act(0, tokens[0], {"type": "next"}).changed
    assert game.hand is not ended and game.hand.result is None
    assert game.state(0)["waiting_for"] == [] and game.ready == set()


# --------------------------------------------------------------------------- refusals


BAD = [
    ({"type": "act", "play": "NOT HELD"}, "do not hold"),
    ({"type": "act", "play": "56"}, "not a legal play"),
    ({"type": "act", "play": "xyz"}, ""),
    ({"type": "act", "action": "bid 9"}, "not a word you may say"),
    ({"type": "act"}, "not both"),
    ({"type": "act", "action": "pass", "play": "3"}, "not both"),
    ({"type": "dance"}, "unknown message type"),
    (["act"], "not a message"),
    ({"type": "act", "play": 33}, "card text"),
    ({"type": "act", "play": "3", "extra": 1}, "unknown field"),
]


def _to_play(tmp_path: Path) -> tuple[WebGame, dict[int, str], int]:
    game, tokens = new_game(tmp_path, ["human", "human"], seed=21)
    while game.hand.phase.value != "play":
        seat = game.hand.to_act
        assert seat is not None
        assert game.act(seat, tokens[seat], message_for(game, seat)).changed
    seat = game.hand.to_act
    assert seat is not None
    return game, tokens, seat


@pytest.mark.parametrize(("message", "reason"), BAD)
def test_a_bad_message_is_refused_in_one_line_and_changes_nothing(
        tmp_path: Path, message: Any, reason: str) -> None:
    game, tokens, seat = _to_play(tmp_path)
    if message == {"type": "act", "play": "NOT HELD"}:  # one card more of a rank than held
        mine = cards.unpack(game.hand.hands[seat])
        rank = next(r for r in game.ruleset.deck_ranks
                    if mine[r] < min(3, game.ruleset.copies[r]))
        message = {"type": "act", "play": cards.RANKS[rank] * (mine[rank] + 1)}
    before = (json.dumps(game.state(seat)), game.record_path().read_text(), game.version)
    reply = game.act(seat, tokens[seat], message)
    assert reply.kind == "refused" and not reply.forged
    text = reply.message["reason"]  # type: ignore[index]
    assert "\n" not in text and reason in text
    assert (json.dumps(game.state(seat)), game.record_path().read_text(),
            game.version) == before


def test_out_of_turn_forged_tokens_and_watchers_are_refused(tmp_path: Path) -> None:
    game, tokens, seat = _to_play(tmp_path)
    other = 1 - seat
    before = game.record_path().read_text()
    out_of_turn = game.act(other, tokens[other], {"type": "act", "action": "pass"})
    assert out_of_turn.kind == "refused" and "turn" in out_of_turn.message["reason"]  # type: ignore[index]
    for token in (tokens[other], "forged", "", None):
        assert game.act(seat, token, {"type": "act", "action": "pass"}).forged
    assert game.act(None, None, {"type": "hint"}).kind == "refused"
    assert game.act(None, tokens[seat], {"type": "hint"}).forged
    assert game.record_path().read_text() == before
    hint = game.act(seat, tokens[seat], {"type": "hint"})
    assert hint.kind == "hint" and hint.message["action"]  # type: ignore[index]


def test_a_wild_play_that_reads_several_ways_asks_for_its_reading(tmp_path: Path) -> None:
    game, tokens = WebGame.create(load("laizi"), ["human", "human", "human"], False, 0, tmp_path)
    for _ in range(400):
        while game.hand.phase.value != "play" and game.hand.result is None:
            seat = game.hand.to_act
            assert seat is not None
            game.act(seat, tokens[seat], message_for(game, seat))
        if game.hand.result is None:
            seat = game.hand.to_act
            assert seat is not None
            ambiguous = [a for a in game.hand.legal_actions() if isinstance(a, Play)
                         and "@" in game.hand.table.notation(a, game.hand.wild)
                         and len(game.hand.table.readings(a.key, game.hand.wild)) > 1]
            if ambiguous:
                play = ambiguous[0]
                reply = game.act(seat, tokens[seat], {"type": "act", "play": play.cards})
                assert reply.kind == "readings"
                options = reply.message["options"]  # type: ignore[index]
                assert len(options) > 1
                # offered in words, each distinct: "soft bomb of 3s", "three 3s and a 5"
                texts = [o["text"] for o in options]
                assert len(set(texts)) == len(texts)
                assert all("/" not in t and "_" not in t and "@" not in t for t in texts)
                done = game.act(seat, tokens[seat], {"type": "act", "play": play.cards,
                                                     "reading": options[0]["notation"]})
                assert done.changed
                return
            game.act(seat, tokens[seat], message_for(game, seat))
        else:
            game.act(0, tokens[0], {"type": "next"})
    pytest.fail("no play reading several ways came up")


# --------------------------------------------------------------------------- saving


def test_a_game_resumed_from_its_folder_mid_hand_equals_the_original(tmp_path: Path) -> None:
    game, tokens = new_game(tmp_path, ["human", "medium"], seed=5)
    for _ in range(6):
        if game.hand.result is not None:
            break
        if game.bot_to_act:
            next(game.bot_steps())
        else:
            seat = game.hand.to_act
            assert seat is not None
            game.act(seat, tokens[seat], message_for(game, seat))
    assert game.hand.result is None
    resumed = WebGame.load(tmp_path / game.id)
    for seat in (0, 1, None):
        assert resumed.state(seat) == game.state(seat)
    assert resumed.check_token(0, tokens[0]) and not resumed.check_token(0, "x")
    meta = json.loads((tmp_path / game.id / "game.json").read_text())
    assert tokens[0] not in json.dumps(meta)


def test_the_multiplier_counts_each_rob_as_it_is_said(tmp_path: Path) -> None:
    """Two-player robs double the stake the moment they are said, not only once the auction
    is over (the engine logs them as events then)."""
    game, tokens = new_game(tmp_path, ["human", "human"])
    first = game.hand.to_act
    assert first is not None
    second = 1 - first
    assert game.act(first, tokens[first], {"type": "act", "action": "call"}).kind != "refused"
    assert game.state(second)["multiplier"] == 1
    assert game.act(second, tokens[second], {"type": "act", "action": "rob"}).kind != "refused"
    assert game.hand.result is None and game.hand.landlord is None
    assert game.state(first)["multiplier"] == game.state(None)["multiplier"] == 2
    assert "x2" in game.state(first)["stake_line"]
