"""Whole enemy fleets drawn at random among those that agree with every answer seen.

A draw starts from an explanation of the hits (`deduce.explanations`: which
ship covers which hit, honouring names, sinkings and their order), then lays
the ships left out, longest first, each uniformly among its placements on
cells not shot and not taken.  That proposal is not uniform over fleets, so
each draw carries an importance weight making the weighted draws uniform over
the fleets that explain the record:

    weight = (product of the choices each ship had) / (the explanation's odds)

where an explanation is picked with odds the product of its free ships'
placement counts, each counted alone (as `posterior` does).  The choices a
ship had are at most its count alone, so weights lie in (0, 1]; a draw whose
ship found no room weighs 0.

`draw(shots, count, rng)` returns a `Draws`: per draw and cell the ship there
(0 water, 1 + the ship's index in NAMES), the weights and the cells shot;
`Draws.spread()` also averages each ship on no hit over the placements open
to it in its draw, a map far less noisy than the draws' own cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import islice
from typing import Sequence

import numpy as np

from companion.games.battleship.deduce import Evidence, Shot, explanations
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES
from companion.games.battleship.posterior import bits_rows, matrix

MAX_EXPLANATIONS = 2000  # far beyond play; a swarm of anonymous hits is cut short


@dataclass(frozen=True)
class Draws:
    owner: np.ndarray  # (n, 100) int8: 0 water, 1 + ship index
    weight: np.ndarray  # (n,) float, summing to 1 (all zero if no draw fits)
    shot: np.ndarray  # (100,) bool: the cells answered

    def chance(self) -> np.ndarray:
        """Per cell, the weighted share of draws with a ship there (1 on hit cells)."""
        return self.weight @ (self.owner > 0)

    def spread(self) -> np.ndarray:
        """(n, 100) per draw, the expected ships on each cell with its free ships spread out.

        A free ship (on no cell shot) is replaced by the average of every
        placement open to it in that draw (no cell shot, none of the draw's
        other ships): given the others, each of those is as likely.
        """
        expected = (self.owner > 0).astype(np.float32)
        for i, name in enumerate(NAMES):
            cells = self.owner == 1 + i
            rows = np.flatnonzero(~(cells & self.shot).any(axis=1) & cells.any(axis=1))
            if not len(rows):
                continue
            taken = words(self.shot | (self.owner[rows] > 0) & ~cells[rows])
            low, high = placement_words(LENGTH[name])
            fits = (((taken[:, :1] & low) | (taken[:, 1:] & high)) == 0).astype(np.float32)  # (r, P)
            expected[rows] -= cells[rows]
            expected[rows] += (fits / fits.sum(axis=1, keepdims=True)) @ matrix(LENGTH[name])
        return expected


def draw(shots: Sequence[Shot], count: int, rng: np.random.Generator) -> Draws:
    ev = Evidence.of(shots)
    found = list(islice(explanations(shots, ev), MAX_EXPLANATIONS)) or [{}]  # {}: answers no fleet fits
    shot = bits_rows([ev.shot])[0]
    used = bits_rows([sum(chosen.values()) for chosen in found])  # (E, 100); ships never overlap
    free = np.array([[name not in chosen and name not in ev.sunk for name in NAMES] for chosen in found])
    blocked = words(used | shot)  # (E, 2)
    log_odds = np.zeros(len(found))
    for i, name in enumerate(NAMES):
        low, high = placement_words(LENGTH[name])
        alone = ((low[:, None] & blocked[:, 0]) | (high[:, None] & blocked[:, 1])) == 0  # (P, E)
        log_odds += np.where(free[:, i], np.log(np.maximum(alone.sum(axis=0), 1e-300)), 0.0)
    odds = np.exp(log_odds - log_odds.max())
    pick = rng.choice(len(found), size=count, p=odds / odds.sum())
    explained = np.zeros((len(found), CELLS), dtype=np.int8)
    for i, name in enumerate(NAMES):
        placed = [e for e, chosen in enumerate(found) if name in chosen]
        if placed:
            explained[placed] += (1 + i) * bits_rows([found[e][name] for e in placed]).astype(np.int8)
    owner = explained[pick]
    taken = words((owner > 0) | shot)  # (n, 2) uint64: the cells each draw has used
    log_weight = -log_odds[pick]
    for i, name in enumerate(NAMES):  # NAMES run longest first
        rows = np.flatnonzero(free[pick, i])
        if not len(rows):
            continue
        on, (low, high) = matrix(LENGTH[name]), placement_words(LENGTH[name])
        fits = ((taken[rows, :1] & low) | (taken[rows, 1:] & high)) == 0  # (r, P)
        count_so_far = np.cumsum(fits, axis=1, dtype=np.int16)
        choices = count_so_far[:, -1]
        nth = (rng.random(len(rows)) * choices).astype(np.int16)  # uniform among the fitting ones
        chosen = np.argmax(count_so_far > nth[:, None], axis=1)
        ok = choices > 0
        cells = on[chosen].astype(bool) & ok[:, None]
        owner[rows] = np.where(cells, 1 + i, owner[rows])
        taken[rows] |= np.where(ok[:, None], np.stack([low[chosen], high[chosen]], axis=1), 0)
        log_weight[rows] += np.log(np.maximum(choices, 1e-300))
        log_weight[rows[~ok]] = -np.inf
    weight = np.exp(log_weight - log_weight.max()) if np.isfinite(log_weight.max()) else np.zeros(count)
    total = weight.sum()
    return Draws(owner, weight / total if total > 0 else weight, shot)


def words(cells: np.ndarray) -> np.ndarray:
    """(n, 100) bool rows as (n, 2) uint64 bitmasks, cells 0-63 and 64-99: a fit is one AND."""
    padded = np.zeros((len(cells), 128), dtype=bool)
    padded[:, :CELLS] = cells
    return np.packbits(padded, axis=1, bitorder="little").view("<u8")


@cache
def placement_words(length: int) -> tuple[np.ndarray, np.ndarray]:
    """Every placement of a ship of `length` (in `matrix` order) as its two uint64 words."""
    w = words(matrix(length).astype(bool))
    return w[:, 0].copy(), w[:, 1].copy()
