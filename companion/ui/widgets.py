"""Widgets every screen shares: buttons sized for fingers, the top bar, game screens."""

from __future__ import annotations

import re
from pathlib import Path

from kivy.app import App
from kivy.core.text import Label as CoreLabel
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


NO_BREAK = "\u00a0"
CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")  # kana, kanji, full-width forms


class EvenLabel(Label):
    """`words` wrapped in even lines: a Japanese paragraph too wide for one line is broken
    (by "\n") where it wraps at the narrowest width needing no more lines, so it never
    leaves its tail alone on a line."""

    words = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(words=self._even, width=self._even, font_size=self._even)

    def _wrapped(self, text: str, width: float) -> list[str]:
        core = CoreLabel(text=text, font_size=self.font_size, font_name=self.font_name, bold=self.bold,
                         text_size=(width, None))
        core.refresh()
        return ["".join(word.text for word in line.words).strip() for line in core._cached_lines]

    def _paragraph(self, text: str) -> str:
        if not CJK.search(text):
            return text  # words with spaces between break at them
        run = text.replace(" ", NO_BREAK)  # one run, broken between characters only
        lines = len(self._wrapped(run, self.width))
        if lines < 2:
            return text
        low, high = self.width / 2, self.width
        while high - low > 2:  # the narrowest width wrapping to `lines`
            mid = (low + high) / 2
            low, high = (low, mid) if len(self._wrapped(run, mid)) <= lines else (mid, high)
        wrapped = self._wrapped(run, high)
        if any(a[-1:].isascii() and a[-1:].isalnum() and b[:1].isascii() and b[:1].isalnum()
               for a, b in zip(wrapped, wrapped[1:])):
            return text  # it would part "A10": left to the label's own wrap
        return "\n".join(wrapped).replace(NO_BREAK, " ")

    def _even(self, *_) -> None:
        self.text_size = (max(self.width, 1), None)
        self.text = "\n".join(self._paragraph(p) for p in self.words.split("\n")) if self.width > 1 else self.words


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

    def refresh(self) -> None:
        """Redraw from the session's views.  Screens override this."""

    def close(self) -> None:
        """The app is stopping: cancel timers, let threads' results go.  Screens extend this."""

    def go_home(self) -> None:
        App.get_running_app().show_home()
