"""The Ultimate Tic-Tac-Toe board widget: draws a view, reports presses and plays.

Press and hold a cell: the board that move sends the opponent to lights up
(`preview`).  Releasing on the same cell plays it.  Only playable boards are
lit; the others are dimmed and ignore touches.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty
from kivy.uix.widget import Widget

from companion.ui import theme

GAP = 6  # px between small boards


class UtttBoard(Widget):
    view = DictProperty({})
    colours = ListProperty([theme.RED, theme.BLUE])  # colour of the X player, of the O player
    interactive = BooleanProperty(True)
    preview = NumericProperty(-1)  # board lit by a long press, -1 for none
    pressed = NumericProperty(-1)  # the cell under the finger
    hints = ListProperty([])  # cells drawn with a dot (review: where a move could go)

    __events__ = ("on_play",)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        redraw = Clock.create_trigger(self.redraw)  # once per frame, after layout settles
        self.bind(pos=redraw, size=redraw, view=redraw, preview=redraw,
                  pressed=redraw, hints=redraw, interactive=redraw, colours=redraw)

    def on_play(self, cell: int) -> None:
        pass

    # geometry -----------------------------------------------------------------

    @property
    def side(self) -> float:
        return min(self.width, self.height)

    @property
    def cell_size(self) -> float:
        return (self.side - 2 * GAP) / 9

    def origin(self) -> tuple[float, float]:
        return self.center_x - self.side / 2, self.center_y - self.side / 2

    def cell_rect(self, cell: int) -> tuple[float, float, float]:
        """x, y (bottom left) and size of a cell; board 0 / cell 0 is top left."""
        board, inner = divmod(cell, 9)
        col = board % 3 * 3 + inner % 3
        row = board // 3 * 3 + inner // 3
        size = self.cell_size
        x0, y0 = self.origin()
        x = x0 + col * size + (col // 3) * GAP
        y = y0 + self.side - (row + 1) * size - (row // 3) * GAP
        return x, y, size

    def board_rect(self, board: int) -> tuple[float, float, float]:
        x, y, size = self.cell_rect(board * 9 + 6)  # bottom-left cell of that board
        return x, y, size * 3

    def cell_at(self, x: float, y: float) -> int | None:
        for cell in range(81):
            cx, cy, size = self.cell_rect(cell)
            if cx <= x < cx + size and cy <= y < cy + size:
                return cell
        return None

    # touch -------------------------------------------------------------------

    def playable(self, cell: int | None) -> bool:
        if cell is None or not self.interactive or not self.view:
            return False
        board = cell // 9
        return board in self.view["playable_boards"] and self.view["cells"][cell] is None

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos):
            return False
        cell = self.cell_at(*touch.pos)
        if self.playable(cell):
            touch.grab(self)
            self._press(cell)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is self:
            cell = self.cell_at(*touch.pos)
            self._press(cell) if self.playable(cell) else self._release()
            return True
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        cell = self.cell_at(*touch.pos)
        chosen = self.pressed
        self._release()
        if chosen >= 0 and cell == chosen and self.playable(cell):
            self.dispatch("on_play", cell)
        return True

    def _press(self, cell: int) -> None:
        self.pressed = cell
        target = self.view.get("sends_to", {}).get(str(cell)) if self.view else None
        self.preview = -1 if target is None else target

    def _release(self) -> None:
        self.pressed = -1
        self.preview = -1

    # drawing -------------------------------------------------------------------

    def redraw(self, *_):
        self.canvas.clear()
        if not self.view:
            return
        view = self.view
        lit = set(view["playable_boards"]) if self.interactive else set()
        with self.canvas:
            for board in range(9):
                x, y, size = self.board_rect(board)
                Color(*(theme.PANEL if board in lit else (0.11, 0.13, 0.17, 1)))
                Rectangle(pos=(x, y), size=(size, size))
            for cell in range(81):
                self._draw_cell(cell, view["cells"][cell], cell // 9 in lit)
            for board, status in enumerate(view["boards"]):
                if status in ("X", "O"):
                    self._draw_big_mark(board, status)
            if self.preview >= 0:
                x, y, size = self.board_rect(self.preview)
                Color(*theme.TEXT)
                Line(rectangle=(x, y, size, size), width=3)
            self._draw_winning_line(view.get("winning_line"))

    def _draw_cell(self, cell: int, mark: str | None, lit: bool) -> None:
        x, y, size = self.cell_rect(cell)
        pad = size * 0.06
        fill = (0.22, 0.26, 0.33, 1) if lit else (0.14, 0.16, 0.20, 1)
        if cell == self.pressed:
            fill = (0.35, 0.40, 0.50, 1)
        Color(*fill)
        Rectangle(pos=(x + pad, y + pad), size=(size - 2 * pad, size - 2 * pad))
        if cell == self.view.get("last_move"):
            Color(*theme.GOLD)
            Line(rectangle=(x + pad, y + pad, size - 2 * pad, size - 2 * pad), width=1.5)
        if mark:
            self._draw_mark(mark, x, y, size, size * 0.22, 2.5)
        elif cell in self.hints:
            Color(*theme.GOLD)
            dot = size * 0.22
            Ellipse(pos=(x + size / 2 - dot / 2, y + size / 2 - dot / 2), size=(dot, dot))

    def _draw_big_mark(self, board: int, mark: str) -> None:
        x, y, size = self.board_rect(board)
        Color(0, 0, 0, 0.55)
        Rectangle(pos=(x, y), size=(size, size))
        self._draw_mark(mark, x, y, size, size * 0.14, 7)

    def _draw_mark(self, mark: str, x: float, y: float, size: float, inset: float,
                   width: float) -> None:
        Color(*self.colours[0 if mark == "X" else 1])
        a, b = x + inset, x + size - inset
        c, d = y + inset, y + size - inset
        if mark == "X":
            Line(points=[a, c, b, d], width=width)
            Line(points=[a, d, b, c], width=width)
        else:
            Line(ellipse=(a, c, b - a, d - c), width=width)

    def _draw_winning_line(self, boards: list[int] | None) -> None:
        if not boards:
            return
        Color(*theme.GOLD)
        for board in boards:
            x, y, size = self.board_rect(board)
            Line(rectangle=(x - 2, y - 2, size + 4, size + 4), width=4)
        first, last = self.board_rect(boards[0]), self.board_rect(boards[-1])
        Line(points=[first[0] + first[2] / 2, first[1] + first[2] / 2,
                     last[0] + last[2] / 2, last[1] + last[2] / 2], width=6)
