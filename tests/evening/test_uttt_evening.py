"""An evening of Ultimate Tic-Tac-Toe: a whole game against each level of the computer and one
between two players, each from the home tile to its result, every move a tap on the board
where a person taps (a random legal cell, seeded), then a look back through the review."""

import pytest


def play_to_the_end(player, screen) -> None:
    gui, controller = player.gui, screen.controller
    while not controller.session.state.is_over():
        player.settle(screen)
        if controller.session.state.is_over():
            break
        cells = controller.session.state.legal_cells()
        before = len(controller.session.actions)
        player.tap_cell(screen.ids.board, player.pick(cells))
        assert len(controller.session.actions) > before, "a legal cell tapped did not play"


@pytest.mark.parametrize("mode", ["easy", "medium", "hard", "2p"])
def test_a_whole_game(player, mode):
    gui = player.gui
    player.tap(gui.tile("uttt"))
    screen = gui.screen
    if mode != screen.mode:
        player.tap(screen.ids[f"mode_{mode}"])
    assert screen.mode == mode and not screen.session.actions or mode == "2p"
    play_to_the_end(player, screen)
    assert screen.reviewing and screen.result_text
    gui.screenshot(f"uttt-{mode}-over")
    review = screen.ids.review
    for _ in range(player.rng.randint(1, 3)):  # a look back, then forward again
        player.tap(review.ids.prev)
    player.tap(review.ids.next)
    assert screen.review_text
    player.tap(screen.ids.another)  # the next game starts at once: the last one is over
    assert not screen.reviewing
