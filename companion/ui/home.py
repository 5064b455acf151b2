"""The home screen: a large tile per game, the unfinished games to resume, settings."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.logger import Logger
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.clock import elapsed, now
from companion.play.session import unfinished
from companion.ui import theme
from companion.ui.history import lineup, title
from companion.ui.tiles import tiles

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def ago(seconds: float | None, tr) -> str:
    """How long ago, in words; "" when it cannot be known (`companion.clock.elapsed`: a
    write from before a restart, the clock then or now not set by NTP), rather than a
    wrong age: a time ahead of now is not "just now", nor one before a clock step a year."""
    if seconds is None:
        return ""
    minutes = int(seconds // 60)
    if minutes < 1:
        return tr("app.just_now")
    if minutes < 60:
        return tr("app.minutes_ago", n=minutes)
    if minutes < 24 * 60:
        return tr("app.hours_ago", n=minutes // 60)
    return tr("app.days_ago", n=minutes // (24 * 60))


class HomeScreen(Screen):
    unreadable = StringProperty("")  # games left out of Resume because they cannot be read
    discarded_text = StringProperty("")  # the game just discarded from Resume, while it may be brought back

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._discarded = None  # that game's record, as it was before

    def on_pre_enter(self, *args):
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        self.ids.tiles.clear_widgets()
        for tile in tiles():
            button = Factory.GameTileButton()
            button.kind, button.glyph, button.colour = tile.kind, tile.glyph, tile.colour or theme.PANEL
            button.title = app.tr(f"{tile.kind}.tile", app.lang)
            button.bind(on_release=lambda b, kind=tile.kind: app.open_game(kind))
            self.ids.tiles.add_widget(button)
        self.ids.resume.clear_widgets()
        sessions, problems = unfinished(app.store, {tile.kind for tile in tiles()})
        for problem in problems:
            Logger.warning("companion: %s", problem)
        self.unreadable = app.tr("app.games_unreadable", app.lang, n=len(problems)) \
            if problems else ""
        for session in sessions[:20]:
            self.ids.resume.add_widget(self._resume_row(app, session.record, len(session.actions)))
        self.ids.nothing_to_resume.opacity = 0 if sessions else 1

    def _resume_row(self, app, record, moves: int):
        row = Factory.ResumeRow()
        row.game_id = record.id
        tr = lambda key, **values: app.tr(key, app.lang, **values)  # noqa: E731
        when = ago(elapsed(record.moment, now()), tr)
        row.summary = (f"{title(app, record)}\n{lineup(app, record)}\n"
                       f"{' · '.join(filter(None, [tr('app.moves', n=moves), when]))}")
        row.ids.resume.bind(on_release=lambda _: app.resume_game(record.id))
        row.ids.discard.bind(on_release=lambda _: self.discard(record))
        return row

    def discard(self, record) -> None:
        """Out of Resume (set aside, counted for nobody); 元に戻す brings it back."""
        app = App.get_running_app()
        app.store.abandon(record.id)
        self._discarded = record
        self.discarded_text = app.tr("app.discarded", app.lang)
        self.refresh()

    def undo_discard(self) -> None:
        App.get_running_app().store.restore(self._discarded)
        self._discarded, self.discarded_text = None, ""
        self.refresh()

    def on_leave(self, *args):
        self._discarded, self.discarded_text = None, ""  # the undo is for the moment only
