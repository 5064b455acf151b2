"""What each screen of Battleship may show: the one gate for its hidden information.

The table's view holds the target grids (the shots each seat fired and the answers);
a seat's view adds its own fleet, its cells spelled with the seat ("0:C3", `own_cell`)
so that `secrets(seat)` lists them verbatim and none reads like a shot at the other sea.
"""

from __future__ import annotations

from companion.games.battleship.fleet import LENGTH, NAMES, SIZE, cells_of, label


def view(state, seat: int | None) -> dict:
    """The shared screen (seat None), plus the seat's own fleet for a seat.

    boards[s] is seat s's target grid: the shots s fired at the other sea.
    grid characters: "." not called, "?" called this turn, "o" miss,
    "x" hit, "#" hit on a ship known to be sunk.
    """
    outcome = state.outcome()
    view = {
        "game": state.game,
        "options": dict(state.options),
        "phase": state.phase,
        "to_move": state.to_move(),
        "turn": state.turn,
        "pending": [label(c) for c in state.pending],
        "shots_allowed": state.shots_allowed() if state.phase == "shoot" else 0,
        "placed": [len(f) for f in state.fleets],
        "boards": [_target_view(state, s) for s in (0, 1)],
        "winner": outcome.winner if outcome else None,
    }
    if seat is not None and state.referee:
        view["fleet"] = _fleet_view(state, seat)
        placed = {ship for ship, _, _ in state.fleets[seat]}
        view["to_place"] = [ship for ship in NAMES if ship not in placed]
    return view


def _public_shot(state, shot) -> dict:
    cell, result, ship, volley = shot
    named = ship is not None and (result == "sunk" or not state.options["advanced"])
    return {"cell": label(cell), "result": result, "volley": volley,
            **({"ship": ship} if named else {})}


def _target_view(state, shooter: int) -> dict:
    public = [_public_shot(state, s) for s in state.shots[shooter]]
    sunk = state.sunk(shooter)
    rows = [["."] * SIZE for _ in range(SIZE)]
    for shot, seen in zip(state.shots[shooter], public):
        r, c = divmod(shot[0], SIZE)
        known_sunk = seen["result"] == "sunk" or seen.get("ship") in sunk
        rows[r][c] = "o" if shot[1] == "miss" else "#" if known_sunk else "x"
    if shooter == state.turn:
        for cell in state.pending:
            rows[cell // SIZE][cell % SIZE] = "?"
    last = public[-1]["volley"] if public else None
    return {"shots": public, "grid": ["".join(row) for row in rows], "sunk": sunk,
            "afloat": len(NAMES) - len(sunk), "count": len(public),
            "last": [s for s in public if s["volley"] == last]}


def _fleet_view(state, seat: int) -> list[dict]:
    """Seat's own ships; their cells spelled `own_cell` ("0:C3"), hits among them."""
    hit = {c for c, result, _, _ in state.shots[1 - seat] if result != "miss"}
    sunk = set(state.sunk(1 - seat))
    return [{"ship": ship, "dir": d,
             "cells": [own_cell(seat, c) for c in cells_of(start, LENGTH[ship], d)],
             "hits": [own_cell(seat, c) for c in cells_of(start, LENGTH[ship], d) if c in hit],
             "sunk": ship in sunk}
            for ship, start, d in state.fleets[seat]]


def secrets(state, seat: int) -> list[str]:
    """Seat's ship cells not hit yet, spelled as its fleet view spells them."""
    if not state.referee:
        return []  # tracker: the fleets never enter the companion
    hit = {shot[0] for shot in state.shots[1 - seat]}
    return [own_cell(seat, c) for c in state.fleet_cells(seat) if c not in hit]


def own_cell(seat: int, cell: int) -> str:
    """A cell of seat's own sea as views spell it: "0:C3".

    Target grids (public) name cells of the enemy sea plainly ("C3"); the
    prefix keeps a fleet cell from ever reading like a shot at the other sea.
    """
    return f"{seat}:{label(cell)}"
