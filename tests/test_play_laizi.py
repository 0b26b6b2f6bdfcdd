"""``ddz play`` under wild cards (``laizi``: one wild rank drawn after the auction;
``laizi-two``: a sky rank drawn at the deal and an earth rank after the auction).

Every play the session reads, explains, names or lists is read with the hand's wild ranks; a
typed play holding wilds that reads several ways asks for its reading as ``marked-card``'s
do; the wild ranks are told as the seat knows them and marked in the hand; the aids, the
saved record, resuming and matches hold under wild cards. The hands are rigged where a test
needs a given wild play, seeded otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ddz_rules import cards, load
from ddz_rules.cards import RANK_INDEX
from ddz_rules.cli import main
from ddz_rules.game import PASS, Deal, Hand, Phase
from ddz_rules.play.match_session import MatchSession, autoplay_match, open_game
from ddz_rules.play.session import Session, stand_ins
from ddz_rules.records import read_record, replay, replay_match
from ddz_rules.table import Play

from .test_play import (
    enter,
    expected_unseen,
    finish,
    message,
    one_line,
    pilot_test,
    play_hint,
    record_text,
    screen_text,
)

FIVE = RANK_INDEX["5"]


def rigged(ruleset_id: str, mine: str, kitty: str, wild: str) -> Session:
    """A hand in which seat 0 (the person) holds ``mine``, bids first, and the kitty and the
    wild ranks (in the order drawn) are as given; the other cards go to seats 1 and 2."""
    ruleset = load(ruleset_id)
    held = cards.pack_ranks(cards.parse(mine))
    kitty_key = cards.pack_ranks(cards.parse(kitty))
    rest = cards.ranks_of(ruleset.deck_key - held - kitty_key)
    dealt = Deal((held, cards.pack_ranks(rest[:17]), cards.pack_ranks(rest[17:])), kitty_key,
                 0, dealer=2, first_bidder=0, wild=tuple(RANK_INDEX[c] for c in wild))
    return Session(Hand(ruleset, dealt), seat=0)


def holds_wild(play: Play, wild: tuple[int, ...]) -> bool:
    return any(cards.unpack(play.key)[r] for r in wild)


# --------------------------------------------------------------------------- the session


def test_a_typed_play_holding_a_wild_that_reads_several_ways_is_refused_until_a_reading_is_named(
        capsys: pytest.CaptureFixture[str]) -> None:
    session = rigged("laizi", "3335789TJQKA22224", "BR4", "5")
    outcome = session.act("3")  # the top bid: the person is the landlord and leads
    assert outcome.ok and outcome.message == (
        "you said 3; the wild rank is drawn: 5 — every 5 is wild this hand")
    assert session.view.phase is Phase.PLAY and session.view.wild == (FIVE,)
    before = record_text(session)
    listed = "3335@soft_bomb/1/3, 3335@trio_single/1/3"
    outcome = session.act("3335")
    assert not outcome.ok and outcome.message == (
        f"3335 reads 2 ways under laizi; name the reading: {listed}")
    assert [p.reading.short() for p in outcome.choices] == ["soft_bomb/1/3", "trio_single/1/3"]
    # a reading that names none of them: the refusal ddz classify gives, in one line
    outcome = session.act("3335@pair")
    main(["classify", "-r", "laizi", "--wild", "5", "3335@pair"])
    said = capsys.readouterr().err.strip()
    assert said.startswith("ddz: error: CARDS: ")
    assert outcome.message == f"refused: {said[len('ddz: error: CARDS: '):]}"
    assert listed in outcome.message
    # a card set that is no play, whatever the wild stands for: as ddz classify says it
    outcome = session.act("34B5")
    main(["classify", "-r", "laizi", "--wild", "5", "34B5"])
    said = capsys.readouterr().out.strip()
    assert "whatever the wild 5 stands for" in said and outcome.message == f"refused: {said}"
    for typed in ("3335@", "3335@soft_bomb/2", "55555", "5@bomb"):
        outcome = session.act(typed)
        assert not outcome.ok
        one_line(outcome.message)
    assert record_text(session) == before  # nothing was played
    outcome = session.act("3335@soft_bomb")
    assert outcome.ok and outcome.message == "you played 3335@soft_bomb/1/3 (wild for 3)"
    assert outcome.done == "seat 0 (you, landlord) plays 3335@soft_bomb/1/3 (wild for 3)"
    assert session.record()["plays"][0] == "3335@soft_bomb/1/3"
    finish(session)
    done = replay(session.record())
    assert done.valid and done.hand.result == session.hand.result


def test_a_play_holding_a_wild_answers_only_as_a_reading_that_beats() -> None:
    session = rigged("laizi", "3335789TJQKA22224", "BR4", "5")
    assert session.act("3").ok
    assert session.act("4").ok  # a single 4 to answer: 3335 no longer reads as a trio
    session.apply_bot(session.hand.table.play("6"))
    session.apply_bot(PASS)
    outcome = session.act("3335")  # only the soft bomb beats a single
    assert outcome.ok and outcome.message == "you played 3335@soft_bomb/1/3 (wild for 3)"
    assert session.hand.multiplier == 2  # a soft bomb doubles


def test_readings_that_differ_only_in_their_kickers_are_one_reading_to_name() -> None:
    """558T with 5 and 8 wild: a trio of 10s carrying the 5, or the 8, is one play (the engine
    keeps the lowest kickers); kickers never count."""
    wild = (FIVE, RANK_INDEX["8"])
    session = rigged("laizi-two", "558T3333666699992", "BR4", "58")
    assert session.act("3").ok and session.hand.wild == wild
    shorts = [r.short() for r in session.hand.table.readings(
        session.hand.table.key_of("558T"), wild)]
    assert shorts.count("trio_single/1/T") == 1
    outcome = session.act("558T")
    named = outcome.message.split(": ", 1)[1].split(", ")
    assert not outcome.ok and "558T@trio_single/1/T" in named
    assert len(named) == len(set(named)) == len(outcome.choices) == len(set(shorts))
    assert session.act("558T@trio_single/1/T").ok


def test_the_session_tells_the_wild_ranks_as_the_seat_knows_them_and_marks_them() -> None:
    session = rigged("laizi-two", "558T3333666699992", "BR4", "85")
    # the sky rank is drawn at the deal, the earth rank once the landlord takes the kitty
    assert session.wild_line() == ("wild: 8 (sky); the earth rank is drawn once the landlord "
                                   "takes the kitty")
    assert session.deal_lines() == ["the sky rank is drawn: 8 — every 8 is wild this hand"]
    assert session.hand_line() == ("your cards (17): 3 3 3 3 5 5 6 6 6 6 8* 9 9 9 9 10 2 "
                                   "(* wild)")
    outcome = session.act("3")
    assert outcome.done == ("seat 0 (you) says 3\nthe earth rank is drawn: 5 — every 5 is wild "
                            "this hand, as is every 8 (the sky rank)")
    assert session.wild_line() == "wild: 8 (sky), 5 (earth)"
    assert session.hand_line().startswith("your cards (20): 3 3 3 3 4 5* 5* 6 6 6 6 8* ")
    assert session.history() == ["the sky rank is drawn: 8 — every 8 is wild this hand",
                                 *outcome.done.split("\n")]
    one = rigged("laizi", "3335789TJQKA22224", "BR4", "5")
    assert one.wild_line() == "wild: the wild rank is drawn once the landlord takes the kitty"
    assert one.deal_lines() == [] and "*" not in one.hand_line()
    assert one.act("3").ok and one.wild_line() == "wild: 5"
    assert "5*" in one.hand_line() and one.hand_line().endswith("(* wild)")
    finish(one)
    lines = one.result_lines()
    assert lines[1].lstrip().startswith("base ") and "  wild: 5" in lines
    assert lines[-1].lstrip().startswith("scores ")
    assert Session.new(load("classic"), seat=0, seed=1).wild_line() is None


def test_a_thrown_in_laizi_deal_never_draws_the_wild_rank() -> None:
    session = Session.new(load("laizi"), seat=0, seed=1)
    while not session.over:
        if session.your_turn:
            assert session.act("pass").ok
        else:
            session.apply_bot(PASS)
    assert session.wild_line() == ("wild: the wild rank was never drawn: nobody took the hand")
    assert not any("drawn:" in line for line in session.history())


@pytest.mark.parametrize("ruleset", ["laizi", "laizi-two"])
def test_the_hint_names_the_reading_of_a_wild_play_and_the_counter_counts_wilds_as_their_rank(
        ruleset: str) -> None:
    session = Session.new(load(ruleset), seat=1, seed=11)
    wild_hints = 0
    while not session.over:
        assert [n for _, n in session.counter().ranks] == expected_unseen(ruleset, session)
        assert session.counts() == tuple(cards.size(h) for h in session.hand.hands)
        if session.bot_to_act:
            session.bot_step()
            continue
        hint = session.hint()
        assert hint.action in session.hand.legal_actions()
        if isinstance(hint.action, Play) and holds_wild(hint.action, session.view.wild):
            wild_hints += 1
            assert hint.text == (f"{hint.action.cards}@{hint.action.reading.short()}")
            note = stand_ins(session.ruleset, hint.action, session.view.wild)
            assert note and hint.reading.endswith(f"; {note}")
        play_hint(session)  # the hint's text plays as typed
    assert replay(session.record()).valid
    assert wild_hints or any("@" in p for p in session.record()["plays"])


def test_a_laizi_hand_resumed_after_the_wild_rank_is_drawn_plays_on_alike(
        tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    session = Session.new(load("laizi"), seat=2, bots="medium", seed=21, save=path)
    while session.view.landlord is None or len(session.view.plays) < 4:
        if session.bot_to_act:
            session.bot_step()
        else:
            play_hint(session)
    assert read_record(str(path))["deal"]["wild"] == cards.RANKS[session.hand.deal.wild[0]]
    resumed = Session.resume(path)
    assert resumed.hand.wild == session.hand.wild and resumed.view == session.view
    assert resumed.wild_line() == session.wild_line() == (
        f"wild: {cards.RANKS[session.hand.wild[0]].replace('T', '10')}")
    assert resumed.history() == session.history()
    assert any(line.startswith("the wild rank is drawn: ") for line in resumed.history())
    assert resumed.hand_line() == session.hand_line()
    assert resumed.counter() == session.counter()
    finish(session)
    finish(resumed)
    assert record_text(resumed) == record_text(session)  # the bots played on exactly alike
    assert replay(read_record(str(path)), str(path)).valid


# --------------------------------------------------------------------------- the command


def test_a_laizi_two_hand_autoplayed_replays_valid_with_every_wild_play_declared(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--autoplay", "-r", "laizi-two", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "  wild: 7 (sky), 3 (earth)\n" in out
    saved = "ddz-play-laizi-two-seed5.json"
    assert main(["replay", saved]) == 0
    assert capsys.readouterr().out.startswith("valid")
    record = read_record(saved)
    wild = tuple(RANK_INDEX[c] for c in record["deal"]["wild"])
    table = load("laizi-two")
    declared = 0
    for text in record["plays"]:
        if text == PASS:
            continue
        key = cards.pack_ranks(table.parse_cards(text.partition("@")[0]))
        if any(cards.unpack(key)[r] for r in wild):
            assert "@" in text, text  # every play with wilds names its reading
            declared += 1
    assert declared


def test_a_laizi_two_match_resumed_mid_deal_plays_out_and_replays_valid(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    match = open_game("laizi-two", seat=1, bots="standard", seed=4, save=str(path), match=True)
    assert isinstance(match, MatchSession)
    session = match.session
    while not (session.view.landlord is not None and session.view.plays):
        session.run_bots()
        play_hint(session)
    resumed = MatchSession.resume(path)  # mid-deal, after both wild ranks are drawn
    assert resumed.session.view == session.view and len(session.view.wild) == 2
    assert resumed.session.wild_line() == session.wild_line()
    assert resumed.session.history() == session.history()
    autoplay_match(resumed)
    record = read_record(str(path))
    assert resumed.over and replay_match(record, str(path)).valid
    assert all(len(hand["deal"]["wild"]) == 2 for hand in record["hands"])


# --------------------------------------------------------------------------- the app


def test_the_app_plays_a_laizi_hand_to_the_end_naming_a_wild_reading_from_the_list(
        tmp_path: Path) -> None:
    session = rigged("laizi", "3335789TJQKA22224", "BR4", "5")

    async def body(app: Any, pilot: Any) -> None:
        status = str(app.query_one("#status").render())
        assert "wild: the wild rank is drawn once the landlord takes the kitty" in status
        await enter(app, pilot, "3")
        assert "wild: 5" in str(app.query_one("#status").render())
        hand = str(app.query_one("#hand").render())
        assert " 5* " in hand and "* wild" in hand
        assert "the wild rank is drawn: 5 — every 5 is wild this hand" in screen_text(app)
        await enter(app, pilot, "3335")
        options = app.query_one("#readings")
        assert options.display and options.option_count == 2
        assert "name the reading" in message(app)
        shown = [str(options.get_option_at_index(i).prompt) for i in range(2)]
        assert shown == ["3335@soft_bomb/1/3  (wild for 3)",
                         "3335@trio_single/1/3  (wild as its own rank)"]
        await pilot.press("enter")  # the first: the soft bomb
        await app.settled(pilot)
        assert session.record()["plays"][0] == "3335@soft_bomb/1/3"
        moves = 0
        while not session.over and moves < 40:
            hint = session.hint()
            await enter(app, pilot, "pass" if hint.action == PASS else hint.text)
            moves += 1
        assert session.over
        result = str(app.query_one("#result").render())
        assert "scores" in result and "wild: 5" in result and "soft_bomb x2" in result

    pilot_test(session, body)
    assert replay(session.record()).valid
