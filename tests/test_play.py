"""``ddz play``: the session a person's seat plays through, and the Textual app over it.

Session tests need no Textual (the app tests are skipped without it); the app tests drive
whole hands headless with Textual's test pilot (``App.run_test()``), run with ``asyncio.run``
(no pytest plugin needed).
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import cards, load
from ddz_rules.cli import main
from ddz_rules.game import PASS, Deal, Hand, Phase
from ddz_rules.play.app import make_app, save_screenshot
from ddz_rules.play.session import (
    AIDS,
    Session,
    aids_of,
    autoplay,
    open_session,
    sidecar_path,
    unseen,
)
from ddz_rules.records import read_record, replay
from ddz_rules.table import Play


def needs_textual() -> None:
    pytest.importorskip("textual", reason="the play extra (Textual) is not installed")


def record_text(session: Session) -> str:
    return json.dumps(session.record(), sort_keys=True)


def play_hint(session: Session) -> None:
    """The person plays the hint (naming the reading where it is needed)."""
    outcome = session.act(session.hint().text)
    assert outcome.ok, outcome.message


def until_play(session: Session, leading: bool | None = None, limit: int = 200) -> None:
    """Play hints and bots until it is the person's turn in the play phase (leading or
    answering, as asked)."""
    for _ in range(limit):
        session.run_bots()
        assert not session.over, "the hand ended first"
        view = session.view
        if view.phase is Phase.PLAY and (leading is None or (view.to_beat is None) == leading):
            return
        play_hint(session)
    raise AssertionError("never reached")


def finish(session: Session) -> None:
    while not session.over:
        session.run_bots()
        if not session.over:
            play_hint(session)


def one_line(message: str) -> None:
    assert message and "\n" not in message and "Traceback" not in message


def make_landlord(session: Session, landlord: int) -> None:
    """Play the auction so that ``landlord`` bids 3 and every seat before him passes (the
    person's seat through the session, as typed)."""
    while session.view.phase is Phase.AUCTION:
        word = "3" if session.hand.to_act == landlord else PASS
        if session.hand.to_act == session.seat:
            assert session.act(word).ok
        else:
            session.apply_bot(word)
    assert session.hand.landlord == landlord


def move(session: Session, action: Play | str) -> None:
    """``action`` for the seat to act: typed by the person in theirs, applied in a bot's."""
    if session.hand.to_act == session.seat:
        text = action if isinstance(action, str) else session.hand.table.notation(action)
        outcome = session.act(text)
        assert outcome.ok, outcome.message
    else:
        session.apply_bot(action)


def lead_out(session: Session, seat: int) -> None:
    """``seat`` plays its largest play every time and every other seat passes, to the end."""
    while not session.over:
        if session.hand.to_act == seat:
            plays = [a for a in session.hand.legal_actions() if isinstance(a, Play)]
            move(session, max(plays, key=lambda p: (cards.size(p.key), p.reading.rank_index)))
        else:
            move(session, PASS)


def role_truth(session: Session, seat: int) -> str:
    """A seat's role from the hand itself (not from any view)."""
    hand = session.hand
    if hand.landlord is None:
        return ""
    return ("landlord" if seat == hand.landlord else "partner" if seat == hand.partner
            else "peasant")


# --------------------------------------------------------------------------- the session


def test_a_refused_action_gives_the_referees_reason_and_changes_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    session = Session.new(load("classic"), seat=0, seed=5)
    session.run_bots()
    assert session.view.phase is Phase.AUCTION and session.your_turn
    outcome = session.act("xyz")
    assert not outcome.ok and "auction" in outcome.message and "pass" in outcome.message
    until_play(session, leading=False)
    view = session.view
    before = record_text(session)
    mine = cards.unpack(view.hand)
    assert view.to_beat is not None
    # cards the seat does not hold
    absent = next(r for r in range(cards.NUM_RANKS) if mine[r] == 0 and load("classic").copies[r])
    outcome = session.act(cards.RANKS[absent])
    assert not outcome.ok and outcome.message.startswith("refused: you do not hold")
    # not card text, and a set that is no play: the reason ddz classify gives
    for typed in ("xyz", "bj", "", "3@nonsense", "x" * 500):
        outcome = session.act(typed)
        assert not outcome.ok
        one_line(outcome.message)
    held = [r for r in range(cards.NUM_RANKS) if mine[r]]
    pair = cards.RANKS[held[0]] + cards.RANKS[held[-1]]  # 3B: held, and no play
    outcome = session.act(pair)
    main(["classify", pair])
    said = capsys.readouterr().out.strip()
    assert "not a legal play" in said and outcome.message == f"refused: {said}"
    # a legal play that does not beat the play to beat: the reason ddz beats gives
    weakest = cards.RANKS[held[0]]
    outcome = session.act(weakest)
    main(["beats", weakest, session.hand.table.notation(view.to_beat)])
    said = capsys.readouterr().out.strip()
    assert said.startswith("no: ") and outcome.message == f"refused: {said[4:]}"
    assert record_text(session) == before
    assert session.act("pass").ok


def test_a_leader_may_not_pass_and_it_is_said() -> None:
    session = Session.new(load("classic"), seat=0, seed=5)
    until_play(session, leading=True)
    before = record_text(session)
    outcome = session.act("pass")
    assert not outcome.ok and "lead" in outcome.message
    assert record_text(session) == before


def test_not_your_turn_and_over_are_refused() -> None:
    session = Session.new(load("classic"), seat=0, seed=5)
    session.run_bots()
    other = Session(session.hand, seat=(session.seat + 1) % 3)
    assert not other.act("pass").ok
    finish(session)
    assert session.act("pass").message == "the hand is over"


@pytest.mark.parametrize("ruleset", ["classic", "two-player", "open-auction", "call-and-grab"])
def test_every_hint_is_a_legal_action(ruleset: str) -> None:
    session = Session.new(load(ruleset), seat=1, seed=11, hint_level="standard")
    hints = 0
    while not session.over:
        session.run_bots()
        if session.over:
            break
        hint = session.hint()
        assert hint.action in session.hand.legal_actions()
        assert hint.reading
        play_hint(session)
        hints += 1
    assert hints > 3


def expected_unseen(ruleset_id: str, session: Session) -> list[int]:
    """The deck, less the seat's cards, less every card played, less the kitty (once shown
    and not yet played by the landlord); undealt cards stay unseen."""
    ruleset = load(ruleset_id)
    hand = session.hand
    left = list(ruleset.copies)
    for rank, n in enumerate(cards.unpack(hand.hands[session.seat])):
        left[rank] -= n
    played_by: dict[int, list[int]] = {}
    for seat, play in hand.public_plays:
        if play is not None:
            for rank, n in enumerate(cards.unpack(play.key)):
                left[rank] -= n
                played_by.setdefault(seat, [0] * cards.NUM_RANKS)[rank] += n
    if hand.landlord is not None and hand.landlord != session.seat and ruleset.kitty_shown:
        played = played_by.get(hand.landlord, [0] * cards.NUM_RANKS)
        for rank, n in enumerate(cards.unpack(hand.deal.kitty)):
            left[rank] -= max(0, n - played[rank])
    return [left[r] for r in range(cards.NUM_RANKS) if ruleset.copies[r]]


@pytest.mark.parametrize("ruleset", ["classic", "two-player", "four-player"])
def test_the_counter_counts_the_unseen_cards_from_the_view(ruleset: str) -> None:
    session = Session.new(load(ruleset), seat=1, seed=3)
    undealt = load(ruleset).undealt
    checked = 0
    while True:
        counter = session.counter()
        assert [n for _, n in counter.ranks] == expected_unseen(ruleset, session)
        assert counter.undealt == undealt
        view = session.view
        others = sum(n for s, n in enumerate(view.hand_sizes) if s != session.seat)
        assert counter.in_hands <= others
        assert counter.total == counter.in_hands + counter.kitty + undealt
        assert counter.kitty == (load(ruleset).kitty if view.landlord is None else 0)
        if view.landlord is None or view.landlord == session.seat:
            assert counter.in_hands == others
        # the counter reads the view only: the same view gives the same numbers
        assert unseen(session.ruleset, view) == counter
        checked += 1
        if session.over:
            break
        if session.bot_to_act:
            session.bot_step()
        else:
            play_hint(session)
    assert checked > 10
    if undealt:
        assert session.counter().total >= undealt


def test_the_aids_read_the_view() -> None:
    session = Session.new(load("two-player"), seat=0, seed=4)
    assert session.advantage() is not None and "robs" in (session.advantage() or "")
    assert Session.new(load("classic"), seat=0, seed=4).advantage() is None
    until_play(session)
    assert session.counts() == session.view.hand_sizes
    assert session.auction_history() == session.view.auction
    assert "advantage" in (session.advantage() or "")
    finish(session)
    current, previous = session.trick()
    assert current or previous
    lines = session.result_lines()
    assert lines[1].lstrip().startswith("base ") and lines[-1].lstrip().startswith("scores ")
    assert aids_of("all") == AIDS and aids_of("none") == () and aids_of("hint,trick") == (
        "hint", "trick")


def test_autosave_and_resume_mid_hand_give_the_same_hand(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.new(load("classic"), seat=2, bots="medium", seed=21, save=path)
    assert read_record(str(path))["plays"] == []
    for _ in range(4):
        session.run_bots()
        play_hint(session)
        assert json.loads(path.read_text()) == session.record()  # saved after every action
    session.run_bots()
    resumed = Session.resume(path)
    assert (resumed.seat, resumed.bots, resumed.hint_level) == (2, "medium", "medium")
    assert record_text(resumed) == record_text(session)
    assert resumed.view == session.view and resumed.counter() == session.counter()
    assert resumed.hint() == session.hint()
    finish(session)
    finish(resumed)
    assert record_text(resumed) == record_text(session)  # the bots played on exactly alike
    assert replay(read_record(str(path)), str(path)).valid


def test_resume_refuses_other_seats_and_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    Session.new(load("classic"), seat=1, seed=2, save=path)
    with pytest.raises(Exception, match="saved with seat 1"):
        Session.resume(path, seat=0)
    with pytest.raises(Exception, match="already exists"):
        Session.new(load("classic"), seat=1, seed=2, save=path)
    sidecar_path(path).write_text("{not json")
    with pytest.raises(Exception, match="not JSON"):
        Session.resume(path)
    sidecar_path(path).unlink()
    with pytest.raises(Exception, match="give seat and bots"):
        Session.resume(path)
    assert Session.resume(path, seat=1, bots="standard").seat == 1


def test_a_resumed_game_plays_the_ruleset_its_record_names_and_refuses_another(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    Session.new(load("two-player"), seat=0, seed=2, save=path)
    assert main(["play", "--resume", str(path), "-r", "four-player", "--autoplay"]) == 2
    assert capsys.readouterr().err == ("ddz: error: --resume FILE plays the ruleset its record "
                                       "names; leave out --ruleset\n")
    assert main(["play", "--resume", str(path), "--autoplay"]) == 0
    assert "two-player" in capsys.readouterr().out


@pytest.mark.parametrize("ruleset", ["classic", "two-player", "marked-card", "turned-card",
                                     "happy", "no-kitty"])
def test_a_whole_hand_through_the_session_replays_valid(ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = open_session(ruleset, seat=0, bots="standard", seed=8, save=str(path))
    finish(session)
    while session.hand.result is not None and session.hand.result.redeal:
        session.next_deal()
        finish(session)
    assert replay(read_record(str(path)), str(path)).valid
    assert session.result_lines()


def test_a_play_with_several_readings_asks_for_one() -> None:
    ruleset = load("marked-card")
    mine = cards.pack_ranks(cards.parse("333444555666789TJ"))
    rest = ruleset.deck_key - mine
    ranks = cards.ranks_of(rest)
    other = (cards.pack_ranks(ranks[:17]), cards.pack_ranks(ranks[17:34]))
    kitty = cards.pack_ranks(ranks[34:])
    dealt = Deal((mine, *other), kitty, 0, dealer=2, first_bidder=0, marked_card=0)
    session = Session(Hand(ruleset, dealt), seat=0)
    assert session.act("3").ok  # the top bid: the person is the landlord, and leads
    assert session.view.phase is Phase.PLAY and session.view.to_act == 0
    outcome = session.act("333444555666")
    assert not outcome.ok and len(outcome.choices) == 3 and "name the reading" in outcome.message
    assert session.view.plays == ()
    chosen = outcome.choices[1]
    assert session.act(chosen).ok
    assert session.record()["plays"][0] == session.hand.table.notation(chosen)
    assert "@" in session.record()["plays"][0]
    finish(session)
    assert replay(session.record()).valid


# --------------------------------------------------------------------------- four players


@pytest.mark.parametrize("how", ["autoplay", "hints", "landlord-by-hints"])
def test_a_four_player_hand_through_the_session_replays_valid(how: str, tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = open_session("four-player", seat=1, bots="standard", seed=8, save=str(path))
    if how == "autoplay":
        autoplay(session)
    else:
        if how == "landlord-by-hints":  # the person is the landlord and calls as hinted
            make_landlord(session, 1)
            hint = session.hint()
            assert hint.action in session.hand.legal_actions()
            assert hint.text == "alone" or hint.text.startswith("call ")
            assert "joins you" in hint.reading or "alone" in hint.reading
            play_hint(session)
            assert session.view.phase is Phase.PLAY
        finish(session)
        while session.hand.result is not None and session.hand.result.redeal:
            session.next_deal()
            finish(session)
    done = replay(read_record(str(path)), str(path))
    assert done.valid and done.hand.result == session.hand.result
    result = session.hand.result
    assert result is not None and not result.redeal
    score = result.scores[1]
    first = session.result_lines()[0]
    assert f"({role_truth(session, 1)}) {'won' if score > 0 else 'lost'} {score:+d}" in first
    view = session.view
    history = session.history()
    assert len(history) == len(view.auction) + 1 + len(view.plays)  # the call is one line
    assert sum("joins the landlord" in line for line in history) == (result.partner is not None)


@pytest.mark.parametrize(("typed", "called"), [("call A", "A"), ("A", "A"), ("a", "A"),
                                               ("call 10", "T"), ("CALL  b", "B"),
                                               ("alone", None), ("Alone", None)])
def test_a_landlord_calls_a_partner_by_call_rank_a_bare_rank_or_alone(
        typed: str, called: str | None) -> None:
    session = Session.new(load("four-player"), seat=0, seed=4)
    make_landlord(session, 0)
    assert session.view.phase is Phase.CALL and session.your_turn
    assert session.partner_line() is None  # nothing is called yet
    outcome = session.act(typed)
    assert outcome.ok, outcome.message
    view = session.view
    assert view.phase is Phase.PLAY and view.to_act == 0
    assert view.called == (None if called is None else cards.RANK_INDEX[called])
    assert session.record()["partner_call"] == (called or "alone")
    if called is None:
        assert outcome.done == "seat 0 (you, landlord) plays alone"
        assert session.partner_line() == "seat 0 (you, landlord) plays alone"
    else:
        name = {"A": "A", "T": "10", "B": "small joker"}[called]
        article = {"A": "an A", "T": "a 10", "B": "a small joker"}[called]
        assert outcome.done == (f"seat 0 (you, landlord) calls {name}: the first other player "
                                f"to play {article} joins him")
        assert session.partner_line() == (f"called {name}: the first other player to play "
                                          f"{article} joins you")
    assert session.history()[-1] == outcome.done


def test_a_bad_call_word_is_refused_and_the_hand_is_unchanged() -> None:
    session = Session.new(load("four-player"), seat=0, seed=4)
    make_landlord(session, 0)
    before = record_text(session)
    for typed in ("xyz", "pass", "call", "call AA", "AA", "33", "call Z", "call A K", "1",
                  "call alone", "alone please", "3@single/1/3"):
        outcome = session.act(typed)
        assert not outcome.ok
        one_line(outcome.message)
        assert outcome.message.startswith(f"refused: {typed!r} is not a call here")
        assert "call RANK (or just RANK)" in outcome.message and "or alone" in outcome.message
    assert "call RANK" in session.act("  ").message
    assert not session.act(session.hand.table.play("3")).ok  # a play, not a call
    assert record_text(session) == before and session.view.phase is Phase.CALL
    assert session.act("call K").ok


def test_a_four_player_hand_saved_at_the_call_resumes_there(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = Session.new(load("four-player"), seat=3, seed=4, save=path)
    make_landlord(session, 3)
    resumed = Session.resume(path)  # the record holds no call yet
    assert resumed.view.phase is Phase.CALL and resumed.your_turn
    assert resumed.act("call K").ok and read_record(str(path))["partner_call"] == "K"
    again = Session.resume(path)
    assert again.view == resumed.view and again.history() == resumed.history()
    assert again.history()[-1] == ("seat 3 (you, landlord) calls K: the first other player to "
                                   "play a K joins him")


@pytest.mark.parametrize(("goes_out", "said"), [(0, "won"), (2, "lost")])
def test_the_partner_is_told_he_won_or_lost_with_the_landlords_side(
        goes_out: int, said: str) -> None:
    session = Session.new(load("four-player"), seat=0, seed=4)
    make_landlord(session, 1)
    ace = cards.RANK_INDEX["A"]
    assert cards.unpack(session.hand.hands[0])[ace] == 1
    assert session.apply_bot("call A") == ("seat 1 (landlord) calls A: the first other player "
                                           "to play an A joins him")
    low = cards.ranks_of(session.hand.hands[1])[0]
    assert low < ace
    assert session.apply_bot(session.hand.table.play(cards.RANKS[low])).startswith(
        "seat 1 (landlord) plays ")
    assert session.apply_bot(PASS) == "seat 2 (peasant) passes"
    session.apply_bot(PASS)
    assert session.partner_line() == ("called A: the first other player to play an A joins "
                                      "him; you hold 1, and a play with one makes you his partner")
    hint = session.hint()  # the hint says when its play would join the landlord
    joining = isinstance(hint.action, Play) and cards.unpack(hint.action.key)[ace] > 0
    assert ("it holds the called A: you join the landlord" in hint.reading) == joining
    outcome = session.act("A")
    assert outcome.ok and outcome.message.endswith("and joined the landlord as his partner")
    assert outcome.done == ("seat 0 (you, peasant) plays A (single/1/A) and joins the landlord "
                            "as his partner")
    assert [session.label(s) for s in range(4)] == [
        "seat 0 (you, partner)", "seat 1 (landlord)", "seat 2 (peasant)", "seat 3 (peasant)"]
    assert session.partner_line() == "called A: seat 0 (you, partner) joined the landlord"
    for _ in range(3):
        move(session, PASS)
    if goes_out == 2:  # the person leads low, seat 2 takes the trick and plays out
        move(session, session.hand.table.play(cards.RANKS[cards.ranks_of(
            session.hand.hands[0])[0]]))
        move(session, PASS)
        move(session, next(a for a in session.hand.legal_actions() if isinstance(a, Play)))
    lead_out(session, goes_out)
    result = session.hand.result
    assert result is not None and result.partner == 0 and result.landlord == 1
    score = result.scores[0]
    assert (score > 0) == (said == "won")
    first = session.result_lines()[0]
    winner = "the landlord's side wins" if said == "won" else "the peasants win"
    assert first == (f"landlord seat 1, called A, partner seat 0 (you), {winner}: you (partner) "
                     f"{said} {score:+d}")
    session.autoplay = True  # the command's autoplay line names the seat
    assert session.result_lines()[0].endswith(f": seat 0 (partner) {said} {score:+d}")
    history = session.history()
    assert history[-1].startswith(f"seat {goes_out} (")
    assert sum("joins the landlord" in line for line in history) == 1
    assert replay(session.record()).valid


def test_the_aids_count_four_seats_and_two_decks() -> None:
    session = Session.new(load("four-player"), seat=0, seed=4)
    mine = cards.unpack(session.view.hand)
    counter = session.counter()
    assert (counter.total, counter.in_hands, counter.kitty, counter.undealt) == (83, 75, 8, 0)
    assert dict(counter.ranks) == {cards.RANKS[r]: (2 if r >= cards.SMALL_JOKER else 8) - mine[r]
                                   for r in range(cards.NUM_RANKS)}
    make_landlord(session, 2)  # the kitty is shown: seat 2 holds its cards until he plays them
    trick: dict[int, Play | None] = {}
    steps = 0
    while True:
        hand = session.hand
        assert [n for _, n in session.counter().ranks] == expected_unseen("four-player", session)
        assert session.counts() == tuple(cards.size(h) for h in hand.hands)
        assert sum(session.counts()) + sum(cards.size(p.key) for _, p in hand.public_plays
                                           if p is not None) == 108
        current, previous = session.trick()
        opening = hand.phase is Phase.PLAY and hand.to_beat is None  # a lead is due
        if opening:  # the trick just won is the one before
            assert current == [] and {e.seat: e.play for e in previous} == trick
            trick = {}
        else:
            assert {e.seat: e.play for e in current} == trick
        assert [session.role(s) for s in range(4)] == [role_truth(session, s) for s in range(4)]
        steps += 1
        if session.over:
            break
        seat, phase = hand.to_act, hand.phase
        assert seat is not None
        if session.bot_to_act:
            session.bot_step()
        else:
            play_hint(session)
        if phase is Phase.PLAY:
            trick.pop(seat, None)
            trick[seat] = hand.public_plays[-1][1]
    assert steps > 40 and (previous or current)


# --------------------------------------------------------------------------- the command


def test_autoplay_plays_the_hand_out_and_the_record_replays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--autoplay", "-r", "two-player", "--seed", "6"]) == 0
    out = capsys.readouterr().out
    assert "scores" in out and "record: ddz-play-two-player-seed6.json" in out
    assert main(["replay", "ddz-play-two-player-seed6.json"]) == 0
    assert capsys.readouterr().out.startswith("valid")
    assert main(["play", "--autoplay", "-r", "two-player", "--seed", "6"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["play", "--autoplay", "--resume", "ddz-play-two-player-seed6.json",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["over"] is True


def test_play_without_textual_or_a_terminal_fails_fast_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert main(["play", "--seed", "1"]) == 2  # no terminal under pytest
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1 and "--autoplay" in err
    monkeypatch.setitem(sys.modules, "textual", None)  # as if it were not installed
    assert main(["play", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'ddz-rules[play]'" in err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize(("argv", "words"), [
    (["--resume", "{tmp}/nonexistent.json"], "nonexistent.json: cannot read file"),
    (["--resume", "{tmp}"], "is a directory"),
    (["--resume", "{tmp}/a.json", "--match"], "a.json: cannot read file"),
    (["-r", "{tmp}/nope.yaml"], "nope.yaml: cannot read file"),
    (["--seat", "7"], "--seat 7: classic has seats 0 to 2"),
    (["--bots", "nobody"], "--bots 'nobody': unknown bot level"),
    (["--seed", str(2 ** 70)], "--seed: a seed must be an integer between"),
    (["--save", "x.json", "--no-save"], "--save and --no-save: choose one"),
])
def test_every_input_is_checked_before_a_terminal_is_asked_for(
        argv: list[str], words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    needs_textual()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert main(["play", *(a.replace("{tmp}", str(tmp_path)) for a in argv)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ddz: error: ") and err.count("\n") == 1, err
    assert words in err and "terminal" not in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written


# --------------------------------------------------------------------------- the app


def pilot_test(session: Session, body: Callable[[Any, Any], Coroutine[Any, Any, None]],
               size: tuple[int, int] = (110, 40)) -> None:
    needs_textual()

    async def run() -> None:
        app = make_app(session, bot_delay=0.0)
        async with app.run_test(size=size) as pilot:
            await app.settled(pilot)
            await body(app, pilot)

    asyncio.run(run())


def screen_text(app: Any) -> str:
    """What the screen shows, as text (from Textual's SVG screenshot)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def message(app: Any) -> str:
    return str(app.query_one("#message").render())


async def enter(app: Any, pilot: Any, text: str) -> None:
    """Type ``text`` into the prompt (set at once: typing key by key is slow) and press
    enter, then wait for the bots."""
    app.query_one("#prompt").value = text
    await pilot.press("enter")
    await app.settled(pilot)


def test_the_app_shows_a_refusal_and_the_game_goes_on() -> None:
    session = Session.new(load("classic"), seat=0, seed=5)

    async def body(app: Any, pilot: Any) -> None:
        before = record_text(session)
        await pilot.press(*"xyz", "enter")  # typed key by key, as a person does
        await app.settled(pilot)
        assert "refused" in message(app) and "auction" in message(app)
        assert "refused: 'xyz' is not an auction word" in screen_text(app)
        for typed in ("", "@", "bj", "3@x", "\u2028x", "\x1b[2J", "\U0001d518" * 3, "9" * 300,
                      "hint", "?", "help", "new", "3 3 3 3 3"):
            await enter(app, pilot, typed)
            one_line(message(app))
        assert record_text(session) == before and app.is_running
        await enter(app, pilot, session.hint().text)
        assert record_text(session) != before

    pilot_test(session, body)


def test_the_app_refuses_a_play_that_does_not_beat_with_ddz_beats_reason() -> None:
    session = Session.new(load("classic"), seat=0, seed=5)
    until_play(session, leading=False)
    view = session.view
    assert view.to_beat is not None
    low = cards.RANKS[cards.ranks_of(view.hand)[0]]
    assert not session.hand.table.play(low).reading.beats(view.to_beat.reading)

    async def body(app: Any, pilot: Any) -> None:
        await pilot.press(*low, "enter")
        await app.settled(pilot)
        assert "does not rank higher than" in message(app) or "differ in type" in message(app)
        for typed in ("bj", "3@x", "ZZ", "", "p@", "2222222", "pass pass"):
            await enter(app, pilot, typed)
            one_line(message(app))
            assert session.view.to_act == 0 and session.view.plays == view.plays

    pilot_test(session, body)


def test_the_app_plays_a_whole_hand_typing_the_hint(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = Session.new(load("two-player"), seat=1, seed=9, save=path)

    async def body(app: Any, pilot: Any) -> None:
        moves = 0
        while not session.over and moves < 60:
            hint = session.hint()
            shown = str(app.query_one("#aid-hint").render())
            assert hint.text in shown  # the hint aid shows what the hint level chose
            await enter(app, pilot, "pass" if hint.action == PASS and
                        session.view.phase is Phase.PLAY else hint.text)
            moves += 1
        assert session.over and moves > 2
        result = str(app.query_one("#result").render())
        assert "scores" in result and "base" in result and str(path) in result

    pilot_test(session, body)
    assert replay(read_record(str(path)), str(path)).valid


def test_the_aids_switch_and_the_counter_on_screen_is_the_views() -> None:
    session = Session.new(load("classic"), seat=0, seed=5)

    async def body(app: Any, pilot: Any) -> None:
        counter = app.query_one("#aid-counter")
        assert counter.display
        shown = str(counter.render())
        for rank, n in session.counter().ranks:
            assert f"{'10' if rank == 'T' else rank}:{n}" in shown
        await pilot.press("f2")
        assert not counter.display and "counter off" in message(app)
        await pilot.press("f2")
        assert counter.display
        await pilot.press("f4")  # counts off: the seats lose their card counts
        assert "cards" not in str(app.query_one("#seats").render())
        await pilot.press("f5")
        assert not app.query_one("#aid-auction").display

    pilot_test(session, body)


def test_the_app_continues_a_resumed_hand(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = Session.new(load("classic"), seat=1, seed=13, save=path)
    for _ in range(3):
        session.run_bots()
        play_hint(session)
    resumed = Session.resume(path)

    async def body(app: Any, pilot: Any) -> None:
        assert "seat 1 (you)" in str(app.query_one("#seats").render())
        while not resumed.over:
            await enter(app, pilot, resumed.hint().text)
        assert "scores" in str(app.query_one("#result").render())

    pilot_test(resumed, body)
    assert replay(read_record(str(path)), str(path)).valid


def test_a_reading_is_named_from_the_list() -> None:
    ruleset = load("marked-card")
    mine = cards.pack_ranks(cards.parse("333444555666789TJ"))
    ranks = cards.ranks_of(ruleset.deck_key - mine)
    dealt = Deal((mine, cards.pack_ranks(ranks[:17]), cards.pack_ranks(ranks[17:34])),
                 cards.pack_ranks(ranks[34:]), 0, dealer=2, first_bidder=0, marked_card=0)
    session = Session(Hand(ruleset, dealt), seat=0)

    async def body(app: Any, pilot: Any) -> None:
        await enter(app, pilot, "3")
        await enter(app, pilot, "333444555666")
        options = app.query_one("#readings")
        assert options.display and options.option_count == 3
        assert "name the reading" in message(app)
        await pilot.press("down", "enter")
        await app.settled(pilot)
        assert "@" in session.record()["plays"][0]

    pilot_test(session, body)


def test_a_screenshot_is_saved(tmp_path: Path) -> None:
    needs_textual()
    session = Session.new(load("classic"), seat=0, seed=5)
    svg = save_screenshot(session, tmp_path / "play.svg", moves=2)
    assert "your cards" in svg.read_text(encoding="utf-8").replace("&#160;", " ")


ROOT = Path(__file__).resolve().parent.parent
PICTURE = ROOT / "docs" / "images" / "ddz-play.svg"


def test_the_readme_command_draws_the_committed_picture_byte_for_byte(tmp_path: Path) -> None:
    needs_textual()
    # the colour settings a user's shell may hold change nothing in the picture
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "TEXTUAL_THEME": "nord",
           "TEXTUAL_DIM_FACTOR": "10", "TEXTUAL_FILTERS": "dim"}
    drawn = tmp_path / "ddz-play.svg"
    subprocess.run([sys.executable, "-m", "ddz_rules.play.app", str(drawn)], env=env,
                   check=True, timeout=120)
    assert drawn.read_bytes() == PICTURE.read_bytes(), (
        "the picture is stale: python -m ddz_rules.play.app docs/images/ddz-play.svg, and "
        "check the README's sentence about it")


def test_the_readme_says_what_its_picture_shows() -> None:
    from ddz_rules.play.app import PICTURE_MOVES, PICTURE_SEED, PICTURE_TYPED

    shown = html.unescape(re.sub(r"<[^>]+>", "", PICTURE.read_text(encoding="utf-8")))
    refused = re.search(r"refused: (\S+) \(\S+\) does not rank higher than (\S+) ",
                        shown.replace("\xa0", " "))
    assert refused is not None and refused[1] == PICTURE_TYPED
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    words = {4: "four"}[PICTURE_MOVES]
    assert (f"a `classic` hand dealt with seed {PICTURE_SEED}, {words} of your moves each the "
            f"hint") in readme
    assert f"then a `{PICTURE_TYPED}` typed that does not beat the {refused[2]}." in readme


def test_a_thrown_in_deal_is_dealt_again(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = Session.new(load("classic"), seat=0, seed=1, save=path)
    while not session.over:  # everyone passes
        if session.your_turn:
            assert session.act("p").ok
        else:
            session.apply_bot(PASS)
    assert session.hand.result is not None and session.hand.result.redeal
    assert "thrown in" in session.result_lines()[0]
    assert replay(read_record(str(path)), str(path)).valid  # a thrown-in hand is a record too
    session.next_deal()
    assert (session.hand.deal.seed, session.hand.deal.dealer) == (2, 1)
    assert read_record(str(path))["seed"] == 2 and not session.over
    finish(session)
    assert replay(read_record(str(path)), str(path)).valid


def test_the_app_plays_a_four_player_hand_from_the_call_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = Session.new(load("four-player"), seat=0, seed=4, save=path)
    make_landlord(session, 0)  # the app opens on the person's call

    async def body(app: Any, pilot: Any) -> None:
        assert "your call: call RANK (or just RANK) or alone" in str(
            app.query_one("#status").render())
        await enter(app, pilot, "xyz")
        assert "is not a call here" in message(app) and session.view.phase is Phase.CALL
        await enter(app, pilot, "A")
        status = str(app.query_one("#status").render())
        assert "called A: the first other player to play an A joins you" in status or (
            session.view.joined is not None and "joined the landlord" in status)
        moves = 0
        while not session.over and moves < 80:
            hint = session.hint()
            await enter(app, pilot, "pass" if hint.action == PASS else hint.text)
            moves += 1
        assert session.over
        seats = str(app.query_one("#seats").render())
        for s in range(4):  # every seat with its role: landlord, partner, peasant
            role = role_truth(session, s)
            assert re.search(rf"seat {s}( \(you\))?\s+{role}\b", seats), (s, role, seats)
        result = str(app.query_one("#result").render())
        assert "scores" in result and "you (landlord)" in result and "called A" in result

    pilot_test(session, body, size=(110, 44))
    assert replay(read_record(str(path)), str(path)).valid


def test_a_web_driver_needs_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from ddz_rules.play.app import require_terminal

    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    require_terminal()  # textual serve runs the app without a terminal
