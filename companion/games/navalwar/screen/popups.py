"""Naval War pop-ups: the scores across rounds (chart and table) and the discard pile."""

from __future__ import annotations

from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.ui import theme
from companion.games.navalwar.screen.chart import SEAT_COLOURS, TotalsChart  # noqa: F401  (kv)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ScoresView(ModalView):
    """Totals across rounds; its button closes it or moves on (`action`), a second one
    (`back_text`, `back`) steps back into a finished game's review."""

    title = StringProperty("")
    history = ListProperty([])
    players = NumericProperty(3)
    target = NumericProperty(100)
    button_text = StringProperty("")
    action = ObjectProperty(None, allownone=True)
    back_text = StringProperty("")  # a second button (the review of a finished game), "" for none
    back = ObjectProperty(None, allownone=True)

    def fill(self, header: tuple[str, str], rows: list[tuple[str, str, str]]) -> None:
        """Column titles, then one row per seat: name (in the seat's colour), points, total."""
        grid = self.ids.rows
        for seat, row in enumerate([("", *header), *rows], start=-1):
            colour = SEAT_COLOURS[seat] if seat >= 0 else theme.MUTED
            name = f"● {row[0]}" if seat >= 0 else ""
            for j, text in enumerate((name, *row[1:])):
                grid.add_widget(Factory.ScoreCell(text=text, size_hint_x=1.4 if j == 0 else 1,
                                                  color=colour if j == 0 else theme.TEXT))

class InfoView(ModalView):
    """A titled list (the discard pile) with a close button."""

    title = StringProperty("")
    body = StringProperty("")
