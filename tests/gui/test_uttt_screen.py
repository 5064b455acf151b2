"""Ultimate Tic-Tac-Toe through the real screen, with touch events (docs/rules.md §uttt)."""

import random
import threading

import pytest

from companion.games.uttt.rules import move
from companion.play.session import tally

X_WINS = [42, 58, 38, 22, 40, 53, 72, 1, 16, 71, 80, 75, 34, 67, 76, 27, 5, 46, 9, 7,
          63, 0, 3, 35, 4]  # X completes the diagonal 0-4-8 on the last move


@pytest.fixture
def uttt(gui):
    gui.tap(gui.tile("uttt"))
    assert gui.screen.name == "uttt"
    return gui.screen


def say_yes(gui) -> None:
    """Yes to the question before a new game over a running one."""
    from kivy.core.window import Window

    from companion.ui.widgets import Ask

    gui.pump(0.3)  # the question opens
    gui.tap(next(w for w in Window.children if isinstance(w, Ask)).ids.yes)
    gui.pump(0.3)


def tap_cell(gui, screen, action, settle=True):
    gui.tap_cell(screen.ids.board, action)
    if settle:
        gui.pump(0.3)  # past the input lock


def test_opens_straight_into_a_two_player_game(gui, uttt):
    assert uttt.session is not None and uttt.mode == "2p"
    assert uttt.session.players == ["red", "blue"]
    assert "赤の番" in uttt.status_text
    gui.screenshot("uttt-start")


def test_long_press_lights_the_board_the_move_sends_to_and_release_plays(gui, uttt):
    touch = gui.press_at(*gui.cell_centre(uttt.ids.board, 4 * 9 + 2))  # centre board, top-right cell
    gui.pump(0.5)
    assert uttt.ids.board.preview == 2
    gui.screenshot("uttt-long-press-preview")
    assert uttt.session.actions == []  # nothing played while the finger is down
    touch.touch_up()
    gui.pump(0.05)
    assert uttt.session.actions == [move(38)]
    assert uttt.ids.board.preview == -1
    assert uttt.session.state.view(None)["playable_boards"] == [2]


def test_only_playable_boards_take_touches_and_the_status_says_free(gui, uttt):
    tap_cell(gui, uttt, 4 * 9 + 4)  # centre of centre: blue is sent to the centre board
    tap_cell(gui, uttt, 0)  # board 0 is dimmed: ignored
    assert uttt.session.actions == [move(40)]
    assert "青の番" in uttt.status_text and "どこでも" not in uttt.status_text
    rng = random.Random(3)
    while not uttt.session.state.view(None)["free_move"]:
        uttt.session.play(rng.choice(uttt.session.state.legal_actions()))
    uttt.refresh()
    assert "どこでも" in uttt.status_text
    view = uttt.session.state.view(None)
    assert len(view["playable_boards"]) > 1
    gui.screenshot("uttt-free-move")
    board = view["playable_boards"][-1]
    cell = next(a for a in range(board * 9, board * 9 + 9) if view["cells"][a] is None)
    played = len(uttt.session.actions)
    tap_cell(gui, uttt, cell)
    assert uttt.session.actions[played:] == [move(cell)]


def test_input_lock_stops_a_double_tap(gui, uttt):
    from kivy.tests.common import UnitTestTouch

    for action in (40, 36):  # two quick taps, no frame between them
        touch = UnitTestTouch(*gui.cell_centre(uttt.ids.board, action))
        touch.touch_down()
        touch.touch_up()
    assert uttt.session.actions == [move(40)]
    gui.pump(0.3)
    tap_cell(gui, uttt, 36)
    assert uttt.session.actions == [move(40), move(36)]


def test_two_player_undo_takes_back_one_move(gui, uttt):
    tap_cell(gui, uttt, 40)
    tap_cell(gui, uttt, 36)
    gui.tap(uttt.ids.undo)
    assert uttt.session.actions == [move(40)]
    assert "青の番" in uttt.status_text


def finish_with_a_touch(gui, uttt):
    for cell in X_WINS[:-1]:
        uttt.session.play(move(cell))
    uttt.refresh()
    tap_cell(gui, uttt, X_WINS[-1])
    assert uttt.session.state.is_over()


def test_win_gold_line_result_review_and_no_undo(gui, uttt):
    finish_with_a_touch(gui, uttt)
    assert uttt.result_text == "赤の勝ち！"
    assert uttt.ids.board.view["winning_line"] == [0, 4, 8]
    assert uttt.can_undo is False
    gui.tap(uttt.ids.undo)
    assert len(uttt.session.actions) == len(X_WINS)
    gui.screenshot("uttt-won")
    assert uttt.reviewing
    gui.tap(uttt.ids.review.ids.prev)
    gui.tap(uttt.ids.review.ids.prev)
    assert uttt.review_index == len(X_WINS) - 2
    before = uttt.session.history()[uttt.review_index - 1]
    assert uttt.ids.board.hints == before.legal_cells()
    assert "23 / 25" in uttt.review_text
    gui.screenshot("uttt-review")


def test_another_game_swaps_who_starts_and_scores_count_once(gui, uttt):
    finish_with_a_touch(gui, uttt)
    assert "赤\u00a01勝" in uttt.score_text
    gui.tap(uttt.ids.another)
    assert uttt.session.players == ["blue", "red"]  # blue starts as ×
    assert "青の番 (×)" in uttt.status_text
    gui.restart()
    gui.tap(gui.tile("uttt"))
    screen = gui.screen
    assert "赤\u00a01勝" in screen.score_text
    assert tally(gui.app.store, "uttt:2p")["red"] == {"win": 1, "loss": 0, "draw": 0}


def test_game_in_progress_is_restored_after_restart(gui, uttt):
    tap_cell(gui, uttt, 40)
    tap_cell(gui, uttt, 36)
    gui.restart()
    assert gui.find("2手")  # listed under resume on the home screen
    gui.tap(gui.find("2手"))
    assert gui.screen.name == "uttt"
    assert gui.screen.session.actions == [move(40), move(36)]


def test_cpu_mode_you_start_and_undo_takes_your_move_and_its_reply(gui, uttt):
    gui.tap(uttt.ids.mode_easy)
    assert uttt.session.players == ["you", "cpu"]
    tap_cell(gui, uttt, 40)
    gui.wait_until(lambda: len(uttt.session.actions) == 2, what="the CPU's reply")
    gui.screenshot("uttt-cpu")
    gui.pump(0.3)
    gui.tap(uttt.ids.undo)
    assert uttt.session.actions == []


def test_undo_while_the_cpu_thinks_takes_only_your_move(gui, uttt, monkeypatch):
    gui.tap(uttt.ids.mode_hard)
    answer = threading.Event()  # the computer answers only when the test says so
    think = uttt.controller.thinker

    def held_back(seat):
        move = think(seat)
        return lambda: answer.wait(5) and move()

    monkeypatch.setattr(uttt.controller, "thinker", held_back)
    tap_cell(gui, uttt, 40, settle=False)
    assert uttt.thinking
    gui.tap(uttt.ids.undo)
    assert uttt.session.actions == [] and not uttt.thinking
    answer.set()
    gui.pump(1.2)  # the abandoned search finishes and is ignored
    assert uttt.session.actions == []


def test_cpu_opening_move_cannot_be_undone_and_records_are_per_level(gui, uttt):
    gui.tap(uttt.ids.mode_easy)
    for cell in X_WINS[:-1]:
        uttt.session.play(move(cell))
    uttt.refresh()
    tap_cell(gui, uttt, X_WINS[-1])
    assert "あなた\u00a01勝" in uttt.score_text
    gui.tap(uttt.ids.another)  # game 2: the CPU starts
    assert uttt.session.players == ["cpu", "you"]
    gui.wait_until(lambda: len(uttt.session.actions) == 1, what="the CPU's opening move")
    gui.pump(0.3)
    assert uttt.can_undo is False
    gui.tap(uttt.ids.mode_medium)
    say_yes(gui)
    assert "あなた\u00a00勝" in uttt.score_text  # medium keeps its own record
    assert tally(gui.app.store, "uttt:cpu:easy")["you"]["win"] == 1


def test_in_english_every_mode_fits_and_a_stray_level_tap_loses_nothing(gui, uttt):
    gui.app.lang = "en"
    for mode in ("mode_easy", "mode_medium", "mode_hard", "mode_2p"):  # checked at every tap
        gui.tap(uttt.ids[mode])
    tap_cell(gui, uttt, 40)
    begun = uttt.session.id
    gui.screenshot("uttt-en-play")
    gui.tap(uttt.ids.mode_medium)  # mid-game: asked, then a new game, the begun one kept
    say_yes(gui)
    assert uttt.session.id != begun and gui.app.store.game(begun).status == "active"
    gui.app.show_home()  # the new game, with no move, is not kept
    gui.pump(0.1)
    gui.screenshot("home-en-resume")
    rows = [row.summary for row in gui.screen.ids.resume.children]
    assert len(rows) == 1 and "Red v Blue\n1 move · just now" in rows[0]


def test_a_game_opened_again_lets_the_old_controller_go(gui, uttt):
    tap_cell(gui, uttt, 40)
    old = uttt.controller
    uttt.show(None)  # the same unfinished game, in a new controller
    assert uttt.controller is not old and uttt._changed not in old.listeners
    assert uttt.session.actions == [move(40)]
    tap_cell(gui, uttt, 4 * 9 + 0)
    assert uttt.session.actions == [move(40), move(36)]
