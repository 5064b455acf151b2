"""The 10x10 sea of Battleship: draws a target grid (pegs) or, in a private step, a fleet.

The row letters sit in a strip on the left, the column numbers in a strip above
row A (never under a peg), both at the table-text size; on the 480 px screen the
cells are 45 px, under the 48 px of a touch target: allowed because no tap on the
sea is final (`aims`, tests/gui/layout_check.py says the rule).  A finger may slide: the cell under it is `hover` (for previews) and
the cell where it lifts is reported by `on_cell`.

`drawn` records what the last redraw put in each cell ("." water, "o" miss,
"x" hit, "#" sunk, "?" called this turn, "S" a ship of the fleet shown), so
tests can prove what the screen showed.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty

from companion.games.battleship.fleet import CELLS, SIZE
from companion.play.grid import ROW_LETTERS
from companion.ui import theme
from companion.ui.cell_grid import CellGrid, text_texture as _text

LETTER_STRIP = 30  # px left of the sea for the row letters
NUMBER_STRIP = 34  # px above the sea for the column numbers
COORD_PX = 28  # board coordinates are table text (theme.TABLE_TEXT_MIN)
SEA = (0.10, 0.24, 0.36, 1)
SEA_LINE = (0.05, 0.12, 0.18, 1)
SHIP = (0.62, 0.65, 0.70, 1)
SUNK_FILL = (0.40, 0.08, 0.08, 1)
PEG_WHITE = (0.96, 0.96, 0.96, 1)
PEG_RED = (0.92, 0.20, 0.20, 1)
GHOST_OK = (0.30, 0.80, 0.40, 0.55)
GHOST_BAD = (0.95, 0.25, 0.20, 0.55)


class BattleshipGrid(CellGrid):
    # A tap here only aims: a shot waits for a second tap or Fire, a volley for Fire, and a
    # ship placed joins a fleet still open (Undo takes it back; Done hands the fleet over).
    aims = True
    marks = ListProperty(["."] * CELLS)  # per cell: "." "o" "x" "#" "?"
    ships = ListProperty([])  # the fleet shown, a list of cells per ship (private placement only)
    rings = ListProperty([])  # cells ringed in gold: the last volley
    ghost = ListProperty([])  # cells of a ship being placed
    ghost_ok = BooleanProperty(True)
    aim = NumericProperty(-1)  # the cell aimed at, not fired yet
    hover = NumericProperty(-1)  # the cell under the finger

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.drawn: list[str] = ["."] * CELLS
        self.lit: list[int] = []  # the cells the last redraw lit as aimed (or under the finger)
        redraw = Clock.create_trigger(self.redraw)
        self.bind(pos=redraw, size=redraw, marks=redraw, ships=redraw, rings=redraw,
                  ghost=redraw, ghost_ok=redraw, aim=redraw, hover=redraw, interactive=redraw)

    # geometry -------------------------------------------------------------------

    @property
    def cell_size(self) -> float:
        return min((self.width - LETTER_STRIP) / SIZE, (self.height - NUMBER_STRIP) / SIZE)

    def cell_rect(self, cell: int) -> tuple[float, float, float]:
        """x, y (bottom left) and size of a cell; A1 is top left."""
        row, col = divmod(cell, SIZE)
        size = self.cell_size
        top = self.y + (self.height - NUMBER_STRIP + size * SIZE) / 2
        return self.x + LETTER_STRIP + col * size, top - (row + 1) * size, size

    def cell_at(self, x: float, y: float) -> int | None:
        size = self.cell_size
        x0, y0, _ = self.cell_rect(CELLS - SIZE)  # bottom-left cell
        col, row_up = int((x - x0) // size), int((y - y0) // size)
        if 0 <= col < SIZE and 0 <= row_up < SIZE:
            return (SIZE - 1 - row_up) * SIZE + col
        return None

    def finger_at(self, cell: int | None) -> None:
        self.hover = -1 if cell is None else cell

    # drawing --------------------------------------------------------------------

    def redraw(self, *_):
        self.canvas.clear()
        ships = {cell for cells in self.ships for cell in cells}
        rings, ghost = set(self.rings), set(self.ghost)
        drawn = []
        with self.canvas:
            self._draw_labels()
            for cell in range(CELLS):
                mark = "S" if cell in ships and self.marks[cell] == "." else self.marks[cell]
                drawn.append(mark)
                self._draw_cell(cell, mark)
            for cells in self.ships:
                self._draw_ship(cells)
            for col in range(SIZE):
                self._draw_number(col)
            for cell in range(CELLS):
                if cell in ghost:
                    self._fill(cell, GHOST_OK if self.ghost_ok else GHOST_BAD, inset=0.04)
                if cell in rings:
                    self._outline(cell, theme.GOLD, 2)
            self.lit = sorted({cell for cell in (self.hover, self.aim) if cell >= 0 and not ghost})
            for cell in self.lit:
                self._crosshair(cell)
        self.drawn = drawn

    def _draw_labels(self) -> None:
        size = self.cell_size
        for row in range(SIZE):
            x, y, _ = self.cell_rect(row * SIZE)
            texture = _text(ROW_LETTERS[row], COORD_PX, True)
            Color(*theme.MUTED)
            Rectangle(texture=texture, size=texture.size,
                      pos=(self.x + (LETTER_STRIP - texture.width) / 2,
                           y + (size - texture.height) / 2))

    def _draw_cell(self, cell: int, mark: str) -> None:
        x, y, size = self.cell_rect(cell)
        Color(*SEA_LINE)
        Rectangle(pos=(x, y), size=(size, size))
        self._fill(cell, SUNK_FILL if mark == "#" else SEA, inset=0.03)
        if mark == "o":
            self._peg(cell, PEG_WHITE, 0.30)
        elif mark in "x#":
            self._peg(cell, PEG_RED, 0.56)
        elif mark == "?":
            self._outline(cell, theme.GOLD, 3)
            self._peg(cell, theme.GOLD, 0.22)

    def _draw_number(self, col: int) -> None:
        """A column number in the strip above row A."""
        x, y, size = self.cell_rect(col)
        texture = _text(str(col + 1), COORD_PX, True)
        Color(*theme.MUTED)
        Rectangle(texture=texture, size=texture.size,
                  pos=(x + (size - texture.width) / 2, y + size + (NUMBER_STRIP - texture.height) / 2))

    def _draw_ship(self, cells: list[int]) -> None:
        """One bar over a ship's cells, so ships side by side stay apart."""
        x0, y0, size = self.cell_rect(min(cells))
        x1, y1, _ = self.cell_rect(max(cells))
        pad = size * 0.10
        Color(*SHIP)
        Rectangle(pos=(x0 + pad, y1 + pad), size=(x1 - x0 + size - 2 * pad, y0 - y1 + size - 2 * pad))

    def _fill(self, cell: int, colour, inset: float) -> None:
        x, y, size = self.cell_rect(cell)
        pad = size * inset
        Color(*colour)
        Rectangle(pos=(x + pad, y + pad), size=(size - 2 * pad, size - 2 * pad))

    def _peg(self, cell: int, colour, fraction: float) -> None:
        x, y, size = self.cell_rect(cell)
        d = size * fraction
        Color(*colour)
        Ellipse(pos=(x + (size - d) / 2, y + (size - d) / 2), size=(d, d))

    def _outline(self, cell: int, colour, width: float) -> None:
        x, y, size = self.cell_rect(cell)
        Color(*colour)
        Line(rectangle=(x + 3, y + 3, size - 6, size - 6), width=width)

    def _crosshair(self, cell: int) -> None:
        self.draw_aim(cell)
        x, y, size = self.cell_rect(cell)
        mid_x, mid_y = x + size / 2, y + size / 2
        Line(points=[x + 6, mid_y, x + size - 6, mid_y], width=1.5)
        Line(points=[mid_x, y + 6, mid_x, y + size - 6], width=1.5)
