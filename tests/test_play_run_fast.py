"""``ddz play`` under Run Fast (``run-fast``, ``run-fast-15``): no landlord, no auction, every
player for himself. The session and the Textual app show who holds the lead card and leads,
refuse a pass or a play the play rules forbid with the engine's one-line reason, tell bombs
paid at once and the last-card warning, and end with who went out first, every seat's cards
left, shut-outs, liability and the scores; a match adds the hands up.

The stacked deal (``tests/fixtures/play/run-fast-stacked.json``) plays one scripted hand that
meets every one of those rules; seeded deals play whole hands with the hint and the bots.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ddz_rules import cards, duties, load
from ddz_rules.game import PASS, Deal, Hand, Phase
from ddz_rules.play.match_session import MatchSession, autoplay_match
from ddz_rules.play.session import Session, sidecar_path
from ddz_rules.records import read_record, replay, replay_match
from ddz_rules.ruleset import Ruleset
from ddz_rules.table import Play

FIXTURES = Path(__file__).parent / "fixtures" / "play"
RUN_FAST = ("run-fast", "run-fast-15")


def stacked() -> Session:
    """The stacked run-fast deal, the person in seat 0 (who holds the 3 of spades)."""
    data = json.loads((FIXTURES / "run-fast-stacked.json").read_text())
    ruleset = load(data["ruleset"])
    order = {card: i for i, card in enumerate(ruleset.suited_deck)}
    suited = tuple(tuple(sorted(held, key=order.__getitem__)) for held in data["hands"])
    keys = tuple(cards.pack_ranks([cards.parse_suited(c)[0] for c in held]) for held in suited)
    holder = next(seat for seat, held in enumerate(suited) if ruleset.lead_card in held)
    dealt = Deal(keys, 0, 0, dealer=data["dealer"], first_bidder=holder, suited=suited,
                 lead_card=ruleset.lead_card)
    return Session(Hand(ruleset, dealt), seat=0)


def refused(session: Session, typed: str) -> str:
    """Type ``typed``; it must be refused in one line, changing nothing. The message."""
    before = json.dumps(session.record(), sort_keys=True)
    outcome = session.act(typed)
    assert not outcome.ok and outcome.message.startswith("refused: ")
    assert "\n" not in outcome.message and "Traceback" not in outcome.message
    assert json.dumps(session.record(), sort_keys=True) == before
    return outcome.message


def typed(session: Session, text: str) -> str:
    outcome = session.act(text)
    assert outcome.ok, outcome.message
    return outcome.done


def bot(session: Session, text: str) -> str:
    """A scripted move in a bot's seat (the engine checks it is legal)."""
    assert session.hand.to_act != session.seat
    return session.apply_bot(PASS if text == PASS else session.hand.table.play(text))


def seat_with_lead_card(ruleset: Ruleset, seed: int) -> int:
    return Hand.new(ruleset, seed).deal.first_bidder


def play_out(session: Session, limit: int = 400) -> list[str]:
    """The person plays the hint, the bots their own choice, to the end; every status line of
    the person's turns."""
    statuses: list[str] = []
    for _ in range(limit):
        session.run_bots()
        if session.over:
            return statuses
        statuses.append(session.play_status())
        hint = session.hint()
        assert session.act("pass" if hint.action == PASS else hint.text).ok
    raise AssertionError("the hand never ended")


# --------------------------------------------------------------------------- the session


@pytest.mark.parametrize("ruleset_id", RUN_FAST)
def test_a_hand_starts_in_play_with_the_lead_card_holder_to_lead(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    for seed in range(4):
        session = Session.new(ruleset, seat=0, seed=seed)
        view, deal = session.view, session.hand.deal
        assert view.landlord is None and view.phase is Phase.PLAY and view.auction == ()
        leader = view.to_act
        assert leader == deal.first_bidder and deal.lead_card in deal.suited[leader]
        name = cards.suited_name(deal.lead_card)
        line = session.lead_line()
        assert line is not None and name in line and "lead" in line
        assert (line.startswith("you hold") if leader == 0 else
                line.startswith(f"seat {leader} holds"))
        assert session.history() == [line] and line in session.duty_lines()
        notes = [session.seat_note(s) for s in range(3)]
        assert notes[leader] == "leads" and notes.count("") == 2
        assert not any(n in ("landlord", "peasant") for n in notes)


def test_the_stacked_hand_through_the_session_shows_every_rule() -> None:
    session = stacked()
    ruleset = session.ruleset
    assert session.view.to_act == 0
    assert "3 of spades" in session.play_status()

    # the first play must hold the lead card
    why = refused(session, "45678")
    assert "first play must contain the lead card" in why and why.startswith(
        "refused: you may not play 45678: ")

    # the bomb is paid at once, and nobody can answer it
    line = typed(session, "3333")
    assert "a bomb, paid at once: 10 from each other seat" in line
    assert session.hand.bombs_paid and "bombs paid at once: seat 0 (you), bomb: 10 from each " \
        "other seat" in session.duty_lines()
    assert session.hand.legal_actions() == [PASS]  # seat 1 can beat nothing
    bot(session, PASS)
    bot(session, PASS)

    # a trio goes only last; the leader may not pass
    why = refused(session, "JJJ")
    assert "may be played only as a player's last play" in why
    assert "lead this trick and may not pass" in refused(session, "pass")
    typed(session, "45678")
    bot(session, PASS)
    bot(session, PASS)
    typed(session, "KK")
    assert session.hand.legal_actions() != [PASS] and PASS not in session.hand.legal_actions()
    bot(session, "AA")
    bot(session, PASS)
    assert session.play_status().startswith("your play: nothing you may play beats AA")
    typed(session, "pass")
    bot(session, "Q")
    bot(session, PASS)

    # must beat: the pass is refused with the engine's reason, naming the play that beats
    assert "you must (play.must_beat)" in session.play_status()
    answers = [a for a in session.hand.legal_actions() if isinstance(a, Play)]
    reason = duties.pass_refusal(ruleset, answers)
    assert reason is not None and "with 2" in reason
    assert refused(session, "pass") == f"refused: you may not pass: {reason}"
    assert refused(session, "p") == f"refused: you may not pass: {reason}"
    typed(session, "2")
    bot(session, PASS)
    bot(session, PASS)
    typed(session, "JJJ9")  # a trio with one card may go out
    assert session.over

    result = session.hand.result
    assert result is not None and result.winner == "first_out" and result.landlord is None
    lines = session.result_lines()
    assert lines[0] == f"you went out first and won {result.scores[0]:+d}"
    assert lines[1] == "  cards left: " + ", ".join(
        f"seat {s}{' (you)' if s == 0 else ''} {n}" for s, n in enumerate(result.cards_left))
    assert result.cards_left == (0, 13, 16) and result.shut_out == (2,)
    assert f"shut out (never played a card, pays {ruleset.shut_out} times as much): seat 2" \
        in lines[2]
    assert "bombs paid at once: seat 0 (you), bomb: 10 from each other seat" in lines[3]
    assert lines[-1] == f"  scores {list(result.scores)}" and sum(result.scores) == 0
    assert not any("landlord" in line or "peasant" in line or "multiplier" in line
                   for line in lines + session.history())


def test_a_low_single_to_a_warned_player_is_refused_where_the_warning_forces_the_highest(
        ) -> None:
    ruleset = load("run-fast")
    seen = False
    for seed in range(30):
        session = Session.new(ruleset, seat=0, seed=seed)
        while not session.over:
            session.run_bots()
            if session.over:
                break
            view = session.view
            if view.hand_sizes[1] == 1:  # seat 1 plays after the person
                warning = [line for line in session.duty_lines() if "seat 1 holds one card" in line]
                assert warning and "play.last_card_warning" in warning[0]
                top = duties.highest_rank(view.hand)
                table = session.hand.table
                low = [r for r in cards.ranks_of(view.hand) if r != top and (
                    view.to_beat is None
                    or table.play(cards.RANKS[r]).reading.beats(view.to_beat.reading))]
                if view.to_act == 0 and low:
                    why = refused(session, cards.RANKS[low[0]])
                    assert "the next player holds one card, so a single must be of your " \
                        "highest rank" in why
                    seen = True
            hint = session.hint()
            assert session.act("pass" if hint.action == PASS else hint.text).ok
        if seen:
            break
    assert seen


def test_a_warned_player_and_liability_are_told_under_run_fast_15() -> None:
    ruleset = load("run-fast-15")
    warned = liable = False
    for seed in range(40):
        session = Session.new(ruleset, seat=0, seed=seed, hint_level="random", bots="random")
        while not session.over:
            session.run_bots()
            if session.over:
                break
            for seat, size in enumerate(session.view.hand_sizes):
                if size == 1:
                    line = next(x for x in session.duty_lines() if f"seat {seat}" in x
                                and "holds one card" in x)
                    assert "scoring.liability" in line and "last_card_warning" not in line
                    warned = True
            hint = session.hint()
            assert session.act("pass" if hint.action == PASS else hint.text).ok
        result = session.hand.result
        assert result is not None and sum(result.scores) == 0
        if result.liable is not None:
            text = "\n".join(session.result_lines())
            assert f"liable: seat {result.liable}" in text and "pays for everyone" in text
            liable = True
        if warned and liable:
            break
    assert warned and liable


@pytest.mark.parametrize("ruleset_id", RUN_FAST)
def test_a_whole_hand_is_saved_with_its_first_out_result(ruleset_id: str,
                                                         tmp_path: Path) -> None:
    ruleset = load(ruleset_id)
    seed = 7
    path = tmp_path / "hand.json"
    session = Session.new(ruleset, seat=seat_with_lead_card(ruleset, seed), seed=seed,
                          save=path)
    statuses = play_out(session)
    assert statuses[0].startswith("your play: you lead the first trick: your play must hold")
    result = session.hand.result
    assert result is not None and sum(result.scores) == 0
    saved = json.loads(path.read_text())
    assert saved["result"]["winner"] == "first_out"
    assert saved["result"]["first_out"] == result.first_out
    assert saved["result"]["cards_left"] == list(result.cards_left)
    assert saved["auction"] == [] and saved["deal"]["kitty"] == ""
    assert json.loads(sidecar_path(path).read_text())["seat"] == session.seat
    lines = session.result_lines()
    assert "went out first" in lines[0] and lines[1].startswith("  cards left: ")
    assert lines[-1] == f"  scores {list(result.scores)}"
    checked = replay(read_record(str(path)), str(path))
    assert checked.valid and checked.hand.result == result


@pytest.mark.parametrize("ruleset_id", RUN_FAST)
def test_a_hand_saved_mid_play_resumes_where_it_stopped(ruleset_id: str,
                                                        tmp_path: Path) -> None:
    ruleset = load(ruleset_id)
    path = tmp_path / "hand.json"
    session = Session.new(ruleset, seat=1, seed=12, save=path)
    for _ in range(2):
        session.run_bots()
        hint = session.hint()
        assert session.act("pass" if hint.action == PASS else hint.text).ok
    assert not session.over and session.view.plays
    resumed = Session.resume(path)
    assert resumed.seat == 1 and resumed.view == session.view
    assert resumed.history() == session.history()
    assert resumed.history()[0] == session.lead_line()
    play_out(resumed)
    play_out(session)
    assert resumed.hand.result == session.hand.result


@pytest.mark.parametrize("ruleset_id", RUN_FAST)
def test_a_match_adds_up_the_hands_and_counts_the_first_out_as_the_winner(
        ruleset_id: str, tmp_path: Path) -> None:
    ruleset = load(ruleset_id)
    match = MatchSession.new(ruleset, seat=0, seed=11, save=tmp_path / "match.json")
    autoplay_match(match)
    assert match.over and len(match.state.hands) == ruleset.match.hands
    totals = [sum(h.scores[s] for h in match.state.hands) for s in range(3)]
    standing = match.standing()
    assert list(standing.totals) == totals and sum(totals) == 0
    assert sum(standing.hands_won) == ruleset.match.hands  # one first out a hand
    assert all(len(h.winners) == 1 for h in match.state.hands)
    assert match.totals_line().startswith(f"totals after {ruleset.match.hands} hands: ")
    assert match.result_line().startswith("result: ")
    assert "went out first" in match.session.result_lines()[0]
    path = tmp_path / "match.json"
    checked = replay_match(read_record(str(path)), str(path))
    assert checked.valid and checked.outcome is not None
    assert list(checked.outcome.totals) == totals


# --------------------------------------------------------------------------- the app


def pilot(session: Session | MatchSession, body: Any, size: tuple[int, int] = (110, 44)) -> None:
    pytest.importorskip("textual", reason="the play extra (Textual) is not installed")
    from ddz_rules.play.app import make_app

    async def run() -> None:
        app = make_app(session, bot_delay=0.0)
        async with app.run_test(size=size) as test_pilot:
            await app.settled(test_pilot)
            await body(app, test_pilot)

    asyncio.run(run())


def screen_text(app: Any) -> str:
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def shown(app: Any, widget: str) -> str:
    return str(app.query_one(widget).render())


async def enter(app: Any, test_pilot: Any, text: str) -> None:
    app.query_one("#prompt").value = text
    await test_pilot.press("enter")
    await app.settled(test_pilot)


@pytest.mark.parametrize("ruleset_id", RUN_FAST)
def test_the_app_plays_a_whole_hand_and_shows_the_run_fast_summary(ruleset_id: str) -> None:
    ruleset = load(ruleset_id)
    seed = 3
    session = Session.new(ruleset, seat=seat_with_lead_card(ruleset, seed), seed=seed)

    async def body(app: Any, test_pilot: Any) -> None:
        status = shown(app, "#status")
        assert "every player for himself" in status and "landlord" not in status
        assert "you hold the lead card, the " in status
        assert "leads" in shown(app, "#seats") and "peasant" not in shown(app, "#seats")
        assert "kitty: none" in shown(app, "#kitty")
        assert "bid" not in str(app.query_one("#prompt").placeholder)
        refusals = 0
        for _ in range(200):
            if session.over:
                break
            view = session.view
            if view.to_beat is not None and PASS not in view.legal and not refusals:
                await enter(app, test_pilot, "pass")
                assert shown(app, "#message").startswith("refused: you may not pass: a player "
                                                         "who can beat the last play must")
                assert "you must (play.must_beat)" in shown(app, "#status")
                refusals += 1
            hint = session.hint()
            await enter(app, test_pilot, "pass" if hint.action == PASS else hint.text)
        assert session.over and refusals == 1
        result = session.hand.result
        assert result is not None
        summary = shown(app, "#result")
        assert "went out first" in summary
        assert "cards left: " + ", ".join(f"seat {s}{' (you)' if s == session.seat else ''} {n}"
                                          for s, n in enumerate(result.cards_left)) in summary
        assert f"scores {list(result.scores)}" in summary and sum(result.scores) == 0
        assert "went out first" in screen_text(app)

    pilot(session, body)


def test_the_app_shows_the_stacked_hands_bomb_and_refusals() -> None:
    session = stacked()

    async def body(app: Any, test_pilot: Any) -> None:
        await enter(app, test_pilot, "45678")
        assert "first play must contain the lead card" in shown(app, "#message")
        await enter(app, test_pilot, "3333")
        # the bots can only pass the bomb: the person leads again
        assert session.view.to_act == 0
        assert "bombs paid at once: seat 0 (you), bomb: 10 from each other seat" in shown(
            app, "#status")
        await enter(app, test_pilot, "JJJ")
        assert "only as a player's last play" in shown(app, "#message")
        assert "a bomb, paid at once" in screen_text(app)

    pilot(session, body)


def test_the_app_plays_a_run_fast_match_deal_and_shows_the_totals() -> None:
    match = MatchSession.new(load("run-fast"), seat=0, seed=2)

    async def body(app: Any, test_pilot: Any) -> None:
        for _ in range(200):
            if match.hand_over:
                break
            hint = match.session.hint()
            await enter(app, test_pilot, "pass" if hint.action == PASS else hint.text)
        assert match.hand_over
        summary = shown(app, "#result")
        assert "went out first" in summary and "totals after 1 hand: " in summary
        await enter(app, test_pilot, "next")
        assert not match.hand_over and match.deals == 2
        card = match.session.hand.deal.lead_card
        assert card is not None  # logged as the deal is dealt
        assert f"the lead card, the {cards.suited_name(card)}" in screen_text(app)

    pilot(match, body)
