"""Widgets every screen shares: buttons sized for fingers, the top bar, game screens."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class GameScreen(Screen):
    """A screen that plays one game kind; `session` is the game in progress (or None)."""

    session = ObjectProperty(None, allownone=True)
    title_key = StringProperty("")

    @property
    def app(self):
        return App.get_running_app()

    @property
    def store(self):
        return self.app.store

    def tr(self, key: str, **values) -> str:
        """Text for `key` in the app's current language."""
        return self.app.tr(key, self.app.lang, **values)

    def show(self, session) -> None:
        """Take over `session` (a new or resumed game) and draw it."""
        self.session = session
        self.refresh()

    def refresh(self) -> None:
        """Redraw from the session's views.  Screens override this."""

    def close(self) -> None:
        """The app is stopping: cancel timers, let threads' results go.  Screens extend this."""

    def go_home(self) -> None:
        App.get_running_app().show_home()
