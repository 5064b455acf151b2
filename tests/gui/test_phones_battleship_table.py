"""The real Kivy app as the table, a phone in Debian's Chromium holding Battleship's
first seat: the table's own seat places behind the cover at the same time as the phone
(issue 42: neither waits for the other); while the phone places, the table says "placing
on their phone n/5" and each fleet's count placed (no shots to switch to, no cell to
pick), draws no ship of that seat and none of its buttons acts for it; both fire, and on the phone's turn the table says it fires on the phone;
every frame the phone hears is its own seat's and holds no ship of the table's seat.
Screenshots of the table at 800×480, ja and en."""

from __future__ import annotations

import pytest
from test_battleship_screen_helpers import assert_no_leak, tap_cell
from test_phones_table import until

from tests.seats.browser import chromium, free_port
from tests.seats.test_phone_browser import PhoneInBrowser, check_frames

pytest.importorskip("playwright.sync_api")
PORT = free_port()
pytestmark = [pytest.mark.gui, pytest.mark.browser,
              pytest.mark.parametrize("gui_config", [f"seats:\n  port: {PORT}\n"], indirect=True, ids=["seats"])]
RED_FLEET = [("carrier", "A1"), ("battleship", "C1"), ("cruiser", "E1")]  # three of five, lying "h"


@pytest.fixture
def browser():
    with chromium() as browser:
        yield browser


def phone_tap(gui, phone, selector: str) -> None:
    """A tap on the phone, the table's loop running until the phone says "done"."""
    page = phone.page
    until(gui, page, lambda: page.locator(selector).count() > 0)
    page.evaluate("ack('')")
    page.locator(selector).first.click()
    until(gui, page, lambda: page.locator("#ack").inner_text().startswith("✓"))


def phone_cell(gui, phone, cell: int) -> None:
    """A cell of the phone's sea: its quarter first, then the cell at finger size."""
    row, col = divmod(cell, 10)
    phone.page.locator(f'.sea .quarter[data-quarter="{(row // 5) * 2 + col // 5}"]').first.click()
    phone_tap(gui, phone, f'.bzoom button[data-cell="{cell}"]')


def both_languages(gui, screen, name: str) -> dict[str, str]:
    """The table as it is, in Japanese then English (then back to Japanese): its status."""
    status = {}
    for lang in ("ja", "en"):
        gui.app.lang = lang
        screen.refresh()
        gui.screenshot(f"{name}-{lang}")
        status[lang] = screen.status_text
    gui.app.lang = "ja"
    screen.refresh()
    return status


def test_a_phone_places_and_fires_and_the_table_never_shows_or_moves_its_fleet(gui, browser):
    from companion.games.battleship.fleet import index

    gui.tap(gui.tile("battleship"))
    screen, app = gui.screen, gui.app
    gui.tap(screen.ids.start)  # two players, refereed: seat 1 first
    assert screen.stage == "cover"
    gui.wait_until(lambda: app.seats is not None and app.seats.room.game_id is not None, what="the phones' room")
    room, c = app.seats.room, screen.controller
    red = PhoneInBrowser(browser, 0, "ja-JP")
    red.page.goto(room.join_url(f"http://127.0.0.1:{app.seats.port}"))
    until(gui, red.page, lambda: red.page.locator(".list button").count() == 3)
    red.page.locator(".list button").nth(0).click()
    until(gui, red.page, lambda: room.claimed() == {0: True})
    assert screen.stage == "cover"  # the table's own seat places now, behind its cover, not after the phone
    gui.tap(screen.ids.cover_panel.ids.button)
    assert screen.stage == "place" and screen.private_seat == 1
    phone_tap(gui, red, f'button[data-ship="{RED_FLEET[0][0]}"]')  # the phone places meanwhile
    phone_cell(gui, red, index(RED_FLEET[0][1]))
    assert len(c.session.state.fleets[0]) == 1 and screen.stage == "place"
    assert_no_leak(gui, screen)
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    assert screen.stage == "play" and c.phase() == "place"  # the phone's fleet is still going in
    assert "電話で配置中 1/5" in screen.status_text

    for n, (ship, cell) in list(enumerate(RED_FLEET))[1:]:
        phone_tap(gui, red, f'button[data-ship="{ship}"]')
        phone_cell(gui, red, index(cell))
        until(gui, red.page, lambda: f"電話で配置中 {n + 1}/5" in screen.status_text)
    assert len(c.session.state.fleets[0]) == 3
    assert_no_leak(gui, screen)  # no ship of red's in any text or on the sea drawn
    assert not screen.grid.ships and not screen.grid.interactive
    assert not screen.can_bottom and not screen.can_undo  # the table may neither fire nor undo for red
    actions = len(c.session.actions)
    tap_cell(gui, screen, "J10")  # a tap on the table's sea places nothing for red
    assert len(c.session.actions) == actions and not screen.grid.ships
    status = both_languages(gui, screen, "table-battleship-phone-placing")
    assert "電話で配置中 3/5" in status["ja"] and "placing on their phone 3/5" in status["en"]
    # the panel fits the moment: fleets going in, no shots to switch to nor a cell to pick
    assert "プレイヤー1：配置 3/5" in screen.info_text and "残り" not in screen.info_text
    assert not screen.can_toggle and screen.ids.toggle_board.height == 0
    assert screen.bottom_text == "" and screen.ids.bottom.opacity == 0

    phone_tap(gui, red, 'button[data-kind="random"]')  # the last two at random: both fleets in
    until(gui, red.page, lambda: c.phase() == "shoot")
    assert screen.stage == "play"
    secrets = {seat: c.session.state.secrets(seat) for seat in (0, 1)}

    phone_cell(gui, red, index("J10"))  # red aims and fires on its phone (the first shooter)
    assert screen.grid.aim == -1  # the phone's aim is its own
    phone_tap(gui, red, 'button[data-kind="fire"]')
    until(gui, red.page, lambda: screen.stage == "result")
    gui.tap(screen.ids.continue_button)
    assert c.session.state.to_move() == 1
    assert screen.can_toggle and "Pick" not in screen.bottom_text and screen.ids.bottom.opacity > 0
    tap_cell(gui, screen, "A1")  # blue aims and fires on the table
    gui.tap(screen.ids.bottom)
    assert screen.stage == "result"
    gui.tap(screen.ids.continue_button)
    assert c.session.state.to_move() == 0 and not screen.grid.interactive and not screen.can_bottom
    actions = len(c.session.actions)
    tap_cell(gui, screen, "B2")  # red's turn: the table's sea neither aims nor fires for it
    assert len(c.session.actions) == actions and screen.grid.aim == -1 and c.desks[0].aim is None
    assert_no_leak(gui, screen)
    status = both_languages(gui, screen, "table-battleship-phone-mid-game")
    assert status == {"ja": "プレイヤー1の攻撃（電話で）", "en": "Player 1 to fire, on the phone"}
    assert screen.can_toggle and screen.bottom_text == "" and screen.ids.bottom.opacity == 0  # nothing to fire here

    red.page.evaluate("ws.send(JSON.stringify({type: 'ping'}))")
    until(gui, red.page, lambda: any(f["type"] == "pong" for f in red.frames))
    check_frames(red)
    heard = "".join(map(str, red.frames))
    assert not [s for s in secrets[1] if s in heard]  # no ship of blue's reached red's phone
    assert red.displays()[-1]["model"]["fleet"]
