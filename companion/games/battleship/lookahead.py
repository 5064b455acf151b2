"""The hard shooter's choice: the cell that scores the most hits over this shot and the next.

Chances come from the drawn fleets' spread map (`sampler.Draws.spread`: each
ship on no hit averaged over the placements open to it in its draw).  For a
candidate cell the draws are split by the answer each would give there: miss,
hit, or "sunk X".  A hit is not split by the ship's name even when hits are
named: the draws already honour every name answered, and five groups per hit,
each a fifth as large, cost more in noise than the name tells
(bench/README.md).  Within each answer
the best next shot is the cell with the most expected ships on those draws.
A cell's value is its chance of a hit now plus, over the answers, the chance
of a hit with the best shot after it, so a shot is worth more when its answer
tells where to fire next.  The best next shot is picked on one half of the
draws and scored on the other (and the other way round): picked and scored
on the same draws, the best of many noisy cells scores high by luck, most
in small groups of draws.  Only the likeliest cells are weighed
(CANDIDATES); near ties go to the likelier cell.
"""

from __future__ import annotations

import random

import numpy as np

from companion.games.battleship.fleet import NAMES
from companion.games.battleship.sampler import Draws

CANDIDATES = 10
TIE = 0.02  # values this close are a tie (the draws' noise): the likelier cell goes first
SHIPS = len(NAMES)


def answers(draws: Draws, open_cells: np.ndarray) -> np.ndarray:
    """(n, 100) answer code per draw and cell: 0 miss, 1 hit, 1 + (1 + ship index) sunk."""
    owner = draws.owner
    unshot = owner[:, open_cells]
    left = np.stack([np.zeros(len(owner), dtype=np.int64)]  # per draw, each ship's cells not shot yet
                    + [(unshot == 1 + i).sum(axis=1) for i in range(SHIPS)], axis=1)
    sinks = np.take_along_axis(left, owner.astype(np.intp), axis=1) == 1
    return np.where(owner == 0, 0, np.where(sinks, 1 + owner, 1))


def best_cell(draws: Draws, open_cells: np.ndarray, rng: random.Random) -> int:
    expected = draws.spread()
    chance = np.where(open_cells, draws.weight @ expected, -1.0)
    order = np.argsort(-chance + 1e-12 * np.array([rng.random() for _ in chance]))
    candidates = [int(c) for c in order[:CANDIDATES] if open_cells[c]]
    code = answers(draws, open_cells)
    n, half = len(expected), np.arange(len(expected)) % 2 == 0
    # per candidate and answer, the weight of the draws giving that answer there
    split = np.zeros((len(candidates), 2 + SHIPS, n), dtype=np.float32)
    split[np.arange(len(candidates))[:, None], code[:, candidates].T, np.arange(n)] = draws.weight

    def hits_next(weights: np.ndarray) -> np.ndarray:  # per candidate and answer: weighted hits at each cell next
        after = (weights.reshape(-1, n) @ expected).reshape(len(candidates), -1, len(chance))
        after[:, :, ~open_cells] = 0.0
        after[np.arange(len(candidates)), :, candidates] = 0.0
        return after

    one, other = hits_next(split * half), hits_next(split * ~half)
    scored = (np.take_along_axis(other, one.argmax(axis=2)[..., None], 2)
              + np.take_along_axis(one, other.argmax(axis=2)[..., None], 2))
    value = chance[candidates] + scored[..., 0].sum(axis=1)
    near_best = [i for i in range(len(candidates)) if value[i] >= value.max() - TIE]
    return candidates[max(near_best, key=lambda i: chance[candidates[i]])]
