"""The Naval War action panel's button (its kv rule: screen.kv's <ChoiceTile>)."""

from __future__ import annotations

from functools import lru_cache

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.button import Button

from companion.ui.widgets import CJK, EvenLabel


class ChoiceTile(Button):
    """A button of the choice panel: `step` is its id in the choice tree; its `words` are
    broken between Japanese phrases where they wrap (「赤カードな｜し」 never)."""

    words = StringProperty("")
    step = StringProperty("")
    red = BooleanProperty(False)
    main = BooleanProperty(False)  # a turn's main entry, in the row that never scrolls
    cols = NumericProperty(2)  # tiles a row (0: as wide as its text, the catalogue's flow)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(words=self._wrap, width=self._wrap, font_size=self._wrap, cols=self._wrap)

    def _wrap(self, *_) -> None:
        if not (self.cols and CJK.search(self.words)):
            self.text = self.words
            return
        probe = _probe()  # an EvenLabel breaks them, as wide as this tile's text
        probe.font_size, probe.width, probe.words = self.font_size, self.width - 10, self.words
        self.text = probe.text


@lru_cache(maxsize=1)
def _probe() -> EvenLabel:
    return EvenLabel(size_hint=(None, None))
