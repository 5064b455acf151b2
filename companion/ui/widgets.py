"""Widgets every screen shares: buttons sized for fingers, the top bar, game screens."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.i18n import NO_BREAK
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


class Ask(ModalView):
    """A question before something that cannot be taken back by a tap (a new game over a
    running one): `question`, a `yes` button that does `on_yes()`, and `no`, which keeps things
    as they are (so does a tap beside it)."""

    question = StringProperty("")
    yes = StringProperty("")
    no = StringProperty("")

    def __init__(self, on_yes: Callable[[], None], **kwargs):
        super().__init__(**kwargs)
        self.on_yes = on_yes

    def answer(self, yes: bool) -> None:
        self.dismiss()
        if yes:
            self.on_yes()


class Band(Label):
    """Big bold words on a coloured band: whose turn or step it is."""

    colour = ListProperty(theme.PANEL)


CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")  # kana, kanji, full-width forms
KANJI = re.compile("[\u3400-\u9fff\u3005]")  # kanji and 々
NO_LINE_START = set("″′)）」』】〕、。，．・：；！？ー%％")  # what never begins a line (禁則)


def whole_lines(height: float, font_size: float) -> float:
    """The tallest height up to `height` holding a whole number of lines of text at `font_size`
    (a scroll view that high never shows a line cut in half at its bottom)."""
    line = CoreLabel(font_size=font_size).get_extents("国Ag")[1]
    return max(line, height // line * line)


class EvenLabel(Label):
    """`words` wrapped in even lines: a Japanese paragraph too wide for one line is broken
    (by "\n") between phrases (BudouX's, so never inside a word like 選んで) at the
    narrowest width needing no more lines, so it never leaves its tail alone on a line.
    A phrase wider than the label on its own is broken at its spaces, then its characters."""

    words = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(words=self._even, width=self._even, font_size=self._even)

    def _measure(self) -> Callable[[str], float]:
        core = CoreLabel(font_size=self.font_size, font_name=self.font_name, bold=self.bold)
        core.resolve_font_name()  # as rendering would (else the default font is measured)
        return lambda text: core.get_extents(text)[0]

    @staticmethod
    def _lines(phrases: list[str], width: float, measure: Callable[[str], float]) -> list[str]:
        """The phrases filled line by line into `width`.  A phrase wider than that on its
        own is broken at its spaces, and a word still wider between its characters."""
        pieces = []
        for phrase in phrases:
            if measure(phrase) <= width:
                pieces.append(phrase)
                continue
            words = phrase.split(NO_BREAK)
            for word in [w + NO_BREAK for w in words[:-1]] + words[-1:]:
                pieces += [word] if measure(word.rstrip(NO_BREAK)) <= width else list(word)
        lines: list[str] = []
        for piece in pieces:
            if lines and measure((lines[-1] + piece).rstrip(NO_BREAK)) <= width:
                lines[-1] += piece
            else:
                lines.append(piece)
        return [line.rstrip(NO_BREAK) for line in lines]

    def _paragraph(self, text: str) -> str:
        if not CJK.search(text):
            return text  # words with spaces between break at them
        phrases = _kept_whole([p.replace(" ", NO_BREAK) for p in _japanese_phrases().parse(text)])
        measure = self._measure()
        lines = len(self._lines(phrases, self.width, measure))
        if lines < 2:
            return text
        words = [word for phrase in phrases for word in phrase.split(NO_BREAK)]  # a wide phrase's parts
        whole = max((w for w in map(measure, phrases + words) if w <= self.width), default=0)  # kept whole
        low, high = max(self.width / 2, whole), self.width
        while high - low > 2:  # the narrowest width wrapping to `lines`
            mid = (low + high) / 2
            low, high = (low, mid) if len(self._lines(phrases, mid, measure)) <= lines else (mid, high)
        wrapped = self._lines(phrases, high, measure)
        if any(a[-1:].isascii() and not a[-1:].isspace() and b[:1].isascii() and not b[:1].isspace()
               for a, b in zip(wrapped, wrapped[1:])):
            return text  # it would part "A10" or "21.98": left to the label's own wrap
        return "\n".join(wrapped).replace(NO_BREAK, " ")

    def _even(self, *_) -> None:
        self.text_size = (max(self.width, 1), None)
        self.text = "\n".join(self._paragraph(p) for p in self.words.split("\n")) if self.width > 1 else self.words


class LatestLabel(Label):
    """`lines` (newest last) shown from the newest back, as many whole as fit the label's
    height: a salvo's volleys can wrap to more lines than a panel holds, and the newest news
    is what the table reads.  The newest alone is shown even if it is cut."""

    lines = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(lines=self._fit, size=self._fit, font_size=self._fit, text_size=self._fit)

    def _height(self, text: str) -> float:
        core = CoreLabel(text=text, font_size=self.font_size, font_name=self.font_name, bold=self.bold,
                         text_size=(self.text_size[0], None), halign=self.halign)
        core.refresh()
        return core.texture.size[1]

    def _fit(self, *_) -> None:
        lines = [line for line in self.lines.split("\n") if line]
        start = next((k for k in range(len(lines) - 1)
                      if self._height("\n".join(lines[k:])) <= self.height), max(0, len(lines) - 1))
        self.text = "\n".join(lines[start:])


def _kept_whole(phrases: list[str]) -> list[str]:
    """BudouX's phrases, never parted between two kanji (its model splits 射|撃: a kanji word's
    parts are not phrases) nor before what never begins a line (its model splits 15|″・2)."""
    kept: list[str] = []
    for phrase in phrases:
        if kept and (KANJI.match(kept[-1][-1:]) and KANJI.match(phrase[:1]) or phrase[:1] in NO_LINE_START):
            kept[-1] += phrase
        else:
            kept.append(phrase)
    return kept


@lru_cache(maxsize=1)
def _japanese_phrases():
    """BudouX's Japanese phrase model (loaded once, when a label first needs it)."""
    import budoux

    return budoux.load_default_japanese_parser()


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
