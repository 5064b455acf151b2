"""Naval War "count your deck": card type by card type, the players count their copy.

Each step shows a card (an action card by type and value, or the ships of one
calibre), the count the composition expects, and +/- buttons starting at that
count.  The end lists the differences (`count_check`, plus the ship groups) in
plain words, with the `counts:` lines to put in the `navalwar.deck` file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.games.navalwar.data import CALIBRES, Composition, count_check
from companion.games.navalwar.choices import card_label

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

CARRIER = "carrier"


@dataclass(frozen=True)
class CountStep:
    """One thing to count: a card key, or `ships:<calibre>` / `ships:carrier`."""

    key: str
    label: str
    expected: int


def count_steps(comp: Composition, tr: Callable, ships: bool) -> list[CountStep]:
    """The action cards in deck order, then (if `ships`) the ships by calibre."""
    steps = [CountStep(k, card_label(tr, k), n) for k, n in comp.actions]
    if ships:
        for calibre in (*CALIBRES, CARRIER):
            n = sum(1 for s in comp.ships if (s.calibre or CARRIER) == calibre)
            label = (tr("navalwar_ui.count_carriers") if calibre == CARRIER
                     else tr("navalwar_ui.count_ships", calibre=calibre))
            if n:
                steps.append(CountStep(f"ships:{calibre}", label, n))
    return steps


def differences(comp: Composition, steps: list[CountStep], counted: dict[str, int]) -> list[dict]:
    """`count_check` for the action cards, then the ship groups that differ."""
    cards = {k: n for k, n in counted.items() if not k.startswith("ships:")}
    diffs = count_check(comp, cards)
    diffs += [{"card": s.key, "expected": s.expected, "counted": counted[s.key]}
              for s in steps if s.key.startswith("ships:") and counted[s.key] != s.expected]
    return diffs


def report(tr: Callable, steps: list[CountStep], diffs: list[dict]) -> str:
    """The differences in plain words, the `counts:` lines and where to put them."""
    if not diffs:
        return tr("navalwar_ui.count_all_right")
    labels = {s.key: s.label for s in steps}
    lines = [tr("navalwar_ui.count_differs", n=len(diffs))]
    for d in diffs:
        gap = d["counted"] - d["expected"]
        how = (tr("navalwar_ui.count_missing", n=-gap) if gap < 0
               else tr("navalwar_ui.count_extra", n=gap))
        lines.append(f"・{labels.get(d['card'], d['card'])}: "
                     + tr("navalwar_ui.count_line", expected=d["expected"], counted=d["counted"], how=how))
    cards = [d for d in diffs if not d["card"].startswith("ships:")]
    lines += ["", tr("navalwar_ui.count_hint")]
    if cards:
        lines += ["[b]counts:[/b]"] + [f"  {d['card']}: {d['counted']}" for d in cards]
    if len(cards) < len(diffs):
        lines.append(tr("navalwar_ui.count_ship_hint"))
    return "\n".join(lines)


class CountView(ModalView):
    """The walk-through: `page` is "intro", "step" or "result"."""

    page = StringProperty("intro")
    index = NumericProperty(0)
    total = NumericProperty(0)
    label = StringProperty("")
    expected = NumericProperty(0)
    counted = NumericProperty(0)
    last = BooleanProperty(False)
    result = StringProperty("")
    source = StringProperty("")  # which composition is compared (the set-up panel's line)

    def __init__(self, comp: Composition, tr: Callable, **kwargs):
        super().__init__(**kwargs)
        self.comp, self.tr = comp, tr
        self.steps: list[CountStep] = []
        self.counts: dict[str, int] = {}
        self.diffs: list[dict] = []

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

    def begin(self, ships: bool) -> None:
        self.steps = count_steps(self.comp, self.tr, ships)
        self.counts = {s.key: s.expected for s in self.steps}
        self.total = len(self.steps)
        self._go(0)

    def change(self, delta: int) -> None:
        step = self.steps[self.index]
        self.counts[step.key] = max(0, self.counts[step.key] + delta)
        self.counted = self.counts[step.key]

    def next(self) -> None:
        if self.index + 1 < self.total:
            self._go(self.index + 1)
            return
        self.diffs = differences(self.comp, self.steps, self.counts)
        self.result = report(self.tr, self.steps, self.diffs)
        self.page = "result"

    def previous(self) -> None:
        if self.page == "result":
            self._go(self.total - 1)
        elif self.index > 0:
            self._go(self.index - 1)
        else:
            self.page = "intro"

    def _go(self, index: int) -> None:
        step = self.steps[index]
        self.index, self.label, self.expected = index, step.label, step.expected
        self.counted = self.counts[step.key]
        self.last = index + 1 == self.total
        self.page = "step"
