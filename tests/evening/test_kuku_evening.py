"""An evening of 九九戦艦 by what is drawn: a whole game against the computer and one between two
players behind the cover, from the home tile to the result and its review, by touch: the ships
placed on the board drawn, attacks by a touch on a cell (twice) or a product typed on the
keypad (九九ボム, every pair listed), the result stepped through.  Every button is found by its
words on the screen (the words the screen's texts say, read where they are drawn); after every
touch the player's checks run (tests/evening/player.py), and the name of the player to move and
the remaining-ships line are drawn.  The seeded player aims at the other fleet mostly (the test
knows it; the table never shows it) so that a game ends in a few minutes."""

import pytest

import musts
from companion.games.kuku.board import CELLS


def place(player, screen) -> None:
    assert screen.stage == "place"
    for cell in player.rng.sample(CELLS, 3):  # two ships and the leader, in the order offered
        player.touch_cell(cell)
    player.press_key("kuku_ui.fleet_done")


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
            player.press(key)  # the keypad's key
        player.press(screen.primary_text)
        assert screen.stage == "list", screen.notice_text
        pairs = [f"{a}×{b}" for a in range(1, 10) for b in range(1, 10) if a * b == product]
        for pair in pairs:
            player.touch_cell(pair)  # a cell touched is its pair typed
            player.press(screen.primary_text)
        player.press(screen.secondary_text)  # 言い終わり
    else:
        free = [c for c in state.unattacked() if c not in own] or state.unattacked()
        cell = player.pick(targets) if targets and roll < 0.75 else player.pick(free)
        player.touch_cell(cell)
        player.touch_cell(cell)  # the second touch on the picked cell attacks it
    assert screen.stage == "result", screen.notice_text


def play_to_the_end(player, screen) -> None:
    while screen.stage != "over":
        player.settle(screen)
        if screen.stage == "play":
            attack(player, screen)
        elif screen.stage == "result":
            assert screen.news_title, "a result with nothing said"
            player.press(screen.continue_text)
        elif screen.stage == "cover":
            player.press(screen.ids.cover_panel.button_text)  # the words its button shows
        elif screen.stage == "place":
            place(player, screen)
        else:
            assert screen.stage == "wait", screen.stage


@pytest.mark.parametrize("opponent", ["cpu", "2p"])
def test_a_whole_game(player, opponent):
    gui = player.gui
    player.open_game("kuku")
    screen = gui.screen
    player.musts = musts.two_players(screen, lists=("said",))
    with player.evening():
        player.press_key(f"kuku_ui.opp_{opponent}")
        player.press_key(player.pick(["kuku_ui.rule_basic", "kuku_ui.rule_extra"]))
        if opponent == "cpu":
            player.press_key(player.pick(["kuku_ui.level_easy", "kuku_ui.level_medium", "kuku_ui.level_hard"]))
        screen.ids.name_0.text, screen.ids.name_1.text = "Aki", "Ben"  # typed on the keyboard
        player.touch(player.pick(player.row(player.tr("kuku.option_first"))))
        player.press_key("kuku_ui.start")
        play_to_the_end(player, screen)
        assert screen.session.state.is_over() and screen.status_text
        gui.screenshot(f"kuku-{opponent}-over")
        for _ in range(player.rng.randint(1, 4)):
            player.press("◀")
        player.press("▶")
        player.press_key("kuku_ui.new")
        assert screen.stage == "setup"
