"""Against the computer the sea lights one aim at most, only on the grid its shot is for,
and never beside the gold rings of the volley before: gold marks either the volley
being entered or the last one fired.  Checked after every tap and while the computer
thinks (its thread held open), at every level, one shot a turn and salvo."""

from __future__ import annotations

import threading

import pytest
from test_battleship_screen_helpers import open_and_start, tap_cell

from companion.games.battleship.controller import BattleshipController
from companion.games.battleship.fleet import CELLS


@pytest.fixture
def held(monkeypatch):
    """The computer thinks only once the test lets it (`held.set()`)."""
    gate = threading.Event()
    think_of = BattleshipController.thinker

    def thinker(self, seat):
        think = think_of(self, seat)
        return lambda: gate.wait(20) and think()
    monkeypatch.setattr(BattleshipController, "thinker", thinker)
    return gate


def check_aim(gui, screen) -> None:
    gui.pump(0.05)  # frames drawn as they are
    grid, state = screen.grid, screen.session.state
    lit, entering = grid.lit, "?" in grid.drawn
    assert len(lit) <= 1, f"{len(lit)} aims lit at once: {lit}"
    assert not ((lit or entering) and grid.rings), f"an aim {lit} beside the last volley's rings {grid.rings}"
    if lit or entering:
        assert not screen.thinking
        assert state.turn == 0 and screen.caption_text == screen.tr(
            "battleship_ui.board_of", player=screen.tr("battleship_ui.you"))


def let_it_think(gui, screen, gate) -> None:
    for _ in range(2):
        check_aim(gui, screen)
    gate.set()
    gui.settle(screen)
    gate.clear()
    check_aim(gui, screen)


@pytest.mark.parametrize("variant", ["variant_standard", "variant_salvo"])
@pytest.mark.parametrize("level", ["level_easy", "level_normal", "level_hard"])
def test_one_aim_at_most_while_the_computer_thinks(gui, held, level, variant):
    gui.app.lang = "en" if level == "level_normal" else "ja"  # both languages, half the runs each
    screen = open_and_start(gui, "opp_cpu", level, variant)
    screen.rng.seed(f"{level} {variant}")  # the fleets and the computer's shots, run to run
    gui.tap(screen.ids.random_fleet)
    gui.tap(screen.ids.done)
    let_it_think(gui, screen, held)
    for turn in range(3):
        state = screen.session.state
        free = [c for c in range(CELLS) if c not in state.called(0)]
        if state.salvo:
            for cell in free[:state.shots_allowed()]:
                tap_cell(gui, screen, cell)
                check_aim(gui, screen)
            gui.screenshot(f"{turn}-entered")
            gui.tap(screen.ids.bottom)
        else:
            tap_cell(gui, screen, free[0])
            check_aim(gui, screen)
            gui.screenshot(f"{turn}-aiming")
            tap_cell(gui, screen, free[1])
            check_aim(gui, screen)
            if turn == 1:
                gui.tap(screen.ids.bottom)
            else:
                tap_cell(gui, screen, free[1])
        gui.screenshot(f"{turn}-thinking")
        let_it_think(gui, screen, held)
