"""A Botzone bot: one of our bots playing Botzone's Fight the Landlord games.

Botzone runs a bot once per turn with one JSON object on standard input,
``{"requests": [...], "responses": [...]}``: every request the judge sent this seat so far and
the seat's own answers to all but the last, from which the bot rebuilds the game. It prints
``{"response": ...}``. Cards are the integers 0 to 53: ``card // 4`` is the rank from the 3
(0) up to the 2 (12), 52 the small joker, 53 the big one; suits mean nothing.

* FightTheLandlord (the ``botzone-ftl1`` preset): seat 0 is the landlord with 20 cards. A
  seat's first request holds ``own`` (its cards), ``publiccard`` (the three the landlord took,
  among his cards) and ``history``; later ones ``history`` alone. ``history`` is the plays of
  the two seats that moved since this seat last did, the next seat's first, each a list of
  cards, ``[]`` for a pass (or, in the first request, for a seat that has not moved yet).
* FightTheLandlord2 (the ``botzone`` preset): seats 0, 1, 2 bid once each in turn;
  a bidding request holds ``own`` (17 cards) and ``bid`` (the bids before it), and the answer
  is a bid, 0 (pass) to 3. A seat's first play request adds ``landlord``, ``pos`` (its own
  seat), ``finalbid`` and ``publiccard`` (which the landlord adds to his ``own``).

The answer to a play request is a list of the seat's cards, ``[]`` to pass. The game is
rebuilt in our referee under the preset (or ``ruleset``): the deal with the seat's own cards,
the public cards, and every card the others played; their unseen cards are dealt among them
in any order (a bot decides from the seat's view, which does not show them). Every play of
the history is checked as the referee checks a record's, so a request that could not come
from the judge (a card twice, a card the seat cannot hold, a play out of turn or one the
rules forbid) is refused in one line naming the request and the field, and no play is made.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ddz_rules import cards
from ddz_rules.auction import finished_auctions
from ddz_rules.bots import make_bot
from ddz_rules.dealsets import douzero_fit
from ddz_rules.errors import IllegalActionError, RecordError, UsageError
from ddz_rules.game import PASS, Deal, Hand, Phase
from ddz_rules.records import parse_json
from ddz_rules.ruleset import Ruleset, load

#: The presets of Botzone's two games.
FTL1, FTL2 = "botzone-ftl1", "botzone"
#: Largest input read (a whole game's requests take a few kilobytes).
MAX_INPUT_BYTES = 1 << 20
#: Most requests one input holds (a hand has at most about sixty turns a seat).
MAX_REQUESTS = 200
#: What a long-running bot prints after its answer, to be sent the next request alone.
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
#: Botzone's bids and our auction words.
WORDS = {0: PASS, 1: "1", 2: "2", 3: "3"}
BIDS = {word: bid for bid, word in WORDS.items()}
SEATS = 3


@dataclass(frozen=True)
class Situation:
    """The game a Botzone input describes, rebuilt: the hand as it stands for the seat to
    answer, the seat, and its cards' numbers still held."""

    hand: Hand
    seat: int
    held: tuple[int, ...]


def read_input(text: str, where: str = "input") -> tuple[list[Any], list[Any]]:
    """The requests and responses of a Botzone input, checked for shape."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_INPUT_BYTES:
        raise RecordError(f"{where}: over {MAX_INPUT_BYTES} bytes; a Botzone input is smaller")
    data = parse_json(text, where)
    if not isinstance(data, dict) or not isinstance(data.get("requests"), list):
        raise RecordError(f"{where}: a Botzone input is a JSON object with requests and "
                          "responses")
    requests, responses = data["requests"], data.get("responses", [])
    if not isinstance(responses, list):
        raise RecordError(f"{where}: field responses: a list of this bot's answers")
    if not requests or len(requests) > MAX_REQUESTS:
        raise RecordError(f"{where}: field requests: 1 to {MAX_REQUESTS} requests, got "
                          f"{len(requests)}")
    if len(responses) != len(requests) - 1:
        raise RecordError(f"{where}: {len(requests)} requests and {len(responses)} responses; "
                          "every request but the last has this bot's answer")
    for number, request in enumerate(requests):
        if not isinstance(request, dict):
            raise RecordError(f"{where}: field requests.{number}: a request is a JSON object")
    return requests, responses


def game_of(requests: Sequence[dict[str, Any]]) -> str:
    """The preset of the game the requests come from: FightTheLandlord2 bids and names its
    landlord, FightTheLandlord does neither."""
    return FTL2 if any(key in r for r in requests for key in ("bid", "landlord")) else FTL1


def respond(text: str, level: str = "extreme", ruleset: str | None = None,
            seed: int | None = None, where: str = "input") -> Any:
    """The answer to a Botzone input: a bid (FightTheLandlord2's bidding) or a list of cards
    (``[]`` a pass), chosen by a bot of ``level``. ``seed`` seeds the bot's draws (None: the
    input's digest, so that one input always gets one answer)."""
    requests, responses = read_input(text, where)
    rules = load(ruleset or game_of(requests))
    why = douzero_fit(rules)  # Botzone's deal is DouZero's: seat 0 speaks first
    if why:
        raise UsageError(f"ruleset {rules.id} does not deal Botzone's game: {why}")
    situation = situation_of(rules, requests, responses, where)
    bot = make_bot(level, rules)
    if seed is None:
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:8],
                              "big")
    choice = bot.choose(situation.hand.view(situation.seat), random.Random(seed))
    if situation.hand.phase is Phase.AUCTION:
        assert isinstance(choice, str)
        return BIDS[choice]
    if isinstance(choice, str):
        return []
    left = list(situation.held)
    out = []
    for rank in cards.ranks_of(choice.key):
        card = min(c for c in left if rank_of(c) == rank)
        left.remove(card)
        out.append(card)
    return out


def rank_of(card: int) -> int:
    """Our rank of a Botzone card: ``card // 4`` from the 3 to the 2, then the jokers."""
    return card // 4 if card < 52 else card - 52 + cards.RANK_INDEX["B"]


def _cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or len(value) > 54:
        raise RecordError(f"{where}: a list of cards (0 to 53)")
    for card in value:
        if type(card) is not int or not 0 <= card <= 53:
            raise RecordError(f"{where}: {str(card)[:20]!r} is not a card (0 to 53)")
    if len(set(value)) != len(value):
        twice = next(c for c in value if value.count(c) > 1)
        raise RecordError(f"{where}: card {twice} appears twice")
    return value


def _key(listed: Sequence[int]) -> int:
    return cards.pack_ranks(rank_of(c) for c in listed)


def situation_of(rules: Ruleset, requests: list[dict[str, Any]], responses: list[Any],
                 where: str = "input") -> Situation:
    """The game the requests and responses describe, for the seat that answers the last."""
    first = requests[0]
    own = _cards(first.get("own"), f"{where}: field requests.0.own")
    auction_words: list[str] = []
    play_from = 0
    bidding = "bid" in first
    if bidding:
        bids = first["bid"]
        if (not isinstance(bids, list) or len(bids) >= SEATS
                or any(type(b) is not int or b not in WORDS for b in bids)):
            raise RecordError(f"{where}: field requests.0.bid: the bids before this seat, "
                              "each 0 to 3")
        seat = len(bids)
        auction_words = [WORDS[b] for b in bids]
        if len(requests) > 1:
            if type(responses[0]) is not int or responses[0] not in WORDS:
                raise RecordError(f"{where}: field responses.0: this seat's bid, 0 to 3")
            auction_words.append(WORDS[responses[0]])
        play_from = 1
    if len(requests) == play_from:  # FightTheLandlord2's bidding request is the last
        return _bidding(rules, own, seat, auction_words, where)
    opening = requests[play_from]
    at = f"{where}: field requests.{play_from}"
    public = _cards(opening.get("publiccard"), f"{at}.publiccard")
    if len(public) != 3:
        raise RecordError(f"{at}.publiccard: three public cards, got {len(public)}")
    if "landlord" in opening:
        landlord = _number(opening, "landlord", 0, 2, at)
        seat = _number(opening, "pos", 0, 2, at)
        final = _number(opening, "finalbid", 1, 3, at)
        if play_from == 1 and seat != len(first["bid"]):
            raise RecordError(f"{at}.pos: seat {seat}, but this seat bid after "
                              f"{len(first['bid'])} bids, as seat {len(first['bid'])}")
        own = _cards(opening.get("own", own), f"{at}.own")
        auction_words = _auction_matching(rules, auction_words, landlord, final, at)
    else:  # FightTheLandlord: seat 0 is the landlord, and his 20 cards hold the public three
        landlord = 0
        history = opening.get("history")
        if len(own) == 20:
            seat = 0
        elif isinstance(history, list) and history and history[0] == []:
            seat = 1
        else:
            seat = 2
    mine = own + (public if seat == landlord and len(own) == 17 else [])
    if len(mine) != (20 if seat == landlord else 17):
        raise RecordError(f"{where}: field requests.0.own: {len(own)} cards, but seat {seat} "
                          f"holds {20 if seat == landlord else 17}")
    if seat != landlord and set(public) & set(mine):
        raise RecordError(f"{at}.publiccard: the landlord's cards, but this seat holds "
                          f"{sorted(set(public) & set(mine))[0]}")
    if seat == landlord and not set(public) <= set(mine):
        raise RecordError(f"{at}.publiccard: the landlord holds them, but this seat, the "
                          "landlord, does not")
    moves = _moves(requests, responses, play_from, seat, landlord, where)
    return _rebuilt(rules, mine, public, seat, landlord, auction_words, moves, where)


def _number(request: dict[str, Any], name: str, low: int, high: int, at: str) -> int:
    value = request.get(name)
    if type(value) is not int or not low <= value <= high:
        raise RecordError(f"{at}.{name}: {str(value)[:20]!r}; expected {low} to {high}")
    return value


def _bidding(rules: Ruleset, own: list[int], seat: int, words: list[str],
             where: str) -> Situation:
    if len(own) != 17:
        raise RecordError(f"{where}: field requests.0.own: {len(own)} cards; a seat bids "
                          "with 17")
    hand = _hand(rules, {seat: own}, [], landlord=None, where=where)
    _say(hand, words, f"{where}: field requests.0.bid")
    if hand.phase is not Phase.AUCTION or hand.to_act != seat:
        raise RecordError(f"{where}: field requests.0.bid: after these bids the auction is "
                          "not this seat's to speak")
    return Situation(hand, seat, tuple(own))


def _auction_matching(rules: Ruleset, said: list[str], landlord: int, final: int,
                      where: str) -> list[str]:
    """Auction words that begin with those this seat knows, make ``landlord`` the landlord
    and end at the bid ``final``: the judge tells a seat no more of the auction."""
    if rules.auction_family == "none":
        return []
    for words, outcome in finished_auctions(rules, 0, said):
        if outcome.landlord == landlord and max(outcome.bid, 1) == final:
            return list(words)
    raise RecordError(f"{where}: no auction of {rules.id} with these bids makes seat "
                      f"{landlord} the landlord at {final}")


def _moves(requests: list[dict[str, Any]], responses: list[Any], play_from: int, seat: int,
           landlord: int, where: str) -> list[tuple[int, list[int], str]]:
    """Every move of the play so far, in order: (seat, cards, where it was read)."""
    moves: list[tuple[int, list[int], str]] = []
    ahead = (seat - landlord) % SEATS  # seats that moved before this seat's first turn
    for number in range(play_from, len(requests)):
        at = f"{where}: field requests.{number}.history"
        history = requests[number].get("history")
        if not isinstance(history, list) or len(history) != 2:
            raise RecordError(f"{at}: the plays of the two seats before this one, two lists")
        entries = list(enumerate(history))
        if number == play_from:
            entries = entries[2 - ahead:]
        for index, listed in entries:
            moves.append(((seat + 1 + index) % SEATS, _cards(listed, f"{at}.{index}"),
                          f"{at}.{index}"))
        if number < len(requests) - 1:
            moves.append((seat, _cards(responses[number], f"{where}: field responses.{number}"),
                          f"{where}: field responses.{number}"))
    return moves


def _rebuilt(rules: Ruleset, mine: list[int], public: list[int], seat: int, landlord: int,
             words: list[str], moves: list[tuple[int, list[int], str]],
             where: str) -> Situation:
    known: dict[int, list[int]] = {seat: list(mine)}
    if seat != landlord:
        known[landlord] = list(public)
    played: set[int] = set()
    for mover, listed, at in moves:
        for card in listed:
            if card in played:
                raise RecordError(f"{at}: card {card} was played before")
            if mover == seat and card not in mine:
                raise RecordError(f"{at}: card {card} is not this seat's")
            if mover != seat and card in mine:
                raise RecordError(f"{at}: card {card} is this seat's, not seat {mover}'s")
            if mover != landlord and card in public:
                raise RecordError(f"{at}: card {card} is a public card, the landlord's, not "
                                  f"seat {mover}'s")
            played.add(card)
            if card not in known.setdefault(mover, []):
                known[mover].append(card)
    hand = _hand(rules, known, public, landlord, where)
    _say(hand, words, f"{where}: the auction")
    held = list(mine)
    for mover, listed, at in moves:
        if hand.result is not None:
            raise RecordError(f"{at}: a move after the hand is over")
        if hand.to_act != mover:
            raise RecordError(f"{at}: seat {mover} moves where seat {hand.to_act} is next")
        try:
            key = _key(listed)
            hand.apply((hand.play_of(key) or cards.key_text(key)) if listed else PASS)
        except IllegalActionError as exc:
            shown = cards.key_text(_key(listed)) if listed else PASS
            raise RecordError(f"{at}: seat {mover}'s {shown} is not a move {rules.id} allows "
                              f"here: {exc}") from None
        if mover == seat:
            for card in listed:
                held.remove(card)
    if hand.result is not None:
        raise RecordError(f"{where}: the hand is over; the last request asks for no move")
    if hand.to_act != seat:
        raise RecordError(f"{where}: the last request is seat {hand.to_act}'s turn, not this "
                          f"seat's ({seat})")
    return Situation(hand, seat, tuple(held))


def _say(hand: Hand, words: list[str], where: str) -> None:
    try:
        for word in words:
            hand.apply(word)
    except IllegalActionError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _hand(rules: Ruleset, known: dict[int, list[int]], public: list[int],
          landlord: int | None, where: str) -> Hand:
    """A deal agreeing with what the seat knows: each seat's known cards (the landlord's
    public ones among them), the others dealt lowest first, seat after seat, and, before
    there is a landlord, the three public cards face down among them."""
    size = {s: 17 + (3 if s == landlord else 0) for s in range(SEATS)}
    seen = {card for listed in known.values() for card in listed}
    unseen = sorted(set(range(54)) - seen)
    full: dict[int, list[int]] = {}
    for s in range(SEATS):
        listed = list(known.get(s, []))
        if len(listed) > size[s]:
            raise RecordError(f"{where}: seat {s} has played {len(listed)} cards, more than "
                              f"the {size[s]} it holds")
        need = size[s] - len(listed)
        full[s], unseen = listed + unseen[:need], unseen[need:]
    kitty = _key(public if landlord is not None else unseen[:3])
    hands = [_key(full[s]) - (kitty if s == landlord else 0) for s in range(SEATS)]
    return Hand(rules, Deal(tuple(hands), kitty, 0, SEATS - 1, 0))


def main_loop(read_line: Any, write: Any, level: str, ruleset: str | None, seed: int | None,
              keep_running: bool, where: str = "input") -> None:
    """Answer one input, or (``keep_running``) answer it and every bare request that
    follows, one line each, as a long-running Botzone bot does. ``where`` names the input
    in errors: its file, or ``input`` where it is standard input."""
    text = read_line()
    if not text.strip():
        raise RecordError(f"{where}: empty; a Botzone input is one line of JSON")
    requests, responses = read_input(text, where)
    while True:
        value = respond(json.dumps({"requests": requests, "responses": responses}), level,
                        ruleset, seed, where)
        write(json.dumps({"response": value}))
        if not keep_running:
            return
        write(KEEP_RUNNING)
        line = read_line()
        if not line.strip():
            return
        request = parse_json(line, f"request {len(requests)}")
        requests = [*requests, request]
        responses = [*responses, value]
