"""The Ultimate Tic-Tac-Toe computer opponent: legal, deterministic with a cap, and not silly,
in the compiled core and in pure Python alike."""

import random
import threading
import time

import pytest

from companion.games.uttt import core
from companion.games.uttt.ai import LEVEL_TITLES, LEVELS, choose_move, config_for
from companion.games.uttt.playout import SplitMix64, hands_over, random_playout, smart_playout
from companion.games.uttt.search import Search, move_prior
from companion.errors import CompanionError
from companion.play.registry import get
from companion.games.uttt.rules import DRAW, ONGOING, Engine, move

GAME = get("uttt")
BACKENDS = ["core", "python"]


@pytest.fixture(autouse=True, scope="module")
def _core_built():
    assert core.LIBRARY is not None, "the UTTT core is not built: python -m companion.games.uttt.core"


def position(player=0, forced=-1, x_won=(), o_won=(), **boards):
    """A hand-made engine: boards given as b<k>=(x_cells, o_cells) lists of cells."""
    e = Engine()
    e.player, e.forced = player, forced
    e.won = [sum(1 << b for b in x_won), sum(1 << b for b in o_won)]
    for name, (xs, os) in boards.items():
        b = int(name[1:])
        e.cells[b] = sum(1 << c for c in xs)
        e.cells[9 + b] = sum(1 << c for c in os)
    return e


# X owns boards 0 and 1 and has cells 0, 1 of board 2: cell 2 of board 2 wins the game.
X_CAN_WIN = dict(x_won=(0, 1), o_won=(4,), b2=([0, 1], [4, 8]))
# O owns boards 0 and 1 and has cells 0, 1 of board 2; X must play in board 5.  Cells
# 0 and 1 give O a free move (boards 0, 1 are closed), cell 2 sends O to board 2: all lose.
O_THREATENS = dict(x_won=(4,), o_won=(0, 1), b2=([4, 8], [0, 1]), b5=([4], [8]))


def test_levels_and_titles():
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert LEVEL_TITLES == {"easy": "初級", "medium": "中級", "hard": "上級"}
    with pytest.raises(CompanionError, match="level") as refused:
        config_for("grandmaster")
    from companion.i18n import said  # the words from the catalog, in each language

    assert said(refused.value, "ja") == "強さ 'grandmaster' はありません（['easy', 'hard', 'medium'] のどれか）。"
    assert said(refused.value, "en") == "No level 'grandmaster'; choose one of ['easy', 'hard', 'medium']."


def test_levels_are_defined_by_strength_or_time_not_a_hidden_cap():
    assert LEVELS["hard"].iterations is None and LEVELS["hard"].time_limit == 1.0
    for level in ("easy", "medium"):
        assert LEVELS[level].time_limit is None and LEVELS[level].iterations > 0
    assert config_for("hard", time_limit=0.2).iterations is None
    assert config_for("easy", time_limit=0.2).iterations is None


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_legal_moves_to_the_end(level, backend):
    rng = random.Random(7)
    state = GAME.new_state()
    while not state.is_over():
        move = choose_move(state, level, rng, iterations=15, backend=backend)
        assert move in state.legal_actions()
        state = state.apply(move)


@pytest.mark.parametrize("backend", BACKENDS)
def test_capped_search_is_deterministic_and_thread_safe(backend):
    state = GAME.replay({}, [move(4 * 9 + 4), move(4 * 9 + 0), move(0 * 9 + 4)])
    first = choose_move(state, "hard", random.Random(3), iterations=150, backend=backend)
    results = []
    thread = threading.Thread(target=lambda: results.append(
        choose_move(state, "hard", random.Random(3), iterations=150, backend=backend)))
    thread.start()
    thread.join()
    assert results == [first]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_takes_an_immediate_game_win(level, backend):
    e = position(forced=2, **X_CAN_WIN)
    assert choose_move(e, level, random.Random(1), iterations=200, backend=backend) == move(2 * 9 + 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_solver_proves_the_win_at_once(backend):
    stats = {}
    e = position(forced=2, **X_CAN_WIN)
    assert choose_move(e, "hard", random.Random(0), iterations=50, stats=stats, backend=backend) == move(2 * 9 + 2)
    assert stats == {"iterations": 1, "backend": backend}  # one iteration proves the root


def test_solver_marks_the_root_lost_for_the_player_before():
    search = Search(position(forced=2, **X_CAN_WIN), seed=0, solver=True, smart=True,
                    exploration=0.8, prior_weight=10)
    assert search.run(50, None, clock=lambda: 0.0) == 2 * 9 + 2
    assert search.root.proven == 0 and search.iterations == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_hard_avoids_handing_over_the_game(backend):
    e = position(forced=5, **O_THREATENS)
    losing = {5 * 9 + 0, 5 * 9 + 1, 5 * 9 + 2}
    assert choose_move(e, "hard", random.Random(2), iterations=300, backend=backend)["cell"] not in losing


def test_hard_searches_for_its_time_and_no_cap_ends_it_sooner():
    stats = {}
    start = time.perf_counter()
    choose_move(GAME.new_state(), "hard", random.Random(1), time_limit=0.3, stats=stats)
    took = time.perf_counter() - start
    assert 0.3 <= took < 1.5
    assert stats["iterations"] > 1000  # the core; pure Python manages some 4 k a second


def test_the_core_lets_the_interface_run_while_it_thinks():
    """The search releases the GIL: a thread thinking for 0.5 s leaves this one running."""
    thinker = threading.Thread(target=lambda: choose_move(GAME.new_state(), "hard", random.Random(1),
                                                          time_limit=0.5, backend="core"))
    ticks, start = 0, time.perf_counter()
    thinker.start()
    while thinker.is_alive():
        ticks += 1
        time.sleep(0.001)
    assert time.perf_counter() - start >= 0.45
    assert ticks > 20  # were the GIL held, this thread would not run until the search ended


def test_only_move_is_played_without_search():
    e = position(forced=2, x_won=(0,), b2=([0, 1, 5, 6], [2, 3, 4, 7]))
    assert choose_move(e, "hard", random.Random(0), iterations=0) == move(2 * 9 + 8)


def test_finished_game_has_no_move():
    with pytest.raises(CompanionError, match="over"):
        choose_move(_finished(), "easy")


def _finished():
    e = position(forced=2, **X_CAN_WIN)
    e.play(2 * 9 + 2)
    return e


def test_smart_playouts_see_which_moves_hand_over_the_game():
    e = position(forced=5, **O_THREATENS)
    targets = 1 << 2  # capturing board 2 completes O's top row
    safe = [m for m in e.legal_moves() if not hands_over(e, m, targets)]
    assert safe == [5 * 9 + 3, 5 * 9 + 5, 5 * 9 + 6, 5 * 9 + 7]


def test_smart_playout_takes_the_win_and_playouts_finish():
    rng = SplitMix64(4)
    e = position(forced=2, **X_CAN_WIN)
    assert smart_playout(e, rng) == 0 and e.last == 2 * 9 + 2
    for playout in (random_playout, smart_playout):
        for _ in range(20):
            e = Engine()
            assert playout(e, rng) in (0, 1, DRAW) and e.result != ONGOING


def test_prior_likes_taking_a_board_and_dislikes_gifts():
    e = position(forced=2, x_won=(3,), b2=([0, 2], [4, 8]), b6=([], [0, 1]))
    take = move_prior(e, 2 * 9 + 1)  # takes board 2, sends O to the empty board 1
    quiet = move_prior(e, 2 * 9 + 5)  # sends O to the empty board 5
    gift = move_prior(e, 2 * 9 + 6)  # sends O to board 6, which O can take
    free = move_prior(e, 2 * 9 + 3)  # board 3 is won: O moves anywhere
    assert take > quiet > gift > free
