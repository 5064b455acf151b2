"""Every game's screen has the 電話 button (widgets.kv's PhonesButton): a tap opens the table's
phones panel for the game on that screen, and a phone in Debian's Chromium joins it from the
URL the panel's QR holds.  A QR of an earlier game is not refused as "old or wrong": the phone
is told where the QR of the game on the table now is, and that one joins."""

from __future__ import annotations

import pytest
from test_phones_table import page, panel, pytestmark, until  # noqa: F401  (its fixture and marks: the same table)


def to_battleship(gui):
    gui.tap(gui.tile("battleship"))
    gui.tap(gui.screen.ids.start)  # two players: the cover before the first fleet
    return gui.screen.ids.cover_panel.ids.phones


def to_gunkan(gui):
    gui.tap(gui.tile("gunkan"))
    gui.tap(gui.screen.action_buttons["mode:seesaw"])
    return gui.screen.ids.bar.ids.phones


def to_navalwar(gui):
    gui.tap(gui.tile("navalwar"))
    gui.tap(gui.screen.ids.start)
    return gui.screen.ids.phones


def to_kuku(gui):
    gui.tap(gui.tile("kuku"))
    gui.tap(gui.screen.ids.opp_2p)
    gui.tap(gui.screen.ids.start)
    return gui.screen.ids.cover_panel.ids.phones


def to_uttt(gui):
    gui.tap(gui.tile("uttt"))
    return gui.screen.ids.phones


def join_by_the_button(gui, page, button, name: str):
    """Tap the screen's 電話, check the panel offers this screen's game, join its first seat."""
    app = gui.app
    until(gui, page, lambda: app.seats is not None)
    assert button.opacity == 1 and not button.disabled and button.height >= 48
    gui.tap(button)
    gui.pump(0.2)
    shown = panel(gui)
    room = app.seats.room
    assert room.controller is gui.screen.controller and room.game_id == gui.screen.controller.session.id
    assert shown.qr is not None and "QR" in shown.message
    gui.screenshot(f"phones-panel-{name}")
    page.goto(shown._url.replace(shown.base, f"http://127.0.0.1:{app.seats.port}"))  # what the QR holds
    until(gui, page, lambda: page.locator(".list button").count() > 0)
    page.locator(".list button").nth(0).click()
    until(gui, page, lambda: room.claimed() == {0: True})
    assert "1" in page.locator("#who").inner_text()
    shown.dismiss()
    gui.pump(0.1)


@pytest.mark.parametrize("game", ["battleship", "gunkan", "navalwar", "kuku", "uttt"])
def test_every_game_screen_has_a_phones_button_that_joins_a_phone_to_its_game(gui, page, game):
    button = globals()[f"to_{game}"](gui)
    gui.screenshot(f"phones-button-{game}")
    join_by_the_button(gui, page, button, game)


def test_a_qr_of_an_earlier_game_says_where_the_current_one_is_and_that_one_joins(gui, page):
    app = gui.app
    gui.tap(gui.tile("uttt"))
    until(gui, page, lambda: app.seats is not None)
    gui.tap(gui.screen.ids.phones)
    gui.pump(0.2)
    old = panel(gui)._url.replace(panel(gui).base, f"http://127.0.0.1:{app.seats.port}")
    panel(gui).dismiss()
    gui.pump(0.4)  # the panel fades out
    gui.tap(gui.find("ホーム"))
    button = to_battleship(gui)
    page.goto(old)  # the QR photographed in the game before
    until(gui, page, lambda: "前のゲーム" in page.locator("#notice").inner_text())
    assert "電話" in page.locator("#notice").inner_text()
    join_by_the_button(gui, page, button, "battleship-after-uttt")
    assert app.seats.room.controller.session.record.kind == "battleship"
