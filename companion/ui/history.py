"""The history screen: finished games, newest first, each opened on its own screen to review.

A row says the game and its mode, when it ended, who played and the result; a tap
opens the game's screen on that finished session, whose review steps through its log
move by move (◀ ▶: `companion/play/review.py`; Kuku steps through its attacks).
`title` and `lineup` are the words Home's Resume rows share.
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion import i18n
from companion.clock import now, wall_time_of
from companion.play import registry
from companion.store import GameRecord
from companion.ui.tiles import tiles

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SHOWN = 50  # rows: the newest games; older ones stay in the database


SEAT_WORDS = ("red", "blue", "you", "cpu", "p1", "p2")


def person(app, name: str) -> str:
    """A player's name as people read it: the seat words (red, cpu, ...) translated, names as typed.
    A default name kept as it read in a language (Kuku keeps its names as typed: 「赤」) is a seat
    word too, and reads in the app's language (not "赤 v 青" in English)."""
    word = name if name in SEAT_WORDS else _seat_word(name)
    return app.tr(f"app.player_{word}", app.lang) if word else name


@lru_cache(maxsize=None)
def _seat_word(name: str) -> str | None:
    return next((word for word in SEAT_WORDS for lang in i18n.LANGUAGES
                 if i18n.translate(f"app.player_{word}", lang) == name), None)


def lineup(app, record: GameRecord) -> str:
    """Who plays: the names, the computer with its level; a tracked game says so."""
    tr = lambda key, **values: app.tr(key, app.lang, **values)  # noqa: E731
    level = record.lineup.level if record.lineup.opponent == "cpu" else None
    names = [tr("app.with_level", player=person(app, p), level=tr(f"app.level_{level}"))
             if p == "cpu" and level else person(app, p) for p in record.players]
    words = tr("app.history_versus").join(names)
    return f"{tr('app.mode_tracker')}: {words}" if record.lineup.opponent == "tracker" else words


def title(app, record: GameRecord) -> str:
    """The game's name and how it was set up (its `GAME.mode`: "salvo", "3 players")."""
    mode = [words.text(app.lang) for words in registry.get(record.kind).mode(record.options)]
    return " · ".join([app.game_title(record.kind)] + mode)


def row_text(app, record: GameRecord) -> str:
    """The game, when it ended (by this boot's clock if it ended in this boot: right across
    a clock step; left out if the clock then was not set), who played and the result."""
    ended = wall_time_of(record.moment, now())
    when = "" if ended is None else f" · {time.strftime('%Y-%m-%d %H:%M', time.localtime(ended))}"
    players = lineup(app, record)
    winner = (record.outcome or {}).get("winner")
    if isinstance(winner, int) and 0 <= winner < len(record.players):
        result = app.tr("app.history_won", app.lang, player=person(app, record.players[winner]))
    else:
        result = app.tr("app.history_draw", app.lang)
    return f"{title(app, record)}{when}\n{players}  →  {result}"


class HistoryScreen(Screen):
    def on_pre_enter(self, *args):
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        playable = {tile.kind for tile in tiles()}
        finished = [g for g in app.store.games("finished") if g.kind in playable][:SHOWN]
        self.ids.rows.clear_widgets()
        for record in finished:
            row = Factory.HistoryRow(text=row_text(app, record))
            row.game_id = record.id
            row.bind(on_release=lambda r: app.resume_game(r.game_id))
            self.ids.rows.add_widget(row)
        self.ids.nothing.opacity = 0 if finished else 1
