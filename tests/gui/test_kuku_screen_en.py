"""九九戦艦 panels in English fit, and a game resumed mid-placement is covered again."""

from test_kuku_screen_helpers import assert_no_leak, tap_cell, type_keys


def test_english_panels_and_resume_behind_the_cover(gui):
    gui.app.lang = "en"
    gui.tap(gui.tile("kuku"))
    gui.tap(gui.screen.ids.opp_cpu)
    gui.screenshot("1-setup-cpu-en")
    gui.tap(gui.screen.ids.opp_2p)
    gui.tap(gui.screen.ids.start)
    screen = gui.screen
    gui.tap(screen.ids.cover_panel.ids.button)
    for cell in ("1×1", "2×2", "3×3"):
        tap_cell(gui, screen, cell)
    gui.tap(screen.ids.done)
    gui.restart()
    gui.app.lang = "en"
    gui.tap(gui.tile("kuku"))
    screen = gui.screen
    assert screen.stage == "cover" and "Blue" in screen.cover_text
    assert_no_leak(gui, screen)
    gui.screenshot("2-cover-after-restart-en")
    screen.act("open")
    for cell in ("4×4", "5×5", "6×6"):
        screen.act("cell", cell)
    screen.act("hide")
    gui.pump(0.05)  # the turn panel moves in
    assert screen.stage == "play"
    type_keys(gui, screen, "12")
    assert screen.keypad.entry == "12"
    gui.screenshot("3-play-en")
    gui.tap(screen.ids.primary)
    type_keys(gui, screen, "5×13")
    gui.tap(screen.ids.primary)
    assert "not a pair" in screen.notice_text
    gui.screenshot("4-listing-refused-en")
