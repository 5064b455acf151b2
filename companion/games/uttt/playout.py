"""Playouts on the fast Ultimate Tic-Tac-Toe engine, for Monte Carlo tree search.

`random_playout` plays uniformly random moves; `smart_playout` takes a move
that wins the game at once and otherwise avoids moves that let the opponent
win at once (sending them to a board where they complete a big-board line,
or giving them a free move while such a board exists).  The check is lazy:
a random move is drawn first, and only if it hands over the game are the
other moves filtered.  Both mutate the engine they get and return its result
(X, O or DRAW).  Their random numbers come from `SplitMix64`, the generator
the compiled core uses too (core.c mirrors every function here).
"""

from __future__ import annotations

from companion.games.uttt.rules import BITS, BOARD_OF, CELL_OF, FULL, IS_WIN, MOVES, ONGOING, THREATS, WINNING_BOARDS, Engine


def legal_moves(e: Engine) -> list[int] | tuple[int, ...]:
    """The legal moves of an ongoing position, as cheaply as possible."""
    cells = e.cells
    f = e.forced
    if f >= 0:
        return MOVES[f][FULL & ~(cells[f] | cells[9 + f])]
    moves: list[int] = []
    for b in BITS[FULL & ~(e.won[0] | e.won[1] | e.drawn)]:
        moves += MOVES[b][FULL & ~(cells[b] | cells[9 + b])]
    return moves


def first_game_winning_move(e: Engine, player: int, boards: int) -> int:
    """The first move by `player` inside `boards` (a mask) that wins the whole game at once, or -1."""
    cells = e.cells
    for b in BITS[boards & WINNING_BOARDS[e.won[player]] & ~e.drawn & ~e.won[1 - player]]:
        mine, theirs = cells[player * 9 + b], cells[(1 - player) * 9 + b]
        threats = THREATS[mine] & FULL & ~(mine | theirs)
        if threats:
            return b * 9 + BITS[threats][0]
    return -1


def playable_mask(e: Engine) -> int:
    """The boards the player to move may play in, as a mask."""
    if e.forced >= 0:
        return 1 << e.forced
    return FULL & ~(e.won[0] | e.won[1] | e.drawn)


MASK64 = (1 << 64) - 1


class SplitMix64:
    """The random numbers of the search (the core uses the same generator)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in 0..n-1."""
        return ((self.next() >> 32) * n) >> 32


def random_playout(e: Engine, rng: SplitMix64) -> int:
    below = rng.below
    play = e.play
    while e.result == ONGOING:
        moves = legal_moves(e)
        play(moves[below(len(moves))])
    return e.result


def smart_playout(e: Engine, rng: SplitMix64) -> int:
    """Takes a move that wins the game at once; otherwise avoids moves that let the
    opponent win at once.  A random move is drawn first and only if it hands over
    the game are the others filtered."""
    below = rng.below
    play = e.play
    won = e.won
    while e.result == ONGOING:
        p = e.player
        open_boards = FULL & ~(won[0] | won[1] | e.drawn)
        if WINNING_BOARDS[won[p]] & open_boards:
            win = first_game_winning_move(e, p, playable_mask(e))
            if win >= 0:
                play(win)
                break
        moves = legal_moves(e)
        move = moves[below(len(moves))]
        targets = WINNING_BOARDS[won[1 - p]] & open_boards
        if targets and hands_over(e, move, targets):
            safe = [m for m in moves if not hands_over(e, m, targets)]
            if safe:
                move = safe[below(len(safe))]
        play(move)
    return e.result


def board_after(e: Engine, move: int) -> tuple[int, int, int, int, int]:
    """What `move` by the player to move touches: its board and cell, that board's cells of
    the mover (the move made) and of the opponent, and the boards closed before it."""
    cells, p = e.cells, e.player
    b, c = BOARD_OF[move], CELL_OF[move]
    return b, c, cells[p * 9 + b] | 1 << c, cells[(1 - p) * 9 + b], e.won[0] | e.won[1] | e.drawn


def hands_over(e: Engine, move: int, targets: int) -> bool:
    """Whether `move` lets the opponent win the game with their reply.

    `targets`: the open boards whose capture would complete a big-board line
    for the opponent (only those can give them the game at once).
    """
    cells, p, q = e.cells, e.player, 1 - e.player
    b, c, mine, theirs, closed = board_after(e, move)
    if IS_WIN[mine] or mine | theirs == FULL:
        closed |= 1 << b
        targets &= ~(1 << b)
    reachable = targets if closed >> c & 1 else targets & 1 << c  # free move or board c
    for d in BITS[reachable]:
        if d != b:
            mine, theirs = cells[p * 9 + d], cells[q * 9 + d]
        if THREATS[theirs] & FULL & ~(mine | theirs):
            return True
    return False
