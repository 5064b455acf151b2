"""Widgets of the Gunkan referee: the seesaw drawing, the virtual pieces tray, dialogs.

The seesaw drawing shows only what the referee screen may know: each pan
empty, settling or holding a piece (always the same block, whatever the
piece), and a rocking beam while the judge waits for the signal to settle.
The beam never tilts towards the heavier pan: judging "identify", a lighter
attacker can win (a submarine against the carrier), so a tilt would tell.

The virtual pieces tray stands in for hands on a laptop.  It names pieces to
the person placing them, so it lives in a popup outside the screen (never in
the referee screen's widget tree) and closes as soon as a piece is placed or
taken off: the shared screen never shows a piece name during a battle.  The one
counterweight rides with the attacking submarine, so its button puts it on the
attacker's pan whichever pan is chosen, and takes it off again while it lies on one.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Line, PopMatrix, PushMatrix, Rectangle, Rotate, Triangle
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.games.gunkan.pieces import COUNTERWEIGHT
from companion.ui import theme

ATTACKER_PAN = "L"  # the attacker's piece goes on the left pan, the defender's on the right
TRAY_PIECES = ("carrier", "battleship", "cruiser", "destroyer", "minesweeper", "submarine",
               "landing_ship", "mine", "port", "counterweight")
ODD_OBJECT_G = 7.0  # a 500-yen coin: far from every class, heavier than an empty pan (re-weigh demo)


def piece_name(tr, name: str) -> str:
    """A piece's name for a label."""
    return tr(f"gunkan.piece.{name}")


class SeesawView(Widget):
    """A two-pan seesaw: `left`/`right` are "empty", "settling", "loaded" or "refused"."""

    left = StringProperty("empty")
    right = StringProperty("empty")
    rocking = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.angle = 0.0
        self._phase = 0.0
        self._event = None
        redraw = Clock.create_trigger(self.redraw)
        self.bind(pos=redraw, size=redraw, left=redraw, right=redraw)

    def on_rocking(self, *_):
        if self.rocking and self._event is None:
            self._event = Clock.schedule_interval(self._rock, 1 / 30)
        elif not self.rocking and self._event is not None:
            self._event.cancel()
            self._event = None
            self.angle = 0.0
            self.redraw()

    def _rock(self, dt):
        self._phase += dt
        self.angle = 7.0 * math.sin(2 * math.pi * self._phase / 0.9)
        self.redraw()

    def stop(self) -> None:
        self.rocking = False

    def redraw(self, *_):
        self.canvas.clear()
        cx, base = self.center_x, self.y + 6
        beam_y = base + min(70, self.height * 0.4)
        pan_w = min(100, self.width * 0.2)
        half = min(self.width / 2 - pan_w / 2 - 6, 230)
        self._box = max(8, min(pan_w * 0.55, self.top - beam_y - 4))  # the pieces stay inside
        with self.canvas:
            Color(*theme.MUTED)
            Triangle(points=[cx - 40, base, cx + 40, base, cx, beam_y])
            PushMatrix()
            Rotate(angle=self.angle, origin=(cx, beam_y))
            Color(*theme.TEXT)
            Line(points=[cx - half, beam_y, cx + half, beam_y], width=4)
            for x, kind, colour in ((cx - half, self.left, theme.RED), (cx + half, self.right, theme.BLUE)):
                self._pan(x, beam_y, pan_w, kind)
            PopMatrix()

    def _pan(self, x: float, y: float, w: float, kind: str) -> None:
        Color(*theme.TEXT)
        Line(points=[x - w / 2, y - 8, x + w / 2, y - 8], width=3)
        size = self._box
        box = (x - size / 2, y - 6)
        if kind == "loaded":
            Color(*theme.GOLD)
            Rectangle(pos=box, size=(size, size))
        elif kind == "settling":
            Color(*theme.GOLD)
            Line(rectangle=(*box, size, size), width=2, dash_length=6, dash_offset=4)
        elif kind == "refused":
            Color(*theme.WARN)
            Line(points=[box[0], box[1], box[0] + size, box[1] + size], width=3)


def _button(text: str, on_release, colour=theme.PANEL, height: int = 56) -> Widget:
    button = Factory.BigButton(text=text, size_hint_y=None, height=height, font_size="20sp")
    button.background_color = colour
    button.bind(on_release=lambda *_: on_release())
    return button


class VirtualTray(ModalView):
    """Put simulated pieces on a pan or take them off, like hands at the table."""

    pan = StringProperty("L")

    def __init__(self, sim, tr, pan: str = "L", calibration_g: float | None = None, **kwargs):
        super().__init__(size_hint=(0.96, 0.96), auto_dismiss=True, **kwargs)
        self._anim_duration = 0  # gone at once: no piece name lingers on the shared screen
        self.sim, self.tr = sim, tr
        self.buttons: dict[str, Widget] = {}
        box = BoxLayout(orientation="vertical", padding=8, spacing=6)
        box.add_widget(Label(text=tr("gunkan_ui.tray_title"), font_size="20sp", bold=True,
                             size_hint_y=None, height=32))
        box.add_widget(Label(text=tr("gunkan_ui.tray_note"), font_size="18sp", color=theme.MUTED,
                             size_hint_y=None, height=30))
        pans = BoxLayout(size_hint_y=None, height=56, spacing=6)
        for key in ("L", "R"):
            toggle = Factory.ChoiceButton(group="gunkan_tray_pan")
            toggle.bind(on_release=lambda _, k=key: setattr(self, "pan", k))
            pans.add_widget(toggle)
            self.buttons[f"pan:{key}"] = toggle
        box.add_widget(pans)
        grid = GridLayout(cols=4, spacing=6)
        items = [(name, piece_name(tr, name), {"piece": name}) for name in TRAY_PIECES]
        items.append(("odd", tr("gunkan_ui.tray_odd"), {"grams": ODD_OBJECT_G}))
        if calibration_g:
            items.append(("mass", tr("gunkan_ui.tray_mass", g=f"{calibration_g:g}"), {"grams": calibration_g}))
        for key, text, load in items:
            button = _button(text, lambda load=load: self._place(load), height=60)
            grid.add_widget(button)
            self.buttons[key] = button
        box.add_widget(grid)
        row = BoxLayout(size_hint_y=None, height=56, spacing=6)
        for key, text, action in (("remove", tr("gunkan_ui.tray_remove"), self._remove),
                                  ("clear", tr("gunkan_ui.tray_clear"), self._clear),
                                  ("close", tr("gunkan_ui.close"), self.dismiss)):
            button = _button(text, action)
            row.add_widget(button)
            self.buttons[key] = button
        box.add_widget(row)
        self.add_widget(box)
        self.show_pan(pan)

    def opening_pan(self, attacker_next: bool) -> str:
        """The pan a person reaches for: the attacker's while it is bare, or while the attacker
        places next (asked about the counterweight, or it is the next piece), else the defender's."""
        bare = not self.sim.loads(ATTACKER_PAN)
        return ATTACKER_PAN if bare or (attacker_next and self.counterweight_on() is None) else "R"

    def show_pan(self, pan: str) -> None:
        """Choose the pan (opened again and again)."""
        self.pan = pan
        self._show_loads()

    def on_pre_open(self) -> None:
        self._show_loads()

    def _show_loads(self) -> None:
        """How many loads each pan holds, and whether the counterweight is on one."""
        for key, label in (("L", "tray_left"), ("R", "tray_right")):
            toggle = self.buttons[f"pan:{key}"]
            toggle.text = self.tr(f"gunkan_ui.{label}", n=len(self.sim.loads(key)))
            toggle.state = "down" if key == self.pan else "normal"
        on = self.counterweight_on()
        self.buttons[COUNTERWEIGHT].text = self.tr(f"gunkan_ui.tray_counterweight_{'off' if on else 'on'}")

    def counterweight_on(self) -> tuple[str, int] | None:
        """(pan, load id) of the counterweight while it lies on a pan."""
        return next(((pan, load) for pan in ("L", "R") for load, label, _ in self.sim.loads(pan)
                     if label == COUNTERWEIGHT), None)

    def _place(self, load: dict) -> None:
        piece = load.get("piece")
        if piece != COUNTERWEIGHT:
            self.sim.place(self.pan, piece, grams=load.get("grams"))
        elif (on := self.counterweight_on()) is not None:
            self.sim.remove(*on)
        else:
            self.sim.place(ATTACKER_PAN, piece)
        self.dismiss()

    def _remove(self) -> None:
        if self.sim.loads(self.pan):
            self.sim.remove(self.pan)
        self.dismiss()

    def _clear(self) -> None:
        self.sim.clear()
        self.dismiss()


class ChoiceDialog(ModalView):
    """A question with a column of answers; each answer runs its action and closes."""

    def __init__(self, question: str, answers: list[tuple[str, str, object]], **kwargs):
        super().__init__(size_hint=(0.8, None), auto_dismiss=True, **kwargs)
        self._anim_duration = 0
        self.buttons: dict[str, Widget] = {}
        box = GridLayout(cols=1 if len(answers) <= 3 else 2, padding=10, spacing=8,
                         size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        title = Label(text=question, font_size="22sp", bold=True, size_hint_y=None, height=56)
        outer = BoxLayout(orientation="vertical", padding=6, spacing=6)
        outer.add_widget(title)
        for key, text, action in answers:
            button = _button(text, lambda action=action: self._answer(action))
            box.add_widget(button)
            self.buttons[key] = button
        outer.add_widget(box)
        self.height = box.minimum_height + 56 + 40 if box.minimum_height else 320
        box.bind(minimum_height=lambda *_: setattr(self, "height", box.minimum_height + 56 + 30))
        self.add_widget(outer)

    def _answer(self, action) -> None:
        self.dismiss()
        if action is not None:
            action()
