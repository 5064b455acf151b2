"""What each seat and the shared screen may see of a Battleship position (RULES.md §4).

`SeatViews` gives `BattleshipState` its views and secrets.  A seat's own fleet is
spelled `own_cell` ("0:C3"), so that no cell of a fleet can read like a shot at the
other sea ("C3") in a check across seats.
"""

from __future__ import annotations

from companion.games.battleship.fleet import LENGTH, NAMES, SIZE, label, run


class SeatViews:
    """The views of a `BattleshipState` (its fields and facts are the rules')."""

    def view(self, seat: int | None) -> dict:
        """The shared screen (seat None), plus the seat's own fleet for a seat.

        boards[s] is seat s's target grid: the shots s fired at the other sea.
        grid characters: "." not called, "?" called this turn, "o" miss,
        "x" hit, "#" hit on a ship known to be sunk.
        """
        outcome = self.outcome()
        view = {
            "game": self.game,
            "options": dict(self.options),
            "phase": self.phase(),
            "to_move": self.to_move(),
            "turn": self.turn,
            "pending": [label(c) for c in self.pending],
            "shots_allowed": self.shots_allowed() if self.phase() == "shoot" else 0,
            "placed": [len(f) for f in self.fleets],
            "boards": [self._target_view(s) for s in (0, 1)],
            "winner": outcome.winner if outcome else None,
        }
        if seat is not None and self.referee:
            view["fleet"] = self._fleet_view(seat)
            view["to_place"] = self.to_place(seat)
        return view

    def _public_shot(self, shot: tuple) -> dict:  # a stored shot: (cell, result, ship, volley)
        cell, result, ship, volley = shot
        named = ship is not None and (result == "sunk" or not self.options["advanced"])
        return {"cell": label(cell), "result": result, "volley": volley,
                **({"ship": ship} if named else {})}

    def _target_view(self, shooter: int) -> dict:
        public = [self._public_shot(s) for s in self.shots[shooter]]
        sunk = self.sunk(shooter)
        rows = [["."] * SIZE for _ in range(SIZE)]
        for shot, seen in zip(self.shots[shooter], public):
            r, c = divmod(shot[0], SIZE)
            known_sunk = seen["result"] == "sunk" or seen.get("ship") in sunk
            rows[r][c] = "o" if shot[1] == "miss" else "#" if known_sunk else "x"
        if shooter == self.turn:
            for cell in self.pending:
                rows[cell // SIZE][cell % SIZE] = "?"
        last = public[-1]["volley"] if public else None
        return {"shots": public, "grid": ["".join(row) for row in rows], "sunk": sunk,
                "afloat": len(NAMES) - len(sunk), "count": len(public),
                "last": [s for s in public if s["volley"] == last]}

    def _fleet_view(self, seat: int) -> list[dict]:
        """Seat's own ships; their cells spelled `own_cell` ("0:C3"), hits among them."""
        hit = {c for c, result, _, _ in self.shots[1 - seat] if result != "miss"}
        sunk = set(self.sunk(1 - seat))
        return [{"ship": ship, "dir": d,
                 "cells": [own_cell(seat, c) for c in run(start, LENGTH[ship], d)],
                 "hits": [own_cell(seat, c) for c in run(start, LENGTH[ship], d) if c in hit],
                 "sunk": ship in sunk}
                for ship, start, d in self.fleets[seat]]

    def secrets(self, seat: int) -> list[str]:
        """Seat's ship cells not hit yet, spelled as its fleet view spells them."""
        if not self.referee:
            return []  # tracker: the fleets never enter the companion
        hit = {shot[0] for shot in self.shots[1 - seat]}
        return [own_cell(seat, c) for c in self.fleet_cells(seat) if c not in hit]


def own_cell(seat: int, cell: int) -> str:
    """A cell of seat's own sea as views spell it: "0:C3".

    Target grids (public) name cells of the enemy sea plainly ("C3"); the
    prefix keeps a fleet cell from ever reading like a shot at the other sea.
    """
    return f"{seat}:{label(cell)}"
