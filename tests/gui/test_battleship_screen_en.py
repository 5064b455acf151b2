"""Battleship in English: every panel fits, words come from the glossary, and the sea marks one volley."""

from test_battleship_screen_helpers import open_and_start, tap_cell

from companion.games.battleship.fleet import label


def test_english_game_against_the_computer(gui):
    gui.app.lang = "en"
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    gui.tap(screen.ids.opp_cpu)
    gui.tap(screen.ids.level_hard)
    assert screen.ids.opp_cpu.text == "Computer" and screen.ids.level_normal.text == "Medium"
    gui.screenshot("1-setup-en")
    gui.tap(screen.ids.start)
    assert screen.place_title == "Fleet: You"
    gui.tap(screen.ids.random_fleet)
    gui.screenshot("2-fleet-en")
    gui.tap(screen.ids.done)
    gui.settle(screen)
    tap_cell(gui, screen, "E5")
    gui.tap(screen.ids.bottom)
    gui.screenshot("3-computer-to-move-en")
    gui.settle(screen)
    # the sea shows the volley just fired once: one gold ring, no aim left behind
    assert len(screen.grid.rings) == 1 and screen.grid.aim == -1
    gui.screenshot("4-after-both-shots-en")
    while not screen.session.state.is_over():
        state = screen.session.state
        left = sorted(set(state.fleet_cells(1)) - state.called(0))
        assert screen.act("move", {"type": "shot", "cell": label(left[0])})
        gui.settle(screen)
    assert gui.texts().count("You won!") == 1  # once, and "You" takes no "wins"
    gui.screenshot("5-game-over-en")
