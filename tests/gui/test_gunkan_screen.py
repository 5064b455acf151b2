"""Gunkan Shogi referee: whole battles through the real screen, pieces placed with the virtual tray."""

import pytest


@pytest.fixture
def gunkan(gui):
    gui.tap(gui.tile("gunkan"))
    assert gui.screen.name == "gunkan"
    return gui.screen


def tap_action(gui, screen, name):
    gui.tap(screen.action_buttons[name])


def place(gui, screen, pan, piece):
    """Open the tray, choose the pan, put a piece on it; the tray closes."""
    gui.tap(screen.ids.tray)
    tray = screen.dialog
    gui.tap(tray.buttons[f"pan:{pan}"])
    gui.tap(tray.buttons[piece])
    assert tray.parent is None  # closed: the shared screen names no piece


def empty_pans(gui, screen):
    gui.tap(screen.ids.tray)
    gui.tap(screen.dialog.buttons["clear"])
    gui.wait_until(lambda: screen.stage == "idle", what="the pans to be empty")


def wait_battles(gui, screen, n):
    gui.wait_until(lambda: len(screen.session.state.battles) == n, timeout=10, what=f"battle {n}'s verdict")


def test_seesaw_game(gui, gunkan):
    gui.screenshot("01-start")
    tap_action(gui, gunkan, "mode:seesaw")
    gui.screenshot("02-idle")
    tap_action(gui, gunkan, "attack:0")
    place(gui, gunkan, "L", "battleship")
    gui.screenshot("03-declare")
    tap_action(gui, gunkan, "declare:ship")
    gui.screenshot("04-counterweight")
    tap_action(gui, gunkan, "counterweight:off")
    place(gui, gunkan, "R", "cruiser")
    gui.wait_until(lambda: gunkan.weighing, what="weighing")
    gui.screenshot("05-weighing")
    wait_battles(gui, gunkan, 1)
    gui.screenshot("06-verdict")
    assert gunkan.session.state.battles[-1].verdict == "attacker_wins"
    empty_pans(gui, gunkan)
    gui.screenshot("07-idle-after")
