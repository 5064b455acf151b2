"""The 9×9 九九 board: headers 1–9 on the left and top, markers, and (privately) ships.

At 480 px high every cell is 48 px: a header row and column plus 9 cells.
Cell "a×b" is row a (top to bottom), column b (left to right), as on the tray.
Each cell shows its product unless `show_values` is off (while a bomb
listing is being said: the answer must not be on screen).

`drawn` records what the last redraw put in each cell, so tests can prove
what the screen showed: "" empty, "r"/"b" a red/blue marker, "N"/"L" a
normal/leader ship (only ever drawn for its owner, or after the game).
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, StringProperty

from companion.games.kuku.board import CELLS, SIZE, cell_name
from companion.ui import theme
from companion.ui.cell_grid import CellGrid, text_texture as _text

TRAY = (0.16, 0.30, 0.24, 1)
TRAY_LINE = (0.07, 0.13, 0.10, 1)
HEADER = (0.11, 0.20, 0.16, 1)
MARKER = {"red": (0.90, 0.22, 0.20, 1), "blue": (0.20, 0.45, 0.95, 1)}
SHIP = {"normal": (0.66, 0.68, 0.72, 1), "leader": (0.85, 0.15, 0.18, 1)}
HINT = (0.35, 0.95, 0.55, 1)


class KukuGrid(CellGrid):
    markers = DictProperty({})  # cell → "red" | "blue"
    ships = DictProperty({})  # cell → "normal" | "leader" (private placement, or after the game)
    owners = DictProperty({})  # after the game, both fleets: cell → [(seat, kind)]; seat 0 filled, seat 1 framed
    rings = ListProperty([])  # cells ringed in gold: the attack just made
    hints = ListProperty([])  # cells ringed in green: the right listing after a failed bomb
    aim = StringProperty("")  # the cell picked, not attacked yet
    show_values = BooleanProperty(True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.drawn: dict[str, str] = {cell: "" for cell in CELLS}
        redraw = Clock.create_trigger(self.redraw)
        self.bind(pos=redraw, size=redraw, markers=redraw, ships=redraw, owners=redraw, rings=redraw,
                  hints=redraw, aim=redraw, show_values=redraw, interactive=redraw)

    # geometry -------------------------------------------------------------------

    @property
    def cell_size(self) -> float:
        return min(self.width, self.height) / (SIZE + 1)

    def origin(self) -> tuple[float, float]:
        """Bottom-left corner of the board (headers included)."""
        side = self.cell_size * (SIZE + 1)
        return self.x, self.center_y - side / 2

    def cell_rect(self, cell: str) -> tuple[float, float, float]:
        """x, y (bottom left) and size of cell "a×b"."""
        a, b = (int(n) for n in cell.split("×"))
        size = self.cell_size
        x0, y0 = self.origin()
        return x0 + b * size, y0 + (SIZE - a) * size, size

    def cell_at(self, x: float, y: float) -> str | None:
        size = self.cell_size
        x0, y0 = self.origin()
        col, row = int((x - x0) // size), SIZE - int((y - y0) // size)
        return cell_name(row, col) if 1 <= row <= SIZE and 1 <= col <= SIZE else None

    # drawing --------------------------------------------------------------------

    def redraw(self, *_):
        self.canvas.clear()
        drawn = {}
        with self.canvas:
            self._draw_headers()
            for cell in CELLS:
                drawn[cell] = self._draw_cell(cell)
            for cells, colour, width in ((self.hints, HINT, 2.5), (self.rings, theme.GOLD, 2.5)):
                for cell in cells:
                    x, y, size = self.cell_rect(cell)
                    Color(*colour)
                    Line(rectangle=(x + 3, y + 3, size - 6, size - 6), width=width)
            if self.aim:
                self.draw_aim(self.aim)
        self.drawn = drawn

    def _draw_headers(self) -> None:
        size = self.cell_size
        x0, y0 = self.origin()
        Color(*HEADER)
        Rectangle(pos=(x0, y0), size=(size, size * SIZE))
        Rectangle(pos=(x0, y0 + size * SIZE), size=(size * (SIZE + 1), size))
        Color(*theme.GOLD)
        times = _text("×", 24, True)
        Rectangle(texture=times, size=times.size, pos=(x0 + (size - times.width) / 2,
                                                       y0 + SIZE * size + (size - times.height) / 2))
        for n in range(1, SIZE + 1):
            texture = _text(str(n), 26, True)
            row_x, row_y, _ = self.cell_rect(cell_name(n, 1))
            col_x, col_y, _ = self.cell_rect(cell_name(1, n))
            Color(*theme.TEXT)
            Rectangle(texture=texture, size=texture.size,
                      pos=(x0 + (size - texture.width) / 2, row_y + (size - texture.height) / 2))
            Rectangle(texture=texture, size=texture.size,
                      pos=(col_x + (size - texture.width) / 2, col_y + size + (size - texture.height) / 2))

    def _draw_cell(self, cell: str) -> str:
        x, y, size = self.cell_rect(cell)
        Color(*TRAY_LINE)
        Rectangle(pos=(x, y), size=(size, size))
        Color(*TRAY)
        Rectangle(pos=(x + 1, y + 1), size=(size - 2, size - 2))
        mark = ""
        kind = self.ships.get(cell)
        pad = size * 0.10
        for seat, seat_kind in self.owners.get(cell, []):  # both fleets: the first filled, the second framed
            Color(*SHIP[seat_kind])
            if seat == 0:
                Rectangle(pos=(x + pad * 2, y + pad * 2), size=(size - 4 * pad, size - 4 * pad))
            else:
                Line(rectangle=(x + pad * 0.6, y + pad * 0.6, size - 1.2 * pad, size - 1.2 * pad), width=2.5)
        if kind and not self.owners:
            Color(*SHIP[kind])
            Rectangle(pos=(x + pad, y + pad), size=(size - 2 * pad, size - 2 * pad))
        if kind:
            mark += "L" if kind == "leader" else "N"
        colour = self.markers.get(cell)
        if colour:
            d = size * (0.56 if kind else 0.78)
            Color(*MARKER[colour])
            Ellipse(pos=(x + (size - d) / 2, y + (size - d) / 2), size=(d, d))
            mark += colour[0]
        if self.show_values:
            a, b = (int(n) for n in cell.split("×"))
            texture = _text(str(a * b), 22, True)  # read from across the table: not under 22 px, not grey
            Color(*(theme.TEXT if colour or kind else (0.86, 0.93, 0.88, 1)))
            if kind and not colour:
                Color(0.05, 0.05, 0.05, 1)
            Rectangle(texture=texture, size=texture.size,
                      pos=(x + (size - texture.width) / 2, y + (size - texture.height) / 2))
        return mark
