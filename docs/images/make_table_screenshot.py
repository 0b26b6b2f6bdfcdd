"""Draw docs/images/table.png (a desktop window) or, with ``--phone``, table-phone.png (a
390x844 phone screen): the browser card table of ``ddz play --serve`` in Chromium.

Serves a two-player game (you in seat 0, the standard bot in seat 1, seed 7) on a free local
port with a temporary games folder, takes the hint for four of your moves, then for more until
a trick of two plays or more is on the table at your turn, asks for one more hint (its cards
come up selected) and saves the page.

    PYTHONPATH=. python docs/images/make_table_screenshot.py [--phone] [OUT.png]

Needs the ``play`` extra, playwright (``pip install playwright``) and a Chromium at
/usr/bin/chromium (or DDZ_CHROMIUM); nothing is downloaded.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from ddz_rules.play.web.server import create_app

CHROMIUM = os.environ.get("DDZ_CHROMIUM", "/usr/bin/chromium")
OUT = Path(__file__).with_name("table.png")
PHONE_OUT = Path(__file__).with_name("table-phone.png")
#: The windows drawn: a desktop's, and a phone's (390x844 CSS pixels, as an iPhone 14's).
DESKTOP, PHONE = {"width": 1280, "height": 820}, {"width": 390, "height": 844}
WAIT_MS = 20_000
MOVES = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def states(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.states || 0)"))


def wait_turn(page: Page, after: int) -> None:
    page.wait_for_function(
        """after => Number(document.body.dataset.states || 0) > after &&
           (!document.getElementById('hint').disabled
            || !document.getElementById('next').hidden)""",
        arg=after, timeout=WAIT_MS)


def hint(page: Page) -> None:
    page.get_by_role("button", name="Hint", exact=True).click()
    page.wait_for_function("document.getElementById('hint-line').textContent !== ''",
                           timeout=WAIT_MS)


def main(out: Path, viewport: dict[str, int]) -> None:
    with tempfile.TemporaryDirectory() as games:
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(Path(games)), host="127.0.0.1",
                                               port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        body = json.dumps({"ruleset": "two-player", "seats": ["human", "standard"],
                           "match": False, "seed": 7}).encode()
        request = urllib.request.Request(base + "/api/games", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as reply:
            game = json.load(reply)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
                page = browser.new_page(viewport=viewport)
                page.goto(base + game["links"]["0"])
                wait_turn(page, 0)
                moves = 0
                while moves < MOVES or page.locator("#trick .play").count() < 2:
                    if page.locator("#next").is_visible():
                        raise SystemExit("the hand ended before the picture")
                    moves += 1
                    hint(page)
                    before = states(page)
                    word = page.locator("#words button.hinted")
                    if word.count():
                        word.click()
                    else:
                        page.get_by_role("button", name="Play", exact=True).click()
                    wait_turn(page, before)
                hint(page)
                page.screenshot(path=str(out), full_page=True)
                browser.close()
        finally:
            server.should_exit = True
            thread.join()
    print(f"wrote {out}")


if __name__ == "__main__":
    phone = "--phone" in sys.argv[1:]
    named = [a for a in sys.argv[1:] if a != "--phone"]
    main(Path(named[0]) if named else PHONE_OUT if phone else OUT, PHONE if phone else DESKTOP)
