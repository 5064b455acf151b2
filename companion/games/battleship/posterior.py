"""How likely each cell of the enemy sea holds a ship, from the answers alone.

The exact hidden-fleet posterior is approximated in two layers:
- the ships that account for the hit cells are enumerated exactly
  (`deduce.explanations`: every consistent way to cover the hits,
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

from companion.games.battleship.deduce import Evidence, Shot, explanations
from companion.games.battleship.fleet import CELLS, LENGTH, NAMES, masks

MAX_EXPLANATIONS = 400  # enough in play; a swarm of anonymous hits is cut short


def bits(mask: int) -> np.ndarray:
    """A 100-cell bool vector of a bitmask."""
    return bits_rows([mask])[0]


def bits_rows(masks_: Sequence[int]) -> np.ndarray:
    """An (n, 100) bool matrix, one row per bitmask."""
    raw = np.frombuffer(b"".join(m.to_bytes(16, "little") for m in masks_), dtype=np.uint8)
    return np.unpackbits(raw.reshape(len(masks_), 16), axis=1, bitorder="little")[:, :CELLS].astype(bool)


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
    # explanations alike but for which equal-length ships are where weigh alike: merge them
    alike: dict[tuple, int] = {}
    for chosen in found:
        free = tuple(sorted(LENGTH[n] for n in NAMES if n not in chosen and n not in ev.sunk))
        key = (sum(chosen.values()), free)  # ships never overlap: the sum is the union
        alike[key] = alike.get(key, 0) + 1
    keys = list(alike)
    used = bits_rows([used_mask for used_mask, _ in keys])
    blocked = (used | shot).astype(np.float32)
    expected = (used & ~shot).astype(float)
    log_weight = np.log(np.array([alike[k] for k in keys], dtype=float))
    for length in sorted(set(LENGTH.values())):
        per_row = np.array([free.count(length) for _, free in keys], dtype=float)  # free ships of `length`
        if not per_row.any():
            continue
        fits = (matrix(length) @ blocked.T) == 0  # (P, E)
        counts = fits.sum(axis=0).astype(float)
        share = (fits.T.astype(np.float32) @ matrix(length)) / np.maximum(counts, 1)[:, None]
        expected += per_row[:, None] * share
        log_weight += per_row * np.log(np.maximum(counts, 1e-9))
    weight = np.exp(log_weight - log_weight.max())
    chance = np.minimum(weight @ expected / weight.sum(), 1.0)
    chance[shot] = 0.0
    return chance
