"""Naval War: running totals across rounds as a line chart drawn with Kivy graphics."""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

from companion.ui import theme

SEAT_COLOURS = [
    (0.90, 0.30, 0.30, 1), (0.30, 0.60, 0.95, 1), (0.35, 0.80, 0.40, 1),
    (0.98, 0.78, 0.20, 1), (0.75, 0.45, 0.90, 1), (0.20, 0.80, 0.80, 1),
    (0.95, 0.55, 0.20, 1), (0.90, 0.50, 0.70, 1), (0.70, 0.70, 0.70, 1),
]


def running_totals(history: list[list[int]], players: int) -> list[list[int]]:
    """Per seat, the total after each round, starting from 0."""
    lines = [[0] for _ in range(players)]
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
        self.bind(pos=self.redraw, size=self.redraw, history=self.redraw,
                  players=self.redraw, target=self.redraw)

    def redraw(self, *_):
        self.canvas.clear()
        lines = running_totals(self.history, int(self.players))
        values = [v for line in lines for v in line]
        top = max([self.target, *values]) * 1.05
        bottom = min([0, *values])
        span = max(1, top - bottom)
        rounds = max(1, len(self.history))
        pad, axis = 12, 24  # the round numbers sit under the lines
        x0, y0 = self.x + pad, self.y + axis
        w, h = self.width - 2 * pad, self.height - axis - pad

        def point(i, v):
            return x0 + w * i / rounds, y0 + h * (v - bottom) / span

        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.MUTED)
            for i in range(1, rounds + 1):  # the rounds along the bottom
                _text(str(i), point(i, bottom)[0] - 8, self.y + 2)
            _text(str(int(self.target)), x0 + 2, point(0, self.target)[1] + 2)
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


def _text(text: str, x: float, y: float) -> None:
    """Draw a small label at (x, y) on the current canvas."""
    label = CoreLabel(text=text, font_size=16)
    label.refresh()
    Rectangle(texture=label.texture, pos=(x, y), size=label.texture.size)
