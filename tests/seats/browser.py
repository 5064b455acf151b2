"""A table (the game on its own thread, the phones' server) and phones in Debian's Chromium.

No browser is downloaded: Playwright drives /usr/bin/chromium.  Each phone is its own
browser context (its own storage, as on its own device), 360×740.
"""

from __future__ import annotations

import socket
from contextlib import contextmanager
from pathlib import Path

from companion.seats.claims import Claims
from companion.seats.room import Room
from companion.seats.server import SeatServer
from tests.seats.thread import GameThread
from companion.store import Store

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@contextmanager
def chromium():
    """Debian's Chromium, headless, driven by Playwright (a test importorskips playwright first)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def phone_page(browser):
    """A new page in a context of its own, as on its own phone: 360×740, touch, Japanese."""
    return browser.new_context(viewport=PHONE, locale="ja-JP", has_touch=True, is_mobile=True).new_page()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Table:
    """The game's thread, its store, a controller made by `open_controller(store)`, the
    room and the server; `restart()` as after a power cut (same data, same port)."""

    def __init__(self, data: Path, open_controller, beat_s: float = 1.0):
        self.data, self.open_controller, self.beat_s = data, open_controller, beat_s
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._start()

    def _start(self) -> None:
        self.thread = GameThread()
        self.store, self.controller, self.room = self.thread.call(self._open)
        self.server = SeatServer(self.room, self.thread.marshal, "127.0.0.1", self.port, self.beat_s)
        self.server.start()

    def _open(self):
        store = Store(self.data / "companion.db")
        controller = self.open_controller(store)
        room = Room(Claims(store))
        room.attach(controller)
        return store, controller, room

    def call(self, fn, *args):
        return self.thread.call(fn, *args)

    def join_url(self, base: str | None = None) -> str:
        """The QR's link; `base`: the same table reached another way (a `netem.Network`'s url)."""
        return self.call(self.room.join_url, base or self.url)

    def stop(self) -> None:
        self.server.stop()
        self.call(self.store.close)
        self.thread.stop()

    def restart(self) -> None:
        self.stop()
        self._start()
