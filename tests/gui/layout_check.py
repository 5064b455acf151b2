"""The table-ready check: every text on screen fits its box, overlaps nothing, and reads from 1 m.

`problems(app)` looks at what is drawn now (the current screen and any popup) and
returns one sentence per fault:

- a label whose text is larger than its box, or cut (shortened with "...", lines
  dropped by a fixed `text_size` height);
- a wrap that breaks a word: between two Latin letters or digits, anywhere in a
  button's words (a button is read at a glance: it breaks only where its text says
  "\\n" or has a space), a line that starts with closing punctuation, or one or two
  characters left alone on a line (「」」, 「ん」);
- a text whose drawn box overlaps another text or a button it does not belong to, or a
  text partly off the window (a column taller than the screen; not while the on-screen
  keyboard has lifted the screen);
- text under `theme.TEXT_MIN` px, or a widget marked `table_text` (verdicts,
  results, prompts, board coordinates) under `theme.TABLE_TEXT_MIN` px
  (docs/developing.md says why those sizes);
- text drawn on a canvas (a widget with `drawn_texts()`, such as the calibration
  plot): under `theme.TEXT_MIN` px, overlapping another of its texts, or outside the widget;
- a touch target under `theme.TOUCH_MIN` px wide or high (in window pixels), or overlapping
  another target.  A target is whatever a finger can press now, visible and enabled: a
  button (anything with ButtonBehavior: Button, ToggleButton, the app's chips and tiles),
  a text field, a key of the on-screen keyboard, a cell of an interactive board (a widget
  with `cell_size` and `interactive`: the CellGrid boards, UTTT's).  A button may say
  `takes_touch` False when it lets touches through to what holds it (a Naval War chip
  that is not a target now).  A target inside another (a chip on its fleet strip) is
  nested, not overlapping: Kivy gives the touch to the inner one.

  One rule for board cells: a board whose taps are never final may have cells of
  `theme.AIM_MIN` (44) px.  Such a board says `aims` True: a tap on a cell only picks
  it (lit in gold) or arranges a private fleet still open, and nothing reaches the game
  until a second tap on the same cell or a button confirms it (Fire; Done, with Undo
  for a ship placed wrong), so a near-miss costs one more tap, never a move.  This lets
  Battleship keep its coordinates at table size beside the sea: 480 px hold ten 48 px
  rows and nothing else, and the column numbers need a strip of their own (inside row
  A they lie under the pegs; without them the table cannot read "B7").  44 px is 8.4 mm
  on the 7" panel, the least WCAG 2.5.5 and Apple's guidelines give for any target;
  48 px (9.1 mm, Material's) stays the rule for every tap that acts at once, and for
  the other boards, which meet it (Kuku's 48 px cells, UTTT's 52 px).
"""

from __future__ import annotations

import re

from kivy.core.window import Window
from kivy.uix.button import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.vkeyboard import VKeyboard

from companion.ui import theme

CLOSING = set("」』）)、。，．！？!?：:ー…・]")
OPENING = set("「『（([")
SLACK = 2  # px: rounding in Kivy's layout

_TAG = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def _visible(widget) -> bool:
    w = widget
    while w is not None and w is not Window:
        if getattr(w, "opacity", 1) <= 0:
            return False
        w = w.parent
    return widget.width > 0 and widget.height > 0


def _window_rect(widget):
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _clip(widget):
    """The window area the widget can be seen in: the window, narrowed by ScrollViews."""
    box = (0, 0, Window.width, Window.height)
    w = widget.parent
    while w is not None and w is not Window:
        if isinstance(w, ScrollView):
            box = _intersect(box, _window_rect(w)) or (0, 0, 0, 0)
        w = w.parent
    return box


def _intersect(a, b):
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x1 - x0 > SLACK and y1 - y0 > SLACK else None


def _text_rect(label):
    """Where the label's texture is drawn (Kivy centres it on the widget), in window coordinates."""
    tw, th = label.texture_size
    cx, cy = label.to_window(*label.center)
    return cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2


def _ancestors(widget) -> set[int]:
    found, w = set(), widget.parent
    while w is not None and w is not Window:
        found.add(id(w))
        w = w.parent
    return found


def _name(widget) -> str:
    text = str(getattr(widget, "text", "")).replace("\n", "⏎")
    return f"{type(widget).__name__} {text[:40]!r}"


def _plain(text: str, markup: bool) -> str:
    return _TAG.sub("", text) if markup else text


def _lines(label) -> list[str]:
    core = label._label
    return ["".join(word.text for word in line.words) for line in getattr(core, "_cached_lines", [])]


def _wrap_faults(label) -> list[str]:
    text = _plain(str(label.text), label.markup)
    lines = [line for line in _lines(label) if line.strip()]
    if getattr(label._label, "is_shortened", False):
        return [f"{_name(label)} is shortened to {' '.join(lines)!r}"]
    squeeze = re.sub(r"\s+", "", text)
    drawn = re.sub(r"\s+", "", "".join(lines))
    if drawn != squeeze:
        return [f"{_name(label)} is cut: only {''.join(lines)!r} is drawn"]
    faults, at = [], 0
    flat = text
    for before, after in zip(lines, lines[1:]):
        at = flat.find(before.strip(), at) + len(before.strip())
        gap = flat[at:at + 1]
        forced = gap.strip() != "" or gap == ""  # no space or newline where the line broke
        last, first = before.strip()[-1:], after.strip()[:1]
        path = "/" in before.split()[-1]  # a file's path has no other place to break
        if forced and not path and last.isascii() and first.isascii() and last.isalnum() and first.isalnum():
            faults.append(f"{_name(label)} breaks the word {before.strip()[-4:]}|{after.strip()[:4]}")
        elif forced and len(after.strip()) <= 2 and not after.strip().isdigit():
            faults.append(f"{_name(label)} leaves {after.strip()!r} alone on a line")
        elif forced and isinstance(label, ButtonBehavior):
            faults.append(f"{_name(label)} wraps inside a word ({before.strip()[-3:]}|{after.strip()[:3]})")
        elif (forced and first in CLOSING) or all(c in CLOSING | OPENING for c in after.strip()):
            # (a line the text itself starts after "\n" may open with a bullet "・")
            faults.append(f"{_name(label)} starts a line with {after.strip()[:3]!r}")
        elif last in OPENING:
            faults.append(f"{_name(label)} ends a line with {before.strip()[-3:]!r}")
    return faults


def _texts(roots):
    for root in roots:
        for widget in root.walk(restrict=True):
            if isinstance(widget, Label) and str(widget.text).strip() and _visible(widget):
                if _intersect(_window_rect(widget), _clip(widget)):
                    yield widget


def _buttons(roots):
    for root in roots:
        for widget in root.walk(restrict=True):
            if isinstance(widget, ButtonBehavior) and _visible(widget) and not widget.disabled:
                yield widget


def _root(widget, roots):
    w = widget
    while w is not None and w not in roots:
        w = w.parent
    return w


def problems(app) -> list[str]:
    screen = app.manager.current_screen
    # A dialog (a ModalView, always the window's newest child) covers everything under it.
    modals = [w for w in Window.children if isinstance(w, ModalView)]
    roots = modals[:1] or [screen] + [w for w in Window.children if w is not app.root]
    texts = list(_texts(roots))
    faults = []
    for label in texts:
        tw, th = label.texture_size
        if tw > label.width + SLACK or th > label.height + SLACK:
            faults.append(f"{_name(label)} needs {tw:.0f}×{th:.0f} px in a {label.width:.0f}×{label.height:.0f} box")
        faults += _wrap_faults(label)
        x0, y0, x1, y1 = _window_rect(label)
        if len(roots) == 1 and _clip(label) == (0, 0, Window.width, Window.height) and (
                x0 < -SLACK or y0 < -SLACK or x1 > Window.width + SLACK or y1 > Window.height + SLACK):
            faults.append(f"{_name(label)} runs off the window ({x0:.0f},{y0:.0f})–({x1:.0f},{y1:.0f})")
        least = theme.TABLE_TEXT_MIN if getattr(label, "table_text", False) else theme.TEXT_MIN
        if label.font_size < least - 0.5:
            faults.append(f"{_name(label)} is {label.font_size:.0f} px; at least {least} px")
    rects = [(label, _intersect(_text_rect(label), _clip(label)), _ancestors(label)) for label in texts]
    # each root's buttons, measured once, each as seen (a button scrolled away is not drawn)
    buttons = {id(root): [(button, _intersect(_window_rect(button), _clip(button)), _ancestors(button))
                          for button in _buttons([root])] for root in roots}
    for i, (a, ra, up_a) in enumerate(rects):
        for b, rb, up_b in rects[i + 1:]:
            if ra and rb and id(a) not in up_b and id(b) not in up_a and _intersect(ra, rb) \
                    and _root(a, roots) is _root(b, roots):  # a docked keyboard lies over the screen
                faults.append(f"{_name(a)} overlaps {_name(b)}")
        if not ra or isinstance(a, ButtonBehavior):
            continue
        for button, seen, up_button in buttons[id(_root(a, roots))]:
            if button is a or id(button) in up_a or id(a) in up_button:
                continue
            if seen and _intersect(ra, seen):
                faults.append(f"{_name(a)} overlaps the button {_name(button)}")
    return faults + _drawn_faults(roots) + _target_faults(roots)


def _drawn_faults(roots) -> list[str]:
    faults = []
    for root in roots:
        for widget in root.walk(restrict=True):
            if not hasattr(widget, "drawn_texts") or not _visible(widget):
                continue
            texts, box = widget.drawn_texts(), _window_rect(widget)
            for i, (text, px, rect) in enumerate(texts):
                if px < theme.TEXT_MIN - 0.5:
                    faults.append(f"{type(widget).__name__} draws {text!r} at {px:.0f} px; at least {theme.TEXT_MIN} px")
                if rect[0] < box[0] - SLACK or rect[1] < box[1] - SLACK or rect[2] > box[2] + SLACK or rect[3] > box[3] + SLACK:
                    faults.append(f"{type(widget).__name__} draws {text!r} outside itself")
                faults += [f"{type(widget).__name__} draws {text!r} over {other!r}"
                           for other, _, r in texts[i + 1:] if _intersect(rect, r)]
    return faults


def _key_rects(kb: VKeyboard):
    """The keyboard's keys in window pixels (it is a scaled Scatter on the window)."""
    layout = kb.available_layouts[kb.layout]
    for line in range(1, layout["rows"] + 1):
        keys = layout[f"{kb.layout_mode}_{line}"]
        for (label, *_), (pos, size) in zip(keys, kb.layout_geometry.get(f"LINE_{line}", [])):
            x, y = kb.to_parent(*pos)
            yield f"key {label!r}", (x, y, x + size[0] * kb.scale, y + size[1] * kb.scale)


def _cell_rect(board):
    """One cell of a board, in window pixels (every cell of a board has the same size)."""
    x0, y0 = board.to_window(board.x, board.y)
    x1, y1 = board.to_window(board.x + board.cell_size, board.y + board.cell_size)
    return x0, y0, x1, y1


def _targets(roots):
    """(name, window rect, least size, widget or None) for each thing a finger can press now;
    the widget, when given, is what must overlap no other target."""
    for root in roots:
        for widget in root.walk(restrict=True):
            if not _visible(widget) or widget.disabled:
                continue
            if isinstance(widget, VKeyboard):
                for name, rect in _key_rects(widget):
                    yield name, rect, theme.TOUCH_MIN, None
            elif isinstance(widget, ButtonBehavior) and getattr(widget, "takes_touch", True) \
                    or isinstance(widget, TextInput) and not widget.readonly:
                yield _target_name(widget), _window_rect(widget), theme.TOUCH_MIN, widget
            elif hasattr(widget, "cell_size") and getattr(widget, "interactive", False):
                least = theme.AIM_MIN if getattr(widget, "aims", False) else theme.TOUCH_MIN
                yield f"{type(widget).__name__}'s cell", _cell_rect(widget), least, None
                yield type(widget).__name__, _window_rect(widget), 0, widget


def _target_faults(roots) -> list[str]:
    faults, placed = [], []
    for name, rect, least, widget in _targets(roots):
        w, h = rect[2] - rect[0], rect[3] - rect[1]
        if least and min(w, h) < least - 0.5:
            faults.append(f"the touch target {name} is {w:.0f}×{h:.0f} px; at least {least} px")
        seen = widget is not None and _intersect(rect, _clip(widget))  # None: scrolled away
        if not seen:
            continue
        up = _ancestors(widget)
        for other, other_seen, other_up in placed:
            if id(other) not in up and id(widget) not in other_up and _intersect(seen, other_seen) \
                    and _root(widget, roots) is _root(other, roots):
                faults.append(f"the touch target {name} overlaps {_target_name(other)}")
        placed.append((widget, seen, up))
    return faults


def _target_name(widget) -> str:
    label = getattr(widget, "text", None) or getattr(widget, "name", None) or getattr(widget, "header", "")
    return _name(widget) if hasattr(widget, "text") else f"{type(widget).__name__} {str(label)[:40]!r}"
