"""Weight classes: what a kind of load weighs, and how much loads of one kind differ.

The judge identifies a pan's load by matching its weight against a table of
classes (name -> PieceClass).  Which tables exist is the games' business
(companion/games/gunkan/pieces.py); a calibration replaces one with measured
means and spreads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

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
