"""The end of a hand as a person reads it (``Session.result_lines``, the log): who won in the
right number, each kind of multiplier event said once with its count, and why a landlord
nobody called is one."""

from __future__ import annotations

from ddz_rules.game import Hand
from ddz_rules.play.session import Session
from ddz_rules.ruleset import load


def _auction(session: Session, words: list[str]) -> None:
    """Say ``words`` in turn, whoever is to act (the person or a bot's seat)."""
    for word in words:
        hand = session.hand
        if hand.to_act == session.seat:
            assert session.act(word).ok, word
        else:
            session.apply_bot(word)


def _finish(session: Session) -> None:
    while session.hand.result is None:
        if session.hand.to_act == session.seat:
            session.act(session.hint().text)
        else:
            session.bot_step()


def test_robs_are_said_once_with_their_count_and_the_peasant_wins_in_the_singular() -> None:
    for seed in range(40):
        session = Session(Hand.new(load("two-player"), seed), 0, "standard", "standard")
        words = ["call", "rob", "rob", "rob", "rob"]
        _auction(session, words)
        _finish(session)
        result = session.hand.result
        assert result is not None
        lines = session.result_lines()
        assert "  event rob x2, 4 times: x16" in lines
        assert sum("event rob" in line for line in lines) == 1
        if result.winner != "landlord":
            assert ", the peasant wins: " in lines[0]
            return
        assert ", the landlord wins: " in lines[0]
    raise AssertionError("no peasant won in 40 hands")


def test_the_peasants_win_in_the_plural_where_there_are_two() -> None:
    for seed in range(40):
        session = Session(Hand.new(load("classic"), seed), 0, "standard", "standard",
                          autoplay=True)
        _finish(session)
        result = session.hand.result
        if result is not None and not result.redeal and result.winner != "landlord":
            assert ", the peasants win: " in session.result_lines()[0]
            return
    raise AssertionError("no peasants won in 40 hands")


def test_a_landlord_nobody_called_is_told_why_with_the_rules_own_words() -> None:
    ruleset = load("two-player")
    session = Session(Hand.new(ruleset, 3), 0, "standard", "standard")
    first = session.hand.to_act
    _auction(session, ["no-call", "no-call"])
    rule = ruleset.data["auction"]["all_pass"]["text"]
    you = " (you)" if first == 0 else ""
    line = f"nobody called: seat {first}{you} is landlord (auction.all_pass: {rule})"
    assert session.history()[2] == line
    assert session.hand.landlord == first
