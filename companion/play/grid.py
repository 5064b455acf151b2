"""Square-grid coordinates shared by grid games: labels like "A1", straight segments.

Rows are letters from the top ("A"...), columns numbers from the left ("1"...).
A cell is also a flat index `row * cols + col`, handy for bitmasks and arrays.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.play.state import Refused

ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIRECTIONS = {"h": (0, 1), "v": (1, 0)}  # horizontal runs right, vertical runs down


def label(row: int, col: int) -> str:
    """The name of a cell, e.g. (1, 4) -> "B5"."""
    return f"{ROW_LETTERS[row]}{col + 1}"


def parse(text: object, rows: int, cols: int) -> tuple[int, int]:
    """(row, col) of a label like "B5" (also "b-5"); Refused if not on the board."""
    if isinstance(text, str):
        name = text.strip().upper().replace("-", "")
        if len(name) >= 2 and name[0] in ROW_LETTERS[:rows] and name[1:].isdigit():
            row, col = ROW_LETTERS.index(name[0]), int(name[1:]) - 1
            if 0 <= col < cols:
                return row, col
    last = label(rows - 1, cols - 1)
    raise Refused("play.not_a_cell", cell=text, last=last)


def segment(row: int, col: int, length: int, direction: str) -> list[tuple[int, int]]:
    """The cells of a straight run of `length` starting at (row, col) going `direction`."""
    d_row, d_col = DIRECTIONS[direction]
    return [(row + i * d_row, col + i * d_col) for i in range(length)]


def in_bounds(cells: Iterable[tuple[int, int]], rows: int, cols: int) -> bool:
    return all(0 <= r < rows and 0 <= c < cols for r, c in cells)


def segments(length: int, rows: int, cols: int) -> list[tuple[int, int, str]]:
    """Every in-bounds (row, col, direction) start of a run of `length` cells."""
    starts = [(r, c, d) for d in DIRECTIONS for r in range(rows) for c in range(cols)]
    dirs = DIRECTIONS if length > 1 else {"h": DIRECTIONS["h"]}
    return [(r, c, d) for r, c, d in starts
            if d in dirs and in_bounds(segment(r, c, length, d), rows, cols)]
