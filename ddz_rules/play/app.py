"""The ``ddz play`` screen: a Textual app drawn over a :class:`~ddz_rules.play.session.Session`.

Textual is the optional extra ``play`` and is imported only when an app is made
(:func:`make_app`), so the rest of ddz-rules, and this module, import without it;
:func:`require_textual` turns its absence into one line naming the install command.

The screen shows the person's cards and everything their seat may know (every seat's role:
landlord, partner once one has joined him, peasant; where the landlord calls a partner, his
call and who has joined him), the aids (each switched with a function key, F1 to F6: the
hint, the unseen-card counter, the advantage line, every seat's card count, the auction, and
each seat's last play in the trick), the log of moves, and a prompt. What is typed there is
played through the session: a refused action prints its one-line reason and the game goes on,
and a card set with several readings (``marked-card``, or a play holding wild cards under
``laizi``) opens a list to name one. Where there are wild cards, the status says the wild
ranks as the seat knows them, and a card of a wild rank is marked (``5*``) in the hand, the
kitty, the trick and the unseen-card counter. Where there is no landlord (``run-fast``) the
status says every player plays for himself, who holds the lead card, a player down to one card
and the bombs paid at once, and what the play rules ask of the person's turn. Bots move
one at a time, their choices made off the event loop. In a match
(:class:`~ddz_rules.play.match_session.MatchSession`) the screen also shows the running
totals of every seat and where the match is, each finished deal is logged with the totals
after it, and ``next`` (or enter on an empty prompt) deals the next deal once one is over.
The same app runs in a browser with ``ddz play --serve`` (:mod:`ddz_rules.play.serve`), and
headless under Textual's test pilot (``App.run_test()``), which is how the tests play whole
hands and matches and how :func:`save_screenshot` draws the README's picture.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddz_rules.errors import Named, UsageError
from ddz_rules.play.match_session import MatchSession
from ddz_rules.play.session import (
    AIDS,
    Session,
)

if TYPE_CHECKING:
    pass

#: Seconds between two bot moves on screen (none in tests).
BOT_DELAY = 0.6


def require_textual() -> None:
    """Refuse at once, in one line, when Textual is not installed."""
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UsageError("ddz play needs Textual: pip install 'ddz-rules[play]' (or play the "
                         "hand out with bots: ddz play ", Named("autoplay"), ")") from None


def require_terminal() -> None:
    """Refuse, in one line, to start the app with no terminal to draw on (``textual serve``
    runs it with a web driver instead, and is let through)."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("ddz play is interactive and needs a terminal; ", Named("autoplay"),
                         " plays the hand out with bots and prints the result")


def run_app(game: Session | MatchSession, aids: tuple[str, ...] = AIDS) -> None:
    """Play in the terminal until the person leaves (the hand or match is saved after every
    action)."""
    make_app(game, aids).run()


def served() -> bool:
    """Whether the app runs under a web driver (served to a browser, with no terminal: its
    standard output carries the screen)."""
    return "web_driver" in os.environ.get("TEXTUAL_DRIVER", "")


#: The README's picture: a classic hand dealt with this seed, this many of the person's moves
#: (each the hint), then this play typed, which does not beat the play before it.
PICTURE_SEED, PICTURE_MOVES, PICTURE_TYPED = 5, 4, "4"
#: The picture's size, in terminal cells.
PICTURE_SIZE = (110, 36)
#: The theme the picture is drawn in (Textual's default, whatever ``TEXTUAL_THEME`` says).
PICTURE_THEME = "textual-dark"
#: Environment variables with which Textual draws otherwise (no colour, another theme,
#: dimmed or filtered colours): a picture is drawn as if none were set.
DRAWING_ENV = ("NO_COLOR", "TEXTUAL_THEME", "TEXTUAL_FILTERS", "TEXTUAL_DIM_FACTOR")


def save_screenshot(session: Session, path: Path, size: tuple[int, int] = (110, 40),
                    moves: int = 0, typed: str = "") -> Path:
    """Draw the app headless (Textual's pilot) after ``moves`` of the person's moves, each
    the hint, with ``typed`` entered last, and write the screen as SVG to ``path``.

    The drawing depends only on the arguments: the bots and the hint are seeded by the deal,
    the pilot waits for every bot and hint before the next key, and what Textual would take
    from the environment (:data:`DRAWING_ENV`) is fixed. ``TEXTUAL_FILTERS`` and
    ``TEXTUAL_DIM_FACTOR`` are read when Textual is imported, so a process that imported it
    with them set is refused (``python -m ddz_rules.play.app`` unsets them first)."""
    import textual.constants

    if textual.constants.FILTERS or textual.constants.DIM_FACTOR != 0.66:
        raise UsageError("a picture is drawn with Textual's own colours: unset "
                         "TEXTUAL_FILTERS and TEXTUAL_DIM_FACTOR before Textual is imported")

    async def draw() -> None:
        saved = {name: os.environ.pop(name) for name in DRAWING_ENV if name in os.environ}
        try:
            app = make_app(session, bot_delay=0.0)  # Textual reads NO_COLOR here
        finally:
            os.environ.update(saved)
        app.theme = PICTURE_THEME
        async with app.run_test(size=size) as pilot:
            await app.settled(pilot)
            for _ in range(moves):
                if session.over:
                    break
                await pilot.press(*session.hint().text, "enter")
                await app.settled(pilot)
            if typed:
                await pilot.press(*typed, "enter")
                await app.settled(pilot)
            app.save_screenshot(path.name, str(path.parent))

    asyncio.run(draw())
    return path


def main(argv: list[str] | None = None) -> int:
    """``python -m ddz_rules.play.app FILE.svg``: draw the README's picture of the app."""
    from ddz_rules.ruleset import load

    for name in DRAWING_ENV:  # before Textual is imported, which reads some of them
        os.environ.pop(name, None)
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m ddz_rules.play.app FILE.svg", file=sys.stderr)
        return 2
    session = Session.new(load("classic"), seat=0, bots="standard", seed=PICTURE_SEED)
    save_screenshot(session, Path(args[0]), size=PICTURE_SIZE, moves=PICTURE_MOVES,
                    typed=PICTURE_TYPED)
    return 0


def make_app(game: Session | MatchSession, aids: tuple[str, ...] = AIDS,
             bot_delay: float = BOT_DELAY) -> Any:
    """The Textual app for a hand or a match (a ``textual.app.App``)."""
    require_textual()
    from ddz_rules.play.screen import PlayApp  # Textual is imported only here

    return PlayApp(game, aids, bot_delay)


if __name__ == "__main__":
    sys.exit(main())
