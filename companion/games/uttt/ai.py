"""The computer opponent for Ultimate Tic-Tac-Toe: Monte Carlo tree search.

The search (an MCTS-solver with smart playouts, `search.py`) runs in the
compiled core (`core.c`) where it is built, else in pure Python; both give the
same move for the same seed and iteration budget.  The levels:

    easy    初級  60 iterations, plain playouts, no solver, one move in ten at random
    medium  中級  400 iterations, solver, plain playouts
    hard    上級  1 second of search, solver, smart playouts, priors

Easy and medium are defined by their strength, an iteration budget that plays
the same on every machine (bench/uttt_ai.py measures them against a random and
a one-ply player); hard by time, so it is as strong as the machine allows:
some 0.25-0.3 M iterations per CPU second with the core on a PC core, an
estimated third of that on a Raspberry Pi 4 (not measured there), about 3.7 k
in pure Python.

`choose_move` is pure: all randomness comes from the injected `random.Random`,
nothing is shared between calls, and the core releases the GIL, so it can run
in a background thread while the interface stays live.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Callable

from companion.errors import UnknownLevel
from companion.games.uttt import core
from companion.i18n import Words
from companion.games.uttt.playout import legal_moves
from companion.games.uttt.rules import ONGOING, Engine, UtttState, move as action
from companion.games.uttt.search import Search
from companion.play.state import Refused


@dataclass(frozen=True)
class SearchConfig:
    """How one level searches: an iteration budget, a time budget, or both (None: none)."""

    iterations: int | None
    time_limit: float | None
    solver: bool = True
    smart_rollouts: bool = True
    exploration: float = 0.8
    random_move_rate: float = 0.0  # chance of playing a uniformly random move instead
    prior_weight: int = 0  # virtual visits that seed a new node with `move_prior`


LEVELS: dict[str, SearchConfig] = {
    "easy": SearchConfig(iterations=60, time_limit=None, solver=False, smart_rollouts=False,
                         exploration=1.4, random_move_rate=0.1),
    "medium": SearchConfig(iterations=400, time_limit=None, smart_rollouts=False, exploration=1.0),
    "hard": SearchConfig(iterations=None, time_limit=1.0, prior_weight=10),
}
LEVEL_TITLES = {"easy": "初級", "medium": "中級", "hard": "上級"}


def config_for(level: str | SearchConfig, time_limit: float | None = None,
               iterations: int | None = None) -> SearchConfig:
    """The search settings of `level`, with the budget overridden where given.

    `time_limit` replaces the level's budget by that time; `iterations` by that
    many iterations (with no time limit unless one is given too: the search is
    then deterministic for a given RNG, what tests want).
    """
    if isinstance(level, SearchConfig):
        config = level
    elif level in LEVELS:
        config = LEVELS[level]
    else:
        raise UnknownLevel(Words("play.unknown_level", level=repr(level), levels=sorted(LEVELS)))
    if iterations is not None:
        return replace(config, iterations=iterations, time_limit=time_limit)
    if time_limit is not None:
        return replace(config, iterations=None, time_limit=time_limit)
    return config


def choose_move(state: UtttState | Engine, level: str | SearchConfig = "medium",
                rng: random.Random | None = None, time_limit: float | None = None,
                iterations: int | None = None, stats: dict | None = None,
                backend: str | None = None,
                clock: Callable[[], float] = time.perf_counter) -> dict:
    """The move the computer plays in `state` at `level` (an action for `state.apply`).

    `level` is "easy", "medium", "hard" or a `SearchConfig`; `time_limit` (seconds)
    and `iterations` override its budget (see `config_for`).  `backend` "core" or
    "python" forces one (default: the core if built).  `stats`, if given, receives
    "iterations" and "backend".  Raises `CompanionError` for an unknown level or a
    finished game.
    """
    config = config_for(level, time_limit, iterations)
    rng = rng if rng is not None else random.Random()
    engine = state.engine() if isinstance(state, UtttState) else state.copy()
    if engine.result != ONGOING:
        raise Refused("uttt_errors.game_over")
    moves = list(legal_moves(engine))
    seed = rng.getrandbits(64)
    if len(moves) == 1:
        return action(moves[0])
    if config.random_move_rate and rng.random() < config.random_move_rate:
        return action(rng.choice(moves))
    cell, done, used = search_move(engine, config, seed, backend, clock)
    if stats is not None:
        stats.update(iterations=done, backend=used)
    return action(cell)


def search_move(engine: Engine, config: SearchConfig, seed: int, backend: str | None = None,
                clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, str]:
    """The searched move for the ongoing `engine`, the iterations run and the backend used."""
    lib = core.LIBRARY if backend in (None, "core") else None
    if backend == "core" and lib is None:
        raise RuntimeError("the UTTT core is not built: run `python -m companion.games.uttt.core`")
    if lib is not None:
        cell, done = core.search(lib, engine, seed, config.iterations, config.time_limit,
                                 config.solver, config.smart_rollouts, config.exploration,
                                 config.prior_weight)
        return cell, done, "core"
    search = Search(engine, seed, config.solver, config.smart_rollouts, config.exploration,
                    config.prior_weight)
    cell = search.run(config.iterations, config.time_limit, clock)
    return cell, search.iterations, "python"
