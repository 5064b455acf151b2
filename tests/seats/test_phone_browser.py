"""Phones in a real browser (Debian's Chromium via Playwright), one context per phone,
against the real server with the game on its own thread: two phones play a whole
Ultimate Tic-Tac-Toe game; a phone's socket is cut and it resumes; the table restarts
mid-game and both phones resume with their device keys.  Every frame a phone receives
is checked to be its own seat's (or a refusal, a beat).  Screenshots at 360×740."""

from __future__ import annotations

import json
import re
import random
import time

import pytest

from tests.seats.browser import PHONE, SHOTS, Table

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser


class PhoneInBrowser:
    def __init__(self, browser, seat: int | None, locale: str):
        self.seat = seat
        self.context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
        self.page = self.context.new_page()
        self.frames: list[dict] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frames.append(json.loads(data))))

    def displays(self) -> list[dict]:
        return [f for f in self.frames if f["type"] == "display"]

    def wait_for_display(self, after: int, timeout: float = 10.0) -> float:
        start = time.monotonic()
        while len(self.displays()) <= after:
            assert time.monotonic() - start < timeout, "no display arrived"
            self.page.wait_for_timeout(20)
        return time.monotonic() - start

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"phone-{name}.png"))


@pytest.fixture
def table(served_uttt):
    return served_uttt


def join(browser, table, seat, locale="en-US") -> PhoneInBrowser:
    phone = PhoneInBrowser(browser, seat, locale)
    phone.page.goto(table.join_url())
    phone.page.locator(".list button").nth(seat).click()
    playwright_api.expect(phone.page.locator("#who")).to_contain_text("1" if seat == 0 else "2")
    return phone


def play_one(table, phones, rng) -> None:
    """The seat to move plays a random legal move by tapping on its phone; its "done"
    shows only once the move is on disk."""
    c = table.controller
    seat, legal, count = table.call(lambda: (c.session.state.to_move(), c.session.state.legal_cells(),
                                             len(c.session.actions)))
    action, page = rng.choice(legal), phones[seat].page
    cell = page.locator(f'.zoom .cell[data-a="{action}"]')
    if not cell.count():
        page.locator(f'.mini[data-board="{action // 9}"]').click()
    cell.click()
    playwright_api.expect(page.locator("#ack")).to_have_text(re.compile("^✓"))
    on_disk = table.call(lambda: table.store.actions(c.session.id))
    assert len(on_disk) == count + 1 and on_disk[-1] == {"type": "move", "cell": action}


SMALL_TARGETS = """() => [...document.querySelectorAll("button:not([disabled]), .mini.playable")]
  .filter((e) => e.offsetParent !== null)
  .map((e) => e.getBoundingClientRect())
  .filter((r) => r.width < 48 || r.height < 48)
  .map((r) => `${r.width}x${r.height}`)"""


def assert_finger_sized(phone: PhoneInBrowser) -> None:
    """Everything a finger may press on the page is at least 48×48 px (at 360×740)."""
    assert phone.page.evaluate(SMALL_TARGETS) == []


def check_frames(phone: PhoneInBrowser) -> None:
    """A phone hears only its own seat's display model (and beats, answers, refusals)."""
    for frame in phone.frames:
        assert frame["type"] in {"welcome", "beat", "pong", "seats", "claimed", "joined", "display", "done", "refused"}
        if frame["type"] == "display":
            assert frame["seat"] == phone.seat
            assert frame["model"]["offers"] == [] or all(o["seat"] in (None, phone.seat) for o in frame["model"]["offers"])


def test_two_phones_play_a_whole_game(browser, table):
    red = join(browser, table, 0, locale="ja-JP")
    red.shot("uttt-joined-ja")
    blue = join(browser, table, 1)
    assert table.join_url() is None  # every seat claimed: the QR goes
    rng = random.Random(7)
    phones = {0: red, 1: blue}
    moves = 0
    while not table.call(lambda: table.controller.session.state.is_over()):
        play_one(table, phones, rng)
        moves += 1
        if moves in (1, 6, 20):
            assert_finger_sized(red)
            assert_finger_sized(blue)
        if moves == 1:
            blue.shot("uttt-zoomed")
        if moves == 6:
            red.shot("uttt-overview-ja")
    red.page.wait_for_timeout(200)
    red.shot("uttt-over-ja")
    playwright_api.expect(blue.page.locator("#status")).to_contain_text("won" if table.controller.session.state.outcome().winner is not None else "Draw")
    for phone in phones.values():
        check_frames(phone)


def test_a_phone_resumes_after_a_cut_missed_beats_waking_up_and_a_restart(browser, table):
    red, blue = join(browser, table, 0), join(browser, table, 1)
    phones, rng = {0: red, 1: blue}, random.Random(3)
    for _ in range(4):
        play_one(table, phones, rng)

    seen = len(red.displays())
    red.page.evaluate("ws.close()")  # the phone's socket is cut (a sleeping phone, a dropped Wi-Fi)
    took = red.wait_for_display(seen)
    assert took < 2.0
    assert red.displays()[-1]["model"]["board"] == blue.displays()[-1]["model"]["board"]  # a full snapshot

    seen = len(red.displays())
    red.page.evaluate("heard = 0")  # as if no beat had come for long: the link is taken for dead
    assert red.wait_for_display(seen) < 2.0

    seen = len(red.displays())  # a socket gone while the phone slept, the next retry far off...
    red.page.evaluate("ws.onclose = null; ws.close(); ws = null; backoff = 60000")
    red.page.wait_for_timeout(300)
    assert len(red.displays()) == seen
    red.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # ...and it wakes up
    assert red.wait_for_display(seen) < 1.0

    counts = {seat: len(p.displays()) for seat, p in phones.items()}
    table.restart()  # a power cut: the same data, the same port, a fresh server and room
    for seat, phone in phones.items():
        phone.wait_for_display(counts[seat], timeout=15)
    assert table.call(table.room.claimed) == {0: True, 1: True}
    for _ in range(4):
        play_one(table, phones, rng)
    for phone in phones.values():
        check_frames(phone)


def test_a_second_phone_cannot_take_a_claimed_seat_and_an_old_link_is_refused(browser, table):
    red = join(browser, table, 0)
    url = table.join_url()
    thief = PhoneInBrowser(browser, None, "en-US")
    thief.page.goto(url)
    taken = thief.page.locator(".list button").nth(0)
    playwright_api.expect(taken).to_be_disabled()
    playwright_api.expect(taken).to_contain_text("taken")
    thief.shot("seats-en")
    assert_finger_sized(thief)
    late = PhoneInBrowser(browser, None, "en-US")
    late.page.goto(url.replace("room=", "room=old"))
    playwright_api.expect(late.page.locator("#notice")).to_contain_text("QR code is old or wrong")
    late.shot("old-token-en")
    assert table.call(table.room.claimed) == {0: True}
    check_frames(red)


# 九九戦艦: fleets placed and attacks chosen on two phones ------------------------------

KUKU_FLEETS = {0: ("9×9", ["1×1", "5×5"]), 1: ("2×1", ["3×8", "7×7"])}


def open_kuku(store):
    from companion.games.kuku.controller import KukuController

    controller = KukuController.open(store, rng=random.Random(7))
    if controller.session is None:
        controller.act("table", "choose", {"opponent": "2p"})
        controller.act("table", "start", ["Aki", "Ben"])
    return controller


def tap(phone: PhoneInBrowser, locator) -> None:
    """A tap on the phone, until its "done"."""
    phone.page.evaluate("ack('')")
    locator.click()
    playwright_api.expect(phone.page.locator("#ack")).to_have_text(re.compile("^✓"))


def test_two_phones_play_a_whole_kuku_game_and_never_hear_the_others_fleet(browser, tmp_path):
    table = Table(tmp_path, open_kuku)
    try:
        c = table.controller
        phones = {seat: join(browser, table, seat, locale="ja-JP" if seat == 0 else "en-US") for seat in (0, 1)}
        for seat, (leader, normals) in KUKU_FLEETS.items():
            phone = phones[seat]
            phone.page.wait_for_selector('button[data-kind="leader"]')  # it places at once: no cover to open
            tap(phone, phone.page.locator('button[data-kind="leader"]'))
            for cell in [leader] + normals:
                row, col = cell.split("×")
                phone.page.locator(".keys.pad button").nth(int(row) - 1).click()
                tap(phone, phone.page.locator(".keys.pad button").nth(int(col) - 1))
                if cell == leader and seat == 0:
                    phone.shot("kuku-placing-ja")
                    assert_finger_sized(phone)
        assert table.call(c.stage) == "play"  # both fleets in: no hiding on a phone
        secrets = {seat: table.call(c.session.state.secrets, seat) for seat in (0, 1)}
        targets = {0: ["2×1", "3×8", "7×7"], 1: ["4×4", "6×6", "8×8", "2×2", "4×6"]}
        while not table.call(lambda: c.session.state.is_over()):
            mover = table.call(lambda: c.session.state.to_move())
            phone, cell = phones[mover], targets[mover].pop(0)
            for key in cell:
                tap(phone, phone.page.locator(".keys button", has_text=re.compile(f"^{key}$")))
            if mover == 1 and len(targets[1]) == 4:
                phone.shot("kuku-attack-typed-en")
                assert_finger_sized(phone)
            tap(phone, phone.page.locator('#actions button[data-kind="primary"]'))
            tap(phone, phone.page.locator('#actions button[data-kind="continue"]'))
        phones[0].page.wait_for_timeout(200)
        phones[0].shot("kuku-over-ja")
        assert table.call(lambda: c.session.state.outcome().winner) == 0
        for seat, phone in phones.items():
            check_frames(phone)
            text = json.dumps([f for f in phone.frames if f["type"] != "display" or
                               f["model"]["stage"] != "over"], ensure_ascii=False)  # the end reveals both
            for secret in secrets[1 - seat]:
                assert secret not in text, f"seat {seat} heard {secret}"
    finally:
        table.stop()
