"""Every game's move counts, pinned (issue 45; as python-chess runs perft in CI): the number
of action sequences of length 1, 2 and 3 from fixed positions, for every option set the
conformance suite plays.  A change to a game's rules that adds, loses or doubles a legal
action changes a count here, and must say so by changing the pin.  (A count by hand agrees:
Ultimate Tic-Tac-Toe's 720 at depth 2 is 72 first moves sending to another board of 9
empty cells, and 9 sending back to their own board, now of 8.)

The positions: the start, and 20 actions into a game played by a seeded random player.
Depth 3 is counted where the tree stays small (a placement's hundreds of choices stop at
depth 1)."""

from __future__ import annotations

import random

import pytest

from companion.play import registry

LEAVES = 30_000  # depth 3 only where it stays under this many sequences


def perft(state, depth: int) -> int:
    """The action sequences of length `depth` from `state` (a finished game's ends them)."""
    if depth == 0 or state.is_over():
        return 1
    return sum(perft(state.apply(action), depth - 1) for action in state.legal_actions())


def counts(state) -> tuple[int, ...]:
    """The sequences at depth 1, 2, 3, deeper only while the next count (this one times its
    growth) is likely under `LEAVES`."""
    found: list[int] = []
    last, before = 1, 1  # the last count and the one before it (1, 1: none yet)
    while len(found) < 3 and last * last // before <= LEAVES:
        found.append(perft(state, len(found) + 1))
        last, before = found[-1], last
    return tuple(found)


def positions(game, options) -> list[tuple[str, object]]:
    """The start, and 20 actions in by a seeded random player that never ends the game
    while another action keeps it going (a game's declarations end it at once)."""
    start = state = game.new_state(options)
    rng = random.Random(45)
    for _ in range(20):
        going = [a for a in state.legal_actions() if not state.apply(a).is_over()]
        if not going:
            break
        state = state.apply(rng.choice(going))
    return [("start", start), ("middle", state)]


PINNED = {  # (game, its sample option set, position): sequences at depth 1, 2, 3
    ("battleship", 0, "start"): (760,),
    ("battleship", 0, "middle"): (95, 9025),
    ("battleship", 1, "start"): (760,),
    ("battleship", 1, "middle"): (96, 96, 9120),
    ("battleship", 2, "start"): (100, 9900),
    ("battleship", 2, "middle"): (2, 4, 380),
    ("gunkan", 0, "start"): (9, 15, 39),
    ("gunkan", 0, "middle"): (3, 19, 89),
    ("gunkan", 1, "start"): (6, 12, 172),
    ("gunkan", 1, "middle"): (9, 57, 153),
    ("gunkan", 2, "start"): (6, 12, 172),
    ("gunkan", 2, "middle"): (9, 57, 153),
    ("kuku", 0, "start"): (162, 19440),
    ("kuku", 0, "middle"): (109, 10963),
    ("kuku", 1, "start"): (162, 19440),
    ("kuku", 1, "middle"): (109, 10963),
    ("kuku", 2, "start"): (117, 3224),
    ("kuku", 2, "middle"): (84, 195, 12510),
    ("kuku", 3, "start"): (117, 3224),
    ("kuku", 3, "middle"): (84, 195, 12510),
    ("navalwar", 0, "start"): (3, 162, 8586),
    ("navalwar", 0, "middle"): (8, 79, 642),
    ("navalwar", 1, "start"): (9, 486, 25758),
    ("navalwar", 1, "middle"): (35, 1190),
    ("navalwar", 2, "start"): (2, 108, 5724),
    ("navalwar", 2, "middle"): (3, 5, 9),
    ("uttt", 0, "start"): (81, 720, 6336),
    ("uttt", 0, "middle"): (6, 42, 279),
}


CASES = [(name, i, opts) for name, game in registry.games().items() for i, opts in enumerate(game.sample_options)]


@pytest.mark.parametrize("name, index, options", CASES, ids=[f"{n}-{i}" for n, i, _ in CASES])
def test_move_counts_are_pinned(name, index, options):
    for where, state in positions(registry.get(name), options):
        assert counts(state) == PINNED[name, index, where], f"{name} {options} at its {where}"
