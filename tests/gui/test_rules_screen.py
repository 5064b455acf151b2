"""Help in the app (issue 29, finding 9): a rules page per game from Home, in Japanese and
English, readable at 800×480 and scrolled through; the 軍艦将棋 screen opens its own page
(its first game, the battle sequence, 仮想駒) and shows the judging in use."""

import pytest
import word_breaks

from companion.ui.tiles import tiles


def read_through(gui, screen, name):
    """Every part of the page on screen once, each checked: layout and whole words."""
    scroll = screen.ids.scroll
    scroll.scroll_y = 1
    gui.screenshot(name)
    while scroll.scroll_y > 0:
        scroll.scroll_y = max(0, scroll.scroll_y - scroll.height / max(1, scroll.children[0].height - scroll.height))
        gui.pump(0.05)
        gui.check_layout()
        assert not word_breaks.problems(gui.app), word_breaks.problems(gui.app)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_game_has_its_rules_page_from_home(gui, lang):
    gui.app.lang = lang
    gui.app.show_home()
    gui.pump(0.1)
    gui.tap(gui.screen.ids.rules)
    screen = gui.screen
    assert screen.name == "rules" and "back" not in screen.tab_buttons  # from Home: Home goes back
    for tile in tiles():
        gui.tap(screen.tab_buttons[tile.kind])
        assert screen.kind == tile.kind and screen.blocks[0].kind == "title"
        read_through(gui, screen, f"{lang}-{tile.kind}")
    texts = gui.texts(screen)
    assert ("三目並べ" if lang == "ja" else "Ultimate Tic-Tac-Toe") in texts
    gui.tap(screen.tab_buttons["kuku"])
    assert ("九九ボム" if lang == "ja" else "product bomb") in gui.texts(screen)


def test_the_gunkan_screen_opens_its_page_and_shows_the_judging(gui):
    gui.tap(gui.tile("gunkan"))
    gunkan = gui.screen
    assert gunkan.judging_text == ""  # not chosen yet
    assert "はじめてのゲーム" in gunkan.detail_text  # the walkthrough is offered where a game begins
    gui.screenshot("gunkan-start-ja")
    gui.tap(gunkan.ids.bar.ids.rules)
    rules = gui.screen
    assert rules.name == "rules" and rules.kind == "gunkan"
    headings = [b.text for b in rules.blocks if b.kind == "heading"]
    assert headings[:3] == ["はじめてのゲーム", "コンパニオンでの戦闘の手順", "仮想駒"]  # the walkthrough first
    gui.tap(rules.tab_buttons["back"])
    assert gui.screen is gunkan
    gui.wait_until(lambda: "mode:identify" in gunkan.action_buttons, what="the judging buttons")
    gui.tap(gunkan.action_buttons["mode:identify"])
    assert gunkan.ids.judging.text == "駒識別判定"
    gui.screenshot("gunkan-judging-ja")
    gui.app.lang = "en"
    gunkan.refresh()
    gui.pump(0.1)
    assert gunkan.ids.judging.text == "Judging: identify"
    gui.screenshot("gunkan-judging-en")


def test_a_tab_opens_its_page_at_the_top_after_a_finger_scrolled_the_last(gui):
    """A group scrolls a page with a finger, then opens another game's tab: the new page starts at
    its title (the scroll's momentum once carried the old position over: 九九戦艦 opened mid-page)."""
    from kivy.tests.common import UnitTestTouch
    gui.tap(gui.screen.ids.rules)
    screen = gui.screen
    x0, y0, x1, y1 = *screen.ids.scroll.to_window(*screen.ids.scroll.pos), *screen.ids.scroll.to_window(
        screen.ids.scroll.right, screen.ids.scroll.top)
    x, y = (x0 + x1) / 2, y0 + 40
    touch = UnitTestTouch(x, y)  # a finger draws the page up, as a flick
    touch.touch_down()
    for i in range(1, 9):
        gui.pump(0.01)
        touch.touch_move(x, y + 30 * i)
    touch.touch_up()
    gui.pump(0.4)
    assert screen.ids.scroll.scroll_y < 1  # the page moved
    gui.tap(screen.tab_buttons["kuku"])
    gui.pump(1.0)  # the momentum would have run out
    assert screen.ids.scroll.scroll_y == pytest.approx(1), "the new page opened mid-way"
    gui.screenshot("kuku-tab-after-a-flick")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_opened_from_a_game_every_tab_and_back_keep_their_words_on_one_line(gui, lang):
    """"Back to the game" wrapped onto a second line, out of its 48 px (en); a seventh button
    (a sixth game, tests/gui/test_game_folder_screens.py) squeezed ネイバルウォー out of its tab."""
    gui.app.lang = lang
    gui.app.show_rules("navalwar", "home")  # as a game screen's Rules button opens it
    gui.pump(0.1)
    gui.check_layout()
    buttons = gui.screen.tab_buttons.values()
    assert all(b.texture_size[1] < 40 for b in buttons)  # one line each
    gui.screenshot(f"rules-from-a-game-{lang}")
