"""The screen as a person reads it: every text drawn in the window, and where.

`read()` walks what the window draws now and returns a `Frame`: each visible text with its
rectangle in window pixels, as seen:

- Labels and buttons with text, text fields (their words, or their hint), and texts a widget paints on its canvas (`drawn_texts()`);
- clipped by every enclosing StencilView (a ScrollView among them) and by the window;
- nothing transparent (opacity 0 anywhere up the tree) or of no size;
- nothing covered: a ModalView covers all drawn before it (its shade takes every touch), and
  a widget painted opaque (a panel's filled background, a button's face) covers the texts
  drawn before it where it lies over them;
- a button without text is listed as an icon (its image's name), or, when half of it or more
  is seen, as a blank button.

Each `Drawn` says whether a touch at its centre presses an enabled button (`pressable`), and
the outline colour its button draws (a target lit in gold).  A test finds what to touch here,
by text and place, and touches the centre of that rectangle through Kivy's input path; the
widgets behind the frame are never handed out (`board` alone gives a board's cell geometry,
which a person reads from its drawn grid).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kivy.core.window import Window
from kivy.lang import Builder
from kivy.graphics import BorderImage, Color, Line, Rectangle, RoundedRectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.stencilview import StencilView
from kivy.uix.textinput import TextInput

_TAG = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")
MIN_SEEN = 3  # px: less of a text than this, either way, is not seen


@dataclass(frozen=True)
class Drawn:
    text: str  # as read: markup tags dropped, lines joined by one space ("" for an icon)
    rect: tuple[float, float, float, float]  # window px (x0, y0, x1, y1), the part seen
    pressable: bool = False  # a touch at the centre presses an enabled button
    icon: str = ""  # a button drawn with an image and no text: the image's name
    outline: tuple | None = None  # the outline its button draws, if any: (r, g, b, a, width px)
    button: int = 0  # the same number for the texts of one button (0: none)
    face: bool = False  # the text is a button's own (a button face), not a text on a panel that presses
    whole: bool = True  # nothing of it is clipped away

    @property
    def centre(self) -> tuple[float, float]:
        return (self.rect[0] + self.rect[2]) / 2, (self.rect[1] + self.rect[3]) / 2

    @property
    def size(self) -> tuple[float, float]:
        return self.rect[2] - self.rect[0], self.rect[3] - self.rect[1]

    def distance(self, x: float, y: float) -> float:
        """How far the point is from this rectangle (0 inside it)."""
        dx = max(self.rect[0] - x, 0, x - self.rect[2])
        dy = max(self.rect[1] - y, 0, y - self.rect[3])
        return (dx * dx + dy * dy) ** 0.5

    def __str__(self) -> str:
        x0, y0, x1, y1 = self.rect
        what = repr(self.text) if self.text else f"icon {self.icon!r}" if self.icon else "a blank button"
        return f"{what} at ({x0:.0f},{y0:.0f})–({x1:.0f},{y1:.0f})"


@dataclass
class Frame:
    items: list[Drawn]
    blank: list[Drawn]  # enabled buttons seen with neither text nor image
    modal: bool  # a dialog is open over the screen
    boards: list = field(default_factory=list)  # interactive boards seen (cell geometry)
    scrolls: list = field(default_factory=list)  # rects of the lists seen that hold more than they show
    below: list = field(default_factory=list)  # those of them with more below (the bar not at its foot)

    def texts(self) -> list[str]:
        return [d.text for d in self.items if d.text]

    def shows(self, text: str) -> bool:
        return bool(self.find(text, exact=False, pressable=False))

    def find(self, text: str, exact: bool = True, pressable: bool = True) -> list[Drawn]:
        """The texts drawn as `text` (exact False: holding its words, spaces and line breaks aside)."""
        words, said = "".join(text.split()), " ".join(text.split())
        return [d for d in self.items if (d.text == said if exact else words in "".join(d.text.split()))
                and (d.pressable or not pressable)]

    def one(self, text: str, exact: bool = True, pressable: bool = True, near=None) -> Drawn:
        """The drawn text to touch; among several, the one nearest `near` (x, y) if given."""
        found = self.find(text, exact, pressable)
        if not found:
            raise AssertionError(f"{text!r} is not drawn{' as a button' if pressable else ''}; "
                                 f"the screen shows: {self.texts()}")
        if len(found) > 1 and near is None:
            raise AssertionError(f"{text!r} is drawn {len(found)} times: {[str(d) for d in found]}")
        return min(found, key=lambda d: d.distance(*near)) if near else found[0]

    def pressables(self) -> list[Drawn]:
        """One entry per button seen: its first text (or icon)."""
        seen, out = set(), []
        for d in self.items:
            if d.pressable and d.button not in seen:
                seen.add(d.button)
                out.append(d)
        return out

    def near(self, x: float, y: float, radius: float) -> list[Drawn]:
        return [d for d in self.items if d.distance(x, y) <= radius]


def read() -> Frame:
    Builder.sync()  # the canvas rules' delayed updates, as the window's next frame applies them (an outline)
    reader = _Reader()
    for root in reversed(Window.children):  # the window draws its children last-added last
        if isinstance(root, ModalView):
            reader.cover_all()
        reader.walk(root, (0, 0, Window.width, Window.height), None, None)
    return reader.frame()


class _Reader:
    def __init__(self):
        self.order = 0
        self.found: list[tuple[int, Drawn]] = []  # (draw order, item)
        self.covers: list[tuple[int, tuple]] = []  # (draw order, opaque rect seen)
        self.buttons: list[tuple[int, int, Drawn]] = []  # (order, end of its subtree, blank button)
        self.boards: list = []
        self.scrolls: list = []
        self.below: list = []
        self.modal = False

    def cover_all(self) -> None:
        self.modal = True
        self.covers.append((self.order, (0, 0, Window.width, Window.height)))

    def walk(self, widget, clip, button, outline) -> None:
        if getattr(widget, "opacity", 1) <= 0 or widget.width <= 0 or widget.height <= 0:
            return
        self.order += 1
        start = self.order
        rect = _window_rect(widget)
        seen = _intersect(rect, clip)
        if isinstance(widget, StencilView):
            clip = seen or (0, 0, 0, 0)
            if seen and isinstance(widget, ScrollView) and widget.children and \
                    widget.children[0].height > widget.height + 2:
                self.scrolls.append(seen)
                if widget.scroll_y > 0.001:
                    self.below.append(seen)
        if isinstance(widget, ButtonBehavior) and seen:
            button, outline = (id(widget) if not widget.disabled else None), _outline(widget)
        if seen and _opaque(widget):
            self.covers.append((start, seen))
        if isinstance(widget, Label) and str(widget.text).strip():
            self._text(widget, clip, button, outline, start)
        if isinstance(widget, TextInput) and seen:  # a field shows its words, or its hint
            text = _plain(widget.text or widget.hint_text)
            self._add(start, Drawn(text, seen, not (widget.disabled or widget.readonly), "", None, id(widget), True))
        if isinstance(widget, Image) and button and seen and widget.texture is not None:
            self._add(start, Drawn("", seen, True, _image_name(widget), outline, button))
        for text, _px, where in (widget.drawn_texts() if hasattr(widget, "drawn_texts") else ()):
            if (part := _intersect(tuple(where), clip)):
                self._add(start, Drawn(_plain(text), part))
        if hasattr(widget, "cell_size") and getattr(widget, "interactive", False) and seen:
            self.boards.append(widget)
        for child in reversed(widget.children):
            self.walk(child, clip, button, outline)
        if isinstance(widget, ButtonBehavior) and seen and not widget.disabled and _area(seen) >= _area(rect) / 2:
            self.buttons.append((start, self.order, Drawn("", seen, True, "", outline, id(widget))))

    def _text(self, label, clip, button, outline, order) -> None:
        rect = _window_rect(label) if isinstance(label, ButtonBehavior) else _texture_rect(label)
        part = _intersect(rect, clip)
        if part:
            self._add(order, Drawn(_plain(str(label.text), label.markup), part, button is not None,
                                   "", outline, button or 0, isinstance(label, ButtonBehavior), part == rect))

    def _add(self, order, item) -> None:
        self.found.append((order, item))

    def frame(self) -> Frame:
        items = [d for order, d in self.found if not self._covered(order, d.rect)]
        labelled = {d.button for d in items}
        blank = [d for start, end, d in self.buttons
                 if d.button not in labelled and not self._covered(end, d.rect)
                 and not any(start <= o <= end for o, _ in self.found)]  # (its texts all covered)
        return Frame(items, blank, self.modal, self.boards, self.scrolls, self.below)

    def _covered(self, order, rect) -> bool:
        area = _area(rect)
        return any(o > order and (part := _intersect(rect, c)) and _area(part) >= area / 2
                   for o, c in self.covers)


def _window_rect(widget):
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.x + widget.width, widget.y + widget.height)  # (a widget may say `right` of a pan)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _texture_rect(label):
    """Where Kivy draws a label's texture: centred on the widget."""
    tw, th = label.texture_size
    cx, cy = label.to_window(*label.center)
    return cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2


def _intersect(a, b):
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])  # (a itself when inside b)
    return (x0, y0, x1, y1) if x1 - x0 >= MIN_SEEN and y1 - y0 >= MIN_SEEN else None


def _area(rect) -> float:
    return (rect[2] - rect[0]) * (rect[3] - rect[1])


def _plain(text: str, markup: bool = False) -> str:
    return " ".join((_TAG.sub("", text) if markup else text).split())


def _image_name(image) -> str:
    return str(getattr(image, "source", "") or "image").rsplit("/", 1)[-1]


def _instructions(widget):
    for group in (widget.canvas.before, widget.canvas):
        yield from group.children


def _opaque(widget) -> bool:
    """Whether the widget paints a solid background over its whole box (a panel, a button's face)."""
    if isinstance(widget, ButtonBehavior) and hasattr(widget, "background_color"):
        return widget.background_color[3] >= 0.95
    if isinstance(widget, Label):  # its canvas is its text
        return False
    colour = None
    for ins in _instructions(widget):
        if isinstance(ins, Color):
            colour = ins.rgba
        elif isinstance(ins, (Rectangle, RoundedRectangle, BorderImage)) and colour and colour[3] >= 0.95:
            if ins.size[0] >= widget.width - 3 and ins.size[1] >= widget.height - 3 \
                    and abs(ins.pos[0] - widget.x) <= 3 and abs(ins.pos[1] - widget.y) <= 3:
                return True
    return False


def _outline(widget) -> tuple | None:
    """The colour and width of the outline a button draws around itself (None: none drawn)."""
    colour = None
    for ins in _instructions(widget):
        if isinstance(ins, Color):
            colour = tuple(round(c, 3) for c in ins.rgba)
        elif isinstance(ins, Line) and colour and colour[3] > 0:
            return colour + (round(ins.width, 1),)
    return None
