"""Deal sets: the same deals played again, by us or by other projects' tools.

A deal set is a file of deals, each a hand's cards before any word is said. Two formats:

* ``jsonl``, ours: JSON Lines, one deal per line, each the deal part of a hand record
  (``deal``, ``dealer``, ``first_bidder``, and where the ruleset has them ``marked_card``,
  ``turned_card``, the wild ranks and the suited cards), documented by
  ``schema/dealset.schema.json``. Any ruleset's deals can be written so.
* ``douzero``: DouZero's evaluation deals (its ``generate_eval_data.py``), a pickled list of
  dicts with ``landlord`` (20 cards, the kitty included), ``landlord_up`` and
  ``landlord_down`` (17 each) and ``three_landlord_cards``; cards as the integers 3 to 14 for 3
  to A, 17 for 2, 20 and 30 for the jokers, each list sorted. It fits rulesets of three seats
  of 17 cards, a kitty of three and the 54-card deck. DouZero's landlord is the seat that
  speaks first (where the ruleset has an auction, the auction still decides who takes the
  kitty), ``landlord_down`` the seat after it, ``landlord_up`` the one before; deal ``i`` is
  dealt by seat ``i mod 3``, as ``ddz compare`` deals its hand ``i``, so the first speaker is
  seat ``i + 1 mod 3``.

A deal set is user input, so reading one trusts nothing: the file's kind and size are checked
before it is read, a pickle is scanned opcode by opcode before anything is built from it and
may hold only lists, dicts, integers and strings (no object, so no code runs), and every deal
is checked against the ruleset's deck. Each refusal is one line naming the file, the deal
(line, or index in the list) and the field.

>>> classic = load("classic")
>>> pickled = douzero_bytes(classic, seeded_deals(classic, 2, seed=7))
>>> read = parse_deals(pickled, "eval.pkl", classic)
>>> read.format, len(read.deals), douzero_bytes(classic, read.deals) == pickled
('douzero', 2, True)
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import pickletools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.errors import CardError, Named, RecordError, UsageError
from ddz_rules.game import Deal, deal
from ddz_rules.inputs import read_bounded, strict_validator
from ddz_rules.match import MAX_REDEALS
from ddz_rules.outputs import write_new
from ddz_rules.records import deal_from_record, deal_part, parse_json, schema_fault
from ddz_rules.ruleset import Ruleset, load

FORMATS = ("jsonl", "douzero")
#: Largest deal-set file read (DouZero's 10,000 evaluation deals take about 2 MB).
MAX_DEALSET_BYTES = 32 * 1024 * 1024
#: Most deals one set holds, read or written.
MAX_DEALS = 100_000
#: DouZero's card of each of our ranks (3 to A are 3 to 14, the 2 is 17, jokers 20 and 30).
DOUZERO_CARD = {**{rank: rank + 3 for rank in range(12)}, 12: 17, 13: 20, 14: 30}
DOUZERO_RANK = {card: rank for rank, card in DOUZERO_CARD.items()}
#: DouZero's fields, in the order its ``generate_eval_data.py`` writes them.
DOUZERO_FIELDS = ("landlord", "landlord_up", "landlord_down", "three_landlord_cards")
#: The pickle opcodes a DouZero deal set may use: lists, dicts, integers, strings, the memo
#: and the framing. Any other (a global, a call, a tuple, a float, bytes...) is refused
#: before anything is built.
_SAFE_OPCODES = frozenset({
    "PROTO", "FRAME", "STOP", "MARK", "EMPTY_LIST", "LIST", "APPEND", "APPENDS", "EMPTY_DICT",
    "DICT", "SETITEM", "SETITEMS", "BININT", "BININT1", "BININT2", "INT", "LONG", "LONG1",
    "SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "MEMOIZE", "PUT", "BINPUT",
    "LONG_BINPUT", "GET", "BINGET", "LONG_BINGET", "POP", "POP_MARK", "DUP"})


@dataclass(frozen=True)
class DealSet:
    """The deals of one file, as one ruleset deals them, with the file's format and digest
    (what makes two runs on the set the same run)."""

    deals: tuple[Deal, ...]
    format: str
    digest: str


@cache
def dealset_schema() -> dict[str, Any]:
    """The schema of one line of a ``jsonl`` deal set: the deal part of a hand record."""
    text = (Path(__file__).parent / "schema" / "dealset.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def deal_seed(seed: int, index: int, attempt: int) -> int:
    """The deal seed of attempt ``attempt`` at hand ``index`` of a run seeded ``seed``."""
    return (seed * 1_000_003 + index) * MAX_REDEALS + attempt


def seeded_deals(ruleset: Ruleset, count: int, seed: int) -> list[Deal]:
    """The first deal of each of ``count`` hands of a ``ddz compare`` run seeded ``seed``:
    hand ``i`` dealt from ``deal_seed(seed, i, 0)`` by seat ``i mod players``."""
    check_count(count)
    return [deal(ruleset, deal_seed(seed, i, 0), dealer=i % ruleset.players)
            for i in range(count)]


def check_count(count: int) -> int:
    """A number of deals to write: 1 to :data:`MAX_DEALS`."""
    if not 1 <= count <= MAX_DEALS:
        raise UsageError(Named("count"), f" must be between 1 and {MAX_DEALS:,}, got {count}")
    return count


# ------------------------------------------------------------------------- reading


def read_deals(path: str, ruleset: Ruleset, format: str | None = None) -> DealSet:
    """The deal set in ``path`` as ``ruleset`` deals it; ``format`` (one of :data:`FORMATS`)
    or, where None, the format its first byte shows (a pickle starts with byte 0x80)."""
    raw = read_bounded(path, MAX_DEALSET_BYTES, lambda reason: RecordError(f"{path}: {reason}"))
    return parse_deals(raw, path, ruleset, format)


def parse_deals(raw: bytes, path: str, ruleset: Ruleset, format: str | None = None) -> DealSet:
    """A deal set's bytes as deals of ``ruleset``: what :func:`read_deals` does once read."""
    if format is None:
        format = "douzero" if raw[:1] == b"\x80" else "jsonl"
    elif format not in FORMATS:
        raise UsageError(Named("format"), f" {format!r} is not a deal-set format; expected "
                         f"one of {', '.join(FORMATS)}")
    deals = (_douzero_deals(raw, path, ruleset) if format == "douzero"
             else _jsonl_deals(raw, path, ruleset))
    if not deals:
        raise RecordError(f"{path}: holds no deal")
    return DealSet(tuple(deals), format, hashlib.sha256(raw).hexdigest()[:16])


def _jsonl_deals(raw: bytes, path: str, ruleset: Ruleset) -> list[Deal]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise RecordError(f"{path}:{line}: not UTF-8 text (byte {exc.start})") from None
    if raw[:1] == b"\x80":  # pragma: no cover - a pickle is not UTF-8 text
        raise RecordError(f"{path}: a pickle, not JSON Lines; read it as a douzero deal set")
    deals: list[Deal] = []
    validator = strict_validator(dealset_schema())
    for number, row in enumerate(text.splitlines(), start=1):
        if not row.strip():
            continue
        if len(deals) == MAX_DEALS:
            raise RecordError(f"{path}:{number}: more than {MAX_DEALS:,} deals; a deal set "
                              "holds at most that many")
        where = f"{path}:{number}"
        data = parse_json(row, path, number)
        if not isinstance(data, dict):
            raise RecordError(f"{where}: a deal is a JSON object (its deal, dealer and "
                              "first_bidder), not JSON of another kind")
        schema_fault(validator, data, where)
        deals.append(deal_from_record(ruleset, data, where))
    return deals


def jsonl_text(ruleset: Ruleset, deals: list[Deal] | tuple[Deal, ...]) -> str:
    """``deals`` as a ``jsonl`` deal set: one line each, in the fields of a hand record."""
    return "".join(json.dumps(deal_part(ruleset, d), ensure_ascii=False) + "\n" for d in deals)


# ------------------------------------------------------------------------- DouZero


def common_deal_fit(ruleset: Ruleset) -> str | None:
    """Why ``ruleset`` does not deal the common deal of the peers' games (None where it
    does): three seats of 17 cards and a kitty of three from the 54-card deck, with no suits
    or wild ranks to state."""
    if ruleset.players != 3 or ruleset.hand_size != 17 or ruleset.kitty != 3:
        return (f"it deals {ruleset.players} seats {ruleset.hand_size} cards and a kitty of "
                f"{ruleset.kitty}, not three seats 17 and a kitty of 3")
    if ruleset.copies != load("classic").copies:
        return "its deck is not the 54-card deck"
    if ruleset.suits or ruleset.wild_drawn:
        return "its deal states suits or wild ranks"
    return None


def douzero_fit(ruleset: Ruleset) -> str | None:
    """Why ``ruleset`` cannot deal DouZero's deals (None where it can): the common deal
    (:func:`common_deal_fit`), with the first speaker's seat known from the deal's order."""
    why = common_deal_fit(ruleset)
    if why is None and ruleset.first_bidder not in ("random", "left_of_dealer"):
        why = (f"its first bidder is found by auction.first_bidder: {ruleset.first_bidder}, "
               "which the deal does not state")
    return why


def _check_fit(ruleset: Ruleset, path: str) -> None:
    why = douzero_fit(ruleset)
    if why:
        raise UsageError(f"{path}: ruleset {ruleset.id} cannot play DouZero deals: {why}")


def _douzero_deals(raw: bytes, path: str, ruleset: Ruleset) -> list[Deal]:
    _check_fit(ruleset, path)
    _scan_pickle(raw, path)
    try:
        data = _Unpickler(io.BytesIO(raw)).load()
    except Exception as exc:  # only lists, dicts, ints and strings: a broken one, not code
        raise RecordError(f"{path}: not a whole pickle of lists and dicts: "
                          f"{str(exc)[:80]}") from None
    if not isinstance(data, list):
        raise RecordError(f"{path}: a DouZero deal set is a list of deals, not "
                          f"{type(data).__name__}")
    if len(data) > MAX_DEALS:
        raise RecordError(f"{path}: {len(data):,} deals; a deal set holds at most "
                          f"{MAX_DEALS:,}")
    return [_douzero_deal(ruleset, item, f"{path}: deal {i}", i) for i, item in enumerate(data)]


def _scan_pickle(raw: bytes, path: str) -> None:
    """Refuse a pickle that uses any opcode outside :data:`_SAFE_OPCODES`, before loading."""
    try:
        for opcode, arg, pos in pickletools.genops(raw):
            if opcode.name not in _SAFE_OPCODES:
                shown = f" {str(arg)[:40]!r}" if arg is not None else ""
                raise RecordError(
                    f"{path}: byte {pos}: the pickle holds {opcode.name}{shown}; a DouZero "
                    "deal set holds only lists, dicts, integers and strings (nothing is run "
                    "from a deal set)")
    except RecordError:
        raise
    except Exception as exc:  # pickletools raises ValueError and others on broken input
        raise RecordError(f"{path}: not a pickle: {exc}") from None


class _Unpickler(pickle.Unpickler):
    """An unpickler that finds no class: nothing named in a pickle is ever looked up."""

    def find_class(self, module: str, name: str) -> Any:  # pragma: no cover - scanned first
        raise pickle.UnpicklingError(f"the pickle names {module}.{name}")


def _douzero_deal(ruleset: Ruleset, item: object, where: str, index: int) -> Deal:
    if not isinstance(item, dict):
        raise RecordError(f"{where}: a deal is a dict of {', '.join(DOUZERO_FIELDS)}, not "
                          f"{type(item).__name__}")
    if set(item) != set(DOUZERO_FIELDS):
        extra = sorted(map(str, set(item) - set(DOUZERO_FIELDS)))
        missing = [f for f in DOUZERO_FIELDS if f not in item]
        said = (f"field {extra[0][:40]!r} is not DouZero's" if extra
                else f"field {missing[0]} is missing")
        raise RecordError(f"{where}: {said}; a deal holds {', '.join(DOUZERO_FIELDS)}")
    keys = {name: _douzero_cards(item[name], ruleset.copies, f"{where}: field {name}")
            for name in DOUZERO_FIELDS}
    for name, size in zip(DOUZERO_FIELDS, (20, 17, 17, 3), strict=True):
        if cards.size(keys[name]) != size:
            raise RecordError(f"{where}: field {name}: {cards.size(keys[name])} cards, where "
                              f"DouZero deals {size}")
    kitty, landlord = keys["three_landlord_cards"], keys["landlord"]
    if not cards.contains(landlord, kitty):
        raise RecordError(f"{where}: field three_landlord_cards: "
                          f"{cards.key_text(kitty)} is not among the landlord's cards")
    total = landlord + keys["landlord_up"] + keys["landlord_down"]
    if total != ruleset.deck_key:
        wrong = [cards.RANKS[r] for r, (n, m) in enumerate(zip(
            cards.unpack(total), ruleset.copies, strict=True)) if n != m]
        raise RecordError(f"{where}: landlord, landlord_up and landlord_down are not the "
                          f"54-card deck (wrong count of {', '.join(wrong)})")
    dealer = index % 3
    first = (dealer + 1) % 3
    hands = [0, 0, 0]
    hands[first] = landlord - kitty
    hands[(first + 1) % 3] = keys["landlord_down"]
    hands[(first + 2) % 3] = keys["landlord_up"]
    record = {"dealer": dealer, "first_bidder": first,
              "deal": {"hands": [cards.key_text(h) for h in hands], "kitty": cards.key_text(kitty)}}
    return deal_from_record(ruleset, record, where)


def _douzero_cards(value: object, copies: Sequence[int], where: str) -> int:
    if not isinstance(value, list):
        raise RecordError(f"{where}: a list of DouZero cards, not {type(value).__name__}")
    ranks = []
    for card in value:
        if type(card) is not int or card not in DOUZERO_RANK:
            raise RecordError(f"{where}: {str(card)[:20]!r} is not a DouZero card (3 to 14, "
                              "17, 20 or 30)")
        ranks.append(DOUZERO_RANK[card])
    try:
        return cards.pack_held(ranks, copies)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def douzero_deals(ruleset: Ruleset, deals: list[Deal] | tuple[Deal, ...]
                  ) -> list[dict[str, list[int]]]:
    """``deals`` as DouZero's dicts: the first speaker's cards and the kitty as
    ``landlord``, each list sorted as DouZero sorts it."""
    why = douzero_fit(ruleset)
    if why:
        raise UsageError(f"ruleset {ruleset.id} cannot deal DouZero deals: {why}")
    out = []
    for d in deals:
        first = d.first_bidder

        def ints(key: int) -> list[int]:
            return [DOUZERO_CARD[rank] for rank in cards.ranks_of(key)]

        # the keys as literals, one string object each, as DouZero's own script makes them
        out.append({"landlord": ints(d.hands[first] + d.kitty),
                    "landlord_up": ints(d.hands[(first + 2) % 3]),
                    "landlord_down": ints(d.hands[(first + 1) % 3]),
                    "three_landlord_cards": ints(d.kitty)})
    return out


def douzero_bytes(ruleset: Ruleset, deals: list[Deal] | tuple[Deal, ...]) -> bytes:
    """``deals`` pickled as DouZero's ``generate_eval_data.py`` pickles its deals (the
    highest protocol), so that a set read from DouZero's file is written back byte for
    byte."""
    return pickle.dumps(douzero_deals(ruleset, deals), pickle.HIGHEST_PROTOCOL)


# ------------------------------------------------------------------------- writing


def export_deals(ruleset: Ruleset, deals: list[Deal] | tuple[Deal, ...], path: Path,
                 format: str) -> bool:
    """Write ``deals`` to a new file ``path`` in ``format``, whole or not at all; never over
    another file (one holding the same bytes is kept). Returns whether it was written."""
    if format not in FORMATS:
        raise UsageError(Named("format"), f" {format!r} is not a deal-set format; expected "
                         f"one of {', '.join(FORMATS)}")
    if len(deals) > MAX_DEALS:
        raise UsageError(f"{len(deals):,} deals; a deal set holds at most {MAX_DEALS:,}")
    data: str | bytes = (douzero_bytes(ruleset, deals) if format == "douzero"
                         else jsonl_text(ruleset, deals))
    return write_new(path, data, "name a new file")
