"""``ddz play --serve``: the browser card table (:mod:`ddz_rules.play.web`) served by uvicorn.

``ddz play --serve`` makes a new table for the ruleset (the person's seat, bots in the others),
prints each human seat's link and the lobby's, and serves every table saved in the games
folder (``--games DIR``; by default :func:`default_games_dir`), each resumed where it stopped.
Starlette and uvicorn are the optional extra ``play``.
"""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ddz_rules.errors import Named, UsageError

if TYPE_CHECKING:
    from ddz_rules.play.web.server import Tables

#: Where the game is served unless ``--host`` and ``--port`` say otherwise: loopback only.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Seconds between two moves of the bots at a browser table, unless ``--pace`` says, and the
#: most it may say.
DEFAULT_PACE, MAX_PACE = 0.7, 10.0
#: Minutes a finished table may stand unchanged before it is ended, unless ``--expire``
#: says (a day), and the most it may say (a year).
DEFAULT_EXPIRE, MAX_EXPIRE = 1440.0, 525_600.0
#: The environment variable naming the games folder where ``--games`` is not given.
GAMES_ENV = "DDZ_GAMES_DIR"
#: The largest websocket message uvicorn takes: a page's message is at most 4 KB, and the
#: server refuses anything over that on the page, the socket kept open, up to this bound; past
#: it uvicorn closes the socket (1009), so that no client makes the server read without end.
WS_MAX_SIZE = 1 << 20


def require_web() -> None:
    """Refuse at once, in one line, when Starlette or uvicorn is not installed."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError("ddz play ", Named("serve"), " needs starlette and uvicorn: pip "
                         "install 'ddz-rules[play]' (or play in the terminal: leave out ",
                         Named("serve"), ")") from None


def default_games_dir() -> Path:
    """``$DDZ_GAMES_DIR``, else ``ddz-rules/games`` in the user's data folder
    (``$XDG_DATA_HOME``, by default ``~/.local/share``)."""
    named = os.environ.get(GAMES_ENV)
    if named:
        return Path(named)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "ddz-rules" / "games"


def check_pace(pace: float) -> None:
    """``--pace``: seconds between the bots' moves, 0 (at once) to :data:`MAX_PACE`."""
    if not 0 <= pace <= MAX_PACE:
        raise UsageError(Named("pace"), f" must be between 0 and {MAX_PACE:g} seconds, got "
                         f"{pace:g}")


def check_expire(minutes: float) -> float:
    """``--expire``: minutes a finished table may stand unchanged, more than 0 and at most
    :data:`MAX_EXPIRE`; in seconds."""
    if not 0 < minutes <= MAX_EXPIRE:
        raise UsageError(Named("expire"), f" must be more than 0 and at most {MAX_EXPIRE:g} "
                         f"minutes, got {minutes:g}")
    return minutes * 60


def relink(games: Path, which: str) -> tuple[str, int, str]:
    """``--relink ID:SEAT``: a new token for a person's seat of a saved table (the old one
    stops working); the game's id, the seat, and the token."""
    from ddz_rules.play.web.game import ID_PATTERN, WebGame, small_number

    game_id, _, seat_text = which.rpartition(":")
    seat = small_number(seat_text, 2)
    if not ID_PATTERN.match(game_id) or seat is None:
        raise UsageError(Named("relink"), f" {which[:60]!r}: expected a game's id and a seat, "
                         "such as AbC123xyz:0")
    folder = games / game_id
    if not folder.is_dir():
        raise UsageError(Named("relink"), f" {game_id}: no such game in {games}")
    game = WebGame.load(folder)
    if game.ended is not None:
        raise UsageError(Named("relink"), f" {game_id}: the table has ended ({game.ended})")
    return game_id, seat, game.relink(seat)


def check_port(port: int) -> None:
    """``--port``: a TCP port to listen on, 1 to 65535."""
    if not 1 <= port <= 65535:
        raise UsageError(Named("port"), f" must be between 1 and 65535, got {port}")


def check_address(host: str, port: int) -> None:
    """Refuse, before anything is written, a host that does not resolve or an address that
    cannot be listened on (a port in use, or one reserved to the system)."""
    if not host.strip():
        raise UsageError(Named("host"), " is empty; give a name or address to listen on, such as "
                         "127.0.0.1 or 0.0.0.0")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError) as exc:
        raise UsageError(Named("host"), f" {host[:60]!r}: not a name or address to listen on "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise UsageError(Named("port"), f" {port}: cannot listen on {host}:{port}: "
                             f"{exc.strerror or exc}") from None


def listen_address(host: str | None, port: int | None) -> tuple[str, int, str]:
    """Where a server listens (:data:`DEFAULT_HOST` and :data:`DEFAULT_PORT` unless said),
    checked that it can (:func:`check_port`, :func:`check_address`), and its URL."""
    host = DEFAULT_HOST if host is None else host
    port = DEFAULT_PORT if port is None else port
    check_port(port)
    check_address(host, port)
    return host, port, url_of(host, port)


def url_of(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def serve(games_dir: Path | None, host: str, port: int, announce: Callable[[Tables], None],
          pace: float = DEFAULT_PACE, replay_files: list[Path] | None = None,
          expire_after: float = DEFAULT_EXPIRE * 60) -> None:
    """Serve the tables of ``games_dir`` (None: tables are not saved) on ``host:port`` until
    Ctrl+C or SIGTERM, the bots moving ``pace`` seconds apart, and ``replay_files`` for replay;
    a finished table unchanged for ``expire_after`` seconds is ended; ``announce`` is given
    the server's tables once it starts."""
    import uvicorn

    from ddz_rules.play.web.server import create_app

    app = create_app(games_dir, announce=announce, pace=pace, replay_files=replay_files,
                     expire_after=expire_after)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_max_size=WS_MAX_SIZE, lifespan="on")
    # uvicorn stops on Ctrl+C or SIGTERM and then raises the signal again under the handlers
    # it found: these turn it into a clean return, so a stopped server exits 0.
    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        uvicorn.Server(config).run()
    except KeyboardInterrupt:
        pass
    except OSError as exc:  # the address was taken between the check and the start
        raise UsageError(Named("port"), f" {port}: cannot listen on {host}:{port}: "
                         f"{exc.strerror or exc}") from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def tables_lines(tables: Tables, url: str, new_id: str) -> list[str]:
    """What a starting server says of the games it found in its folder: each table resumed
    with its watch link, each damaged game with why (its files are left untouched), and how
    many tables have ended."""
    resumed = [game_id for game_id in sorted(tables.tables) if game_id != new_id]
    lines = [f"resumed: {url}/game/{game_id} (people at seats "
             f"{', '.join(map(str, tables.tables[game_id].game.people)) or 'none'})"
             for game_id in resumed]
    lines += [f"not resumed: {game_id}: {why}" for game_id, why in sorted(tables.damaged.items())]
    if tables.ended:
        lines.append(f"ended: {len(tables.ended)} table{'s' if len(tables.ended) != 1 else ''}"
                     " (their finished hands are in the lobby's replays)")
    return lines


def replay_lines(url: str, files: list[Path]) -> list[str]:
    """What a server replaying records says at start: each record's page."""
    return [f"replay of {path.name}: {url}/replay/file-{i}" for i, path in enumerate(files)] + [
        f"lobby: {url}/ (other replays, and new tables); Ctrl+C stops the server"]
