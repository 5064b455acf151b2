"""Ultimate Tic-Tac-Toe rules (docs/rules.md §uttt): unit tests and a check against the naive engine."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.uttt.ai_naive import NaiveBoard
from companion.play.registry import get
from companion.play.state import Refused
from companion.games.uttt.rules import DRAW, ONGOING, Engine, UtttState, move

GAME = get("uttt")

# X takes the top row of board 0, O answering with cell 0 (back to board 0); the last X
# move (cell 0) points at board 0, now won: O gets a free move.
X_TAKES_BOARD_0 = [0 * 9 + 1, 1 * 9 + 0, 0 * 9 + 2, 2 * 9 + 0, 0 * 9 + 0]


def play(*cells):
    return GAME.replay({}, [move(c) for c in cells])


def test_registered_with_titles():
    assert GAME.title == {"ja": "アルティメット三目並べ", "en": "Ultimate Tic-Tac-Toe"}
    state = GAME.new_state()
    assert state.seats == 2 and state.to_move() == 0


def test_every_seat_sees_the_public_view():
    state = play(*X_TAKES_BOARD_0)
    assert state.view(0) == state.view(1) == state.view(None)
    assert state.secrets(0) == state.secrets(1) == []


def test_first_move_may_go_anywhere():
    assert GAME.new_state().legal_actions() == [{"type": "move", "cell": n} for n in range(81)]
    assert GAME.new_state().view(None)["free_move"] is True


def test_cell_played_sends_opponent_to_that_board():
    state = play(4 * 9 + 2)  # board 4, cell 2 (top right)
    assert state.legal_actions() == [move(2 * 9 + c) for c in range(9)]
    assert state.legal_cells() == [2 * 9 + c for c in range(9)]
    view = state.view(None)
    assert view["playable_boards"] == [2] and view["free_move"] is False
    assert view["to_move"] == 1 and view["mark_to_move"] == "O" and view["last_move"] == 38


def test_playing_outside_the_sent_board_is_refused_unchanged():
    state = play(4 * 9 + 2)
    before = state.to_json()
    with pytest.raises(Refused, match="board 2"):
        state.apply(move(5 * 9 + 0))
    assert state.to_json() == before


def test_taken_cell_and_junk_are_refused():
    state = play(0, 0 * 9 + 4)  # X sends O to board 0; O plays cell 4 there
    with pytest.raises(Refused, match="taken"):
        play(4 * 9 + 4, 4 * 9 + 4)
    junk = (True, "1", 81, -1, 2.0, None, [1], 40, {"cell": 40}, {"type": "move"},
            {"type": "move", "cell": True}, {"type": "move", "cell": 81}, {"type": "move", "cell": "40"},
            {"type": "place", "cell": 40}, {"type": "move", "cell": 40, "extra": 1})
    for action in junk:
        with pytest.raises(Refused):
            state.apply(action)


def test_winning_a_small_board_closes_it_and_sending_there_is_free():
    state = play(*X_TAKES_BOARD_0)
    view = state.view(None)
    assert view["boards"][0] == "X" and view["board_lines"][0] == [0, 1, 2]
    assert view["cells"][0:3] == ["X", "X", "X"] and view["cells"][3:9] == [None] * 6
    assert view["free_move"] is True and view["playable_boards"] == list(range(1, 9))
    assert all(a["cell"] // 9 != 0 for a in state.legal_actions())
    with pytest.raises(Refused, match="closed"):
        state.apply(move(0 * 9 + 5))


def test_sends_to_previews_the_destination():
    state = play(*X_TAKES_BOARD_0)  # O to move anywhere but board 0
    assert state.sends_to(2 * 9 + 4) == 4
    assert state.sends_to(3 * 9 + 0) is None  # board 0 is won: free move
    with pytest.raises(Refused):
        state.sends_to(0 * 9 + 4)


def test_sends_to_a_board_this_very_move_closes_is_free():
    # X owns cells 0 and 4 of board 8 and wins it with cell 8, which points back at board 8
    state = play(8 * 9 + 0, 0 * 9 + 8, 8 * 9 + 4, 4 * 9 + 8)
    assert state.sends_to(8 * 9 + 8) is None
    assert state.apply(move(8 * 9 + 8)).view(None)["boards"][8] == "X"


def engine_with(x_won=(), o_won=(), drawn=(), **boards):
    """A hand-made position: boards listed as b<k>=(x_cells_mask, o_cells_mask)."""
    e = Engine()
    e.won = [sum(1 << b for b in x_won), sum(1 << b for b in o_won)]
    e.drawn = sum(1 << b for b in drawn)
    for name, (x_mask, o_mask) in boards.items():
        b = int(name[1:])
        e.cells[b], e.cells[9 + b] = x_mask, o_mask
    return e


# X O X / X O O / O X . : X to fill the last cell without making a line
NEARLY_DRAWN = (0b010_001_101, 0b001_110_010)


def test_full_board_without_line_is_drawn_and_belongs_to_nobody():
    e = engine_with(b4=NEARLY_DRAWN)
    e.forced = 4
    e.play(4 * 9 + 8)
    assert e.drawn == 1 << 4 and e.won == [0, 0] and e.result == ONGOING
    assert e.forced == 8  # board 8 is still open
    e.play(8 * 9 + 4)  # O sends X back to the drawn board: free move
    assert e.forced == -1 and 4 not in e.playable_boards()
    state = UtttState((4 * 9 + 8, 8 * 9 + 4), _engine=e)
    view = state.view(None)
    assert view["boards"][4] == "draw" and view["board_lines"][4] is None
    assert view["free_move"] is True


def test_early_draw_as_soon_as_every_big_line_is_blocked():
    # big board X O X / X O . / O X . ; O wins board 5, blocking 2-5-8: boards 8 still open
    e = engine_with(x_won=(0, 2, 3, 7), o_won=(1, 4, 6), b5=(0b000_011_000, 0b000_000_011))
    e.player, e.forced = 1, 5
    assert e.legal_moves()
    e.play(5 * 9 + 2)
    assert e.result == DRAW and e.reason() == "early_draw"
    assert e.legal_moves() == [] and not e.closed() >> 8 & 1


def test_draw_when_all_boards_finish_without_a_line():
    # big board X X O / X X O / O O . ; 0-4-8 is still free for X until board 8 is drawn
    e = engine_with(x_won=(0, 1, 3, 4), o_won=(2, 5, 6, 7), b8=NEARLY_DRAWN)
    e.forced = 8
    e.play(8 * 9 + 8)
    assert e.result == DRAW and e.reason() == "all_boards_done"


def test_three_won_boards_in_a_line_win():
    e = engine_with(x_won=(0, 4), o_won=(1, 2), b8=(0b000_010_001, 0b000_001_010))
    e.forced = 8
    e.play(8 * 9 + 8)  # X completes 0-4-8 in board 8 and 0-4-8 on the big board
    state = UtttState((8 * 9 + 8,), _engine=e)
    assert state.outcome().winner == 0 and state.outcome().reason == "three_boards"
    view = state.view(None)
    assert view["winning_line"] == [0, 4, 8] and view["to_move"] is None
    assert view["playable_boards"] == [] and view["free_move"] is False
    assert state.legal_actions() == []
    with pytest.raises(Refused, match="over"):
        state.apply(move(1 * 9 + 1))


def test_json_round_trip_and_bad_saves():
    state = play(*X_TAKES_BOARD_0)
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    with pytest.raises(Refused):
        GAME.state_from_json({"moves": [0, 0]})
    with pytest.raises(Refused):
        GAME.state_from_json({})


def naive_view(board: NaiveBoard):
    winner = {None: ONGOING, "X": 0, "O": 1, "draw": DRAW}[board.winner]
    return sorted(board.legal_moves()), board.status, winner, board.reason


def engine_view(e: Engine, state: UtttState):
    status = state.view(None)["boards"]
    return sorted(e.legal_moves()), status, e.result, e.reason()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fast_engine_and_state_agree_with_naive_rules(seed):
    rng = random.Random(seed)
    state, naive = GAME.new_state(), NaiveBoard()
    while True:
        e = state.engine()
        assert engine_view(e, state) == naive_view(naive)
        assert sorted(state.legal_cells()) == sorted(naive.legal_moves())
        assert state.legal_actions() == [move(c) for c in state.legal_cells()]
        if naive.winner is not None:
            assert state.is_over()
            return
        cell = rng.choice(naive.legal_moves())
        sent = state.sends_to(cell)
        state = state.apply(move(cell))
        naive.play(cell)
        expected = naive.forced if naive.winner is None else None
        assert sent == expected
