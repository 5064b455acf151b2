"""Weight classes: what a kind of load weighs, and how much loads of one kind differ.

The judge identifies a pan's load by matching its weight against a table of
classes (name -> PieceClass).  Which tables exist is the games' business
(companion/games/gunkan/pieces.py); a calibration replaces one with measured
means and spreads.  Classes a scale cannot tell apart form a group (`build_groups`), with
the band of weights that identifies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

COMBINE = "+"  # "submarine+counterweight": pieces stacked on one pan
AMBIGUOUS = "|"  # joins the names of classes that weigh the same


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

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mass_g": self.mass_g, "spread_g": self.spread_g}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PieceClass":
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


@dataclass(frozen=True)
class ClassGroup:
    """Classes a scale cannot tell apart, and the band of weights that identifies them."""

    members: tuple[PieceClass, ...]
    low: float  # lightest possible piece
    high: float  # heaviest possible piece
    accept_low: float
    accept_high: float

    @property
    def name(self) -> str:
        return AMBIGUOUS.join(c.name for c in self.members)

    def fits(self, low: float, high: float) -> bool:
        return self.accept_low <= low and high <= self.accept_high

    def centred(self, low: float, high: float, margin: float) -> bool | None:
        """Whether [low, high] lies within a member's spread widened by `margin` (where its pieces
        weigh, not only what its band lets in: a finger on a lighter piece lands anywhere in it);
        False when it lies clear of every member's, None when it straddles an edge."""
        cores = [(c.low - margin - 1e-9, c.high + margin + 1e-9) for c in self.members]  # (1e-9: rounding)
        if any(lo <= low and high <= hi for lo, hi in cores):
            return True
        return False if all(low > hi or high < lo for lo, hi in cores) else None

    def overlaps(self, other: "ClassGroup") -> bool:
        return self.low <= other.high and other.low <= self.high


def build_groups(classes: Iterable[PieceClass], accept_fraction: float) -> list[ClassGroup]:
    """Merge classes whose spreads overlap; give each group its acceptance band."""
    spans: list[list[Any]] = []  # [members, low, high] per group
    for c in sorted(classes, key=lambda c: c.low):
        if spans and c.low <= spans[-1][2]:
            spans[-1][0].append(c)
            spans[-1][2] = max(spans[-1][2], c.high)
        else:
            spans.append([[c], c.low, c.high])
    if not spans:
        raise ValueError("the judge needs at least one piece class")
    gaps = [b[1] - a[2] for a, b in zip(spans, spans[1:])]
    edge = accept_fraction * min(gaps) if gaps else 1.0
    below = [edge] + [accept_fraction * g for g in gaps]
    above = [accept_fraction * g for g in gaps] + [edge]
    return [ClassGroup(tuple(sorted(m, key=lambda c: c.name)), lo, hi, lo - b, hi + a)
            for (m, lo, hi), b, a in zip(spans, below, above)]
