"""The computer opponent for Battleship (海戰棋): where to shoot, where to hide.

It reads only what a player at the table knows: its own target grid and the
answers announced (`view(seat)["boards"][seat]`), never the enemy fleet.

Levels:
- "easy":   4 shots in 10 at any cell, the rest drawn in proportion to the
            chance of a ship there (`posterior.probabilities`);
- "normal": 1 in 10 at any cell, the rest in proportion to chance**3;
- "hard":   fleets drawn among those that agree with every answer seen
            (`sampler`), each ship on no hit spread over the placements
            open to it, and the cell that scores the most hits over this
            shot and the next on them (`lookahead`); bench/battleship_ai.py
            measures it against an independent density shooter.
A salvo takes the best cells of one map (each drawn as above; hard: the
likeliest cells of its draws).

Fleets are drawn uniformly among all legal fleets (`choose_fleet`).
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np

from companion.errors import UnknownLevel
from companion.i18n import Words
from companion.games.battleship import lookahead, sampler
from companion.games.battleship.posterior import probabilities
from companion.games.battleship.deduce import Shot
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, index, label, placements

# level -> (chance of a shot at any cell, sharpening exponent; None = the likeliest cell)
LEVELS = {"easy": (0.4, 1.0), "normal": (0.1, 3.0), "hard": (0.0, None)}
DRAWS = 1000  # hard: fleets drawn to weigh each shot (2,000 cost 3x the time for no measured gain)


def record_from_view(view: dict, seat: int) -> tuple[Shot, ...]:
    """Seat's answered shots, as it saw them announced, for `probabilities`."""
    return tuple((index(s["cell"]), s["result"], s.get("ship")) for s in view["boards"][seat]["shots"])


def choose_shots(record: Sequence[Shot], count: int, level: str, rng: random.Random,
                 called: Sequence[int] = ()) -> list[int]:
    """`count` cells to fire at (one for a standard turn), best first."""
    wild, exponent = LEVELS[level]
    open_cells = np.ones(CELLS, dtype=bool)
    for cell in [c for c, _, _ in record] + list(called):
        open_cells[cell] = False
    if exponent is None:
        draws = sampler.draw(record, DRAWS, np.random.default_rng(rng.getrandbits(64)))
        if count == 1 and open_cells.any():
            return [lookahead.best_cell(draws, open_cells, rng)]
        chance = draws.chance()
    else:
        chance = probabilities(record)
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
    """A fleet as the five "place" actions of the rules: uniform among all legal fleets.

    Uniform leaves a shooter nothing to learn: ships touch as often as chance
    makes them, and no cell is favoured (the fleets of a placer that kept
    ships apart, or off the likeliest cells, were sunk sooner by a shooter
    that had noticed; bench/battleship_ai.py measures it).
    """
    while True:  # rejection: a draw with two ships overlapping is dropped whole
        fleet, taken = [], 0
        for ship in NAMES:
            start, d, mask = rng.choice(placements(LENGTH[ship]))
            if mask & taken:
                break
            fleet.append({"type": "place", "ship": ship, "cell": label(start), "dir": d})
            taken |= mask
        else:
            return fleet


class BattleshipAI:
    """A computer seat: `act(view)` returns its next action for the rules.

    It places a fleet (referee mode) and calls shots; in salvo it enters the
    volley one shot at a time and then fires.
    """

    def __init__(self, seat: int, level: str = "normal", rng: random.Random | None = None):
        if level not in LEVELS:
            raise UnknownLevel(Words("play.unknown_level", level=repr(level), levels=list(LEVELS)))
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
