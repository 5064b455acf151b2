"""An evening of Battleship (海戰棋): a whole game against the computer and one between two
players behind the cover, from the home tile to the victory, by touch: fleets placed by hand
or at random, shots aimed on the sea and fired (one a turn or a salvo), each result read and
gone on from, a peek at one's own fleet against the computer.  No fleet but its owner's is
ever on the table (the leak check after every shot).  The seeded player aims at the other
fleet mostly (the test knows it, the table never shows it) so that a game ends in minutes."""

import pytest
from test_battleship_screen_helpers import assert_no_leak

from companion.games.battleship.fleet import CELLS


def place(player, screen) -> None:
    if player.chance(0.5) and screen._fits:  # the first ship by hand, where it fits
        if player.chance(0.5):
            player.tap(screen.ids.rotate)
        if screen._fits:
            player.tap_cell(screen.grid, player.pick(sorted(screen._fits)))
    if not screen.can_done:
        player.tap(screen.ids.random_fleet)
    assert screen.can_done
    player.tap(screen.ids.done)


def fire(player, screen) -> None:
    state = screen.session.state
    shooter = state.turn
    called = state.called(shooter)
    ships = [c for c in state.fleet_cells(1 - shooter) if c not in called]
    free = [c for c in range(CELLS) if c not in called]
    shots = state.shots_allowed() if state.salvo else 1
    for _ in range(shots):
        choices = [c for c in (ships if player.chance(0.6) else free) if c not in state.called(shooter)] or \
            [c for c in free if c not in screen.session.state.called(shooter)]
        player.tap_cell(screen.grid, player.pick(choices))
        state = screen.session.state
    assert screen.can_bottom, screen.notice_text
    player.tap(screen.ids.bottom)
    assert_no_leak(player.gui, screen)


def play_to_the_end(player, screen) -> None:
    controller = screen.controller
    for _ in range(2000):
        if controller.session.state.is_over():
            return
        player.settle(screen)
        stage = screen.stage
        if stage == "cover":
            player.tap(screen.ids.cover_panel.ids.button)
        elif stage == "place":
            place(player, screen)
        elif stage == "result":
            assert screen.news_text and screen.result_title
            player.tap(screen.ids.continue_button)
        elif stage == "play" and screen.can_bottom or screen.grid.interactive:
            if controller.peek_seat() is None and controller.opponent == "cpu" and player.chance(0.05):
                player.tap(screen.ids.toggle_board)  # a look at my own fleet under its shots
                assert screen.grid.ships
                assert_no_leak(player.gui, screen)
                player.tap(screen.ids.toggle_board)
            fire(player, screen)
    raise AssertionError(f"no end after 2000 steps (stage {screen.stage})")


@pytest.mark.parametrize("opponent", ["cpu", "2p"])
def test_a_whole_game(player, opponent):
    gui = player.gui
    player.tap(gui.tile("battleship"))
    screen = gui.screen
    player.tap(screen.ids[f"opp_{opponent}"])
    player.tap(screen.ids[player.pick(["variant_standard", "variant_salvo"])])
    player.tap(screen.ids[player.pick(["advanced_off", "advanced_on"])])
    if opponent == "cpu":
        player.tap(screen.ids[player.pick(["level_easy", "level_normal", "level_hard"])])
    else:
        screen.ids.name_0.text, screen.ids.name_1.text = "Aki", "Ben"  # typed on the keyboard
    player.tap(screen.ids[player.pick(["first_0", "first_1"])])
    player.tap(screen.ids.start)
    play_to_the_end(player, screen)
    while screen.stage == "result":
        player.settle(screen)
        player.tap(screen.ids.continue_button)
    player.settle(screen)  # a person sees the last shot before pressing on (a tap sooner is held)
    assert "勝ち" in screen.status_text and screen.can_bottom
    assert_no_leak(gui, screen)
    gui.screenshot(f"battleship-{opponent}-over")
    player.tap(screen.ids.bottom)  # 新しいゲーム
    assert screen.stage == "setup"
