#!/usr/bin/env python3
"""Adapters that ask three peer Dou Dizhu engines for legal plays.

All hands and plays use our canonical notation: a string of rank characters
from ``3456789TJQKA2BR`` (T=10, B=black/small joker, R=red/big joker), suits
ignored, e.g. ``"33456789TTJQKA22B"``.  Every function returns canonical play
strings, never ``pass``, without duplicates, in the peer's own order.

=====================  ===================================================
``douzero_lead``        DouZero 1.1.0 ``GameEnv.get_legal_card_play_actions``
``douzero_answer``      (``MovesGener`` + ``move_detector``/``move_selector``)
``rlcard_lead``         RLCard 1.2.0 ``DoudizhuJudger.playable_cards_from_hand``
``rlcard_answer``       RLCard 1.2.0 ``utils.get_gt_cards`` (what the round
                        offers a player who does not hold the lead)
``openspiel_lead``      OpenSpiel 2.0.2 ``dou_dizhu``: ``LegalActions()`` of a
``openspiel_answer``    real game state built so that the player to move holds
                        exactly the hand (see ``openspiel_state``)
=====================  ===================================================

Each peer is imported inside the function that needs it, so importing this
module costs nothing and needs none of the peers.

OpenSpiel has no entry point that takes a hand, so ``openspiel_state`` plays
a real game up to the wanted situation: it fixes the chance actions (face-up
card position, then the 51 dealt cards; the 3 left over go to the landlord),
lets player 0 bid 3 to become landlord, and then plays scripted tricks in
which filler cards are shed as solos while the other players pass.  Every
scripted action is checked to be legal.  Reachable situations:

* leading: any hand of 1..20 cards (the landlord sheds 20-n fillers);
* answering, with the mover as landlord and the previous play led by the
  player before it: n <= 19 and |prev| <= 15;
* answering the landlord's opening play: n == 17 and |prev| <= 19;
* answering the landlord after the mover shed fillers: n <= 15, |prev| <= 17.

Other combinations (e.g. a 20-card hand answering, which no real game can
produce) raise ``ValueError``.  The rest of the game state (history, other
hands) never influences OpenSpiel's legal plays: ``PlayLegalActions`` only
reads the mover's hand and the trick's winning action.
"""

from __future__ import annotations

import collections
import functools
import random
import time
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

RANKS = "3456789TJQKA2BR"
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
FULL_DECK = "".join(r * 4 for r in RANKS[:13]) + "BR"


def canonical(cards: Iterable[str]) -> str:
    """Sort rank characters low->high into our canonical string."""
    return "".join(sorted(cards, key=_RANK_INDEX.__getitem__))


def _check_cards(cards: str, what: str = "hand") -> str:
    """Validate a multiset of ranks against the 54-card deck; canonicalize."""
    counts = collections.Counter(cards)
    for r, n in counts.items():
        if r not in _RANK_INDEX:
            raise ValueError(f"{what}: unknown rank {r!r}")
        if n > (1 if r in "BR" else 4):
            raise ValueError(f"{what}: too many {r!r}")
    return canonical(cards)


def _unique(plays: Iterable[str]) -> list[str]:
    seen = set()
    out = []
    for p in plays:
        if p and p not in seen:
            seen.add(p)
            out.append(p)
    return out


def random_hand(rng: random.Random, size: int) -> str:
    """A canonical hand of ``size`` cards drawn from the 54-card deck."""
    return canonical(rng.sample(FULL_DECK, size))


# --------------------------------------------------------------------------
# DouZero 1.1.0
# --------------------------------------------------------------------------

_DZ_CODES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
_RANK_TO_DZ = dict(zip(RANKS, _DZ_CODES, strict=False))
_DZ_TO_RANK = dict(zip(_DZ_CODES, RANKS, strict=False))


def _douzero_legal(hand: str, prev: str | None) -> list[str]:
    from douzero.env.game import GameEnv

    hand = _check_cards(hand)
    seq: list[list[int]] = []
    if prev:
        seq = [[_RANK_TO_DZ[c] for c in _check_cards(prev, "prev")]]
    # GameEnv.get_legal_card_play_actions reads only these three attributes.
    stub = SimpleNamespace(
        info_sets={"landlord": SimpleNamespace(
            player_hand_cards=[_RANK_TO_DZ[c] for c in hand])},
        acting_player_position="landlord",
        card_play_action_seq=seq,
    )
    moves = GameEnv.get_legal_card_play_actions(stub)
    return _unique(canonical(_DZ_TO_RANK[c] for c in m) for m in moves)


def douzero_lead(hand: str) -> list[str]:
    """DouZero's legal plays when leading (rival move = pass).

    Runs the real ``GameEnv.get_legal_card_play_actions`` (which calls
    ``MovesGener(hand).gen_moves()``) on a minimal stand-in for the game.
    """
    return _douzero_legal(hand, None)


def douzero_answer(hand: str, prev: str) -> list[str]:
    """DouZero's legal plays (pass excluded) answering the rival move ``prev``.

    Same code path as the game: ``move_detector.get_move_type(prev)`` picks
    the generator and ``move_selector`` filter, then all bombs and the rocket
    are appended (unless ``prev`` is a bomb/rocket).  A ``prev`` that DouZero
    classifies as TYPE_15_WRONG gets bombs and rocket only.
    """
    if not prev:
        raise ValueError("prev must be a non-empty play; use douzero_lead")
    return _douzero_legal(hand, prev)


# --------------------------------------------------------------------------
# RLCard 1.2.0
# --------------------------------------------------------------------------

def _rl_card(rank: str) -> SimpleNamespace:
    # rlcard's cards2str reads card.rank, or card.suit[0] for jokers.
    if rank == "B":
        return SimpleNamespace(rank="", suit="BJ")
    if rank == "R":
        return SimpleNamespace(rank="", suit="RJ")
    return SimpleNamespace(rank=rank, suit="S")


def rlcard_lead(hand: str) -> list[str]:
    """RLCard's playable cards for ``hand`` when it holds the lead.

    In a game the judger computes ``playable_cards_from_hand`` once from the
    dealt hand and later drops plays the current hand no longer contains;
    both give the same set (the judger's set is closed under "contained in
    the hand"), so we call it on ``hand`` directly.  Sorted by (length, str).
    """
    from rlcard.games.doudizhu.judger import DoudizhuJudger

    plays = DoudizhuJudger.playable_cards_from_hand(_check_cards(hand))
    return sorted(plays, key=lambda p: (len(p), p))


def rlcard_answer(hand: str, prev: str) -> list[str]:
    """RLCard's legal plays (pass excluded) answering the greater play ``prev``.

    Calls ``rlcard.games.doudizhu.utils.get_gt_cards``: plays of the same
    type (``CARD_TYPE``/``TYPE_CARD`` json) with a larger weight, plus bombs
    and the rocket.  ``prev`` must be in RLCard's action space.
    """
    from rlcard.games.doudizhu import utils as rl_utils

    hand = _check_cards(hand)
    prev = _check_cards(prev, "prev")
    if prev not in rl_utils.CARD_TYPE[0]:
        raise ValueError(f"{prev!r} is not an RLCard action")
    player = SimpleNamespace(current_hand=[_rl_card(c) for c in hand])
    greater = SimpleNamespace(played_cards=prev)
    return _unique(p for p in rl_utils.get_gt_cards(player, greater)
                   if p != "pass")


# --------------------------------------------------------------------------
# OpenSpiel 2.0.2
# --------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _os_tables() -> tuple[Any, dict[int, str], dict[str, list[int]], int]:
    """(game, action id -> cards, cards -> action ids, first play action id)."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    state = game.new_initial_state()
    id_to_cards: dict[int, str] = {}
    cards_to_ids: dict[str, list[int]] = collections.defaultdict(list)
    first_play = None
    for a in range(game.num_distinct_actions()):
        s = state.action_to_string(0, a)
        if s == "Pass" or s.startswith("Bid "):
            continue
        if first_play is None:
            first_play = a
        cards = canonical(s.replace("(BWJ)", "B").replace("(CJ)", "R")
                          .replace("-", ""))
        id_to_cards[a] = cards
        cards_to_ids[cards].append(a)
    return game, id_to_cards, dict(cards_to_ids), first_play


def openspiel_readings(cards: str) -> list[tuple[int, str]]:
    """All OpenSpiel play actions whose card set is ``cards``.

    Returns ``(action_id, openspiel_string)`` pairs in id order; for airplane
    combinations the string shows the reading, e.g. ``333444555-666``.
    """
    game, _, cards_to_ids, _ = _os_tables()
    state = game.new_initial_state()
    return [(a, state.action_to_string(0, a))
            for a in cards_to_ids.get(_check_cards(cards, "play"), [])]


class _Deck:
    """Hands out concrete OpenSpiel card ids (0..53) by rank."""

    def __init__(self) -> None:
        self.free: dict[str, list[int]] = {r: [] for r in RANKS}
        for card in range(54):
            rank = RANKS[card % 13] if card < 52 else RANKS[card - 52 + 13]
            self.free[rank].append(card)

    def take(self, cards: str) -> list[int]:
        out = []
        for c in cards:
            if not self.free[c]:
                raise ValueError(f"no {c!r} left in the deck")
            out.append(self.free[c].pop())
        return out

    def remaining(self) -> str:
        return canonical(r for r, ids in self.free.items() for _ in ids)


def _pick(pool: str, n: int, avoid: str = "") -> str:
    """``n`` cards of ``pool``, preferring ranks not in ``avoid``."""
    ordered = sorted(pool, key=lambda c: (c in avoid, _RANK_INDEX[c]))
    if n > len(ordered):
        raise ValueError("not enough cards left to build the situation")
    return "".join(ordered[:n])


def _minus(cards: str, used: str) -> str:
    rest = collections.Counter(cards)
    rest.subtract(used)
    if any(v < 0 for v in rest.values()):
        raise ValueError(f"{used!r} is not contained in {cards!r}")
    return canonical(rest.elements())


def _deal_and_bid(game: Any, hands: Sequence[str]) -> Any:
    """Deal 20/17/17 cards to players 0/1/2; player 0 bids 3 (landlord)."""
    deck = _Deck()
    ids = [deck.take(h) for h in hands]
    assert len(ids[0]) == 20 and len(ids[1]) == 17 and len(ids[2]) == 17
    state = game.new_initial_state()
    state.apply_action(0)  # face-up card at dealing position 0 -> player 0 bids first
    dealt = [iter(ids[0][:17]), iter(ids[1]), iter(ids[2])]
    deal_base = 51  # chance action "Deal card c" is 51 + c
    for k in range(51):  # the k-th dealt card goes to player k % 3
        state.apply_action(deal_base + next(dealt[k % 3]))
    # the 3 cards never dealt (ids[0][17:]) are the landlord's leftover cards
    state.apply_action(3)  # player 0: "Bid 3" -> landlord, leads the play
    return state


def _apply(state: Any, player: int, play: str | None,
           action: int | None = None) -> None:
    """Apply a scripted play (None = pass) for ``player``, checking legality."""
    _, _, cards_to_ids, _ = _os_tables()
    if state.current_player() != player:
        raise RuntimeError(f"expected player {player} to move")
    legal = state.legal_actions()
    if play is None:
        a = 0  # Pass
    elif action is not None:
        a = action
    else:
        a = cards_to_ids[play][0]
    if a not in legal:
        raise RuntimeError(f"scripted action {play!r} ({a}) is not legal")
    state.apply_action(a)


def openspiel_state(hand: str, prev: str | None = None,
                    prev_action: int | None = None) -> tuple[Any, int]:
    """Build an OpenSpiel ``dou_dizhu`` state whose mover holds ``hand``.

    Args:
        hand: the mover's cards (1..20 cards).
        prev: if given, the play the mover must answer (it is the trick's
            winning action); otherwise the mover leads a new trick.
        prev_action: OpenSpiel action id used for ``prev`` when its card set
            has several readings (see ``openspiel_readings``); default: the
            lowest id (e.g. ``333444555666`` -> the plain 4-trio airplane).

    Returns:
        ``(state, player)``: a play-phase state and the id of the mover.

    Raises:
        ValueError: the situation cannot be reached (see module docstring).
    """
    game, id_to_cards, cards_to_ids, _ = _os_tables()
    hand = _check_cards(hand)
    n = len(hand)
    if not 1 <= n <= 20:
        raise ValueError("hand must have 1..20 cards")

    if prev is None:
        # Landlord = hand + fillers; shed each filler as a solo lead.
        pool = _minus(FULL_DECK, hand)
        filler = _pick(pool, 20 - n, avoid=hand)
        rest = _minus(pool, filler)
        state = _deal_and_bid(game, [hand + filler, rest[:17], rest[17:]])
        for f in filler:
            _apply(state, 0, f)
            _apply(state, 1, None)
            _apply(state, 2, None)
        return state, 0

    prev = _check_cards(prev, "prev")
    if prev not in cards_to_ids:
        raise ValueError(f"{prev!r} is not an OpenSpiel play")
    if prev_action is None:
        prev_action = cards_to_ids[prev][0]
    elif id_to_cards.get(prev_action) != prev:
        raise ValueError(f"action {prev_action} is not a reading of {prev!r}")
    p = len(prev)
    pool = _minus(_minus(FULL_DECK, hand), prev)  # raises if hand+prev > deck

    if n <= 19 and p <= 15:
        # Mover = landlord (player 0); player 2 leads prev.
        # L: sheds fillers, leads x; P1 passes; P2 beats it with y; L, P1 pass;
        # P2 leads prev; L (holding exactly `hand`) answers.
        by_rank = sorted(pool, key=_RANK_INDEX.__getitem__)
        x, y = by_rank[0], by_rank[-1]
        if _RANK_INDEX[x] >= _RANK_INDEX[y]:
            raise ValueError("cannot find two cards of different ranks")
        pool = _minus(pool, x + y)
        filler = _pick(pool, 20 - n - 1, avoid=hand)
        pool = _minus(pool, filler)
        p2_fill = _pick(pool, 17 - p - 1, avoid=prev)
        p1 = _minus(pool, p2_fill)
        state = _deal_and_bid(game, [hand + filler + x, p1, prev + y + p2_fill])
        for f in filler:
            _apply(state, 0, f)
            _apply(state, 1, None)
            _apply(state, 2, None)
        _apply(state, 0, x)
        _apply(state, 1, None)
        _apply(state, 2, y)
        _apply(state, 0, None)
        _apply(state, 1, None)
        _apply(state, 2, prev, prev_action)
        return state, 0

    if n == 17 and p <= 19:
        # Mover = player 1; the landlord opens with prev.
        l_fill = _pick(pool, 20 - p, avoid=prev)
        p2 = _minus(pool, l_fill)
        state = _deal_and_bid(game, [prev + l_fill, hand, p2])
        _apply(state, 0, prev, prev_action)
        return state, 1

    if n <= 15 and p <= 17:
        # Mover = player 1.  L leads x, P1 beats with z, P2 & L pass; P1 sheds
        # fillers, then leads w; P2 passes, L beats it with v; P1 & P2 pass;
        # L leads prev; P1 (holding exactly `hand`) answers.
        by_rank = sorted(pool, key=_RANK_INDEX.__getitem__)
        x, w, v, z = by_rank[0], by_rank[1], by_rank[-2], by_rank[-1]
        if not (_RANK_INDEX[x] < _RANK_INDEX[z]
                and _RANK_INDEX[w] < _RANK_INDEX[v]):
            raise ValueError("cannot find cards of different ranks")
        pool = _minus(pool, x + w + v + z)
        p1_fill = _pick(pool, 17 - n - 2, avoid=hand)
        pool = _minus(pool, p1_fill)
        l_fill = _pick(pool, 20 - p - 2, avoid=prev)
        p2 = _minus(pool, l_fill)
        state = _deal_and_bid(game, [prev + x + v + l_fill,
                                     hand + z + w + p1_fill, p2])
        _apply(state, 0, x)
        _apply(state, 1, z)
        _apply(state, 2, None)
        _apply(state, 0, None)
        for f in p1_fill:
            _apply(state, 1, f)
            _apply(state, 2, None)
            _apply(state, 0, None)
        _apply(state, 1, w)
        _apply(state, 2, None)
        _apply(state, 0, v)
        _apply(state, 1, None)
        _apply(state, 2, None)
        _apply(state, 0, prev, prev_action)
        return state, 1

    raise ValueError(
        f"no scripted OpenSpiel situation for a {n}-card hand answering a "
        f"{p}-card play")


def _os_legal(state: Any, player: int, hand: str) -> list[str]:
    _, id_to_cards, _, _ = _os_tables()
    got = canonical(state.observation_string(player).split("\n")[0]
                    .replace("My hand ", "").replace("(BWJ)", "B")
                    .replace("(CJ)", "R"))
    if got != hand:
        raise RuntimeError(f"built state holds {got!r}, wanted {hand!r}")
    return _unique(id_to_cards[a] for a in state.legal_actions() if a != 0)


def openspiel_lead_actions(hand: str) -> list[int]:
    """OpenSpiel's legal action ids (no pass) when leading with ``hand``."""
    state, _player = openspiel_state(hand)
    return [a for a in state.legal_actions() if a != 0]


def openspiel_lead(hand: str) -> list[str]:
    """OpenSpiel's legal plays when leading a trick with ``hand``."""
    hand = _check_cards(hand)
    state, player = openspiel_state(hand)
    return _os_legal(state, player, hand)


def openspiel_answer(hand: str, prev: str,
                     prev_action: int | None = None) -> list[str]:
    """OpenSpiel's legal plays (pass excluded) answering ``prev``.

    ``prev_action`` picks the reading of a multi-reading ``prev`` (default:
    lowest action id).  Several returned actions with one card set are
    merged into one string.
    """
    hand = _check_cards(hand)
    state, player = openspiel_state(hand, prev, prev_action)
    return _os_legal(state, player, hand)


# --------------------------------------------------------------------------
# Self-check and timing
# --------------------------------------------------------------------------

ADAPTERS = {
    "douzero": (douzero_lead, douzero_answer),
    "rlcard": (rlcard_lead, rlcard_answer),
    "openspiel": (openspiel_lead, openspiel_answer),
}

_SELF_CHECK = [
    # (hand, previous play to answer)
    ("33456789TTJQKA22B", "44"),                     # 17 cards
    ("333444555789TJQKKAR", "34567"),                # 19 cards
    ("33334444556677889", "TTTJJJQQQKKKAA2B"),       # 17 cards, two bombs
]


def _self_check() -> None:
    for hand, prev in _SELF_CHECK:
        print(f"hand {hand} ({len(hand)} cards); answering {prev}")
        for name, (lead, answer) in ADAPTERS.items():
            try:
                led = len(lead(hand))
            except ValueError as e:
                led = f"n/a ({e})"
            try:
                ans = len(answer(hand, prev))
            except ValueError as e:
                ans = f"n/a ({e})"
            print(f"  {name:10s} lead {led}  answer {ans}")


def _time_leading(n_hands: int = 1000, seed: int = 20240601) -> None:
    for size in (17, 20):
        rng = random.Random(seed + size)
        hands = [random_hand(rng, size) for _ in range(n_hands)]
        for name, (lead, _) in ADAPTERS.items():
            lead(hands[0])  # warm-up: imports, tables
            t0 = time.perf_counter()
            total = 0
            for h in hands:
                total += len(lead(h))
            dt = time.perf_counter() - t0
            print(f"{name:10s} {size}-card lead: {dt / n_hands * 1e6:9.1f} "
                  f"us/hand (mean {total / n_hands:.1f} plays)")


if __name__ == "__main__":
    import sys

    _self_check()
    if "--time" in sys.argv:
        _time_leading()
