"""An evening of Battleship (海戰棋) by what is drawn: a whole game against the computer and one
between two players behind the cover, from the home tile to the victory, by touch: fleets placed
by hand or at random, shots aimed on the sea drawn and fired (one a turn or a salvo), each result
read and gone on from, a peek at one's own fleet against the computer.  Every button is found by
its words on the screen; after every touch the player's checks run (tests/evening/player.py),
with the player to move named and the ships-afloat line drawn.  No fleet but its owner's is ever
on the table (the leak check after every shot).  The seeded player aims at the other fleet
mostly (the test knows it, the table never shows it) so that a game ends in minutes."""

import pytest
from test_battleship_screen_helpers import assert_no_leak

import musts
from companion.games.battleship.fleet import CELLS


def place(player, screen) -> None:
    if player.chance(0.5) and screen._fits:  # the first ship by hand, where it fits
        if player.chance(0.5):
            player.press(screen.ids.rotate.text)  # the words the rotate button shows
        if screen._fits:
            player.touch_cell(player.pick(sorted(screen._fits)))
    if not screen.can_done:
        player.press_key("battleship.place_random")
    assert screen.can_done
    player.press_key("battleship_ui.fleet_done")


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
        player.touch_cell(player.pick(choices))
        state = screen.session.state
    assert screen.can_bottom, screen.notice_text
    player.press(screen.bottom_text, near=(800, 0))  # the foot's (the bar may say 新しいゲーム too)
    assert_no_leak(player.gui, screen)


def play_to_the_end(player, screen) -> None:
    controller = screen.controller
    for _ in range(2000):
        if controller.session.state.is_over():
            return
        player.settle(screen)
        stage = screen.stage
        if stage == "cover":
            player.press(screen.ids.cover_panel.button_text)  # the words its button shows
        elif stage == "place":
            place(player, screen)
        elif stage == "result":
            assert screen.news_text and screen.result_title
            player.press(screen.continue_text)
        elif stage == "play" and screen.can_bottom or screen.grid.interactive:
            if controller.peek_seat() is None and controller.opponent == "cpu" and player.chance(0.05):
                player.press(screen.ids.toggle_board.text)  # a look at my own fleet under its shots
                assert screen.grid.ships
                assert_no_leak(player.gui, screen)
                player.press(screen.ids.toggle_board.text)
            fire(player, screen)
    raise AssertionError(f"no end after 2000 steps (stage {screen.stage})")


@pytest.mark.parametrize("opponent", ["cpu", "2p"])
def test_a_whole_game(player, opponent):
    gui = player.gui
    player.open_game("battleship")
    screen = gui.screen
    player.musts = musts.two_players(screen, lists=("afloat",))
    with player.evening():
        player.press_key(f"battleship_ui.opp_{opponent}")
        player.press_key(player.pick(["battleship.variant_standard", "battleship_ui.salvo"]))
        player.press_key(player.pick(["battleship_ui.hits_named", "battleship_ui.hits_unnamed"]))
        if opponent == "cpu":
            player.press_key(player.pick(["battleship.level_easy", "battleship.level_normal", "battleship.level_hard"]))
        else:
            screen.ids.name_0.text, screen.ids.name_1.text = "Aki", "Ben"  # typed on the keyboard
        firsts = [d for d in player.row(player.tr("battleship.option_first")) if d.text]
        player.touch(player.pick(firsts))
        player.press_key("battleship_ui.start")
        play_to_the_end(player, screen)
        while screen.stage == "result":
            player.settle(screen)
            player.press(screen.continue_text)
        player.settle(screen)  # a person sees the last shot before pressing on (a tap sooner is held)
        assert "勝ち" in screen.status_text and screen.can_bottom
        assert_no_leak(gui, screen)
        gui.screenshot(f"battleship-{opponent}-over")
        player.press(screen.bottom_text, near=(800, 0))  # 新しいゲーム, the big one at the foot
        assert screen.stage == "setup"
