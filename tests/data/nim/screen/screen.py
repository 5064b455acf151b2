"""Nim's table screen: the heap, and a button for each take the rules allow now."""

from kivy.factory import Factory
from kivy.uix.boxlayout import BoxLayout

from companion.games.nim.controller import NimController
from companion.play.controller import TABLE
from companion.ui.controller_screen import ControllerScreen


class NimScreen(ControllerScreen):
    kind = "nim"

    def __init__(self, **kwargs):
        super().__init__(name="nim", **kwargs)
        self.bar, self.heap = Factory.TopBar(), Factory.Label(font_size="28sp")
        self.takes = BoxLayout(size_hint_y=None, height=96, spacing=8, padding=8)
        column = BoxLayout(orientation="vertical")
        for widget in (self.bar, self.heap, self.takes):
            column.add_widget(widget)
        self.add_widget(column)

    def show(self, session):
        self.take(NimController.open(self.store, session))

    def refresh(self):
        model = self.controller.display(TABLE)
        self.bar.title, self.bar.rules = self.tr("nim.title"), "nim"
        self.heap.text = model["status"].render(self.tr)
        self.takes.clear_widgets()
        for n in next((o.choices for o in model["offers"] if o.kind == "take"), ()):
            self.takes.add_widget(Factory.BigButton(text=str(n), on_release=lambda _, n=n: self.act("take", n)))
