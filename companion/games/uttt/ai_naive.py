"""A straightforward list-based Ultimate Tic-Tac-Toe: the yardstick for the fast engine.

Same rules as `companion.games.uttt.rules`, written the obvious way (a list of 81 marks,
lines checked by looping) so that tests can compare the two on random games and
the benchmark can measure how much the bitboards gain.
"""

from __future__ import annotations

import random

from companion.games.uttt.rules import LINES

DRAWN = "draw"


class NaiveBoard:
    """A mutable position: `cells` holds "X", "O" or "" per action index."""

    def __init__(self) -> None:
        self.cells = [""] * 81
        self.status = ["open"] * 9  # "open", "X", "O" or "draw"
        self.forced: int | None = None
        self.to_move = "X"
        self.winner: str | None = None  # "X", "O", DRAWN, or None while on
        self.reason: str | None = None

    def legal_moves(self) -> list[int]:
        if self.winner is not None:
            return []
        boards = [self.forced] if self.forced is not None else range(9)
        return [
            b * 9 + c
            for b in boards
            if self.status[b] == "open"
            for c in range(9)
            if self.cells[b * 9 + c] == ""
        ]

    def play(self, action: int) -> None:
        board, cell = divmod(action, 9)
        mark = self.to_move
        self.cells[action] = mark
        small = self.cells[board * 9 : board * 9 + 9]
        if any(all(small[i] == mark for i in line) for line in LINES):
            self.status[board] = mark
        elif all(small):
            self.status[board] = DRAWN
        self.to_move = "O" if mark == "X" else "X"
        self.forced = cell if self.status[cell] == "open" else None
        self._judge(mark)

    def _judge(self, mark: str) -> None:
        if any(all(self.status[i] == mark for i in line) for line in LINES):
            self.winner, self.reason = mark, "three_boards"
            return
        blocked = all(
            DRAWN in [self.status[i] for i in line]
            or {"X", "O"} <= {self.status[i] for i in line}
            for line in LINES
        )
        if blocked:
            self.winner = DRAWN
            self.reason = "all_boards_done" if "open" not in self.status else "early_draw"


def random_playout(board: NaiveBoard, rng: random.Random) -> str:
    """Play uniformly random moves to the end; the winner ("X", "O" or "draw")."""
    while board.winner is None:
        board.play(rng.choice(board.legal_moves()))
    return board.winner
