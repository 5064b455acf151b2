"""Phones on a real table's Wi-Fi (issue 42), in Debian's Chromium through `netem`'s proxy:
a 20 s outage, a sleeping phone, a 0.9 s round trip, a busy hotspot, two tabs of one phone.
Each phone must be back in its seat within 2 s of the link's return, no socket may be
closed while the link is up, and two tabs must not fight over one seat."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.seats.browser import PHONE, Table
from tests.seats.netem import PROFILES, Network, Profile

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser
BACK_S = 2.0  # issue 42: every phone back in its seat this soon after the link returns


@pytest.fixture
def table(served_uttt):
    return served_uttt


@pytest.fixture
def net(table):
    net = Network(table.port)
    yield net
    net.stop()


class Phone:
    """A phone's page reaching the table through `net`; `sockets` counts the WebSockets it opened
    (that heard the table: not the tries the page dropped unopened once another opened)."""

    def __init__(self, browser, context=None):
        self.context = context or browser.new_context(viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
        self.page = self.context.new_page()
        self.heard: set = set()
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda _: self.heard.add(ws)))

    @property
    def sockets(self) -> int:
        return len(self.heard)

    def join(self, table: Table, net: Network, seat: int) -> "Phone":
        self.page.goto(table.join_url(net.url))
        self.page.locator(".list button").nth(seat).click()
        playwright_api.expect(self.page.locator("#who")).to_contain_text(str(seat + 1))
        return self


def seated(table: Table, seat: int) -> bool:
    return table.call(table.room.claimed).get(seat, False)


def until(condition, timeout: float, step: float = 0.05) -> float | None:
    """Seconds until `condition()` holds, or None after `timeout`."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            return None
        time.sleep(step)
    return time.monotonic() - start


def move(table: Table, rng: random.Random) -> int:
    """The seat to move plays a random legal cell on the table's controller (as another phone would)."""
    c = table.controller
    seat, legal = table.call(lambda: (c.session.state.to_move(), c.session.state.legal_cells()))
    cell = rng.choice(legal)
    table.call(c.act, seat, "cell", cell)
    return cell


def shows(phone: Phone, cell: int) -> bool:
    """The phone's board shows a mark on `cell`."""
    return phone.page.evaluate(f"!!(shown && shown.model.board.cells[{cell}])")


def tap_move(table: Table, phone: Phone, rng: random.Random, timeout: float = 10.0) -> float:
    """The phone's seat taps a random legal cell; seconds until its "✓"."""
    c = table.controller
    legal, count = table.call(lambda: (c.session.state.legal_cells(), len(c.session.actions)))
    page, action = phone.page, rng.choice(legal)
    page.evaluate("ack('')")
    page.wait_for_function(f"shown && shown.model.offers.some((o) => o.kind === 'cell' && o.choices.includes({action}))",
                           timeout=20000)  # the phone shows the table's latest move (a slow link's seconds)
    start = time.monotonic()
    cell = page.locator(f'.zoom .cell[data-a="{action}"]')
    if not cell.count():
        page.locator(f'.mini[data-board="{action // 9}"]').click()
    cell.click()
    playwright_api.expect(page.locator("#ack")).to_have_text(re.compile("^✓"), timeout=timeout * 1000)
    assert table.call(lambda: len(c.session.actions)) == count + 1
    return time.monotonic() - start


@pytest.mark.parametrize("gone", ["wifi", "router"])
def test_a_phone_is_back_in_its_seat_2s_after_an_outage_with_what_it_missed(browser, table, net, gone):
    """Gone 20 s: the phone's Wi-Fi ("wifi": the browser knows it is offline, as a phone out
    of range does; Chromium then delays each new WebSocket by seconds after a run of failed
    ones, which starved the old page's 1 s connect limit for good), or 40 s the link between
    ("router": no close, SYNs lost, bytes held).  Meanwhile the other seat moves on the table.
    All through the router's outage the phone starts fresh connects (a lost SYN is sent again
    by TCP only 1, 3, 7, 15 … s later): the older page asked `/alive` over HTTP, Chromium kept
    the connects of the asks it gave up, six to a host, and queued every later ask behind
    them, so no fresh connect left after its first ~20 s and it was back 11-24 s late after 60 s."""
    rng = random.Random(42)
    red = Phone(browser).join(table, net, 0)
    tap_move(table, red, rng)
    if gone == "wifi":
        red.context.set_offline(True)
    else:
        net.outage()
        assert until(lambda: not seated(table, 0), timeout=10.0) is not None  # the table sees it gone within 10 s
    time.sleep(10)
    moved = move(table, rng)  # what the phone misses
    rest = 10.0 if gone == "wifi" else 30.0
    start, seen, late = time.monotonic(), set(), set()
    while (now := time.monotonic() - start) < rest:
        connects = net.connecting()  # (none while the browser is offline)
        if now > rest - 20:
            late |= connects - seen
        seen |= connects
        time.sleep(0.2)
    if gone == "router":
        assert len(late) >= 4, f"{len(late)} fresh connects in the outage's last 20 s"  # one every STEP_MAX (3 s)
    red.context.set_offline(False)
    net.restore()
    took = until(lambda: seated(table, 0) and shows(red, moved), timeout=30)
    assert took is not None and took <= BACK_S, f"back in its seat after {took} s"
    tap_move(table, red, rng)


def test_a_sleeping_phone_is_back_when_shown_again(browser, table, net):
    """The page frozen 15 s as a phone with its screen off (timers stopped, the socket not
    read); the table takes it for gone, then the page runs and is shown again."""
    rng = random.Random(7)
    red = Phone(browser).join(table, net, 0)
    tap_move(table, red, rng)
    cdp = red.context.new_cdp_session(red.page)
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
    net.outage()  # the phone's radio sleeps too: nothing reaches the table
    assert until(lambda: not seated(table, 0), timeout=10.0) is not None
    moved = move(table, rng)
    time.sleep(4)
    net.restore()
    shown = time.monotonic()
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
    red.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    took = until(lambda: seated(table, 0), timeout=30)
    assert took is not None and time.monotonic() - shown <= BACK_S
    assert until(lambda: shows(red, moved), timeout=1)
    tap_move(table, red, rng)


def test_a_slow_link_keeps_its_socket(browser, table, net):
    """A steady 0.9 s round trip (Wi-Fi power save, a crowded hotspot): no socket is closed
    over 15 s (the old server closed one whose pong took over 0.75 s), and a tap is saved;
    at a 1.6 s round trip a lost socket is opened again, and so it is after a 15 s outage at
    a 3 s round trip: its tries (given up after 6 s) cannot finish a 6 s handshake, so the
    page waits for its one kept ask, whose connect waits out TCP's resends of a lost SYN (1,
    3, 7, 15 s): 7 s to 22 s, by where in the outage the ask began (issue 42: left open)."""
    net.profile = PROFILES["slow"]
    red = Phone(browser).join(table, net, 0)
    time.sleep(15)
    assert red.sockets == 1  # never closed, by either side: no other socket was needed
    assert seated(table, 0)
    assert tap_move(table, red, random.Random(1)) < 3.0
    net.profile = Profile("slower", delay_s=0.8)  # 1.6 s
    red.page.evaluate("ws.close()")
    assert until(lambda: not seated(table, 0), timeout=5) is not None
    assert until(lambda: seated(table, 0), timeout=10) is not None  # its first try held on until it opened
    net.outage()
    assert until(lambda: not seated(table, 0), timeout=12) is not None
    time.sleep(15)
    net.profile = Profile("slowest", delay_s=1.5)  # a 3 s handshake
    net.restore()
    took = until(lambda: seated(table, 0), timeout=40)
    assert took is not None and took <= 30.0, f"back in its seat after {took} s"


def test_two_tabs_of_one_phone_do_not_fight(browser, table, net):
    """The QR scanned twice: the newest tab holds the seat, the older says so once and waits
    for a tap, which takes the seat back (and the other tab then waits)."""
    first = Phone(browser).join(table, net, 0)
    second = Phone(browser, first.context)  # the same phone: the same storage, its device key
    second.page.goto(net.url + "/")
    playwright_api.expect(second.page.locator("#who")).to_contain_text("1")
    playwright_api.expect(first.page.locator("#status")).to_have_text("Another tab of this phone has this seat")
    time.sleep(8)
    assert first.sockets + second.sockets == 2  # no fight: each opened one socket
    assert seated(table, 0)
    first.page.locator("#here").click()
    playwright_api.expect(second.page.locator("#status")).to_have_text("Another tab of this phone has this seat")
    playwright_api.expect(first.page.locator("#who")).to_contain_text("1")
    time.sleep(3)
    assert first.sockets + second.sockets == 3
    tap_move(table, first, random.Random(5))


def test_a_game_on_a_busy_hotspot(browser, table, net):
    """Two phones play 16 moves on a busy hotspot (300 ms ± 300 round trip, 3 % of chunks
    late by a resend, 2 s stalls): no tap lost, no socket closed, each tap saved."""
    net.profile = PROFILES["busy"]
    phones = {0: Phone(browser).join(table, net, 0), 1: Phone(browser).join(table, net, 1)}
    rng, c = random.Random(3), table.controller
    took = []
    for _ in range(16):
        seat = table.call(lambda: c.session.state.to_move())
        took.append(tap_move(table, phones[seat], rng, timeout=15))
    assert phones[0].sockets == phones[1].sockets == 1  # never closed
    assert table.call(lambda: len(c.session.actions)) == 16
