"""The history screen from Home: finished games with their date, players and result; one reviewed."""

from companion.play.session import Session

X_WINS = [42, 58, 38, 22, 40, 53, 72, 1, 16, 71, 80, 75, 34, 67, 76, 27, 5, 46, 9, 7,
          63, 0, 3, 35, 4]  # X (the first seat) completes the diagonal 0-4-8 on the last move


def finished_uttt(store, players):
    session = Session.start(store, "uttt", players=players, scoreboard="uttt:2p")
    for action in X_WINS:
        session.play(action)
    return session


def test_history_lists_finished_games_and_replays_one_move_by_move(gui):
    store = gui.app.store
    finished_uttt(store, ["red", "blue"])
    Session.start(store, "uttt", players=["red", "blue"], scoreboard="uttt:2p").play(40)  # unfinished: not history
    gui.app.show_home()
    gui.pump(0.1)
    gui.tap(gui.screen.ids.history)
    assert gui.screen.name == "history"
    rows = gui.screen.ids.rows.children
    assert len(rows) == 1 and "赤 対 青  →  赤の勝ち" in rows[0].text and "アルティメット三目並べ" in rows[0].text
    gui.screenshot("history-ja")
    gui.app.lang = "en"
    gui.screen.refresh()
    assert "Red v Blue  →  Red won" in gui.screen.ids.rows.children[0].text
    gui.screenshot("history-en")
    gui.tap(gui.screen.ids.rows.children[0])
    uttt = gui.screen
    assert uttt.name == "uttt" and uttt.reviewing and uttt.review_index == len(X_WINS)
    gui.tap(uttt.ids.review.ids.prev)  # one move back, on the board
    assert uttt.review_index == len(X_WINS) - 1
    gui.screenshot("history-review-en")


def test_history_says_when_there_is_nothing_yet(gui):
    gui.tap(gui.app.manager.get_screen("home").ids.history)
    assert gui.screen.ids.nothing.opacity == 1 and not gui.screen.ids.rows.children
    gui.screenshot("history-empty-ja")
