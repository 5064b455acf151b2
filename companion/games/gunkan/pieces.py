"""Piece classes: what each kind of piece weighs, and how much pieces of one kind differ.

The judge identifies a pan's load by matching its weight against a table of
classes (sensing/classes.py).  The default table is the Gunkan Shogi set (grams); a calibration
(companion/sensing/calibration.py) replaces it with measured means and spreads.
"""

from __future__ import annotations

from typing import Mapping

from companion.sensing.classes import COMBINE, PieceClass, resolve, stack  # noqa: F401  (re-exported)

COUNTERWEIGHT = "counterweight"
SUBMARINE = "submarine"

DEFAULT_SPREAD_G = 0.3  # pieces of one rank may differ by up to ±0.3 g
COUNTERWEIGHT_SPREAD_G = 0.1  # the counterweight is one trimmed piece, not a batch

DEFAULT_MASSES_G = {
    "carrier": 22.0,
    "battleship": 20.0,
    "cruiser": 18.0,
    "destroyer": 16.0,
    "minesweeper": 14.0,
    "submarine": 12.0,
    "landing_ship": 10.0,
    "mine": 26.0,
    "port": 30.0,
    COUNTERWEIGHT: 10.0,  # = carrier - submarine: a submarine carrying it balances a carrier
}

SHIPS = ("carrier", "battleship", "cruiser", "destroyer", "minesweeper", "submarine", "landing_ship")


def default_table() -> dict[str, PieceClass]:
    """The Gunkan Shogi table, by name."""
    return {
        name: PieceClass(name, mass, COUNTERWEIGHT_SPREAD_G if name == COUNTERWEIGHT else DEFAULT_SPREAD_G)
        for name, mass in DEFAULT_MASSES_G.items()
    }


def pan_classes(table: Mapping[str, PieceClass]) -> tuple[list[PieceClass], list[PieceClass]]:
    """Gunkan Shogi: what may lie on the attacker's (left) and defender's (right) pan.

    Every piece but the counterweight may be on either pan; only the attacker's
    pan may carry a submarine with the counterweight on it.
    """
    pieces = [c for name, c in table.items() if name != COUNTERWEIGHT]
    left = list(pieces)
    if SUBMARINE in table and COUNTERWEIGHT in table:
        left.append(stack([table[SUBMARINE], table[COUNTERWEIGHT]]))
    return left, pieces
