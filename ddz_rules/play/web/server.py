"""The browser card table's server: a Starlette app over the tables of a games folder.

The server is the only authority: a page sends what its player does over a websocket, the
table (:class:`~ddz_rules.play.web.game.WebGame`) applies or refuses it, and every page open on
that table gets the new state of its own seat after every change, each bot action included.
Two tabs on one seat therefore never disagree. Routes and messages are those of the protocol
(``GET /``, ``GET /api/rulesets``, ``POST /api/games``, ``GET /game/ID``,
``GET /api/games/ID/state``, ``WS /ws/ID``, ``/static``).

Everything a page may send is bounded: a message is at most :data:`MAX_MESSAGE` bytes, at most
:data:`RATE` messages a second are taken from one socket (more are refused, not dropped), junk
is refused in one line, and only a forged token closes a socket. The number of tables and of
sockets per table are capped, and each table's log is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from anyio import to_thread
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ddz_rules.errors import DdzError
from ddz_rules.play.web.game import (
    ID_PATTERN,
    WebGame,
    ended_line,
    new_token,
    refused,
    resume_all,
    small_number,
)
from ddz_rules.play.web.replays import Replays
from ddz_rules.records import MAX_RECORD_BYTES
from ddz_rules.ruleset import bundled_ids, load_bundled

STATIC = Path(__file__).parent / "static"
#: The largest message a page may send, in bytes.
MAX_MESSAGE = 4096
#: Messages a second one socket may send; more are refused.
RATE = 20
#: Tables one server holds, and sockets open on one table, at most.
MAX_GAMES = 200
MAX_SOCKETS = 16
#: Close codes: a forged token, an unknown game, too many sockets on a table.
CLOSE_FORGED = 4403
CLOSE_UNKNOWN = 4404
CLOSE_FULL = 4429
#: How deep a page's JSON may nest (a real message nests two levels).
MAX_DEPTH = 16
#: Seconds a finished table may stand unchanged before it is ended (a day), unless told.
EXPIRE_AFTER = 24 * 3600.0
#: Seconds between two looks for expired tables, at most.
SWEEP_EVERY = 60.0
#: What a request that changes a table must declare its body to be.
JSON_TYPE = "application/json"


def parse_message(raw: str | bytes) -> Any:
    """A page's message or request body as JSON, or :class:`ValueError` in one line: not
    UTF-8, not JSON, or nested deeper than :data:`MAX_DEPTH` (counted before parsing, so no
    depth reaches Python's recursion limit).

    >>> parse_message('{"type": "hint"}')
    {'type': 'hint'}
    >>> parse_message("[" * 17 + "]" * 17)
    Traceback (most recent call last):
    ValueError: nested deeper than 16 levels
    """
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        elif char in "]}":
            depth -= 1
    return json.loads(text)


def cross_site(request: Request | WebSocket) -> str | None:
    """Why a request that would change or drive a table comes from a page of another site
    (its ``Origin`` is not this server's host), or None. A request with no ``Origin`` (a
    script, curl) is not a page's and passes."""
    origin = request.headers.get("origin")
    if origin is None:
        return None
    host = request.headers.get("host", "")
    if urlsplit(origin).netloc != host:
        return f"a page of {origin[:60]!r} may not drive a table of {host[:60]!r}"
    return None


def refuse_post(request: Request) -> tuple[int, str] | None:
    """Why a request that changes what the server holds is refused (its status and one
    line): sent by a page of another site, or with a body that is not declared JSON (a form
    that a browser posts without asking)."""
    foreign = cross_site(request)
    if foreign:
        return 403, foreign
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != JSON_TYPE:
        return 415, (f"this request takes a JSON body ({JSON_TYPE}), not "
                     f"{kind[:40] or 'no content type'}")
    return None


async def read_body(request: Request, limit: int) -> tuple[bytes, str | None]:
    """A request's body, read up to ``limit`` bytes, or why not (too big, cut off)."""
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                return b"", f"the request is over {limit} bytes"
    except ClientDisconnect:  # the client went away mid-body: nobody to answer
        return b"", "the request's body was cut off"
    return body, None


@dataclass(eq=False)
class Connection:
    """One open socket on a table: the seat it plays (None: watching) and its recent
    messages' times, for the rate limit."""

    socket: WebSocket
    seat: int | None
    times: deque[float] = field(default_factory=lambda: deque(maxlen=RATE))


@dataclass(eq=False)
class Table:
    """A game as the server holds it: the game, its open sockets, and its bots' task."""

    game: WebGame
    connections: set[Connection] = field(default_factory=set)
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: asyncio.Task[None] | None = None
    #: The turn timer waiting on a person, the game's version it waits at, and when (by
    #: the server's clock) it runs out.
    timer: asyncio.Task[None] | None = None
    timer_version: int = -1
    deadline: float | None = None


class Tables:
    """The tables the server holds in memory, by id: at most ``max_games``. Past that, the
    table unused longest that no page has open and no bot is moving is put away (it stays
    saved in its folder) to make room, and is loaded again when its link is next followed;
    so the cap bounds memory, never the games a folder may keep."""

    def __init__(self, games_dir: Path | None, max_games: int,
                 expire_after: float = EXPIRE_AFTER,
                 now: Callable[[], float] = time.time) -> None:
        self.games_dir = games_dir
        self.max_games = max_games
        #: Seconds a finished table may stay unchanged before it is ended; ``now`` tells the
        #: time (the files' clock).
        self.expire_after = expire_after
        self.now = now
        self.tables: dict[str, Table] = {}
        #: Saved games that could not be resumed, by id: why (named at start, and to anyone
        #: who follows their link; their folders are left as they are).
        self.damaged: dict[str, str] = {}
        #: Tables that have ended, by id: why (their links say so; their saves stay).
        self.ended: dict[str, str] = {}
        self._swept = float("-inf")
        #: When each table was last found or made (a counter: the order is all that counts).
        self.used: dict[str, int] = {}
        self._ticks = 0

    def expired(self, game: WebGame) -> bool:
        """Whether a finished table has stood unchanged longer than :attr:`expire_after`."""
        return game.finished and self.now() - _last_saved(game) > self.expire_after

    def end(self, game: WebGame, why: str) -> None:
        """End a table (saved so, dropped from memory, its link saying why)."""
        game.end(why)
        self.tables.pop(game.id, None)
        self.used.pop(game.id, None)
        self.ended[game.id] = why

    def admit(self, game: WebGame) -> Table | None:
        """Hold a loaded game, unless it has ended or expires now (then None)."""
        if game.ended is None and self.expired(game):
            game.end(f"expired: over and unchanged for {_duration(self.expire_after)}")
        if game.ended is not None:
            self.ended[game.id] = game.ended
            return None
        return self.add(game)

    def sweep(self) -> list[Table]:
        """End every table held that has expired; the tables ended (their pages are told).
        Looked at most once every :data:`SWEEP_EVERY` seconds (it reads each table's file
        time)."""
        now = self.now()
        if now - self._swept < min(SWEEP_EVERY, self.expire_after):
            return []
        self._swept = now
        gone = [table for table in self.tables.values()
                if (table.bots is None or table.bots.done()) and self.expired(table.game)]
        for table in gone:
            self.end(table.game, "expired: over and unchanged for "
                     f"{_duration(self.expire_after)}")
        return gone

    def add(self, game: WebGame) -> Table:
        table = Table(game)
        self.tables[game.id] = table
        self._touch(game.id)
        return table

    def _touch(self, game_id: str) -> None:
        self._ticks += 1
        self.used[game_id] = self._ticks

    def make_room(self) -> bool:
        """Whether one more table fits, putting away the idle table unused longest if none
        does (a saved one only: an unsaved table would be lost)."""
        if len(self.tables) < self.max_games:
            return True
        idle = [game_id for game_id, table in self.tables.items()
                if not table.connections and (table.bots is None or table.bots.done())
                and table.game.folder is not None]
        if not idle:
            return False
        oldest = min(idle, key=lambda game_id: self.used.get(game_id, 0))
        timer = self.tables[oldest].timer
        if timer is not None:  # put away: its timer must not act on a copy reloaded later
            timer.cancel()
        del self.tables[oldest]
        self.used.pop(oldest, None)
        return True

    def find(self, game_id: str) -> Table | None:
        """The table of ``game_id``: held, or loaded again from its folder where it was put
        away (None where there is none, or no room, or it is damaged: :attr:`damaged`)."""
        if not ID_PATTERN.match(game_id):
            return None
        table = self.tables.get(game_id)
        if (table is None and self.games_dir is not None and game_id not in self.damaged
                and game_id not in self.ended):
            folder = self.games_dir / game_id
            if folder.is_dir() and not folder.is_symlink() and self.make_room():
                try:
                    table = self.admit(WebGame.load(folder))
                except DdzError as exc:
                    self.damaged[game_id] = str(exc)
                    return None
        if table is not None:
            self._touch(game_id)
        return table


def _query_seat(request: Request | WebSocket) -> tuple[int | None, str | None, str | None]:
    """The seat and token of a request's query string, or a one-line fault."""
    seat_text = request.query_params.get("seat")
    token = request.query_params.get("token")
    if seat_text is None:
        return None, token, None if token is None else "a token needs its seat (seat=N)"
    seat = small_number(seat_text, 2)
    if seat is None:
        return None, token, f"seat {seat_text[:10]!r} is not a seat number"
    return seat, token, None


class TableServer:
    """The tables a server holds and its routes, each a method: the lobby, the API that
    makes a table and reads a seat's state, the table pages and their websockets, and the
    bots that move in the background."""

    def __init__(self, registry: Tables, max_sockets: int, clock: Callable[[], float],
                 announce: Callable[[Tables], None] | None, pace: float = 0.0,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 replays: Replays | None = None) -> None:
        self.registry = registry
        self.replays = replays or Replays(registry.games_dir)
        self.max_sockets = max_sockets
        self.clock = clock
        self.announce = announce
        #: Seconds between two moves the server makes for bots, so that a person sees each
        #: (0: at once); ``sleep`` waits them out.
        self.pace = pace
        self.sleep = sleep
        self.tasks: set[asyncio.Task[None]] = set()


    async def broadcast(self, table: Table) -> None:
        self.start_timer(table)
        async with table.send_lock:
            states: dict[int | None, dict[str, Any]] = {}
            for conn in list(table.connections):
                if conn.seat not in states:
                    states[conn.seat] = self.with_timer(
                        table, await to_thread.run_sync(table.game.state, conn.seat))
                try:
                    await conn.socket.send_json({"type": "state", "state": states[conn.seat]})
                except Exception:  # a socket gone away: forget it
                    table.connections.discard(conn)

    async def run_bots(self, table: Table) -> None:
        """The bots' moves, one at a time, each sent to every page before the next, with
        :attr:`pace` seconds before each."""
        while table.game.bot_to_act:
            if self.pace:
                await self.sleep(self.pace)
            if not await to_thread.run_sync(table.game.bot_step):
                break
            await self.broadcast(table)

    def start_bots(self, table: Table) -> None:
        if (table.bots is None or table.bots.done()) and table.game.bot_to_act:
            table.bots = self._spawn(self.run_bots(table))
        self.start_timer(table)

    @staticmethod
    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    @staticmethod
    async def page(name: str, fallback: str) -> Response:
        path = STATIC / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(f"<!doctype html><title>ddz play</title><p>{fallback}</p>")

    async def lobby(self, request: Request) -> Response:
        return await self.page("index.html", "the lobby page is missing")

    async def rulesets(self, request: Request) -> Response:
        listed = []
        for ruleset_id in bundled_ids():
            ruleset = load_bundled(ruleset_id)
            listed.append({"id": ruleset.id, "title": ruleset.title,
                           "players": ruleset.players})
        return JSONResponse(listed)

    async def post_body(self, request: Request, limit: int) -> tuple[bytes, Response | None]:
        """A state-changing request's body (at most ``limit`` bytes), or the response that
        refuses it in one line (from another site, not declared JSON, too big, cut off)."""
        refusal = refuse_post(request)
        if refusal:
            return b"", self.error(*refusal)
        body, fault = await read_body(request, limit)
        if fault:
            return b"", self.error(400, fault)
        return body, None

    async def json_body(self, request: Request, expected: str) -> tuple[Any, Response | None]:
        """A state-changing request's JSON body (at most :data:`MAX_MESSAGE` bytes), or the
        response refusing it in one line (from another site, not JSON, too big, too deep)."""
        body, refused_now = await self.post_body(request, MAX_MESSAGE)
        if refused_now is not None:
            return None, refused_now
        try:
            return parse_message(body), None
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            depth = str(exc) if "nested" in str(exc) else "not JSON"
            return None, self.error(400, f"{depth}: expected {expected}")

    async def new_game(self, request: Request) -> Response:
        data, refused_now = await self.json_body(
            request, '{"ruleset": ID, "seats": [...], "match": false}')
        if refused_now is not None:
            return refused_now
        if not isinstance(data, dict):
            return self.error(400, "expected a JSON object")
        extra = set(data) - {"ruleset", "seats", "match", "seed", "timer"}
        if extra:
            return self.error(400, f"unknown field {sorted(extra)[0][:40]!r}")
        ruleset_id, seats = data.get("ruleset"), data.get("seats")
        match, seed = data.get("match", False), data.get("seed")
        ids = bundled_ids()
        if not isinstance(ruleset_id, str) or ruleset_id not in ids:
            return self.error(400, f"ruleset: {str(ruleset_id)[:40]!r} is not a bundled ruleset "
                         f"({', '.join(ids)})")
        if not isinstance(seats, list):
            return self.error(400, 'seats: expected a list such as ["human", "medium"]')
        if not isinstance(match, bool):
            return self.error(400, "match: expected true or false")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            return self.error(400, "seed: expected an integer")
        timer = data.get("timer")
        self.expire()
        if not self.registry.make_room():
            return self.error(503, f"this server holds {self.registry.max_games} games in "
                              "play already, each open on a page or moving")
        ruleset = load_bundled(ruleset_id)
        owner = new_token()
        try:
            game, tokens = await to_thread.run_sync(
                lambda: WebGame.create(ruleset, seats, match, seed, self.registry.games_dir,
                                       timer=timer, owner=owner))
        except DdzError as exc:
            return self.error(400, str(exc))
        table = self.registry.add(game)
        self.start_bots(table)
        return JSONResponse({"id": game.id, "watch": f"/game/{game.id}",
                             "links": {str(s): seat_link(game.id, s, t)
                                       for s, t in tokens.items()},
                             "end": end_link(game.id, owner)}, status_code=201)

    async def end_page(self, request: Request) -> Response:
        return await self.game_page(request, "end.html", "the page that ends a table is "
                                    "missing")

    async def end_game(self, request: Request) -> Response:
        """The creator ends a table: ``{"owner": TOKEN}``, the token its making gave."""
        data, refused_now = await self.json_body(request, '{"owner": TOKEN}')
        if refused_now is not None:
            return refused_now
        game_id = request.path_params["id"]
        table = self.find(game_id)
        if table is None:
            return self.error(404, self.missing(game_id))
        if not isinstance(data, dict) or not table.game.check_owner(data.get("owner")):
            return self.error(403, "only the table's creator may end it (the token its "
                              "making gave)")
        await self.close_table(table, "ended by its creator")
        return JSONResponse({"ended": game_id})

    async def close_table(self, table: Table, why: str) -> None:
        """End a table and tell every page open on it, closing their sockets."""
        if table.timer is not None:
            table.timer.cancel()
        if table.bots is not None:
            table.bots.cancel()
        await to_thread.run_sync(lambda: self.registry.end(table.game, why))
        for conn in list(table.connections):
            await self._tell_ended(conn, why)
        table.connections.clear()

    def expire(self) -> None:
        """End the tables that have expired, telling their pages (in the background)."""
        for table in self.registry.sweep():
            for conn in list(table.connections):
                self._spawn(self._tell_ended(conn, table.game.ended or "expired"))
            table.connections.clear()

    async def _tell_ended(self, conn: Connection, why: str) -> None:
        with contextlib.suppress(Exception):  # a page gone away already: nobody to tell
            await conn.socket.send_json(refused(ended_line(why)).message)
            await conn.socket.close(CLOSE_UNKNOWN)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # ------------------------------------------------------------ the turn timer

    def start_timer(self, table: Table) -> None:
        """Where the table has a timer and waits for a person at a new version, start it:
        when it runs out, the table goes on without them (:meth:`WebGame.time_out`)."""
        game = table.game
        if not game.timer or table.timer_version == game.version:
            return
        if table.timer is not None:
            table.timer.cancel()
        table.timer, table.deadline, table.timer_version = None, None, game.version
        if game.awaits_person:
            table.deadline = self.clock() + game.timer
            table.timer = self._spawn(self._run_timer(table, game.version, game.timer))

    async def _run_timer(self, table: Table, version: int, seconds: int) -> None:
        await self.sleep(seconds)
        if table.timer is asyncio.current_task():  # run out: the next timer must not cancel
            table.timer = None                     # this task while it still broadcasts
        if await to_thread.run_sync(table.game.time_out, version):
            await self.broadcast(table)
            self.start_bots(table)

    def with_timer(self, table: Table, state: dict[str, Any]) -> dict[str, Any]:
        """A state with the seconds left on the turn timer (None: no timer is running)."""
        left = None
        if table.deadline is not None and table.timer_version == table.game.version:
            left = max(0, round(table.deadline - self.clock()))
        return {**state, "timer_left": left}

    def find(self, game_id: str) -> Table | None:
        self.expire()
        return self.registry.find(game_id)

    def missing(self, game_id: str) -> str:
        """Why a game id finds no table: it has ended, its saved game could not be resumed,
        or there is no such game."""
        if not ID_PATTERN.match(game_id):
            return "no such game"
        ended = self.registry.ended.get(game_id)
        if ended:
            return ended_line(ended)
        damaged = self.registry.damaged.get(game_id)
        return f"this game could not be resumed: {damaged}" if damaged else "no such game"

    async def table_page(self, request: Request) -> Response:
        return await self.game_page(request, "table.html", "the table page is missing")

    async def game_page(self, request: Request, name: str, fallback: str) -> Response:
        """A page of a table that is open, or one line saying why there is none."""
        game_id = request.path_params["id"]
        if self.find(game_id) is None:
            shown = html.escape(self.missing(game_id))
            return HTMLResponse(f"<!doctype html><title>ddz play</title><p>{shown}</p>",
                                status_code=404)
        return await self.page(name, fallback)

    async def state(self, request: Request) -> Response:
        table = self.find(request.path_params["id"])
        if table is None:
            return self.error(404, self.missing(request.path_params["id"]))
        seat, token, fault = _query_seat(request)
        if fault:
            return self.error(400, fault)
        if not table.game.check_token(seat, token):
            return self.error(403, "this link's token is not the seat's")
        return JSONResponse(self.with_timer(table, await to_thread.run_sync(table.game.state,
                                                                            seat)))

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        foreign = cross_site(websocket)
        if foreign:
            await websocket.send_json(refused(foreign).message)
            await websocket.close(CLOSE_FORGED)
            return
        table = self.find(websocket.path_params["id"])
        if table is None:
            await websocket.send_json(refused(self.missing(websocket.path_params["id"]))
                                      .message)
            await websocket.close(CLOSE_UNKNOWN)
            return
        seat, token, fault = _query_seat(websocket)
        if fault or not table.game.check_token(seat, token):
            await websocket.send_json(refused(fault or "this link's token is not the "
                                              "seat's: ask for the seat's link").message)
            await websocket.close(CLOSE_FORGED)
            return
        if len(table.connections) >= self.max_sockets:
            await websocket.send_json(refused(f"this game has {self.max_sockets} pages open "
                                              "already").message)
            await websocket.close(CLOSE_FULL)
            return
        conn = Connection(websocket, seat)
        table.connections.add(conn)
        try:
            async with table.send_lock:
                await websocket.send_json({"type": "state", "state": self.with_timer(
                    table, await to_thread.run_sync(table.game.state, seat))})
            self.start_bots(table)
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = await self.take(table, conn, message)
                if reply is not None and reply.message is not None:
                    await websocket.send_json(reply.message)
                if reply is not None and reply.forged:
                    await websocket.close(CLOSE_FORGED)
                    break
                if reply is not None and reply.changed:
                    await self.broadcast(table)
                    self.start_bots(table)
        except WebSocketDisconnect:
            pass
        finally:
            table.connections.discard(conn)

    async def take(self, table: Table, conn: Connection,
                   message: MutableMapping[str, Any]) -> Any:
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
        if size > MAX_MESSAGE:
            return refused(f"a message is at most {MAX_MESSAGE} bytes; this one is {size}")
        now = self.clock()
        if len(conn.times) == RATE and now - conn.times[0] < 1.0:
            return refused(f"more than {RATE} messages a second: slow down")
        conn.times.append(now)
        try:
            data = parse_message(raw)
        except ValueError as exc:
            depth = str(exc) if "nested" in str(exc) else "not JSON"
            return refused(f'{depth}: expected {{"type": "act" | "hint" | "next", ...}}')
        return await to_thread.run_sync(table.game.act, conn.seat,
                                        conn.socket.query_params.get("token"), data)

    # ------------------------------------------------------------ replays

    async def _replay_work(self, work: Callable[[], Any]) -> Any:
        """``work`` on the replays, in a thread (frames take a moment), one at a time."""
        def locked() -> Any:
            with self.replays.lock:
                return work()
        return await to_thread.run_sync(locked)

    async def replay_page(self, request: Request) -> Response:
        replay_id = request.path_params["id"]
        try:
            await self._replay_work(lambda: self.replays.find(replay_id))
        except DdzError as exc:
            return HTMLResponse("<!doctype html><title>ddz replay</title><p>"
                                f"{html.escape(str(exc))}</p>", status_code=404)
        return await self.page("table.html", "the table page is missing")

    async def replay_list(self, request: Request) -> Response:
        return JSONResponse(await self._replay_work(self.replays.listed))

    async def replay_summary(self, request: Request) -> Response:
        replay_id = request.path_params["id"]
        try:
            summary = await self._replay_work(lambda: self.replays.find(replay_id).summary())
        except DdzError as exc:
            return self.error(404, str(exc))
        return JSONResponse(summary)

    async def replay_hand(self, request: Request) -> Response:
        replay_id, text = request.path_params["id"], request.path_params["hand"]
        number = small_number(text, 6)
        if number is None:
            return self.error(400, f"hand {text[:10]!r} is not a hand number")
        try:
            frames = await self._replay_work(
                lambda: self.replays.find(replay_id).hand(number))
        except DdzError as exc:
            return self.error(404, str(exc))
        return JSONResponse(frames)

    async def send_replay(self, request: Request) -> Response:
        """A record file's text sent from the lobby, opened for replay."""
        body, refused_now = await self.post_body(request, MAX_RECORD_BYTES)
        if refused_now is not None:
            return refused_now
        try:
            replay_file = await self._replay_work(lambda: self.replays.add_sent(body))
        except DdzError as exc:
            return self.error(400, str(exc))
        return JSONResponse({"id": replay_file.id, "page": f"/replay/{replay_file.id}"},
                            status_code=201)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        if self.announce is not None:
            self.announce(self.registry)
        yield
        for task in list(self.tasks):
            task.cancel()

    def app(self) -> Starlette:
        """The Starlette app: the lobby, the API, the table pages and their websockets."""
        app = Starlette(routes=[
            Route("/", self.lobby),
            Route("/api/rulesets", self.rulesets),
            Route("/api/games", self.new_game, methods=["POST"]),
            Route("/api/games/{id}/state", self.state),
            Route("/game/{id}", self.table_page),
            Route("/game/{id}/end", self.end_page),
            Route("/api/games/{id}/end", self.end_game, methods=["POST"]),
            Route("/replay/{id}", self.replay_page),
            Route("/api/replays", self.replay_list),
            Route("/api/replays/new", self.send_replay, methods=["POST"]),
            Route("/api/replays/{id}", self.replay_summary),
            Route("/api/replays/{id}/hands/{hand}", self.replay_hand),
            WebSocketRoute("/ws/{id}", self.socket),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ], lifespan=self.lifespan)
        app.state.tables = self.registry
        return app


def seat_link(game_id: str, seat: int, token: str) -> str:
    """The page of a person's seat: its link, secret token included."""
    return f"/game/{game_id}?seat={seat}&token={token}"


def end_link(game_id: str, owner: str) -> str:
    """The page where a table's creator ends it."""
    return f"/game/{game_id}/end?owner={owner}"


def _duration(seconds: float) -> str:
    """Seconds as people say them: ``90 minutes``, ``2 hours``, ``1 day``.

    >>> _duration(5400), _duration(7200), _duration(86400), _duration(30)
    ('90 minutes', '2 hours', '1 day', '30 seconds')
    """
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    if seconds >= 60:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds:g} seconds"


def _last_saved(game: WebGame) -> float:
    try:
        return game.record_path().stat().st_mtime
    except OSError:
        return 0.0


def create_app(games_dir: Path | None, max_games: int = MAX_GAMES,
               max_sockets: int = MAX_SOCKETS, clock: Callable[[], float] = time.monotonic,
               announce: Callable[[Tables], None] | None = None,
               tables: Tables | None = None, pace: float = 0.0,
               sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
               replay_files: list[Path] | None = None,
               expire_after: float = EXPIRE_AFTER,
               now: Callable[[], float] = time.time) -> Starlette:
    """The app serving the tables saved under ``games_dir`` (resumed at once; None: tables
    are not saved). ``clock`` times the rate limit; ``announce`` is given the tables once it
    serves (those resumed, and the damaged ones with why); ``pace`` is the seconds before
    each bot's move (``sleep`` waits them out); ``replay_files`` are records offered for
    replay beside the games folder's finished saves; a finished table unchanged for
    ``expire_after`` seconds (by ``now``, the files' clock) is ended."""
    registry = tables or Tables(games_dir, max_games, expire_after, now)
    if tables is None and games_dir is not None:
        resumed, damaged = resume_all(games_dir)
        # the games played last are held; the others wait in their folders for their links
        held = 0
        for game in sorted(resumed.values(), key=_last_saved, reverse=True):
            if held < max_games:
                held += registry.admit(game) is not None
            elif game.ended is not None:
                registry.ended[game.id] = game.ended
        registry.damaged = damaged
    replays = Replays(games_dir, replay_files)
    return TableServer(registry, max_sockets, clock, announce, pace, sleep, replays).app()
