"""The keypad for products ("24") and pairs ("3×8"): digits, ×, and ← (delete).

It only forwards presses (`on_key`); `entry`, what has been typed, is set by the
screen from the controller's display model (companion/games/kuku/keys.py types).
"""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion.games.kuku.keys import KEYS
from companion.ui import theme


class KukuKeypad(GridLayout):
    entry = StringProperty("")
    __events__ = ("on_key",)

    def __init__(self, **kwargs):
        super().__init__(cols=4, spacing=4, **kwargs)
        self.keys: dict[str, Button] = {}
        for key in KEYS:
            button = Button(text=key, font_size="26sp", bold=True, background_normal="",
                            background_color=theme.PANEL if key.isdigit() else (0.22, 0.27, 0.36, 1))
            button.bind(on_release=lambda b, key=key: self.dispatch("on_key", key))
            self.keys[key] = button
            self.add_widget(button)

    def on_key(self, key: str) -> None:
        """A key was pressed (the screen binds this)."""
