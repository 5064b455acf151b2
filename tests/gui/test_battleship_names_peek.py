"""Battleship's players have names (typed on the start panel, in the level's place), and a
player against the computer may look at their own fleet under the computer's shots."""

from test_battleship_screen_helpers import assert_no_leak, open_and_start


def test_two_players_names_are_typed_and_said(gui):
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    gui.tap(screen.ids.opp_2p)
    screen.ids.name_0.text, screen.ids.name_1.text = "Aki", " cpu "  # a role's word is no name
    gui.pump(0.05)
    assert screen.ids.first_0.text == "Aki"
    gui.screenshot("battleship-setup-names")
    gui.tap(screen.ids.start)
    assert screen.session.players == ["Aki", "p2"] and not screen.controller.computer_seats
    assert screen.cover_text == "Akiに画面を渡してください"
    gui.tap(screen.ids.cover_panel.ids.button)
    assert "Aki" in screen.place_title
    gui.tap(screen.ids.random_fleet)
    gui.app.show_home()
    gui.pump(0.05)
    assert "Aki 対 プレイヤー2" in gui.texts()  # Resume says who plays


def test_against_the_computer_my_fleet_shows_under_its_shots(gui):
    screen = open_and_start(gui, "opp_cpu", "level_easy")
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    gui.settle(screen)
    assert screen.stage == "play" and screen.grid.ships == []
    gui.tap(screen.ids.toggle_board)  # the computer's shots at me: my ships under them
    mine = screen.session.state.fleet_cells(0)
    assert sorted(c for ship in screen.grid.ships for c in ship) == sorted(mine)
    assert not screen.grid.interactive
    assert_no_leak(gui, screen)  # the computer's fleet is still nowhere
    gui.screenshot("battleship-own-fleet-peek")
    gui.tap(screen.ids.toggle_board)
    assert screen.grid.ships == []
