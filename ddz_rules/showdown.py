"""Other projects' replays: rlcard-showdown's replay JSON and RLCard's game traces, to and
from hand records, so that their games can be judged by our referee and ours watched in
their viewer.

rlcard-showdown's replay (what its Dou Dizhu replay view loads, and what its tournament
server saves) is a JSON object:

* ``initHands``: each seat's cards as the play begins (the landlord's 20, the kitty
  included), suited card text separated by spaces: suit ``S`` ``H`` ``D`` ``C`` then rank
  ``3``..``9`` ``T`` ``J`` ``Q`` ``K`` ``A`` ``2``; ``BJ`` the small joker, ``RJ`` the big;
* ``playerInfo``: per seat, ``index`` (the seat), ``id``, ``role`` (``landlord`` or
  ``peasant``, one landlord) and ``agentInfo`` (``name``);
* ``moveHistory``: every turn from the landlord's first lead, seat after seat:
  ``playerIdx``, ``move`` (suited cards, or ``pass``; ``""``, ``[]`` and the older ``P``
  are read as a pass too) and ``info`` (``[]``: a rule-based player).

It keeps neither the auction nor which of the landlord's cards were the kitty; an export
states both, with the record's ruleset, dealer and seed, in a field of its own, ``ddzRules``,
which the viewer does not read, so that the replay reads back into the same record. A
replay without it takes the kitty from ``kitty`` (else the landlord's three highest cards:
which three changes no play or score of a game without kitty rules) and the cheapest
auction that makes the landlord (:func:`~ddz_rules.auction.cheapest_auction`).

RLCard's trace (``rlcard-trace``) is what RLCard's Dou Dizhu game shows of a hand, as JSON:
``hand_cards`` (the three hands as dealt, in RLCard's rank text, as
``env.get_perfect_information()`` gives them right after ``env.reset()``), ``trace`` (every
turn as ``[player, action]``, ``action`` rank text or ``pass``: the game's
``round.public['trace']``), and optionally ``seen_cards`` (the kitty's ranks at the reset)
and ``landlord`` (RLCard's is always seat 0).

Importing checks the structure (every card once, a whole deck, the seats taking turns, every
move held by its player) and refuses what fails in one line naming the file and the field; it
does not check that a move is legal: the record says what was played, and ``ddz replay``
judges it (the first move the ruleset forbids is named, with the rule).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ddz_rules import cards
from ddz_rules.auction import cheapest_auction
from ddz_rules.dealsets import common_deal_fit
from ddz_rules.errors import DdzError, IllegalActionError, RecordError, UsageError
from ddz_rules.game import PASS, Deal, Hand, Passed, Played, Said
from ddz_rules.inputs import read_bounded, strict_validator
from ddz_rules.records import (
    MAX_RECORD_BYTES,
    deal_from_record,
    deal_part,
    parse_json,
    replay,
    schema_fault,
)
from ddz_rules.ruleset import Ruleset, bundled_ids, load, load_bundled

IMPORT_FORMATS = ("showdown", "rlcard-trace")
SUITS = "SHDC"
JOKERS = {cards.RANK_INDEX["B"]: "BJ", cards.RANK_INDEX["R"]: "RJ"}
JOKER_RANKS = {text: rank for rank, text in JOKERS.items()}
#: The moves read as a pass: rlcard-showdown's ``pass``, ``""`` and ``[]``, the older "P".
PASS_MOVES = ("pass", "", "P")
#: The ruleset a replay without ``ddzRules`` is read under: RLCard's game.
DEFAULT_RULESET = "rlcard"
_CARDS = {"type": "string", "maxLength": 400}
_MOVE = {"anyOf": [_CARDS, {"type": "array", "maxItems": 20,
                             "items": {"type": "string", "maxLength": 4}}]}
SHOWDOWN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["initHands", "playerInfo", "moveHistory"],
    "properties": {
        "initHands": {"type": "array", "minItems": 3, "maxItems": 3, "items": _CARDS},
        "playerInfo": {"type": "array", "minItems": 3, "maxItems": 3, "items": {
            "type": "object", "required": ["index", "role"],
            "properties": {"index": {"type": "integer"}, "id": {"type": "integer"},
                           "role": {"enum": ["landlord", "peasant"]}}}},
        "moveHistory": {"type": "array", "maxItems": 1000, "items": {
            "type": "object", "required": ["playerIdx", "move"],
            "properties": {"playerIdx": {"type": "integer"}, "move": _MOVE,
                           "reading": {"type": "string", "maxLength": 40}}}},
        "ddzRules": {"type": "object", "properties": {
            "ruleset": {"type": "string", "maxLength": 200}, "kitty": _CARDS,
            "auction": {"type": "array", "maxItems": 64,
                        "items": {"type": "string", "maxLength": 16}},
            "dealer": {"type": "integer", "minimum": 0, "maximum": 2},
            "first_bidder": {"type": "integer", "minimum": 0, "maximum": 2},
            "seed": {"type": ["integer", "null"]},
            "marked_card": {"type": "string", "maxLength": 2},
            "turned_card": {"type": "string", "maxLength": 2}}},
    },
}
TRACE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["hand_cards", "trace"],
    "properties": {
        "hand_cards": {"type": "array", "minItems": 3, "maxItems": 3, "items": _CARDS},
        "trace": {"type": "array", "maxItems": 1000, "items": {
            "type": "array", "minItems": 2, "maxItems": 2,
            "prefixItems": [{"type": "integer", "minimum": 0, "maximum": 2}, _CARDS]}},
        "seen_cards": _CARDS,
        "landlord": {"type": "integer", "minimum": 0, "maximum": 2},
    },
}


def fit(ruleset: Ruleset) -> str | None:
    """Why a hand of ``ruleset`` has no rlcard-showdown replay (None where it has): the
    viewer shows three seats, one landlord against two peasants, with the 54-card deck."""
    if not ruleset.has_landlord or ruleset.players != 3 or ruleset.partner_rule != "none":
        return "RLCard's game (and its viewer) has three seats, a landlord against two peasants"
    why = common_deal_fit(ruleset)
    return None if why is None else "RLCard's game (and its viewer) deals hands of 17 and " \
        f"20 from the 54-card deck, and {why}"


# ------------------------------------------------------------------------- export


def suited(hands: list[int]) -> list[list[str]]:
    """Suited cards for each rank-count hand: each rank's suits taken in the order
    ``S H D C`` by the first hand, then the next; the jokers ``BJ`` and ``RJ``."""
    used = [0] * len(cards.RANKS)
    out = []
    for key in hands:
        held = []
        for rank in cards.ranks_of(key):
            if rank in JOKERS:
                held.append(JOKERS[rank])
            else:
                held.append(SUITS[used[rank]] + cards.RANKS[rank])
                used[rank] += 1
        out.append(held)
    return out


def to_showdown(record: dict[str, Any], where: str = "record") -> dict[str, Any]:
    """The rlcard-showdown replay of a valid hand record (its ``ddzRules`` field keeps what
    the viewer does not show: ruleset, kitty, auction, dealer and seed)."""
    outcome = replay(record, where)
    hand = outcome.hand
    why = fit(hand.ruleset)
    if why:
        raise UsageError(f"{where}: a {hand.ruleset.id} hand has no rlcard-showdown replay: "
                         f"{why}")
    if not outcome.valid:
        raise UsageError(f"{where}: the record is invalid at action {outcome.index} "
                         f"({outcome.reason}); only a valid record is exported")
    if hand.landlord is None:
        raise UsageError(f"{where}: the hand was thrown in; a replay shows a hand played")
    d, landlord = hand.deal, hand.landlord
    dealt = suited([*d.hands, d.kitty])
    kitty = dealt[3]
    held = [sorted(dealt[s] + (kitty if s == landlord else []), key=_order) for s in range(3)]
    left = [list(h) for h in held]
    moves: list[dict[str, Any]] = []
    for op in hand.log:
        if isinstance(op, Passed):
            moves.append({"playerIdx": op.seat, "move": PASS, "info": []})
        elif isinstance(op, Played):
            taken = []
            for rank in cards.ranks_of(op.play.key):
                card = next(c for c in left[op.seat] if _rank(c) == rank)
                left[op.seat].remove(card)
                taken.append(card)
            move: dict[str, Any] = {"playerIdx": op.seat, "move": " ".join(taken), "info": []}
            named = hand.table.notation(op.play, d.wild)
            if "@" in named:  # cards that read several ways: the reading played, for us
                move["reading"] = named.split("@", 1)[1]
            moves.append(move)
    auction = [op.word for op in hand.log if isinstance(op, Said)]
    return {
        "initHands": [" ".join(h) for h in held],
        "playerInfo": [{"id": s, "index": s, "role": "landlord" if s == landlord else "peasant",
                        "agentInfo": {"name": f"seat {s}"}} for s in range(3)],
        "moveHistory": moves,
        "ddzRules": {"ruleset": record["ruleset"], "kitty": " ".join(kitty), "auction": auction,
                     "dealer": d.dealer, "first_bidder": d.first_bidder, "seed": d.seed,
                     **{k: record[k] for k in ("marked_card", "turned_card") if k in record}},
    }


def _rank(card: str) -> int:
    return JOKER_RANKS[card] if card in JOKER_RANKS else cards.RANK_INDEX[card[1]]


def _order(card: str) -> tuple[int, int]:
    return (_rank(card), SUITS.index(card[0]) if card not in JOKER_RANKS else 0)


# ------------------------------------------------------------------------- import


@dataclass(frozen=True)
class Imported:
    """A hand record made from another project's replay, and the first of its moves that
    the ruleset does not allow (its index among the record's actions and why), if any."""

    record: dict[str, Any]
    fault: tuple[int, str] | None = None


def read_replay(path: str, format: str, ruleset: str | None = None,
                kitty: str | None = None) -> Imported:
    """The file ``path`` of ``format`` (:data:`IMPORT_FORMATS`) as a hand record of
    ``ruleset`` (None: the one the file names, else RLCard's game), the kitty ``kitty``
    where the file does not say it."""
    if format not in IMPORT_FORMATS:
        raise UsageError(f"{format!r} is not a replay format; expected one of "
                         f"{', '.join(IMPORT_FORMATS)}")
    raw = read_bounded(path, MAX_RECORD_BYTES, lambda reason: RecordError(f"{path}: {reason}"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    data = parse_json(text, path)
    if format == "showdown" and isinstance(data, str):
        # rlcard-showdown's server answers with a Python repr inside a JSON string; its
        # viewer reads it back so, and so does this
        data = parse_json(data.replace("'", '"').replace("None", "null"), path)
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a {format} replay is a JSON object, not "
                          f"{type(data).__name__}")
    if format == "showdown":
        return _from_showdown(data, path, ruleset, kitty)
    return _from_trace(data, path, ruleset, kitty)


def _from_showdown(data: dict[str, Any], path: str, ruleset_name: str | None,
                   kitty_text: str | None) -> Imported:
    schema_fault(strict_validator(SHOWDOWN_SCHEMA), data, path)
    ours = data.get("ddzRules", {})
    info = data["playerInfo"]
    for position, player in enumerate(info):
        if player["index"] != position:
            raise RecordError(f"{path}: field playerInfo.{position}.index: "
                              f"{player['index']}, where the seat at position {position} is "
                              f"{position}")
    landlords = [p["index"] for p in info if p["role"] == "landlord"]
    if len(landlords) != 1:
        raise RecordError(f"{path}: field playerInfo: {len(landlords)} landlords; one seat's "
                          "role is landlord")
    landlord = landlords[0]
    hands = [_suited_cards(text.split(), f"{path}: field initHands.{s}")
             for s, text in enumerate(data["initHands"])]
    _whole_deck(hands, path, "initHands")
    turns = []
    for number, step in enumerate(data["moveHistory"]):
        move = step["move"]
        listed = move.split() if isinstance(move, str) else list(move)
        if (move if isinstance(move, str) else "".join(move)).strip() in PASS_MOVES:
            listed = []
        turns.append((step["playerIdx"], listed, f"{path}: field moveHistory.{number}"))
    _held_cards(hands, turns, landlord)
    kitty = ours.get("kitty", kitty_text)
    ranks = [sum(_key(c) for c in h) for h in hands]
    moves = [None if not held else sum(_key(c) for c in held) for _, held, _ in turns]
    readings = [step.get("reading") for step in data["moveHistory"]]
    return _record(path, ruleset_name or ours.get("ruleset"), ranks, landlord,
                   _kitty(kitty, ranks[landlord], path, "ddzRules.kitty"
                          if "kitty" in ours else None),
                   moves, ours, readings)


def _from_trace(data: dict[str, Any], path: str, ruleset_name: str | None,
                kitty_text: str | None) -> Imported:
    schema_fault(strict_validator(TRACE_SCHEMA), data, path)
    landlord = data.get("landlord", 0)
    ranks = [_rank_cards(text, f"{path}: field hand_cards.{s}")
             for s, text in enumerate(data["hand_cards"])]
    total = sum(ranks)
    if total != load_bundled("classic").deck_key:
        raise RecordError(f"{path}: field hand_cards: the three hands are not the 54-card deck")
    seen = data.get("seen_cards", kitty_text)
    kitty = _kitty(seen, ranks[landlord], path,
                   "seen_cards" if "seen_cards" in data else None)
    left = list(ranks)
    moves: list[int | None] = []
    expected = landlord
    for number, (seat, action) in enumerate(data["trace"]):
        where = f"{path}: field trace.{number}"
        if seat != expected:
            raise RecordError(f"{where}: player {seat} moves where player {expected} is next")
        expected = (seat + 1) % 3
        if action == PASS:
            moves.append(None)
            continue
        key = _rank_cards(action, where)
        if not cards.contains(left[seat], key):
            raise RecordError(f"{where}: player {seat} plays {action} but does not hold it")
        left[seat] -= key
        moves.append(key)
    return _record(path, ruleset_name, ranks, landlord, kitty, moves, {}, game="an RLCard")


def _key(card: str) -> int:
    return 1 << (cards.FIELD_BITS * _rank(card))


def _suited_cards(listed: list[str], where: str) -> list[str]:
    for card in listed:
        if not (card in JOKER_RANKS or (len(card) == 2 and card[0] in SUITS
                                        and card[1] in cards.RANKS[:13])):
            raise RecordError(f"{where}: {card[:12]!r} is not a card (a suit S, H, D or C and a "
                              "rank 3-9, T, J, Q, K, A or 2; or BJ, RJ)")
    return listed


def _rank_cards(text: str, where: str) -> int:
    try:
        return cards.pack_held(cards.parse(text), load_bundled("classic").copies)
    except DdzError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _whole_deck(hands: list[list[str]], path: str, field: str) -> None:
    seen: dict[str, int] = {}
    for seat, held in enumerate(hands):
        for card in held:
            if card in seen:
                raise RecordError(f"{path}: field {field}.{seat}: {card} is also in "
                                  f"{field}.{seen[card]}; every card is dealt once")
            seen[card] = seat
    if len(seen) != 54:
        raise RecordError(f"{path}: field {field}: {len(seen)} cards, where the deck has 54")


def _held_cards(hands: list[list[str]], turns: list[tuple[int, list[str], str]],
                landlord: int) -> None:
    """Check that the seats take turns from the landlord and play cards they hold."""
    left = [set(h) for h in hands]
    expected = landlord
    for seat, listed, where in turns:
        if seat != expected:
            raise RecordError(f"{where}.playerIdx: seat {seat} moves where seat {expected} is "
                              "next (the seats take turns from the landlord)")
        expected = (seat + 1) % 3
        _suited_cards(listed, f"{where}.move")
        for card in listed:
            if card not in left[seat]:
                raise RecordError(f"{where}.move: seat {seat} plays {card}, which it does not "
                                  "hold")
            left[seat].remove(card)


def _kitty(text: str | None, landlord: int, path: str, field: str | None) -> int:
    """The kitty: stated (suited or rank text), else the landlord's three highest cards."""
    if text is None:
        return cards.pack_ranks(cards.ranks_of(landlord)[-3:])
    listed = text.split()
    where = f"{path}: field {field}" if field else f"{path}: the kitty"
    if listed and all(c in JOKER_RANKS or len(c) == 2 for c in listed) and len(listed) == 3:
        key = sum(_key(c) for c in _suited_cards(listed, where))
    else:
        key = _rank_cards(text, where)
    if cards.size(key) != 3 or not cards.contains(landlord, key):
        raise RecordError(f"{where}: {text[:40]!r} is not three of the landlord's cards")
    return key


def _record(path: str, ruleset_name: str | None, ranks: list[int], landlord: int, kitty: int,
            moves: list[int | None], ours: dict[str, Any],
            readings: list[str | None] | None = None, game: str = "an rlcard-showdown"
            ) -> Imported:
    """The hand record of a landlord's game: its deal, an auction, and the moves as played,
    each play written with its reading where the replay names one (an export does, for
    cards that read several ways), else as the first reading the ruleset allows."""
    name = ruleset_name or DEFAULT_RULESET
    ruleset = load(name)
    why = fit(ruleset)
    if why:
        raise UsageError(f"ruleset {ruleset.id} cannot play {game} game: {why}")
    if cards.size(ranks[landlord]) != 20 or any(
            cards.size(ranks[s]) != 17 for s in range(3) if s != landlord):
        raise RecordError(f"{path}: the landlord holds {cards.size(ranks[landlord])} cards and "
                          "the peasants " + ", ".join(str(cards.size(ranks[s])) for s in range(3)
                                                     if s != landlord)
                          + "; a game begins with 20 and 17 each")
    first = ours.get("first_bidder", landlord)
    dealer = ours.get("dealer", (first - 1) % 3)
    auction = ours.get("auction")
    if auction is None:
        found = cheapest_auction(ruleset, first, landlord)
        if found is None:
            raise UsageError(f"ruleset {ruleset.id}: no auction opened by seat {first} makes "
                             f"seat {landlord} the landlord")
        auction = list(found)
    hands = [r - (kitty if s == landlord else 0) for s, r in enumerate(ranks)]
    record: dict[str, Any] = {"ruleset": ruleset.id if ruleset.id in bundled_ids() else name,
                              "seed": ours.get("seed")}
    dealt = Deal(tuple(hands), kitty, 0, dealer, first)
    record.update(deal_part(ruleset, dealt))
    record.update({k: ours[k] for k in ("marked_card", "turned_card") if k in ours})
    dealt = deal_from_record(ruleset, record, path)  # a first bidder the ruleset finds otherwise
    record["auction"] = list(auction)
    record["plays"] = []
    dealt_hand = Hand(ruleset, dealt)
    try:
        for word in auction:
            dealt_hand.apply(word)
    except IllegalActionError as exc:
        raise RecordError(f"{path}: field ddzRules.auction: {exc}") from None
    if dealt_hand.landlord != landlord:
        raise RecordError(f"{path}: the auction makes seat {dealt_hand.landlord} the landlord, "
                          f"not seat {landlord}")
    hand: Hand | None = dealt_hand
    fault = None
    for number, move in enumerate(moves):
        text = PASS if move is None else cards.key_text(move)
        named = readings[number] if readings else None
        if move is not None and named is not None:
            text = f"{text}@{named}"
        if hand is not None:
            try:
                action = text if named is not None else _reading(hand, move)
                hand.apply(action)
                if not isinstance(action, str):
                    text = hand.table.notation(action, hand.wild)
            except IllegalActionError as exc:
                fault = (len(auction) + len(record["plays"]), str(exc))
                hand = None
        record["plays"].append(text)
    if fault is None and hand is not None and hand.result is None:
        fault = (len(auction) + len(record["plays"]), "the replay stops before the hand ends")
    return Imported(record, fault)


def _reading(hand: Hand, move: int | None) -> Any:
    """The action a move is: a pass, or its cards in the first reading the hand allows now
    (rlcard-showdown names no reading; where several are allowed, any is the move), else its
    card text, which the referee refuses with the reason."""
    if move is None:
        return PASS
    return hand.play_of(move) or cards.key_text(move)


def record_json(imported: Imported) -> str:
    """An imported record as the text of a record file."""
    return json.dumps(imported.record, ensure_ascii=False, indent=1) + "\n"
