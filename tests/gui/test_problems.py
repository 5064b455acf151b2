"""What a person sees when the disk refuses a move, a game cannot be read, the saved
settings are broken, or the app cannot start: a message, never a traceback or a crash."""

import sqlite3
import sys
from pathlib import Path

import pytest
from kivy.base import ExceptionManager
from kivy.tests.common import UnitTestTouch

from companion.play.session import Session
from companion.store import FILENAME, StoreBusy
from companion.ui.problems import ProblemApp

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import _store_faults as faults  # noqa: E402  (the sqlite3 shell as the lock holder)


def tap_like_the_main_loop(gui, x, y):
    """A tap whose exceptions go where Kivy's main loop sends them: the exception manager."""
    touch = UnitTestTouch(x, y)
    for step in (touch.touch_down, touch.touch_up):
        try:
            step()
        except Exception as exc:
            assert ExceptionManager.handle_exception(exc) == ExceptionManager.PASS
        gui.pump(0.05)


def refused_move_is_a_message(gui, screen, headline, words, shot):
    """Tap a legal move: it is refused with `headline`, the game is as before, OK goes on."""
    before = list(screen.session.actions)
    tap_like_the_main_loop(gui, *gui.cell_centre(screen.ids.board,
                                                 screen.session.state.legal_cells()[0]))
    popup = gui.app.problems.open
    assert popup is not None, "the refused move gave no message"
    assert screen.session.actions == before
    text = gui.texts(popup)
    assert headline in text and words in text and "Traceback" not in text
    gui.screenshot(shot)
    gui.app.problems.shown.clear()  # expected
    gui.tap(popup.children[0].button)
    assert gui.app.problems.open is None and gui.screen is screen
    return before


def test_a_move_while_another_program_locks_the_database_is_a_message(gui):
    gui.tap(gui.tile("uttt"))
    screen = gui.screen
    gui.tap_cell(screen.ids.board, 40)
    gui.pump(0.3)
    store = gui.app.store
    store._db.execute("PRAGMA busy_timeout=200")  # the app waits 15 s; the test need not
    try:
        with faults.locked_by_sqlite3(store.path, "write", 1.5):
            before = refused_move_is_a_message(gui, screen, "他のプログラム", "locked",
                                               "problem-move-while-locked")
    except faults.Unavailable as exc:
        pytest.skip(str(exc))
    assert store.actions(screen.session.id) == before
    gui.pump(0.3)
    gui.tap_cell(screen.ids.board, screen.session.state.legal_cells()[0])
    assert store.actions(screen.session.id) == screen.session.actions == before + [
        screen.session.actions[-1]]


@pytest.fixture
def tiny_disk(tmp_path):
    try:
        (tmp_path / "tiny").mkdir()
        with faults.tiny_disk(tmp_path / "tiny") as disk:
            yield disk
    except faults.Unavailable as exc:
        pytest.skip(str(exc))


def test_a_move_on_a_full_disk_is_a_message_and_nothing_is_lost(gui, tiny_disk, tmp_path):
    from companion import config

    gui.stop()
    path = tmp_path / "tiny.yaml"
    path.write_text(f"data_dir: {tiny_disk}\nlanguage: ja\n")
    gui.cfg = config.load(path)
    gui.start()
    gui.tap(gui.tile("uttt"))
    screen = gui.screen
    gui.tap_cell(screen.ids.board, 40)
    gui.pump(0.3)
    faults.fill(tiny_disk)
    before = refused_move_is_a_message(gui, screen, "保存できません", "full",
                                       "problem-move-disk-full")
    (tiny_disk / "filler").unlink()
    gui.pump(0.3)
    gui.tap_cell(screen.ids.board, screen.session.state.legal_cells()[0])
    assert gui.app.store.actions(screen.session.id) == screen.session.actions
    assert screen.session.actions[:-1] == before
    gui.stop()


def test_an_unreadable_game_is_left_out_of_resume_and_said_so(gui):
    gui.tap(gui.tile("uttt"))
    gui.tap_cell(gui.screen.ids.board, 40)
    gui.pump(0.3)
    broken = gui.screen.session.id
    readable = Session.start(gui.app.store, "uttt", players=["red", "blue"])
    readable.play(readable.state.legal_actions()[0])  # (a game with no move is not listed)
    gui.stop()
    db = sqlite3.connect(gui.cfg.data_path / FILENAME)
    db.execute("UPDATE actions SET action = '{oops' WHERE game_id = ?", (broken,))
    db.commit()
    db.close()
    app = gui.start()
    home = app.manager.get_screen("home")
    rows = home.ids.resume.children
    assert [r.game_id for r in rows] == [broken + 1]  # the readable one only
    assert "読めないゲームが1件" in home.unreadable
    gui.screenshot("home-unreadable-game")
    gui.tap(gui.tile("uttt"))  # the screen resumes the readable game, not the broken one
    assert gui.screen.session.id == broken + 1


def test_a_damaged_index_is_rebuilt_and_said_so_on_the_home_screen(gui):
    """Issue 41, finding 5: a bit of a status in the index hid a game from the scores, unseen."""
    for _ in range(2):
        Session.start(gui.app.store, "uttt", players=["red", "blue"]).play({"type": "move", "cell": 40})
    gui.stop()
    faults.flip_in_index(gui.cfg.data_path / FILENAME, "games_by_status", b"active", 2, nth=1)
    app = gui.start()
    assert "索引が壊れていた" in app.notice and "退避" not in app.notice
    assert len(app.manager.get_screen("home").ids.resume.children) == 2
    gui.screenshot("home-index-rebuilt")


def test_a_broken_settings_file_is_set_aside_and_the_app_starts_with_a_notice(gui):
    gui.stop()
    settings = gui.cfg.data_path / "settings.yaml"
    settings.write_text("display:\n  fullscreen: tr")  # cut short by a power cut
    from companion import config

    gui.cfg = config.load(gui.cfg.path)
    app = gui.start()
    assert "設定を読めなかった" in app.notice
    assert not settings.exists() and list(gui.cfg.data_path.glob("settings.yaml.unreadable-*"))
    gui.screenshot("home-settings-set-aside")


def test_the_reason_the_app_cannot_start_is_on_the_screen(gui):
    gui.stop()
    app = ProblemApp(StoreBusy("/var/lib/companion/companion.db is locked by another program "
                               "(a backup, or sqlite3 in a terminal?) and stayed locked while "
                               "opening the database. Nothing was changed and every game is "
                               "intact: close that program and try again."), gui.cfg)
    app._run_prepare()
    gui.pump(0.2)
    text = "\n".join(str(getattr(w, "text", "")) for w in app.root.walk())
    assert "他のプログラム" in text and "もう一度試す" in text
    assert app.root.button.height >= 48
    gui.screenshot("start-problem-locked")
    app.dispatch("on_stop")
    from kivy.app import App
    from kivy.core.window import Window

    Window.remove_widget(app.root)
    App._running_app = None


def test_a_bug_in_a_callback_is_a_message_and_home_not_a_crash(gui):
    from kivy.clock import Clock

    gui.tap(gui.tile("uttt"))

    def broken(*_):
        raise ZeroDivisionError("division by zero")

    Clock.schedule_once(broken)
    try:
        gui.pump(0.1)
    except ZeroDivisionError as exc:  # the driver pumps without the main loop's catch
        assert ExceptionManager.handle_exception(exc) == ExceptionManager.PASS
    popup = gui.app.problems.open
    assert popup is not None and "内部のエラー" in gui.texts(popup)
    assert "ZeroDivisionError" in gui.texts(popup) and "Traceback" not in gui.texts(popup)
    gui.screenshot("problem-internal-error")
    gui.app.problems.shown.clear()  # expected
    gui.tap(popup.children[0].button)
    assert gui.screen.name == "home" and gui.app.problems.open is None
