"""Widgets every screen shares: buttons sized for fingers, the top bar, game screens."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.play.session import Session, unfinished
from companion.ui import theme

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class StagePanel(BoxLayout):
    """A panel shown in one stage of a game only; hidden ones move off screen and take no touches."""

    active = BooleanProperty(False)


class ReviewBar(BoxLayout):
    """◀ ▶ through a finished game (companion/play/review.py): shown while `screen` (a
    ControllerScreen) has a review to step (its `review_text`), else it takes no room."""

    screen = ObjectProperty(None, allownone=True)
    text = StringProperty("")

    def on_screen(self, _, screen) -> None:
        if screen is not None:
            screen.bind(review_text=self.setter("text"))
            self.text = screen.review_text


class Band(Label):
    """Big bold words on a coloured band: whose turn or step it is."""

    colour = ListProperty(theme.PANEL)


class GameScreen(Screen):
    """A screen that plays one game `kind`; `session` is the game in progress (or None)."""

    kind = ""
    session = ObjectProperty(None, allownone=True)

    @property
    def app(self):
        return App.get_running_app()

    @property
    def store(self):
        return self.app.store

    def tr(self, key: str, /, **values) -> str:
        """Text for `key` in the app's current language."""
        return self.app.tr(key, self.app.lang, **values)

    def show(self, session) -> None:
        """Take over `session` (a new or resumed game) and draw it."""
        self.session = session
        self.refresh()

    def unfinished(self) -> Session | None:
        """The newest unfinished game of this screen's kind, resumed; None if there is none."""
        sessions, _ = unfinished(self.store, {self.kind})  # an unreadable game is skipped
        return sessions[0] if sessions else None

    def abandon_unfinished(self) -> None:
        """A new game replaces this one: if it is not over, it ends unfinished (counted for nobody)."""
        if self.session is not None and not self.session.state.is_over():
            self.session.abandon()

    def refresh(self) -> None:
        """Redraw from the session's views.  Screens override this."""

    def close(self) -> None:
        """The app is stopping: cancel timers, let threads' results go.  Screens extend this."""

    def go_home(self) -> None:
        App.get_running_app().show_home()
