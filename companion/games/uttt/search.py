"""The search of the computer opponent in pure Python: an MCTS-solver.

The compiled `core.c` runs the same search step for step (same move order, same
random numbers, same arithmetic), about a hundred times faster; this module is
the fallback where the core is not built, and the reference that a test holds
the core to: for a seed and an iteration budget both give the same move.

One iteration descends by UCB1 from the root, lists a node's moves the first
time it is reached, adds one untried child (a random one), plays a playout from
it and backs the result up.  With `solver` on, finished games found in the tree
are game-theoretic values (win / draw / loss) carried up, so a forced win is
played and a proven loss avoided; a node whose player can win the game at once
gets that single move as its only child.  `prior_weight` seeds each new child
with that many virtual visits valued by `move_prior`.
"""

from __future__ import annotations

import math
import time
from typing import Callable

from companion.games.uttt.playout import (
    SplitMix64, board_after, first_game_winning_move, legal_moves, playable_mask, random_playout,
    smart_playout,
)
from companion.games.uttt.rules import DRAW, FULL, IS_WIN, ONGOING, THREATS, Engine

NOT_PROVEN = -1  # proven values, in halves for the player who moved into the node: 0, 1, 2


def move_prior(e: Engine, move: int) -> float:
    """A rough value in [0, 1] of `move` for the player making it, before any search.

    Taking a board is good, blocking the opponent's line in it too; giving the
    opponent a free move, or sending them where they can take a board, is bad.
    """
    cells, p, q = e.cells, e.player, 1 - e.player
    b, c, mine, theirs, closed = board_after(e, move)
    value = 0.5
    if IS_WIN[mine]:
        value += 0.2
        closed |= 1 << b
    elif mine | theirs == FULL:
        closed |= 1 << b
    elif THREATS[theirs] >> c & 1:
        value += 0.1
    if closed >> c & 1:
        return value - 0.2
    if c != b:
        mine, theirs = cells[p * 9 + c], cells[q * 9 + c]
    if THREATS[theirs] & FULL & ~(mine | theirs):
        value -= 0.15
    return value


class Node:
    """A position in the tree, reached by `move` made by `mover`."""

    __slots__ = ("move", "mover", "parent", "children", "moves", "visits", "wins", "proven")

    def __init__(self, move: int, mover: int, parent: "Node | None") -> None:
        self.move = move
        self.mover = mover
        self.parent = parent
        self.children: list[Node] = []  # in the tree, in the order they were added
        self.moves: list[int] | None = None  # listed the first time the node is reached
        self.visits = 0
        self.wins = 0.0
        self.proven = NOT_PROVEN


class Search:
    """One MCTS run from a position (`engine` is not changed)."""

    def __init__(self, engine: Engine, seed: int, solver: bool, smart: bool,
                 exploration: float, prior_weight: int) -> None:
        self.engine = engine
        self.rng = SplitMix64(seed)
        self.solver = solver
        self.playout = smart_playout if smart else random_playout
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.root = Node(-1, 1 - engine.player, None)
        self.iterations = 0

    def run(self, max_iterations: int | None, seconds: float | None,
            clock: Callable[[], float] = time.perf_counter) -> int:
        deadline = None if seconds is None else clock() + seconds
        root = self.root
        while root.proven == NOT_PROVEN:
            if max_iterations is not None and self.iterations >= max_iterations:
                break
            if deadline is not None and self.iterations % 8 == 0 and clock() >= deadline:
                break
            self.iterate()
            self.iterations += 1
        return self.best_move()

    def list_moves(self, node: Node, e: Engine) -> list[int]:
        win = first_game_winning_move(e, e.player, playable_mask(e)) if self.solver else -1
        node.moves = [win] if win >= 0 else list(legal_moves(e))
        return node.moves

    def iterate(self) -> None:
        e = self.engine.copy()
        node = self.root
        while e.result == ONGOING:
            moves = node.moves if node.moves is not None else self.list_moves(node, e)
            done = len(node.children)
            if done < len(moves):
                i = done + self.rng.below(len(moves) - done)
                moves[i], moves[done] = moves[done], moves[i]
                move = moves[done]
                child = Node(move, e.player, node)
                if self.prior_weight:
                    child.visits = self.prior_weight
                    child.wins = move_prior(e, move) * self.prior_weight
                node.children.append(child)
                e.play(move)
                if e.result != ONGOING and self.solver:
                    child.proven = reward2(e.result, child.mover)
                node = child
                break
            node = select(node, self.exploration)
            e.play(node.move)
        result = e.result if e.result != ONGOING else self.playout(e, self.rng)
        proving = self.solver and node.proven != NOT_PROVEN
        up: Node | None = node
        while up is not None:
            up.visits += 1
            up.wins += reward2(result, up.mover) * 0.5
            parent = up.parent
            if proving and parent is not None:
                proving = prove(parent)
            up = parent

    def best_move(self) -> int:
        children = self.root.children
        if not children:
            moves = list(legal_moves(self.engine))
            return moves[self.rng.below(len(moves))]
        for child in children:
            if child.proven == 2:
                return child.move
        hopeful = any(ch.proven != 0 for ch in children)
        best = None
        for ch in children:
            if hopeful and ch.proven == 0:
                continue
            if best is None or ch.visits > best.visits or (ch.visits == best.visits and ch.wins > best.wins):
                best = ch
        assert best is not None, "some child is kept: every one, or (hopeful) those proven"
        return best.move


def reward2(result: int, player: int) -> int:
    """What a finished game's `result` is worth to `player`, in halves."""
    if result == DRAW:
        return 1
    return 2 if result == player else 0


def select(node: Node, c: float) -> Node:
    """The child to descend into: highest UCB1 among the children not yet proven."""
    log_n = math.log(float(node.visits))
    best, best_score = None, -1.0
    for child in node.children:
        if child.proven != NOT_PROVEN:
            continue
        n = float(child.visits)
        score = child.wins / n + c * math.sqrt(log_n / n)
        if score > best_score:
            best, best_score = child, score
    return best if best is not None else node.children[0]


def prove(node: Node) -> bool:
    """Set `node.proven` if its children decide it; True if it did."""
    if node.proven != NOT_PROVEN:
        return False
    values = [ch.proven for ch in node.children]
    assert node.moves is not None, "listed before its first child was added"
    if 2 in values:
        node.proven = 0
    elif len(node.children) == len(node.moves) and NOT_PROVEN not in values:
        node.proven = 2 - max(values)
    else:
        return False
    return True
