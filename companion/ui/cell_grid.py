"""What the square boards share: text drawn from cached textures, and taps that name a cell."""

from __future__ import annotations

from functools import cache

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import BooleanProperty
from kivy.uix.widget import Widget

from companion.ui import theme


@cache
def text_texture(text: str, size: int, bold: bool = False):
    """A texture of `text` (boards redraw often; each label is made once)."""
    label = CoreLabel(text=text, font_size=size, bold=bold)
    label.refresh()
    return label.texture


class CellGrid(Widget):
    """A board of cells.  A finger may slide: `finger_at` hears the cell under
    it (None once lifted); where it lifts on a cell, `on_cell(cell)` fires.
    Subclasses say where the cells are: `cell_rect(cell)` (x, y of the bottom
    left, size) and `cell_at(x, y)`, None off the board."""

    interactive = BooleanProperty(True)

    __events__ = ("on_cell",)

    def on_cell(self, cell) -> None:
        pass

    def cell_rect(self, cell) -> tuple[float, float, float]:
        raise NotImplementedError

    def cell_at(self, x: float, y: float):
        raise NotImplementedError

    def draw_aim(self, cell) -> None:
        """Light `cell` in gold: where the next shot or bomb goes."""
        x, y, size = self.cell_rect(cell)
        Color(*theme.GOLD[:3], 0.35)
        Rectangle(pos=(x, y), size=(size, size))
        Color(*theme.GOLD)
        Line(rectangle=(x + 1, y + 1, size - 2, size - 2), width=3)

    def finger_at(self, cell) -> None:
        """The cell under a finger on the board, None when it lifts.  For previews."""

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos):
            return False
        if self.interactive:
            touch.grab(self)
            self.finger_at(self.cell_at(*touch.pos))
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        self.finger_at(self.cell_at(*touch.pos))
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        cell = self.cell_at(*touch.pos)
        self.finger_at(None)
        if cell is not None and self.interactive:
            self.dispatch("on_cell", cell)
        return True
