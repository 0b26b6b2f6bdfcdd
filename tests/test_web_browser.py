"""The browser card table in a real browser: Playwright drives the system Chromium against a
uvicorn server on a free local port, with a temporary games folder.

A person plays a whole two-player hand by clicking (the hint, card buttons found by their
names, Play, the words), sees the aids, reloads mid-hand, watches from a second tab, shares
a table with another person, sees every hand revealed at the end and deals the next hand;
no websocket message a page receives carries a card its seat may not see.

Without Chromium (a fresh machine with only pip cannot install one) these tests are skipped,
saying why; with ``DDZ_REQUIRE_BROWSER=1`` (as CI sets) they fail instead.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("DDZ_CHROMIUM", "/usr/bin/chromium"))
MATCH = Path(__file__).parent / "fixtures" / "web" / "match-classic.json"
NAMES = {"T": "10", "B": "small joker", "R": "big joker"}
#: How long (ms) a page may take to show what the server sent.
WAIT_MS = 20_000
#: The table has drawn its first state (the body may not exist yet while a page loads).
DEALT = "document.body !== null && Number(document.body.dataset.states || 0) > 0"


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install playwright)"
    try:
        import uvicorn  # noqa: F401
    except ImportError:
        return "uvicorn is not installed (pip install -e '.[play]')"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set DDZ_CHROMIUM)"
    return None


def _need_browser() -> None:
    reason = _missing()
    if reason is None:
        return
    if os.environ.get("DDZ_REQUIRE_BROWSER") == "1":
        pytest.fail(f"DDZ_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(f"{reason}; DDZ_REQUIRE_BROWSER=1 fails instead")


def card_name(ch: str) -> str:
    return NAMES.get(ch, ch)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    base: str
    games: Path

    def new_game(self, ruleset: str, seats: list[str], seed: int, match: bool = False,
                 **extra: Any) -> dict[str, Any]:
        body = json.dumps({"ruleset": ruleset, "seats": seats, "match": match,
                           "seed": seed, **extra}).encode()
        request = urllib.request.Request(self.base + "/api/games", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as reply:
            assert reply.status == 201
            data: dict[str, Any] = json.load(reply)
        return data

    def record(self, game: str, number: int = 0) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(
            (self.games / game / f"hand-{number}.json").read_text())
        return data


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    _need_browser()
    import uvicorn

    from ddz_rules.play.web.server import create_app
    from ddz_rules.ruleset import load_bundled
    from ddz_rules.simulate import simulate

    games = tmp_path_factory.mktemp("games")
    records = tmp_path_factory.mktemp("records")
    simulate(load_bundled("classic"), 1, 11, records)  # what `ddz simulate --records` writes
    files = [*sorted(records.glob("*.json")), MATCH]
    port = _free_port()
    config = uvicorn.Config(create_app(games, replay_files=files), host="127.0.0.1",
                            port=port, log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    while not uv.started:
        assert thread.is_alive(), "the server stopped before it started"
        time.sleep(0.05)
    yield Server(f"http://127.0.0.1:{port}", games)
    uv.should_exit = True
    thread.join()


@pytest.fixture(scope="module")
def browser(server: Server) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield chromium
        chromium.close()


@dataclass
class Table:
    """One page at the table, with every websocket message it received."""

    page: Any
    messages: list[dict[str, Any]] = field(default_factory=list)
    #: Whether the page is a phone's: its buttons are tapped, not clicked.
    touch: bool = False

    def press(self, button: Any) -> None:
        if self.touch:
            button.tap()
        else:
            button.click()

    def states(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.states || 0)"))

    def hand(self) -> list[str]:
        return list(self.page.locator("#hand button").evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))"))

    def log(self) -> list[str]:
        return list(self.page.locator("#log li").all_inner_texts())

    def refusal(self) -> str:
        return str(self.page.locator("#refusal").inner_text())


def open_table(browser: Any, server: Server, href: str, phone: bool = False) -> Table:
    page = (browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True,
                             is_mobile=True) if phone else browser.new_page())
    table = Table(page, touch=phone)

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: table.messages.append(json.loads(payload)))

    page.on("websocket", on_socket)
    page.goto(server.base + href)
    page.wait_for_function(DEALT, timeout=WAIT_MS)
    return table


def wait_turn_or_end(table: Table, after: int) -> None:
    """Wait for a state after the ``after``-th in which it is this seat's turn or the hand
    is over, failing at once on a refusal."""
    table.page.wait_for_function(
        """after => document.getElementById('refusal').textContent !== '' ||
           (Number(document.body.dataset.states || 0) > after &&
            (!document.getElementById('hint').disabled ||
             !document.getElementById('next').hidden))""",
        arg=after, timeout=WAIT_MS)
    assert table.refusal() == "", table.refusal()


def over(table: Table) -> bool:
    return bool(table.page.locator("#next").is_visible())


def take_hint(table: Table) -> tuple[str | None, list[str]]:
    """Ask for the hint; return the hinted word, or the names of the hinted cards."""
    page = table.page
    table.press(page.get_by_role("button", name="Hint", exact=True))
    page.wait_for_function("document.getElementById('hint-line').textContent !== ''",
                           timeout=WAIT_MS)
    word = page.locator("#words button.hinted")
    if word.count():
        return str(word.inner_text()), []
    pressed = page.locator('#hand button[aria-pressed="true"]').evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))")
    return None, list(pressed)


def wait_state(table: Table, after: int) -> None:
    """Wait for a state after the ``after``-th, failing at once on a refusal."""
    table.page.wait_for_function(
        """after => document.getElementById('refusal').textContent !== '' ||
           Number(document.body.dataset.states || 0) > after""", arg=after, timeout=WAIT_MS)
    assert table.refusal() == "", table.refusal()


def play_turn(table: Table, until_turn: bool = True) -> None:
    """Play the hinted move by clicking: the word's button, or Clear, each hinted card by its
    name, then Play; then wait for this seat's next turn (or the end), or with
    ``until_turn`` False for the state the move made."""
    page = table.page
    word, names = take_hint(table)
    before = table.states()
    if word is not None:
        table.press(page.get_by_role("button", name=word, exact=True))
    else:
        assert names, "the hint preselected no card"
        table.press(page.get_by_role("button", name="Clear", exact=True))
        assert page.locator('#hand button[aria-pressed="true"]').count() == 0
        for name in names:
            table.press(page.get_by_role("button", name=name, exact=True, pressed=False).first)
        assert sorted(page.locator('#hand button[aria-pressed="true"]').evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))")) == sorted(names)
        table.press(page.get_by_role("button", name="Play", exact=True))
    if until_turn:
        wait_turn_or_end(table, before)
    else:
        wait_state(table, before)


def play_out(table: Table, limit: int = 200) -> int:
    """Play this seat's hints until the hand is over; the number of turns played."""
    turns = 0
    while not over(table):
        assert turns < limit, "the hand did not end"
        play_turn(table)
        turns += 1
    return turns


# ------------------------------------------------------------------ what a seat may see

STATE_KEYS = {"game", "ruleset", "seat", "seats", "phase", "to_act", "your_turn", "hand",
              "words", "can_play", "trick", "kitty", "multiplier", "stake_line", "aids", "log",
              "result", "match", "can_next", "word_labels", "waiting_for", "wild",
              "last_trick", "details", "timer", "notices", "timer_left"}
SEAT_KEYS = {"seat", "who", "role", "cards_left", "last", "last_said", "to_act"}


def _within(part: str, whole: str) -> bool:
    return not Counter(part) - Counter(whole)


def check_seen(messages: list[dict[str, Any]], record: dict[str, Any], seat: int | None
               ) -> int:
    """Every message carries only what ``seat`` may see of the hand ``record`` saved: its own
    cards (with the kitty), cards played, and every hand only once it is over. Returns the
    number of states checked."""
    deal = record["deal"]
    own = deal["hands"][seat] + deal["kitty"] if seat is not None else ""
    everyone = "".join(deal["hands"]) + deal["kitty"]
    checked = 0
    for message in messages:
        if message["type"] == "hint":
            action = str(message["action"]).split("@")[0]
            assert action[:1].islower() or _within(action, own), message
            continue
        if message["type"] != "state":
            continue
        state = message["state"]
        if state["game"] != record.get("game", state["game"]):
            continue
        assert set(state) == STATE_KEYS, sorted(set(state) ^ STATE_KEYS)
        assert all(set(s) == SEAT_KEYS for s in state["seats"])
        assert state["seat"] == seat
        hand = "".join(state["hand"])
        assert _within(hand, own), (hand, own)
        if seat is None:
            assert hand == ""
        for entry in state["trick"] + state["last_trick"]:
            if entry["cards"] is not None:
                assert _within(entry["cards"], everyone)
        if state["phase"] != "settled":
            assert state["result"] is None, "a result before the hand is over"
        elif state["result"] is not None:
            assert set(state["result"]) == {"lines", "scores", "hands", "banner"}
        checked += 1
    return checked


def remaining(server: Server, game: str, seat: int, number: int = 0) -> str:
    """The cards ``seat`` holds at the end of the saved hand, by ``ddz replay``'s referee."""
    from ddz_rules import cards
    from ddz_rules.records import replay

    path = server.games / game / f"hand-{number}.json"
    done = replay(json.loads(path.read_text()), str(path))
    assert done.valid, done.reason
    return cards.key_text(done.hand.hands[seat])


# ------------------------------------------------------------------ the tests


def test_a_whole_two_player_hand_is_played_by_clicking_with_the_aids_and_the_next_hand_deals(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "medium"], seed=7)
    table = open_table(browser, server, game["links"]["0"])
    page = table.page
    assert len(table.hand()) == 17
    wait_turn_or_end(table, 0)
    seen_advantage = seen_unseen = False
    turns = 0
    while not over(table):
        assert turns < 200, "the hand did not end"
        if page.locator("#advantage-box").is_visible():
            seen_advantage = bool(page.locator("#advantage").inner_text().strip())
        counts = [int(c) for c in page.locator("#unseen-counts td").all_inner_texts()]
        if counts:
            seen_unseen = True
            assert len(counts) == len(page.locator("#unseen-ranks th").all())
        play_turn(table)
        turns += 1
    assert seen_advantage, "the advantage line never showed in the two-player game"
    assert seen_unseen, "the unseen-card counter never showed"

    record = server.record(game["id"])
    assert "result" in record
    # the end: a banner for this seat, every hand revealed, the scores in the lines
    assert page.locator("#result-box").is_visible()
    mine = record["result"]["scores"][0]
    assert page.locator("#scores").inner_text() == (
        f"You won {mine:+d}" if mine > 0 else f"You lost {mine:+d}")
    lines = page.locator("#result-lines li").all_inner_texts()
    assert sum(line.strip().startswith("scores") for line in lines) == 1
    for seat in (0, 1):
        shown = page.locator(f'.seat[data-seat="{seat}"] .revealed .card').evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))")
        assert shown == [card_name(ch) for ch in remaining(server, game["id"], seat)]
    assert check_seen(table.messages, record, 0) >= turns

    # the next hand, without a restart
    before = table.states()
    page.get_by_role("button", name="Next hand", exact=True).click()
    page.wait_for_function(
        "after => Number(document.body.dataset.states) > after && "
        "document.getElementById('next').hidden", arg=before, timeout=WAIT_MS)
    assert page.locator("#result-box").is_hidden()
    assert len(table.hand()) == 17
    second = server.record(game["id"], 1)
    assert "result" not in second
    assert sorted(table.hand()) == sorted(card_name(ch) for ch in second["deal"]["hands"][0])
    page.close()


def test_a_whole_two_player_hand_is_played_by_tapping_on_a_phone(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "standard"], seed=12)
    table = open_table(browser, server, game["links"]["0"], phone=True)
    wait_turn_or_end(table, 0)
    turns = play_out(table)
    assert turns > 0 and table.page.locator("#scores").inner_text().startswith("You ")
    assert table.page.evaluate("document.documentElement.scrollWidth") <= 390
    assert check_seen(table.messages, server.record(game["id"]), 0) >= turns
    table.page.close()


def test_a_reload_mid_hand_and_a_second_tab_show_the_same_table(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "standard"], seed=11)
    href = game["links"]["0"]
    table = open_table(browser, server, href)
    wait_turn_or_end(table, 0)
    for _ in range(3):
        if over(table):
            break
        play_turn(table)
    other = open_table(browser, server, href)
    assert other.hand() == table.hand()
    assert other.log() == table.log()

    def picture(t: Table) -> tuple[Any, ...]:
        p = t.page
        return (t.hand(), t.log(), p.locator("#seats").inner_text(),
                p.locator("#trick").inner_text(), p.locator("#unseen").inner_text(),
                p.locator("#stake").inner_text())

    shown = picture(table)
    table.page.reload()
    table.page.wait_for_function(DEALT,
                                 timeout=WAIT_MS)
    assert picture(table) == shown

    # a move in the first tab shows in the second
    if not over(table):
        wait_turn_or_end(table, 0)
        count = other.states()
        play_turn(table)
        other.page.wait_for_function(
            "after => Number(document.body.dataset.states) > after", arg=count,
            timeout=WAIT_MS)
        other.page.wait_for_function(
            "log => document.querySelectorAll('#log li').length === log.length && "
            "document.querySelector('#log li:last-child').textContent === log[log.length - 1]",
            arg=table.log(), timeout=WAIT_MS)
        assert other.hand() == table.hand()
    record = server.record(game["id"])
    assert check_seen(table.messages + other.messages, record, 0) > 0
    table.page.close()
    other.page.close()


def test_two_people_at_one_table_each_see_only_their_own_cards(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "human"], seed=3)
    first = open_table(browser, server, game["links"]["0"])
    second = open_table(browser, server, game["links"]["1"])
    watcher = open_table(browser, server, game["watch"])
    record = server.record(game["id"])
    hands = record["deal"]["hands"]
    for seat, table in ((0, first), (1, second)):
        mine = [card_name(ch) for ch in hands[seat]]
        assert table.hand() == mine
        theirs = {card_name(ch) for ch in hands[1 - seat]} - set(mine)
        for name in theirs:
            assert table.page.get_by_role("button", name=name, exact=True).count() == 0
        assert table.page.locator(f'.seat[data-seat="{1 - seat}"] .revealed').count() == 0
    assert watcher.hand() == []
    assert watcher.page.locator("#you").is_hidden()

    # the two play the hand out, turn by turn, each on its own page
    turns = 0
    while not over(first):
        assert turns < 300, "the hand did not end"
        to_act = first if first.page.locator("#hint").is_enabled() else second
        idle = second if to_act is first else first
        count = idle.states()
        play_turn(to_act, until_turn=False)
        idle.page.wait_for_function("after => Number(document.body.dataset.states) > after",
                                    arg=count, timeout=WAIT_MS)
        turns += 1
    second.page.wait_for_selector("#next:not([hidden])", timeout=WAIT_MS)
    record = server.record(game["id"])
    assert "result" in record
    for table in (first, second, watcher):
        table.page.wait_for_selector("#result-box:not([hidden])", timeout=WAIT_MS)
    assert check_seen(first.messages, record, 0) > 0
    assert check_seen(second.messages, record, 1) > 0
    assert check_seen(watcher.messages, record, None) > 0
    for table in (first, second, watcher):
        table.page.close()


def test_a_refused_play_shows_its_reason_on_the_page_and_changes_nothing(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "standard"], seed=5)
    table = open_table(browser, server, game["links"]["0"])
    wait_turn_or_end(table, 0)
    page = table.page
    hand = table.hand()
    log = table.log()
    page.get_by_label("or type").fill("33333")
    page.get_by_role("button", name="Send", exact=True).click()
    page.wait_for_function("document.getElementById('refusal').textContent !== ''",
                           timeout=WAIT_MS)
    assert page.get_by_role("alert").inner_text() == table.refusal()
    assert table.hand() == hand and table.log() == log
    page.close()


def test_the_lobby_makes_a_game_whose_links_open_the_table(
        server: Server, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.get_by_label("Ruleset", exact=True).select_option("two-player")
    page.get_by_label("Seat 1", exact=True).select_option("random")
    page.get_by_role("button", name="Deal", exact=True).click()
    page.get_by_role("link", name="Play seat 0").click()
    page.wait_for_function(DEALT, timeout=WAIT_MS)
    assert len(page.locator("#hand button").all()) == 17
    assert page.get_by_role("link", name="Play seat 1").count() == 0
    page.close()


def test_the_lobby_gives_its_creator_a_page_that_ends_the_table(
        server: Server, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.get_by_label("Ruleset", exact=True).select_option("two-player")
    page.get_by_role("button", name="Deal", exact=True).click()
    watch = page.get_by_role("link", name="Watch the game").get_attribute("href")
    page.get_by_role("link", name="End this table").click()
    page.get_by_role("button", name="End the table").click()
    page.wait_for_function("document.getElementById('end-result').textContent === "
                           "'The table has ended.'", timeout=WAIT_MS)
    page.goto(server.base + watch)
    assert "this table has ended: ended by its creator" in page.content()
    page.close()


def test_a_dropped_websocket_reconnects_and_the_game_goes_on(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "standard"], seed=13)
    table = open_table(browser, server, game["links"]["0"])
    wait_turn_or_end(table, 0)
    page = table.page
    hand = table.hand()
    count = table.states()
    page.evaluate("socket.close()")
    page.wait_for_function(
        "after => Number(document.body.dataset.states) > after && "
        "document.getElementById('connection').textContent === 'connected'",
        arg=count, timeout=WAIT_MS)
    assert table.hand() == hand
    log = table.log()
    play_turn(table)
    assert table.log() != log, "a move after the reconnection changed nothing"
    page.close()


def test_a_forged_link_opens_a_table_that_says_why_and_offers_nothing_to_press(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "standard"], seed=5)
    page = browser.new_page()
    page.goto(server.base + f"/game/{game['id']}?seat=0&token=forged")
    page.wait_for_function("document.getElementById('connection').textContent"
                           ".startsWith('not let in')", timeout=WAIT_MS)
    for name in ("Play", "Hint"):
        assert page.get_by_role("button", name=name, exact=True).is_disabled()
    assert page.get_by_label("or type").is_disabled()
    shown = page.locator("#refusal").inner_text()
    assert "token" in shown and "trying again" not in shown
    assert page.locator("#hand button").count() == 0
    page.close()


def test_a_laizi_table_shows_its_wild_ranks_and_marks_the_wild_cards_in_the_hand(
        server: Server, browser: Any) -> None:
    for seed in range(1, 30):
        game = server.new_game("laizi", ["human", "standard", "standard"], seed=seed)
        table = open_table(browser, server, game["links"]["0"])
        page = table.page
        wait_turn_or_end(table, 0)
        while True:  # take the hint until the play, when the wild rank has been drawn
            states = [m["state"] for m in table.messages if m.get("type") == "state"]
            if states[-1]["phase"] != "auction" or over(table):
                break
            play_turn(table)
        wild = states[-1]["wild"]
        held = [ch for ch in states[-1]["hand"] if ch in wild]
        if not wild or not held:
            page.close()
            continue
        names = [card_name(ch) for ch in wild]
        assert page.locator("#wild-line").inner_text() == "· wild: " + ", ".join(names)
        marked = page.locator("#hand button.wild").evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))")
        assert marked == [f"{card_name(ch)} (wild)" for ch in held]
        assert page.locator("#hand button").count() == len(states[-1]["hand"])
        page.close()
        return
    raise AssertionError("no laizi deal of 29 gave the person a wild card")


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_the_table_fits_the_screen_and_every_button_can_be_tapped(
        server: Server, browser: Any, width: int, height: int) -> None:
    game = server.new_game("classic", ["human", "standard", "standard"], seed=4)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(server.base + game["links"]["0"])
    page.wait_for_function(DEALT, timeout=WAIT_MS)
    page.wait_for_function("!document.getElementById('hint').disabled", timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    buttons = page.locator("#words button, #play, #hint, #hand button")
    assert buttons.count() >= 17 + 2
    for i in range(buttons.count()):
        button = buttons.nth(i)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        on_top = page.evaluate(
            """b => { const r = b.getBoundingClientRect();
                      const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                      return e === b || b.contains(e); }""", button.element_handle())
        assert on_top, button.inner_text()
    page.get_by_role("button", name="pass", exact=True).click()  # the auction goes on
    page.wait_for_function("[...document.querySelectorAll('#log li')].some("
                           "li => li.textContent.startsWith('seat 0 (you) says pass'))",
                           timeout=WAIT_MS)
    page.close()


def test_a_timed_table_counts_down_and_a_table_its_creator_ended_says_so(
        server: Server, browser: Any) -> None:
    game = server.new_game("two-player", ["human", "standard"], seed=3, timer=600)
    table = open_table(browser, server, game["links"]["0"])
    page = table.page
    page.wait_for_function("/^\\d+ s left (for your turn|for seat \\d)/.test("
                           "document.getElementById('timer-line').textContent)",
                           timeout=WAIT_MS)
    owner = game["end"].rsplit("owner=", 1)[1]
    request = urllib.request.Request(f"{server.base}/api/games/{game['id']}/end",
                                     data=json.dumps({"owner": owner}).encode(),
                                     headers={"Content-Type": "application/json"},
                                     method="POST")
    with urllib.request.urlopen(request) as reply:
        assert reply.status == 200
    page.wait_for_function("document.getElementById('connection').textContent === "
                           "'this table has ended: ended by its creator'", timeout=WAIT_MS)
    assert page.locator("#hint").is_disabled() and page.locator("#play").is_disabled()
    page.close()


# --------------------------------------------------------------------------- replays


def open_replay(browser: Any, server: Server, replay_id: str, **size: int) -> Any:
    page = browser.new_page(**({"viewport": size} if size else {}))
    page.goto(f"{server.base}/replay/{replay_id}")
    page.wait_for_function("document.body && document.body.dataset.step === '0'",
                           timeout=WAIT_MS)
    return page


def step_of(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.step)"))


def test_a_simulated_record_steps_forward_back_and_trick_by_trick_with_every_hand_shown(
        server: Server, browser: Any) -> None:
    with urllib.request.urlopen(server.base + "/api/replays/file-0/hands/0") as reply:
        data = json.load(reply)
    frames, marks = data["frames"], data["marks"]
    page = open_replay(browser, server, "file-0")
    assert page.locator("#you").is_hidden()
    for seat, held in enumerate(frames[0]["open"]):  # every seat's cards, face up
        shown = page.locator(f'.seat[data-seat="{seat}"] .revealed .card')
        assert shown.count() == len(held)
    page.get_by_role("button", name="step ▶").click()
    assert step_of(page) == 1
    assert page.locator("#log li").last.inner_text() == frames[1]["log"][-1]
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2
    page.keyboard.press("ArrowLeft")
    page.get_by_role("button", name="◀ step").click()
    assert step_of(page) == 0
    visited = [0]
    while step_of(page) < len(frames) - 1:
        page.get_by_role("button", name="trick ▶").click()
        visited.append(step_of(page))
    assert visited == marks
    assert page.locator("#result-box").is_visible()
    assert page.locator("#scores").inner_text() == frames[-1]["result"]["banner"]
    won = marks[2]  # a trick just won stays in the middle, said to be the last one
    page.get_by_role("button", name="the deal").click()
    for _ in range(2):
        page.get_by_role("button", name="trick ▶").click()
    assert step_of(page) == won
    assert page.locator("#trick .empty").inner_text().startswith("last trick, won by seat ")
    assert page.locator("#trick figure").count() == len(frames[won]["last_trick"])
    page.get_by_role("button", name="◀ trick").click()
    assert step_of(page) == marks[1]
    page.close()


def test_a_match_record_is_replayed_hand_by_hand_with_its_totals(
        server: Server, browser: Any) -> None:
    page = open_replay(browser, server, "file-1")
    assert page.locator("#replay-hand").inner_text() == "hand 1 of 10"
    assert page.get_by_role("button", name="◀ hand").is_disabled()
    page.get_by_role("button", name="hand ▶").click()
    page.wait_for_function("document.getElementById('replay-hand').textContent === "
                           "'hand 2 of 10'", timeout=WAIT_MS)
    page.get_by_role("button", name="the end").click()
    record = json.loads(MATCH.read_text())
    assert "totals:" in page.locator("#match-line").inner_text()
    for _ in range(8):
        page.get_by_role("button", name="hand ▶").click()
    page.wait_for_function("document.getElementById('replay-hand').textContent === "
                           "'hand 10 of 10'", timeout=WAIT_MS)
    page.get_by_role("button", name="the end").click()
    totals = ", ".join(f"seat {s} {v:+d}" if v else f"seat {s} 0"
                       for s, v in enumerate(record["totals"]))
    assert page.locator("#match-line").inner_text().endswith("totals: " + totals)
    page.close()


def test_the_lobby_lists_replays_and_opens_a_record_file(server: Server, browser: Any) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("document.querySelectorAll('#replay-list a').length >= 2",
                           timeout=WAIT_MS)
    page.locator("#record-file").set_input_files(str(MATCH))
    page.wait_for_url("**/replay/sent-*", timeout=WAIT_MS)
    page.wait_for_function("document.body.dataset.step === '0'", timeout=WAIT_MS)
    assert page.locator("#replay-name").inner_text().endswith("valid")
    page.close()


def test_the_replay_page_fits_a_phone_and_its_buttons_can_be_tapped(
        server: Server, browser: Any) -> None:
    page = open_replay(browser, server, "file-0", width=390, height=844)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    buttons = page.locator("#replay-bar button:visible")
    assert buttons.count() == 7
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.get_by_role("button", name="trick ▶").click()
    assert step_of(page) > 0
    page.close()
