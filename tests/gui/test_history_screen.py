"""The history screen from Home: finished games with their date, players and result; one reviewed."""

import random
import time
from types import SimpleNamespace

import pytest

from companion.games.uttt.rules import move
from companion.play.controller import TABLE, to_json
from companion.play.session import Session
from companion.store import Lineup
from companion.ui import home

X_WINS = [42, 58, 38, 22, 40, 53, 72, 1, 16, 71, 80, 75, 34, 67, 76, 27, 5, 46, 9, 7,
          63, 0, 3, 35, 4]  # X (the first seat) completes the diagonal 0-4-8 on the last move


def finished_uttt(store, players):
    session = Session.start(store, "uttt", players=players, scoreboard="uttt:2p")
    for cell in X_WINS:
        session.play(move(cell))
    return session


def test_history_lists_finished_games_and_replays_one_move_by_move(gui):
    store = gui.app.store
    finished_uttt(store, ["red", "blue"])
    Session.start(store, "uttt", players=["red", "blue"], scoreboard="uttt:2p").play(move(40))  # unfinished: not history
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


def finished(store, kind, options, players, lineup=Lineup(), seed=7):
    """A game of `kind` played at random to its end (as if at the table)."""
    session = Session.start(store, kind, options, players=players, lineup=lineup)
    rng = random.Random(seed)
    while not session.state.is_over():
        legal = session.state.legal_actions()
        going = [a for a in legal if len(session.actions) > 40 or not session.state.apply(a).is_over()]
        session.play(rng.choice(going or legal))  # a game long enough to review
    return session


GAMES = [pytest.param("gunkan", {"judging": "identify"}, ["red", "blue"], Lineup(), id="gunkan"),
         pytest.param("battleship", {"variant": "salvo"}, ["p1", "p2"], Lineup(), id="battleship"),
         pytest.param("navalwar", {"players": 3, "target": 1}, ["Aki", "Ben", "Chie"], Lineup(), id="navalwar")]


@pytest.mark.parametrize("kind,options,players,lineup", GAMES)
def test_every_game_opened_from_history_steps_back_through_its_log(gui, kind, options, players, lineup):
    session = finished(gui.app.store, kind, options, players, lineup)
    n = len(session.actions)
    gui.app.show_screen("history")
    gui.pump(0.1)
    gui.tap(gui.screen.ids.rows.children[0])
    screen = gui.screen
    assert screen.name == kind and screen.review_text == f"{n} / {n} 手目"
    end = to_json(screen.controller.display(TABLE))
    if kind == "navalwar":  # the final scores first; their second button steps back
        gui.tap(screen._popup.ids.scores_back)
    else:
        gui.tap(screen.ids.review.ids.prev)
    assert screen.review_text == f"{n - 1} / {n} 手目" and to_json(screen.controller.display(TABLE)) != end
    for _ in range(n // 2 - 1):  # to the middle, as the ◀ button does
        screen.act("review", -1)
    gui.tap(screen.ids.review.ids.prev)
    half = n - n // 2 - 1
    assert screen.controller.shown() == session.history()[half] and screen.review_text == f"{half} / {n} 手目"
    gui.screenshot(f"review-{kind}-ja")
    gui.app.lang = "en"
    screen.refresh()
    screen.act("review", 1)
    assert screen.review_text == f"move {half + 1} / {n}"
    gui.screenshot(f"review-{kind}-en")
    gui.tap(screen.ids.review.ids.next)
    assert screen.controller.shown() == session.history()[half + 2]


def test_resume_rows_name_the_game_its_mode_who_plays_and_how_long_ago(gui, monkeypatch):
    store = gui.app.store
    Session.start(store, "battleship", {"variant": "salvo", "advanced": True}, players=["you", "cpu"],
                  lineup=Lineup("cpu", "hard")).play({"type": "place", "ship": "carrier", "cell": "A1", "dir": "h"})
    Session.start(store, "gunkan", {"judging": "seesaw"}, players=["red", "blue"]).play(
        {"type": "battle", "attacker": 0})
    for kind, options, players, lineup in (("navalwar", {"players": 3, "target": 1}, ["Aki", "Ben", "Chie"],
                                            Lineup("2p")),
                                           ("kuku", {"mode": "tracker"}, ["Hana", "Ken"], Lineup("tracker"))):
        begun = Session.start(store, kind, options, players=players, lineup=lineup)
        begun.play(begun.state.legal_actions()[0])
    gui.app.show_home()
    gui.pump(0.1)
    rows = {row.game_id: row.summary for row in gui.screen.ids.resume.children}
    assert rows[1] == "海戰棋 · 一斉射撃 · 艦種を言わない\nあなた 対 コンピューター（上級）\n1手 · たった今"
    assert rows[2] == "軍艦将棋「戦略大海戦」 · シーソー判定\n赤 対 青\n1手 · たった今"
    assert rows[3].startswith("ネイバルウォー · 3人 · 1点先取\nAki 対 Ben 対 Chie\n1手")
    assert rows[4] == "九九戦艦 · 基本ルール\n記録係: Hana 対 Ken\n1手 · たった今"
    gui.screenshot("home-resume-ja")
    later = time.time() + 150
    monkeypatch.setattr(home, "time", SimpleNamespace(time=lambda: later))  # two and a half minutes on
    gui.app.lang = "en"
    gui.screen.refresh()
    rows = {row.game_id: row.summary for row in gui.screen.ids.resume.children}
    assert rows[1] == "Battleship · salvo · advanced\nYou v Computer (Hard)\n1 move · 2 min ago"
    assert rows[3].startswith("Naval War · 3 players · to 1 point\nAki v Ben v Chie\n1 move")
    assert rows[4].endswith("tracker: Hana v Ken\n1 move · 2 min ago")
    gui.screenshot("home-resume-en")
