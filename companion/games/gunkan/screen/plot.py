"""The calibration plot: measured weights per class on one gram axis.

One row per class (lightest at the bottom): its acceptance band (pale: the
judge names the class for a still weight inside it), its spread (solid), each
weighing as a dot.  Dashed lines are the bands' edges; a weight between two
bands fits no class and is re-weighed.  In the right-hand column, between two
neighbouring rows, their margin in σ (companion/sensing/calibration.py), red when
they are not surely apart.  Every text is drawn at theme.TEXT_MIN px, laid out so
none overlaps another (`drawn_texts` tells the layout check where they are).
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import DictProperty, ListProperty
from kivy.uix.widget import Widget

from companion.ui import theme

FONT_PX = theme.TEXT_MIN
GAP_PX = 6  # between texts, and between the columns


def _text(text: str, colour):
    label = CoreLabel(text=text, font_size=FONT_PX, color=colour)
    label.refresh()
    return label.texture


def margin_text(sigma: float) -> str:
    return "=" if sigma == -math.inf else f"{sigma:.0f}σ" if abs(sigma) < 100 else "≫σ"


class ClassPlot(Widget):
    classes = ListProperty([])  # PieceClass, in rows from the bottom
    labels = DictProperty({})  # class name -> text
    weighings = DictProperty({})  # class name -> grams measured
    groups = ListProperty([])  # judge ClassGroups (acceptance bands)
    margins = ListProperty([])  # (lighter, heavier, sigma, apart)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.texts: list[tuple[str, float, tuple]] = []
        redraw = Clock.create_trigger(self.redraw)
        self.bind(pos=redraw, size=redraw, classes=redraw)

    def drawn_texts(self) -> list[tuple[str, float, tuple]]:
        """(text, font px, (x0, y0, x1, y1) in window coordinates) of every text drawn."""
        return list(self.texts) if self.opacity > 0 else []

    def _put(self, text: str, tex, x: float, y: float) -> None:
        Color(1, 1, 1, 1)  # a texture is tinted by the current colour
        Rectangle(texture=tex, pos=(x, y), size=tex.size)
        x0, y0 = self.to_window(x, y)
        self.texts.append((text, FONT_PX, (x0, y0, x0 + tex.width, y0 + tex.height)))

    def redraw(self, *_):
        self.canvas.clear()
        self.texts = []
        if not self.classes:
            return
        names = {c.name: _text(self.labels.get(c.name, c.name), theme.TEXT) for c in self.classes}
        margins = [(lo, hi, _text(margin_text(s), theme.GOOD if ok else theme.RED), margin_text(s))
                   for lo, hi, s, ok in self.margins]
        lo = math.floor(min(c.low for c in self.classes) - 1)
        hi = math.ceil(max(c.high for c in self.classes) + 1)
        x0 = self.x + max(t.width for t in names.values()) + GAP_PX
        x1 = self.right - (max((t.width for *_, t, _ in margins), default=0) + GAP_PX)
        axis_h = _text("0", theme.MUTED).height
        y0, y1 = self.y + axis_h + 2, self.top
        row_h = (y1 - y0) / len(self.classes)
        if x1 - x0 < 50 or row_h < max(t.height for t in names.values()):
            return  # no room to draw it legibly
        gx = lambda g: x0 + (g - lo) / (hi - lo) * (x1 - x0)  # noqa: E731
        rows = {c.name: y0 + i * row_h for i, c in enumerate(self.classes)}
        widest = max(_text(str(g), theme.MUTED).width for g in (lo, hi))
        step = next(s for s in (1, 2, 4, 5, 10, 20) if s * (x1 - x0) / (hi - lo) >= widest + GAP_PX)
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=(x0, y0), size=(x1 - x0, y1 - y0))
            for g in range(math.ceil(lo / step) * step, hi + 1, step):  # the gram axis
                Color(*theme.MUTED)
                Line(points=[gx(g), y0 - 4, gx(g), y0], width=1)
                tex = _text(f"{g}", theme.MUTED)
                self._put(f"{g}", tex, gx(g) - tex.width / 2, self.y)
            for group in self.groups:
                for c in group.members:
                    if c.name not in rows:
                        continue
                    Color(*theme.ACCENT[:3], 0.25)
                    Rectangle(pos=(gx(group.accept_low), rows[c.name] + 2),
                              size=(gx(group.accept_high) - gx(group.accept_low), row_h - 4))
                for edge in (group.accept_low, group.accept_high):
                    Color(*theme.WARN[:3], 0.8)
                    Line(points=[gx(edge), y0, gx(edge), y1], width=1, dash_length=4, dash_offset=3)
            for c in self.classes:
                y = rows[c.name]
                Color(*theme.ACCENT)
                Rectangle(pos=(gx(c.low), y + row_h * 0.3), size=(max(2, gx(c.high) - gx(c.low)), row_h * 0.4))
                Color(*theme.GOLD)
                for g in self.weighings.get(c.name, []):
                    Ellipse(pos=(gx(g) - 3, y + row_h / 2 - 3), size=(6, 6))
                tex = names[c.name]
                self._put(self.labels.get(c.name, c.name), tex, self.x, y + (row_h - tex.height) / 2)
            for lighter, heavier, tex, text in margins:
                if lighter in rows and heavier in rows:
                    y = (rows[lighter] + rows[heavier] + row_h) / 2 - tex.height / 2
                    self._put(text, tex, x1 + GAP_PX, y)
