"""Ultimate Tic-Tac-Toe (docs/rules.md §uttt).

One kind of action, a mark in a cell: `{"type": "move", "cell": n}` with n =
board * 9 + cell in that board (0..80), boards and cells numbered 0..8 row-major
(`move(n)` spells it).  Seat 0 is X and moves first.  The cell played sends the opponent to the board at that
position; a won or full board is closed and being sent there is a free move.
Three won boards in a line win; the game is an early draw as soon as every
big-board line is blocked (holds a board of each player, or a drawn board).

Two layers: `Engine`, a mutable bitboard position (one 9-bit mask per player
and board, lookup tables for lines) that the computer opponent plays millions
of moves on without checks, by cell number, and `UtttState`, the immutable
validated state of the game contract built around it (actions cross there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import reduce
from operator import or_
from typing import Any

from companion import i18n
from companion.play.state import Game, Refused, Outcome, State

X, O = 0, 1
MARKS = ("X", "O")


class Ending(StrEnum):
    """How a game ends (its `Outcome.reason`)."""

    THREE_BOARDS = "three_boards"  # three won boards in a line
    EARLY_DRAW = "early_draw"  # no line of boards can be won any more
    ALL_BOARDS_DONE = "all_boards_done"  # every board won or full, and no line

ONGOING, DRAW = -1, 2  # Engine.result: ONGOING, X, O or DRAW
FULL = 0b111_111_111

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES)

# Tables indexed by a 9-bit mask.
IS_WIN = tuple(any(m & lm == lm for lm in LINE_MASKS) for m in range(512))
BITS = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))
# cells that would complete a line for the owner of mask m (occupancy not checked)
THREATS = tuple(
    reduce(or_, (lm & ~m for lm in LINE_MASKS if bin(lm & m).count("1") == 2), 0) for m in range(512)
)
# some line holds none of the blocked boards
LINE_FREE = tuple(any(lm & m == 0 for lm in LINE_MASKS) for m in range(512))
# boards that would complete a big-board line for the owner of won-mask m
WINNING_BOARDS = tuple(
    sum(1 << b for b in range(9) if not m >> b & 1 and IS_WIN[m | 1 << b]) for m in range(512)
)
BOARD_OF = tuple(a // 9 for a in range(81))
CELL_OF = tuple(a % 9 for a in range(81))
# MOVES[board][empty-mask]: the actions into those empty cells
MOVES = tuple(tuple(tuple(b * 9 + c for c in BITS[m]) for m in range(512)) for b in range(9))


def move(cell: int) -> dict:
    """The action of a mark in `cell` (0..80)."""
    return {"type": "move", "cell": cell}


def winning_line(mask: int) -> list[int] | None:
    """The first line fully inside `mask`, as three indices, or None."""
    for line, lm in zip(LINES, LINE_MASKS):
        if mask & lm == lm:
            return list(line)
    return None


class Engine:
    """A mutable position on bitboards, for search: `play` does not validate.

    `cells[p * 9 + b]` is player p's 9-bit mask in board b; `won[p]` the boards
    p has won; `drawn` the full boards without a line; `forced` the board the
    player to move must play in (-1: free move); `result` ONGOING, X, O or DRAW.
    """

    __slots__ = ("cells", "won", "drawn", "forced", "player", "result", "last", "ply")

    def __init__(self) -> None:
        self.cells = [0] * 18
        self.won = [0, 0]
        self.drawn = 0
        self.forced = -1
        self.player = X
        self.result = ONGOING
        self.last = -1
        self.ply = 0

    def copy(self) -> "Engine":
        new = Engine.__new__(Engine)
        new.cells = self.cells[:]
        new.won = self.won[:]
        new.drawn = self.drawn
        new.forced = self.forced
        new.player = self.player
        new.result = self.result
        new.last = self.last
        new.ply = self.ply
        return new

    def closed(self) -> int:
        """Mask of the boards nobody can play in any more."""
        return self.won[0] | self.won[1] | self.drawn

    def empty(self, board: int) -> int:
        return FULL & ~(self.cells[board] | self.cells[9 + board])

    def playable_boards(self) -> list[int]:
        if self.result != ONGOING:
            return []
        if self.forced >= 0:
            return [self.forced]
        return list(BITS[FULL & ~self.closed()])

    def legal_moves(self) -> list[int]:
        moves: list[int] = []
        for b in self.playable_boards():
            moves += MOVES[b][self.empty(b)]
        return moves

    def play(self, action: int) -> None:
        """Play a legal `action` (unchecked)."""
        board = BOARD_OF[action]
        cell = CELL_OF[action]
        p = self.player
        cells = self.cells
        won = self.won
        mine = cells[p * 9 + board] | 1 << cell
        cells[p * 9 + board] = mine
        self.last = action
        self.ply += 1
        self.player = 1 - p
        if IS_WIN[mine]:
            won[p] |= 1 << board
            if IS_WIN[won[p]]:
                self.result = p
                return
        elif mine | cells[(1 - p) * 9 + board] == FULL:
            self.drawn |= 1 << board
        else:
            self.forced = -1 if (won[0] | won[1] | self.drawn) >> cell & 1 else cell
            return
        drawn = self.drawn
        if not (LINE_FREE[won[1] | drawn] or LINE_FREE[won[0] | drawn]):
            self.result = DRAW
            return
        self.forced = -1 if (won[0] | won[1] | drawn) >> cell & 1 else cell

    def reason(self) -> Ending | None:
        """Why the game ended; None if on."""
        if self.result == ONGOING:
            return None
        if self.result != DRAW:
            return Ending.THREE_BOARDS
        return Ending.ALL_BOARDS_DONE if self.closed() == FULL else Ending.EARLY_DRAW


def sends_to_after(engine: Engine, action: int) -> int | None:
    """The board the opponent must play in after the legal `action` (None: free move or end)."""
    after = engine.copy()
    after.play(action)
    if after.result != ONGOING or after.forced < 0:
        return None
    return after.forced


@dataclass(frozen=True, eq=False)
class UtttState(State):
    """An immutable Ultimate Tic-Tac-Toe position: the cells played in turn (`moves`),
    and the engine that has played them (private and never changed; `engine()` gives a
    copy to search)."""

    moves: tuple[int, ...] = ()
    _engine: Engine | None = field(default=None, repr=False)

    game = "uttt"

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(self.moves))
        if self._engine is None:
            engine = Engine()
            for cell in self.moves:
                refusal = _refusal(engine, cell)
                if refusal:
                    raise refusal
                engine.play(cell)
            object.__setattr__(self, "_engine", engine)

    @property
    def seats(self) -> int:
        return 2

    @property
    def _played(self) -> Engine:
        """The engine that has played `moves`."""
        assert self._engine is not None, "__post_init__ sets it"
        return self._engine

    def engine(self) -> Engine:
        """A private copy of the fast position, for search."""
        return self._played.copy()

    def to_move(self) -> int | None:
        return self._played.player if self._played.result == ONGOING else None

    @property
    def phase(self) -> str:
        """"play" or "over"."""
        return "play" if self._played.result == ONGOING else "over"

    def legal_cells(self) -> list[int]:
        """The cells of `legal_actions()`, in the same order."""
        return self._played.legal_moves()

    def legal_actions(self) -> list[dict]:
        return [{"type": "move", "cell": c} for c in self._played.legal_moves()]

    def apply(self, action: Any) -> "UtttState":
        cell = _cell_of(self._played, action)
        engine = self._played.copy()
        engine.play(cell)
        return self.evolve(moves=self.moves + (cell,), _engine=engine)

    def sends_to(self, cell: int) -> int | None:
        """For the long-press preview: the board a mark in `cell` sends the opponent to.

        None when the opponent gets a free move or the move ends the game.
        Raises `Refused` for a move that cannot be played.
        """
        refusal = _refusal(self._played, cell)
        if refusal:
            raise refusal
        return sends_to_after(self._played, cell)

    def outcome(self) -> Outcome | None:
        result = self._played.result
        if result == ONGOING:
            return None
        if result == DRAW:
            reason = self._played.reason()
            assert reason is not None, "an ended game's"
            return Outcome(None, reason, (0.5, 0.5))
        return Outcome(result, Ending.THREE_BOARDS, (1.0, 0.0) if result == X else (0.0, 1.0))

    def to_json(self) -> dict:
        return {"moves": list(self.moves)}

    def view(self, seat: int | None) -> dict:
        """Everything on the board is public, so every seat sees the same view."""
        e = self._played
        cells: list[str | None] = [None] * 81
        for p in (X, O):
            for b in range(9):
                for c in BITS[e.cells[p * 9 + b]]:
                    cells[b * 9 + c] = MARKS[p]
        boards = [_board_status(e, b) for b in range(9)]
        outcome = self.outcome()
        over = outcome is not None
        return {
            "cells": cells,
            "boards": boards,
            "board_lines": [
                winning_line(e.cells[MARKS.index(s) * 9 + b]) if s in MARKS else None
                for b, s in enumerate(boards)
            ],
            "playable_boards": e.playable_boards(),
            "free_move": not over and e.forced < 0,
            "winning_line": winning_line(e.won[outcome.winner]) if outcome and outcome.winner is not None else None,
            "to_move": self.to_move(),
            "mark_to_move": None if over else MARKS[e.player],
            "last_move": self.moves[-1] if self.moves else None,
            "move_count": len(self.moves),
            "outcome": outcome.to_json() if outcome else None,
        }


def _board_status(engine: Engine, board: int) -> str:
    """"open", "X", "O" or "draw"."""
    for p in (X, O):
        if engine.won[p] >> board & 1:
            return MARKS[p]
    return "draw" if engine.drawn >> board & 1 else "open"


def _cell_of(engine: Engine, action: Any) -> int:
    """The cell of `action` if it is legal in `engine`; raises `Refused` if not."""
    legal = type(action) is dict and action.get("type") == "move" and len(action) == 2
    cell = action["cell"] if legal and "cell" in action else None
    if type(cell) is not int or not 0 <= cell < 81:
        raise Refused("uttt_errors.not_a_move", action=action)
    refusal = _refusal(engine, cell)
    if refusal:
        raise refusal
    return cell


def _refusal(engine: Engine, cell: Any) -> Refused | None:
    """Why a mark in `cell` is illegal in `engine`, or None if legal."""
    if type(cell) is not int or not 0 <= cell < 81:
        return Refused("uttt_errors.not_a_move", action=cell)
    if engine.result != ONGOING:
        return Refused("uttt_errors.game_over")
    board, cell = divmod(cell, 9)
    if engine.closed() >> board & 1:
        return Refused("uttt_errors.board_closed", board=board)
    if engine.forced >= 0 and board != engine.forced:
        return Refused("uttt_errors.forced_board", board=engine.forced)
    if not engine.empty(board) >> cell & 1:
        return Refused("uttt_errors.cell_taken", board=board, cell=cell)
    return None


def _new_state(options: dict) -> UtttState:
    return UtttState()


def _state_from_json(data: dict) -> UtttState:
    try:
        moves = tuple(data["moves"])
    except (KeyError, TypeError):
        raise Refused("uttt_errors.bad_saved_state") from None
    return UtttState(moves)


GAME = Game(
    name="uttt",
    title=i18n.both("uttt.title"),
    default_options={},
    new_state_fn=_new_state,
    state_from_json_fn=_state_from_json,
    place=5, glyph="#", colour=(0.50, 0.35, 0.15, 1),  # its home tile
    endings=Ending,
)
