"""How likely each cell of the enemy sea holds a ship, from the answers alone.

The exact hidden-fleet posterior is approximated in two layers:
- the ships that account for the hit cells are enumerated exactly
  (`battleship_deduce.explanations`: every consistent way to cover the hits,
  honouring names, sinkings and their order);
- the other ships lie on cells not shot yet; for each explanation every
  placement of each of them on the free cells is counted (numpy, all
  explanations at once), ignoring only their overlaps with one another.
An explanation weighs the product of its free ships' placement counts, and a
cell's probability is the weighted chance that some ship covers it.
"""

from __future__ import annotations

from functools import cache
from itertools import islice
from typing import Sequence

import numpy as np

from companion.rules.battleship_deduce import Evidence, Shot, explanations
from companion.rules.battleship_fleet import CELLS, LENGTH, NAMES, masks

MAX_EXPLANATIONS = 400  # enough in play; a swarm of anonymous hits is cut short


def bits(mask: int) -> np.ndarray:
    """A 100-cell bool vector of a bitmask."""
    raw = np.frombuffer(mask.to_bytes(16, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:CELLS].astype(bool)


@cache
def matrix(length: int) -> np.ndarray:
    """Every placement of a ship of `length` as a row of a (P, 100) float32 0/1 matrix."""
    return np.stack([bits(m) for m in masks(length)]).astype(np.float32)


def probabilities(shots: Sequence[Shot]) -> np.ndarray:
    """Per cell, the chance it holds a ship not hit yet (0 on cells already shot)."""
    ev = Evidence.of(shots)
    found = list(islice(explanations(shots, ev), MAX_EXPLANATIONS))
    if not found:  # answers no fleet fits (a slip at the table): fall back to free counting
        found = [{}]
    shot = bits(ev.shot)
    blocked = np.empty((len(found), CELLS), dtype=np.float32)
    covered = np.zeros((len(found), CELLS))
    free_ships = []
    for row, chosen in enumerate(found):
        used = 0
        for m in chosen.values():
            used |= m
        blocked[row] = bits(used) | shot
        covered[row] = bits(used) & ~shot
        free_ships.append([n for n in NAMES if n not in chosen and n not in ev.sunk])
    log_weight = np.zeros(len(found))
    expected = covered
    per_length = {}
    for length in {LENGTH[n] for ships in free_ships for n in ships}:
        fits = (matrix(length) @ blocked.T) == 0  # (P, E)
        counts = fits.sum(axis=0).astype(float)
        density = fits.T.astype(np.float32) @ matrix(length)  # (E, 100)
        per_length[length] = (counts, density / np.maximum(counts, 1)[:, None])
    for row, ships in enumerate(free_ships):
        for name in ships:
            counts, share = per_length[LENGTH[name]]
            log_weight[row] += np.log(max(counts[row], 1e-9))
            expected[row] = expected[row] + share[row]
    weight = np.exp(log_weight - log_weight.max())
    chance = np.minimum(weight @ expected / weight.sum(), 1.0)
    chance[shot] = 0.0
    return chance
