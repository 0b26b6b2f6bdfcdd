"""``ddz play --serve``: the same Textual app served to a browser, with textual-serve.

textual-serve (the optional extra ``play``) answers ``/`` with a page holding a terminal; each
page that opens runs ``ddz play`` in a process of its own under Textual's web driver and
carries its screen and keys over a websocket (``/ws``). The command each page runs is fixed
when the server starts (:func:`play_command`): a game that is saved is made (or checked) by
``ddz play --serve`` itself, and every page continues it with ``--resume``, so reloading a
page picks the game up where it stopped; a game that is not saved is dealt afresh on each page.
"""

from __future__ import annotations

import logging
import shlex
import socket
import sys
from typing import Any

from ddz_rules.errors import UsageError

#: Where the game is served unless ``--host`` and ``--port`` say otherwise.
DEFAULT_HOST = "localhost"
DEFAULT_PORT = 8000


def require_textual_serve() -> None:
    """Refuse at once, in one line, when textual-serve is not installed."""
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        raise UsageError("ddz play --serve needs textual-serve: pip install 'ddz-rules[play]' "
                         "(or play in the terminal: leave out --serve)") from None


def check_port(port: int) -> None:
    """``--port``: a TCP port to listen on, 1 to 65535."""
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be between 1 and 65535, got {port}")


def check_address(host: str, port: int) -> None:
    """Refuse, before anything is written, a host that does not resolve or an address that
    cannot be listened on (a port in use, or one reserved to the system)."""
    if not host.strip():
        raise UsageError("--host is empty; give a name or address to listen on, such as "
                         "localhost or 0.0.0.0")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"--host {host[:60]!r}: not a name or address to listen on "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise UsageError(f"--port {port}: cannot listen on {host}:{port}: "
                             f"{exc.strerror or exc}") from None


def play_command(argv: list[str]) -> str:
    """The shell command each page runs: this Python's ``ddz play`` with ``argv``."""
    return shlex.join([sys.executable, "-m", "ddz_rules.cli", "play", *argv])


def url_of(host: str, port: int) -> str:
    return f"http://{host}:{port}"


def serve(command: str, host: str, port: int, title: str, announce: str) -> None:
    """Serve ``command`` to browsers on ``host:port`` until Ctrl+C or SIGTERM; ``announce``
    is printed once the server starts."""
    from textual_serve.server import Server

    class PlayServer(Server):
        """textual-serve's server, announcing itself in one line and logging only its own
        warnings (on stderr), not configuring the root logger."""

        def initialize_logging(self) -> None:
            log = logging.getLogger("textual-serve")
            if not log.handlers:
                handler = logging.StreamHandler(sys.stderr)
                handler.setFormatter(logging.Formatter("ddz play --serve: %(message)s"))
                log.addHandler(handler)
            log.setLevel(logging.WARNING)

        async def on_startup(self, app: Any) -> None:
            print(announce, flush=True)

    try:
        PlayServer(command, host=host, port=port, title=title).serve()
    except OSError as exc:  # the address was taken between the check and the start
        raise UsageError(f"--port {port}: cannot listen on {host}:{port}: "
                         f"{exc.strerror or exc}") from None
