"""Hand records: one hand as JSON, written by ``ddz simulate`` and checked by ``ddz replay``.

The format is documented by ``schema/record.schema.json``. Replaying rebuilds the deal from
the record, checks that it adds up to the ruleset's deck and that the first bidder follows the
ruleset's rule, then applies every action in order; the first illegal one is reported with
its index and a one-line reason. Where the ruleset has no auction (``auction.family: none``,
or no landlord at all, ``teams.sides: each_alone``) the record's auction is empty, and any word
in it is refused so. Where the deck has suits (``deck.suits``) the deal states every card
with its suit too (``deal.suited``), and replay checks it against the ranks and the deck and
finds the first leader from it (the lead card's holder).

A record is user input, often received from someone else, so reading one trusts nothing: the
file is read by kind and size (:func:`~ddz_rules.inputs.read_bounded`), must be UTF-8, may not
nest arrays and objects deeper than a record ever does, repeat a key, or hold integers of
absurd length or text with control characters, and a ruleset it names by path is read from the
record's own folder only. Every refusal is one line naming the file and the field at fault.
"""

from __future__ import annotations

import codecs
import difflib
import json
import re
import reprlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from ddz_rules import cards
from ddz_rules.errors import (
    DdzError,
    IllegalActionError,
    Named,
    RecordError,
    UsageError,
    Words,
    parts_of,
)
from ddz_rules.game import (
    ALONE,
    CALL,
    PASS,
    Called,
    Deal,
    Hand,
    Passed,
    Phase,
    Played,
    Said,
    deal,
    first_bidder,
    first_leader,
)
from ddz_rules.inputs import read_bounded, resolve_beside, strict_validator
from ddz_rules.match import MatchState, Outcome, first_dealer, hand_winners
from ddz_rules.outputs import write_new
from ddz_rules.ruleset import Ruleset, bundled_ids, load, load_bundled
from ddz_rules.scoring import Result
from ddz_rules.wilds import wild_ranks_of

MAX_RECORD_BYTES = 1024 * 1024
#: Arrays and objects nest at most this deep in a record; the deepest a record needs is 5
#: (the record, its ``deal``, the suited deal, its ``hands``, one seat's suited cards).
MAX_DEPTH = 8
#: Digits an integer in a record may have: seats are small, and every deal seed a command
#: derives from a run seed below :data:`MAX_SEED` has fewer (a match deal's is under 2**104).
MAX_DIGITS = 40
#: Every command's run seed (``--seed``) is below this in size, as a match record's ``seed``
#: is: one bound for the command line (:func:`check_seed`), the writers and the readers.
MAX_SEED = 2**63
#: Characters a record's text may not hold: control characters (C0, DEL, C1), lone
#: surrogates, line and paragraph separators, and the bidirectional controls. Text from a
#: record is echoed in messages, and none of these may break or disguise a line.
UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: JSON tokens that matter to :func:`_scan_structure`. A string may be unterminated (the
#: closing quote is optional), so every match moves on and the scan is linear.
_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[{}\[\]:,]|-?\d++(?:\.\d*+)?+(?:[eE][+-]?\d*+)?+'
                    r"|NaN|-?Infinity")
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = _SHORT.maxtuple = 4
_SHORT.maxlevel = 2
#: The longest message line a record error shows.
MAX_MESSAGE = 300


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
    call: str | None = None
    for op in hand.log:
        if isinstance(op, Said):
            auction.append(op.word)
        elif isinstance(op, Called):
            call = op.named
        elif isinstance(op, Played):
            plays.append(table.notation(op.play, hand.deal.wild))
        elif isinstance(op, Passed):
            plays.append(PASS)
    d = hand.deal
    record: dict[str, Any] = {"ruleset": hand.ruleset.id, "seed": d.seed,
                              **deal_part(hand.ruleset, d), "auction": auction, "plays": plays}
    if call is not None:
        record["partner_call"] = call
    if hand.result is not None:
        record["result"] = hand.result.to_json()
    return record


def deal_part(ruleset: Ruleset, d: Deal) -> dict[str, Any]:
    """The fields of a record that state its deal (``dealer``, ``deal``, ``first_bidder``,
    and ``marked_card`` or ``turned_card`` where the ruleset has them), in record order: a
    record's deal, and one line of a deal set (:mod:`ddz_rules.dealsets`)."""
    part: dict[str, Any] = {
        "dealer": d.dealer,
        "deal": {"hands": [cards.key_text(h) for h in d.hands], "kitty": cards.key_text(d.kitty),
                 "undealt": cards.key_text(d.undealt)},
        "first_bidder": d.first_bidder,
    }
    if d.wild:
        part["deal"]["wild"] = "".join(cards.RANKS[r] for r in d.wild)
    if ruleset.suits:
        part["deal"]["suited"] = {"hands": [list(h) for h in d.suited],
                                  "rest": list(d.suited_rest)}
    if d.marked_card is not None:
        part["marked_card"] = cards.RANKS[d.marked_card]
    if d.turned_card is not None:
        part["turned_card"] = cards.RANKS[d.turned_card]
    return part


def ruleset_beside(folder: Path, ruleset: Ruleset,
                   instead: Words = "write the records to another folder") -> str:
    """How records written to ``folder`` name their ruleset: its id if bundled, else a copy
    of the (merged) ruleset written there as ``ID.yaml``, so the records replay anywhere.

    The copy never replaces a file (:func:`~ddz_rules.outputs.write_new`): a file of that name
    that holds the same ruleset (an earlier run's copy, or the very file being played, with
    its ``extends`` and comments) is named as it is, untouched; any other file there, a
    user's notes or another ruleset, stops the command with one line saying ``instead``."""
    if ruleset.id in bundled_ids() and load_bundled(ruleset.id) is ruleset:
        return ruleset.id
    target = folder / f"{ruleset.id}.yaml"
    if target.is_file() and _holds(target, ruleset):
        return target.name
    write_new(target, yaml.safe_dump(dict(ruleset.data), sort_keys=False, allow_unicode=True),
              (f"it is not the ruleset {ruleset.id} that the records would name; ",
               *parts_of(instead)),
              "no record was written")
    return target.name


def _holds(path: Path, ruleset: Ruleset) -> bool:
    """Whether the ruleset file ``path`` loads as ``ruleset`` (the same merged rules)."""
    try:
        return dict(load(str(path)).data) == dict(ruleset.data)
    except DdzError:
        return False


def record_text(record: dict[str, Any], path: Path) -> str:
    """A record as the text to write to ``path``, checked first by everything a reader checks
    (:func:`check_shape`, :data:`MAX_RECORD_BYTES`): the toolkit never writes a record that
    ``ddz replay`` would refuse to read."""
    try:
        check_shape(record, str(path))
    except RecordError as exc:
        raise UsageError(f"{exc}; ddz replay could not read such a record, so it was not "
                         "written") from None
    text = json.dumps(record, ensure_ascii=False) + "\n"
    size = len(text.encode("utf-8"))
    if size > MAX_RECORD_BYTES:
        raise UsageError(f"{path}: the record would be {size} bytes; ddz replay reads at most "
                         f"{MAX_RECORD_BYTES}, so it was not written")
    return text


#: The seed range in words, for every refusal of a seed.
SEED_RANGE = "an integer between -(2**63 - 1) and 2**63 - 1"


def is_seed(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a run seed: an integer within :data:`MAX_SEED` in size."""
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_SEED < value < MAX_SEED


#: The argument a seed comes in, unless a caller names another.
SEED = Named("seed")


def check_seed(seed: int, name: str | Named = SEED) -> int:
    """A run seed, or one line naming the argument it came in (``name``) and the range:
    :data:`MAX_SEED`."""
    if not is_seed(seed):
        raise UsageError(name, f" must be {SEED_RANGE}, got {_SHORT.repr(seed)}")
    return seed


def read_record(path: str) -> dict[str, Any]:
    """Load a record file, refusing what is not one (one line naming the file and field)."""
    raw = read_bounded(path, MAX_RECORD_BYTES, lambda reason: RecordError(f"{path}: {reason}"))
    return parse_record(raw, path)


def parse_record(raw: bytes, path: str) -> dict[str, Any]:
    """A record's bytes (at most :data:`MAX_RECORD_BYTES`) as a checked record, refusing
    what is not one in one line naming ``path`` (the file, or where the bytes came from) and
    the field: what :func:`read_record` does once it has read the file."""
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: over {MAX_RECORD_BYTES} bytes; a record is smaller")
    skip = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    try:
        text = raw[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        at = skip + exc.start
        line = raw.count(b"\n", 0, at) + 1
        raise RecordError(f"{path}:{line}: not UTF-8 text (byte {at})") from None
    return check_shape(parse_json(text, path), path)


def parse_json(text: str, where: str, first_line: int = 1) -> Any:
    """JSON text read as a record is (:func:`_scan_structure` first: no deep nesting, repeated
    key, huge integer or NaN), or one line naming ``where`` (the file) and the line, counted
    from ``first_line`` (a deal set's line)."""
    _scan_structure(text, where, first_line)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys(where),
                          parse_constant=_no_constant(where))
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}:{first_line + exc.lineno - 1}: not JSON: {exc.msg}") from None
    except RecursionError:  # pragma: no cover - _scan_structure bounds the nesting first
        raise RecordError(f"{where}: not a record: arrays and objects nested too deep") from None


@dataclass
class _Open:
    """An array or object open at one point of :func:`_scan_structure`."""

    kind: str
    at: str | int | None
    keys: dict[str, int]
    expect_key: bool


def _scan_structure(text: str, where: str, first_line: int = 1) -> None:
    """Refuse, before parsing, what the JSON parser would choke on or silently accept.

    One linear pass over the tokens that matter: arrays and objects nested deeper than
    :data:`MAX_DEPTH` (the parser recurses, so a deep enough file would exhaust the stack),
    a key repeated in one object (the parser would keep the last), an integer longer than
    :data:`MAX_DIGITS` digits, and ``NaN`` or ``Infinity`` (not JSON). Each is reported with
    its line and field. Anything else malformed is left to the parser, which says where.
    """
    stack: list[_Open] = []
    line, seen = first_line, 0

    def line_at(pos: int) -> int:
        nonlocal line, seen
        line += text.count("\n", seen, pos)
        seen = pos
        return line

    def fault(pos: int, message: str) -> RecordError:
        return RecordError(f"{where}:{line_at(pos)}: field {_dotted(f.at for f in stack)}: "
                           f"{message}")

    for match in _TOKEN.finditer(text):
        token, pos = match.group(), match.start()
        first = token[0]
        top = stack[-1] if stack else None
        if first == '"':
            if top is None or top.kind != "{" or not top.expect_key:
                continue
            try:
                key = json.loads(token)
            except ValueError:
                return  # a malformed string: the parser names it
            top.expect_key, top.at = False, key
            if key in top.keys:
                raise fault(pos, f"duplicate key {_SHORT.repr(key)} (first at line "
                                 f"{top.keys[key]}); a key appears once in an object")
            top.keys[key] = line_at(pos)
        elif first in "{[":
            if len(stack) >= MAX_DEPTH:
                raise fault(pos, f"arrays and objects nested more than {MAX_DEPTH} deep; a "
                                 "record needs 5")
            stack.append(_Open(first, None if first == "{" else 0, {}, first == "{"))
        elif first in "}]":
            if stack:
                stack.pop()
        elif first == ",":
            if top is not None and top.kind == "{":
                top.expect_key = True
            elif top is not None and isinstance(top.at, int):
                top.at += 1
        elif token in ("NaN", "Infinity", "-Infinity"):
            raise fault(pos, f"{token} is not JSON; a number is finite")
        elif first in "-0123456789":
            digits = token.lstrip("-")
            if digits.isdigit() and len(digits) > MAX_DIGITS:
                raise fault(pos, f"an integer of {len(digits)} digits; a record's integers "
                                 f"have at most {MAX_DIGITS}")


def _unique_keys(where: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """The parser's object hook: refuse a repeated key (:func:`_scan_structure` says where)."""

    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        made = dict(pairs)
        if len(made) != len(pairs):  # pragma: no cover - _scan_structure finds it first
            keys = [k for k, _ in pairs]
            repeated = next(k for i, k in enumerate(keys) if k in keys[:i])
            raise RecordError(f"{where}: duplicate key {_SHORT.repr(repeated)}; a key appears "
                              "once in an object")
        return made

    return build


def _no_constant(where: str) -> Callable[[str], Any]:
    """The parser's hook for NaN and Infinity, which JSON does not have."""

    def refuse(token: str) -> Any:  # pragma: no cover - _scan_structure finds it first
        raise RecordError(f"{where}: {token} is not JSON; a number is finite")

    return refuse


def _label(key: str) -> str:
    """A key as a message shows it: itself when short and printable, else shortened."""
    if key and len(key) <= 40 and not UNPRINTABLE.search(key) and key == key.strip():
        return key
    return _SHORT.repr(key)


def _dotted(path: Any) -> str:
    """A field's path as ``deal.hands.0``."""
    parts = [_label(k) if isinstance(k, str) else str(k) for k in path if k is not None]
    return ".".join(parts) or "(top level)"


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "a number" if isinstance(value, int | float) else type(value).__name__


def _check_values(data: dict[str, Any], where: str) -> None:
    """Refuse what a schema cannot: nesting, huge integers and unprintable text, anywhere.

    Iterative, so a record built in Python nested thousands deep is refused, not recursed into.
    """
    todo: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while todo:
        value, path = todo.pop()
        if isinstance(value, dict | list):
            if len(path) >= MAX_DEPTH:
                raise RecordError(f"{where}: field {_dotted(path)}: arrays and objects nested "
                                  f"more than {MAX_DEPTH} deep; a record needs 5")
            items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
            for key, item in reversed(items):
                bad = UNPRINTABLE.search(key) if isinstance(key, str) else None
                if bad:
                    raise RecordError(f"{where}: field {_dotted(path)}: key {_SHORT.repr(key)} "
                                      f"holds {_unprintable(bad.group())}; a record's text is "
                                      "printable")
                todo.append((item, (*path, key)))
        elif isinstance(value, str):
            bad = UNPRINTABLE.search(value)
            if bad:
                raise RecordError(f"{where}: field {_dotted(path)}: holds "
                                  f"{_unprintable(bad.group())}; a record's text is printable")
        elif isinstance(value, int) and not isinstance(value, bool) and (
                abs(value) >= 10 ** MAX_DIGITS):
            raise RecordError(f"{where}: field {_dotted(path)}: an integer of more than "
                              f"{MAX_DIGITS} digits")


def _unprintable(char: str) -> str:
    code = ord(char)
    what = ("a lone surrogate" if 0xD800 <= code <= 0xDFFF
            else "a line separator" if code in (0x2028, 0x2029)
            else "a direction control" if code >= 0x202A
            else "a control character")
    return f"U+{code:04X}, {what}"


@cache
def match_record_schema() -> dict[str, Any]:
    text = (Path(__file__).parent / "schema" / "match-record.schema.json").read_text(
        encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def is_match_record(data: Any) -> bool:
    """A match record holds ``seats`` and a list of ``hands``; a hand record holds ``deal``."""
    return isinstance(data, dict) and "seats" in data and "deal" not in data


#: What each kind of record holds, for the message that refuses the other kind.
_HOLDS = {"hand": "deal, first_bidder, auction and plays",
          "match": "seats, hands, totals, winners and tie"}


def check_shape(data: Any, where: str = "record", expected: str | None = None,
                at: tuple[str | int, ...] = ()) -> dict[str, Any]:
    """Validate a record against its JSON Schema; one line naming the field at fault.

    ``expected`` is ``"hand"`` or ``"match"`` where only one kind will do (``None``: either,
    by its fields, :func:`is_match_record`); ``at`` is where the record sits in the document
    (a match's ``hands.2``). A match record's hands are each checked here as hand records,
    so no nested document is read before its shape is known.
    """
    field = f"field {_dotted(at)}: " if at else ""
    if not isinstance(data, dict):
        record = f"a {expected} record" if at and expected else "a record"
        raise RecordError(f"{where}: {field}{record} is a JSON object, not {_kind(data)}")
    if not at:
        _check_values(data, where)
    kind = "match" if is_match_record(data) else "hand"
    if expected is not None and kind != expected:
        raise RecordError(f"{where}: {field}a {kind} record where a {expected} record is "
                          f"expected (a {expected} record holds {_HOLDS[expected]})")
    schema = match_record_schema() if kind == "match" else record_schema()
    schema_fault(strict_validator(schema), data, where, at)
    seed = data.get("seed")
    if is_match_record(data) and seed is not None and not is_seed(seed):
        raise RecordError(f"{where}: field {_dotted((*at, 'seed'))}: {_SHORT.repr(seed)}; a "
                          f"match record's seed is the run seed, {SEED_RANGE}")
    if kind == "match":
        for number, hand in enumerate(data["hands"]):
            check_shape(hand, where, "hand", (*at, "hands", number))
    return data


def schema_fault(validator: Any, data: Any, where: str, at: tuple[str | int, ...] = ()) -> None:
    """Raise the first of ``data``'s faults against ``validator``'s schema as one line naming
    ``where`` and the field (``at``: where ``data`` sits in its document), if it has any."""
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error = errors[0]
        message = error.message
        full, short = repr(error.instance), _SHORT.repr(error.instance)
        if full != short:
            message = message.replace(full, short)
        if error.validator == "additionalProperties":
            message = message.replace("Additional properties are not allowed", "unknown field")
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "..."
        raise RecordError(f"{where}: field {_dotted((*at, *error.absolute_path))}: {message}")


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a record."""

    valid: bool
    hand: Hand
    index: int | None = None
    action: str | None = None
    reason: str | None = None
    #: The field of the record's stated ``result`` that its actions disagree with, if that
    #: is the fault (``result.scores``).
    field: str | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.valid:
            return {"valid": False, "index": self.index, "action": self.action,
                    "reason": self.reason, **({"field": self.field} if self.field else {})}
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
    suited, rest = _suited_field(ruleset, spec, keys, where)
    method = ruleset.first_bidder
    lead = None
    if method == "card_holder":
        leader, lead = first_leader(ruleset, suited)
        if first != leader:
            raise RecordError(f"{where}: field first_bidder: seat {leader} holds the "
                              f"{cards.suited_name(lead)} and leads first (play.first_leader: "
                              f"card_holder), not seat {first}")
    marked = _rank_field(ruleset, record, "marked_card", where)
    turned = _rank_field(ruleset, record, "turned_card", where)
    if marked is not None and cards.unpack(keys[first])[marked] == 0:
        raise RecordError(f"{where}: field marked_card: seat {first} bids first but was "
                          f"not dealt a {cards.RANKS[marked]}")
    if method in ("turned_card", "left_of_dealer"):
        expected = first_bidder(ruleset, dealer, turned)
        if first != expected:
            raise RecordError(f"{where}: field first_bidder: {ruleset.id} has seat {expected} "
                              f"bid first (auction.first_bidder: {method}), not {first}")
    wild = _wild_field(ruleset, spec, where)
    stated = Deal(keys, kitty, undealt, dealer, first, marked, turned, record.get("seed"), wild,
                  suited, rest, lead)
    if stated.seed is not None and not _same_deal(ruleset, deal(ruleset, stated.seed, dealer),
                                                  stated):
        raise RecordError(f"{where}: field seed: seed {stated.seed} does not produce this deal")
    return stated


def _outside(ruleset: Ruleset, card: str) -> str:
    """Why a suited card is not in a ruleset's deck: its suit, its rank, or taken out."""
    rank, suit = cards.parse_suited(card)
    if suit and suit not in ruleset.suits:
        return f"its suits are {ruleset.suits} (deck.suits)"
    if rank not in ruleset.deck_ranks:
        return f"its ranks are {cards.text(ruleset.deck_ranks)}"
    return "deck.removed takes it out"


def _same_deal(ruleset: Ruleset, a: Deal, b: Deal) -> bool:
    """Whether two deals are the same, whatever the order the cards set aside are listed in
    (``deal.suited.rest``; a seat's cards are always put lowest first)."""
    order = {card: i for i, card in enumerate(ruleset.suited_deck)}

    def rest(d: Deal) -> Deal:
        return replace(d, suited_rest=tuple(sorted(d.suited_rest, key=order.__getitem__)))

    return rest(a) == rest(b) if ruleset.suits else a == b


def _suited_field(ruleset: Ruleset, spec: dict[str, Any], keys: tuple[int, ...], where: str
                  ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """``deal.suited``: each seat's cards with their suits, and the cards not dealt to a seat,
    stated where the deck has suits (``deck.suits``) and nowhere else. Every card is one of
    the deck's, none repeats, each seat's agree with its ranks (``deal.hands``) and together
    they are the whole deck. Each seat's cards come back lowest first."""
    value = spec.get("suited")
    if value is None:
        if ruleset.suits:
            raise RecordError(f"{where}: field deal.suited: {ruleset.id}'s deck has suits "
                              f"(deck.suits: {ruleset.suits}); the record must state each "
                              "seat's cards with their suits (hands) and the cards set aside "
                              "(rest)")
        return (), ()
    if not ruleset.suits:
        raise RecordError(f"{where}: field deal.suited: {ruleset.id}'s deck has no suits; leave "
                          "the field out")
    order = {card: i for i, card in enumerate(ruleset.suited_deck)}
    seen: dict[str, str] = {}

    def read(texts: list[str], field: str) -> tuple[str, ...]:
        out = []
        for text in texts:
            try:
                card = cards.suited_text(*cards.parse_suited(text))
            except DdzError as exc:
                raise RecordError(f"{where}: field {field}: {exc}") from None
            if card not in order:
                raise RecordError(f"{where}: field {field}: {text!r} is not a card of the "
                                  f"{ruleset.id} deck ({_outside(ruleset, card)})")
            if card in seen:
                again = "twice" if seen[card] == field else f"here and in {seen[card]}"
                raise RecordError(f"{where}: field {field}: the {cards.suited_name(card)} "
                                  f"({card}) appears {again}; each card of the deck is in the "
                                  "deal once")
            seen[card] = field
            out.append(card)
        return tuple(out)

    stated = value["hands"]
    if len(stated) != ruleset.players:
        raise RecordError(f"{where}: field deal.suited.hands: {len(stated)} hands, but "
                          f"{ruleset.id} has {ruleset.players} seats")
    hands = tuple(tuple(sorted(read(h, f"deal.suited.hands.{i}"), key=order.__getitem__))
                  for i, h in enumerate(stated))
    rest = read(value["rest"], "deal.suited.rest")
    for i, (held, key) in enumerate(zip(hands, keys, strict=True)):
        ranks = cards.pack_ranks([cards.parse_suited(card)[0] for card in held])
        if ranks != key:
            raise RecordError(f"{where}: field deal.suited.hands.{i}: its ranks are "
                              f"{cards.key_text(ranks) or 'none'}, but deal.hands.{i} is "
                              f"{cards.key_text(key) or 'empty'}")
    missing = [card for card in ruleset.suited_deck if card not in seen]
    if missing:
        shown = ", ".join(missing[:6]) + (", ..." if len(missing) > 6 else "")
        raise RecordError(f"{where}: field deal.suited: {len(missing)} card(s) of the "
                          f"{ruleset.id} deck are in neither hands nor rest ({shown}); every "
                          "card is dealt or set aside")
    return hands, rest


def _wild_field(ruleset: Ruleset, spec: dict[str, Any], where: str) -> tuple[int, ...]:
    """``deal.wild``: the hand's wild ranks in the order drawn, one card of each, stated where
    the ruleset has wild cards and nowhere else."""
    value = spec.get("wild")
    drawn = ruleset.wild_drawn
    if value is None:
        if drawn:
            raise RecordError(f"{where}: field deal.wild: {ruleset.id} draws {len(drawn)} wild "
                              f"rank{'s' if len(drawn) > 1 else ''} a hand; the record must "
                              "name them (card text, one card a rank, in the order drawn)")
        return ()
    try:
        return wild_ranks_of(ruleset, value, whole_draw=True)
    except DdzError as exc:
        leave = "; leave the field out" if not drawn else ""
        raise RecordError(f"{where}: field deal.wild: {exc}{leave}") from None


def _rank_field(ruleset: Ruleset, record: dict[str, Any], field: str, where: str) -> int | None:
    """The rank of ``marked_card`` or ``turned_card``: one card of the deck, stated exactly
    where the ruleset's first bidder follows from it, and nowhere else."""
    value = record.get(field)
    needed = ruleset.first_bidder == field
    what = field.replace("_", " ")
    if value is None:
        if needed:
            raise RecordError(f"{where}: field {field}: this ruleset needs the rank of the "
                              f"{what}, one card")
        return None
    rank = _one_rank(ruleset, value, field, where, f"the {what} is one card, its rank")
    if not needed:
        raise RecordError(f"{where}: field {field}: {ruleset.id} has no {what} (its "
                          f"auction.first_bidder is {ruleset.first_bidder}); leave the field "
                          "out or null")
    return rank


def _one_rank(ruleset: Ruleset, value: str, field: str, where: str, expected: str) -> int:
    """The rank of a record field that names one card of the deck, or one line naming it."""
    try:
        ranks = ruleset.parse_cards(value)
    except DdzError as exc:
        raise RecordError(f"{where}: field {field}: {exc}") from None
    if len(ranks) != 1:
        raise RecordError(f"{where}: field {field}: {len(ranks)} cards; {expected}")
    return ranks[0]


def partner_call(ruleset: Ruleset, record: dict[str, Any], where: str) -> str | None:
    """The landlord's call as a hand action (``"call A"`` or ``"alone"``), from the record's
    ``partner_call``: stated only where ``teams.partner`` is ``called_rank``, and then a rank
    of the deck or ``alone``."""
    value = record.get("partner_call")
    if value is None:
        return None
    if ruleset.partner_rule != "called_rank":
        raise RecordError(f"{where}: field partner_call: {ruleset.id} has no called partner "
                          f"(teams.partner: {ruleset.partner_rule}); leave the field out or null")
    if value == ALONE:
        return ALONE
    rank = _one_rank(ruleset, value, "partner_call", where,
                     "the call is one rank, such as A or R, or 'alone'")
    return CALL + cards.RANKS[rank]


def ruleset_of(record: dict[str, Any], where: str = "record") -> Ruleset:
    """The ruleset a record names: a bundled id, or a ruleset file beside the record.

    A path is a relative path to a ``.yaml`` or ``.yml`` file, read from the folder of the
    record's file ``where`` (or of the working directory for a record with no file): an
    absolute path, ``..`` or a symbolic link leading out of that folder is refused, so a record
    received from someone else cannot make the toolkit read files elsewhere. A name that is
    not a path is a bundled id, never a file of that name in the working directory.
    """
    name: str = record["ruleset"]

    def error(reason: str) -> RecordError:
        return RecordError(f"{where}: field ruleset: {reason}")

    if name.endswith((".yaml", ".yml")):
        path = resolve_beside(Path(where), name, error)
        try:
            return load(str(path))
        except DdzError as exc:
            raise error(str(exc)) from None
    ids = bundled_ids()
    if name in ids:
        return load_bundled(name)
    near = difflib.get_close_matches(name, ids, n=1)
    hint = f"; did you mean '{near[0]}'?" if near else ""
    raise error(f"unknown ruleset {name!r}{hint} (a record names a bundled ruleset: "
                f"{', '.join(ids)}; or a .yaml file in its own folder)")


def replay(record: dict[str, Any], where: str = "record",
           on_step: Callable[[Hand], None] | None = None) -> Replay:
    """Apply every action of a record; stop at the first illegal one.

    ``where`` is the record's file: messages name it, and a ruleset the record names by path
    is read from its folder (:func:`ruleset_of`). A record built in Python has no file; its
    default ``"record"`` reads such a path from the working directory, with the same refusals.
    The record is checked against the hand record schema first, so any dict may be passed.
    ``on_step`` is shown the hand once dealt and again after every action applied (the
    landlord's partner call included): a replay drawn step by step sees what was played.
    """
    check_shape(record, where, "hand")
    ruleset = ruleset_of(record, where)
    hand = Hand(ruleset, deal_from_record(ruleset, record, where))
    call = partner_call(ruleset, record, where)
    actions = [*record["auction"], *record["plays"]]
    n_auction = len(record["auction"])
    step = on_step or (lambda hand: None)
    step(hand)
    for index, action in enumerate(actions):
        in_auction = index < n_auction
        try:
            if in_auction and hand.phase is not Phase.AUCTION:
                raise IllegalActionError(hand.auction.refusal(action))
            if not in_auction and hand.phase is Phase.AUCTION:
                raise IllegalActionError("a play before the auction is over")
            if hand.phase is Phase.CALL:
                if call is None:
                    raise IllegalActionError("the landlord calls a partner before playing "
                                             "(teams.partner), and the record's partner_call "
                                             "is missing")
                hand.apply(call)
                step(hand)
            hand.apply(action)
            step(hand)
        except IllegalActionError as exc:
            return Replay(False, hand, index, action, str(exc))
    if hand.phase is Phase.CALL and call is not None:
        hand.apply(call)  # the record stops after the call: what is missing is said below
        step(hand)
    if call is not None and hand.landlord is None and hand.phase is not Phase.AUCTION:
        return Replay(False, hand, len(actions), None,
                      "the record states a partner_call, but nobody became the landlord")
    if hand.result is None:
        missing = (" (the landlord's call, field partner_call, is missing)"
                   if hand.phase is Phase.CALL else "")
        return Replay(False, hand, len(actions), None,
                      f"the record stops before the hand ends ({hand.phase.value} phase, "
                      f"seat {hand.to_act} to act){missing}")
    wrong = stated_result_fault(record.get("result"), hand.result)
    if wrong:
        return Replay(False, hand, len(actions), None, wrong[1], wrong[0])
    return Replay(True, hand)


def stated_result_fault(stated: dict[str, Any] | None,
                        result: Result) -> tuple[str, str] | None:
    """Where a record's own ``result`` disagrees with the result its actions give, the first
    field that does (``result.scores``) and why, in one line; None where it agrees or states
    none. Every field of the record schema's ``result`` it states is checked; one it leaves
    out is not (a record may state part of its result), nor is a field the schema does not
    name (a writer's own note)."""
    if stated is None:
        return None
    actual = result.to_json()
    known = record_schema()["properties"]["result"]["properties"]
    for name, value in stated.items():
        if name not in known:
            continue
        field = f"result.{name}"
        if name not in actual:
            return field, (f"field {field}: the record says {_SHORT.repr(value)}, but its "
                           "actions give a result without it")
        if value != actual[name] or type(value) is not type(actual[name]):
            return field, (f"field {field}: the record says {_SHORT.repr(value)}, but its "
                           f"actions give {_SHORT.repr(actual[name])}")
    return None


def replay_deal(hand_record: dict[str, Any], where: str, number: int,
                on_step: Callable[[Hand], None] | None = None) -> Replay:
    """Replay deal ``number`` of a match record read from ``where``: :func:`replay`, with
    every refusal naming the hand (``FILE: hand 2: field deal.hands: ...``), since a match
    record's file holds many hands."""
    try:
        return replay(hand_record, where, on_step)
    except RecordError as exc:
        text = str(exc)
        lead = f"{where}: "
        raise RecordError(f"{lead}hand {number}: {text.removeprefix(lead)}") from None


@dataclass(frozen=True)
class MatchReplay:
    """The outcome of replaying a match record: valid, or the first fault and where."""

    valid: bool
    outcome: Outcome | None = None
    hand: int | None = None
    index: int | None = None
    action: str | None = None
    reason: str | None = None
    #: As :attr:`Replay.field`, for the hand at fault.
    field: str | None = None

    def to_json(self) -> dict[str, Any]:
        if not self.valid:
            return {"valid": False, "hand": self.hand, "index": self.index,
                    "action": self.action, "reason": self.reason,
                    **({"field": self.field} if self.field else {})}
        assert self.outcome is not None
        o = self.outcome
        return {"valid": True, "match": True, "totals": list(o.totals),
                "hands_won": list(o.hands_won), "winners": list(o.winners), "tie": o.tie,
                "counted": o.counted, "led_alone_from": o.led_alone_from}


def replay_match(record: dict[str, Any], where: str = "record") -> MatchReplay:
    """Check a match record: every hand replays, each deal is dealt by the seat the ruleset's
    ``match.rotation`` names, the match ends exactly where its ``match`` rules say, and the
    stated totals, winners and tie are the ones the hands give."""
    check_shape(record, where, "match")
    ruleset = ruleset_of(record, where)
    state = MatchState(ruleset, first_dealer=first_dealer(ruleset, record.get("index", 0)))
    for number, hand_record in enumerate(record["hands"]):
        at = f"{where}: hand {number}"
        if state.over:
            return MatchReplay(False, hand=number, reason="the match was already over; this "
                               "hand is one too many")
        if hand_record.get("ruleset") != record["ruleset"]:
            raise RecordError(f"{at}: field ruleset: {hand_record.get('ruleset')!r}, but the "
                              f"match is played under {record['ruleset']!r}")
        done = replay_deal(hand_record, where, number)
        if not done.valid:
            return MatchReplay(False, hand=number, index=done.index, action=done.action,
                               reason=done.reason, field=done.field)
        if done.hand.deal.dealer != state.dealer:
            return MatchReplay(False, hand=number, reason=(
                f"dealt by seat {done.hand.deal.dealer}, but match.rotation "
                f"({ruleset.match.rotation}) has seat {state.dealer} deal it"))
        result = done.hand.result
        assert result is not None
        state.add(result.scores, hand_winners(result), result.redeal)
    if not state.over:
        return MatchReplay(False, hand=len(record["hands"]), reason=(
            f"the record stops before the match ends ({state.counted} hands counted; "
            f"match.length {ruleset.match.length}, match.hands {ruleset.match.hands})"))
    outcome = state.outcome()
    for name, stated, actual in (("totals", record["totals"], list(outcome.totals)),
                                 ("winners", record["winners"], list(outcome.winners)),
                                 ("tie", record["tie"], outcome.tie)):
        if stated != actual:
            raise RecordError(f"{where}: field {name}: the record says {stated}, but its "
                              f"hands give {actual}")
    return MatchReplay(True, outcome)
