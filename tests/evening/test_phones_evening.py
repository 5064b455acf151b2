"""Battleship, the game that needs secrecy, with two phones in Debian's Chromium: each player
joins by the QR of the table's 電話 button, places and fires on their own phone, and the game
is played to the victory.  The table never shows a fleet; each phone hears only its own
seat's display model and no ship of the other seat."""

import pytest
from test_battleship_screen_helpers import assert_no_leak
from test_phones_battleship_table import phone_cell, phone_tap
from test_phones_table import panel, until

import musts
from tests.seats.browser import chromium, free_port
from tests.seats.test_phone_browser import PhoneInBrowser, check_frames

pytest.importorskip("playwright.sync_api")
PORT = free_port()
pytestmark = [pytest.mark.browser,
              pytest.mark.parametrize("gui_config", [f"seats:\n  port: {PORT}\n"], indirect=True, ids=["seats"])]


@pytest.fixture
def browser():
    with chromium() as browser:
        yield browser


def join(player, browser) -> dict:
    """Tap the table's 電話 on the cover, and each player opens the QR's address on their own
    phone and takes their seat (the panel stays open until every seat has a phone)."""
    gui = player.gui
    player.press(gui.app.phones_away or player.tr("seats.phones"), near=(800, 480))  # the cover's 電話
    gui.pump(0.2)
    shown = panel(gui)
    url = shown._url.replace(shown.base, f"http://127.0.0.1:{gui.app.seats.port}")
    gui.screenshot("battleship-phones-panel")
    phones = {}
    for seat, locale in ((0, "ja-JP"), (1, "en-US")):
        phone = phones[seat] = PhoneInBrowser(browser, seat, locale)
        phone.page.goto(url)
        until(gui, phone.page, lambda: phone.page.locator(".list button").count() >= 2)
        phone.page.locator(".list button").nth(seat).click()
        until(gui, phone.page, lambda: seat in gui.app.seats.room.claimed())
    assert shown.qr is None  # every seat has its phone: the QR goes
    shown.dismiss()
    gui.pump(0.4)
    return phones


def test_two_phones_play_a_whole_game(player, browser):
    gui = player.gui
    player.open_game("battleship")
    screen = gui.screen
    player.musts = musts.two_players(screen, lists=("afloat",))
    player.press_key("battleship_ui.opp_2p")
    player.press_key("battleship_ui.start")
    gui.wait_until(lambda: gui.app.seats is not None and gui.app.seats.room.game_id is not None, what="the room")
    phones = join(player, browser)
    assert screen.stage == "play" and not screen.grid.interactive  # both place on their phones: no cover
    for seat in (0, 1):
        phone_tap(gui, phones[seat], 'button[data-kind="random"]')
    until(gui, phones[0].page, lambda: screen.session.state.phase == "shoot")
    assert_no_leak(gui, screen)
    secrets = {seat: screen.session.state.secrets(seat) for seat in (0, 1)}
    while not screen.session.state.is_over():
        state = screen.session.state
        shooter = state.turn
        called = state.called(shooter)
        ships = [c for c in state.fleet_cells(1 - shooter) if c not in called]
        free = [c for c in range(100) if c not in called]
        assert "電話" in screen.status_text and not screen.grid.interactive  # the table waits for the phone
        phone_cell(gui, phones[shooter], player.pick(ships if player.chance(0.75) else free))
        phone_tap(gui, phones[shooter], 'button[data-kind="fire"]')
        until(gui, phones[shooter].page, lambda: screen.stage == "result" or screen.session.state.is_over())
        assert_no_leak(gui, screen)
        player.look()
        if screen.stage == "result":
            phone_tap(gui, phones[player.pick([0, 1])], 'button[data-kind="continue"]')  # either phone goes on
    gui.screenshot("battleship-two-phones-over")
    for seat, phone in phones.items():
        phone.page.evaluate("ws.send(JSON.stringify({type: 'ping'}))")
        until(gui, phone.page, lambda: any(f["type"] == "pong" for f in phone.frames))
        check_frames(phone)
        heard = "".join(map(str, phone.frames))
        assert not [s for s in secrets[1 - seat] if s in heard], "a ship of the other seat reached a phone"
