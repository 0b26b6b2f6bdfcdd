"""The called partner of ``four-player`` (``teams.partner: called_rank``), one test per clause.

After taking the kitty the landlord calls a rank or plays alone; the first other player to play
a card of the called rank joins him, and everyone sees it from that play on; the sides settle
S each, or 3S against S when the landlord is alone; a spring and an anti-spring are judged by
side; nobody can tell who will join before he does; and a record keeps the call.

Most hands here are dealt by hand from :data:`LAYOUT`, so that who holds what is plain, and
played by a script of actions and then by simple policies (:func:`drive`) until they end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddz_rules import cards, load
from ddz_rules.errors import IllegalActionError, RecordError
from ddz_rules.game import (
    ALONE,
    CALL,
    PASS,
    Action,
    Called,
    Deal,
    Hand,
    Joined,
    KittyTaken,
    Phase,
    Played,
    deal,
)
from ddz_rules.records import read_record, replay, to_record
from ddz_rules.scoring import MultiplierEvent, settle
from ddz_rules.simulate import play_random
from ddz_rules.table import Play, compile_table

from .conftest import FIXTURES
from .test_hand import _redistributed, cards_in_play

FOUR = load("four-player")
TABLE = compile_table(FOUR)

#: A four-player deal by hand: for each rank, the cards of it held by seats 0, 1, 2, 3 and the
#: kitty. Seat 0 bids first (and bids 3, so it is the landlord: 33 cards with the kitty);
#: seat 1 holds three Ks and no 2 or joker; seats 1 and 2 hold two As each.
LAYOUT: dict[str, tuple[int, int, int, int, int]] = {
    "3": (3, 2, 2, 1, 0),
    "4": (2, 2, 2, 2, 0),
    "5": (1, 2, 2, 2, 1),
    "6": (2, 2, 2, 2, 0),
    "7": (2, 2, 2, 2, 0),
    "8": (2, 2, 2, 2, 0),
    "9": (2, 2, 2, 2, 0),
    "T": (2, 2, 2, 2, 0),
    "J": (2, 2, 2, 2, 0),
    "Q": (2, 2, 2, 2, 0),
    "K": (1, 3, 2, 2, 0),
    "A": (1, 2, 2, 2, 1),
    "2": (2, 0, 1, 1, 4),
    "B": (0, 0, 0, 1, 1),
    "R": (1, 0, 0, 0, 1),
}
#: The same deal with seat 1's two As and seat 2's two Qs swapped: seat 2 holds every A that
#: seat 1 held. Nothing else differs.
SWAPPED = {**LAYOUT, "A": (1, 0, 4, 2, 1), "Q": (2, 4, 0, 2, 0)}
#: Every rank of the deck, as the landlord names it in a call.
DECK_RANKS = "3456789TJQKA2BR"

Policy = Callable[[Hand], Action]


def layout_deal(layout: Mapping[str, Sequence[int]] = LAYOUT) -> Deal:
    """The deal ``layout`` describes, dealt by seat 0, who bids first."""
    hands = tuple(TABLE.key_of("".join(rank * row[seat] for rank, row in layout.items()))
                  for seat in range(FOUR.players))
    kitty = TABLE.key_of("".join(rank * row[4] for rank, row in layout.items()))
    assert [cards.size(h) for h in hands] == [FOUR.hand_size] * 4
    assert sum(hands) + kitty == FOUR.deck_key
    return Deal(hands, kitty, 0, dealer=0, first_bidder=0)


def at_call(layout: Mapping[str, Sequence[int]] = LAYOUT) -> Hand:
    """The layout's hand after seat 0's bid of 3: the landlord has taken the kitty."""
    hand = Hand(FOUR, layout_deal(layout), TABLE)
    hand.apply("3")
    return hand


def called(call: str, layout: Mapping[str, Sequence[int]] = LAYOUT) -> Hand:
    """The layout's hand in the play phase after the landlord's ``call`` ("alone" or a rank)."""
    hand = at_call(layout)
    hand.apply(ALONE if call == ALONE else CALL + call)
    return hand


def rank(text: str) -> int:
    return cards.RANK_INDEX[text]


def holds(action: Action, rank_text: str) -> bool:
    """Whether a play holds a card of ``rank_text``."""
    return isinstance(action, Play) and cards.unpack(action.key)[rank(rank_text)] > 0


def passes(hand: Hand) -> Action:
    """Pass whenever the rules allow it."""
    return PASS


def plays_on(prefer: str | None = None, avoid: str | None = None) -> Policy:
    """Play whenever possible, the longest play first; a play holding ``prefer`` before any
    other, and never one holding ``avoid``."""

    def choose(hand: Hand) -> Action:
        options = [a for a in hand.legal_actions()
                   if isinstance(a, Play) and not (avoid and holds(a, avoid))]
        if prefer:
            options = [a for a in options if holds(a, prefer)] or options
        if not options:
            return PASS
        return max(options, key=lambda p: (cards.size(p.key), p.key))

    return choose


def leads_low(hand: Hand) -> Action:
    """Lead the lowest single when leading; otherwise pass."""
    if hand.to_beat is not None:
        return PASS
    return min((a for a in hand.legal_actions() if isinstance(a, Play)
                and cards.size(a.key) == 1), key=lambda p: p.key)


def drive(hand: Hand, script: Sequence[Action] = (),
          policies: Mapping[int, Policy] | None = None) -> Hand:
    """Apply ``script``, then let each seat act by its policy (``passes`` by default) until
    the hand ends."""
    for action in script:
        hand.apply(action)
    chosen = policies or {}
    for _ in range(2000):
        if hand.result is not None:
            return hand
        assert hand.to_act is not None
        hand.apply(chosen.get(hand.to_act, passes)(hand))
    raise AssertionError("the hand did not end")


def stake(hand: Hand) -> int:
    """S: the base times the multiplier."""
    assert hand.result is not None
    return hand.result.base * hand.result.multiplier


def event_names(hand: Hand) -> list[str]:
    assert hand.result is not None
    return [e.name for e in hand.result.events]


def joins(hand: Hand) -> list[int]:
    return [op.seat for op in hand.log if isinstance(op, Joined)]


def state(hand: Hand) -> tuple[object, ...]:
    """Everything an action could change."""
    return (list(hand.hands), list(hand.log), hand.to_act, hand.phase, hand.called,
            hand.partner, list(hand.public_plays), hand.to_beat)


# --------------------------------------------------------------------------- the call


def test_after_the_kitty_the_landlord_calls_alone_or_a_rank_of_the_deck() -> None:
    hand = at_call()
    assert hand.phase is Phase.CALL and hand.landlord == 0 and hand.to_act == 0
    assert isinstance(hand.log[-1], KittyTaken)
    assert cards.size(hand.hands[0]) == FOUR.hand_size + FOUR.kitty
    expected = [ALONE, *(CALL + r for r in DECK_RANKS)]
    assert hand.legal_actions() == expected
    assert len(expected) == 1 + len(FOUR.deck_ranks)
    assert hand.view(0).legal == tuple(expected)
    assert all(hand.view(seat).legal == () for seat in (1, 2, 3))


@pytest.mark.parametrize("action", [PASS, "3", "33", "call", "call Z", "call AA", "call 3 4",
                                    "partner", "1", "alone please", ""])
def test_in_the_call_phase_anything_but_a_call_is_refused_and_changes_nothing(
        action: str) -> None:
    hand = at_call()
    before = state(hand)
    with pytest.raises(IllegalActionError, match="the landlord calls a partner now"):
        hand.apply(action)
    assert state(hand) == before
    assert hand.legal_actions()[0] == ALONE


def test_a_play_object_in_the_call_phase_is_refused_and_changes_nothing() -> None:
    hand = at_call()
    before = state(hand)
    with pytest.raises(IllegalActionError, match="'3' is not 'alone' or 'call RANK'"):
        hand.apply(TABLE.play("3"))
    assert state(hand) == before


def test_the_call_is_logged_and_shown_to_every_seat() -> None:
    hand = called("A")
    assert hand.phase is Phase.PLAY and hand.to_act == 0
    assert hand.log[-1] == Called(0, rank("A"))
    for seat in range(4):
        view = hand.view(seat)
        assert (view.called, view.joined, view.undecided) == (rank("A"), None, True)


def test_a_call_is_made_once_then_the_words_are_no_plays() -> None:
    hand = called("A")
    before = state(hand)
    for word in (ALONE, "call K"):
        with pytest.raises(IllegalActionError):
            hand.apply(word)
    assert state(hand) == before


def test_a_ruleset_without_a_called_partner_goes_from_the_kitty_to_the_play() -> None:
    hand = Hand.new(load("classic"), 3)
    while hand.phase is Phase.AUCTION:
        hand.apply(hand.legal_actions()[-1])
    assert hand.phase is Phase.PLAY
    assert not any(isinstance(a, str) and (a == ALONE or a.startswith(CALL))
                   for a in hand.legal_actions())
    with pytest.raises(IllegalActionError):
        hand.apply(ALONE)
    assert not any(isinstance(op, Called) for op in hand.log)


# --------------------------------------------------------------------------- joining


def test_the_first_other_player_to_play_the_called_rank_joins_the_landlord() -> None:
    hand = called("A")
    hand.apply("3")
    assert hand.partner is None
    hand.apply("A")  # seat 1
    assert hand.partner == 1 and hand.landlord_side == (0, 1)
    assert hand.log[-2:] == [Played(1, TABLE.play("A")), Joined(1)]


def test_a_called_rank_that_is_only_a_kicker_of_the_play_joins_its_player() -> None:
    hand = called("5")
    hand.apply("33344")  # seat 0: a trio of 3s with a pair of 4s
    play = TABLE.play("KKK55")
    assert play.reading.type == "trio_pair" and play.reading.rank_index == rank("K")
    hand.apply(play)  # seat 1: the 5s are only its kicker
    assert hand.partner == 1 and joins(hand) == [1]


def test_the_landlord_playing_the_called_rank_joins_nobody() -> None:
    hand = called("3")
    hand.apply("3")  # the landlord's own 3
    assert hand.partner is None and joins(hand) == []
    hand.apply("4")  # seat 1, no 3
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(PASS)
    assert hand.partner is None and hand.to_act == 1
    hand.apply("3")  # seat 1 leads a 3: the first other player to play one
    assert hand.partner == 1 and joins(hand) == [1]


def test_a_later_player_of_the_called_rank_changes_nothing() -> None:
    hand = called("A")
    for action in ("3", "A", PASS, PASS, PASS, "4"):
        hand.apply(action)
    assert hand.partner == 1 and hand.to_act == 2
    hand.apply("A")  # seat 2 plays an A too
    assert hand.partner == 1 and joins(hand) == [1]
    assert hand.landlord_side == (0, 1)
    assert all(hand.view(seat).joined == 1 for seat in range(4))


def test_every_view_shows_the_partner_from_his_joining_play_on_and_not_before() -> None:
    hand = called("A")
    script: list[Action] = ["3", PASS, "4", PASS, PASS, "A", PASS, PASS, PASS, "5", "A"]
    joined_at = 5  # seat 1's A (seat 2's A after it changes nothing)
    for step, action in enumerate(script):
        for seat in range(4):
            assert hand.view(seat).joined is None, (step, seat)
            assert hand.view(seat).undecided
        hand.apply(action)
        if step >= joined_at:
            break
    assert joins(hand) == [1]
    for action in script[joined_at + 1:]:
        for seat in range(4):
            view = hand.view(seat)
            assert (view.joined, view.undecided) == (1, False)
        hand.apply(action)
    assert hand.view(3).joined == 1


def test_once_joined_each_seat_knows_its_side() -> None:
    hand = called("A")
    hand.apply("3")
    peasant = hand.view(2)
    assert peasant.teammates == (1, 3) and peasant.partner is None
    assert hand.view(0).teammates == () and hand.view(0).opponents == (1, 2, 3)
    hand.apply("A")
    sides = {seat: (hand.view(seat).teammates, hand.view(seat).opponents) for seat in range(4)}
    assert sides == {0: ((1,), (2, 3)), 1: ((0,), (2, 3)), 2: ((3,), (0, 1)),
                     3: ((2,), (0, 1))}
    assert [hand.view(seat).partner for seat in range(4)] == [1, 0, 3, 2]


def test_alone_nobody_joins_whatever_is_played() -> None:
    hand = called(ALONE)
    assert hand.log[-1] == Called(0, None)
    assert hand.view(2).called is None and not hand.view(2).undecided
    for action in ("3", "A", "2", PASS, PASS, PASS, "33"):
        hand.apply(action)
    assert hand.partner is None and joins(hand) == []
    assert all(hand.view(seat).joined is None for seat in range(4))
    assert hand.view(1).teammates == (2, 3) and hand.view(0).teammates == ()


# --------------------------------------------------------------------------- settlement


def test_settle_a_side_of_two_settles_s_each_and_alone_3s_against_s() -> None:
    bomb = MultiplierEvent("bomb", 2, 1, "4444")
    assert settle(FOUR, (0, 2), True, 3, [bomb]).scores == (6, -6, 6, -6)
    assert settle(FOUR, (3, 1), False, 1, []).scores == (1, -1, 1, -1)
    alone = settle(FOUR, (2,), True, 2, [bomb, bomb])
    assert alone.scores == (-8, -8, 24, -8)
    assert (alone.partner, alone.landlord_side) == (None, (2,))
    assert "partner" not in alone.to_json()
    paired = settle(FOUR, (2, 0), False, 2, [])
    assert (paired.landlord, paired.partner, paired.landlord_side) == (2, 0, (2, 0))
    assert paired.to_json()["partner"] == 0 and paired.scores == (-2, 2, -2, 2)


def test_a_partner_going_out_first_wins_for_the_landlords_side() -> None:
    # Seat 2 plays a 4 first, so the peasants have played: no spring.
    hand = drive(called("A"), ["3", PASS, "4", PASS, PASS, "A"],
                 {1: plays_on(), 0: leads_low})
    result = hand.result
    assert result is not None
    assert result.winner == "landlord" and result.partner == 1
    assert cards.size(hand.hands[1]) == 0 and cards.size(hand.hands[0]) > 0
    assert "spring" not in event_names(hand)
    s = stake(hand)
    assert result.scores == (s, s, -s, -s)


def test_with_a_partner_each_of_the_four_wins_or_loses_s() -> None:
    # The partner joins at once and then passes; seat 2 plays every card out.
    hand = drive(called("A"), ["3", "A"], {2: plays_on()})
    result = hand.result
    assert result is not None
    assert (result.winner, result.partner, result.landlord_side) == ("peasants", 1, (0, 1))
    s = stake(hand)
    assert result.scores == (-s, -s, s, s)
    assert sum(result.scores) == 0 and result.scores[1] == result.scores[0]


def test_alone_the_landlord_settles_3s_against_s_from_each_other_player() -> None:
    hand = drive(called(ALONE), ["3"], {1: plays_on()})
    result = hand.result
    assert result is not None and result.winner == "peasants" and result.partner is None
    s = stake(hand)
    assert result.scores == (-3 * s, s, s, s)


def test_a_called_rank_nobody_plays_leaves_the_landlord_alone() -> None:
    # Seat 1 holds no 2, plays out every card, and nobody else plays at all.
    hand = drive(called("2"), ["3"], {1: plays_on()})
    result = hand.result
    assert result is not None
    assert hand.called == rank("2") and result.partner is None and joins(hand) == []
    assert result.landlord_side == (0,)
    s = stake(hand)
    assert result.scores == (-3 * s, s, s, s)


# --------------------------------------------------------------------------- spring, anti-spring


def test_spring_is_a_win_of_the_landlord_and_partner_with_no_peasant_card() -> None:
    hand = drive(called("A"), [], {0: leads_low, 1: plays_on(prefer="A")})
    result = hand.result
    assert result is not None
    assert (result.winner, result.partner) == ("landlord", 1)
    assert hand.plays_by_seat[2] == hand.plays_by_seat[3] == 0
    assert event_names(hand).count("spring") == 1 and not result.anti_spring
    s = stake(hand)
    assert result.scores == (s, s, -s, -s)


def test_spring_alone_pays_3s() -> None:
    hand = drive(called(ALONE), [], {0: plays_on()})
    result = hand.result
    assert result is not None and result.winner == "landlord" and result.spring
    s = stake(hand)
    assert result.scores == (3 * s, -s, -s, -s)


def test_a_single_the_partner_played_before_joining_spoils_the_spring() -> None:
    # Seat 1 answers with a K (a peasant then), later joins with an A and plays out.
    hand = drive(called("A"), ["3", "K", PASS, PASS, PASS],
                 {0: leads_low, 1: plays_on(prefer="A")})
    result = hand.result
    assert result is not None and result.partner == 1 and result.winner == "landlord"
    assert hand.plays_by_seat[2] == hand.plays_by_seat[3] == 0
    assert hand.side_plays.opponents == 1
    assert not result.spring


def sides_then(hand: Hand) -> list[tuple[int, bool]]:
    """Each play of ``hand`` as (seat, whether the seat was on the landlord's side when it
    played), read from the log: the landlord always is, a partner from his joining play on."""
    out: list[tuple[int, bool]] = []
    joined: int | None = None
    for op in hand.log:
        if isinstance(op, Played):
            out.append((op.seat, op.seat in (hand.landlord, joined)))
        elif isinstance(op, Joined):  # logged right after the joining play, which is his side's
            joined = op.seat
            out[-1] = (op.seat, True)
    return out


def _replayed(name: str) -> tuple[dict[str, Any], Hand]:
    record = read_record(str(FIXTURES / "records" / name))
    done = replay(record)
    assert done.valid, done.reason
    return record, done.hand


def test_a_partners_trio_before_he_joins_is_a_peasant_play_so_the_hand_is_no_spring() -> None:
    """teams.partner: a player joins the landlord "from that play on". In the record, seat 1
    beats the landlord's opening 333 with KKK, later plays AA (the called rank, so he joins)
    and goes out; seats 2 and 3 never play. The KKK was a play of the landlord's opponents, so
    the landlord's side wins without a spring, at base x 1."""
    record, hand = _replayed("four-player-trio-before-joining.json")
    plays = [op for op in hand.log if isinstance(op, Played)]
    assert [(op.seat, op.play.reading.type) for op in plays[:2]] == [(0, "trio"), (1, "trio")]
    assert plays[1].play.reading.beats(plays[0].play.reading) and not holds(plays[1].play, "A")
    assert hand.called == rank("A") and joins(hand) == [1]
    assert sides_then(hand)[1] == (1, False)
    assert any(holds(op.play, "A") for op in plays[2:] if op.seat == 1)
    result = hand.result
    assert result is not None and (result.winner, result.partner) == ("landlord", 1)
    assert cards.size(hand.hands[1]) == 0
    assert hand.plays_by_seat[2] == hand.plays_by_seat[3] == 0
    assert not result.spring and result.multiplier == 1
    assert result.to_json() == record["result"]


def test_a_trio_that_joins_counts_for_the_landlords_side_so_the_spring_holds() -> None:
    """The converse on the same deal: the landlord calls K, so seat 1's KKK over the opening is
    his joining play and counts for the landlord's side; nobody else plays: a spring."""
    record, hand = _replayed("four-player-joins-with-the-trio.json")
    plays = [op for op in hand.log if isinstance(op, Played)]
    assert [(op.seat, op.play.reading.type) for op in plays[:2]] == [(0, "trio"), (1, "trio")]
    assert hand.called == rank("K") and joins(hand) == [1]
    assert all(on_side for _, on_side in sides_then(hand))
    result = hand.result
    assert result is not None and (result.winner, result.partner) == ("landlord", 1)
    assert result.spring and event_names(hand) == ["spring"]
    assert result.to_json() == record["result"]


def test_a_peasant_card_spoils_the_spring_of_the_landlords_side() -> None:
    hand = drive(called("A"), ["3", PASS, "4", PASS, PASS, "A"], {1: plays_on()})
    assert hand.result is not None and hand.result.winner == "landlord"
    assert not hand.result.spring


def test_anti_spring_is_a_peasant_win_after_only_the_landlords_opening() -> None:
    hand = drive(called(ALONE), ["3"], {1: plays_on()})
    result = hand.result
    assert result is not None and result.winner == "peasants"
    assert hand.plays_by_seat[0] == 1
    assert event_names(hand).count("anti_spring") == 1 and not result.spring


def test_a_peasants_answer_does_not_spoil_the_anti_spring() -> None:
    # Seat 1 answers the opening with a K, which is no B: it stays a peasant. Seat 2, which
    # holds no B, then plays every card out.
    hand = drive(called("B"), ["3", "K"], {2: plays_on()})
    assert hand.plays_by_seat[1] == 1
    result = hand.result
    assert result is not None and result.winner == "peasants" and result.partner is None
    assert result.anti_spring
    s = stake(hand)
    assert result.scores == (-3 * s, s, s, s)


def test_no_anti_spring_once_a_partner_has_joined_the_landlord() -> None:
    hand = drive(called("A"), ["3", "A"], {2: plays_on()})
    result = hand.result
    assert result is not None and result.winner == "peasants" and result.partner == 1
    assert hand.plays_by_seat[0] == 1
    assert not result.anti_spring and not result.spring


# --------------------------------------------------------------------------- hidden partner


def test_before_anyone_joins_a_view_does_not_show_who_holds_the_called_rank() -> None:
    # In LAYOUT seats 1 and 2 hold two As each; in SWAPPED seat 2 holds all four.
    one, other = called("A"), called("A", SWAPPED)
    assert one.hands[1] != other.hands[1] and one.hands[2] != other.hands[2]
    script: list[Action] = ["3", "4", PASS, PASS, PASS, "55", "66", "77", "88", PASS, PASS,
                            PASS, "3"]
    for action in [None, *script]:
        if action is not None:
            one.apply(action)
            other.apply(action)
        for seat in (0, 3):
            assert one.view(seat) == other.view(seat)
        for seat in (1, 2, 3):
            assert one.view(seat).teammates == other.view(seat).teammates
            assert one.view(seat).teammates == tuple(s for s in (1, 2, 3) if s != seat)
    assert one.partner is other.partner is None


@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 80), data=st.data())
@settings(max_examples=20)
def test_an_undecided_call_looks_the_same_however_the_hidden_cards_lie(
        seed: int, steps: int, data: st.DataObject) -> None:
    hand = Hand(FOUR, deal(FOUR, seed), TABLE)
    rng = random.Random(seed)
    actions: list[Action] = []
    for _ in range(steps):
        if hand.result is not None or hand.partner is not None:
            break
        action = rng.choice(hand.legal_actions())
        hand.apply(action)
        actions.append(action)
    if hand.partner is not None:  # look just before the joining play
        actions.pop()
        hand = Hand(FOUR, hand.deal, TABLE)
        for action in actions:
            hand.apply(action)
    seat = data.draw(st.integers(0, 3))
    other = Hand(FOUR, _redistributed(hand, seat, random.Random(seed + 1)), TABLE)
    for action in actions:
        other.apply(action)
    assert other.view(seat) == hand.view(seat)
    assert other.partner is hand.partner is None
    if hand.landlord is not None and seat != hand.landlord:
        others = tuple(s for s in range(4) if s not in (seat, hand.landlord))
        assert hand.view(seat).teammates == other.view(seat).teammates == others


# --------------------------------------------------------------------------- random hands


def _expected_partner(hand: Hand) -> int | None:
    """The first seat other than the landlord whose play holds the called rank, from the log."""
    call: int | None = None
    for op in hand.log:
        if isinstance(op, Called):
            call = op.rank
        elif (isinstance(op, Played) and call is not None and op.seat != hand.landlord
              and cards.unpack(op.play.key)[call]):
            return op.seat
    return None


@given(seed=st.integers(0, 2**31 - 1),
       call=st.sampled_from([ALONE, *(CALL + r for r in DECK_RANKS)]))
def test_random_four_player_hands_settle_by_side(seed: int, call: str) -> None:
    hand = Hand(FOUR, deal(FOUR, seed, dealer=seed % 4), TABLE)
    rng = random.Random(seed)
    for _ in range(1000):
        if hand.result is not None:
            break
        hand.apply(call if hand.phase is Phase.CALL else rng.choice(hand.legal_actions()))
        assert cards_in_play(hand) == FOUR.deck_key
    result = hand.result
    assert result is not None
    assert sum(result.scores) == 0
    if result.redeal:
        assert result.scores == (0, 0, 0, 0) and not any(isinstance(op, Called)
                                                         for op in hand.log)
        return
    partner = _expected_partner(hand)
    assert result.partner == hand.partner == partner
    assert joins(hand) == ([] if partner is None else [partner])
    if call == ALONE:
        assert partner is None
    side = result.landlord_side
    peasants = [s for s in range(4) if s not in side]
    s = stake(hand)
    sign = 1 if result.winner == "landlord" else -1
    assert all(result.scores[p] == -sign * s for p in peasants)
    assert all(result.scores[seat] == sign * s * len(peasants) // len(side) for seat in side)
    last = [op for op in hand.log if isinstance(op, Played)][-1]
    assert cards.size(hand.hands[last.seat]) == 0
    assert (last.seat in side) == (result.winner == "landlord")
    sides = sides_then(hand)
    assert result.spring == (result.winner == "landlord" and all(on for _, on in sides))
    assert result.anti_spring == (result.winner == "peasants"
                                  and [on for _, on in sides].count(True) == 1)


@given(seed=st.integers(0, 2**31 - 1),
       call=st.sampled_from([ALONE, *(CALL + r for r in DECK_RANKS)]),
       shy=st.tuples(*[st.sampled_from([0.0, 0.5, 0.9, 1.0])] * 4))
def test_a_spring_or_anti_spring_never_follows_a_play_by_the_losing_side_at_the_time(
        seed: int, call: str, shy: tuple[float, ...]) -> None:
    """Each play counts for the side its player was on when he made it. A spring never
    follows a play made by a seat then outside the landlord's side (a partner's plays before
    he joined included); an anti-spring never follows a play made by a seat then on the
    landlord's side, but the landlord's opening. Seat ``s`` passes, when it may, with
    probability ``shy[s]``, so that whitewashes and partners who play before joining are
    common."""
    hand = Hand(FOUR, deal(FOUR, seed, dealer=seed % 4), TABLE)
    rng = random.Random(seed)
    for _ in range(1000):
        if hand.result is not None:
            break
        if hand.phase is Phase.CALL:
            hand.apply(call)
            continue
        legal = hand.legal_actions()
        seat = hand.to_act
        assert seat is not None
        may_pass = hand.phase is Phase.PLAY and PASS in legal
        hand.apply(PASS if may_pass and rng.random() < shy[seat] else rng.choice(legal))
    result = hand.result
    assert result is not None
    if result.redeal:
        return
    sides = sides_then(hand)
    landlord_won = result.winner == "landlord"
    if result.spring:
        assert landlord_won and all(on for _, on in sides)
    if result.anti_spring:
        assert not landlord_won and sides[0] == (hand.landlord, True)
        assert not any(on for _, on in sides[1:])
    assert result.spring == (landlord_won and all(on for _, on in sides))
    assert result.anti_spring == (not landlord_won and [on for _, on in sides].count(True) == 1)


# --------------------------------------------------------------------------- records


def _round_trip(hand: Hand) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(to_record(hand)))
    return record


def test_a_record_keeps_the_call_and_replays_to_the_same_partner_and_scores() -> None:
    hands = [drive(called("A"), [], {0: leads_low, 1: plays_on(prefer="A")}),
             drive(called(ALONE), ["3"], {1: plays_on()}),
             *(play_random(FOUR, seed, dealer=seed % 4) for seed in range(6))]
    calls = set()
    for hand in hands:
        assert hand.result is not None and not hand.result.redeal
        record = _round_trip(hand)
        made = next(op for op in hand.log if isinstance(op, Called))
        assert record["partner_call"] == (ALONE if made.rank is None else cards.RANKS[made.rank])
        calls.add(record["partner_call"])
        outcome = replay(record)
        assert outcome.valid, outcome.reason
        again = outcome.hand.result
        assert again is not None
        assert (again.partner, again.scores) == (hand.result.partner, hand.result.scores)
        assert outcome.to_json() == {"valid": True, **record["result"]}
    assert ALONE in calls and "A" in calls
    assert any(hand.result is not None and hand.result.partner is not None for hand in hands)


def test_the_records_call_decides_the_sides() -> None:
    record = _round_trip(drive(called("A"), [], {0: leads_low, 1: plays_on(prefer="A")}))
    assert record["result"]["winner"] == "landlord" and record["result"]["partner"] == 1
    stale = replay({**record, "partner_call": ALONE})  # the result it states is the call's
    assert not stale.valid and stale.field == "result.winner"
    record.pop("result")
    outcome = replay({**record, "partner_call": ALONE})
    assert outcome.valid and outcome.hand.result is not None
    assert outcome.hand.result.winner == "peasants" and outcome.hand.result.partner is None


def test_a_record_without_the_call_the_landlord_must_make_is_invalid() -> None:
    record = _round_trip(drive(called("A"), ["3", "A"], {2: plays_on()}))
    record.pop("partner_call")
    outcome = replay(record)
    assert not outcome.valid
    assert outcome.index == len(record["auction"]) and outcome.action == "3"
    assert outcome.reason is not None and "partner_call" in outcome.reason
    outcome = replay({**record, "partner_call": None})
    assert not outcome.valid and "partner_call" in (outcome.reason or "")


def test_a_call_in_a_hand_nobody_took_is_invalid() -> None:
    hand = Hand(FOUR, layout_deal(), TABLE)
    for _ in range(4):
        hand.apply(PASS)
    assert hand.result is not None and hand.result.redeal
    record = _round_trip(hand)
    assert "partner_call" not in record and replay(record).valid
    outcome = replay({**record, "partner_call": "A"})
    assert not outcome.valid and "partner_call" in (outcome.reason or "")


@pytest.mark.parametrize("call", ["A", ALONE])
def test_a_call_in_a_classic_record_is_refused_naming_the_field(call: str) -> None:
    record = _round_trip(play_random(load("classic"), 5))
    assert replay({**record, "partner_call": None}).valid
    with pytest.raises(RecordError, match=r"^record: field partner_call: classic has no called "
                                          r"partner \(teams.partner: none\)"):
        replay({**record, "partner_call": call})


@pytest.mark.parametrize(("call", "words"), [
    ("Z", "bad card 'Z'"),
    ("AA", "2 cards; the call is one rank"),
    ("", "0 cards; the call is one rank"),
    ("call A", "bad card 'c'"),
    ("Alone", "bad card"),
])
def test_a_call_that_is_not_one_rank_is_refused_naming_the_field(call: str, words: str) -> None:
    record = _round_trip(play_random(FOUR, 1))
    assert replay(record).valid
    with pytest.raises(RecordError, match=r"^record: field partner_call: ") as info:
        replay({**record, "partner_call": call})
    assert words in str(info.value)
