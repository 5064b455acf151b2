"""The sets of piece masses a builder may make, and how far apart the judge finds their ranks.

- standard: the masses the app expects until a piece calibration replaces them
  (companion/games/gunkan/pieces.py): mines 26 g and the port 30 g, above every ship,
  where only tungsten reaches.
- economy: the same ships; the mines (6 g) and the port (8 g) below the lightest ship,
  where steel reaches: nearly three quarters less tungsten.  The app does not know these masses
  until the piece calibration has weighed them (bringup.md step 10).

A set's margins are those of the judge's own classes (pieces.pan_classes, the spreads of
pieces.default_table) on each pan: for every pair, the free gap between the lighter class's
heaviest piece and the heavier class's lightest, less the scale's error on the heavier
(2·e·m), in units of the reading noise σ (pieces.md: "How far apart the ranks
must be").  A set whose pair falls under MIN_SIGMAS is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.gunkan.pieces import (COUNTERWEIGHT, COUNTERWEIGHT_SPREAD_G, DEFAULT_MASSES_G, DEFAULT_SPREAD_G,
                                           PieceClass, pan_classes)

SIGMA_G = 0.05  # g per reading: 1 kg cells behind an HX711 (pieces.md; the simulator's figure)
SCALE_ERROR = 0.005  # calibration and drift, a share of the mass (pieces.md)
MIN_SIGMAS = 6.0  # the free gap the judge needs, in σ (pieces.md)

SETS = {
    "standard": dict(DEFAULT_MASSES_G),
    "economy": {**DEFAULT_MASSES_G, "mine": 6.0, "port": 8.0},
}
DEFAULT_SET = "standard"  # what the app and the simulator use (their table is DEFAULT_MASSES_G)


def table(masses: dict[str, float]) -> dict[str, PieceClass]:
    """A set's classes, with the spreads the app's default table gives each."""
    return {name: PieceClass(name, mass, COUNTERWEIGHT_SPREAD_G if name == COUNTERWEIGHT else DEFAULT_SPREAD_G)
            for name, mass in masses.items()}


@dataclass(frozen=True)
class Margin:
    pan: str  # "attacker's" or "defender's"
    lighter: str
    heavier: str
    gap_g: float  # free gap less the scale's error

    @property
    def sigmas(self) -> float:
        return self.gap_g / SIGMA_G


def margins(masses: dict[str, float]) -> list[Margin]:
    """Every pair of classes of different masses on each pan, tightest first (not only
    neighbours: a carrier and a submarine carrying the counterweight share a mass, and
    both neighbour the battleship).  Those two weigh alike by design: their balance is
    the rule."""
    found = []
    for pan, classes in zip(("attacker's", "defender's"), pan_classes(table(masses))):
        for lighter in classes:
            for heavier in classes:
                if lighter.mass_g < heavier.mass_g:
                    gap = heavier.low - lighter.high - 2 * SCALE_ERROR * heavier.mass_g
                    found.append(Margin(pan, lighter.name, heavier.name, gap))
    return sorted(found, key=lambda m: m.gap_g)


def tightest(masses: dict[str, float]) -> Margin:
    return margins(masses)[0]


def problems(name: str, masses: dict[str, float]) -> list[str]:
    """What keeps the judge from telling a set's ranks apart, for people."""
    return [f"set {name}: on the {m.pan} pan {m.lighter} and {m.heavier} leave {m.gap_g:.2f} g "
            f"({m.sigmas:.1f}σ), under the {MIN_SIGMAS:g}σ the judge needs: move their masses apart"
            for m in margins(masses) if m.sigmas < MIN_SIGMAS]
