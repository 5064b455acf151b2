"""An evening of Ultimate Tic-Tac-Toe by what is drawn: a whole game against each level of the
computer and one between two players, each from the home tile to its result, every move a
touch on a cell of the board drawn (a random legal cell, seeded), then a look back through the
review.  Every button is found by its words on the screen; after every touch the player's
checks run (tests/evening/player.py), and the name of the player to move is drawn."""

import pytest

import musts


def play_to_the_end(player, screen) -> None:
    controller = screen.controller
    while not controller.session.state.is_over():
        player.settle(screen)
        if controller.session.state.is_over():
            break
        cells = controller.session.state.legal_cells()
        before = len(controller.session.actions)
        player.touch_cell(player.pick(cells))
        assert len(controller.session.actions) > before, "a legal cell touched did not play"


@pytest.mark.parametrize("mode", ["easy", "medium", "hard", "2p"])
def test_a_whole_game(player, mode):
    gui = player.gui
    player.open_game("uttt")
    screen = gui.screen
    player.musts = musts.two_players(screen)
    with player.evening():
        if mode != screen.mode:
            player.press_key({"2p": "uttt_ui.two_players"}.get(mode, f"uttt_ui.{mode}"))
        assert screen.mode == mode and not screen.session.actions or mode == "2p"
        play_to_the_end(player, screen)
        assert screen.reviewing and screen.result_text
        gui.screenshot(f"uttt-{mode}-over")
        for _ in range(player.rng.randint(1, 3)):  # a look back, then forward again
            player.press("◀")
        player.press("▶")
        assert screen.review_text
        player.press_key("uttt_ui.another_game")  # the next game starts at once: the last one is over
        assert not screen.reviewing
