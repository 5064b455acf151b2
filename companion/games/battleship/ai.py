"""The computer opponent for Battleship (海戰棋): where to shoot, where to hide.

It reads only what a player at the table knows: its own target grid and the
answers announced (`view(seat)["boards"][seat]`), never the enemy fleet.

Levels (one mechanism, three tempers), from `posterior.probabilities`:
- "easy":   4 shots in 10 at any cell, the rest drawn in proportion to the
            chance of a ship there;
- "normal": 1 in 10 at any cell, the rest in proportion to chance**3;
- "hard":   always the likeliest cell (the exact-cover posterior; see the
            bench for how it compares with the classic density shooter).
A salvo takes the best cells of one map (each drawn as above).

Fleets are drawn at random with no two ships touching, keeping the draw that
sits lowest on the prior shot-density map among a few, so a density shooter
meets its ships late while nothing else gains.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np

from companion.games.battleship.posterior import bits, probabilities
from companion.games.battleship.deduce import Shot
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, SIZE, index, label, mask_of, placements

# level -> (chance of a shot at any cell, sharpening exponent; None = the likeliest cell)
LEVELS = {"easy": (0.4, 1.0), "normal": (0.1, 3.0), "hard": (0.0, None)}
FLEET_DRAWS = 12  # random fleets compared when hiding


def record_from_view(view: dict, seat: int) -> tuple[Shot, ...]:
    """Seat's answered shots, as it saw them announced, for `probabilities`."""
    return tuple((index(s["cell"]), s["result"], s.get("ship")) for s in view["boards"][seat]["shots"])


def choose_shots(record: Sequence[Shot], count: int, level: str, rng: random.Random,
                 called: Sequence[int] = ()) -> list[int]:
    """`count` cells to fire at (one for a standard turn), best first."""
    wild, exponent = LEVELS[level]
    chance = probabilities(record)
    open_cells = np.ones(CELLS, dtype=bool)
    for cell in [c for c, _, _ in record] + list(called):
        open_cells[cell] = False
    chosen: list[int] = []
    for _ in range(min(count, int(open_cells.sum()))):
        chance[~open_cells] = 0.0
        if chance.max() <= 0.0 or rng.random() < wild:
            cell = int(rng.choice(np.flatnonzero(open_cells)))
        else:
            cell = _pick(chance, exponent, rng)
        chosen.append(cell)
        open_cells[cell] = False
    return chosen


def _pick(chance: np.ndarray, exponent: float | None, rng: random.Random) -> int:
    if exponent is None:
        best = np.flatnonzero(chance >= chance.max() - 1e-9)
        return int(best[rng.randrange(len(best))])
    weight = chance ** exponent
    return int(rng.choices(range(CELLS), weights=weight.tolist())[0])


def choose_fleet(rng: random.Random) -> list[dict]:
    """A fleet as the five "place" actions of the rules."""
    prior = probabilities(())
    best, best_score = None, None
    for _ in range(FLEET_DRAWS):
        fleet = _random_fleet(rng)
        score = float(sum(prior[bits(mask)].sum() for _, _, _, mask in fleet))
        if best_score is None or score < best_score:
            best, best_score = fleet, score
    return [{"type": "place", "ship": ship, "cell": label(start), "dir": d} for ship, start, d, _ in best]


def _random_fleet(rng: random.Random) -> list[tuple[str, int, str, int]]:
    """Uniform among fleets whose ships do not touch side to side (by rejection)."""
    while True:
        fleet, taken = [], 0
        for ship in NAMES:
            start, d, mask = rng.choice(placements(LENGTH[ship]))
            if mask & taken:
                break
            fleet.append((ship, start, d, mask))
            taken |= _with_neighbours(mask)
        else:
            return fleet


def _with_neighbours(mask: int) -> int:
    cells = [c for c in range(CELLS) if mask >> c & 1]
    near = set(cells)
    for c in cells:
        r, k = divmod(c, SIZE)
        near.update(rr * SIZE + kk for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
                    if 0 <= rr < SIZE and 0 <= kk < SIZE)
    return mask_of(near)


class BattleshipAI:
    """A computer seat: `act(view)` returns its next action for the rules.

    It places a fleet (referee mode) and calls shots; in salvo it enters the
    volley one shot at a time and then fires.
    """

    def __init__(self, seat: int, level: str = "normal", rng: random.Random | None = None):
        if level not in LEVELS:
            raise ValueError(f"level must be one of {list(LEVELS)}")
        self.seat, self.level, self.rng = seat, level, rng or random.Random()
        self._fleet: list[dict] | None = None
        self._volley: list[int] = []

    def act(self, view: dict) -> Any:
        if view["to_move"] != self.seat:
            raise ValueError("it is not the computer's turn")
        if view["phase"] == "place":
            if self._fleet is None:
                self._fleet = choose_fleet(self.rng)
            placed = {ship["ship"] for ship in view.get("fleet", [])}
            return next(a for a in self._fleet if a["ship"] not in placed)
        pending = [index(c) for c in view["pending"]]
        if len(pending) >= view["shots_allowed"]:
            return {"type": "fire"}
        if not pending or not self._volley or self._volley[: len(pending)] != pending:
            record = record_from_view(view, self.seat)
            left = view["shots_allowed"] - len(pending)
            self._volley = pending + choose_shots(record, left, self.level, self.rng, pending)
        return {"type": "shot", "cell": label(self._volley[len(pending)])}
