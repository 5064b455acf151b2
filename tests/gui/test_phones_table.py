"""The real Kivy app as the table, a phone in Debian's Chromium: the table's phones
panel shows the join QR and each seat's phone; a move tapped on the phone appears on
the table and one tapped on the table reaches the phone; "release" frees the seat."""

from __future__ import annotations

import time

import pytest

from companion.games.uttt.rules import move
from tests.seats.browser import SHOTS, chromium, free_port, phone_page

pytest.importorskip("playwright.sync_api")
PORT = free_port()
pytestmark = [pytest.mark.gui, pytest.mark.browser,
              pytest.mark.parametrize("gui_config", [f"seats:\n  port: {PORT}\n"], indirect=True, ids=["seats"])]


@pytest.fixture
def page():
    with chromium() as browser:
        yield phone_page(browser)


def until(gui, page, condition, timeout: float = 10.0) -> None:
    """Run the table (Kivy) and the browser by turns until `condition()`."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        gui.pump(0.03)
        page.wait_for_timeout(10)


def panel(gui):
    from kivy.core.window import Window
    from companion.ui.phones import PhonesPanel

    return next(w for w in Window.children if isinstance(w, PhonesPanel))


def test_a_phone_joins_from_the_table_panel_and_plays_with_the_table(gui, page):
    gui.tap(gui.tile("uttt"))
    uttt, app = gui.screen, gui.app
    until(gui, page, lambda: app.seats is not None)
    room = app.seats.room
    gui.tap(uttt.ids.phones)
    gui.pump(0.2)
    shown = panel(gui)
    assert shown.qr is not None and "QR" in shown.message
    gui.screenshot("table-phones-qr")

    page.goto(room.join_url(f"http://127.0.0.1:{app.seats.port}"))
    until(gui, page, lambda: page.locator(".list button").count() == 3)
    page.locator(".list button").nth(0).click()
    until(gui, page, lambda: room.claimed() == {0: True})
    rows = list(reversed(shown.ids.rows.children))
    assert rows[0].state == "接続中" and rows[1].state == "空き"
    gui.screenshot("table-phones-red-joined")
    shown.dismiss()
    gui.pump(0.1)

    page.locator('.zoom .cell[data-a="40"], .mini[data-board="4"]').first.click()
    until(gui, page, lambda: page.locator('.zoom .cell[data-a="40"]').count() == 1)
    page.locator('.zoom .cell[data-a="40"]').click()
    until(gui, page, lambda: uttt.session.actions == [move(40)])
    until(gui, page, lambda: page.locator("#ack").inner_text().startswith("✓"))
    gui.screenshot("table-after-phone-move")

    gui.tap_cell(uttt.ids.board, 4 * 9 + 0)  # blue plays on the table
    until(gui, page, lambda: page.locator('.zoom .cell[data-a="0"]').count() == 1)  # sent to board 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-after-table-move-ja.png"))

    gui.tap(uttt.ids.phones)
    gui.pump(0.2)
    shown = panel(gui)
    release = next(w for w in gui.widgets(shown) if getattr(w, "text", "") == "電話を解除" and not w.disabled)
    gui.tap(release)
    assert room.claimed() == {0: True}  # asked first
    gui.tap(shown.asked.ids.yes)
    until(gui, page, lambda: "解除" in page.locator("#notice").inner_text())
    assert room.claimed() == {}
    assert shown.qr is not None  # a free seat again: the QR is back


def test_a_kuku_seat_on_a_phone_places_there_and_the_table_never_shows_its_fleet(gui, page):
    from companion.play.controller import TABLE

    gui.tap(gui.tile("kuku"))
    kuku, app = gui.screen, gui.app
    kuku.controller.act(TABLE, "choose", {"opponent": "2p"})
    kuku.controller.act(TABLE, "start", ["Aki", "Ben"])
    until(gui, page, lambda: app.seats is not None and app.seats.room.game_id is not None)
    room = app.seats.room
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))
    page.goto(room.join_url(f"http://127.0.0.1:{app.seats.port}"))
    until(gui, page, lambda: page.locator(".list button").count() == 3)
    page.locator(".list button").nth(0).click()
    # no hand-over on the phone: it places at once; the table's own seat places meanwhile (issue 42)
    until(gui, page, lambda: room.claimed() == {0: True} and page.locator(".keys.pad button").count() == 9)
    assert kuku.stage == "cover" and kuku.cover_text == "Benに画面を渡してください"
    assert not kuku.ids.cover_panel.ids.button.disabled

    def phone_places(cells):
        for row, col in cells:
            page.locator(".keys.pad button").nth(row - 1).click()
            page.locator(".keys.pad button").nth(col - 1).click()
            until(gui, page, lambda: page.locator("#ack").inner_text().startswith("✓"))
            page.evaluate("ack('')")

    phone_places([(9, 9)])
    gui.screenshot("table-kuku-placing-on-phone")
    gui.tap(kuku.ids.cover_panel.ids.button)  # Ben places at the table while Aki places on the phone
    assert kuku.stage == "place" and kuku.private_seat == 1
    for cell in ("1×1", "2×2"):
        gui.tap_cell(kuku.grid, cell)
    phone_places([(1, 1), (5, 5)])
    until(gui, page, lambda: len(kuku.controller.session.state.fleets[0]) == 3)
    table_fleet = kuku.controller.display(kuku.controller.holder())["board"]["fleet"]
    assert table_fleet and all(token.startswith("1:") for token in table_fleet)  # no ship of Aki's
    gui.screenshot("table-kuku-placing-with-a-phone")
    until(gui, page, lambda: "Benが船を置いています" in page.locator("#status").inner_text())  # Aki waits, told why
    page.screenshot(path=str(SHOTS / "phone-kuku-placed-ja.png"))
    assert page.locator('#actions button[data-kind="hide"]').count() == 0  # nothing to hide on a phone
    gui.tap_cell(kuku.grid, "3×3")
    gui.tap(kuku.ids.done)
    until(gui, page, lambda: kuku.stage == "play")
    # Aki attacks on the phone: the table says so and offers no keypad that would ignore its taps
    assert kuku.status_text == "Akiの番（電話で）" and kuku.on_phone
    assert kuku.ids.keypad.disabled and kuku.ids.keypad.opacity == 0 and kuku.ids.primary.opacity == 0
    gui.screenshot("table-kuku-phone-to-attack")
    gui.app.lang = "en"
    kuku.refresh()
    assert kuku.status_text == "Aki to attack, on the phone"
    gui.app.lang = "ja"
    kuku.refresh()
    until(gui, page, lambda: page.locator(".keys button").count() > 0)
    phone_keys = page.locator(".keys button")
    for key in ("4", "×", "4"):
        phone_keys.filter(has_text=key).first.click()
        until(gui, page, lambda: page.locator("#ack").inner_text().startswith("✓"))
    page.locator('#actions button[data-kind="primary"]').click()
    until(gui, page, lambda: kuku.stage == "result")
    assert not kuku.on_phone
    heard = "".join(str(f) for f in frames)
    assert "画面を渡して" not in heard and "Hand the screen" not in heard  # no hand-over on the phone


def test_after_the_table_restarts_the_phone_resumes_without_scanning(gui, page):
    gui.tap(gui.tile("uttt"))
    app = gui.app
    until(gui, page, lambda: app.seats is not None)
    page.goto(app.seats.room.join_url(f"http://127.0.0.1:{app.seats.port}"))
    until(gui, page, lambda: page.locator(".list button").count() == 3)
    page.locator(".list button").nth(0).click()
    until(gui, page, lambda: page.locator('.zoom .cell, .mini.playable').count() > 0)
    page.locator('.mini[data-board="4"]').click()
    page.locator('.zoom .cell[data-a="40"]').click()
    until(gui, page, lambda: gui.screen.session.actions == [move(40)])

    app = gui.restart()  # the app is stopped and started again on the same data (a power cut)
    until(gui, page, lambda: app.seats is not None)
    assert app.seats.room.claimed() == {}  # no game open on the table yet: the phone waits
    gui.tap(gui.tile("uttt"))  # the unfinished game is opened again
    assert gui.screen.session.actions == [move(40)]
    until(gui, page, lambda: app.seats.room.claimed() == {0: True}, timeout=20)
    until(gui, page, lambda: page.locator('.cell[data-a="40"]').first.inner_text() == "×")
    assert "1" in page.locator("#who").inner_text()  # still seat 1, no scan


def test_with_the_tables_own_hotspot_the_wifi_qr_comes_first(gui, page, tmp_path, monkeypatch):
    from tests.seats.test_address import fake_nmcli

    fake_nmcli(tmp_path, monkeypatch, "activated\\nTable Wi-Fi\\nsecret123\\n")
    gui.tap(gui.tile("uttt"))
    until(gui, page, lambda: gui.app.seats is not None)
    gui.tap(gui.screen.ids.phones)
    gui.pump(0.2)
    shown = panel(gui)
    assert shown.wifi_step and "Table Wi-Fi" in shown.message and shown.qr is not None
    gui.screenshot("table-phones-wifi-qr")
    gui.tap(shown.ids.wifi_next)
    assert not shown.wifi_step and "QR" in shown.message and shown.qr is not None


def test_a_phone_gone_mid_game_never_holds_the_table_hostage(gui, page):
    """Issue 42: Aki's phone goes while it places a 九九戦艦 fleet (the table may not act for a
    phone's seat).  The table says so (its phones button, the panel: since when) and, each
    behind a second tap, plays Aki's seat itself until the phone is back (which then has its
    seat again, with what the table placed) or hands it to another phone (the old phone,
    back again, is told)."""
    from companion.play.controller import TABLE

    gui.tap(gui.tile("kuku"))
    kuku, app = gui.screen, gui.app
    kuku.controller.act(TABLE, "choose", {"opponent": "2p"})
    kuku.controller.act(TABLE, "start", ["Aki", "Ben"])
    until(gui, page, lambda: app.seats is not None and app.seats.room.game_id is not None)
    room, base = app.seats.room, f"http://127.0.0.1:{app.seats.port}"
    page.goto(room.join_url(base))
    until(gui, page, lambda: page.locator(".list button").count() == 3)
    page.locator(".list button").nth(0).click()
    until(gui, page, lambda: room.claimed() == {0: True} and page.locator(".keys.pad button").count() == 9)
    phones = kuku.ids.cover_panel.ids.phones
    assert kuku.cover_text == "Benに画面を渡してください" and phones.text == "電話"  # Ben may place meanwhile
    context = page.context
    idle = context.new_page()  # a blank tab to wait with
    page.close()  # Aki's phone is gone (its socket closed; a silent one is cut after 8 s)
    until(gui, idle, lambda: set(room.away()) == {0})
    assert phones.text == "電話！" and not kuku.ids.cover_panel.ids.button.disabled  # said; Ben's cover still opens

    gui.tap(phones)
    gui.pump(0.2)
    shown = panel(gui)
    aki = list(reversed(shown.ids.rows.children))[0]
    assert aki.state == "電話が切れています" and aki.away
    assert aki.detail.startswith(time.strftime("%H:")) and "から (0 分)。" in aki.detail
    gui.screenshot("table-phones-gone")
    gui.tap(aki.ids.lend)
    assert "を卓で打ちますか" in shown.asked.question and room.lent == set()  # asked first
    gui.screenshot("table-phones-gone-ask")
    gui.tap(shown.asked.ids.yes)
    assert room.lent == {0} and phones.text == "電話"
    shown.dismiss()
    gui.pump(0.1)
    until(gui, idle, lambda: kuku.cover_text == "Akiに画面を渡してください")  # the table may place Aki's fleet
    gui.tap(kuku.ids.cover_panel.ids.button)
    assert kuku.stage == "place" and kuku.private_seat == 0
    gui.screenshot("table-kuku-lent-placing")
    gui.tap_cell(kuku.grid, "9×9")
    assert len(kuku.controller.session.state.fleets[0]) == 1  # placed at the table, kept

    back = context.new_page()  # Aki's phone is back: its key brings its seat and the ship placed
    back.goto(base + "/")
    until(gui, back, lambda: room.claimed() == {0: True} and room.lent == set())
    assert kuku.controller.remote == {0}
    until(gui, back, lambda: back.locator(".keys.pad button").count() == 9)
    assert "1" in back.locator("#who").inner_text()

    back.close()
    until(gui, idle, lambda: set(room.away()) == {0})
    gui.tap(phones)
    gui.pump(0.2)
    shown = panel(gui)
    gui.tap(list(reversed(shown.ids.rows.children))[0].ids.release)
    assert "電話を解除しますか" in shown.asked.question and room.claimed() == {0: False}
    gui.tap(shown.asked.ids.yes)
    assert room.claimed() == {} and shown.qr is not None  # another phone may join by the QR
    late = context.new_page()
    late.goto(base + "/")
    until(gui, late, lambda: "別の電話に渡しました" in late.locator("#status").inner_text())
