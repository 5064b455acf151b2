"""Naval War's buttons: the action panel's, and the start form's (kv rules: screen.kv's
<ChoiceTile> and <FirstButton>)."""

from __future__ import annotations

import re
from functools import lru_cache

from kivy.core.text import Label as CoreLabel
from kivy.properties import AliasProperty, BooleanProperty, NumericProperty, StringProperty
from kivy.uix.button import Button

from companion.ui.widgets import CJK, EvenLabel

ASIDE = re.compile(r"(.*?)\s*([（(][^（()）]+[）)])")  # words closed by a name in brackets: 「水雷戦隊2（さくら）」


class ChoiceTile(Button):
    """A button of the choice panel: `step` is its id in the choice tree; its `words` are
    broken between Japanese phrases where they wrap (「赤カードな｜し」 never)."""

    words = StringProperty("")
    step = StringProperty("")
    red = BooleanProperty(False)
    main = BooleanProperty(False)  # a turn's main entry, in the row that never scrolls
    cols = NumericProperty(2)  # tiles a row (0: as wide as its text, the catalogue's flow)
    # its words wrap to its width; never a name of the catalogue's flow, nor a salvo (four a
    # row: 「12.6″・1」 whole on one line)
    wraps = AliasProperty(lambda self: 0 < self.cols < 4, bind=["cols"], cache=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(words=self._wrap, width=self._wrap, font_size=self._wrap, cols=self._wrap)

    def _wrap(self, *_) -> None:
        """The words in lines; a name in brackets closing them, too long for one line, whole
        on a line of its own (never 「（や｜まもと）」 nor 「）」 alone)."""
        aside = ASIDE.fullmatch(self.words) if self.cols else None
        if aside and self._width(self.words) > self.width - 10 >= self._width(aside[2]):
            self.text = self._lines(aside[1]) + "\n" + aside[2]
        else:
            self.text = self._lines(self.words)

    def _lines(self, words: str) -> str:
        if not (self.wraps and CJK.search(words)):
            return words  # Kivy breaks them at their spaces
        probe = _probe()  # an EvenLabel breaks them, as wide as this tile's text
        probe.font_size, probe.width, probe.words = self.font_size, self.width - 10, words
        return probe.text

    def _width(self, text: str) -> float:
        core = CoreLabel(font_size=self.font_size, font_name=self.font_name, bold=self.bold)
        core.resolve_font_name()  # as rendering would
        return core.get_extents(text)[0]


@lru_cache(maxsize=1)
def _probe() -> EvenLabel:
    return EvenLabel(size_hint=(None, None))


class FirstButton(Button):
    """A start form button: start, with this player first."""
