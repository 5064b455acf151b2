"""Naval War: running totals across rounds as a line chart drawn with Kivy graphics.

Its numbers are drawn at theme.TEXT_MIN px; round numbers that would touch
their neighbour are left out (every k-th shown), and `drawn_texts` tells the
layout check where each one is."""

from __future__ import annotations

import math

from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

from companion.ui import theme
from companion.ui.cell_grid import text_texture

# a seat's colour: never the targets' gold (theme.GOLD), whose outline means "tap this"
# (tests/gui/test_navalwar_colours.py measures them apart, also as colour-blind eyes see them)
SEAT_COLOURS = [
    (0.90, 0.30, 0.30, 1), (0.30, 0.60, 0.95, 1), (0.35, 0.80, 0.40, 1),
    (0.65, 0.80, 1.00, 1), (0.75, 0.45, 0.90, 1), (0.20, 0.80, 0.80, 1),
    (0.95, 0.55, 0.20, 1), (0.90, 0.50, 0.70, 1), (0.70, 0.70, 0.70, 1),
]


def running_totals(history: list[list[int]], players: int) -> list[list[int]]:
    """Per seat, the total after each round, starting from 0: a line for each of `players`
    and for every seat the history names (kv sets `history` and `players` one at a time,
    in no fixed order: a chart is drawn between the two)."""
    lines = [[0] for _ in range(max([players, *map(len, history)]))]
    for points in history:
        for seat, p in enumerate(points):
            lines[seat].append(lines[seat][-1] + p)
    return lines


class TotalsChart(Widget):
    """One line per seat: x the rounds played, y the running total; a dashed target line."""

    history = ListProperty([])
    players = NumericProperty(3)
    target = NumericProperty(100)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.texts: list[tuple[str, float, tuple]] = []
        self.bind(pos=self.redraw, size=self.redraw, history=self.redraw,
                  players=self.redraw, target=self.redraw)

    def drawn_texts(self) -> list[tuple[str, float, tuple]]:
        """(text, font px, (x0, y0, x1, y1) in window coordinates) of every text drawn."""
        return list(self.texts)

    def _put(self, text: str, x: float, y: float) -> None:
        """Draw `text` with its lower left corner at (x, y + 2), or its top at y - 2 where
        it would stick out of the chart's top."""
        texture = text_texture(text, theme.TEXT_MIN)
        w, h = texture.size
        y = y + 2 if y + 2 + h <= self.top else y - 2 - h
        Rectangle(texture=texture, pos=(x, y), size=(w, h))
        x0, y0 = self.to_window(x, y)
        self.texts.append((text, theme.TEXT_MIN, (x0, y0, x0 + w, y0 + h)))

    def redraw(self, *_):
        self.canvas.clear()
        self.texts = []
        lines = running_totals(self.history, int(self.players))
        values = [v for line in lines for v in line]
        top = max([self.target, *values]) * 1.05
        bottom = min([0, *values])
        span = max(1, top - bottom)
        rounds = max(1, len(self.history))
        pad, axis = 12, theme.TEXT_MIN + 10  # the round numbers sit under the lines
        x0, y0 = self.x + pad, self.y + axis
        w, h = self.width - 2 * pad, self.height - axis - pad

        def point(i, v):
            return x0 + w * i / rounds, y0 + h * (v - bottom) / span

        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.MUTED)
            step = max(1, math.ceil(1.6 * theme.TEXT_MIN / max(1.0, w / rounds)))  # room for two digits
            for i in range(step, rounds + 1, step):  # the rounds along the bottom
                self._put(str(i), point(i, bottom)[0] - theme.TEXT_MIN / 2, self.y)
            self._put(str(int(self.target)), x0 + 2, point(0, self.target)[1])
            Color(*theme.MUTED)
            Line(points=[*point(0, 0), *point(rounds, 0)], width=1)
            Color(*theme.GOLD)
            Line(points=[*point(0, self.target), *point(rounds, self.target)],
                 width=1, dash_length=6, dash_offset=4)
            for seat, line in enumerate(lines):
                Color(*SEAT_COLOURS[seat % len(SEAT_COLOURS)])
                pts = [c for i, v in enumerate(line) for c in point(i, v)]
                if len(line) > 1:
                    Line(points=pts, width=2.2)
                for i in range(len(line)):
                    x, y = point(i, line[i])
                    Rectangle(pos=(x - 4, y - 4), size=(8, 8))

