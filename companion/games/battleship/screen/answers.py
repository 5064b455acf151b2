"""The defender's answer pad (tracker mode): miss, hit (by type), sunk (by type).

Built once per kind of game (advanced or not); the rows of ships already sunk,
and the whole pad outside the answer phase, fold to no height so they take no
touches.  A pressed answer is reported by `on_answer`, for the controller to play.
"""

from __future__ import annotations

from kivy.app import App
from kivy.properties import DictProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.games.battleship.fleet import NAMES

ROW_HEIGHT = 48
ANSWER_TEXT = {"miss": "battleship.miss", "hit": "battleship.hit", "sunk": "battleship_ui.sunk"}


class BsAnswerButton(Button):
    answer = DictProperty({})


class BsAnswerRow(BoxLayout):
    """The answers about one ship ("" for the row of miss and the plain hit)."""

    ship = StringProperty("")


class BsAnswerPad(BoxLayout):
    __events__ = ("on_answer",)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._advanced: bool | None = None

    def on_answer(self, given: dict) -> None:
        pass

    def show(self, answers: list[dict]) -> None:
        """Offer `answers` (none: the pad folds away); a row shows while any of its answers is offered."""
        if answers:
            advanced = {"result": "hit"} in answers  # a hit that names no ship
            if self._advanced != advanced:
                self._build(advanced)
        for row in self.children:
            shown = any(button.answer in answers for button in row.children if isinstance(button, BsAnswerButton))
            row.height, row.opacity, row.disabled = (ROW_HEIGHT if shown else 0), int(shown), not shown

    def _build(self, advanced: bool) -> None:
        self.clear_widgets()
        self._advanced = advanced
        self.add_widget(self._row("", [{"result": "miss"}] + ([{"result": "hit"}] if advanced else [])))
        for ship in NAMES:
            hit = [] if advanced else [{"result": "hit", "ship": ship}]
            self.add_widget(self._row(ship, hit + [{"result": "sunk", "ship": ship}]))

    def _row(self, ship: str, answers: list[dict]) -> BsAnswerRow:
        app = App.get_running_app()
        row = BsAnswerRow(ship=ship)
        if ship:
            row.add_widget(Label(text=app.tr(f"battleship.{ship}", app.lang), font_size="18sp",
                                 size_hint_x=None, width=96, halign="left", valign="middle",
                                 text_size=(96, None), shorten=True))
        for given in answers:
            button = BsAnswerButton(answer=given, text=app.tr(ANSWER_TEXT[given["result"]], app.lang))
            button.bind(on_release=lambda b: self.dispatch("on_answer", dict(b.answer)))
            row.add_widget(button)
        return row
