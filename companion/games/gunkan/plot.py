"""The calibration plot: measured weights per class on one gram axis.

One row per class (lightest at the bottom): its acceptance band (pale: the
judge names the class for a still weight inside it), its spread (solid), each
weighing as a dot.  Dashed lines are the decision boundaries; a weight between
two of them fits no class and is re-weighed.  Between neighbouring rows, the
margin in noise σ, red when under 6 σ.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import sp
from kivy.properties import DictProperty, ListProperty
from kivy.uix.widget import Widget

from companion.ui import theme

MIN_MARGIN_SIGMA = 6.0
LABEL_W = 150  # px kept for the class names on the left


def _text(text: str, size: float, colour) -> tuple:
    label = CoreLabel(text=text, font_size=sp(size), color=colour)
    label.refresh()
    return label.texture


class ClassPlot(Widget):
    classes = ListProperty([])  # PieceClass, lightest first
    labels = DictProperty({})  # class name -> text
    weighings = DictProperty({})  # class name -> grams measured
    groups = ListProperty([])  # judge ClassGroups (acceptance bands)
    margins = ListProperty([])  # (lighter, heavier, sigma)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        redraw = Clock.create_trigger(self.redraw)
        self.bind(pos=redraw, size=redraw, classes=redraw)

    def redraw(self, *_):
        self.canvas.clear()
        if not self.classes or self.width < LABEL_W + 50:
            return
        lo = math.floor(min(c.low for c in self.classes) - 1)
        hi = math.ceil(max(c.high for c in self.classes) + 1)
        x0, x1 = self.x + LABEL_W, self.right - 8
        y0, y1 = self.y + 22, self.top - 4
        row_h = (y1 - y0) / len(self.classes)
        gx = lambda g: x0 + (g - lo) / (hi - lo) * (x1 - x0)  # noqa: E731
        rows = {c.name: y0 + i * row_h for i, c in enumerate(self.classes)}
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=(x0, y0), size=(x1 - x0, y1 - y0))
            for g in range(lo, hi + 1, 2):  # the gram axis
                Color(*theme.MUTED)
                Line(points=[gx(g), y0 - 4, gx(g), y0], width=1)
                tex = _text(f"{g}", 11, theme.MUTED)
                Color(1, 1, 1, 1)  # a texture is tinted by the current colour
                Rectangle(texture=tex, pos=(gx(g) - tex.width / 2, self.y + 2), size=tex.size)
            for group in self.groups:
                for c in group.members:
                    if c.name not in rows:
                        continue
                    y = rows[c.name]
                    Color(*theme.ACCENT[:3], 0.25)
                    Rectangle(pos=(gx(group.accept_low), y + 2), size=(gx(group.accept_high) - gx(group.accept_low), row_h - 4))
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
                tex = _text(self.labels.get(c.name, c.name), 13, theme.TEXT)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(self.x + 2, y + (row_h - tex.height) / 2), size=tex.size)
            for lighter, heavier, sigma in self.margins:
                if lighter not in rows or heavier not in rows:
                    continue
                low_c = next(c for c in self.classes if c.name == lighter)
                high_c = next(c for c in self.classes if c.name == heavier)
                ok = sigma >= MIN_MARGIN_SIGMA
                text = "=" if sigma == -math.inf else f"{sigma:.0f}σ" if sigma < 100 else "≫σ"
                tex = _text(text, 12, theme.GOOD if ok else theme.RED)
                x = (gx(low_c.high) + gx(high_c.low)) / 2 - tex.width / 2
                y = (rows[lighter] + rows[heavier] + row_h) / 2 - tex.height / 2
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x, y), size=tex.size)
