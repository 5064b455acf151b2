"""Battleship refereed by the screen: secret fleets behind a cover, shots by touch (docs/rules.md §battleship)."""

from test_battleship_screen_helpers import assert_no_leak, open_and_start, tap_cell

from companion.games.battleship.fleet import CELLS, index, label


def test_refereed_game_from_cover_to_victory_never_shows_a_fleet(gui):
    screen = open_and_start(gui)  # defaults: two players, one shot a turn, Player 1 first
    gui.screenshot("1-setup-started")
    assert screen.stage == "cover" and "プレイヤー1に画面を渡して" in screen.cover_text
    assert_no_leak(gui, screen)
    gui.screenshot("2-cover-player-1")

    # Player 1 places by touch: carrier across from A1, battleship down from C1
    gui.tap(screen.ids.cover_panel.ids.button)
    assert screen.stage == "place" and screen.selected == "carrier"
    tap_cell(gui, screen, "A1")
    assert screen.session.state.view(0)["placed"][0] == 1 and screen.selected == "battleship"
    gui.tap(screen.ids.rotate)
    touch = gui.press_at(*gui.cell_centre(screen.grid, index("C1")))  # the finger shows where it goes
    gui.pump(0.05)
    assert screen.grid.ghost == [index(c) for c in ("C1", "D1", "E1", "F1")] and screen.grid.ghost_ok
    gui.screenshot("3-placing-ghost")
    touch.touch_up()
    gui.pump(0.05)
    assert_no_leak(gui, screen)
    tap_cell(gui, screen, "A3")  # the cruiser would cross the carrier: refused, said why
    assert "重なります" in screen.notice_text
    assert screen.session.state.view(0)["placed"][0] == 2
    gui.screenshot("4-placing-refused")
    gui.tap(screen.ids.notice)
    gui.tap(screen.ids.random_fleet)
    assert screen.can_done and screen.grid.drawn.count("S") == 17
    gui.screenshot("5-fleet-placed")
    gui.tap(screen.ids.done)

    # the cover for Player 2 shows nothing of Player 1's fleet
    assert screen.stage == "cover" and "プレイヤー2" in screen.cover_text
    assert_no_leak(gui, screen)
    gui.tap(screen.ids.cover_panel.ids.button)
    assert not screen.can_undo  # Player 1's ships are not Player 2's to take back
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.place_undo)
    assert screen.session.state.view(1)["placed"][1] == 4
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    assert screen.stage == "play"
    assert_no_leak(gui, screen)
    gui.screenshot("6-battle-starts")

    # Player 1 aims, then fires with a second tap; the result step names what was met
    target = _a_ship_cell(screen, seat=1)
    tap_cell(gui, screen, target)
    assert screen.grid.aim == target and not screen.session.state.view(None)["boards"][0]["count"]
    assert_no_leak(gui, screen)
    gui.screenshot("7-aimed")
    tap_cell(gui, screen, target)
    assert screen.stage == "result"
    ship = screen.session.state.view(None)["boards"][0]["shots"][0]["ship"]
    assert f"{label(target)}\u00a0" in screen.news_text and "命中" in screen.news_text
    assert gui.app.tr(f"battleship.{ship}") in screen.news_text
    assert screen.grid.rings == [target]
    assert_no_leak(gui, screen)
    gui.screenshot("8-result-hit")
    gui.tap(screen.ids.continue_button)
    assert screen.stage == "play" and "プレイヤー2の攻撃" in screen.status_text

    # Player 2 aims and fires with the big button; a repeated cell is refused
    tap_cell(gui, screen, "J10")
    gui.tap(screen.ids.bottom)
    gui.tap(screen.ids.continue_button)
    tap_cell(gui, screen, target)
    assert "もう撃ちました" in screen.notice_text and screen.grid.aim == -1
    gui.screenshot("9-repeat-refused")

    # the rest is played through the screen, checking for leaks after every shot:
    # Player 2 aims at Player 1's ships (the test knows them), Player 1 sweeps
    order = {0: _sweep(screen, 0), 1: iter(sorted(set(screen.session.state.fleet_cells(0))))}
    while not screen.session.state.is_over():
        shooter = screen.session.state.view(None)["turn"]
        assert screen.act("move", {"type": "shot", "cell": label(next(order[shooter]))})
        assert_no_leak(gui, screen)
        if screen.stage == "result":
            screen.act("continue")
    assert "勝ち" in screen.status_text and screen.can_bottom
    assert_no_leak(gui, screen)
    gui.screenshot("10-victory")
    gui.tap(screen.ids.bottom)  # new game
    assert screen.stage == "setup" and "1勝" in screen.score_text


def _a_ship_cell(screen, seat: int) -> int:
    return min(screen.session.state.fleet_cells(seat))


def _sweep(screen, shooter: int):
    """Cells not called yet by `shooter`, in order."""
    for cell in range(CELLS):
        if cell not in screen.session.state.called(shooter):
            yield cell


def test_resuming_mid_placement_covers_the_sea_again(gui):
    screen = open_and_start(gui, "first_1")
    assert "プレイヤー2に画面を渡して" in screen.cover_text
    gui.tap(screen.ids.cover_panel.ids.button)
    tap_cell(gui, screen, "B2")
    gui.restart()
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    assert screen.stage == "cover" and screen.session.state.view(1)["placed"][1] == 1
    assert_no_leak(gui, screen)


def test_the_start_panel_over_a_game_leaves_it_as_it_was(gui):
    """Another opponent pressed on the panel, then Back: still the cover (the old screen
    read the panel's choice and showed Player 1's sea without it)."""
    screen = open_and_start(gui)
    gui.tap(screen.ids.cover_panel.ids.button)
    tap_cell(gui, screen, "A1")
    gui.tap(screen.ids.done if screen.can_done else screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    gui.tap(screen.ids.cover_panel.ids.new)
    assert screen.stage == "setup"
    gui.tap(screen.ids.opp_cpu)
    gui.tap(screen.ids.back_to_game)
    assert screen.stage == "cover" and "プレイヤー2に画面を渡して" in screen.cover_text
    assert_no_leak(gui, screen)


def test_english_panels_fit(gui):
    gui.app.lang = "en"
    screen = open_and_start(gui, "opp_tracker", "advanced_on")
    gui.screenshot("1-tracker-en")
    tap_cell(gui, screen, "E5")
    gui.tap(screen.ids.bottom)
    assert "Player 2: enter the answer for E5" in screen.status_text
    assert [row.ship for row in screen.ids.answers.children if row.height][::-1] == [
        "", "carrier", "battleship", "cruiser", "submarine", "destroyer"]
    gui.screenshot("2-answer-pad-en")
    gui.tap(screen.ids.new_game)
    gui.tap(screen.ids.opp_cpu)
    gui.screenshot("3-setup-en")
