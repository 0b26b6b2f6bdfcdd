"""One hand as a person plays it: one seat theirs, bots in the others, no screen involved.

A :class:`Session` holds a :class:`~ddz_rules.game.Hand`, the person's seat and the bots.
:meth:`Session.act` takes what the person typed (an auction word, card text, ``CARDS@reading``
or ``pass``), has the referee check it, and either applies it or returns the one-line reason
it is refused, changing nothing: the same reasons ``ddz classify`` and ``ddz beats`` give.
Where ``teams.partner`` is ``called_rank`` (``four-player``), a landlord played by the person
calls a rank for a partner (``call A``, or just ``A``) or plays ``alone`` in the same way.
Everything shown to the person is computed from ``hand.view(seat)`` alone (:attr:`view`): the
unseen-card counter, the advantage line, the card counts, the auction so far, the current
trick, the hint, and every seat's role (landlord, partner once one has joined him, peasant).
Where the ruleset has wild cards (``laizi``, ``laizi-two``), every play is read, named and
explained with the hand's wild ranks (``view.wild``): a typed play holding wilds that reads
several ways asks for its reading as any such play does, the wild ranks are told as the seat
knows them (:meth:`Session.wild_line`, a line in the log when one is drawn), wild cards are
marked in the hand (:data:`WILD_MARK`), and each play with wilds is logged with its reading and
what its wilds stand for.
Where the ruleset has no landlord (``teams.sides: each_alone``, ``run-fast``) the hand starts
in the play: every seat plays for himself, the holder of the lead card leads
(:meth:`Session.lead_line`), a pass or a play the play rules forbid (:mod:`ddz_rules.duties`:
must beat, the last-card warning, last-play-only combinations, the lead card in the first play)
is refused with the referee's one-line reason, a player down to one card, the bombs paid at
once (:meth:`Session.duty_lines`) are told, and the result names the first player out, every
seat's cards left, the shut-outs and a liable player.
Bots decide from their own seats' views, with a random generator seeded from the deal's seed
and the number of actions taken, so a resumed hand plays on exactly as it would have.

After every action the hand is written whole (a temporary file, then a rename) as a hand
record (``ddz_rules/schema/record.schema.json``): ``ddz replay`` checks it once the hand is
over, and :meth:`Session.resume` continues it. Who plays which seat is kept beside it in a
small JSON file, ``NAME.play.json`` for a save file ``NAME`` (``x.json.play.json`` for
``x.json``: one side file per save file; a hand record has no field for it). A new game never
writes over a file that is there (:func:`~ddz_rules.outputs.write_new`), its save, its side
file or its ruleset copy; a resumed game rewrites only its own save. In a match
(:mod:`ddz_rules.play.match_session`) a session is one deal, and the match is saved in its
place (:attr:`Session.on_change`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ddz_rules import cards, duties, wilds
from ddz_rules.bots import BOT_PLAYERS, LEVELS, make_bot
from ddz_rules.bots.base import Bot
from ddz_rules.errors import DdzError, IllegalActionError, IllegalPlayError, Named, UsageError
from ddz_rules.game import ALONE, CALL, PASS, Action, Hand, Phase, View
from ddz_rules.inputs import read_bounded
from ddz_rules.match import next_dealer
from ddz_rules.outputs import write_new, write_whole
from ddz_rules.records import (
    check_seed,
    is_match_record,
    read_record,
    record_text,
    replay,
    ruleset_beside,
    to_record,
)
from ddz_rules.ruleset import Ruleset, load
from ddz_rules.scoring import Result, bomb_payment, paid_when_played
from ddz_rules.table import Play, beats_reason, split_reading
from ddz_rules.words import play_words, rank_word, word_words

#: The longest text the prompt takes (a play is at most 20 cards and a reading).
MAX_INPUT = 200
#: Deals thrown in one after another before ``--autoplay`` gives up (as in a comparison).
MAX_REDEALS = 64
#: The largest side file a resume reads.
MAX_SIDECAR_BYTES = 4096
#: What the person may type instead of ``pass``.
PASS_WORDS = ("pass", "p")
#: The aids, each switchable: the hint, the unseen-card counter, the advantage line, every
#: seat's card count, the auction so far, and the last play of each seat in the trick.
AIDS = ("hint", "counter", "advantage", "counts", "auction", "trick")
#: How a card of a wild rank is marked where cards are shown (``5*``).
WILD_MARK = "*"


def aids_of(text: str) -> tuple[str, ...]:
    """``--aids``: a comma-separated list of aids, or ``all`` or ``none``."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names in (["all"], []):
        return AIDS if names else ()
    if names == ["none"]:
        return ()
    for name in names:
        if name not in AIDS:
            raise UsageError(Named("aids"), f": unknown aid {name[:40]!r}; the aids are "
                             f"{', '.join(AIDS)} (or all, none)")
    return tuple(a for a in AIDS if a in names)


@dataclass(frozen=True)
class Outcome:
    """What became of a typed action: done, refused with a one-line reason, or a card set
    that reads several ways, whose reading the person must name (``choices``)."""

    ok: bool
    message: str
    choices: tuple[Play, ...] = ()
    #: What was done, as the log of moves says it (``seat 0 (you) plays 33 (pair/1/3)``).
    done: str = ""


@dataclass(frozen=True)
class Hint:
    """A legal action chosen by a bot level from the person's view, and how to type it."""

    level: str
    action: Action
    text: str
    reading: str


@dataclass(frozen=True)
class Counter:
    """Cards the seat has not seen, per rank: the deck less its own cards, every card
    played, and shown cards (the kitty once shown, a marked or turned card) whose holder
    has not yet played them. Undealt cards are never seen, so they are counted here."""

    ranks: tuple[tuple[str, int], ...]
    total: int
    undealt: int
    #: Unseen cards in the kitty, face down until the auction ends.
    kitty: int
    #: Unseen cards in the other seats' hands.
    in_hands: int


@dataclass(frozen=True)
class TrickEntry:
    """A seat's last action in a trick: its play, or None for a pass."""

    seat: int
    play: Play | None


def seat_label(seat: int, you: int, role: str = "") -> str:
    """``seat 2``, ``seat 2 (you)``, with a role: ``seat 2 (landlord)``, ``seat 2 (you,
    partner)``."""
    tags = [t for t in ("you" if seat == you else "", role) if t]
    return f"seat {seat} ({', '.join(tags)})" if tags else f"seat {seat}"


def card_label(rank: int) -> str:
    """A rank as a player reads it: ``10`` for T, jokers by name."""
    char = cards.RANKS[rank]
    return {"T": "10", "B": "small joker", "R": "big joker"}.get(char, char)


def a_card(rank: int) -> str:
    """One card of a rank, with its article: ``an A``, ``an 8``, ``a 10``, ``a small joker``."""
    label = card_label(rank)
    return f"{'an' if label[0] in 'A8' else 'a'} {label}"


def holds(key: int, rank: int) -> int:
    """How many cards of ``rank`` the card set ``key`` holds."""
    return (key >> (cards.FIELD_BITS * rank)) & cards.FIELD_MASK


def rank_labels(key: int, wild: tuple[int, ...] = ()) -> list[str]:
    """Cards as a player reads them, low to high, a card of a wild rank marked: ``5*``."""
    return [card_label(r) + (WILD_MARK if r in wild else "") for r in cards.ranks_of(key)]


def wild_names(ruleset: Ruleset, view: View) -> list[tuple[int, str, str]]:
    """The wild ranks ``view``'s seat has seen drawn, in the order of ``wild.drawn``, each as
    ``(rank, when, name)``: ``when`` it was drawn (``before_auction``, at the deal, or
    ``after_auction``, once the landlord took the kitty), and its name where a ruleset draws
    one rank at each (``sky`` and ``earth``), else ``""``."""
    drawn = ruleset.wild_drawn
    named = sorted(drawn) == ["after_auction", "before_auction"]
    # Before the kitty is taken only the ranks drawn before the auction are seen; after it,
    # every rank.
    when = (drawn if len(view.wild) == len(drawn)
            else tuple(w for w in drawn if w == "before_auction"))
    return [(rank, w, {"before_auction": "sky", "after_auction": "earth"}[w] if named else "")
            for rank, w in zip(view.wild, when, strict=True)]


def wild_line(ruleset: Ruleset, view: View) -> str | None:
    """The wild ranks as ``view``'s seat knows them, in a line (``wild: 5``, ``wild: 8 (sky),
    5 (earth)``, or what is still to be drawn); None where the ruleset has no wild cards."""
    drawn = ruleset.wild_drawn
    if not drawn:
        return None
    known = wild_names(ruleset, view)
    said = ", ".join(card_label(r) + (f" ({name})" if name else "") for r, _, name in known)
    pending = len(drawn) - len(known)
    if not pending:
        return f"wild: {said}"
    rest = ("the earth rank" if any(name for *_, name in known) else
            "the wild rank" if pending == 1 else "the wild ranks")
    later = ("was never drawn: nobody took the hand" if view.phase is Phase.SETTLED else
             f"{'is' if pending == 1 else 'are'} drawn once the landlord takes the kitty")
    return f"wild: {said}; {rest} {later}" if said else f"wild: {rest} {later}"


def draw_lines(ruleset: Ruleset, view: View, when: str) -> list[str]:
    """The line saying that wild ranks were drawn at ``when`` (``before_auction``: at the deal,
    ``after_auction``: once the landlord took the kitty), as ``view``'s seat saw it: ``the wild
    rank is drawn: 5 — every 5 is wild this hand``; none where nothing was drawn then."""
    known = wild_names(ruleset, view)
    new = [(r, name) for r, w, name in known if w == when]
    if not new:
        return []
    names = {name for _, name in new}
    what = (f"the {names.pop()} rank is" if names != {""} else
            "the wild rank is" if len(new) == 1 else "the wild ranks are")
    ranks = " and ".join(card_label(r) for r, _ in new)
    every = " and ".join(f"every {card_label(r)}" for r, _ in new)
    line = f"{what} drawn: {ranks} — {every} {'is' if len(new) == 1 else 'are'} wild this hand"
    before = [(r, name) for r, w, name in known
              if w == "before_auction" and when == "after_auction"]
    if before:
        line += ", as is " + " and ".join(f"every {card_label(r)}"
                                          + (f" (the {name} rank)" if name else "")
                                          for r, name in before)
    return [line]


def event_lines(result: Result, me: int) -> list[str]:
    """The multiplier events, each kind said once where it came several times, in the order
    they first came: ``event rob x2, 4 times (seat 1, seat 0, seat 1, seat 0): x16``; an event
    of cards (a bomb) keeps a line of its own, with its player and cards."""
    order: list[tuple[str, int] | int] = []
    grouped: dict[tuple[str, int], list[Any]] = {}
    for at, e in enumerate(result.events):
        if e.cards:
            order.append(at)
            continue
        kind = (e.name, e.factor)
        if kind not in grouped:
            order.append(kind)
        grouped.setdefault(kind, []).append(e)
    lines = []
    for entry in order:
        if isinstance(entry, int):
            e = result.events[entry]
            by = f", {seat_label(e.seat, me)}" if e.seat is not None else ""
            lines.append(f"event {e.name} x{e.factor}{by} ({e.cards})")
            continue
        (name, factor), events = entry, grouped[entry]
        seats = [seat_label(e.seat, me) for e in events if e.seat is not None]
        if len(events) == 1:
            lines.append(f"event {name} x{factor}" + (f", {seats[0]}" if seats else ""))
        else:
            by = f" ({', '.join(seats)})" if seats else ""
            lines.append(f"event {name} x{factor}, {len(events)} times{by}: "
                         f"x{factor ** len(events)}")
    return lines


def stand_ins(ruleset: Ruleset, play: Play, wild: tuple[int, ...]) -> str:
    """What the wild cards of a play stand for, as the log says it: ``wild for 3`` (3335 as a
    soft bomb of 3s with a wild 5; 33345 as a trio of 3s carrying a pair of 4s made with the
    wild 5 says ``wild for 4``), ``wilds for 99``, ``wild as its own rank`` (a wild alone, a
    kicker of its own rank, or on its own rank of a chain); ``""`` for a play holding no wild
    card. The
    derivation is :func:`ddz_rules.wilds.stand_ins`."""
    roles = wilds.stand_ins(ruleset, play, wild)
    holes = [role.rank for role in roles if role.rank != role.card]
    if holes:
        return f"wild{'s' if len(holes) > 1 else ''} for {cards.key_text(cards.pack_ranks(holes))}"
    if not roles:
        return ""
    return "wilds as their own rank" if len(roles) > 1 else "wild as its own rank"


def join_index(view: View) -> int | None:
    """Where in ``view.plays`` the seat that joined the landlord did so: its first play holding
    the called rank (``teams.partner: called_rank``); None while nobody has."""
    if view.joined is None or view.called is None:
        return None
    return next((i for i, (seat, play) in enumerate(view.plays) if seat == view.joined
                 and play is not None and holds(play.key, view.called)), None)


def role_of(view: View, seat: int, before: int | None = None) -> str:
    """``seat``'s role as ``view``'s seat knows it: ``landlord``, ``partner`` (the seat that
    joined him by playing the called rank), ``peasant``, or ``""`` while there is no landlord.
    With ``before``, the role as it stood before the play ``view.plays[before]``: a seat is a
    peasant until the play by which it joins."""
    if view.landlord is None:
        return ""
    if seat == view.landlord:
        return "landlord"
    if seat == view.joined:
        joined_at = join_index(view)
        if before is None or (joined_at is not None and joined_at < before):
            return "partner"
    return "peasant"



def cards_after(view: View, at: int) -> int:
    """How many cards the player of ``view.plays[at]`` held just after it, from the view: his
    cards now and every card he has played since."""
    seat = view.plays[at][0]
    later = sum(cards.size(play.key) for s, play in view.plays[at + 1:]
                if s == seat and play is not None)
    return view.hand_sizes[seat] + later


def sidecar_path(save: Path) -> Path:
    """Where who plays which seat is kept beside the save file ``NAME``: ``NAME.play.json``,
    the whole name and a suffix, so two save files never share a side file."""
    return save.with_name(save.name + ".play.json")


def legacy_sidecar_path(save: Path) -> Path | None:
    """Where earlier versions kept the side file of ``NAME.json``: ``NAME.play.json``
    (shared with the save ``NAME``, which is why the name changed). Read on resume only, and
    only a side file that names no save (:func:`_read_sidecar`); None for other names."""
    return save.with_name(save.stem + ".play.json") if save.suffix == ".json" else None


def default_save(ruleset: Ruleset, seed: int) -> Path:
    """The save file of a new game: ``ddz-play-RULESET-seedS.json`` in the current folder."""
    return Path(f"ddz-play-{ruleset.id}-seed{seed}.json")


def check_players(ruleset: Ruleset, seat: int) -> None:
    if ruleset.players not in BOT_PLAYERS:
        raise UsageError(f"ruleset {ruleset.id} has {ruleset.players} players; the bots play "
                         f"{' or '.join(map(str, BOT_PLAYERS))}")
    if not 0 <= seat < ruleset.players:
        raise UsageError(Named("seat"), f" {seat}: {ruleset.id} has seats 0 to "
                         f"{ruleset.players - 1}")


def check_level(level: str, name: str | Named) -> None:
    """A bot level, or one line naming the argument it came in (``name``)."""
    if level not in LEVELS:
        raise UsageError(name, f" {level!r}: unknown bot level; expected one of "
                         f"{', '.join(LEVELS)}")


def already_saved(save: Path, what: str) -> UsageError:
    """A new game refused a save file that exists, saying how to go on."""
    return UsageError(f"{save} already exists: continue that {what} with 'ddz play ",
                      Named("resume"), f" {save}', or give ", Named("save"), " another file "
                      "(nothing was overwritten)")


class Session:
    """A hand in which ``seat`` is played by a person (or, with ``autoplay``, by the hint
    level) and every other seat by a bot of level ``bots``."""

    def __init__(self, hand: Hand, seat: int, bots: str = "standard", hint_level: str = "medium",
                 save: Path | None = None, autoplay: bool = False, spoken: bool = False) -> None:
        check_players(hand.ruleset, seat)
        check_level(bots, Named("bots"))
        check_level(hint_level, Named("hint_level"))
        self.hand = hand
        self.seat = seat
        self.bots = bots
        self.hint_level = hint_level
        self.save_path = save
        self.autoplay = autoplay
        self._bots: dict[str, Bot] = {}
        self._ruleset_name: str | None = None
        #: Whether lines name plays and words as people say them (``pair of 10s``, ``bid 2``:
        #: the browser table) rather than in the engine's notation (``TT (pair/1/T)``).
        self.spoken = spoken
        #: Called after every action in place of writing the hand record, where the hand is
        #: one deal of a match (:class:`~ddz_rules.play.match_session.MatchSession` saves it).
        self.on_change: Callable[[], None] | None = None

    # ------------------------------------------------------------ making and resuming

    @classmethod
    def new(cls, ruleset: Ruleset, seat: int = 0, bots: str = "standard", seed: int = 0,
            dealer: int = 0, hint_level: str = "medium", save: Path | None = None,
            autoplay: bool = False, ready: Callable[[], None] | None = None) -> Session:
        """A freshly dealt hand; with ``save``, written at once (a new game never
        overwrites a file). ``ready`` is called once every input is checked, before the
        first write (``ddz play`` asks for its terminal there)."""
        check_players(ruleset, seat)
        if not 0 <= dealer < ruleset.players:
            raise UsageError(Named("dealer"), f" {dealer}: {ruleset.id} has seats 0 to "
                             f"{ruleset.players - 1}")
        if save is not None and (save.exists() or save.is_symlink()):
            raise already_saved(save, "hand")
        session = cls(Hand.new(ruleset, seed, dealer), seat, bots, hint_level, save, autoplay)
        if ready is not None:
            ready()
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, seat: int | None = None, bots: str | None = None,
               hint_level: str | None = None, autoplay: bool = False) -> Session:
        """The hand saved in ``path``, rebuilt by replaying its actions, with the seats as
        they were (from ``NAME.play.json``; ``seat`` and ``bots`` must agree with it, and
        are needed where it is missing)."""
        where = str(path)
        record = read_record(where)
        if is_match_record(record):
            raise UsageError(f"{where} is a match record; MatchSession.resume continues it")
        chosen_seat, chosen_bots, hint = saved_seats(path, seat, bots, hint_level, "hand")
        done = replay(record, where)
        if not done.valid and done.action is not None:
            raise UsageError(f"{where}: action {done.index} ({done.action!r}): {done.reason}; "
                             "the saved hand cannot be continued")
        session = cls(done.hand, chosen_seat, chosen_bots, hint, path, autoplay)
        session._ruleset_name = record["ruleset"]
        return session

    def next_deal(self) -> None:
        """After a thrown-in deal: deal again (the next seed, the next dealer as
        ``match.rotation`` says), saved to the same file."""
        if self.hand.result is None or not self.hand.result.redeal:
            raise UsageError("only a thrown-in deal is dealt again")
        ruleset, old = self.hand.ruleset, self.hand.deal
        seed = (old.seed or 0) + 1
        self.hand = Hand.new(ruleset, seed, next_dealer(ruleset, old.dealer, True))
        self.save()

    # ------------------------------------------------------------ saving

    def record(self) -> dict[str, Any]:
        """The hand record of the hand so far (finished or not)."""
        record = to_record(self.hand)
        if self._ruleset_name is not None:
            record["ruleset"] = self._ruleset_name
        return record

    def save(self) -> None:
        """Write the hand record whole (and, the first time, who plays which seat); in a
        match, have the match saved instead (:attr:`on_change`)."""
        if self.on_change is not None:
            self.on_change()
            return
        if self.save_path is None:
            return
        path = self.save_path
        if self._ruleset_name is None:

            def text_of(name: str) -> str:
                return record_text({**self.record(), "ruleset": name}, path)

            self._ruleset_name = first_save(path, self.hand.ruleset, self.seat, self.bots,
                                            self.hint_level, "hand", text_of)
            return
        write_save(path, record_text(self.record(), path), False, "hand")

    # ------------------------------------------------------------ state

    @property
    def ruleset(self) -> Ruleset:
        return self.hand.ruleset

    @property
    def view(self) -> View:
        """What the person's seat may know: everything shown is computed from this."""
        return self.hand.view(self.seat)

    @property
    def over(self) -> bool:
        return self.hand.result is not None

    @property
    def your_turn(self) -> bool:
        return self.hand.to_act == self.seat and not self.autoplay

    @property
    def bot_to_act(self) -> bool:
        """A bot (or, with autoplay, the hint level in the person's seat) acts next."""
        return self.hand.to_act is not None and (self.hand.to_act != self.seat or self.autoplay)

    def _index(self) -> int:
        return len(self.hand.log) - 1

    def _rng(self, salt: int) -> random.Random:
        seed = self.hand.deal.seed or 0
        return random.Random(((seed ^ salt) << 12) + self._index())

    def _bot(self, level: str) -> Bot:
        if level not in self._bots:
            self._bots[level] = make_bot(level, self.ruleset)
        return self._bots[level]

    # ------------------------------------------------------------ acting

    def act(self, text: str | Play) -> Outcome:
        """Do what the person typed for their seat, or say in one line why not (the hand
        is then unchanged). A card set with several legal readings is not played: its
        readings come back as ``choices``, to be played as a :class:`Play` or named with
        ``CARDS@type/length/rank``."""
        try:
            return self._act(text)
        except IllegalActionError as exc:
            return Outcome(False, f"refused: {exc}")

    def _act(self, text: str | Play) -> Outcome:
        hand = self.hand
        if hand.result is not None:
            return Outcome(False, "the hand is over")
        if hand.to_act != self.seat:
            return Outcome(False, f"it is seat {hand.to_act}'s turn, not yours")
        if isinstance(text, Play):
            return self._play(text)
        typed = " ".join(text.split())
        if not typed:
            return Outcome(False, "type an action: " + {
                Phase.AUCTION: "an auction word",
                Phase.CALL: "call RANK (or just RANK) or alone"}.get(hand.phase, "cards, or pass"))
        if len(typed) > MAX_INPUT:
            return Outcome(False, f"refused: {len(typed)} characters; an action is at most "
                           f"{MAX_INPUT}")
        if hand.phase is Phase.CALL:
            return self._call(typed)
        if hand.phase is Phase.AUCTION:
            words = [str(w) for w in hand.legal_actions()]
            word = typed.lower()
            if word in PASS_WORDS and PASS in words:
                word = PASS
            if word not in words:
                return Outcome(False, f"refused: {typed!r} is not an auction word here; the "
                               f"auction is on: say {', '.join(words)}")
            hand.apply(word)
            self.save()
            drawn = (draw_lines(self.ruleset, self.view, "after_auction")
                     if hand.landlord is not None else [])
            return Outcome(True, "; ".join([f"you said {word}", *drawn]),
                           done=self.describe(self.seat, word, Phase.AUCTION))
        if typed.lower() in PASS_WORDS:
            if hand.to_beat is None:
                return Outcome(False, "refused: you lead this trick and may not pass; play "
                               "any legal play")
            if self.ruleset.must_beat:
                answers = [a for a in hand.legal_actions() if isinstance(a, Play)]
                why = duties.pass_refusal(self.ruleset, answers)
                if why:
                    return Outcome(False, f"refused: you may not pass: {why}")
            hand.apply(PASS)
            self.save()
            return Outcome(True, "you passed", done=self.describe(self.seat, PASS, Phase.PLAY))
        return self._typed_play(typed)

    def call_action(self, typed: str) -> str | None:
        """The landlord's call that ``typed`` names (``call A``, ``A``, ``call 10``,
        ``alone``, in any case), if it is one he may make now; else None."""
        word = " ".join(typed.split()).lower()
        if word == ALONE:
            return ALONE
        rest = word[len("call"):].strip() if word.startswith("call") else word
        if not rest:
            return None
        try:
            ranks = self.ruleset.parse_cards(rest)
        except DdzError:
            return None
        if len(ranks) != 1:
            return None
        action = CALL + cards.RANKS[ranks[0]]
        return action if action in self.hand.legal_actions() else None

    def _call(self, typed: str) -> Outcome:
        action = self.call_action(typed)
        if action is None:
            ranks = " ".join(cards.RANKS[r] for r in self.ruleset.deck_ranks)
            return Outcome(False, f"refused: {typed!r} is not a call here; you are the landlord "
                           f"and call a partner now: say call RANK (or just RANK), RANK one "
                           f"of {ranks}, or alone")
        self.hand.apply(action)
        self.save()
        rank = None if action == ALONE else cards.RANK_INDEX[action[len(CALL):]]
        said = ("you play alone" if rank is None else f"you called {card_label(rank)}: the "
                f"first other player to play {a_card(rank)} joins you")
        return Outcome(True, said, done=self.describe(self.seat, action, Phase.CALL))

    def _typed_play(self, typed: str) -> Outcome:
        hand, table, wild = self.hand, self.hand.table, self.hand.wild
        try:
            cards_part, named = split_reading(typed)
            key, readings = table.read_play(cards_part, wild, any_reading=True)
        except IllegalPlayError as exc:
            key = exc.key or 0
            if not cards.size(key):
                return Outcome(False, f"refused: {table.explain(key, wild)}")
            return Outcome(False, f"refused: {cards.key_text(key)}: not a legal play: "
                           f"{table.explain(key, wild)}")  # as ddz classify says it
        except DdzError as exc:
            return Outcome(False, f"refused: {exc}")
        mine = hand.hands[self.seat]
        if not cards.contains(mine, key):
            short = [cards.RANKS[r] * (n - h) for r, (n, h) in
                     enumerate(zip(cards.unpack(key), cards.unpack(mine), strict=True)) if n > h]
            return Outcome(False, f"refused: you do not hold {cards.key_text(key)} (missing "
                           f"{''.join(short)})")
        if named is not None:
            try:
                candidates = list(table.read_play(typed, wild)[1])
            except DdzError as exc:
                return Outcome(False, f"refused: {exc}")
        else:
            candidates = list(readings)
        to_beat = hand.to_beat
        if to_beat is not None:
            winners = [r for r in candidates if r.beats(to_beat.reading)]
            if not winners:  # as ddz beats says it
                reason = beats_reason(self.ruleset, Play(key, candidates[0]), to_beat)
                return Outcome(False, f"refused: {reason}")
            candidates = winners
        if hand.bound:  # the play rules beyond beating (must beat aside): as the engine says
            turn = hand.turn()
            reasons = [duties.refusal(self.ruleset, Play(key, r), turn) for r in candidates]
            if all(reasons):
                return Outcome(False, f"refused: you may not play {cards.key_text(key)}: "
                               f"{reasons[0]}")
            candidates = [r for r, why in zip(candidates, reasons, strict=True) if not why]
        if len(candidates) > 1:
            options = tuple(Play(key, r) for r in candidates)
            listed = ", ".join(table.notation(p, wild) for p in options)
            return Outcome(False, f"{cards.key_text(key)} reads {len(options)} ways under "
                           f"{self.ruleset.id}; name the reading: {listed}", options)
        return self._play(Play(key, candidates[0]))

    def _play(self, play: Play) -> Outcome:
        self.hand.apply(play)
        self.save()
        view = self.view
        joined = " and joined the landlord as his partner" if (
            join_index(view) == len(view.plays) - 1) else ""
        return Outcome(True, f"you played {self.play_text(play, view)}{joined}",
                       done=self.describe(self.seat, play, Phase.PLAY))

    def play_text(self, play: Play, view: View | None = None) -> str:
        """A play as the log says it: its notation and reading, ``33 (pair/1/3)``; a play
        holding wilds, whose notation names its reading, with what they stand for:
        ``3335@soft_bomb/1/3 (wild for 3)``."""
        wild = (view or self.view).wild
        notation = self.hand.table.notation(play, wild)
        note = stand_ins(self.ruleset, play, wild)
        if self.spoken:
            cards_shown = " ".join(rank_word(r) for r in cards.ranks_of(play.key))
            return f"{play_words(self.ruleset, play)} ({note or cards_shown})" if note else (
                play_words(self.ruleset, play))
        return f"{notation} ({note or play.reading.short()})"

    def bot_choice(self) -> Action:
        """What the bot in the seat to act chooses, from that seat's view (no change)."""
        seat = self.hand.to_act
        assert seat is not None and self.bot_to_act
        level = self.hint_level if seat == self.seat else self.bots
        return self._bot(level).choose(self.hand.view(seat), self._rng(0xB075))

    def apply_bot(self, action: Action) -> str:
        """Apply a bot's action (from :meth:`bot_choice`) and say what it did."""
        seat, phase = self.hand.to_act, self.hand.phase
        assert seat is not None
        self.hand.apply(action)
        self.save()
        return self.describe(seat, action, phase)

    def bot_step(self) -> str:
        """One bot move: chosen, applied, saved; what it did."""
        return self.apply_bot(self.bot_choice())

    def run_bots(self) -> list[str]:
        """Bot moves until it is the person's turn or the hand is over."""
        done = []
        while self.bot_to_act:
            done.append(self.bot_step())
        return done

    def describe(self, seat: int, action: Action, phase: Phase) -> str:
        """One line for the action ``seat`` has just taken in ``phase`` (the last one applied),
        with the roles as the person's seat knew them when it was taken."""
        view = self.view
        at = len(view.plays) - 1 if phase is Phase.PLAY else None
        line = self._line(view, seat, action, phase, at)
        if phase is Phase.AUCTION and view.landlord is not None:  # the auction just ended
            line = "\n".join([line, *self.auction_end_lines(view)])
        return line

    def _line(self, view: View, seat: int, action: Action, phase: Phase,
              at: int | None) -> str:
        """One line for an action: ``at`` is its index in ``view.plays`` (play phase)."""
        if phase is Phase.AUCTION:  # nobody has a role before the auction ends
            said = word_words(action) if self.spoken and isinstance(action, str) else action
            return f"{seat_label(seat, self.seat)} says {said}"
        who = seat_label(seat, self.seat, role_of(view, seat, at))
        if phase is Phase.CALL:
            if action == ALONE:
                return f"{who} plays alone"
            assert isinstance(action, str) and action.startswith(CALL)
            rank = cards.RANK_INDEX[action[len(CALL):]]
            return (f"{who} calls {card_label(rank)}: the first other player to play "
                    f"{a_card(rank)} joins him")
        if not isinstance(action, Play):
            return f"{who} passes"
        line = f"{who} plays {self.play_text(action, view)}"
        if at is not None and join_index(view) == at:
            line += " and joins the landlord as his partner"
        paid = bomb_payment(self.ruleset, action.reading.type)
        if paid:
            line += (f"; a bomb, paid at once: {paid} from each other seat"
                     if paid_when_played(self.ruleset) else
                     f"; a bomb: {paid} from each other seat if it wins its trick")
        if at is not None and duties.warns_last_card(self.ruleset) and cards_after(view, at) == 1:
            line += "; one card left"
        return line

    def history(self) -> list[str]:
        """Every action so far, one line each as :meth:`describe` gave it, from the person's
        view alone: the auction, the landlord's call, the plays; where there are wild cards,
        the line of each wild rank drawn, where it was drawn."""
        view = self.view
        lines = draw_lines(self.ruleset, view, "before_auction") + self.lead_lines()
        lines += [self._line(view, seat, word, Phase.AUCTION, None) for seat, word in view.auction]
        if view.landlord is not None:
            lines += self.auction_end_lines(view)
        if self.call_made(view) and view.landlord is not None:
            call = ALONE if view.called is None else CALL + cards.RANKS[view.called]
            lines.append(self._line(view, view.landlord, call, Phase.CALL, None))
        for at, (seat, play) in enumerate(view.plays):
            lines.append(self._line(view, seat, PASS if play is None else play, Phase.PLAY, at))
        return lines

    def auction_end_lines(self, view: View) -> list[str]:
        """What the end of the auction shows: why a landlord nobody called is one (the
        ruleset's own words for ``auction.all_pass``), then the wild ranks drawn after it."""
        why = []
        if self.hand.auction.landlord_by_all_pass and view.landlord is not None:
            rule = self.ruleset.data["auction"]["all_pass"]["text"]
            why = [f"nobody called: {seat_label(view.landlord, self.seat)} is landlord "
                   f"(auction.all_pass: {rule})"]
        return why + draw_lines(self.ruleset, view, "after_auction")

    def call_made(self, view: View | None = None) -> bool:
        """Whether the landlord has made his call (``teams.partner: called_rank``)."""
        view = view or self.view
        return (self.ruleset.partner_rule == "called_rank" and view.landlord is not None
                and view.phase in (Phase.PLAY, Phase.SETTLED))

    def role(self, seat: int) -> str:
        """``seat``'s role now, as the person's seat knows it (landlord, partner, peasant)."""
        return role_of(self.view, seat)

    def label(self, seat: int) -> str:
        """``seat 2 (landlord)``, ``seat 0 (you, peasant)``: a seat with its role now."""
        return seat_label(seat, self.seat, self.role(seat))

    def partner_line(self) -> str | None:
        """Where the landlord calls a partner (``teams.partner: called_rank``): his call, and
        who has joined him, as the person's seat knows it; None before the call (or with no
        call in the ruleset)."""
        view = self.view
        if not self.call_made(view) or view.landlord is None:
            return None
        if view.called is None:
            return f"{self.label(view.landlord)} plays alone"
        called = f"called {card_label(view.called)}"
        if view.joined is not None:
            return f"{called}: {self.label(view.joined)} joined the landlord"
        him = "you" if self.seat == view.landlord else "him"
        line = f"{called}: the first other player to play {a_card(view.called)} joins {him}"
        mine = holds(view.hand, view.called)
        if self.seat != view.landlord and mine and view.phase is Phase.PLAY:
            line += (f"; you hold {mine}, and a play with one makes you his partner")
        return line

    def wild_line(self) -> str | None:
        """The wild ranks as the person's seat knows them (``wild: 5``, ``wild: 8 (sky), 5
        (earth)``, or what is still to be drawn); None where the ruleset has no wild cards."""
        return wild_line(self.ruleset, self.view)

    def deal_lines(self) -> list[str]:
        """What the deal shows every seat before the auction: the wild rank drawn then
        (``laizi-two``'s sky rank), as a line for the log."""
        return draw_lines(self.ruleset, self.view, "before_auction") + self.lead_lines()

    def lead_lines(self) -> list[str]:
        """Where the first leader holds a card that makes him so (``play.first_leader:
        card_holder``): who holds it and leads, as a line for the log; none elsewhere."""
        line = self.lead_line()
        return [line] if line else []

    def lead_line(self) -> str | None:
        """``seat 2 holds the lead card, the 3 of spades, and leads`` (``you hold ...``; once
        the first play is made, ``held ... and led``); None without a lead card. It is public:
        the first play must show the card (``play.first_play_holds_lead_card``)."""
        card = self.hand.deal.lead_card
        if card is None:
            return None
        view = self.view
        leader = view.first_bidder
        you = leader == self.seat and not self.autoplay
        who = "you" if you else seat_label(leader, -1 if self.autoplay else self.seat)
        began = bool(view.plays)
        holds_word = ("held" if began else "hold" if you else "holds")
        lead_word = ("led" if began else "lead" if you else "leads")
        return f"{who} {holds_word} the lead card, the {cards.suited_name(card)}, and {lead_word}"

    def duty_lines(self) -> list[str]:
        """What the play rules make of the moment, as the person's seat sees it: the lead card
        before the first play, each player down to one card where that is a matter of the rules
        (:func:`~ddz_rules.duties.warns_last_card`), and the bombs paid so far; none where the
        ruleset has no such rules."""
        view, ruleset = self.view, self.ruleset
        lines = []
        if not view.plays and (line := self.lead_line()):
            lines.append(line)
        if view.phase is Phase.PLAY and duties.warns_last_card(ruleset):
            n = len(view.hand_sizes)
            for seat, size in enumerate(view.hand_sizes):
                if size != 1:
                    continue
                who = seat_label(seat, self.seat)
                line = f"last-card warning: {who} holds one card"
                before = (seat - 1) % n  # the player he plays after
                if ruleset.last_card_warning == "highest_single":
                    line += (f"; {seat_label(before, self.seat)}, before him, may play a single "
                             "only of his highest rank (play.last_card_warning)")
                    if before == self.seat and view.to_act == self.seat:
                        top = duties.highest_rank(view.hand)
                        line += f": yours is {card_label(top)}"
                if ruleset.liability == "pays_for_all":
                    cause = (" where the highest would have held him"
                             if ruleset.liable_if == "highest_would_hold" else "")
                    line += (f"; if {seat_label(before, self.seat)} plays a single below his "
                             f"highest rank and he goes out on it{cause}, that player pays for "
                             "all (scoring.liability)")
                lines.append(line)
        if self.hand.bombs_paid:
            when = "at once" if paid_when_played(ruleset) else "for winning their trick"
            lines.append(f"bombs paid {when}: " + "; ".join(
                f"{seat_label(b.seat, self.seat)}, {b.name}: {b.amount} from each other seat"
                for b in self.hand.bombs_paid))
        return lines

    def seat_note(self, seat: int) -> str:
        """What the seats table says of ``seat`` beside its number: its role (landlord,
        partner, peasant) where there is a landlord; without one, ``leads`` for the holder of
        the lead card before the first play, ``one card`` for a player down to his last where
        that is a matter of the rules, else nothing: every player plays for himself."""
        view = self.view
        if self.ruleset.has_landlord:
            return role_of(view, seat)
        if not view.plays and self.hand.deal.lead_card is not None and seat == view.first_bidder:
            return "leads"
        if duties.warns_last_card(self.ruleset) and view.hand_sizes[seat] == 1:
            return "one card"
        return ""

    def play_status(self) -> str:
        """The status line of the person's turn in the play phase: what to answer, or that he
        leads, with what the play rules ask (``play.must_beat``, the lead card's first play)."""
        view, ruleset = self.view, self.ruleset
        to_beat = view.to_beat
        if to_beat is None:
            card = self.hand.deal.lead_card
            if ruleset.first_play_holds_lead_card and not view.plays and card is not None:
                return (f"your play: you lead the first trick: your play must hold the "
                        f"{cards.suited_name(card)} (any {card_label(cards.parse_suited(card)[0])}"
                        " does)")
            return "your play: you lead: play anything"
        answer = (play_words(ruleset, to_beat) if self.spoken else
                  f"{to_beat.cards} ({to_beat.reading.short()})")
        if ruleset.must_beat:
            if view.legal == (PASS,):
                return f"your play: nothing you may play beats {answer}: pass"
            if PASS not in view.legal:
                return (f"your play: answer {answer}; you can beat it, so you must "
                        "(play.must_beat)")
        return f"your play: answer {answer} or pass"

    def hand_line(self) -> str:
        """The person's cards, low to high, wild cards marked: ``your cards (17): 3 3 4 5* 5*
        ... (* wild)``."""
        view = self.view
        labels = rank_labels(view.hand, view.wild)
        marked = any(label.endswith(WILD_MARK) for label in labels)
        return (f"your cards ({cards.size(view.hand)}): {' '.join(labels)}"
                + (f" ({WILD_MARK} wild)" if marked else ""))

    # ------------------------------------------------------------ aids

    def hint(self, level: str | None = None) -> Hint:
        """A legal action for the person's seat, chosen by a bot level from that seat's view
        alone, with its reading and the text that plays it."""
        return self.hint_later(level)()

    def hint_later(self, level: str | None = None) -> Callable[[], Hint]:
        """:meth:`hint` as a call that reads nothing of the hand (its view is taken now), so
        that it may run in another thread while the hand moves on."""
        level = level or self.hint_level
        check_level(level, "hint level")
        view = self.view
        if view.to_act != self.seat or self.over:
            raise UsageError("there is nothing to hint: it is not your turn")
        bot, rng, table = self._bot(level), self._rng(0x4817), self.hand.table
        ruleset = self.ruleset

        def choose() -> Hint:
            action = bot.choose(view, rng)
            if isinstance(action, Play):
                reading = action.reading.short()
                if action.reading.kicker_key:
                    reading += f", kickers {action.reading.kickers}"
                note = stand_ins(ruleset, action, view.wild)
                if note:
                    reading += f"; {note}"
                if (view.undecided and view.called is not None and view.seat != view.landlord
                        and holds(action.key, view.called)):
                    reading += (f"; it holds the called {card_label(view.called)}: you join "
                                "the landlord")
                return Hint(level, action, table.notation(action, view.wild), reading)
            if view.phase is Phase.CALL:
                if action == ALONE:
                    return Hint(level, action, action, "play alone against the three others")
                rank = cards.RANK_INDEX[action[len(CALL):]]
                return Hint(level, action, action, f"the first other player to play "
                            f"{a_card(rank)} joins you")
            return Hint(level, action, action, "pass" if action == PASS else "auction word")

        return choose

    def counter(self) -> Counter:
        """Unseen cards per rank, from the person's view alone."""
        return unseen(self.ruleset, self.view)

    def counts(self) -> tuple[int, ...]:
        """Cards in every seat's hand."""
        return self.view.hand_sizes

    def auction_history(self) -> tuple[tuple[int, str], ...]:
        return self.view.auction

    def trick(self) -> tuple[list[TrickEntry], list[TrickEntry]]:
        """The current trick (each seat's last action in it) and the trick before it."""
        return tricks(self.view)

    def advantage(self) -> str | None:
        """The advantage line, where the ruleset has one (``ending.peasant_goal``)."""
        view = self.view
        if self.ruleset.peasant_goal != "advantage":
            return None
        if view.landlord is None or view.advantage is None:
            return ("advantage: the peasant wins with as many cards left as there were robs "
                    "in the auction (set when it ends)")
        peasant = next(s for s in range(len(view.hand_sizes)) if s != view.landlord)
        left = view.hand_sizes[peasant] - view.advantage
        robs = f"{view.advantage} rob{'s' if view.advantage != 1 else ''}"
        return (f"advantage {view.advantage} ({robs}): {seat_label(peasant, self.seat)}, the "
                f"peasant, wins at {view.advantage} cards left or fewer; {left} more to shed")

    def result_lines(self) -> list[str]:
        """The result as ``ddz replay`` gives it: base, every multiplier event, the scores;
        under wild cards, the hand's wild ranks after the base."""
        result = self.hand.result
        if result is None:
            return []
        if result.redeal:
            return ["nobody took the hand: it is thrown in and dealt again, nothing carried "
                    "over"]
        if result.first_out is not None:
            return self._first_out_lines(result)
        assert result.landlord is not None
        side = result.landlord_side
        role = ("landlord" if self.seat == result.landlord else
                "partner" if self.seat == result.partner else "peasant")
        won = (result.winner == "landlord") == (self.seat in side)
        me = -1 if self.autoplay else self.seat  # no "you" where bots played every seat
        who = f"seat {self.seat}" if self.autoplay else "you"
        landlord = f"landlord {seat_label(result.landlord, me)}"
        peasants = self.ruleset.players - len(side)
        winner = ("the landlord wins" if result.winner == "landlord" else
                  "the peasant wins" if peasants == 1 else "the peasants win")
        if self.ruleset.partner_rule == "called_rank":
            called = self.view.called
            if called is None:
                landlord += ", alone"
            elif result.partner is None:
                landlord += f", called {card_label(called)}, nobody joined"
            else:
                landlord += (f", called {card_label(called)}, partner "
                             f"{seat_label(result.partner, me)}")
                if result.winner == "landlord":
                    winner = "the landlord's side wins"
        lines = [f"{landlord}, {winner}: "
                 f"{who} ({role}) {'won' if won else 'lost'} {result.scores[self.seat]:+d}",
                 f"  base {result.base} x multiplier {result.multiplier}"
                 + (f" (capped at {result.cap})" if result.cap else "")]
        wild = self.wild_line()
        if wild is not None:
            lines.append(f"  {wild}")
        if not result.events:
            lines.append("  events: none")
        lines += [f"  {line}" for line in event_lines(result, me)]
        lines.append(f"  scores {list(result.scores)}")
        return lines

    def _first_out_lines(self, result: Result) -> list[str]:
        """A hand without a landlord (``scoring.settlement: cards_left``): who went out first,
        every seat's cards left, the shut-outs, the liable seat, the bombs paid, the scores."""
        assert result.first_out is not None
        me = -1 if self.autoplay else self.seat
        who = f"seat {self.seat}" if self.autoplay else "you"
        out = "you" if result.first_out == me else seat_label(result.first_out, me)
        score = result.scores[self.seat]
        went = (f"{who} went out first and won {score:+d}" if self.seat == result.first_out
                else f"{out} went out first: {who} lost {score:+d}")
        lines = [went,
                 "  cards left: " + ", ".join(f"{seat_label(s, me)} {n}"
                                              for s, n in enumerate(result.cards_left))]
        if result.shut_out:
            lines.append("  shut out (never played a card, pays "
                         f"{self.ruleset.shut_out} times as much): "
                         + ", ".join(seat_label(s, me) for s in result.shut_out))
        else:
            lines.append("  shut out: nobody")
        if result.liable is not None:
            lines.append(f"  liable: {seat_label(result.liable, me)} let "
                         f"{seat_label(result.first_out, me)} out with a single below his "
                         "highest rank and pays for everyone (scoring.liability)")
        if result.bombs_paid:
            lines.append("  bombs paid at once: " + "; ".join(
                f"{seat_label(b.seat, me)}, {b.name}: {b.amount} from each other seat"
                for b in result.bombs_paid))
        elif self.ruleset.bomb_payments:
            lines.append("  bombs paid at once: none")
        lines.append(f"  scores {list(result.scores)}")
        return lines


def open_session(ruleset: str, seat: int | None = None, bots: str | None = None,
                 seed: int | None = None, hint_level: str | None = None,
                 save: str | None = None, no_save: bool = False, resume: str | None = None,
                 autoplay: bool = False, ready: Callable[[], None] | None = None) -> Session:
    """The session ``ddz play`` asks for: a new hand (saved to ``save``, by default
    :func:`default_save`, unless ``no_save``) or the one saved in ``resume``. Every option
    and file is checked here, before anything is written, each refusal one line; ``ready``
    is called once they all are, before the first write (``ddz play`` asks for its terminal
    there, so that a missing file is reported before a missing terminal)."""
    check_levels(bots, hint_level)
    if resume is not None:
        check_resumed(seed, save, no_save, "hand")
        resumed = Session.resume(Path(resume), seat, bots, hint_level, autoplay)
        if ready is not None:
            ready()
        return resumed
    loaded = load(ruleset)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    check_seed(seed)
    check_save(save, no_save)
    path = None if no_save else Path(save) if save is not None else default_save(loaded, seed)
    return Session.new(loaded, seat or 0, bots or "standard", seed,
                       hint_level=hint_level or "medium", save=path, autoplay=autoplay,
                       ready=ready)


def check_levels(bots: str | None, hint_level: str | None) -> None:
    """The bots' level and the hint level of a game asked for, where given."""
    for level, name in ((bots, "bots"), (hint_level, "hint_level")):
        if level is not None:
            check_level(level, Named(name))


def check_resumed(seed: int | None, save: str | None, no_save: bool, what: str) -> None:
    """A resumed hand or match keeps its seed and its save: refuse either given anew."""
    if seed is not None:
        raise UsageError(Named("seed"), f": a resumed {what} keeps the seed it was dealt with; "
                         "leave out ", Named("seed"))
    if save is not None or no_save:
        raise UsageError(Named("resume"), " FILE goes on saving to FILE; leave out ",
                         Named("save"), " and ", Named("no_save"))


def check_save(save: str | None, no_save: bool) -> None:
    """A save file and no save at all cannot both be asked for."""
    if no_save and save is not None:
        raise UsageError(Named("save"), " and ", Named("no_save"), ": choose one")


def autoplay(session: Session) -> list[str]:
    """Play the hand to its end with bots in every seat (the hint level in the person's),
    dealing again after a thrown-in deal; what happened, deal by deal, as lines."""
    lines = []
    session.autoplay = True
    for attempt in range(MAX_REDEALS):
        session.run_bots()
        result = session.hand.result
        assert result is not None
        if not result.redeal or attempt == MAX_REDEALS - 1:
            break
        lines.append(f"seed {session.hand.deal.seed}: thrown in (nobody took the hand)")
        session.next_deal()
    return lines


# --------------------------------------------------------------------------- from a view


def unseen(ruleset: Ruleset, view: View) -> Counter:
    """Cards ``view``'s seat has not seen, per rank.

    Seen are its own cards, every card played, and shown cards with a known holder that the
    holder has not played: the kitty once the landlord takes it (where ``deal.kitty_shown``),
    the marked card (held by the first bidder) and the turned card (dealt first, to the
    dealer's left). A shown card of a rank its holder has played since may be the one played,
    so only the shown cards beyond the holder's plays of that rank are still known to be held.
    A wild card is a card of its own rank here, whatever it stood for in a play.
    """
    n = len(view.hand_sizes)
    played = [[0] * cards.NUM_RANKS for _ in range(n)]
    for seat, play in view.plays:
        if play is not None:
            for rank, count in enumerate(cards.unpack(play.key)):
                played[seat][rank] += count
    shown: dict[int, list[int]] = {}

    def show(seat: int, key: int) -> None:
        held = shown.setdefault(seat, [0] * cards.NUM_RANKS)
        for rank, count in enumerate(cards.unpack(key)):
            held[rank] += count

    if view.kitty is not None and view.landlord is not None:
        show(view.landlord, view.kitty)
    if view.marked_card is not None:
        show(view.marked_card[0], 1 << (cards.FIELD_BITS * view.marked_card[1]))
    if view.turned_card is not None:
        show((view.dealer + 1) % n, 1 << (cards.FIELD_BITS * view.turned_card))
    mine = cards.unpack(view.hand)
    counts = []
    for rank in range(cards.NUM_RANKS):
        if not ruleset.copies[rank]:
            continue
        known = mine[rank] + sum(p[rank] for p in played)
        known += sum(max(0, held[rank] - played[s][rank]) for s, held in shown.items()
                     if s != view.seat)
        counts.append((cards.RANKS[rank], ruleset.copies[rank] - known))
    total = sum(c for _, c in counts)
    kitty = ruleset.kitty if view.landlord is None else 0
    return Counter(tuple(counts), total, view.undealt, kitty, total - view.undealt - kitty)


def tricks(view: View) -> tuple[list[TrickEntry], list[TrickEntry]]:
    """The current trick and the one before it, each as every seat's last action in it
    (a trick ends when all the others pass a play)."""
    n = len(view.hand_sizes)
    current: list[tuple[int, Play | None]] = []
    previous: list[tuple[int, Play | None]] = []
    passes = 0
    for seat, play in view.plays:
        current.append((seat, play))
        if play is None:
            passes += 1
            if passes == n - 1:
                previous, current, passes = current, [], 0
        else:
            passes = 0

    def last(entries: list[tuple[int, Play | None]]) -> list[TrickEntry]:
        by_seat: dict[int, Play | None] = {}
        for seat, play in entries:
            by_seat.pop(seat, None)
            by_seat[seat] = play
        return [TrickEntry(s, p) for s, p in by_seat.items()]

    return last(current), last(previous)


# --------------------------------------------------------------------------- files


def saved_seats(path: Path, seat: int | None, bots: str | None, hint_level: str | None,
                what: str) -> tuple[int, str, str]:
    """Who plays which seat in the game saved in ``path`` (its side file, ``NAME.play.json``):
    the person's seat, the bots' level and the hint level. A ``seat`` or ``bots`` given must
    agree with the side file, and both are needed where it is missing; ``what`` is ``hand``
    or ``match``, for the messages."""
    side = _read_sidecar(path)
    for name, given in (("seat", seat), ("bots", bots)):
        if side is None:
            if given is None:
                raise UsageError(f"{sidecar_path(path)} is missing, so who plays which "
                                 "seat is not known: give ", Named("seat"), " and ",
                                 Named("bots"))
        elif given is not None and given != side[name]:
            raise UsageError(Named(name), f" {given}: {path} was saved with ", Named(name),
                             f" {side[name]}; a resumed {what} keeps its seats")
    chosen_seat = side["seat"] if side else seat
    chosen_bots = side["bots"] if side else bots
    assert isinstance(chosen_seat, int) and isinstance(chosen_bots, str)
    return chosen_seat, chosen_bots, hint_level or (side["hint"] if side else "medium")


def first_save(path: Path, ruleset: Ruleset, seat: int, bots: str, hint_level: str,
               what: str, text_of: Callable[[str], str]) -> str:
    """A game's first save: its folder made, who plays which seat written beside it
    (``NAME.play.json``), then the save, ``text_of`` the name its records give the ruleset
    (:func:`_ruleset_name`), which is returned. ``what`` is ``hand`` or ``match``, for the
    messages. Where the save fails (a full disk), the side file written for it is removed
    again: a side file naming no save would refuse the next game saved under that name."""
    name, side_made = _start_save(path, ruleset, seat, bots, hint_level, what)
    try:
        write_save(path, text_of(name), True, what)
    except BaseException:
        if side_made:
            sidecar_path(path).unlink(missing_ok=True)
        raise
    return name


def _start_save(path: Path, ruleset: Ruleset, seat: int, bots: str, hint_level: str,
                what: str) -> tuple[str, bool]:
    """The folder of a first save made and its side file written: the ruleset's name in
    the records, and whether the side file is new (not one of the same bytes found there)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{path}: cannot create its folder: {exc.strerror or exc}") from None
    name = _ruleset_name(path.parent, ruleset, what)
    side = {"ddz_play": 1, "save": path.name, "seat": seat, "bots": bots, "hint": hint_level}
    made = write_new(sidecar_path(path), json.dumps(side) + "\n",
                     (f"it is not the side file of a new {what} saved as {path}; give ",
                      Named("save"), " another file"), f"the {what} was not saved")
    return name, made


def write_save(path: Path, text: str, first: bool, what: str) -> None:
    """Write a game's save: the first time as a new file (:func:`write_new`: a file there is
    never overwritten), then over the file this game made, or resumed from."""
    kept = f"the {what} was not saved" if first else f"the {what} goes on unsaved"
    if first:
        write_new(path, text, ("continue that game with 'ddz play ", Named("resume"),
                               f" {path}', or give ", Named("save"), " another file"), kept)
    else:
        write_whole(path, text, kept)


def _ruleset_name(folder: Path, ruleset: Ruleset, what: str = "hand") -> str:
    """How the saved record names its ruleset: :func:`~ddz_rules.records.ruleset_beside`,
    the rule every command that writes records follows (never a file overwritten)."""
    return ruleset_beside(folder, ruleset,
                          (f"save the {what} in another folder (", Named("save"), ")"))


def _read_sidecar(save: Path) -> dict[str, Any] | None:
    """Who plays which seat in the game saved in ``save``, from its side file; None where it
    has none. The side file is ``NAME.play.json`` (:func:`sidecar_path`), or for a game saved by
    an older version as ``NAME.json``, the old ``NAME.play.json`` if it names no save (a side
    file that names one belongs to the save ``NAME``, not to ``NAME.json``)."""
    path = sidecar_path(save)
    legacy = legacy_sidecar_path(save)
    if not (path.exists() or path.is_symlink()):
        if legacy is None or not legacy.exists():
            return None
        side = _sidecar_fields(legacy)
        return None if side.get("save") is not None else side
    return _sidecar_fields(path)


def _sidecar_fields(path: Path) -> dict[str, Any]:
    """The fields of a side file, checked: one line naming the file and field at fault."""
    def error(reason: str) -> UsageError:
        return UsageError(f"{path}: {reason}")

    raw = read_bounded(path, MAX_SIDECAR_BYTES, error)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise error(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("ddz_play") != 1:
        raise error("not a ddz play side file (it says who plays which seat)")
    seat, bots, hint = data.get("seat"), data.get("bots"), data.get("hint", "medium")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 16:
        raise error(f"field seat: {seat!r} is not a seat")
    for name, level in (("bots", bots), ("hint", hint)):
        if not isinstance(level, str) or level not in LEVELS:
            raise error(f"field {name}: {str(level)[:40]!r} is not a bot level "
                        f"({', '.join(LEVELS)})")
    named = data.get("save")
    if named is not None and not isinstance(named, str):
        raise error(f"field save: {str(named)[:40]!r} is not a file name")
    return {"seat": seat, "bots": bots, "hint": hint, "save": named}
