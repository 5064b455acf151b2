"""The history screen from Home: finished games with their date, players and result; one reviewed."""

import random
import time
from dataclasses import replace

import pytest

from companion import clock
from companion.clock import Moment
from companion.games.gunkan.display import battle_stops
from companion.games.uttt.rules import move
from companion.play.controller import TABLE, to_json
from companion.play.session import Session
from companion.store import Lineup
from companion.ui import history, home

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


def stops_and_labels(kind, screen, session):
    """Where ◀ ▶ stop (counts of actions) and the bar's words there, ja and en: move by move, but
    軍艦将棋 battle by battle, as a group counts (issue 43)."""
    n = len(session.actions)
    if kind != "gunkan":
        return list(range(n + 1)), lambda k: f"{k} / {n} 手目", lambda k: f"move {k} / {n}"
    stops, history = battle_stops(screen.controller.review()), session.history()
    fought = lambda k: len(history[stops[k]].battles)  # noqa: E731
    total = len(session.state.battles)
    ja = lambda k: f"終局（勝負 {total}）" if stops[k] == n else f"勝負 {fought(k)} / {total}"  # noqa: E731
    en = lambda k: f"The end ({total} battles)" if stops[k] == n else f"Battle {fought(k)} / {total}"  # noqa: E731
    return stops, ja, en


@pytest.mark.parametrize("kind,options,players,lineup", GAMES)
def test_every_game_opened_from_history_steps_back_through_its_log(gui, kind, options, players, lineup):
    session = finished(gui.app.store, kind, options, players, lineup)
    gui.app.show_screen("history")
    gui.pump(0.1)
    gui.tap(gui.screen.ids.rows.children[0])
    screen = gui.screen
    stops, ja, en = stops_and_labels(kind, screen, session)
    m = len(stops) - 1
    assert screen.name == kind and screen.review_text == ja(m)
    end = to_json(screen.controller.display(TABLE))
    if kind == "navalwar":  # the final scores first; their second button steps back
        gui.tap(screen._popup.ids.scores_back)
    else:
        gui.tap(screen.ids.review.ids.prev)
    assert screen.review_text == ja(m - 1) and to_json(screen.controller.display(TABLE)) != end
    for _ in range(m // 2 - 1):  # to the middle, as the ◀ button does
        screen.act("review", -1)
    gui.tap(screen.ids.review.ids.prev)
    half = m - m // 2 - 1
    assert screen.controller.shown() == session.history()[stops[half]] and screen.review_text == ja(half)
    gui.screenshot(f"review-{kind}-ja")
    gui.app.lang = "en"
    screen.refresh()
    screen.act("review", 1)
    assert screen.review_text == en(half + 1)
    gui.screenshot(f"review-{kind}-en")
    gui.tap(screen.ids.review.ids.next)
    assert screen.controller.shown() == session.history()[stops[half + 2]]


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
    at = clock.now()
    later = replace(at, wall=at.wall + 150, uptime=at.uptime + 150)
    monkeypatch.setattr(home, "now", lambda: later)  # two and a half minutes on
    gui.app.lang = "en"
    gui.screen.refresh()
    rows = {row.game_id: row.summary for row in gui.screen.ids.resume.children}
    assert rows[1] == "Battleship · salvo · advanced\nYou v Computer (Hard)\n1 move · 2 min ago"
    assert rows[3].startswith("Naval War · 3 players · to 1 point\nAki v Ben v Chie\n1 move")
    assert rows[4].endswith("tracker: Hana v Ken\n1 move · 2 min ago")
    gui.screenshot("home-resume-en")


T = 1_800_000_000.0


@pytest.mark.parametrize("step", [-3600, -86400, -365 * 86400, 3600, 365 * 86400])
def test_a_clock_step_reorders_nothing_and_ages_nothing(gui, monkeypatch, step):
    """Issue 41, finding 3, on the screens: a Pi without a real-time clock, stepped by NTP.
    Before, after a step back Resume listed the older game first as 「たった今」 and the UTTT
    tile opened it; after a step forward a game of 15 minutes ago read 「365日前」."""
    store = gui.app.store
    machine = {"at": Moment(T, "boot-1", 100.0, False)}
    store.moment = lambda: machine["at"]
    older = Session.start(store, "uttt", players=["red", "blue"])
    older.play(move(40))
    won = finished_uttt(store, ["red", "blue"])
    machine["at"] = Moment(T + step + 60, "boot-1", 160.0, True)  # NTP stepped the clock, a minute on
    newer = Session.start(store, "uttt", players=["red", "blue"])
    newer.play(move(41))
    at = Moment(T + step + 15 * 60, "boot-1", 100.0 + 15 * 60, True)
    monkeypatch.setattr(home, "now", lambda: at)
    monkeypatch.setattr(history, "now", lambda: at)
    gui.app.show_home()
    gui.pump(0.1)
    rows = [(row.game_id, row.summary.splitlines()[-1]) for row in gui.screen.ids.resume.children[::-1]]
    assert rows == [(newer.id, "1手 · 14分前"), (older.id, "1手 · 15分前")]
    gui.tap(gui.screen.ids.history)  # the end of the game by the set clock, 15 minutes ago
    ended = time.strftime("%Y-%m-%d %H:%M", time.localtime(at.wall - 15 * 60))
    assert f"アルティメット三目並べ · {ended}\n" in gui.screen.ids.rows.children[0].text
    assert gui.screen.ids.rows.children[0].game_id == won.id
    gui.app.show_home()
    gui.tap(gui.tile("uttt"))
    assert gui.screen.session.id == newer.id


def test_an_age_from_before_a_restart_is_said_only_when_the_clocks_can_be_believed(gui, monkeypatch):
    store = gui.app.store
    store.moment = lambda: Moment(T, "boot-1", 100.0, True)
    Session.start(store, "uttt", players=["red", "blue"]).play(move(40))
    store.moment = lambda: Moment(T - 86400, "boot-1", 200.0, False)  # a clock not set, a day behind
    Session.start(store, "uttt", players=["red", "blue"]).play(move(41))
    gui.app.show_home()
    for at, ages in ((Moment(T + 2 * 86400, "boot-2", 30.0, True), ["1手", "1手 · 2日前"]),
                     (Moment(T - 3600, "boot-2", 30.0, True), ["1手", "1手"]),  # ahead of now
                     (Moment(T + 2 * 86400, "boot-2", 30.0, False), ["1手", "1手"])):  # not set yet
        monkeypatch.setattr(home, "now", lambda at=at: at)
        gui.screen.refresh()
        assert [row.summary.splitlines()[-1] for row in gui.screen.ids.resume.children[::-1]] == ages
    gui.screenshot("home-ages-after-a-restart")
