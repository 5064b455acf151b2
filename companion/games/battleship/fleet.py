"""Battleship geometry: the 10x10 sea, the five ships, placements as bitmasks.

A cell is the flat index `row * 10 + col`; a set of cells is an int bitmask
(bit i = cell i).  Every placement of a ship of a given length is listed once.
"""

from __future__ import annotations

from functools import cache

from companion.play import grid

SIZE = 10
CELLS = SIZE * SIZE
SHIPS = (("carrier", 5), ("battleship", 4), ("cruiser", 3), ("submarine", 3), ("destroyer", 2))
LENGTH = dict(SHIPS)
NAMES = tuple(name for name, _ in SHIPS)
FLEET_CELLS = sum(LENGTH.values())


LABELS = tuple(grid.label(*divmod(cell, SIZE)) for cell in range(CELLS))
INDEX = {name: cell for cell, name in enumerate(LABELS)}


def label(cell: int) -> str:
    """"A1".."J10" for a flat cell index."""
    return LABELS[cell]


def index(text: object) -> int:
    """The flat index of a label; CompanionError if it is not a cell of the sea."""
    if isinstance(text, str) and text in INDEX:
        return INDEX[text]
    row, col = grid.parse(text, SIZE, SIZE)
    return row * SIZE + col


def mask_of(cells) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


@cache
def run(cell: int, length: int, direction: str) -> tuple[int, ...] | None:
    """The cells of a ship of `length` whose top/left end is `cell`, or None if off the sea."""
    row, col = divmod(cell, SIZE)
    cells = grid.segment(row, col, length, direction)
    return tuple(r * SIZE + c for r, c in cells) if grid.in_bounds(cells, SIZE, SIZE) else None


def cells_of(cell: int, length: int, direction: str) -> tuple[int, ...]:
    """`run` of a ship known to be on the sea: a placed one, or one of `placements`."""
    cells = run(cell, length, direction)
    assert cells is not None, f"a ship off the sea at {cell} {direction}"
    return cells


@cache
def placements(length: int) -> tuple[tuple[int, str, int], ...]:
    """Every (start cell, direction, mask) of a ship of `length` on the sea."""
    return tuple((r * SIZE + c, d, mask_of(run(r * SIZE + c, length, d)))
                 for r, c, d in grid.segments(length, SIZE, SIZE))


@cache
def masks(length: int) -> tuple[int, ...]:
    return tuple(mask for _, _, mask in placements(length))
