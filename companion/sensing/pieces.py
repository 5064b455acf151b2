"""Piece classes: what each kind of piece weighs, and how much pieces of one kind differ.

The judge identifies a pan's load by matching its weight against a table of
classes.  The default table is the Gunkan Shogi set (grams); a calibration
(companion/sensing/calibration.py) replaces it with measured means and spreads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

COUNTERWEIGHT = "counterweight"
SUBMARINE = "submarine"
COMBINE = "+"  # "submarine+counterweight": pieces stacked on one pan


@dataclass(frozen=True, slots=True)
class PieceClass:
    """A kind of load: its nominal mass and the half-width of its spread.

    Every piece of the class weighs within `mass_g ± spread_g`.
    """

    name: str
    mass_g: float
    spread_g: float

    @property
    def low(self) -> float:
        return self.mass_g - self.spread_g

    @property
    def high(self) -> float:
        return self.mass_g + self.spread_g

    def to_json(self) -> dict:
        return {"name": self.name, "mass_g": self.mass_g, "spread_g": self.spread_g}

    @classmethod
    def from_json(cls, data: Mapping) -> "PieceClass":
        return cls(str(data["name"]), float(data["mass_g"]), float(data["spread_g"]))


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


def stack(classes: Iterable[PieceClass]) -> PieceClass:
    """Several pieces on one pan: masses and spreads add."""
    classes = list(classes)
    return PieceClass(
        COMBINE.join(c.name for c in classes),
        sum(c.mass_g for c in classes),
        sum(c.spread_g for c in classes),
    )


def resolve(name: str, table: Mapping[str, PieceClass]) -> PieceClass:
    """The class of a piece name, or of a stack such as "submarine+counterweight"."""
    try:
        parts = [table[part] for part in name.split(COMBINE)]
    except KeyError as exc:
        known = ", ".join(sorted(table))
        raise KeyError(f"unknown piece {exc.args[0]!r}; known pieces: {known}") from None
    return parts[0] if len(parts) == 1 else stack(parts)


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
