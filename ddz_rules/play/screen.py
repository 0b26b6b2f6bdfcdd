"""The ``ddz play`` screen itself: the Textual app, :class:`PlayApp`, over a
:class:`~ddz_rules.play.session.Session` or a
:class:`~ddz_rules.play.match_session.MatchSession`.

This module imports Textual at once: it is imported only by
:func:`ddz_rules.play.app.make_app`, once Textual is known to be installed (the ``play``
extra). :mod:`ddz_rules.play.app` says what the screen shows and how it is played.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, OptionList, RichLog, Static

from ddz_rules import cards
from ddz_rules.errors import DdzError
from ddz_rules.game import PASS, Phase
from ddz_rules.play.match_session import MatchSession
from ddz_rules.play.session import (
    AIDS,
    WILD_MARK,
    Outcome,
    Session,
    card_label,
    seat_label,
    stand_ins,
    tricks,
)

#: The function keys that switch the aids, in the order of :data:`AIDS`.
AID_KEYS = dict(zip(AIDS, ("f1", "f2", "f3", "f4", "f5", "f6"), strict=True))
HELP = ("cards (33, 334455, 10JQKA; B, R the jokers), pass, or a bid; ? a hint; quit "
        "(the hand is saved)")
#: The help where the landlord calls a rank for a partner (``teams.partner: called_rank``).
HELP_CALL = ("cards (33, 334455, 10JQKA; B, R the jokers), pass, a bid, or as landlord call "
             "RANK or alone; ? a hint; quit (the hand is saved)")
#: What a match adds to the help.
HELP_MATCH = "; next (or enter) deals the next deal"
#: What wild cards add to the help.
HELP_WILD = "; where wild cards read several ways, name one: 3335@soft_bomb"
#: How a card of a wild rank looks.
WILD_STYLE = "bold black on gold1"


def help_text(session: Session, match: bool = False) -> str:
    """What may be typed at the prompt under the session's ruleset (in a match, too)."""
    ruleset = session.ruleset
    if not ruleset.has_landlord:
        jokers = "; B, R the jokers" if ruleset.copies[cards.SMALL_JOKER] else ""
        text = (f"cards (33, 334455, 10JQKA{jokers}), pass"
                + (" (only when you cannot beat)" if ruleset.must_beat else "")
                + "; ? a hint; quit (the hand is saved)")
    else:
        text = HELP_CALL if ruleset.partner_rule == "called_rank" else HELP
    if session.ruleset.wild_drawn:
        text += HELP_WILD
    if match:
        text = text.replace("(the hand is saved)", "(the match is saved)") + HELP_MATCH
    return text


def cards_text(key: int, style: str = "bold black on grey93",
               wild: tuple[int, ...] = ()) -> Text:
    """Cards as a player reads them, low to high: ``10`` for T, jokers in colour, a card of
    a wild rank (``wild``) marked and in gold: ``5*``."""
    from rich.text import Text

    out = Text()
    for rank in cards.ranks_of(key):
        char = cards.RANKS[rank]
        label = "10" if char == "T" else char
        look = {"B": "bold black on grey70", "R": "bold red on grey93"}.get(char, style)
        if rank in wild:
            label, look = label + WILD_MARK, WILD_STYLE
        out.append(f"{label:^3}", style=look)
        out.append(" ")
    return out


class PlayApp(App[None]):
    """One hand of ``ddz play``."""

    TITLE = "ddz play"
    CSS = """
    #top { height: 1fr; }
    #table { width: 3fr; }
    #aids { width: 2fr; padding: 0 1; }
    #status, #seats, #kitty { height: auto; padding: 0 1; }
    #totals { height: auto; padding: 0 1; color: $accent; display: none; }
    #log { height: 1fr; border: round $panel; }
    #aids Static { height: auto; margin-bottom: 1; }
    #hand { height: auto; padding: 0 1; }
    #message { height: auto; padding: 0 1; }
    #result { height: auto; padding: 0 1; border: heavy $success; display: none; }
    #readings { height: auto; max-height: 8; display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"switch('{aid}')", aid, priority=True)
          for aid, key in AID_KEYS.items()),
        Binding("ctrl+q", "quit", "quit (saved)", priority=True),
    ]

    def __init__(self, game: Session | MatchSession, aids: tuple[str, ...],
                 bot_delay: float) -> None:
        super().__init__()
        self.match = game if isinstance(game, MatchSession) else None
        self.hand_session = game if isinstance(game, Session) else None
        self.aids = set(aids)
        self.bot_delay = bot_delay
        self.busy = False
        self.hint_line = ""
        self.choices: tuple[Any, ...] = ()
        #: Finished deals of the match already logged.
        self.logged = 0
        self.set_sub_title()

    @property
    def session(self) -> Session:
        """The hand being played (in a match, the current deal)."""
        if self.match is not None:
            return self.match.session
        assert self.hand_session is not None
        return self.hand_session

    def set_sub_title(self) -> None:
        s = self.session
        if self.match is not None:
            self.sub_title = (f"{s.ruleset.id}, a match, seed {self.match.seed}: you are "
                              f"seat {s.seat}, bots {s.bots}")
        else:
            self.sub_title = (f"{s.ruleset.id}, seed {s.hand.deal.seed}: you are seat "
                              f"{s.seat}, bots {s.bots}")

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with Vertical(id="table"):
                yield Static(id="status")
                yield Static(id="totals")
                yield Static(id="seats")
                yield Static(id="kitty")
                yield RichLog(id="log", wrap=True, markup=False, min_width=20)
            with Vertical(id="aids"):
                yield Static(id="aid-hint")
                yield Static(id="aid-counter")
                yield Static(id="aid-advantage")
                yield Static(id="aid-auction")
        yield Static(id="result")
        yield Static(id="hand")
        yield Static(id="message")
        yield OptionList(id="readings")
        yield Input(placeholder=help_text(self.session, self.match is not None),
                    id="prompt", max_length=200)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#prompt", Input).focus()
        self.log_line(f"{self.session.ruleset.id}: {self.session.ruleset.title}")
        if self.match is not None:
            self.log_line(self.match.header())
            self.log_deals()  # a resumed match: the deals played so far
        for line in self.session.history():  # a resumed hand: what happened so far
            self.log_line(line)
        self.refresh_all()
        self.start_bots()

    # ---------------------------------------------------------------- drawing

    def log_line(self, line: str) -> None:
        self.query_one("#log", RichLog).write(line)

    def log_deals(self) -> None:
        """Log each deal of the match finished since the last call, with the totals."""
        match = self.match
        if match is None:
            return
        for number in range(self.logged, len(match.state.hands)):
            self.log_line(match.deal_line(number))
        self.logged = len(match.state.hands)

    def say(self, message: str, ok: bool = True) -> None:
        style = "green" if ok else "bold red"
        self.query_one("#message", Static).update(Text(message, style=style))

    def refresh_all(self) -> None:
        s = self.session
        view = s.view
        phase = view.phase
        if s.over and self.match is not None:
            status = ("the match is over" if self.match.over else "the deal is over: "
                      "type next (or press enter) for the next deal")
        elif s.over:
            status = "the hand is over"
        elif view.to_act == s.seat:
            if phase is Phase.AUCTION:
                status = "your bid: say " + ", ".join(str(a) for a in view.legal)
            elif phase is Phase.CALL:
                status = ("your call: call RANK (or just RANK) or alone; the first other "
                          "player to play the rank you call joins you")
            else:
                status = s.play_status()
        else:
            doing = {Phase.AUCTION: "bid", Phase.CALL: "call a partner"}.get(phase, "play")
            status = f"{s.label(view.to_act or 0)} to {doing}"
        landlord = ("none yet" if view.landlord is None
                    else seat_label(view.landlord, s.seat))
        partner = s.partner_line()
        wild = s.wild_line()
        sides = (f"landlord: {landlord} · multiplier x{view.multiplier}"
                 if s.ruleset.has_landlord else "every player for himself")
        notes = [(line + "\n", "bold") for line in s.duty_lines()]
        self.query_one("#status", Static).update(Text.assemble(
            "phase: ", (phase.value, "bold"), f" · {sides} · dealer: seat {view.dealer}\n",
            *(((wild, "bold"), "\n") if wild else ()),
            *((partner + "\n",) if partner else ()), *notes, status))
        self.query_one("#seats", Static).update(self.seats_text())
        totals = self.query_one("#totals", Static)
        totals.display = self.match is not None
        if self.match is not None:
            totals.update(Text(f"{self.match.progress_line()}\n"
                               f"{self.match.totals_line()}"))
        kitty = ("kitty: none" if not s.ruleset.has_landlord else
                 "kitty: " + ("face down" if view.kitty is None else ""))
        kitty_text = Text(kitty)
        if view.kitty is not None:
            kitty_text.append_text(cards_text(view.kitty, wild=view.wild))
        extra = []
        if view.marked_card is not None:
            extra.append(f"marked card {card_label(view.marked_card[1])}: seat "
                         f"{view.marked_card[0]} holds it")
        if view.turned_card is not None:
            extra.append(f"turned card {card_label(view.turned_card)}")
        if view.undealt:
            extra.append(f"{view.undealt} cards never dealt"
                         + ("" if s.ruleset.has_landlord else ", set aside face down"))
        if extra:
            kitty_text.append("   " + "; ".join(extra))
        self.query_one("#kitty", Static).update(kitty_text)
        hand = Text(f"your cards ({cards.size(view.hand)}): ", style="bold")
        hand.append_text(cards_text(view.hand, wild=view.wild))
        held = cards.unpack(view.hand)
        jokers = held[cards.SMALL_JOKER:]
        legend = [f"{c} {card_label(cards.RANK_INDEX[c])}"
                  for c, n in zip("BR", jokers, strict=True) if n]
        if any(held[r] for r in view.wild):
            legend.append(f"{WILD_MARK} wild")
        if legend:
            hand.append(" (" + ", ".join(legend) + ")", style="dim")
        self.query_one("#hand", Static).update(hand)
        self.draw_aids()
        result = self.query_one("#result", Static)
        if s.over and self.match is not None:
            result.update("\n".join(self.match_result_lines()))
            result.display = True
        elif s.over:
            lines = s.result_lines()
            path = s.save_path
            if path is not None:
                lines.append(f"record: {path} (ddz replay {path} checks it)")
            redeal = s.hand.result is not None and s.hand.result.redeal
            lines.append("type new for the next deal, or quit" if redeal else "type quit "
                         "to leave")
            result.update("\n".join(lines))
            result.display = True
        else:
            result.display = False

    def match_result_lines(self) -> list[str]:
        """A finished deal of a match: its result, the totals, and what comes next."""
        match = self.match
        assert match is not None
        lines = [*self.session.result_lines(), match.totals_line()]
        path = match.save_path
        if match.over:
            lines.append(match.result_line())
            if path is not None:
                lines.append(f"record: {path} (ddz replay {path} checks it)")
            lines.append("the match is over: type quit to leave")
        else:
            lines.append(f"{match.progress_line()}: type next (or press enter), or quit"
                         + (" (the match is saved)" if path is not None else ""))
        return lines

    def seats_text(self) -> Text:
        s, view = self.session, self.session.view
        current, previous = tricks(view)
        trick = current or previous
        last = {e.seat: e.play for e in trick}
        out = Text()
        for seat in range(len(view.hand_sizes)):
            role = s.seat_note(seat)
            mark = "▶ " if seat == view.to_act else "  "
            out.append(f"{mark}{seat_label(seat, s.seat):<14} {role:<9}",
                       style="bold" if seat == view.to_act else "")
            if "counts" in self.aids:
                out.append(f"{view.hand_sizes[seat]:>2} cards  ")
            if "trick" in self.aids and seat in last:
                play = last[seat]
                out.append("passed" if play is None else "played ")
                if play is not None:
                    out.append_text(cards_text(play.key, wild=view.wild))
                if not current:
                    out.append(" (last trick)", style="dim")
            out.append("\n")
        return out

    def draw_aids(self) -> None:
        s = self.session
        hint = self.query_one("#aid-hint", Static)
        hint.display = "hint" in self.aids
        hint.update(self.hint_line or "hint: shown on your turn (or type ?)")
        counter = self.query_one("#aid-counter", Static)
        counter.display = "counter" in self.aids
        if counter.display:
            c = s.counter()
            wild = {cards.RANKS[r] for r in s.view.wild}
            ranks = "  ".join(f"{'10' if r == 'T' else r}{WILD_MARK if r in wild else ''}:{n}"
                              for r, n in c.ranks)
            counter.update(f"[b]unseen cards[/b] ({c.total}: {c.in_hands} in other hands"
                           + (f", {c.kitty} in the kitty" if c.kitty else "")
                           + (f", {c.undealt} never dealt" if c.undealt else "")
                           + f")\n{ranks}")
        advantage = self.query_one("#aid-advantage", Static)
        line = s.advantage()
        advantage.display = "advantage" in self.aids and line is not None
        advantage.update(line or "")
        auction = self.query_one("#aid-auction", Static)
        auction.display = "auction" in self.aids
        said = ", ".join(f"{seat_label(seat, s.seat)}: {word}"
                         for seat, word in s.auction_history())
        if not s.ruleset.has_landlord:
            said = "none: nobody bids, every player plays for himself"
        auction.update(f"[b]auction[/b]\n{said or 'nobody has spoken yet'}")

    # ---------------------------------------------------------------- acting

    def action_switch(self, aid: str) -> None:
        self.aids ^= {aid}
        self.refresh_all()
        self.say(f"{aid} {'on' if aid in self.aids else 'off'}")
        if aid == "hint" and aid in self.aids and self.session.your_turn:
            self.run_worker(self.show_hint(), group="hint")

    @on(Input.Submitted, "#prompt")
    async def submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        await self.command(event.value.strip())

    async def command(self, typed: str) -> None:
        s = self.session
        word = typed.lower()
        if word in ("quit", "exit"):
            self.exit()
            return
        if word in ("?", "hint"):
            if s.your_turn:
                await self.show_hint()
            else:
                self.say("there is nothing to hint: it is not your turn", ok=False)
            return
        if word in ("help", "h"):
            self.say(help_text(s, self.match is not None) + "; F1-F6 switch the aids")
            return
        if self.match is not None and (word in ("next", "new") or (not word and s.over)):
            self.next_deal()
            return
        if word == "new":
            if s.over and s.hand.result is not None and s.hand.result.redeal:
                s.next_deal()
                self.log_line(f"dealt again: seed {s.hand.deal.seed}")
                for line in s.deal_lines():
                    self.log_line(line)
                self.sub_title = (f"{s.ruleset.id}, seed {s.hand.deal.seed}: you are seat "
                                  f"{s.seat}, bots {s.bots}")
                self.refresh_all()
                self.start_bots()
            else:
                self.say("new deals again only after a thrown-in deal", ok=False)
            return
        if self.busy:
            self.say(f"wait: seat {s.hand.to_act} is thinking", ok=False)
            return
        try:
            outcome = s.act(typed)
        except DdzError as exc:  # a save that failed: said, and the game goes on
            self.say(str(exc), ok=False)
            return
        self.after(outcome)

    def next_deal(self) -> None:
        """In a match: deal the next deal once the current one is over."""
        match = self.match
        assert match is not None
        if match.over:
            self.say("the match is over: type quit to leave", ok=False)
            return
        if not match.hand_over:
            self.say("the deal is still being played: next deals once it is over",
                     ok=False)
            return
        try:
            match.next_hand()
        except DdzError as exc:  # a save that failed: said, and the game goes on
            self.say(str(exc), ok=False)
            return
        hand = match.session.hand
        self.log_line(f"deal {match.deals}: dealt by seat {hand.deal.dealer}, seed "
                      f"{hand.deal.seed}")
        for line in match.session.deal_lines():
            self.log_line(line)
        self.hint_line = ""
        self.say(match.progress_line())
        self.refresh_all()
        self.start_bots()

    def after(self, outcome: Outcome) -> None:
        ok, message, choices = outcome.ok, outcome.message, outcome.choices
        options = self.query_one("#readings", OptionList)
        options.clear_options()
        options.display = bool(choices)
        self.choices = choices
        if choices:
            options.add_options([self.reading_option(p) for p in choices])
            options.highlighted = 0
            options.focus()
        self.say(message, ok)
        if ok:
            self.log_line(outcome.done)
            self.log_deals()
            self.hint_line = ""
            self.refresh_all()
            self.start_bots()

    def reading_option(self, play: Any) -> str:
        """A reading in the list to choose from: its notation, and where the play holds
        wild cards, what they stand for."""
        s = self.session
        wild = s.view.wild
        note = stand_ins(s.ruleset, play, wild)
        return s.hand.table.notation(play, wild) + (f"  ({note})" if note else "")

    @on(OptionList.OptionSelected, "#readings")
    def reading_chosen(self, event: OptionList.OptionSelected) -> None:
        play = self.choices[event.option_index]
        try:
            outcome = self.session.act(play)
        except DdzError as exc:  # a save that failed
            self.say(str(exc), ok=False)
            return
        self.query_one("#prompt", Input).focus()
        self.after(outcome)

    async def show_hint(self) -> None:
        s = self.session
        moves = len(s.hand.log)
        hint = await asyncio.to_thread(s.hint_later())
        if len(s.hand.log) != moves:  # the hand moved on meanwhile
            return
        what = ("pass" if hint.action == PASS and s.view.phase is Phase.PLAY
                else hint.text)
        told = what if hint.reading in (what, "pass") else f"{what} ({hint.reading})"
        self.hint_line = f"[b]hint[/b] ({hint.level}): {told}"
        self.draw_aids()
        if "hint" not in self.aids:
            self.say(f"hint ({hint.level}): {told}")

    def start_bots(self) -> None:
        self.run_worker(self.bots_move(), exclusive=True, group="bots")

    async def bots_move(self) -> None:
        s = self.session
        self.busy = True
        try:
            while s.bot_to_act:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                action = await asyncio.to_thread(s.bot_choice)
                line = s.apply_bot(action)
                self.log_line(line)
                self.log_deals()
                self.refresh_all()
        except DdzError as exc:  # a save that failed
            self.say(str(exc), ok=False)
        finally:
            self.busy = False
        if s.your_turn:
            self.say("your turn")
            if "hint" in self.aids:
                await self.show_hint()
        elif self.match is not None and s.over:
            self.say("the match is over" if self.match.over
                     else "the deal is over: type next (or press enter) for the next deal")
        elif s.over:
            self.say("the hand is over")
        self.refresh_all()

    async def settled(self, pilot: Any) -> None:
        """For tests: wait until the bots have moved and the screen is drawn."""
        await pilot.pause()
        await self.workers.wait_for_complete()
        await pilot.pause()
