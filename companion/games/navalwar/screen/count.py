"""Naval War "count your deck": the walk-through's pop-up, drawing the controller's
`DeckCount` (companion/games/navalwar/counting.py) and sending its buttons back."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.games.navalwar.counting import DeckCount

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class CountView(ModalView):
    """The walk-through: `page` is "intro", "step" or "result"; `act(kind, value)` sends a
    button to the controller, which owns `counting`."""

    page = StringProperty("intro")
    index = NumericProperty(0)
    total = NumericProperty(0)
    label = StringProperty("")
    expected = NumericProperty(0)
    counted = NumericProperty(0)
    last = BooleanProperty(False)
    result = StringProperty("")
    source = StringProperty("")  # which composition is compared (the set-up panel's line)

    def __init__(self, counting: DeckCount, act: Callable, **kwargs):
        super().__init__(**kwargs)
        self.counting, self.act = counting, act

    @property
    def steps(self):
        return self.counting.steps

    @property
    def diffs(self) -> list[dict]:
        return self.counting.diffs

    def on_kv_post(self, base_widget) -> None:
        # kv ids are weak references: keep the pages alive while they are out of the tree
        self._widgets = [widget.__self__ for widget in self.ids.values()]
        self.on_page(self, self.page)

    def on_page(self, _view, page: str) -> None:
        """Show only the current page (hidden pages leave the widget tree)."""
        pages = self.ids.get("pages")
        if pages is not None and self.ids[page].parent is not pages:
            pages.clear_widgets()
            pages.add_widget(self.ids[page])

    def show(self, model: dict, tr: Callable) -> None:
        self.total, self.index = model["total"], model["index"]
        if model["page"] == "step":
            self.label, self.expected, self.counted = model["label"].render(tr), model["expected"], model["counted"]
            self.last = model["last"]
        if model["page"] == "result":
            self.result = "\n".join(line.render(tr) for line in model["result"])
        self.page = model["page"]

    def begin(self, ships: bool) -> None:
        self.act("count_begin", ships)

    def change(self, delta: int) -> None:
        self.act("count_change", delta)

    def next(self) -> None:
        self.act("count_next")

    def previous(self) -> None:
        self.act("count_back")
