"""``ddz play``: the session a person's seat plays through, and the Textual app over it.

Session tests need no Textual (the app tests are skipped without it); the app tests drive
whole hands headless with Textual's test pilot (``App.run_test()``), run with ``asyncio.run``
(no pytest plugin needed).
"""

from __future__ import annotations

import asyncio
import html
import json
import re
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
    open_session,
    sidecar_path,
    unseen,
)
from ddz_rules.records import read_record, replay


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


@pytest.mark.parametrize("ruleset", ["classic", "two-player"])
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
    with pytest.raises(Exception, match="saved with --seat 1"):
        Session.resume(path, seat=0)
    with pytest.raises(Exception, match="already exists"):
        Session.new(load("classic"), seat=1, seed=2, save=path)
    sidecar_path(path).write_text("{not json")
    with pytest.raises(Exception, match="not JSON"):
        Session.resume(path)
    sidecar_path(path).unlink()
    with pytest.raises(Exception, match="give --seat and --bots"):
        Session.resume(path)
    assert Session.resume(path, seat=1, bots="standard").seat == 1


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


def test_a_web_driver_needs_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from ddz_rules.play.app import require_terminal

    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    require_terminal()  # textual serve runs the app without a terminal
