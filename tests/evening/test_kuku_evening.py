"""An evening of 九九戦艦: a whole game against the computer and one between two players
behind the cover, from the home tile to the result and its review, by touch: the ships placed
on the board, attacks by a tap on a cell (twice) or a product typed on the keypad (九九ボム,
every pair listed), the result stepped through.  The seeded player aims at the other fleet
mostly (the test knows it; the table never shows it) so that a game ends in a few minutes."""

import pytest

from companion.games.kuku.board import CELLS


def place(player, screen) -> None:
    assert screen.stage == "place"
    for cell in player.rng.sample(CELLS, 3):  # two ships and the leader, in the order offered
        player.tap_cell(screen.grid, cell)
    player.tap(screen.ids.done)


def attack(player, screen) -> None:
    """The seat to move attacks: a cell of the other fleet (mostly), any cell, or a bomb."""
    state = screen.session.state
    seat, attacked = state.to_move(), set(state.attacked())
    own = {cell for cell, _ in state.fleets[seat]}
    targets = [cell for cell, _ in state.fleets[1 - seat] if cell not in attacked and cell not in own]
    bombs = [a["product"] for a in state.legal_actions() if a["type"] == "bomb"]
    roll = player.rng.random()
    if roll < 0.12 and bombs:
        product = player.pick(bombs)
        for key in str(product):
            player.tap(screen.keypad.keys[key])
        player.tap(screen.ids.primary)
        assert screen.stage == "list", screen.notice_text
        pairs = [f"{a}×{b}" for a in range(1, 10) for b in range(1, 10) if a * b == product]
        for pair in pairs:
            player.tap_cell(screen.grid, pair)  # a cell tapped is its pair typed
            player.tap(screen.ids.primary)
        player.tap(screen.ids.secondary)  # 言い終わり
    else:
        free = [c for c in state.unattacked() if c not in own] or state.unattacked()
        cell = player.pick(targets) if targets and roll < 0.75 else player.pick(free)
        player.tap_cell(screen.grid, cell)
        player.tap_cell(screen.grid, cell)  # the second tap on the picked cell attacks it
    assert screen.stage == "result", screen.notice_text


def play_to_the_end(player, screen) -> None:
    while screen.stage != "over":
        player.settle(screen)
        if screen.stage == "play":
            attack(player, screen)
        elif screen.stage == "result":
            news = screen.news_title
            assert news, "a result with nothing said"
            player.tap(screen.ids.continue_button)
        elif screen.stage == "cover":
            player.tap(screen.ids.cover_panel.ids.button)
        elif screen.stage == "place":
            place(player, screen)
        else:
            assert screen.stage == "wait", screen.stage


@pytest.mark.parametrize("opponent", ["cpu", "2p"])
def test_a_whole_game(player, opponent):
    gui = player.gui
    player.tap(gui.tile("kuku"))
    screen = gui.screen
    player.tap(screen.ids[f"opp_{opponent}"])
    player.tap(screen.ids[player.pick(["rule_basic", "rule_extra"])])
    if opponent == "cpu":
        player.tap(screen.ids[player.pick(["level_easy", "level_medium", "level_hard"])])
    player.tap(screen.ids[player.pick(["first_0", "first_1"])])
    screen.ids.name_0.text, screen.ids.name_1.text = "Aki", "Ben"  # typed on the keyboard
    player.tap(screen.ids.start)
    play_to_the_end(player, screen)
    assert screen.session.state.is_over() and screen.status_text
    gui.screenshot(f"kuku-{opponent}-over")
    for _ in range(player.rng.randint(1, 4)):
        player.tap(screen.ids.review_prev)
    player.tap(screen.ids.review_next)
    player.tap(screen.ids.another)
    assert screen.stage == "setup"
