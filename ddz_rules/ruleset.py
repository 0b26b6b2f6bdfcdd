"""Rulesets: YAML files loaded, merged along ``extends``, validated and frozen.

A file in ``rules/`` is a complete ruleset; a file in ``variants/`` names its base with
``extends`` and states only what changes. Loading checks each file against the JSON Schema
(so unknown keys and wrong types are reported at their own line), merges the chain, checks the
merged whole, then checks what a schema cannot say (a deck too small for the deal, a
combination naming a missing class). Every error names file, line and key.
"""

from __future__ import annotations

import copy
import difflib
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import jsonschema

from ddz_rules import cards
from ddz_rules.errors import CardError, RulesetError, UsageError
from ddz_rules.inputs import resolve_beside, resolved, strict_validator
from ddz_rules.loader import KeyPath, Located, dotted, load_yaml

KICKER_UNITS = {"none": 0, "single": 1, "pair": 2}
#: The parameters each auction family needs.
FAMILY_KEYS = {
    "single_round": ("bids",),
    "open_consecutive_passes": ("bids",),
    "open_until_passed": ("bids",),
    "call_rob": ("max_robs",),
    "call_grab": ("max_grabs", "grabbers"),
    "none": ("fixed_bid",),
    #: No auction and no landlord (``teams.sides: each_alone``): never stated, since such a
    #: ruleset has no ``auction`` section.
    "leaderless": (),
}


#: A hand's multiplier is at most 10 to this power: scores, their means and their variances
#: then stay finite in floating point, however many hands a comparison averages.
MAX_MULTIPLIER_DIGITS = 100
#: Multiplier events that are not play classes.
HAND_EVENTS = ("spring", "anti_spring", "rob", "grab")
#: The dealt-hand bonuses (Happy Dou Dizhu), stated in ``scoring.dealt_bonus``: both jokers in
#: one seat's deal, and a deal holding one card of every rank from 3 to A.
DEALT_BONUSES = ("double_joker", "full_straight")
_HERE = Path(__file__).resolve().parent


def _bundled_root() -> Path:
    """Where the bundled rulesets live: beside the package in a checkout, inside it when built."""
    packaged = _HERE / "_bundled"
    if packaged.is_dir():
        return packaged
    return _HERE.parent


BUNDLED_DIRS = ("rules", "variants")


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of ruleset files."""
    text = (_HERE / "schema" / "ruleset.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _overlay_schema() -> dict[str, Any]:
    """The schema with every ``required`` dropped: what a single overlay file must satisfy."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "required"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    full = schema()
    stripped: dict[str, Any] = strip(full)
    # A rule point always states its value and its prose, even in an overlay.
    stripped["$defs"]["point"]["required"] = full["$defs"]["point"]["required"]
    stripped["required"] = ["id", "title", "summary", "source"]
    return stripped


def bundled_paths() -> dict[str, Path]:
    """Bundled ruleset ids and their files, base rulesets first."""
    root = _bundled_root()
    found: dict[str, Path] = {}
    for folder in BUNDLED_DIRS:
        for path in sorted((root / folder).glob("*.yaml")):
            found[path.stem] = path
    return found


def bundled_ids() -> list[str]:
    """Ids of every bundled ruleset."""
    return list(bundled_paths())


# --------------------------------------------------------------------------- frozen values


@dataclass(frozen=True)
class KickerRules:
    """The kicker restrictions in force for one combination type (see the ``kickers`` keys)."""

    may_match_body: bool
    max_copies_among_kickers: int | None
    both_jokers_as_kickers: bool
    quads_are_blocks: bool
    pair_kickers_distinct: bool
    single_kickers_distinct: bool
    jokers_as_kickers: bool
    kicker_trio_beside_chain: bool


KICKER_RULE_KEYS = tuple(KickerRules.__dataclass_fields__)


@dataclass(frozen=True)
class DealtBonus:
    """``scoring.dealt_bonus``: the form of the dealt-hand bonuses and each one's amount.

    ``multiplier``: each bonus held multiplies the hand's stake by its amount, for both sides
    (a multiplier event, like a bomb). ``payment``: each other seat pays the holder the amount,
    whatever the outcome, beside the stake (see :func:`ddz_rules.scoring.settle`).
    """

    form: str
    amounts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class MatchRules:
    """How hands make a match (the ``match`` keys): see :mod:`ddz_rules.match`."""

    length: str
    hands: int
    target: int | None
    ties: str
    rotation: str
    redeal: str


@dataclass(frozen=True)
class CombinationType:
    """One declared combination type: body shape, chain, kickers and class."""

    name: str
    text: str
    width: int
    low: int
    high: int
    min_length: int
    max_length: int | None
    kicker_unit: int
    kickers_per_rank: int
    klass: str
    level: int
    kicker_rules: KickerRules
    fixed_set: bool = False
    #: The multiplier event a play of this type is: its class's ``event``, else the class name.
    event: str = ""
    #: ``wilds``: the wild cards its body may hold (any, none, some, all; see the schema).
    wilds: str = "any"
    #: ``play.last_play_answers``: the other types a play of this type may answer, besides its
    #: own (it is kept for a player's last play, so it answers them only to go out).
    answers: tuple[str, ...] = ()

    @property
    def needs_wilds(self) -> bool:
        """Whether only a body holding wild cards can be of this type (a soft bomb, four
        wilds): never a play of the natural table."""
        return self.wilds in ("some", "all")

    @property
    def is_chain(self) -> bool:
        return self.max_length is None or self.max_length > 1

    def reading_length(self, chain_length: int) -> int:
        """The length a reading reports: the chain's, or 1 for a fixed set such as the rocket."""
        return 1 if self.fixed_set else chain_length

    def kicker_count(self, length: int) -> int:
        """Kicker units a body of this chain length carries."""
        return self.kickers_per_rank * length if self.kicker_unit else 0


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A validated ruleset, frozen. ``data`` is the merged document, for prose and docs.

    Compared and hashed by identity: each load gives one object (bundled rulesets are loaded
    once per process), and the engine keys its caches on it on every play.
    """

    id: str
    title: str
    summary: str
    path: str
    base: str | None
    players: int
    deck_ranks: tuple[int, ...]
    copies: tuple[int, ...]
    hand_size: int
    kitty: int
    settlement: str
    #: ``teams.partner``: ``none``, or ``called_rank`` (see :mod:`ddz_rules.game`).
    partner_rule: str
    #: ``wild.drawn``: when each wild rank of a hand is drawn (empty: no wild cards).
    wild_drawn: tuple[str, ...]
    #: ``wild.ranks`` and ``wild.stands_for``, as rank indices.
    wild_ranks: tuple[int, ...]
    stands_for: tuple[int, ...]
    #: ``wild.in_kickers``: what a wild among a play's kickers is played as, ``own_rank`` or
    #: ``any_rank`` (see :func:`ddz_rules.wilds.kicker_stand_ins`); ``""`` without wild cards.
    wild_in_kickers: str
    combinations: tuple[CombinationType, ...]
    #: Combination types the ruleset declares with ``enabled: false``: not plays here, kept
    #: so that a refusal can name the type and quote why.
    switched_off: tuple[CombinationType, ...]
    kitty_shown: bool
    first_bidder: str
    auction_family: str
    bids: tuple[int, ...]
    max_robs: int
    max_grabs: int
    #: ``auction.grabbers``: who may grab in a call-and-grab auction (``any_other`` or
    #: ``not_declined``); ``any_other`` where the family has no grabs.
    grabbers: str
    #: ``auction.fixed_bid``: the landlord's bid where ``auction.family`` is ``none``, else None.
    fixed_bid: int | None
    all_pass: str
    peasant_goal: str
    base_rule: str
    multipliers: tuple[tuple[str, int], ...]
    cap: int | None
    #: ``scoring.dealt_bonus``; None where the ruleset has no dealt-hand bonus.
    dealt_bonus: DealtBonus | None
    match: MatchRules
    data: Mapping[str, Any] = field(compare=False, repr=False)
    overlay: Mapping[str, Any] = field(compare=False, repr=False)
    origins: Mapping[KeyPath, tuple[str, int]] = field(compare=False, repr=False)
    #: ``teams.sides``: ``landlord`` (a landlord against the rest), or ``each_alone`` (no
    #: landlord, no auction, no kitty: every player for himself).
    sides: str = "landlord"
    #: ``deck.suits``: the suit letters, lowest first; ``""`` where cards have no suits.
    suits: str = ""
    #: With suits, every card of the deck as suited card text, lowest first (by rank, then
    #: suit): what a suited deal shuffles. Empty without suits.
    suited_deck: tuple[str, ...] = ()
    #: ``play``: who leads first (``landlord`` or ``card_holder``), the card whose holder does,
    #: what stands for it when it is not dealt, and whether the first play must contain it.
    first_leader: str = "landlord"
    lead_card: str | None = None
    lead_card_missing: str | None = None
    first_play_holds_lead_card: bool = False
    #: ``play.must_beat``, ``play.last_card_warning`` and ``play.last_play_only``: the duties
    #: :mod:`ddz_rules.duties` gives meaning to.
    must_beat: bool = False
    last_card_warning: str = "none"
    last_play_only: tuple[str, ...] = ()
    #: ``scoring`` under ``settlement: cards_left`` (see :func:`ddz_rules.scoring.settle_alone`).
    per_card: int = 1
    shut_out: int = 1
    bomb_payments: tuple[tuple[str, int], ...] = ()
    #: ``scoring.bomb_paid_when``: ``played`` or ``trick_won``.
    bomb_paid_when: str = "played"
    #: ``scoring.last_card_free``: a loser holding one card pays nothing.
    last_card_free: bool = False
    liability: str = "none"
    #: ``scoring.liable_if``: ``lower_single`` or ``highest_would_hold``.
    liable_if: str = "lower_single"

    @property
    def deck_size(self) -> int:
        return sum(self.copies)

    @property
    def has_landlord(self) -> bool:
        """Whether an auction makes one player the landlord (``teams.sides: landlord``)."""
        return self.sides == "landlord"

    @property
    def max_hand(self) -> int:
        """The largest hand a seat can hold: the landlord's, after the kitty."""
        return self.hand_size + self.kitty

    @property
    def undealt(self) -> int:
        """Cards neither dealt nor in the kitty."""
        return self.deck_size - self.players * self.hand_size - self.kitty

    def __reduce_ex__(self, protocol: Any) -> str | tuple[Any, ...]:
        """A bundled ruleset pickles as its id (the process's own object on loading, so its
        compiled tables are not built again); any other by value."""
        if self.id in bundled_paths() and load_bundled(self.id) is self:
            return (load_bundled, (self.id,))
        return super().__reduce_ex__(protocol)

    def __copy__(self) -> Ruleset:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        """Itself: a ruleset is frozen, and the engine's caches are keyed on its identity."""
        return self

    @property
    def deck_key(self) -> int:
        """The whole deck, packed."""
        return cards.pack(self.copies)

    @cached_property
    def factors(self) -> dict[str, int]:
        """``scoring.multipliers``: each multiplier event's factor, with the dealt-hand
        bonuses' where ``scoring.dealt_bonus`` makes them multipliers."""
        bonus = self.dealt_bonus
        return dict(self.multipliers) | (dict(bonus.amounts) if bonus and
                                         bonus.form == "multiplier" else {})

    @cached_property
    def class_of(self) -> dict[str, str]:
        """Each enabled combination type's class."""
        return {c.name: c.klass for c in self.combinations}

    @cached_property
    def paid_at_once(self) -> dict[str, int]:
        """``scoring.bomb_payments`` by enabled combination type: what each other seat pays
        at once to the player of a play of that type (types paid nothing left out)."""
        payments = dict(self.bomb_payments)
        return {c.name: payments[c.event] for c in self.combinations if c.event in payments}

    @cached_property
    def event_of(self) -> dict[str, str]:
        """The multiplier event each enabled combination type's plays are."""
        return {c.name: c.event for c in self.combinations}

    def combination(self, name: str) -> CombinationType:
        for ctype in self.combinations:
            if ctype.name == name:
                return ctype
        raise KeyError(name)

    def error(self, message: str, *key_path: str | int) -> RulesetError:
        """An error in this ruleset at the file and line of ``key_path`` (for the engine's
        checks that only compiling can make, such as a combination no card set can form).

        Where the key comes from a base file, the message names the file that was loaded too.
        """
        for end in range(len(key_path), -1, -1):
            origin = self.origins.get(tuple(key_path[:end]))
            if origin:
                if origin[0] != self.path:
                    message = f"{message} (in {self.path}, which extends {origin[0]})"
                return RulesetError(message, path=origin[0], line=origin[1],
                                    key=dotted(key_path) or None)
        return RulesetError(message, path=self.path, key=dotted(key_path) or None)

    def where(self, *key_path: str | int) -> str:
        """``file:line`` of a key path in the merged ruleset, for messages."""
        for end in range(len(key_path), -1, -1):
            origin = self.origins.get(tuple(key_path[:end]))
            if origin:
                return f"{origin[0]}:{origin[1]}"
        return self.path

    def parse_cards(self, text: str) -> tuple[int, ...]:
        """Parse card text and check the cards exist in this ruleset's deck."""
        try:
            ranks = cards.parse(text)
        except CardError:
            suited = re.findall(r"(10|[3-9TJQKA2])[SHCD]", text, re.IGNORECASE)
            if self.suits and suited and not re.sub(r"(10|[3-9TJQKA2])[SHCD]|[\s,+\-]", "",
                                                     text, flags=re.IGNORECASE):
                raise CardError(
                    f"{text!r} names suited cards, and a play is written in ranks alone (the "
                    f"cards of a rank are interchangeable in a play): write {''.join(suited)}"
                ) from None
            raise
        counts = cards.counts_of(ranks)
        for rank, n in enumerate(counts):
            if n > self.copies[rank]:
                name = cards.RANKS[rank]
                if self.copies[rank] == 0:
                    raise CardError(
                        f"card {name!r} in {text!r} is not in the {self.id} deck "
                        f"(it holds {cards.text(r for r in self.deck_ranks)})"
                    )
                raise CardError(
                    f"{text!r} has {n} cards of rank {name}; the {self.id} deck holds "
                    f"{self.copies[rank]}"
                )
        return ranks


# --------------------------------------------------------------------------- inert points


@dataclass(frozen=True)
class Inert:
    """One row of :data:`INERT`: a rule point, the condition on a ruleset's other values under
    which the referee never reads it, and why (formatted with the ruleset as ``r``)."""

    point: str
    when: Callable[[Ruleset], bool]
    reason: str


def _families_of(key: str) -> str:
    """The auction families that read the parameter ``key``, as words."""
    names = [f for f, keys in FAMILY_KEYS.items() if key in keys]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def _throws_in(ruleset: Ruleset) -> bool:
    """Whether a deal can be thrown in: an auction nobody may take, dealt again."""
    return ruleset.auction_family not in ("none", "leaderless") and ruleset.all_pass == "redeal"


def _unread_by_family(key: str) -> Callable[[Ruleset], bool]:
    """The condition that the ruleset's auction family does not read parameter ``key``."""
    return lambda r: key not in FAMILY_KEYS[r.auction_family]


def _unread_kicker_rule(key: str, units: tuple[int, ...] = (1, 2),
                        chains_only: bool = False) -> Callable[[Ruleset], bool]:
    """The condition that no enabled combination type reads the ruleset-wide kicker rule
    ``key``: none carries kickers of ``units`` (as a chain, with ``chains_only``) without
    stating its own."""

    def unread(ruleset: Ruleset) -> bool:
        for ctype in ruleset.combinations:
            if ctype.kicker_unit not in units or (chains_only and not ctype.is_chain):
                continue
            if key not in ruleset.data["combinations"][ctype.name].get("kickers", {}):
                return False
        return True

    return unread


#: Rule points that can have no effect, by the ruleset's other values: a new entry is one row.
INERT: tuple[Inert, ...] = (
    *(Inert(f"auction.{key}", _unread_by_family(key),
            f"only a {_families_of(key)} auction reads it; this one is {{r.auction_family}}")
      for key in dict.fromkeys(k for keys in FAMILY_KEYS.values() for k in keys)),
    Inert("auction.all_pass", lambda r: r.auction_family == "none",
          "there is no auction, so nobody passes"),
    Inert("deal.kitty_shown", lambda r: r.kitty == 0, "there is no kitty to show"),
    Inert("match.target", lambda r: r.match.length != "target",
          "the match is of length {r.match.length}, so no total ends it"),
    Inert("match.redeal", lambda r: r.has_landlord and not _throws_in(r),
          "no deal is ever thrown in (auction.family {r.auction_family}, auction.all_pass "
          "{r.all_pass})"),
    Inert("match.redeal", lambda r: not r.has_landlord,
          "no deal is ever thrown in: with no landlord (teams.sides each_alone) nobody bids, "
          "and every hand is played out"),
    *(Inert(f"scoring.{key}", lambda r: not r.has_landlord,
            "settlement cards_left pays for cards left; there is no stake for it to shape")
      for key in ("base", "multipliers")),
    Inert("teams.partner", lambda r: not r.has_landlord,
          "there is no landlord (teams.sides each_alone), so no partner of his"),
    Inert("scoring.liability", lambda r: r.last_card_warning == "highest_single",
          "play.last_card_warning highest_single lets nobody play a lower single to a warned "
          "player"),
    Inert("scoring.liable_if", lambda r: r.liability != "pays_for_all",
          "scoring.liability is {r.liability}: nobody pays for all"),
    Inert("scoring.liable_if", lambda r: r.last_card_warning == "highest_single",
          "play.last_card_warning highest_single lets nobody play a lower single to a warned "
          "player"),
    Inert("scoring.bomb_paid_when", lambda r: not r.paid_at_once,
          "scoring.bomb_payments pays for no play class played here"),
    Inert("play.lead_card_missing", lambda r: r.undealt == 0,
          "every card is dealt, so the lead card always is"),
    Inert("scoring.spring", lambda r: "spring" not in r.factors,
          "scoring.multipliers has no spring factor"),
    Inert("scoring.anti_spring", lambda r: "anti_spring" not in r.factors,
          "scoring.multipliers has no anti_spring factor"),
    *(Inert(f"kickers.{key}", _unread_kicker_rule(key),
            "no enabled combination type carries kickers under the ruleset-wide rule")
      for key in ("may_match_body", "max_copies_among_kickers", "both_jokers_as_kickers",
                  "quads_are_blocks", "jokers_as_kickers")),
    Inert("kickers.single_kickers_distinct",
          _unread_kicker_rule("single_kickers_distinct", (1,)),
          "no enabled combination type carries single kickers under the ruleset-wide rule"),
    Inert("kickers.pair_kickers_distinct",
          _unread_kicker_rule("pair_kickers_distinct", (2,)),
          "no enabled combination type carries pair kickers under the ruleset-wide rule"),
    Inert("kickers.kicker_trio_beside_chain",
          _unread_kicker_rule("kicker_trio_beside_chain", (1,), chains_only=True),
          "no enabled chain carries single kickers under the ruleset-wide rule"),
)


def inert_points(ruleset: Ruleset) -> dict[str, str]:
    """The rule points of ``ruleset`` that have no effect under its other values, each with
    the reason, by dotted key: the rules book shows them as not used, ``ddz diff`` ignores a
    point inert on both sides, and ``ddz check`` refuses a file that states one itself.

    >>> inert_points(load("no-kitty"))["deal.kitty_shown"]
    'there is no kitty to show'
    """
    return {row.point: row.reason.format(r=ruleset) for row in INERT
            if _states(ruleset.data, row.point) and row.when(ruleset)}


def _states(data: Mapping[str, Any], dotted_key: str) -> bool:
    node: Any = data
    for key in dotted_key.split("."):
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def stated_inert(ruleset: Ruleset) -> list[RulesetError]:
    """An error for each inert point the ruleset's own file states (not by inheritance)
    where it could leave it out: a variant may always, a complete ruleset only where the
    schema does not require the point. The rule would be prose the referee never runs."""
    required = schema()["properties"]
    found = []
    for key, reason in inert_points(ruleset).items():
        path = tuple(key.split("."))
        origin = ruleset.origins.get(path)
        if origin is None or origin[0] != ruleset.path:
            continue
        if ruleset.base is None and path[-1] in required.get(path[0], {}).get("required", ()):
            continue
        found.append(RulesetError(f"states a rule that has no effect here ({reason}); leave "
                                  "it out", path=origin[0], line=origin[1], key=key))
    return found


# --------------------------------------------------------------------------- loading


def load(name_or_path: str) -> Ruleset:
    """Load a bundled ruleset by id, or a ruleset file by path.

    A name ending in ``.yaml``/``.yml`` or holding a folder separator is a path; otherwise a
    bundled id wins over a file of that name in the working directory. A path that cannot be
    resolved (a loop of symbolic links) is one line naming it, as a file that cannot be read.
    """
    if "\0" in name_or_path:
        raise UsageError(f"ruleset {name_or_path!r}: a name or path cannot hold a NUL byte")
    if not name_or_path.strip():
        raise UsageError(f"ruleset {name_or_path!r}: an empty name; give a bundled ruleset's "
                         "id or a ruleset file's path")
    if names_a_file(name_or_path):
        path = Path(name_or_path)
        shown = str(path)
        return _load_path(resolved(path, lambda reason: RulesetError(reason, path=shown)),
                          shown)
    return load_bundled(name_or_path)


def names_a_file(name_or_path: str) -> bool:
    """Whether :func:`load` reads ``name_or_path`` as a file rather than a bundled id: a
    name that is a path, or that is not a bundled id and names something in the working
    directory (a link that leads nowhere included, so that it is reported, not taken for an
    unknown id)."""
    path = Path(name_or_path)
    is_path = name_or_path.endswith((".yaml", ".yml")) or len(path.parts) > 1
    return is_path or (name_or_path not in bundled_paths() and os.path.lexists(path))


@cache
def load_bundled(ruleset_id: str) -> Ruleset:
    """A bundled ruleset by id, never a file of that name (loaded once per process)."""
    paths = bundled_paths()
    if ruleset_id not in paths:
        raise UsageError(_unknown(ruleset_id, paths))
    return _load_bundled(ruleset_id)


@cache
def _load_bundled(ruleset_id: str) -> Ruleset:
    path = bundled_paths()[ruleset_id]
    return _load_path(path, _display(path))


def _display(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _unknown(name: str, known: Mapping[str, Any]) -> str:
    near = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean '{near[0]}'?" if near else ""
    return f"unknown ruleset '{name}'{hint} (bundled: {', '.join(known)})"


def _load_path(path: Path, display: str) -> Ruleset:
    chain = list(_extends_chain(path, display))
    merged: dict[str, Any] = {}
    origins: dict[KeyPath, tuple[str, int]] = {}
    for located in reversed(chain):
        if merged:
            _check_overrides(merged, located)
        _merge(merged, copy.deepcopy(located.data), located, (), origins)
    merged.pop("extends", None)
    top = chain[0]
    # Before the schema, which would only ask for what a landlord's game needs (kitty_shown,
    # the rest of an auction), a game without a landlord that states one of its parts is told so.
    conflict = _landlord_part(merged, top.data)
    if conflict:
        raise _error_at(conflict[0], conflict[1], top, origins)
    _validate(merged, schema(), lambda kp: _origin_line(origins, kp, top))
    return _build(merged, top, origins, base=top.data.get("extends"))


def _error_at(message: str, key_path: KeyPath, top: Located,
              origins: Mapping[KeyPath, tuple[str, int]]) -> RulesetError:
    """An error at ``key_path`` of the merged ruleset; where a base file states that key, the
    message names the file that was loaded too (as :meth:`Ruleset.error` does)."""
    path, line = _origin_line(origins, key_path, top)
    if path != top.path:
        message = f"{message} (in {top.path}, which extends {path})"
    return RulesetError(message, path=path, line=line, key=dotted(key_path))


def _landlord_part(data: Mapping[str, Any],
                   overlay: Mapping[str, Any]) -> tuple[str, KeyPath] | None:
    """Under ``teams.sides: each_alone``, the first part of a landlord's game the ruleset
    states, as (message, key path): an auction section in the file itself (one inherited
    from a base with a landlord is left out), or a kitty. None where there is none, or the
    ruleset has a landlord. Read before the schema, so every value is looked at warily."""

    def value(*key_path: str) -> Any:
        node: Any = data
        for key in (*key_path, "value"):
            if not isinstance(node, Mapping) or key not in node:
                return None
            node = node[key]
        return node

    if value("teams", "sides") != "each_alone":
        return None
    if "auction" in overlay:
        return ("teams.sides each_alone has no landlord, so no auction: leave the auction "
                "section out", ("auction",))
    kitty = value("deal", "kitty")
    if isinstance(kitty, int) and not isinstance(kitty, bool) and kitty:
        return ("teams.sides each_alone has no landlord to take a kitty: the kitty must be 0",
                ("deal", "kitty", "value"))
    return None


def _extends_chain(path: Path, display: str) -> Iterator[Located]:
    """The file, then its base, then the base's base: each checked against the overlay schema."""
    seen: list[str] = []
    current: Path | None = path
    shown = display
    previous: Located | None = None
    while current is not None:
        key = str(current)
        if key in seen and previous is not None:
            cycle = " -> ".join([*(Path(s).stem for s in seen), current.stem])
            raise RulesetError(f"'extends' forms a cycle: {cycle}", path=previous.path,
                               line=previous.line_of(("extends",)), key="extends")
        seen.append(key)
        located = load_yaml(current, shown)
        _validate(located.data, _overlay_schema(),
                  lambda kp, loc=located: (loc.path, loc.line_of(kp)))
        if "extends" not in located.data:
            _validate(located.data, schema(), lambda kp, loc=located: (loc.path, loc.line_of(kp)))
        yield located
        previous = located
        base = located.data.get("extends")
        if base is None:
            current = None
            continue
        current = _base_file(current, base, located)
        shown = _display(current)


def _base_file(referrer: Path, base: str, located: Located) -> Path:
    """The file ``extends: base`` names: a bundled id, or a .yaml/.yml file in the folder of
    the referring file or below it, named relative to that folder.

    An absolute path, ``..``, or a link leading out of the folder is refused: a ruleset
    received from someone else cannot make the toolkit read files elsewhere on the machine.
    """

    def fail(message: str) -> RulesetError:
        return RulesetError(message, path=located.path, line=located.line_of(("extends",)),
                            key="extends")

    paths = bundled_paths()
    if not base.endswith((".yaml", ".yml")):
        if base in paths:
            return paths[base].resolve()
        raise fail(_unknown(base, paths))
    candidate = resolve_beside(referrer, base, fail)
    if not candidate.is_file():
        if candidate.exists():
            raise fail(f"{base!r} in the folder of {referrer.name} is not a regular file (a "
                       "folder, pipe, device or socket is never read)")
        raise fail(f"no ruleset file {base!r} in the folder of {referrer.name}")
    return candidate


def _check_overrides(base: Mapping[str, Any], overlay: Located) -> None:
    """An overlay may change a base combination, or declare a whole new one, nothing between."""
    base_types = list(base.get("combinations", {}))
    for name, spec in overlay.data.get("combinations", {}).items():
        if name in base_types or ("width" in spec and "text" in spec):
            continue
        near = difflib.get_close_matches(name, base_types, n=1)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        raise RulesetError(
            f"the base declares no combination '{name}' to change, and this is no complete "
            f"new combination (it needs 'text' and 'width'){hint}",
            path=overlay.path, line=overlay.line_of(("combinations", name)),
            key=f"combinations.{name}")


def _merge(into: dict[str, Any], overlay: Mapping[str, Any], located: Located,
           key_path: KeyPath, origins: dict[KeyPath, tuple[str, int]]) -> None:
    """Deep-merge ``overlay`` into ``into``: sections and combinations merge key by key, and
    everything else replaces what the base says, a rule point whole. A rule point's value is
    never merged into the base's (a variant whose multipliers leave out the spring has no
    spring, whatever its base multiplies on)."""
    for key, value in overlay.items():
        child = (*key_path, key)
        line = located.line_of(child)
        if line is not None:
            origins[child] = (located.path, line)
        if (isinstance(value, dict) and isinstance(into.get(key), dict)
                and not _is_point(value)):
            _merge(into[key], value, located, child, origins)
        else:
            into[key] = value
            _record(value, located, child, origins)


def _is_point(node: Mapping[str, Any]) -> bool:
    """A rule point: a mapping that states a ``value`` (with its ``text``)."""
    return "value" in node


def possible_events(combinations: Iterable[CombinationType], family: str,
                    copies: Sequence[int], hand_size: int) -> set[str]:
    """The multiplier events that can happen in a hand: the classes of the enabled
    combinations, spring and anti-spring, rob or grab where the auction family has them, and
    the dealt-hand bonuses a deal of ``hand_size`` cards from this deck can hold.
    """
    found = {c.event for c in combinations} | {"spring", "anti_spring"}
    found |= {"call_rob": {"rob"}, "call_grab": {"grab"}}.get(family, set())
    if copies[cards.SMALL_JOKER] and copies[cards.BIG_JOKER] and hand_size >= 2:
        found.add("double_joker")
    if all(copies[r] for r in range(12)) and hand_size >= 12:
        found.add("full_straight")
    return found


def _record(value: Any, located: Located, key_path: KeyPath,
            origins: dict[KeyPath, tuple[str, int]]) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            child = (*key_path, key)
            line = located.line_of(child)
            if line is not None:
                origins[child] = (located.path, line)
            _record(sub, located, child, origins)


def _origin_line(origins: Mapping[KeyPath, tuple[str, int]], key_path: KeyPath,
                 fallback: Located) -> tuple[str, int | None]:
    for end in range(len(key_path), -1, -1):
        origin = origins.get(tuple(key_path[:end]))
        if origin:
            return origin
    return fallback.path, 1


def _validate(data: Any, against: dict[str, Any], where: Any) -> None:
    """Validate against a schema and raise the first error, located and explained."""
    validator = strict_validator(against)
    errors = sorted(validator.iter_errors(data),
                    key=lambda e: ([str(k) for k in e.absolute_path],
                                   e.validator != "unevaluatedProperties"))
    if not errors:
        return
    error = _most_specific(errors[0])
    key_path: KeyPath = tuple(error.absolute_path)
    message, key_path = _explain_schema_error(error, key_path)
    path, line = where(key_path)
    raise RulesetError(message, path=path, line=line, key=dotted(key_path) or None)


def _most_specific(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    best = jsonschema.exceptions.best_match([error])
    return best if best is not None else error


def _explain_schema_error(error: jsonschema.ValidationError,
                          key_path: KeyPath) -> tuple[str, KeyPath]:
    if error.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(
            error.schema, Mapping) and isinstance(error.instance, Mapping):
        allowed = _allowed_keys(error.schema)
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            bad = extra[0]
            near = difflib.get_close_matches(bad, allowed, n=1, cutoff=0.5)
            hint = (f"; did you mean '{near[0]}'?" if near
                    else f"; expected one of: {', '.join(sorted(allowed))}")
            return f"unknown key{hint}", (*key_path, bad)
    if error.validator == "required":
        return error.message.replace("is a required property", "is missing"), key_path
    if error.validator == "enum" and isinstance(error.validator_value, list):
        options = ", ".join(json.dumps(v) for v in error.validator_value)
        return f"{error.instance!r} is not allowed; expected one of {options}", key_path
    if error.validator == "type":
        return f"expected {error.validator_value}, got {error.instance!r}", key_path
    return error.message, key_path


def _allowed_keys(node: Mapping[str, Any]) -> list[str]:
    keys = list(node.get("properties", {}))
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        keys += _allowed_keys(schema()["$defs"][ref.split("/")[-1]])
    return keys


# --------------------------------------------------------------------------- building


def _value(data: Mapping[str, Any], *key_path: str) -> Any:
    node: Any = data
    for key in key_path:
        node = node[key]
    return node["value"]


def _rank_string(value: str, fail: Callable[[str], RulesetError]) -> tuple[int, ...]:
    """The rank indices of a string of rank characters, distinct and low to high."""
    unknown = [ch for ch in value if ch not in cards.RANK_INDEX]
    if unknown:
        raise fail(f"{unknown[0]!r} in {value!r} is not a rank; ranks are {cards.RANKS}")
    indices = [cards.RANK_INDEX[ch] for ch in value]
    if indices != sorted(set(indices)):
        raise fail(f"ranks {value!r} must be distinct and listed low to high")
    return tuple(indices)


def _wild(data: Mapping[str, Any], deck_ranks: Sequence[int],
          fail: Callable[..., RulesetError]) -> tuple[tuple[str, ...], tuple[int, ...],
                                                      tuple[int, ...]]:
    """``wild``: when each wild rank is drawn, the ranks drawn from, the ranks a wild stands
    for; all empty where the ruleset has no wild cards."""
    if "wild" not in data:
        return (), (), ()
    drawn = tuple(_value(data, "wild", "drawn"))
    found: list[tuple[int, ...]] = []
    for key in ("ranks", "stands_for"):

        def at_key(message: str, key: str = key) -> RulesetError:
            return fail(message, "wild", key, "value")

        ranks = _rank_string(_value(data, "wild", key), at_key)
        outside = [cards.RANKS[r] for r in ranks if r not in deck_ranks or r in cards.JOKERS]
        if outside:
            raise fail(f"{outside[0]!r} is a joker or not in the deck; wild cards are drawn from, "
                       "and stand for, the deck's suited ranks", "wild", key, "value")
        found.append(ranks)
    if len(found[0]) < len(drawn):
        raise fail(f"{len(drawn)} wild ranks are drawn each hand, from only {len(found[0])} "
                   "ranks", "wild", "ranks", "value")
    return drawn, found[0], found[1]


def _largest_multiplier(factors: Mapping[str, int], combos: list[CombinationType],
                        deck_size: int, players: int, robs: int,
                        grabs: int) -> tuple[float, str]:
    """An upper bound on one hand's multiplier, as decimal digits, and the events behind it.

    A play class can multiply at most once per play, and a hand holds at most ``deck_size``
    cards of plays, so a class whose smallest play has ``m`` cards multiplies at most
    ``deck_size // m`` times; spring or anti-spring at most once; robs and grabs at most their
    auction limits; a dealt-hand bonus that multiplies, once a seat.
    """
    times: dict[str, int] = dict.fromkeys(DEALT_BONUSES, players)
    for event in ("spring", "anti_spring"):
        times[event] = 1
    times["rob"], times["grab"] = robs, grabs
    for ctype in combos:
        smallest = (ctype.width * ctype.min_length
                    + ctype.kicker_unit * ctype.kicker_count(ctype.min_length))
        times[ctype.event] = max(times.get(ctype.event, 0), deck_size // max(smallest, 1))
    counted = {e: n for e, n in times.items() if e in factors and factors[e] > 1 and n}
    if "spring" in counted and "anti_spring" in counted:  # a hand has one at most
        counted.pop("spring" if factors["spring"] < factors["anti_spring"] else "anti_spring")
    weight = {e: n * math.log10(factors[e]) for e, n in counted.items()}
    worst = ", ".join(f"{e} x{factors[e]} " + ("once" if counted[e] == 1 else f"{counted[e]} times")
                      for e in sorted(weight, key=lambda e: -weight[e]))
    return sum(weight.values()), worst or "no events"


def _suits(data: Mapping[str, Any], suited: Sequence[int], copies: tuple[int, ...],
           fail: Callable[..., RulesetError]) -> tuple[str, tuple[str, ...], tuple[int, ...]]:
    """``deck.suits`` and ``deck.removed``: the suit letters, every card of the deck as
    suited card text (lowest first), and the copies of each rank once the removed cards are
    out. Without suits: no letters, no suited cards, the copies unchanged."""
    deck = data["deck"]
    if "suits" not in deck:
        if "removed" in deck:
            raise fail("only a deck with suits (deck.suits) can name the cards it removes",
                       "deck", "removed", "value")
        return "", (), copies
    suits = deck["suits"]["value"]
    if len(suits) != len(set(suits)):
        raise fail(f"suits {suits!r} must be distinct", "deck", "suits", "value")
    if deck["copies"]["value"] != len(suits):
        raise fail(f"a deck with suits {suits!r} holds one card of each suit per rank, so "
                   f"deck.copies must be {len(suits)}, not {deck['copies']['value']}",
                   "deck", "copies", "value")
    full = [cards.suited_text(r, suit) for r in suited for suit in suits]
    full += [cards.RANKS[r] for r in cards.JOKERS for _ in range(copies[r])]
    removed = list(deck.get("removed", {}).get("value", ()))
    counts = list(copies)
    for index, card in enumerate(removed):
        shown = cards.suited_text(*cards.parse_suited(card))
        if shown not in full:
            raise fail(f"{card!r} is not in the deck, whose ranks are {cards.text(suited)} in "
                       f"the suits {suits}", "deck", "removed", "value", index)
        full.remove(shown)
        counts[cards.parse_suited(card)[0]] -= 1
    order = {suit: i for i, suit in enumerate(suits)}
    full.sort(key=lambda c: (cards.parse_suited(c)[0], order.get(cards.parse_suited(c)[1], 0)))
    return suits, tuple(full), tuple(counts)


def _unheld_body(ctype: CombinationType, copies: Sequence[int]) -> str | None:
    """Why no deck of ``copies`` holds a body of ``ctype`` (its shortest chain, ``width``
    cards of each rank), or None where one does. A type that needs wild cards is left to
    them; kickers and the hand's size are checked when the table is compiled."""
    if ctype.needs_wilds:
        return None
    span = range(ctype.low, ctype.high - ctype.min_length + 2)
    if any(all(copies[r] >= ctype.width for r in range(start, start + ctype.min_length))
           for start in span):
        return None
    ranks = range(ctype.low, ctype.high + 1)
    most = max(copies[r] for r in ranks)
    where = (f"of a rank from {cards.RANKS[ctype.low]} to {cards.RANKS[ctype.high]}"
             if ctype.high > ctype.low else f"of rank {cards.RANKS[ctype.low]}")
    held = (f"at most {most} of any of them" if ctype.high > ctype.low else
            f"{most}")
    chain = f" on each of {ctype.min_length} ranks in a row" if ctype.min_length > 1 else ""
    return (f"its body needs {ctype.width} cards {where}{chain}, and the deck holds {held} "
            "(deck.copies, less deck.removed), so it could never be played; remove it with "
            "'enabled: false' or change its shape")


@dataclass(frozen=True)
class _PlayRules:
    first_leader: str
    lead_card: str | None
    lead_card_missing: str | None
    first_play_holds_lead_card: bool
    must_beat: bool
    last_card_warning: str
    last_play_only: tuple[str, ...]
    #: ``play.last_play_answers``: for a type kept for the last play, the other types it answers.
    last_play_answers: Mapping[str, tuple[str, ...]]


def _enabled(name: str, names: Sequence[str]) -> str:
    """Why ``name`` is not an enabled combination, with the nearest that is."""
    near = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean '{near[0]}'?" if near else ""
    return f"'{name}' is not an enabled combination{hint}"


def _last_play_answers(play: Mapping[str, Any], combos: Sequence[CombinationType],
                       only_last: tuple[str, ...],
                       fail: Callable[..., RulesetError]) -> dict[str, tuple[str, ...]]:
    """``play.last_play_answers``, each entry checked: a type kept for the last play, answering
    other enabled types of its body width and class."""
    stated = play.get("last_play_answers", {}).get("value", {})
    by_name = {c.name: c for c in combos}
    where = ("play", "last_play_answers", "value")
    for name, others in stated.items():
        if name not in by_name:
            raise fail(_enabled(name, list(by_name)), *where, name)
        if name not in only_last:
            raise fail(f"'{name}' is not kept for a player's last play (play.last_play_only), "
                       "and only such a play may answer another type", *where, name)
        mine = by_name[name]
        for index, other in enumerate(others):
            if other not in by_name:
                raise fail(_enabled(other, list(by_name)), *where, name, index)
            theirs = by_name[other]
            if other == name:
                raise fail(f"'{name}' answers its own type already", *where, name, index)
            if (mine.width, mine.level) != (theirs.width, theirs.level):
                raise fail(f"'{name}' ({mine.width} cards a rank, class {mine.klass}) cannot "
                           f"answer '{other}' ({theirs.width} cards a rank, class "
                           f"{theirs.klass}): the bodies compared must be alike",
                           *where, name, index)
    return {name: tuple(others) for name, others in stated.items()}


def _play_rules(data: Mapping[str, Any], sides: str, suits: str, suited_deck: Sequence[str],
                combos: Sequence[CombinationType], undealt: bool,
                fail: Callable[..., RulesetError]) -> _PlayRules:
    """The ``play`` points beyond the trick: who leads first and with what, must-beat, the
    last-card warning, the combinations kept for a player's last play; each checked against
    the sides, the deck and the combinations."""
    play = data["play"]

    def get(key: str, default: Any) -> Any:
        return play[key]["value"] if key in play else default

    leader = get("first_leader", "landlord")
    if sides == "each_alone" and leader != "card_holder":
        raise fail("with no landlord (teams.sides each_alone) the first trick is led by the "
                   "holder of a card: state first_leader card_holder and play.lead_card",
                   "play", "first_leader", "value")
    if sides == "landlord" and leader != "landlord":
        raise fail("where there is a landlord he leads the first trick (first_leader "
                   "landlord)", "play", "first_leader", "value")
    lead = get("lead_card", None)
    if lead is not None:
        if leader != "card_holder":
            raise fail("a lead card names the first leader only with first_leader "
                       "card_holder", "play", "lead_card", "value")
        if not suits:
            raise fail(f"the lead card {lead!r} names a suit, and the deck has none: state "
                       "deck.suits", "play", "lead_card", "value")
        lead = cards.suited_text(*cards.parse_suited(lead))
        if lead not in suited_deck:
            removed = [cards.suited_text(*cards.parse_suited(c))
                       for c in data["deck"].get("removed", {}).get("value", ())]
            why = ("deck.removed takes it out" if lead in removed
                   else f"its rank or its suit is not in deck.ranks or deck.suits ({suits})")
            raise fail(f"the lead card {lead!r} is not in the deck: {why}",
                       "play", "lead_card", "value")
    missing = get("lead_card_missing", None)
    if leader == "card_holder" and undealt and missing is None:
        raise fail(f"cards are left undealt, so the lead card {lead} may not be dealt: state "
                   "play.lead_card_missing, who leads then", "play", "lead_card", "value")
    names = [c.name for c in combos]
    only_last = tuple(get("last_play_only", ()))
    for index, name in enumerate(only_last):
        if name not in names:
            raise fail(_enabled(name, names), "play", "last_play_only", "value", index)
    lone = [c for c in combos if c.width == 1 and c.min_length == 1 and not c.kicker_unit
            and not c.needs_wilds]
    for rank in sorted({r for c in lone for r in range(c.low, c.high + 1)}):
        kept = [c.name for c in lone if c.low <= rank <= c.high]
        if kept and set(kept) <= set(only_last):
            raise fail(f"'{kept[0]}' is the only play of a lone {cards.RANKS[rank]}, so it may "
                       f"not be kept for the last play: a seat holding a {cards.RANKS[rank]} and "
                       "a card it cannot play with it could never lead", "play",
                       "last_play_only", "value", only_last.index(kept[0]))
    return _PlayRules(leader, lead, missing if undealt else None,
                      get("first_play_holds_lead_card", False), get("must_beat", False),
                      get("last_card_warning", "none"), only_last,
                      _last_play_answers(play, combos, only_last, fail))


@dataclass(frozen=True)
class _AloneScoring:
    per_card: int = 1
    shut_out: int = 1
    bomb_payments: tuple[tuple[str, int], ...] = ()
    bomb_paid_when: str = "played"
    last_card_free: bool = False
    liability: str = "none"
    liable_if: str = "lower_single"


def _alone_scoring(data: Mapping[str, Any], sides: str, played: set[str],
                   fail: Callable[..., RulesetError]) -> _AloneScoring:
    """``scoring`` under ``settlement: cards_left``, which is the settlement of a ruleset
    without a landlord and of no other; ``played`` are the events of the enabled
    combinations' classes, the only ones a play can pay at once."""
    scoring = data["scoring"]
    settlement = scoring["settlement"]["value"]
    if (settlement == "cards_left") != (sides == "each_alone"):
        raise fail("settlement cards_left settles every player alone, so it goes with "
                   "teams.sides each_alone, and each_alone with it" if settlement == "cards_left"
                   else "with no landlord (teams.sides each_alone) nobody settles with a "
                   "landlord: use settlement cards_left", "scoring", "settlement", "value")
    if settlement != "cards_left":
        return _AloneScoring()
    payments = scoring["bomb_payments"]["value"]
    for name in payments:
        if name not in played:
            raise fail(f"'{name}' can never happen here: no enabled combination is of that "
                       f"class, so its payment would be prose the engine never runs (classes "
                       f"played here: {', '.join(sorted(played))})",
                       "scoring", "bomb_payments", "value", name)
    def get(key: str, default: Any) -> Any:
        return scoring[key]["value"] if key in scoring else default

    return _AloneScoring(scoring["per_card"]["value"], scoring["shut_out"]["value"],
                         tuple(payments.items()), get("bomb_paid_when", "played"),
                         get("last_card_free", False), get("liability", "none"),
                         get("liable_if", "lower_single"))


@dataclass(frozen=True)
class _Deck:
    """The ``deck``, ``players`` and ``deal`` points, checked against each other."""

    deck_ranks: tuple[int, ...]
    copies: tuple[int, ...]
    suits: str
    suited_deck: tuple[str, ...]
    players: int
    hand_size: int
    kitty: int

    @property
    def size(self) -> int:
        return sum(self.copies)


def _deck(data: Mapping[str, Any], fail: Callable[..., RulesetError]) -> _Deck:
    """The cards, the suits, the players and the deal."""
    suited = _rank_string(_value(data, "deck", "ranks"),
                          lambda message: fail(message, "deck", "ranks", "value"))
    joker_text = _value(data, "deck", "jokers")
    if joker_text != "".join(sorted(joker_text)):
        raise fail(f"jokers {joker_text!r} must be listed small before big, one letter per card "
                   "(BR, or BBRR for two decks)", "deck", "jokers", "value")
    jokers = _rank_string("".join(sorted(set(joker_text), key=joker_text.index)),
                          lambda message: fail(message, "deck", "jokers", "value"))
    if set(suited) & set(cards.JOKERS):
        raise fail("jokers belong in deck.jokers, not deck.ranks", "deck", "ranks", "value")
    if not set(jokers) <= set(cards.JOKERS):
        raise fail("only B and R are jokers", "deck", "jokers", "value")
    n_copies = _value(data, "deck", "copies")
    if not 1 <= n_copies <= 8:
        raise fail(f"copies must be between 1 and 8, got {n_copies}", "deck", "copies", "value")
    copies = tuple(n_copies if r in suited else joker_text.count(cards.RANKS[r])
                   for r in range(cards.NUM_RANKS))
    suits, suited_deck, copies = _suits(data, suited, copies, fail)
    players = _value(data, "players")
    if players < 2:
        raise fail(f"a hand needs at least 2 players, got {players}", "players", "value")
    hand_size = _value(data, "deal", "hand_size")
    kitty = _value(data, "deal", "kitty")
    deck_size = sum(copies)
    if players * hand_size + kitty > deck_size:
        raise fail(f"the deal needs {players} x {hand_size} + {kitty} = "
                   f"{players * hand_size + kitty} cards but the deck has {deck_size}",
                   "deal", "hand_size", "value")
    if hand_size < 1:
        raise fail("each seat must be dealt at least one card", "deal", "hand_size", "value")
    return _Deck(tuple(sorted(suited + jokers)), copies, suits, tuple(suited_deck), players,
                 hand_size, kitty)


def _combinations(data: Mapping[str, Any], deck: _Deck, fail: Callable[..., RulesetError]
                  ) -> tuple[list[CombinationType], list[CombinationType]]:
    """The combination types, enabled and switched off, each checked against the classes
    and the deck."""
    classes = data["classes"]
    global_kickers = {k: _value(data, "kickers", k) for k in KICKER_RULE_KEYS}
    deck_ranks = deck.deck_ranks
    combos: list[CombinationType] = []
    switched_off: list[CombinationType] = []
    for name, spec in data["combinations"].items():
        klass = spec.get("class", "plain")
        if klass not in classes:
            near = difflib.get_close_matches(klass, list(classes), n=1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            raise fail(f"names class '{klass}', which `classes` does not declare{hint}",
                       "combinations", name, "class")
        low, high = deck_ranks[0], deck_ranks[-1]
        if "ranks" in spec:
            ends = spec["ranks"].split("-")
            if len(ends) != 2 or not all(len(e) == 1 and e in cards.RANK_INDEX for e in ends):
                raise fail(f"rank range {spec['ranks']!r} is not two ranks joined by '-', "
                           f"such as 3-A (ranks are {cards.RANKS})",
                           "combinations", name, "ranks")
            low, high = cards.RANK_INDEX[ends[0]], cards.RANK_INDEX[ends[1]]
            if low > high:
                raise fail(f"rank range {spec['ranks']!r} runs high to low",
                           "combinations", name, "ranks")
        length = spec.get("length")
        min_length = length.get("min", 1) if length else 1
        max_length = length.get("max") if length else 1
        if max_length is not None and max_length < min_length:
            raise fail(f"length max {max_length} is below min {min_length}",
                       "combinations", name, "length")
        kick = spec.get("kickers", {})
        unit = KICKER_UNITS[kick.get("unit", "none")]
        per_rank = kick.get("per_rank", 1) if unit else 0
        rules = KickerRules(**{
            key: (kick[key]["value"] if key in kick else global_kickers[key])
            for key in KICKER_RULE_KEYS
        })
        (combos if spec.get("enabled", True) else switched_off).append(CombinationType(
            name=name, text=spec["text"], width=spec["width"], low=low, high=high,
            min_length=min_length, max_length=max_length, kicker_unit=unit,
            kickers_per_rank=per_rank, klass=klass, level=classes[klass]["level"],
            kicker_rules=rules, fixed_set=spec.get("fixed_set", False),
            event=classes[klass].get("event", klass), wilds=spec.get("wilds", "any"),
        ))
    if not combos:
        raise fail("no combination type is enabled", "combinations")
    for ctype in combos:
        short = _unheld_body(ctype, deck.copies)
        if short:
            raise fail(short, "combinations", ctype.name)
    return combos, switched_off


@dataclass(frozen=True)
class _AuctionRules:
    """The ``auction`` points the ruleset's auction family reads (none without a landlord)."""

    stated: Mapping[str, Any]
    family: str
    all_pass: str
    fixed_bid: int | None
    bids: tuple[int, ...]
    max_robs: int
    max_grabs: int
    grabbers: str


def _auction(data: Mapping[str, Any], sides: str, players: int,
             fail: Callable[..., RulesetError]) -> _AuctionRules:
    """The auction: its family and the parameters that family reads."""
    # A ruleset without a landlord has no auction: inherited auction points are left out.
    auction = data["auction"] if sides == "landlord" else {}
    family = auction["family"]["value"] if auction else "leaderless"
    all_pass = auction["all_pass"]["value"] if auction else "redeal"
    for needed in FAMILY_KEYS[family]:
        if auction.get(needed, {}).get("value") is None:
            raise fail(f"auction.family {family} needs 'auction.{needed}'", "auction",
                       "family", "value")
    fixed_bid = auction.get("fixed_bid", {}).get("value")
    if fixed_bid is not None and family != "none":
        raise fail(f"a fixed bid is the bid of family none, where there is no auction; the "
                   f"{family} auction sets the bid itself, so state null or leave it out",
                   "auction", "fixed_bid", "value")
    if family == "call_rob" and players != 2:
        raise fail(f"the call_rob auction is for two players, not {players}",
                   "auction", "family", "value")
    # A family's parameters are read by that family alone (see INERT): another family's,
    # inherited from a base, are left out here, so that nothing else can read them either.
    reads = FAMILY_KEYS[family]
    bids = tuple(auction.get("bids", {}).get("value", ())) if "bids" in reads else ()
    if list(bids) != sorted(set(bids)):
        raise fail(f"bids {list(bids)} must rise strictly", "auction", "bids", "value")
    return _AuctionRules(
        auction, family, all_pass, fixed_bid, bids,
        max_robs=auction.get("max_robs", {}).get("value", 0) if "max_robs" in reads else 0,
        max_grabs=auction.get("max_grabs", {}).get("value", 0) if "max_grabs" in reads else 0,
        grabbers=(auction.get("grabbers", {}).get("value", "any_other") if "grabbers" in reads
                  else "any_other"))


def _stake(data: Mapping[str, Any], sides: str, auction: _AuctionRules,
           combos: Sequence[CombinationType], deck: _Deck, fail: Callable[..., RulesetError]
           ) -> tuple[str, dict[str, int], DealtBonus | None]:
    """``scoring``'s base, multipliers and dealt-hand bonus, each checked to be able to
    happen, and the largest multiplier a hand could reach bounded."""
    family = auction.family
    scoring = data["scoring"]
    # scoring.base shapes a landlord's stake; without a landlord it is not read (see INERT)
    base_rule = scoring["base"]["value"] if "base" in scoring and sides == "landlord" else "one"
    if (auction.all_pass == "first_bidder_landlord" and base_rule == "bid"
            and family != "none"):
        raise fail("when nobody bids there is no bid to be the base; use base 'one'",
                   "auction", "all_pass", "value")
    if (auction.all_pass == "first_bidder_lowest_bid" and not auction.bids
            and family != "none"):
        raise fail(f"the {family} auction has no bids, so none is the lowest; use "
                   "'first_bidder_landlord'", "auction", "all_pass", "value")
    if base_rule == "bid" and not auction.bids and auction.fixed_bid is None:
        raise fail(f"a base of 'bid' needs bids, and the {family} auction has none",
                   "scoring", "base", "value")
    multipliers = scoring["multipliers"]["value"] if "multipliers" in scoring else {}
    if _value(data, "scoring", "settlement") == "cards_left":
        multipliers = {}  # each player settles his cards left: no stake to multiply
    class_events = [spec.get("event", name) for name, spec in data["classes"].items()]
    happen = possible_events(combos, family, deck.copies, deck.hand_size)
    for event in multipliers:
        if event in class_events + list(HAND_EVENTS) and event not in happen:
            raise fail(f"'{event}' can never happen here (no enabled combination of that class, "
                       f"or no such step in the {family} auction), so its factor would be prose "
                       "the engine never runs", "scoring", "multipliers", "value")
    known_events = class_events + list(HAND_EVENTS)
    for event in multipliers:
        if event in DEALT_BONUSES:
            raise fail(f"'{event}' is a dealt-hand bonus: state it in scoring.dealt_bonus, which "
                       "says whether it multiplies the stake or is paid to its holder",
                       "scoring", "multipliers", "value")
        if event not in known_events:
            near = difflib.get_close_matches(event, known_events, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            raise fail(f"'{event}' is neither a class nor one of {', '.join(HAND_EVENTS)}{hint}",
                       "scoring", "multipliers", "value")
    bonus = scoring.get("dealt_bonus", {}).get("value")
    dealt_bonus = None
    if bonus is not None:
        amounts = tuple((name, bonus[name]) for name in DEALT_BONUSES if name in bonus)
        for name, _ in amounts:
            if name not in happen:
                raise fail(f"no seat can be dealt a {name} from this deck and deal, so its "
                           "bonus would be prose the engine never runs",
                           "scoring", "dealt_bonus", "value", name)
        dealt_bonus = DealtBonus(bonus["form"], amounts)
    digits, worst = _largest_multiplier(
        multipliers | (dict(dealt_bonus.amounts) if dealt_bonus and
                       dealt_bonus.form == "multiplier" else {}), list(combos), deck.size,
        deck.players, robs=auction.max_robs if family == "call_rob" else 0,
        grabs=auction.max_grabs if family == "call_grab" else 0)
    if digits > MAX_MULTIPLIER_DIGITS:
        raise fail(f"one hand's multiplier could reach about 10^{digits:.0f} ({worst}); at most "
                   f"10^{MAX_MULTIPLIER_DIGITS} is supported, so lower the factors",
                   "scoring", "multipliers", "value")
    return base_rule, multipliers, dealt_bonus


def _match_rules(data: Mapping[str, Any], fail: Callable[..., RulesetError]) -> MatchRules:
    """How hands make a match."""
    stated = data["match"]
    match = MatchRules(
        length=_value(data, "match", "length"), hands=_value(data, "match", "hands"),
        target=_value(data, "match", "target") if "target" in stated else None,
        ties=_value(data, "match", "ties"), rotation=_value(data, "match", "rotation"),
        redeal=_value(data, "match", "redeal"))
    if match.length == "target" and match.target is None:
        raise fail("a target match needs match.target, the total that ends it",
                   "match", "length", "value")
    return match


def _build(data: dict[str, Any], top: Located, origins: Mapping[KeyPath, tuple[str, int]],
           base: str | None) -> Ruleset:
    """A ruleset from its merged document, checked section by section (the first fault
    found is refused, naming its file, line and key)."""
    def fail(message: str, *key_path: str | int) -> RulesetError:
        """An error at ``key_path`` (see :func:`_error_at`)."""
        return _error_at(message, key_path, top, origins)

    deck = _deck(data, fail)
    combos, switched_off = _combinations(data, deck, fail)
    sides = _value(data, "teams", "sides")
    auction = _auction(data, sides, deck.players, fail)
    peasant_goal = _value(data, "ending", "peasant_goal")
    if peasant_goal == "advantage" and auction.family != "call_rob":
        raise fail("the advantage goal counts robs, so it needs the call_rob auction",
                   "ending", "peasant_goal", "value")
    base_rule, multipliers, dealt_bonus = _stake(data, sides, auction, combos, deck, fail)
    wild_drawn, wild_ranks, stands_for = _wild(data, deck.deck_ranks, fail)
    for ctype in combos:
        if ctype.needs_wilds and not wild_drawn:
            raise fail(f"its body must hold wild cards (wilds: {ctype.wilds}), and this ruleset "
                       "has none (no 'wild' section); remove it with 'enabled: false'",
                       "combinations", ctype.name, "wilds")
    if wild_drawn and _value(data, "readings", "settlement") != "declared":
        raise fail("wild cards give many plays several readings, so readings.settlement must be "
                   "'declared' (the player names the reading)", "readings", "settlement",
                   "value")
    players = deck.players
    partner_rule = data["teams"]["partner"]["value"] if sides == "landlord" else "none"
    if partner_rule == "called_rank" and (players < 4 or players % 2):
        raise fail(f"a called partner needs an even number of players, at least four, not "
                   f"{players}: the landlord and his partner share what the peasants settle "
                   "equally", "teams", "partner", "value")
    play_rules = _play_rules(data, sides, deck.suits, deck.suited_deck, combos,
                             players * deck.hand_size + deck.kitty < deck.size, fail)
    combos = [replace(c, answers=play_rules.last_play_answers.get(c.name, ())) for c in combos]
    conflict = _landlord_part(data, top.data)
    if conflict:
        raise fail(conflict[0], *conflict[1])
    alone = _alone_scoring(data, sides, {c.event for c in combos}, fail)
    match = _match_rules(data, fail)
    return Ruleset(
        id=data["id"], title=data["title"], summary=data["summary"], path=top.path,
        base=base, players=players, deck_ranks=deck.deck_ranks, copies=deck.copies,
        hand_size=deck.hand_size, kitty=deck.kitty, partner_rule=partner_rule,
        wild_drawn=wild_drawn, wild_ranks=wild_ranks, stands_for=stands_for,
        wild_in_kickers=_value(data, "wild", "in_kickers") if wild_drawn else "",
        settlement=_value(data, "readings", "settlement"), combinations=tuple(combos),
        switched_off=tuple(switched_off),
        kitty_shown=data["deal"].get("kitty_shown", {}).get("value", False),
        first_bidder=(auction.stated["first_bidder"]["value"] if auction.stated
                      else play_rules.first_leader),
        auction_family=auction.family, bids=auction.bids,
        max_robs=auction.max_robs, max_grabs=auction.max_grabs, grabbers=auction.grabbers,
        fixed_bid=auction.fixed_bid,
        all_pass=auction.all_pass, peasant_goal=peasant_goal,
        base_rule=base_rule, multipliers=tuple(multipliers.items()),
        cap=_value(data, "scoring", "cap"), dealt_bonus=dealt_bonus, match=match,
        data=data, overlay=top.data, origins=dict(origins),
        sides=sides, suits=deck.suits, suited_deck=deck.suited_deck,
        first_leader=play_rules.first_leader, lead_card=play_rules.lead_card,
        lead_card_missing=play_rules.lead_card_missing,
        first_play_holds_lead_card=play_rules.first_play_holds_lead_card,
        must_beat=play_rules.must_beat, last_card_warning=play_rules.last_card_warning,
        last_play_only=play_rules.last_play_only, per_card=alone.per_card,
        shut_out=alone.shut_out, bomb_payments=alone.bomb_payments,
        bomb_paid_when=alone.bomb_paid_when, last_card_free=alone.last_card_free,
        liability=alone.liability, liable_if=alone.liable_if,
    )
