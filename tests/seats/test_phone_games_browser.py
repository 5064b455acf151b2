"""Battleship, 軍艦将棋 and Naval War on phones in a real browser (Debian's Chromium via
Playwright, one context per phone, 360×740) against the real server with the game on
its own thread: two phones play a whole Battleship game; every frame a phone receives
is its own seat's and holds no secret of the other seat.  Screenshots at 360×740."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.battleship.controller import BattleshipController
from companion.games.battleship.fleet import index
from companion.play.controller import TABLE
from tests.seats.browser import Table
from tests.seats.test_phone_browser import assert_finger_sized, browser, check_frames, join, tap  # noqa: F401

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

RED_FLEET = [("carrier", "A1", "h"), ("battleship", "C1", "h"), ("cruiser", "E1", "h"), ("submarine", "G1", "h"),
             ("destroyer", "I10", "v")]
BLUE_SHOTS = [f"{row}{col}" for row in "ABCDEFGH" for col in (7, 8)]  # sixteen misses


def open_battleship(store):
    controller = BattleshipController.open(store, rng=random.Random(11))
    if controller.session is None:
        controller.act(TABLE, "start")
    return controller


def tap_cell(phone, cell: int) -> None:
    """A cell of the sea: its quarter first (unless shown), then the cell at finger size."""
    page, target = phone.page, phone.page.locator(f'.bzoom button[data-cell="{cell}"]')
    if not target.count():
        row, col = divmod(cell, 10)
        page.locator(f'.sea .quarter[data-quarter="{(row // 5) * 2 + col // 5}"]').first.click()
    tap(phone, target)


def no_secret_of_the_other(phones: dict, secrets: dict) -> None:
    for seat, phone in phones.items():
        check_frames(phone)
        text = json.dumps(phone.frames, ensure_ascii=False)
        for secret in secrets[1 - seat]:
            assert secret not in text, f"seat {seat} heard {secret}"


def test_two_phones_play_a_whole_battleship_game(browser, tmp_path):
    table = Table(tmp_path, open_battleship)
    try:
        c = table.controller
        red, blue = join(browser, table, 0, locale="ja-JP"), join(browser, table, 1)
        phones = {0: red, 1: blue}
        for n, (ship, cell, direction) in enumerate(RED_FLEET):
            if table.call(lambda: c.desks[0].direction) != direction:
                tap(red, red.page.locator('button[data-kind="rotate"]'))
            tap(red, red.page.locator(f'button[data-ship="{ship}"]'))
            tap_cell(red, index(cell))
            if n == 2:
                status = table.call(lambda: c.display(TABLE)["status"][0])
                assert status.key == "battleship_ui.phone_placing" and status.params["n"] == 3
                red.shot("battleship-placing-ja")
                assert_finger_sized(red)
        tap(blue, blue.page.locator('button[data-kind="random"]'))  # the whole fleet at random
        assert table.call(c.phase) == "shoot"
        secrets = {seat: table.call(c.session.state.secrets, seat) for seat in (0, 1)}
        targets = {0: [index(s.split(":")[1]) for s in secrets[1]], 1: [index(s) for s in BLUE_SHOTS]}
        while not table.call(lambda: c.session.state.is_over()):
            mover = table.call(lambda: c.session.state.to_move())
            phone = phones[mover]
            tap_cell(phone, targets[mover].pop(0))
            if mover == 1 and len(targets[1]) == 15:
                blue.shot("battleship-aimed-en")
                assert_finger_sized(blue)
            tap(phone, phone.page.locator('button[data-kind="fire"]'))
            if table.call(c.stage) == "result":
                tap(phones[1 - mover], phones[1 - mover].page.locator('#actions button[data-kind="continue"]'))
            if mover == 0 and len(targets[0]) == 8:
                red.shot("battleship-shooting-ja")
        assert table.call(lambda: c.session.state.outcome().winner) == 0
        red.page.wait_for_timeout(200)
        red.shot("battleship-over-ja")
        blue.shot("battleship-over-en")
        no_secret_of_the_other(phones, secrets)
    finally:
        table.stop()
