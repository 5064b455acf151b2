"""The 9×9 multiplication board of 九九戦艦 (docs/rules.md §kuku): cells, products, listings.

A cell is spelled ``"3×8"`` (row 3, column 8, value 24) everywhere: in actions,
views and records.  A bomb listing may also name pairs off the board
(``"2×12"``): saying one is an *extra* pair, a mistake a player can make.
"""

from __future__ import annotations

from functools import cache

SIZE = 9
TIMES = "×"
LISTING_CAP = 5  # a listing holds at most 5 pairs: no product has more than 4 cells, so a 5th is already a mistake


def cell_name(row: int, col: int) -> str:
    """The spelling of pair `row`×`col` (on or off the board)."""
    return f"{row}{TIMES}{col}"


CELLS: tuple[str, ...] = tuple(cell_name(a, b) for a in range(1, SIZE + 1) for b in range(1, SIZE + 1))
CELL_INDEX: dict[str, int] = {cell: i for i, cell in enumerate(CELLS)}
CELL_VALUE: dict[str, int] = {cell_name(a, b): a * b for a in range(1, SIZE + 1) for b in range(1, SIZE + 1)}


def parse_pair(text: object) -> tuple[int, int] | None:
    """`(a, b)` for a string ``"a×b"`` with positive whole numbers (``x`` and ``*`` accepted), else None."""
    if not isinstance(text, str):
        return None
    for sign in (TIMES, "x", "X", "*"):
        left, found, right = text.partition(sign)
        if found:
            if left.isdigit() and right.isdigit() and int(left) > 0 and int(right) > 0:
                return int(left), int(right)
            return None
    return None


def is_cell(text: object) -> bool:
    """True for the canonical spelling of a board cell."""
    return isinstance(text, str) and text in CELL_INDEX


def value(pair: str) -> int:
    """The product written in cell `pair`, or of an off-board pair."""
    if pair in CELL_VALUE:
        return CELL_VALUE[pair]
    factors = parse_pair(pair)
    assert factors is not None, f"{pair!r}: the rules take only sayable pairs"
    return factors[0] * factors[1]


@cache
def cells_of(product: int) -> tuple[str, ...]:
    """Every board cell whose value is `product`, in board order (empty if not in the table)."""
    return tuple(cell for cell in CELLS if value(cell) == product)


PRODUCTS: tuple[int, ...] = tuple(sorted({value(cell) for cell in CELLS}))


@cache
def sayable_pairs(product: int) -> tuple[str, ...]:
    """What a bomb listing of `product` may contain: every board cell, then the
    off-board pairs whose value is `product` (``"1×24"``, ``"2×12"``...)."""
    off_board = tuple(
        cell_name(a, product // a)
        for a in range(1, product + 1)
        if product % a == 0 and (a > SIZE or product // a > SIZE)
    )
    return CELLS + off_board


def judge_listing(product: int, listing: list[str]) -> dict:
    """Judge a bomb listing of `product`.

    Returns ``{"judgement", "faults", "correct"}``: judgement is ``"exact"`` or
    the first fault found among ``"wrong"`` (a pair whose value is not the
    product), ``"extra"`` (right value but off the 9×9 board) and ``"omission"``
    (a cell of the product not said); faults lists the pairs of each kind.
    """
    correct = cells_of(product)
    faults = {
        "wrong": [pair for pair in listing if value(pair) != product],
        "extra": [pair for pair in listing if value(pair) == product and not is_cell(pair)],
        "omission": [cell for cell in correct if cell not in listing],
    }
    judgement = next((kind for kind, pairs in faults.items() if pairs), "exact")
    return {"judgement": judgement, "faults": faults, "correct": list(correct)}
