"""Hand records: one hand as JSON, written by ``ddz simulate`` and checked by ``ddz replay``.

The format is documented by ``schema/record.schema.json``. Replaying rebuilds the deal from
the record, checks that it adds up to the ruleset's deck and that the first bidder follows the
ruleset's rule, then applies every action in order; the first illegal one is reported with
its index and a one-line reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.auction import IllegalActionError
from ddz_rules.errors import DdzError
from ddz_rules.game import PASS, Deal, Hand, Passed, Played, Said, deal, first_bidder
from ddz_rules.inputs import read_bounded, strict_validator
from ddz_rules.ruleset import Ruleset, load

MAX_RECORD_BYTES = 1024 * 1024


class RecordError(DdzError):
    """A record that cannot be replayed at all: bad JSON, a wrong field, a deal that does not
    add up. Names the file and the field at fault."""


@cache
def record_schema() -> dict[str, Any]:
    text = (Path(__file__).parent / "schema" / "record.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def to_record(hand: Hand) -> dict[str, Any]:
    """The record of a hand (finished or not)."""
    table = hand.table
    plays: list[str] = []
    auction: list[str] = []
    for op in hand.log:
        if isinstance(op, Said):
            auction.append(op.word)
        elif isinstance(op, Played):
            plays.append(table.notation(op.play))
        elif isinstance(op, Passed):
            plays.append(PASS)
    d = hand.deal
    record: dict[str, Any] = {
        "ruleset": hand.ruleset.id,
        "seed": d.seed,
        "dealer": d.dealer,
        "deal": {"hands": [cards.key_text(h) for h in d.hands], "kitty": cards.key_text(d.kitty),
                 "undealt": cards.key_text(d.undealt)},
        "first_bidder": d.first_bidder,
        "auction": auction,
        "plays": plays,
    }
    if d.marked_card is not None:
        record["marked_card"] = cards.RANKS[d.marked_card]
    if d.turned_card is not None:
        record["turned_card"] = cards.RANKS[d.turned_card]
    if hand.result is not None:
        record["result"] = hand.result.to_json()
    return record


def read_record(path: str) -> dict[str, Any]:
    """Load a record file, refusing what is not one."""
    raw = read_bounded(path, MAX_RECORD_BYTES, lambda reason: RecordError(f"{path}: {reason}"))
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", None)
        raise RecordError(f"{path}{f':{line}' if line else ''}: not JSON: "
                          f"{getattr(exc, 'msg', exc)}") from None
    return check_shape(data, path)


def check_shape(data: Any, where: str = "record") -> dict[str, Any]:
    """Validate a record against its JSON Schema; one line naming the field at fault."""
    errors = sorted(strict_validator(record_schema()).iter_errors(data),
                    key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error = errors[0]
        field = ".".join(str(k) for k in error.absolute_path) or "(top level)"
        message = error.message
        if error.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown field")
        raise RecordError(f"{where}: field {field}: {message}")
    if not isinstance(data, dict):  # pragma: no cover - the schema requires an object
        raise RecordError(f"{where}: a record is a JSON object")
    return data


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a record."""

    valid: bool
    hand: Hand
    index: int | None = None
    action: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.valid:
            return {"valid": False, "index": self.index, "action": self.action,
                    "reason": self.reason}
        result = self.hand.result
        assert result is not None
        return {"valid": True, **result.to_json()}


def deal_from_record(ruleset: Ruleset, record: dict[str, Any], where: str) -> Deal:
    """Rebuild and check the deal a record states."""
    spec = record["deal"]

    def packed(text: str, field: str) -> int:
        try:
            return cards.pack_ranks(ruleset.parse_cards(text))
        except DdzError as exc:
            raise RecordError(f"{where}: field {field}: {exc}") from None

    hands = spec["hands"]
    if len(hands) != ruleset.players:
        raise RecordError(f"{where}: field deal.hands: {len(hands)} hands, but {ruleset.id} "
                          f"has {ruleset.players} seats")
    keys = tuple(packed(h, f"deal.hands.{i}") for i, h in enumerate(hands))
    for i, key in enumerate(keys):
        if cards.size(key) != ruleset.hand_size:
            raise RecordError(f"{where}: field deal.hands.{i}: {cards.size(key)} cards, but "
                              f"{ruleset.id} deals {ruleset.hand_size}")
    kitty = packed(spec["kitty"], "deal.kitty")
    if cards.size(kitty) != ruleset.kitty:
        raise RecordError(f"{where}: field deal.kitty: {cards.size(kitty)} cards, but "
                          f"{ruleset.id}'s kitty has {ruleset.kitty}")
    undealt = packed(spec.get("undealt", ""), "deal.undealt")
    total = sum(keys) + kitty + undealt
    if cards.unpack(total) != ruleset.copies:
        missing = cards.unpack(ruleset.deck_key)
        over = [cards.RANKS[r] for r, (n, m) in enumerate(zip(cards.unpack(total), missing,
                                                             strict=True)) if n != m]
        raise RecordError(f"{where}: field deal: the hands, kitty and undealt cards do not add "
                          f"up to the {ruleset.id} deck (wrong count of {', '.join(over)})")
    dealer = record.get("dealer", 0)
    first = record["first_bidder"]
    for name, seat in (("dealer", dealer), ("first_bidder", first)):
        if seat >= ruleset.players:
            raise RecordError(f"{where}: field {name}: seat {seat}, but seats are 0 to "
                              f"{ruleset.players - 1}")
    marked = turned = None
    method = ruleset.first_bidder
    if method == "marked_card":
        marked = _rank_field(record, "marked_card", where)
        if cards.unpack(keys[first])[marked] == 0:
            raise RecordError(f"{where}: field marked_card: seat {first} bids first but was "
                              f"not dealt a {cards.RANKS[marked]}")
    elif method == "turned_card":
        turned = _rank_field(record, "turned_card", where)
    if method in ("turned_card", "left_of_dealer"):
        expected = first_bidder(ruleset, dealer, turned)
        if first != expected:
            raise RecordError(f"{where}: field first_bidder: {ruleset.id} has seat {expected} "
                              f"bid first (auction.first_bidder: {method}), not {first}")
    stated = Deal(keys, kitty, undealt, dealer, first, marked, turned, record.get("seed"))
    if stated.seed is not None and deal(ruleset, stated.seed, dealer) != stated:
        raise RecordError(f"{where}: field seed: seed {stated.seed} does not produce this deal")
    return stated


def _rank_field(record: dict[str, Any], field: str, where: str) -> int:
    value = record.get(field)
    if not isinstance(value, str) or len(cards.parse(value)) != 1:
        raise RecordError(f"{where}: field {field}: this ruleset needs the rank of the "
                          f"{field.replace('_', ' ')}, one card")
    return cards.parse(value)[0]


def replay(record: dict[str, Any], where: str = "record") -> Replay:
    """Apply every action of a record; stop at the first illegal one."""
    try:
        ruleset = load(record["ruleset"])
    except DdzError as exc:
        raise RecordError(f"{where}: field ruleset: {exc}") from None
    hand = Hand(ruleset, deal_from_record(ruleset, record, where))
    actions = [*record["auction"], *record["plays"]]
    n_auction = len(record["auction"])
    for index, action in enumerate(actions):
        in_auction = index < n_auction
        try:
            if in_auction and hand.phase.value != "auction":
                raise IllegalActionError(f"the auction is already over; {action!r} is one "
                                         "auction word too many")
            if not in_auction and hand.phase.value == "auction":
                raise IllegalActionError("a play before the auction is over")
            hand.apply(action)
        except IllegalActionError as exc:
            return Replay(False, hand, index, action, str(exc))
    if hand.result is None:
        return Replay(False, hand, len(actions), None,
                      f"the record stops before the hand ends ({hand.phase.value} phase, "
                      f"seat {hand.to_act} to act)")
    return Replay(True, hand)
