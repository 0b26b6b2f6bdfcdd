"""One table of the browser card game: its seats, their secret tokens, the hand or match on it,
what each seat may see, and the game saved in a folder of its own after every action.

A :class:`WebGame` has any number of human seats, each with a secret token (only its sha256
is kept on disk), and bots of any level in the others. :meth:`WebGame.act` takes a page's
message for a seat, checks the token and the turn, and applies the action through the seat's
:class:`~ddz_rules.play.session.Session` (the same refusals, readings and hint as ``ddz
play``), or refuses it in one line changing nothing; :meth:`WebGame.bot_steps` then has the
bots act one at a time until a person's turn. :meth:`WebGame.state` is what one seat may
see, built from ``Hand.view(seat)`` alone (a watcher: the public part of a view); the cards
left in every hand are shown only once the hand is over.

A game lives in ``GAMES/ID/``: ``game.json`` (the ruleset's name as records give it, the seats,
the token hashes, one hand or a match, the seed) and the record of the hand being played,
``hand-N.json``, or of the match, ``match-N.json`` (N counts the hands, or matches, dealt at
this table from 0); the ruleset is copied beside them where it is not bundled, as records do.
The record is written whole after every action, so ``ddz replay`` reads it and
:meth:`WebGame.load` continues the game exactly where it stopped, mid-hand included.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import secrets
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ddz_rules import cards
from ddz_rules.bots import LEVELS, make_bot
from ddz_rules.bots.base import Bot
from ddz_rules.compare.matches import match_deal_seed
from ddz_rules.errors import DdzError, Named, UsageError
from ddz_rules.game import PASS, Action, Hand, Phase, View
from ddz_rules.inputs import read_bounded
from ddz_rules.match import MatchState, first_dealer, hand_winners
from ddz_rules.outputs import write_whole
from ddz_rules.play.session import (
    Counter,
    Session,
    TrickEntry,
    check_players,
    role_of,
    tricks,
    unseen,
)
from ddz_rules.records import (
    check_seed,
    read_record,
    record_text,
    replay,
    replay_deal,
    ruleset_beside,
    ruleset_of,
    to_record,
)
from ddz_rules.ruleset import Ruleset
from ddz_rules.scoring import said_factor
from ddz_rules.table import Play
from ddz_rules.words import play_words, word_words

HUMAN = "human"
#: The level whose choice the hint gives.
HINT_LEVEL = "standard"
#: Lines of the log a state carries (the last ones).
LOG_LINES = 50
#: The largest ``game.json`` a resume reads.
MAX_GAME_FILE = 16_384
#: The bot that plays for a person whose turn timer ran out.
STAND_IN = "standard"
#: The seconds a turn timer may give, at least and at most.
TIMER_RANGE = (5, 3600)
#: Notices of what the table did for absent people, kept.
NOTICES = 5
#: A game id: what :func:`new_id` makes, and all a folder name may be to be resumed.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{6,40}$")


def new_id() -> str:
    """A fresh game id: 12 URL-safe characters, never beginning with ``-``, which a command
    line would read as an option (``--relink ID:SEAT``)."""
    while (game_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return game_id


def new_token() -> str:
    """A secret token: a seat's, or the one that lets a table's creator end it."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def is_token_hash(value: object) -> bool:
    """Whether ``value`` is what :func:`token_hash` gives (as ``game.json`` must hold)."""
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None


def small_number(text: str, digits: int) -> int | None:
    """``text`` as a number of at most ``digits`` ASCII digits (a seat, a hand), or None:
    ``str.isdigit`` alone lets through digits ``int`` refuses, such as ``²``.

    >>> small_number("2", 2), small_number("\u00b2", 2), small_number("123", 2)
    (2, None, None)
    """
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def ended_line(why: str) -> str:
    """What every page and link of an ended table is told."""
    return f"this table has ended: {why}"


@dataclass(frozen=True)
class Reply:
    """What became of a message: ``kind`` is ``done`` (the game changed), ``refused`` (one
    line, nothing changed), ``readings`` (a play reading several ways: pick one) or
    ``hint``; ``message`` is the protocol message to send back to the sender, if any;
    ``forged`` marks a wrong token (the socket is then closed)."""

    kind: str
    message: dict[str, Any] | None = None
    forged: bool = False

    @property
    def changed(self) -> bool:
        return self.kind == "done"


def refused(reason: str, forged: bool = False) -> Reply:
    return Reply("refused", {"type": "refused", "reason": reason}, forged)


@dataclass
class _Match:
    """The match in progress at a table: its state and the records of its finished deals."""

    index: int
    state: MatchState
    finished: list[dict[str, Any]] = field(default_factory=list)


class WebGame:
    """One table: a ruleset, its seats (``human`` or a bot level), one hand at a time or the
    ruleset's match, saved in ``folder`` (None: not saved)."""

    def __init__(self, game_id: str, ruleset: Ruleset, seats: list[str], match: bool,
                 seed: int, hashes: dict[int, str], folder: Path | None,
                 ruleset_name: str | None = None) -> None:
        self.id = game_id
        self.ruleset = ruleset
        self.seats = list(seats)
        self.is_match = match
        self.seed = seed
        self.hashes = dict(hashes)
        self.folder = folder
        self.ruleset_name = ruleset_name or ruleset.id
        #: Hands (or, in a match, matches) dealt at this table before the current one.
        self.number = 0
        self.match: _Match | None = None
        self.hand: Hand = self._deal_first()
        self._bots: dict[str, Bot] = {}
        #: Held while the game changes or a state is built (the server acts in threads).
        self.lock = threading.RLock()
        #: Counts changes, so that a server sends a state only once per change.
        self.version = 0
        #: The people who have seen the hand's result and asked for the next: it is dealt
        #: once every person has (so that nobody's result is wiped before they saw it).
        self.ready: set[int] = set()
        #: Seconds a person has for a turn (and to look at a result) before the table goes
        #: on without them (:meth:`time_out`); None: no timer.
        self.timer: int | None = None
        #: The sha256 of the token that lets the table's creator end it (None: nobody may).
        self.owner: str | None = None
        #: Why the table has ended (by its creator, or expired), or None while it is open.
        self.ended: str | None = None
        #: What the table did for absent people (the last :data:`NOTICES`), newest last.
        self.notices: deque[str] = deque(maxlen=NOTICES)

    # ------------------------------------------------------------ making

    @classmethod
    def create(cls, ruleset: Ruleset, seats: list[str], match: bool = False,
               seed: int | None = None, games_dir: Path | None = None,
               game_id: str | None = None, timer: int | None = None,
               owner: str | None = None) -> tuple[WebGame, dict[int, str]]:
        """A new table and the token of each human seat; saved at once under ``games_dir``.
        ``timer``: seconds a person has for a turn (:data:`TIMER_RANGE`); ``owner``: the
        token that may end the table (its creator's)."""
        check_seats(ruleset, seats)
        check_timer(timer)
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        check_seed(seed, "seed")
        tokens = {s: new_token() for s, who in enumerate(seats) if who == HUMAN}
        game_id = game_id or new_id()
        folder = None
        name = None
        if games_dir is not None:
            folder = games_dir / game_id
            try:
                folder.mkdir(parents=True, exist_ok=False)
            except OSError as exc:
                raise UsageError(f"{folder}: cannot create the game's folder: "
                                 f"{exc.strerror or exc}") from None
            name = ruleset_beside(folder, ruleset,
                                  ("choose another games folder (", Named("games"), ")"))
        game = cls(game_id, ruleset, seats, match, seed,
                   {s: token_hash(t) for s, t in tokens.items()}, folder, name)
        game.timer = timer
        game.owner = None if owner is None else token_hash(owner)
        game.save(meta=True)
        return game, tokens

    @classmethod
    def load(cls, folder: Path) -> WebGame:
        """The game saved in ``folder``, replayed to exactly where it stopped."""
        meta_path = folder / "game.json"

        def error(reason: str) -> UsageError:
            return UsageError(f"{meta_path}: {reason}")

        raw = read_bounded(meta_path, MAX_GAME_FILE, error)
        try:
            meta = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise error(f"not JSON: {exc}") from None
        if not isinstance(meta, dict) or meta.get("ddz_web") != 1:
            raise error("not a ddz web game (field ddz_web)")
        for key, kind in (("id", str), ("ruleset", str), ("seats", list), ("match", bool),
                          ("seed", int), ("number", int), ("tokens", dict)):
            if not isinstance(meta.get(key), kind):
                raise error(f"field {key}: expected {kind.__name__}")
        if meta["id"] != folder.name:
            raise error(f"field id: {meta['id'][:40]!r}, but the folder is {folder.name!r}")
        ruleset = ruleset_of({"ruleset": meta["ruleset"]}, str(meta_path))
        seats = meta["seats"]
        check_seats(ruleset, seats)
        hashes: dict[int, str] = {}
        for key, value in meta["tokens"].items():
            seat = small_number(key, 2)
            if not (seat is not None and seat < len(seats) and seats[seat] == HUMAN
                    and is_token_hash(value)):
                raise error(f"field tokens.{key[:10]}: not a human seat's token hash")
            hashes[seat] = value
        if sorted(hashes) != [s for s, who in enumerate(seats) if who == HUMAN]:
            raise error("field tokens: every human seat needs one token hash")
        game = cls(meta["id"], ruleset, seats, meta["match"], meta["seed"], hashes, folder,
                   meta["ruleset"])
        game.number = meta["number"]
        game._table_fields(meta, error)
        where = str(game.record_path())
        record = read_record(where)
        named = record.get("ruleset")
        if named != meta["ruleset"]:
            raise UsageError(f"{where}: the record is of ruleset {str(named)[:60]!r}, but "
                             f"game.json names {meta['ruleset'][:60]!r}: the files disagree")
        if game.is_match:
            game._resume_match(record, where)
        else:
            done = replay(record, where)
            if not done.valid and done.action is not None:
                raise UsageError(f"{where}: action {done.index} ({done.action!r}): "
                                 f"{done.reason}; the game cannot be continued")
            game.hand = done.hand
        return game

    def _table_fields(self, meta: dict[str, Any], error: Callable[[str], UsageError]) -> None:
        """The fields of ``game.json`` a table may leave out: its timer, owner, and end."""
        timer, owner, ended = meta.get("timer"), meta.get("owner"), meta.get("ended")
        try:
            check_timer(timer)
        except UsageError as exc:
            raise error(f"field {exc}") from None
        if owner is not None and not is_token_hash(owner):
            raise error("field owner: not a token hash")
        if ended is not None and not isinstance(ended, str):
            raise error("field ended: expected why the table ended, or null")
        self.timer, self.owner = timer, owner
        self.ended = None if ended is None else ended[:200]

    def _resume_match(self, record: dict[str, Any], where: str) -> None:
        if "hands" not in record:
            raise UsageError(f"{where}: a hand record, but the game plays a match")
        self.match = _Match(record.get("index", 0), MatchState(
            self.ruleset, first_dealer(self.ruleset, record.get("index", 0))))
        hands = record["hands"]
        for number, hand_record in enumerate(hands):
            done = replay_deal(hand_record, where, number)
            last = number == len(hands) - 1
            if not done.valid and (done.action is not None or not last):
                raise UsageError(f"{where}: hand {number}: {done.reason}; the game cannot be "
                                 "continued")
            if done.hand.deal.dealer != self.match.state.dealer:
                raise UsageError(f"{where}: hand {number}: dealt by seat "
                                 f"{done.hand.deal.dealer}, not by seat "
                                 f"{self.match.state.dealer} as match.rotation says")
            self.hand = done.hand
            if done.valid:
                self._finish_deal()

    def _deal_first(self) -> Hand:
        """The first deal of hand (or match) number :attr:`number` at this table."""
        if self.is_match:
            self.match = _Match(self.number, MatchState(
                self.ruleset, first_dealer(self.ruleset, self.number)))
            return Hand.new(self.ruleset, match_deal_seed(self.seed, self.number, 0),
                            self.match.state.dealer)
        dealer = self.number % self.ruleset.players
        return Hand.new(self.ruleset, match_deal_seed(self.seed, 0, self.number), dealer)

    # ------------------------------------------------------------ saving

    def record_path(self) -> Path:
        assert self.folder is not None
        return self.folder / f"{'match' if self.is_match else 'hand'}-{self.number}.json"

    def meta(self) -> dict[str, Any]:
        """What ``game.json`` holds."""
        return {"ddz_web": 1, "id": self.id, "ruleset": self.ruleset_name,
                "seats": self.seats, "match": self.is_match, "seed": self.seed,
                "number": self.number,
                "tokens": {str(s): h for s, h in sorted(self.hashes.items())},
                "timer": self.timer, "owner": self.owner, "ended": self.ended}

    def _hand_record(self, hand: Hand) -> dict[str, Any]:
        record = to_record(hand)
        record["ruleset"] = self.ruleset_name
        return record

    def record(self) -> dict[str, Any]:
        """The record of the hand being played, or of the match so far."""
        if self.match is None:
            return self._hand_record(self.hand)
        hands = list(self.match.finished)
        if self.hand.result is None:
            hands.append(self._hand_record(self.hand))
        state = self.match.state
        leaders = state.leaders()
        return {"ruleset": self.ruleset_name, "seed": self.seed, "index": self.match.index,
                "seats": ["person" if s == HUMAN else s for s in self.seats], "hands": hands,
                "totals": list(state.totals), "winners": list(leaders),
                "tie": len(leaders) > 1}

    def save(self, meta: bool = False) -> None:
        """Write the record whole (and, with ``meta``, ``game.json``)."""
        if self.folder is None:
            return
        kept = "the game goes on unsaved"
        if meta:
            write_whole(self.folder / "game.json", json.dumps(self.meta()) + "\n", kept)
        path = self.record_path()
        write_whole(path, record_text(self.record(), path), kept)

    # ------------------------------------------------------------ seats

    def check_token(self, seat: int | None, token: str | None) -> bool:
        """Whether ``token`` is ``seat``'s (no seat and no token: a watcher, always let in)."""
        if seat is None:
            return token is None
        stored = self.hashes.get(seat)
        if stored is None or token is None:
            return False
        return hmac.compare_digest(stored, token_hash(token))

    def relink(self, seat: int) -> str:
        """A new token for a person's seat, saved; the seat's old link stops working."""
        with self.lock:
            if seat not in self.hashes:
                people = ", ".join(map(str, self.people)) or "none"
                raise UsageError(f"game {self.id}: seat {seat} is not a person's (people's "
                                 f"seats: {people})")
            token = new_token()
            self.hashes[seat] = token_hash(token)
            self.version += 1
            self.save(meta=True)
            return token

    def check_owner(self, token: object) -> bool:
        """Whether ``token`` is the one that may end this table."""
        return (self.owner is not None and isinstance(token, str)
                and hmac.compare_digest(self.owner, token_hash(token)))

    def end(self, why: str) -> None:
        """End the table: it takes no more actions and is no longer served; its files stay
        (its finished hands can still be replayed)."""
        with self.lock:
            self.ended = why
            self.version += 1
            self.save(meta=True)

    @property
    def finished(self) -> bool:
        """Whether the table's hand is over (a match: the match is), so that it may expire."""
        if self.hand.result is None:
            return False
        return self.match is None or self.match.state.over

    def time_out(self, version: int) -> bool:
        """The turn timer ran out at ``version``: where that is still the game's version and
        a person is keeping the table waiting, the table goes on without them (the
        :data:`STAND_IN` bot plays their turn, or, once another person has asked for the next
        hand, it is dealt), said in a notice. Whether anything changed. A table nobody asks
        to go on stops at the end of its hand: a timer alone never deals without end."""
        with self.lock:
            if version != self.version or self.ended is not None:
                return False
            waiting = self.waiting_for()
            if waiting and not self.ready:  # nobody asked for another hand: none is dealt
                return False
            if waiting:
                seats = " and ".join(f"seat {s}" for s in waiting)
                self.ready.update(waiting)
                self.notices.append(f"{seats} did not ask for the next hand within "
                                    f"{self.timer} s: it is dealt")
                self._next(waiting[0])
                return True
            seat = self.hand.to_act
            if seat is None or self.seats[seat] != HUMAN or self.hand.result is not None:
                return False
            action = self._bot_action(STAND_IN, seat)
            said = (play_words(self.ruleset, action) if isinstance(action, Play)
                    else word_words(str(action)))
            self.hand.apply(action)
            self.notices.append(f"seat {seat} took longer than {self.timer} s: the "
                                f"{STAND_IN} bot played for them ({said})")
            self._changed()
            return True

    @property
    def awaits_person(self) -> bool:
        """Whether the table waits for a person: to act, or to see the result."""
        if self.ended is not None:
            return False
        if self.hand.result is not None:  # waited for once someone asked for the next hand
            return bool(self.ready) and bool(self.waiting_for())
        seat = self.hand.to_act
        return seat is not None and self.seats[seat] == HUMAN

    def session(self, seat: int, spoken: bool = True) -> Session:
        """The seat's session over the table's hand: its refusals, readings, hint and lines
        (in words; ``spoken=False``: in the engine's notation, for the details view)."""
        session = Session(self.hand, seat, "standard", HINT_LEVEL, spoken=spoken)
        session.on_change = self._changed
        return session

    def _changed(self) -> None:
        """After every action: a finished deal of a match is added to it; then saved."""
        if self.match is not None and self.hand.result is not None:
            self._finish_deal()
        self.version += 1
        self.save()

    def _finish_deal(self) -> None:
        assert self.match is not None and self.hand.result is not None
        result = self.hand.result
        self.match.state.add(result.scores, hand_winners(result), result.redeal)
        self.match.finished.append(self._hand_record(self.hand))

    @property
    def bot_to_act(self) -> bool:
        seat = self.hand.to_act
        return seat is not None and self.seats[seat] != HUMAN

    @property
    def can_next(self) -> bool:
        return self.hand.result is not None

    # ------------------------------------------------------------ acting

    def act(self, seat: int | None, token: str | None, message: Any) -> Reply:
        """A page's message for ``seat``: applied (``done``), answered (``hint``,
        ``readings``) or refused in one line with nothing changed."""
        with self.lock:
            if self.ended is not None:
                return refused(ended_line(self.ended))
            if not self.check_token(seat, token):
                return refused("this link's token is not the seat's: ask for the seat's link",
                               forged=True)
            if not isinstance(message, dict) or not isinstance(message.get("type"), str):
                return refused('not a message: expected {"type": "act" | "hint" | "next"}')
            kind = message["type"]
            if kind not in ("act", "hint", "next"):
                return refused(f"unknown message type {kind[:40]!r}: expected act, hint or next")
            if seat is None:
                return refused("you are watching: only a seat's link may play")
            if kind == "next":
                return self._next(seat)
            if self.hand.result is not None:
                return refused("the hand is over: deal the next one")
            if self.hand.to_act != seat:
                return refused(f"it is seat {self.hand.to_act}'s turn, not yours")
            if kind == "hint":
                return self._hint(seat)
            return self._act(seat, message)

    def _act(self, seat: int, message: dict[str, Any]) -> Reply:
        action, play, reading = (message.get(k) for k in ("action", "play", "reading"))
        extra = set(message) - {"type", "action", "play", "reading"}
        if extra:
            return refused(f"unknown field {sorted(extra)[0][:40]!r} in an act message")
        if (action is None) == (play is None):
            return refused('an act message has "action" (a word) or "play" (cards), not both')
        session = self.session(seat)
        if action is not None:
            if not isinstance(action, str):
                return refused('"action" is a word: pass, or an auction word or call')
            words = self.words(seat)
            if action not in words:
                listed = ", ".join(words) if words else "none now: play cards"
                return refused(f"{action[:40]!r} is not a word you may say now ({listed})")
            outcome = session.act(action)
        else:
            if not isinstance(play, str) or not (reading is None or isinstance(reading, str)):
                return refused('"play" is card text such as "334455" ("reading": a notation)')
            if self.hand.phase is not Phase.PLAY:
                return refused(f"the {self.hand.phase.value} phase is on: say one of "
                               f"{', '.join(self.words(seat))}")
            if "@" in play or not play.strip() or play.strip().lower() in ("pass", "p"):
                return refused(f"{play[:40]!r} is not card text: send cards, such as 334455")
            text = play
            if reading is not None:
                text = f"{play}@{reading.split('@', 1)[-1]}"
            outcome = session.act(text)
        if outcome.choices:
            wild = self.hand.wild
            return Reply("readings", {
                "type": "readings", "cards": cards.key_text(outcome.choices[0].key),
                "options": [{"notation": self.hand.table.notation(p, wild),
                             "text": play_words(self.ruleset, p)} for p in outcome.choices]})
        if not outcome.ok:
            return refused(outcome.message.removeprefix("refused: "))
        return Reply("done")

    def _hint(self, seat: int) -> Reply:
        hint = self.session(seat).hint(HINT_LEVEL)
        said = hint.reading in ("auction word", "pass") or not isinstance(hint.action, Play)
        text = (f"the {hint.level} bot would say {word_words(hint.text)}" if said
                else f"the {hint.level} bot would play "
                     f"{play_words(self.ruleset, hint.action)}")  # type: ignore[arg-type]
        return Reply("hint", {"type": "hint", "action": hint.text, "text": text})

    @property
    def people(self) -> list[int]:
        """The seats people play (each with a link of its own)."""
        return [s for s, who in enumerate(self.seats) if who == HUMAN]

    def waiting_for(self) -> list[int]:
        """The people who have not yet asked for the next hand, once this one is over."""
        if self.hand.result is None:
            return []
        return [s for s in self.people if s not in self.ready]

    def _next(self, seat: int) -> Reply:
        if self.hand.result is None:
            return refused("the hand is still being played")
        self.ready.add(seat)
        if self.waiting_for():
            self.version += 1  # every page learns who is still looking at the result
            return Reply("done")
        self.ready.clear()
        if self.match is not None and not self.match.state.over:
            self.hand = Hand.new(self.ruleset, match_deal_seed(
                self.seed, self.match.index, len(self.match.state.hands)),
                self.match.state.dealer)
            self.version += 1
            self.save()
            return Reply("done")
        self.number += 1
        self.hand = self._deal_first()
        self.version += 1
        self.save(meta=True)
        return Reply("done")

    def bot_step(self) -> bool:
        """One bot action, if a bot is to act: chosen from its seat's view, applied, saved."""
        with self.lock:
            if not self.bot_to_act:
                return False
            seat = self.hand.to_act
            assert seat is not None
            self.hand.apply(self._bot_action(self.seats[seat], seat))
            self._changed()
            return True

    def _bot_action(self, level: str, seat: int) -> Action:
        """What the bot of ``level`` does for ``seat`` now, from the seat's view alone
        (seeded by the deal and the move, so that a resumed game plays on alike)."""
        if level not in self._bots:
            self._bots[level] = make_bot(level, self.ruleset)
        rng = random.Random(((self.hand.deal.seed or 0) << 12) + len(self.hand.log)
                            + 7919 * seat)
        return self._bots[level].choose(self.hand.view(seat), rng)

    def bot_steps(self) -> Iterator[int]:
        """The bots act one at a time until a person's turn or the hand's end; yields the
        game's version after each action."""
        while self.bot_step():
            yield self.version

    # ------------------------------------------------------------ what a seat sees

    def words(self, seat: int) -> list[str]:
        """What ``seat`` may say now: auction words, the landlord's calls, or pass in play."""
        if self.hand.to_act != seat:
            return []
        legal = self.hand.legal_actions()
        if self.hand.phase is Phase.PLAY:
            return [PASS] if PASS in legal else []
        return [a for a in legal if isinstance(a, str)]

    def public_view(self) -> View:
        """What every seat may know: a view with no seat's cards and no hidden kitty."""
        view = self.hand.view(0)
        shown = view.landlord is not None and self.ruleset.kitty_shown
        return replace(view, seat=-1, hand=0, legal=(),
                       kitty=self.hand.deal.kitty if shown else None)

    def state(self, seat: int | None) -> dict[str, Any]:
        """The protocol's STATE for ``seat`` (None: a watcher), from its view alone."""
        with self.lock:
            return self._state(seat)

    def _state(self, seat: int | None) -> dict[str, Any]:
        hand, ruleset = self.hand, self.ruleset
        view = hand.view(seat) if seat is not None else self.public_view()
        session = self.session(seat) if seat is not None else _Watcher(self)
        current, previous = tricks(view)
        last: dict[int, str | None] = {
            e.seat: (None if e.play is None else e.play.cards) for e in current}
        said = {e.seat: ("pass" if e.play is None else play_words(ruleset, e.play))
                for e in current}
        if not view.plays:  # before the first play, each seat's last word in the auction
            for s, word in view.auction:
                last[s] = said[s] = word_words(word)
        your_turn = seat is not None and view.to_act == seat
        counter = unseen(ruleset, view)
        seats = [{"seat": s,
                  "who": "you" if s == seat else "person" if who == HUMAN else who,
                  "role": role_of(view, s), "cards_left": view.hand_sizes[s],
                  "last": ("pass" if last[s] is None else last[s]) if s in last else None,
                  "last_said": said.get(s),
                  "to_act": view.to_act == s}
                 for s, who in enumerate(self.seats)]
        result = None
        if hand.result is not None:
            lines = (session.result_lines() if seat is not None
                     else Session(hand, 0, autoplay=True, spoken=True).result_lines())
            result = {"lines": lines, "scores": list(hand.result.scores),
                      "hands": [cards.key_text(h) for h in hand.hands],
                      "banner": _banner(hand.result.scores, seat, hand.result.redeal)}
            counter = _revealed(counter, hand, seat)
        match = None
        if self.match is not None:
            state = self.match.state
            dealt = len(state.hands) + (0 if hand.result is not None else 1)
            match = {"hand": dealt, "of": ruleset.match.hands, "totals": list(state.totals),
                     "over": state.over}
        return {
            "game": self.id, "ruleset": {"id": ruleset.id, "title": ruleset.title},
            "seat": seat, "seats": seats, "phase": view.phase.value, "to_act": view.to_act,
            "your_turn": your_turn, "hand": list(cards.key_text(view.hand)),
            "words": self.words(seat) if seat is not None else [],
            "word_labels": [word_words(w) for w in self.words(seat)] if seat is not None else [],
            "can_play": your_turn and view.phase is Phase.PLAY,
            "trick": _entries(ruleset, current),
            "last_trick": _entries(ruleset, previous),
            "kitty": None if view.kitty is None else cards.key_text(view.kitty),
            "multiplier": self._multiplier(view),
            "stake_line": self._stake_line(view),
            "aids": {"unseen": dict(counter.ranks), "advantage": session.advantage(),
                     "status": self._status(session, view, seat)},
            "log": session.history()[-LOG_LINES:],
            "details": (self.session(seat, spoken=False) if seat is not None
                        else _Watcher(self, spoken=False)).history()[-LOG_LINES:],
            "result": result, "match": match,
            "can_next": seat is not None and self.can_next and seat not in self.ready,
            "waiting_for": self.waiting_for(),
            "wild": [cards.RANKS[r] for r in view.wild],
            "timer": self.timer,
            "notices": list(self.notices),
        }

    def _multiplier(self, view: View) -> int:
        """The multiplier as it stands: during the auction, with the robs and grabs said."""
        if view.phase is Phase.AUCTION:
            return view.multiplier * said_factor(self.ruleset, view.auction)
        return view.multiplier

    def _stake_line(self, view: View) -> str:
        if view.landlord is None and self.ruleset.has_landlord:
            return f"multiplier x{self._multiplier(view)}; no landlord yet"
        return f"multiplier x{view.multiplier}"

    def _status(self, session: Session, view: View, seat: int | None) -> str:
        waiting = self.waiting_for()
        if self.ready and waiting:
            people = " and ".join(f"seat {s}" for s in waiting)
            return f"the next hand is dealt once {people} has seen the result"
        if self.hand.result is not None:
            if self.match is not None and self.match.state.over:
                return "the match is over: next starts a new one"
            return "the hand is over: next deals again"
        if seat is not None and view.to_act == seat:
            if view.phase is Phase.PLAY:
                return session.play_status()
            return f"your turn: say {', '.join(word_words(w) for w in self.words(seat))}"
        who = self.seats[view.to_act] if view.to_act is not None else ""
        return f"seat {view.to_act} ({'person' if who == HUMAN else who}) to act"


def _entries(ruleset: Ruleset, trick: list[TrickEntry]) -> list[dict[str, Any]]:
    """A trick as a page draws it: each seat's last action, its cards and its words."""
    return [{"seat": e.seat, "cards": None if e.play is None else e.play.cards,
             "said": "pass" if e.play is None else play_words(ruleset, e.play)}
            for e in trick]


def _revealed(counter: Counter, hand: Hand, seat: int | None) -> Counter:
    """The unseen-card counter once every hand is shown: only cards never dealt stay
    unseen."""
    shown = [0] * cards.NUM_RANKS
    for other, held in enumerate(hand.hands):
        if other != seat:
            for rank, n in enumerate(cards.unpack(held)):
                shown[rank] += n
    ranks = tuple((ch, max(0, n - shown[cards.RANK_INDEX[ch]])) for ch, n in counter.ranks)
    return replace(counter, ranks=ranks, total=sum(n for _, n in ranks), in_hands=0)


def _banner(scores: tuple[int, ...], seat: int | None, redeal: bool) -> str:
    """The end of a hand in a few words, for the seat: you won, you lost, or neither."""
    if redeal:
        return "Thrown in: nobody took the hand"
    if seat is None:
        best = max(scores)
        return "Won by " + " and ".join(f"seat {s}" for s, v in enumerate(scores) if v == best)
    score = scores[seat]
    return (f"You won {score:+d}" if score > 0 else f"You lost {score:+d}" if score < 0
            else "You broke even")


class _Watcher(Session):
    """The lines of a hand as someone watching sees them: from the public view, no "you"."""

    def __init__(self, game: WebGame, spoken: bool = True) -> None:
        super().__init__(game.hand, 0, "standard", HINT_LEVEL, autoplay=True, spoken=spoken)
        self._game = game
        self.seat = -1

    @property
    def view(self) -> View:
        return self._game.public_view()


def check_timer(timer: int | None, name: str | Named = "timer") -> None:
    """A table's turn timer (``name``, as the caller calls it): None, or whole seconds within
    :data:`TIMER_RANGE`."""
    if timer is None:
        return
    low, high = TIMER_RANGE
    if isinstance(timer, bool) or not isinstance(timer, int) or not low <= timer <= high:
        raise UsageError(name, f" {repr(timer)[:20]}: a turn timer is whole seconds from "
                         f"{low} to {high}, or none")


def check_seats(ruleset: Ruleset, seats: list[Any]) -> None:
    """Seats for a ruleset: one per player, each ``human`` or a bot level."""
    check_players(ruleset, 0)
    if len(seats) != ruleset.players:
        raise UsageError(f"seats: {ruleset.id} has {ruleset.players} seats, got {len(seats)}")
    for s, who in enumerate(seats):
        if not isinstance(who, str) or (who != HUMAN and who not in LEVELS):
            raise UsageError(f"seats[{s}]: {str(who)[:40]!r} is not human or a bot level "
                             f"({', '.join(LEVELS)})")


def resume_all(games_dir: Path) -> tuple[dict[str, WebGame], dict[str, str]]:
    """Every game saved under ``games_dir``, and for each game folder that could not be
    resumed, by its id, why (its files are left as they are)."""
    games: dict[str, WebGame] = {}
    damaged: dict[str, str] = {}
    if not games_dir.is_dir():
        return games, damaged
    for folder in sorted(games_dir.iterdir()):
        if not ID_PATTERN.match(folder.name):
            continue
        if not folder.is_dir() or folder.is_symlink():
            damaged[folder.name] = f"{folder}: not a folder of its own"
            continue
        try:
            games[folder.name] = WebGame.load(folder)
        except DdzError as exc:
            damaged[folder.name] = str(exc)
        except (OSError, ValueError, LookupError, TypeError) as exc:
            # a file that passed every check but still does not make a game: named, not raised
            damaged[folder.name] = f"{folder}: cannot be resumed ({type(exc).__name__}: {exc})"
    return games, damaged
