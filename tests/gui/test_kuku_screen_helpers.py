"""Shared steps of the 九九戦艦 GUI tests: touches on the board and keypad, the leak check."""

from __future__ import annotations

import re

from companion.games.kuku.display import own_seat
from companion.games.kuku.rules import ship_of


def tap_cell(gui, screen, cell: str) -> None:
    gui.tap_cell(screen.grid, cell)


def type_keys(gui, screen, text: str) -> None:
    for key in text:
        gui.tap(screen.keypad.keys[key])


def open_and_start(gui, *option_ids: str, names=("", "")):
    """Open the tile, press the start panel's options by id, type the names, then Start."""
    gui.tap(gui.tile("kuku"))
    screen = gui.screen
    assert screen.name == "kuku" and screen.stage == "setup"
    for option in option_ids:
        gui.tap(screen.ids[option])
    screen.ids.name_0.text, screen.ids.name_1.text = names
    gui.tap(screen.ids.start)
    return screen


def assert_no_leak(gui, screen) -> None:
    """No fleet on screen but its owner's, during their private placement step.

    Every secret ship (`state.secrets(seat)`, "1:leader@4×6") is checked: never
    in any text in the rules' spelling, its cell never named in a text unless
    that cell was attacked or is being said, and never drawn as a ship
    (the grid's `drawn`) outside the owner's placement step, or, against the
    computer, the table's own fleet its player asked to see.
    """
    screen.grid.redraw()  # what the next frame draws
    state, texts, drawn = screen.session.state, gui.texts(screen), screen.grid.drawn
    peek = own_seat(screen.controller) if screen.peeking else None  # against the computer: mine, asked for
    mine = dict(state.fleets[peek]) if peek is not None else {}
    named = set(state.attacked()) | {screen.keypad.entry}
    if state.phase == "list":
        named |= set(state.pending["listing"])
    for seat in (0, 1):
        private = screen.stage == "place" and screen.private_seat == seat
        for secret in state.secrets(seat):
            kind, cell = ship_of(secret)
            assert secret not in texts, f"{secret} in a text at stage {screen.stage}"
            assert not re.search(rf"(?<!\d){re.escape(cell)}(?!\d)", texts) or cell in named, \
                f"{secret} named on screen at stage {screen.stage}"
            if not private and seat != peek:  # a cell both fleets hold shows the peeker's own ship
                own = {"L" if mine[cell] == "leader" else "N"} if cell in mine else set()
                assert set(drawn[cell]) & {"N", "L"} <= own, f"{secret} drawn at stage {screen.stage}"
    ships = {cell for cell, mark in drawn.items() if set(mark) & {"N", "L"}}
    if screen.stage == "place" or peek is not None:
        assert ships <= {cell for cell, _ in state.fleets[screen.private_seat if peek is None else peek]}
    elif not state.is_over():
        assert not ships and not screen.grid.ships
