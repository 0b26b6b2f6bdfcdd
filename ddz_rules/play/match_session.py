"""A whole match as a person plays it, ``ddz play --match``: deal after deal, with running totals.

A :class:`MatchSession` plays one :class:`~ddz_rules.play.session.Session` per deal (the
person's seat, the bots, the aids and the typed actions are the session's) and adds each
finished deal to a :class:`~ddz_rules.match.MatchState`, which alone says what the ruleset's
``match`` rule points mean: who deals next (``match.rotation``, thrown-in deals included),
whether a thrown-in deal counts (``match.redeal``), when the match is over and who wins.
Deal ``d`` (0, 1, ...) is dealt from :func:`~ddz_rules.compare.matches.match_deal_seed` of the
match seed, as ``ddz match`` deals match 0 of a run with that seed, so a match is the same
wherever it is played or continued.

After every action the match is written whole as a match record
(``ddz_rules/schema/match-record.schema.json``): every deal so far as a hand record, the deal
in progress last, with the totals, leaders and tie of the deals finished so far. ``ddz replay``
checks it once the match is over (before then it says where it stops, as for a hand), and
:meth:`MatchSession.resume` continues it, mid-deal included. Who plays which seat is kept
beside it in ``NAME.play.json``, as for a hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ddz_rules.compare.matches import match_deal_seed
from ddz_rules.errors import Named, UsageError
from ddz_rules.game import Hand
from ddz_rules.match import (
    MAX_REDEALS,
    MatchHand,
    MatchState,
    first_dealer,
    hand_winners,
    led_alone,
    ranked_by,
)
from ddz_rules.play.session import (
    Session,
    already_saved,
    check_levels,
    check_players,
    check_resumed,
    check_save,
    first_save,
    open_session,
    saved_seats,
    write_save,
)
from ddz_rules.records import (
    SEED_RANGE,
    check_seed,
    is_match_record,
    is_seed,
    read_record,
    record_text,
    replay_deal,
    ruleset_of,
    to_record,
)
from ddz_rules.ruleset import Ruleset, load


def default_match_save(ruleset: Ruleset, seed: int) -> Path:
    """The save file of a new match: ``ddz-play-RULESET-match-seedS.json`` here."""
    return Path(f"ddz-play-{ruleset.id}-match-seed{seed}.json")


def rules_text(ruleset: Ruleset) -> str:
    """A ruleset's match rules in a phrase: ``10 hands, ties declared, the deal passes every
    deal``."""
    rules = ruleset.match
    length = {"hands": f"{rules.hands} hands",
              "target": f"first to {rules.target}, at most {rules.hands} hands",
              "best_of": f"best of {rules.hands} hands"}[rules.length]
    return (f"{length}, ties {rules.ties.replace('_', ' ')}, the deal passes "
            f"{rules.rotation.replace('_', ' ')}")


def signed(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"{v:+5d}" for v in values)


@dataclass(frozen=True)
class Standing:
    """Where a match stands: the totals, the hands each seat's side won, the seats holding
    the top (by ``match.ranked_by``), whether more than one does, and whether it is over."""

    totals: tuple[int, ...]
    hands_won: tuple[int, ...]
    leaders: tuple[int, ...]
    tie: bool
    over: bool
    counted: int
    led_alone_from: int | None


class MatchSession:
    """A match in which ``seat`` is played by a person (or, with ``autoplay``, by the hint
    level) and every other seat by a bot of level ``bots``; ``seed`` is the match seed and
    ``index`` the match's index in a run (its first dealer is ``index`` modulo the seats, as
    in ``ddz match``)."""

    def __init__(self, ruleset: Ruleset, seat: int, bots: str = "standard",
                 hint_level: str = "medium", seed: int = 0, index: int = 0,
                 save: Path | None = None, autoplay: bool = False) -> None:
        check_players(ruleset, seat)
        check_levels(bots, hint_level)
        self.ruleset = ruleset
        self.seat = seat
        self.bots = bots
        self.hint_level = hint_level
        self.seed = seed
        self.index = index
        self.save_path = save
        self._autoplay = autoplay
        self.state = MatchState(ruleset, first_dealer=first_dealer(ruleset, index))
        #: The hand records of the deals played out, in order.
        self.finished: list[dict[str, Any]] = []
        self._ruleset_name: str | None = None
        self.session = self._session_for(Hand.new(ruleset, self._deal_seed(), self.state.dealer))

    # ------------------------------------------------------------ making and resuming

    @classmethod
    def new(cls, ruleset: Ruleset, seat: int = 0, bots: str = "standard", seed: int = 0,
            hint_level: str = "medium", save: Path | None = None,
            autoplay: bool = False, ready: Callable[[], None] | None = None) -> MatchSession:
        """A new match, its first deal dealt; with ``save``, written at once (a new match
        never overwrites a file). ``ready`` is called once every input is checked, before
        the first write."""
        check_players(ruleset, seat)
        if save is not None and (save.exists() or save.is_symlink()):
            raise already_saved(save, "game")
        match = cls(ruleset, seat, bots, hint_level, seed, save=save, autoplay=autoplay)
        if ready is not None:
            ready()
        match.save()
        return match

    @classmethod
    def resume(cls, path: Path, seat: int | None = None, bots: str | None = None,
               hint_level: str | None = None, autoplay: bool = False) -> MatchSession:
        """The match saved in ``path``, rebuilt by replaying every deal, continued where it
        stopped (mid-deal included), with the seats as they were (``NAME.play.json``)."""
        where = str(path)
        record = read_record(where)
        if not is_match_record(record):
            raise UsageError(f"{where} is a hand record, not a match; leave out ",
                             Named("match"), " to continue the hand")
        chosen_seat, chosen_bots, hint = saved_seats(path, seat, bots, hint_level, "match")
        seed = record.get("seed")
        if not is_seed(seed):
            raise UsageError(f"{where}: field seed: {str(seed)[:40]}; ddz play continues a "
                             f"match with its match seed, {SEED_RANGE}")
        ruleset = ruleset_of(record, where)
        hands = record["hands"]
        match = cls(ruleset, chosen_seat, chosen_bots, hint, seed, record.get("index", 0), path,
                    autoplay)
        match._ruleset_name = record["ruleset"]
        for number, hand_record in enumerate(hands):
            at = f"{where}: hand {number}"
            if match.state.over:
                raise UsageError(f"{at}: the match was already over; this hand is one too "
                                 "many, so the saved match cannot be continued")
            if hand_record.get("ruleset") != record["ruleset"]:
                raise UsageError(f"{at}: field ruleset: {str(hand_record.get('ruleset'))[:40]!r}"
                                 f", but the match is played under {record['ruleset']!r}")
            done = replay_deal(hand_record, where, number)
            if not done.valid and (done.action is not None or number < len(hands) - 1):
                action = f", action {done.index} ({done.action!r})" if done.action else ""
                raise UsageError(f"{at}{action}: {done.reason}; the saved match cannot be "
                                 "continued")
            if done.hand.deal.dealer != match.state.dealer:
                raise UsageError(f"{at}: dealt by seat {done.hand.deal.dealer}, but "
                                 f"match.rotation ({ruleset.match.rotation}) has seat "
                                 f"{match.state.dealer} deal it")
            match.session = match._session_for(done.hand)
            if done.valid:
                match._add_finished()
        standing = match.standing()  # what the deals finished so far give, as saved
        for name, actual in (("totals", list(standing.totals)),
                             ("winners", list(standing.leaders)), ("tie", standing.tie)):
            if record[name] != actual:
                raise UsageError(f"{where}: field {name}: the record says "
                                 f"{str(record[name])[:60]}, but its hands give {actual}; "
                                 "the saved match cannot be continued")
        return match

    def _deal_seed(self) -> int:
        """The seed of the next deal: deal ``d`` of the match is ``match_deal_seed``'s."""
        return match_deal_seed(self.seed, self.index, len(self.state.hands))

    def _session_for(self, hand: Hand) -> Session:
        session = Session(hand, self.seat, self.bots, self.hint_level, autoplay=self._autoplay)
        session.on_change = self._changed
        return session

    def next_hand(self) -> None:
        """After a deal is over (played out or thrown in): deal the next one, by the seat
        ``match.rotation`` names, and save."""
        if not self.session.over:
            raise UsageError("the deal is still being played")
        if self.over:
            raise UsageError("the match is over")
        self.session = self._session_for(Hand.new(self.ruleset, self._deal_seed(),
                                                  self.state.dealer))
        self.save()

    # ------------------------------------------------------------ state

    @property
    def autoplay(self) -> bool:
        return self._autoplay

    @autoplay.setter
    def autoplay(self, value: bool) -> None:
        self._autoplay = value
        self.session.autoplay = value

    @property
    def over(self) -> bool:
        """Whether the match is over (the deal just played was its last)."""
        return self.state.over

    @property
    def hand_over(self) -> bool:
        """Whether the current deal is over: played out, or thrown in."""
        return self.session.over

    @property
    def deals(self) -> int:
        """Deals dealt so far, the current one included."""
        return len(self.finished) + (0 if self.session.over else 1)

    def standing(self) -> Standing:
        """The totals and the leaders after the deals finished so far (the winners and the
        tie once the match is over, as ``ddz replay`` of its record says them)."""
        state = self.state
        if state.over:
            o = state.outcome()
            return Standing(o.totals, o.hands_won, o.winners, o.tie, True, o.counted,
                            o.led_alone_from)
        leaders = state.leaders()
        return Standing(state.totals, state.hands_won, leaders, len(leaders) > 1, False,
                        state.counted, None)

    def label(self, seat: int) -> str:
        """``seat 0 (you)``, ``seat 1 (standard)``; with autoplay, ``seat 0 (medium)``."""
        who = self.bots if seat != self.seat else self.hint_level if self._autoplay else "you"
        return f"seat {seat} ({who})"

    # ------------------------------------------------------------ lines

    def header(self) -> str:
        """The match in a line: its rules, who plays, its seed."""
        who = (f"seat {self.seat} played by {self.hint_level} (autoplay)" if self._autoplay
               else f"you play seat {self.seat}")
        return (f"{self.ruleset.id}: a match ({rules_text(self.ruleset)}); {who}, the other "
                f"seats by {self.bots}; seed {self.seed}")

    def table(self) -> list[str]:
        """Every finished deal as ``ddz match`` prints it: the dealer, the hand's number
        among those counted, the scores and the running totals."""
        n = self.ruleset.players
        lines = [f"{'deal':>4} {'dealer':>6}  {'hand':<10} {'scores':<{6 * n}} totals"]
        running = [0] * n
        counted = 0
        for number, hand in enumerate(self.state.hands, start=1):
            running = [t + s for t, s in zip(running, hand.scores, strict=True)]
            counted += hand.counted
            what = (f"{counted:>2}" if hand.counted else "--") + (
                " thrown in" if hand.redeal else "")
            lines.append(f"{number:>4} {hand.dealer:>6}  {what:<10} {signed(hand.scores)}"
                         f"  {signed(running)}")
        return lines

    def deal_line(self, number: int) -> str:
        """One finished deal (``number`` from 0) in words, with the totals after it."""
        hand: MatchHand = self.state.hands[number]
        counted = sum(h.counted for h in self.state.hands[:number + 1])
        totals = [sum(h.scores[s] for h in self.state.hands[:number + 1])
                  for s in range(self.ruleset.players)]
        what = (f"hand {counted}" if hand.counted else "not counted") + (
            ", thrown in" if hand.redeal else "")
        return (f"deal {number + 1} (dealer seat {hand.dealer}), {what}: scores "
                f"{list(hand.scores)}; totals {totals}")

    def totals_line(self) -> str:
        """The running totals of every seat (and, in a best-of match, the hands won)."""
        s = self.standing()
        you = "" if self._autoplay else " (you)"
        seats = ", ".join(f"seat {seat}{you if seat == self.seat else ''} {total:+d}"
                          for seat, total in enumerate(s.totals))
        line = f"totals after {s.counted} hand{'s' if s.counted != 1 else ''}: {seats}"
        if ranked_by(self.ruleset) == "hands_won":
            line += f"; hands won {list(s.hands_won)}"
        return line

    def progress_line(self) -> str:
        """Where the match is: the deal in play and the hand it would be, or what comes
        next."""
        state, rules = self.state, self.ruleset.match
        if state.over:
            return "the match is over"
        if self.session.over:
            return (f"deal {len(self.finished)} is over; deal {len(self.finished) + 1} is "
                    f"dealt by seat {state.dealer}")
        hand = state.counted + 1
        of = {"hands": f"hand {hand} of {rules.hands}",
              "target": f"hand {hand} (first to {rules.target}, at most {rules.hands})",
              "best_of": f"hand {hand} (best of {rules.hands})"}[rules.length]
        if state.regular_over:
            of = f"hand {hand}, played on: the top is level"
        return f"deal {self.deals}, {of}, dealt by seat {self.session.hand.deal.dealer}"

    def result_line(self) -> str:
        """The final standing, as ``ddz replay`` of the match record gives it (or, before
        the end, who leads)."""
        s = self.standing()
        names = " and ".join(self.label(seat) for seat in s.leaders)
        if not s.over:
            lead = f"level at the top: {names}" if s.tie else f"{names} leads"
            return f"after {s.counted} hands counted: {lead}; totals {list(s.totals)}"
        verdict = f"a tie between {names}" if s.tie else f"{names} wins"
        since = led_alone(s.led_alone_from, s.counted)
        won = (f"; hands won {list(s.hands_won)}"
               if ranked_by(self.ruleset) == "hands_won" else "")
        return f"result: {verdict}{since}; totals {list(s.totals)}{won}"

    # ------------------------------------------------------------ saving

    def _changed(self) -> None:
        """After every action: a deal just over is added to the match; then the match is
        saved."""
        if self.session.over and len(self.state.hands) == len(self.finished):
            self._add_finished()
        self.save()

    def _add_finished(self) -> None:
        hand = self.session.hand
        result = hand.result
        assert result is not None
        self.state.add(result.scores, hand_winners(result), result.redeal)
        self.finished.append(self._hand_record(hand))

    def _hand_record(self, hand: Hand) -> dict[str, Any]:
        record = to_record(hand)
        if self._ruleset_name is not None:
            record["ruleset"] = self._ruleset_name
        return record

    def record(self) -> dict[str, Any]:
        """The match record so far: every finished deal, then the deal in progress."""
        hands = list(self.finished)
        if not self.session.over:
            hands.append(self._hand_record(self.session.hand))
        s = self.standing()
        seats = [self.bots] * self.ruleset.players
        seats[self.seat] = self.hint_level if self._autoplay else "person"
        return {"ruleset": self._ruleset_name or self.ruleset.id, "seed": self.seed,
                "index": self.index, "seats": seats, "hands": hands,
                "totals": list(s.totals), "winners": list(s.leaders), "tie": s.tie}

    def save(self) -> None:
        """Write the match record whole (and, the first time, who plays which seat)."""
        path = self.save_path
        if path is None:
            return
        if self._ruleset_name is None:
            finished = self.finished

            def text_of(name: str) -> str:
                self._ruleset_name = name
                self.finished = [{**r, "ruleset": name} for r in finished]
                return record_text(self.record(), path)

            try:
                first_save(path, self.ruleset, self.seat, self.bots, self.hint_level,
                           "match", text_of)
            except BaseException:
                self._ruleset_name, self.finished = None, finished
                raise
            return
        write_save(path, record_text(self.record(), path), False, "match")

    def to_json(self) -> dict[str, Any]:
        """The match as ``ddz play --match --json`` prints it (the fields of ``ddz match``)."""
        s = self.standing()
        return {"ruleset": self.ruleset.id, "seed": self.seed, "seat": self.seat,
                "bots": self.bots, "hint": self.hint_level, "autoplay": self._autoplay,
                "match": True, "over": s.over,
                "hands": [{"dealer": h.dealer, "scores": list(h.scores),
                           "winners": list(h.winners), "redeal": h.redeal,
                           "counted": h.counted} for h in self.state.hands],
                "totals": list(s.totals), "hands_won": list(s.hands_won),
                "winners": list(s.leaders), "tie": s.tie, "counted": s.counted,
                "led_alone_from": s.led_alone_from,
                "record": str(self.save_path) if self.save_path else None}


def autoplay_match(match: MatchSession) -> None:
    """Play the match to its end with bots in every seat (the hint level in the person's),
    from wherever it stands."""
    match.autoplay = True
    thrown_in = 0
    while True:
        match.session.run_bots()
        if match.over:
            return
        last = match.state.hands[-1]
        thrown_in = thrown_in + 1 if last.redeal and not last.counted else 0
        if thrown_in > MAX_REDEALS:
            raise UsageError(f"{match.ruleset.id}: {MAX_REDEALS} deals in a row were thrown "
                             "in; the bots never take the hand")
        match.next_hand()


def open_game(ruleset: str, seat: int | None = None, bots: str | None = None,
              seed: int | None = None, hint_level: str | None = None, save: str | None = None,
              no_save: bool = False, resume: str | None = None, autoplay: bool = False,
              match: bool = False, ready: Callable[[], None] | None = None
              ) -> Session | MatchSession:
    """The game ``ddz play`` asks for: one hand (:func:`~ddz_rules.play.session.open_session`)
    or, with ``match``, a whole match of the ruleset; ``resume`` continues the hand or match
    saved in a file, whichever it holds. Every option and file is checked before anything
    is written, each refusal one line; ``ready`` is called once they all are, before the
    first write (``ddz play`` asks for its terminal there: a bad input is reported first)."""
    if resume is not None:
        if is_match_record(read_record(resume)):
            check_levels(bots, hint_level)
            check_resumed(seed, save, no_save, "match")
            resumed = MatchSession.resume(Path(resume), seat, bots, hint_level, autoplay)
            if ready is not None:
                ready()
            return resumed
        if match:
            raise UsageError(f"{resume} holds one hand, not a match; leave out ",
                             Named("match"), " to continue it")
    if not match:
        return open_session(ruleset, seat, bots, seed, hint_level, save, no_save, resume,
                            autoplay, ready)
    check_levels(bots, hint_level)
    loaded = load(ruleset)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    check_seed(seed)
    check_save(save, no_save)
    path = (None if no_save else Path(save) if save is not None
            else default_match_save(loaded, seed))
    return MatchSession.new(loaded, seat or 0, bots or "standard", seed,
                            hint_level=hint_level or "medium", save=path, autoplay=autoplay,
                            ready=ready)
