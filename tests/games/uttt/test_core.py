"""The compiled core and the pure-Python search are one search: same move, same
iteration count, for the same seed and budget, on positions from whole games."""

import os
import random

from hypothesis import given, settings, strategies as st

from companion.games.uttt import core
from companion.games.uttt.ai import LEVELS, choose_move, config_for, search_move
from companion.games.uttt.playout import SplitMix64, legal_moves
from companion.games.uttt.rules import ONGOING, Engine


def random_position(seed: int, plies: int) -> Engine:
    rng = random.Random(seed)
    e = Engine()
    for _ in range(plies):
        moves = list(legal_moves(e))
        e.play(rng.choice(moves))
        if e.result != ONGOING:
            return random_position(seed + 1, plies // 2)
    return e


def test_the_core_is_built_and_fresh():
    assert core.LIBRARY is not None, "build it: python -m companion.games.uttt.core"


def test_a_stale_or_missing_core_is_not_loaded(tmp_path):
    assert core.load(tmp_path / "missing.so") is None
    stale = core.build(tmp_path / "stale.so")
    assert core.load(stale) is not None
    old = core.SOURCE.stat().st_mtime - 10
    os.utime(stale, (old, old))
    assert core.load(stale) is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60), level=st.sampled_from(list(LEVELS)),
       iterations=st.sampled_from([0, 1, 7, 120, 400]), search_seed=st.integers(0, 2**64 - 1))
def test_core_and_python_choose_the_same_move(seed, plies, level, iterations, search_seed):
    e = random_position(seed, plies)
    config = config_for(level, iterations=iterations)
    compiled = search_move(e, config, search_seed, "core")
    python = search_move(e, config, search_seed, "python")
    assert compiled[:2] == python[:2]
    assert compiled[0] in legal_moves(e)


def test_same_seed_same_move_on_fixed_positions():
    """Named positions, for a failure one can replay: the opening, a forced board, late game."""
    for seed, plies in [(0, 0), (1, 9), (2, 25), (3, 41), (4, 55)]:
        e = random_position(seed, plies)
        for level in LEVELS:
            config = config_for(level, iterations=500)
            assert search_move(e, config, 99, "core")[:2] == search_move(e, config, 99, "python")[:2]


def test_splitmix_draws_are_uniform_enough_and_in_range():
    rng = SplitMix64(7)
    counts = [0] * 9
    for _ in range(9000):
        counts[rng.below(9)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_without_the_core_the_computer_plays_in_pure_python(monkeypatch):
    monkeypatch.setattr(core, "LIBRARY", None)
    stats = {}
    e = random_position(5, 20)
    move = choose_move(e, "medium", random.Random(2), iterations=50, stats=stats)
    assert stats["backend"] == "python" and move["cell"] in legal_moves(e)
