"""The computer opponent for Ultimate Tic-Tac-Toe: Monte Carlo tree search.

Searches on the fast bitboard `Engine`.  With `solver` on it is an MCTS-solver:
game-theoretic values (win / draw / loss) found at terminal positions are
propagated up the tree, so a forced win is played and a proven loss avoided.
With `smart_rollouts` on, playouts take an immediate game win and avoid
handing the opponent one.  With `prior_weight`, each new node starts with
that many virtual visits valued by `move_prior` (taking a board is good,
giving a free move is bad).  Three levels differ in budget and finesse:

    easy    初級  50 iterations, plain playouts, and one move in ten at random
    medium  中級  200 iterations, solver, plain playouts
    hard    上級  500 iterations (at most 1 s), solver, smart playouts, priors

`choose_move` is pure: all randomness comes from the injected `random.Random`,
nothing is shared between calls, so it can run in a background thread.
The budget is time-based with an optional iteration cap; tests pass a cap
and no time limit to be deterministic.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import Callable

from companion.games.uttt.playout import (
    game_winning_moves, legal_moves, playable_mask, random_playout, smart_playout,
)
from companion.errors import CompanionError
from companion.play.state import IllegalAction
from companion.games.uttt.rules import (
    BOARD_OF, CELL_OF, DRAW, FULL, IS_WIN, ONGOING, THREATS, Engine, UtttState, move as action,
)

WIN, HALF, LOSS = 1.0, 0.5, 0.0  # values for the player who made the move into a node


@dataclass(frozen=True)
class SearchConfig:
    """How one level searches.  `iterations` and `time_limit` are caps (None: no cap)."""

    iterations: int | None
    time_limit: float | None
    solver: bool = True
    smart_rollouts: bool = True
    exploration: float = 0.8
    random_move_rate: float = 0.0  # chance of playing a uniformly random move instead
    prior_weight: float = 0.0  # virtual visits that seed a new node with `move_prior`


LEVELS: dict[str, SearchConfig] = {
    "easy": SearchConfig(iterations=50, time_limit=0.5, solver=False, smart_rollouts=False,
                         exploration=1.4, random_move_rate=0.1),
    "medium": SearchConfig(iterations=200, time_limit=0.5, smart_rollouts=False, exploration=1.0),
    "hard": SearchConfig(iterations=500, time_limit=1.0, prior_weight=10),
}
LEVEL_TITLES = {"easy": "初級", "medium": "中級", "hard": "上級"}

# Plain UCT with random playouts: the yardstick the benchmark measures `hard` against.
REFERENCE = SearchConfig(iterations=None, time_limit=0.5, solver=False, smart_rollouts=False,
                         exploration=math.sqrt(2))


class UnknownLevel(CompanionError, ValueError):
    """A level name that does not exist."""


def config_for(level: str | SearchConfig, time_limit: float | None = None,
               iterations: int | None = None) -> SearchConfig:
    """The search settings of `level`, with the budget overridden where given.

    `iterations` without `time_limit` drops the level's time limit: the search
    is then deterministic for a given RNG (what tests want).
    """
    if isinstance(level, SearchConfig):
        config = level
    elif level in LEVELS:
        config = LEVELS[level]
    else:
        raise UnknownLevel(f"強さ {level!r} はありません。/ No level {level!r}; "
                           f"choose one of {sorted(LEVELS)}.")
    if time_limit is not None:
        config = replace(config, time_limit=time_limit)
    if iterations is not None:
        config = replace(config, iterations=iterations, time_limit=time_limit)
    return config


def choose_move(state: UtttState | Engine, level: str | SearchConfig = "medium",
                rng: random.Random | None = None, time_limit: float | None = None,
                iterations: int | None = None,
                clock: Callable[[], float] = time.perf_counter) -> dict:
    """The move the computer plays in `state` at `level` (an action for `state.apply`;
    the search itself works on cell numbers).

    `level` is "easy", "medium", "hard" or a `SearchConfig`; `time_limit` (seconds)
    and `iterations` override its budget (see `config_for`).  Raises
    `CompanionError` for an unknown level or a finished game.
    """
    config = config_for(level, time_limit, iterations)
    rng = rng if rng is not None else random.Random()
    engine = state.engine() if isinstance(state, UtttState) else state.copy()
    if engine.result != ONGOING:
        raise IllegalAction("uttt_errors.game_over")
    moves = list(legal_moves(engine))
    if len(moves) == 1:
        return action(moves[0])
    if config.random_move_rate and rng.random() < config.random_move_rate:
        return action(rng.choice(moves))
    return action(Search(engine, config, rng, clock).run())


class Node:
    """A position in the tree, reached by `move` made by `mover`."""

    __slots__ = ("move", "mover", "parent", "children", "untried", "visits", "wins", "proven")

    def __init__(self, move: int, parent: "Node | None", engine: Engine, solver: bool) -> None:
        self.move = move
        self.mover = 1 - engine.player
        self.parent = parent
        self.children: list[Node] = []
        self.visits = 0
        self.wins = 0.0
        self.proven: float | None = None
        if engine.result != ONGOING:
            self.untried: list[int] = []
            if solver:
                self.proven = reward(engine.result, self.mover)
            return
        moves = list(legal_moves(engine))
        if solver:
            winning = game_winning_moves(engine, engine.player, playable_mask(engine))
            if winning:  # one game-winning move settles this node: no need for others
                moves = winning[:1]
        self.untried = moves


def reward(result: int, player: int) -> float:
    """What a finished game's `result` is worth to `player`."""
    if result == DRAW:
        return HALF
    return WIN if result == player else LOSS


class Search:
    """One MCTS run from a position."""

    def __init__(self, engine: Engine, config: SearchConfig, rng: random.Random,
                 clock: Callable[[], float]) -> None:
        self.engine = engine
        self.config = config
        self.rng = rng
        self.clock = clock
        self.playout = smart_playout if config.smart_rollouts else random_playout
        self.root = Node(-1, None, engine, config.solver)
        self.iterations = 0

    def run(self) -> int:
        config = self.config
        deadline = None if config.time_limit is None else self.clock() + config.time_limit
        cap = config.iterations
        root = self.root
        while root.proven is None:
            if cap is not None and self.iterations >= cap:
                break
            if deadline is not None and self.iterations % 8 == 0 and self.clock() >= deadline:
                break
            self.iterate()
            self.iterations += 1
        return self.best_move()

    def iterate(self) -> None:
        node = self.root
        engine = self.engine.copy()
        c = self.config.exploration
        while not node.untried and node.children:
            node = select(node, c)
            engine.play(node.move)
        untried = node.untried
        if untried:
            i = int(self.rng.random() * len(untried))
            untried[i], untried[-1] = untried[-1], untried[i]
            move = untried.pop()
            prior = move_prior(engine, move) if self.config.prior_weight else 0.0
            engine.play(move)
            child = Node(move, node, engine, self.config.solver)
            if prior:
                child.visits = self.config.prior_weight
                child.wins = prior * self.config.prior_weight
            node.children.append(child)
            node = child
        result = engine.result if engine.result != ONGOING else self.playout(engine, self.rng)
        self.backpropagate(node, result)

    def backpropagate(self, node: Node | None, result: int) -> None:
        proving = self.config.solver and node is not None and node.proven is not None
        while node is not None:
            node.visits += 1
            node.wins += reward(result, node.mover)
            parent = node.parent
            if proving and parent is not None:
                proving = prove(parent)
            node = parent

    def best_move(self) -> int:
        children = self.root.children
        if not children:
            return self.rng.choice(self.root.untried)
        for child in children:
            if child.proven == WIN:
                return child.move
        hopeful = [ch for ch in children if ch.proven != LOSS] or children
        return max(hopeful, key=lambda ch: (ch.visits, ch.wins)).move


def select(node: Node, c: float) -> Node:
    """The child to descend into: highest UCB1 among the children not yet proven."""
    log_n = math.log(node.visits)
    best, best_score = None, -1.0
    for child in node.children:
        if child.proven is not None:
            continue
        n = child.visits
        score = child.wins / n + c * math.sqrt(log_n / n)
        if score > best_score:
            best, best_score = child, score
    return best if best is not None else node.children[0]


def prove(node: Node) -> bool:
    """Set `node.proven` if its children decide it; True if it did."""
    if node.proven is not None:
        return False
    values = [ch.proven for ch in node.children]
    if WIN in values:
        node.proven = LOSS
    elif not node.untried and None not in values:
        node.proven = WIN - max(values)
    else:
        return False
    return True


def move_prior(e: Engine, move: int) -> float:
    """A rough value in [0, 1] of `move` for the player making it, before any search.

    Taking a board is good, blocking the opponent's line in it too; giving the
    opponent a free move, or sending them where they can take a board, is bad.
    """
    cells = e.cells
    p = e.player
    q = 1 - p
    b, c = BOARD_OF[move], CELL_OF[move]
    mine = cells[p * 9 + b] | 1 << c
    theirs = cells[q * 9 + b]
    value = 0.5
    closed = e.won[0] | e.won[1] | e.drawn
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
