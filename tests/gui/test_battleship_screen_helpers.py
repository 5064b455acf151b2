"""Shared steps of the Battleship GUI tests: touches on the sea, the leak check."""

from __future__ import annotations

import re

from companion.games.battleship.fleet import index, label


def tap_cell(gui, screen, cell) -> None:
    """Tap a cell of the sea on screen, by label ("C1") or index."""
    gui.tap_cell(screen.grid, index(cell) if isinstance(cell, str) else cell)


def open_and_start(gui, *option_ids: str):
    """Open the tile, press the start panel's options by id, then Start."""
    gui.tap(gui.tile("battleship"))
    screen = gui.screen
    assert screen.name == "battleship" and screen.stage == "setup"
    for option in option_ids:
        gui.tap(screen.ids[option])
    gui.tap(screen.ids.start)
    return screen


def answer_button(screen, result: str, ship: str | None = None):
    for row in screen.ids.answers.children:
        for child in row.children:
            given = getattr(child, "answer", None)
            if given and given.get("result") == result and given.get("ship") == ship:
                return child
    raise AssertionError(f"no answer button {result} {ship}")


def _mentions(texts: str, cell: int) -> bool:
    return re.search(rf"(?<![A-Z0-9:]){label(cell)}(?!\d)", texts) is not None


def assert_no_leak(gui, screen) -> None:
    """Nothing on screen (texts, the sea as drawn) shows a fleet but its owner's placement.

    Every still-hidden ship cell (`state.secrets(seat)`) is checked: never in any
    text, in the rules' spelling or as a plain cell name (unless a shot has
    named that cell, at either sea), and never drawn as a ship outside the owner's
    private placement step.
    """
    screen.grid.redraw()  # what the next frame draws, without waiting for one
    state, texts, drawn = screen.session.state, gui.texts(screen), screen.grid.drawn
    named = state.called(0) | state.called(1) | {screen.grid.aim}  # cells a shot has named
    peek = screen.controller.peek_seat()  # against the computer: my own fleet under its shots
    peeked = set(state.fleet_cells(peek)) if peek is not None else set()
    for seat in (0, 1):
        private = screen.stage == "place" and screen.private_seat == seat
        if seat == peek:
            own = set(state.fleet_cells(seat))
            assert {c for c, mark in enumerate(drawn) if mark == "S"} <= own
            continue
        for secret in state.secrets(seat):
            cell = index(secret.split(":", 1)[1])
            assert secret not in texts
            assert not _mentions(texts, cell) or cell in named, f"{secret} named on screen"
            if not private and cell not in peeked:  # (my own ship may lie on the same cell)
                assert drawn[cell] != "S", f"{secret} drawn at stage {screen.stage}"
    if peek is not None:
        pass  # checked above: only my own ships
    elif screen.stage != "place":
        assert "S" not in drawn and not screen.grid.ships
    else:
        own = set(state.fleet_cells(screen.private_seat)) if state.referee else set()
        assert {c for c, mark in enumerate(drawn) if mark == "S"} <= own
