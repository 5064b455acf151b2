"""The phone page under WebKitGTK, Safari's engine (issue 25): Debian's WebKitWebDriver
drives WebKitGTK's MiniBrowser (selenium from PyPI), each phone a browser of its own
with its own storage, at a phone's window size (360x740; MiniBrowser's smallest content
area is wider).  Two phones join by the QR's link and play Ultimate Tic-Tac-Toe; one
reloads mid-game and is back in its seat; the table's server goes away and comes back
(the phones' network lost and back) and both resume with their device keys.  Two
phones play a whole Battleship game, one reloading mid-game."""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import pytest

from tests.seats.browser import PHONE, SHOTS, Table
from tests.seats.netem import PROFILES, Network

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.webkitgtk.service import Service  # noqa: E402

DRIVER = "/usr/bin/WebKitWebDriver"  # Debian's webkit2gtk-driver
MINIBROWSER = next(iter(Path("/usr/lib").glob("*/webkit2gtk-4.1/MiniBrowser")), None)  # libwebkit2gtk-4.1-0
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not (shutil.which(DRIVER) and MINIBROWSER), reason="no WebKitGTK WebDriver here"),
              pytest.mark.skipif(not os.environ.get("DISPLAY") and not shutil.which("Xvfb"), reason="no display")]


@pytest.fixture(scope="module", autouse=True)
def display():
    from tests.virtual_display import ensure_display

    ensure_display()


class WebKitPhone:
    def __init__(self):
        options = webdriver.WebKitGTKOptions()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=DRIVER))
        self.driver.set_window_size(PHONE["width"], PHONE["height"])

    def find(self, css: str):
        for _ in range(20):  # a page redrawn meanwhile (a display just came) is "stale" to WebKit's driver
            try:
                return self.driver.find_elements(By.CSS_SELECTOR, css)
            except StaleElementReferenceException:
                time.sleep(0.05)
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def until(self, condition, timeout: float = 15.0, what: str = "condition"):
        end = time.monotonic() + timeout
        while not (result := condition()):
            assert time.monotonic() < end, f"timed out waiting for {what}"
            time.sleep(0.05)
        return result

    def touch(self, css: str, index: int = 0, what: str = "") -> None:
        """A tap on the `index`th element `css` finds, once it is there.  WebKitGTK's driver
        takes a touch pointer's actions without an error but its MiniBrowser turns them into
        no click (tried: nothing happened), so this is WebDriver's element click, a pointer's
        down and up at the element's centre.  A display arriving between the find and the
        click redraws the element, "stale" to the driver: a finger would press the redrawn
        one, so the tap is tried again on it."""
        for _ in range(20):
            element = self.until(lambda: len(found := self.find(css)) > index and found, what=what or css)[index]
            try:
                return element.click()
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise AssertionError(f"{what or css} redrawn under every tap")

    def text(self, css: str) -> str:
        """What `css` holds (its textContent: WebDriver's rendered text is "" for it in WebKitGTK)."""
        return self.driver.execute_script("const e = document.querySelector(arguments[0]);"
                                          " return e ? e.textContent : '';", css)

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(SHOTS / f"phone-webkit-{name}.png"))

    def quit(self) -> None:
        self.driver.quit()


@pytest.fixture
def table(served_uttt):
    return served_uttt


@pytest.fixture
def phones():
    started: list[WebKitPhone] = []

    def start() -> WebKitPhone:
        started.append(WebKitPhone())
        return started[-1]

    yield start
    for phone in started:
        phone.quit()


def join(phone: WebKitPhone, table: Table, seat: int, base: str | None = None) -> None:
    phone.driver.get(table.join_url(base))  # what scanning the QR opens
    phone.until(lambda: len(phone.find(".list button")) == 3, what="the seat buttons")
    phone.touch(".list button", seat)
    phone.until(lambda: str(seat + 1) in phone.text("#who"), what="the seat")


def play_one(table: Table, phones: list[WebKitPhone], rng: random.Random) -> None:
    c = table.controller
    seat, legal, count = table.call(lambda: (c.session.state.to_move(), c.session.state.legal_cells(),
                                             len(c.session.actions)))
    action, phone = rng.choice(legal), phones[seat]
    cell = f'.zoom .cell[data-a="{action}"]'
    if not phone.find(cell):
        phone.touch(f'.mini[data-board="{action // 9}"]', what="the board")
    phone.touch(cell, what="the cell")
    phone.until(lambda: phone.text("#ack").startswith("✓"), what="the ack")
    assert table.call(lambda: len(c.session.actions)) == count + 1


def tap(phone: WebKitPhone, css: str) -> None:
    """A tap on the first element `css` finds (once it is there), until the phone's "done"."""
    phone.driver.execute_script("ack('')")
    phone.touch(css)
    phone.until(lambda: phone.text("#ack").startswith("✓"), what=f"the ack of {css}")


def tap_cell(phone: WebKitPhone, cell: int) -> None:
    """A cell of the Battleship sea: its quarter first (unless shown), then the cell."""
    target = f'.bzoom button[data-cell="{cell}"]'
    if not phone.find(target):
        row, col = divmod(cell, 10)
        phone.touch(f'.sea .quarter[data-quarter="{(row // 5) * 2 + col // 5}"]', what="the quarter")
    tap(phone, target)


def test_two_webkit_phones_play_a_whole_battleship_game(tmp_path, phones):
    from companion.games.battleship.fleet import index
    from tests.seats.test_phone_games_browser import BLUE_SHOTS, RED_FLEET, open_battleship

    table = Table(tmp_path, open_battleship)
    try:
        c = table.controller
        red, blue = phones(), phones()
        join(red, table, 0)
        join(blue, table, 1)
        for ship, cell, direction in RED_FLEET:
            if table.call(lambda: c.desks[0].direction) != direction:
                tap(red, 'button[data-kind="rotate"]')
            tap(red, f'button[data-ship="{ship}"]')
            tap_cell(red, index(cell))
        tap(blue, 'button[data-kind="random"]')
        assert table.call(c.phase) == "shoot"
        secrets = {seat: table.call(c.session.state.secrets, seat) for seat in (0, 1)}
        targets = {0: [index(s.split(":")[1]) for s in secrets[1]], 1: [index(s) for s in BLUE_SHOTS]}
        by_seat = {0: red, 1: blue}
        while not table.call(lambda: c.session.state.is_over()):
            mover = table.call(lambda: c.session.state.to_move())
            phone = by_seat[mover]
            if mover == 0 and len(targets[0]) == 9:
                phone.driver.refresh()  # reload mid-game: the key brings the seat (and the sea) back
                phone.until(lambda: "1" in phone.text("#who"), what="the seat after a reload")
            tap_cell(phone, targets[mover].pop(0))
            tap(phone, 'button[data-kind="fire"]')
            if table.call(c.stage) == "result":
                tap(by_seat[1 - mover], '#actions button[data-kind="continue"]')
        assert table.call(lambda: c.session.state.outcome().winner) == 0
        red.shot("battleship-over")
    finally:
        table.stop()


def test_two_webkit_phones_join_play_reload_and_come_back_after_the_network(table, phones):
    rng = random.Random(25)
    red, blue = phones(), phones()
    join(red, table, 0)
    join(blue, table, 1)
    assert table.call(table.room.claimed) == {0: True, 1: True}
    for _ in range(4):
        play_one(table, [red, blue], rng)
    red.shot("uttt")

    red.driver.refresh()  # reload mid-game: the device key brings the seat back
    red.until(lambda: "1" in red.text("#who"), what="the seat after a reload")
    for _ in range(2):
        play_one(table, [red, blue], rng)

    moves = table.call(lambda: len(table.controller.session.actions))
    table.restart()  # the network (and the table) gone and back: both resume with their keys
    for phone in (red, blue):
        phone.until(lambda: phone.text("#status") != "" and table.call(table.room.claimed) == {0: True, 1: True},
                    timeout=20, what="both phones back in their seats")
    assert table.call(lambda: len(table.controller.session.actions)) == moves
    play_one(table, [red, blue], rng)
    blue.shot("uttt-back")


def test_webkit_phones_play_on_a_busy_hotspot_and_are_back_2s_after_a_20s_outage(table, phones):
    """Issue 42 in Safari's engine, through `netem`'s proxy: six moves on a busy hotspot (300 ms
    ± 300 round trip, 3 % of chunks resent, 2 s stalls) and 10 s at a 0.9 s round trip with no
    socket closed, then
    the link gone 20 s (no close: SYNs lost, bytes held): the table sees both phones gone
    within 10 s, and both are back in their seats within 2 s of the link's return."""
    net = Network(table.port, PROFILES["busy"])
    try:
        rng, red, blue = random.Random(42), phones(), phones()
        join(red, table, 0, net.url)
        join(blue, table, 1, net.url)
        shown: list[dict] = []
        table.call(table.room.listeners.append, lambda: shown.append(table.room.claimed()))
        for _ in range(6):
            play_one(table, [red, blue], rng)
        assert all(all(seen.values()) for seen in shown), shown  # never a phone shown gone

        def open_now():  # each phone's socket, once a try it dropped unopened (the busy link
            return [c for c in net.sockets() if not c.closed]  # held its handshake over a step) closed

        red.until(lambda: len(open_now()) == 2, timeout=10, what="one socket a phone")
        kept, slow = open_now(), time.monotonic()
        net.profile = PROFILES["slow"]  # a steady 0.9 s round trip: the old server cut it within 4 s
        time.sleep(10)
        assert open_now() == kept and not [c for c in net.sockets() if c.opened > slow]  # none closed, none opened
        net.profile = PROFILES["quiet"]
        net.outage()
        start = time.monotonic()
        red.until(lambda: table.call(table.room.claimed) == {0: False, 1: False}, timeout=10, what="both gone")
        time.sleep(max(0.0, start + 20 - time.monotonic()))
        net.restore()
        back = time.monotonic()
        red.until(lambda: table.call(table.room.claimed) == {0: True, 1: True}, timeout=30, what="both back")
        assert time.monotonic() - back <= 2.0, f"back after {time.monotonic() - back:.2f} s"
        play_one(table, [red, blue], rng)
    finally:
        net.stop()
