"""The history screen: finished games, newest first, each opened on its own screen to review.

A row says the game, when it ended, who played and the result; a tap opens the game's
screen on that finished session, whose review steps through its log move by move
(UTTT and Kuku: ◀ ▶ over the board; Gunkan: the battle log).
"""

from __future__ import annotations

import time
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion.store import GameRecord
from companion.ui.tiles import tiles

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

SHOWN = 50  # rows: the newest games; older ones stay in the database


def person(app, name: str) -> str:
    """A player's name as people read it: the seat words (red, cpu, ...) translated, names as typed."""
    key = f"app.player_{name}"
    text = app.tr(key, app.lang)
    return name if text == key else text


def row_text(app, record: GameRecord) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.updated))
    players = app.tr("app.history_versus", app.lang).join(person(app, p) for p in record.players)
    winner = (record.outcome or {}).get("winner")
    if isinstance(winner, int) and 0 <= winner < len(record.players):
        result = app.tr("app.history_won", app.lang, player=person(app, record.players[winner]))
    else:
        result = app.tr("app.history_draw", app.lang)
    return f"{app.game_title(record.kind)} · {when}\n{players}  →  {result}"


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
