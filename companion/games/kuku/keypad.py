"""A keypad for products ("24") and pairs ("3×8"): digits, ×, and ← (delete).

`entry` is what has been typed.  At most one ×, never first; each number at
most two digits (a pair said by mistake may be off the board, "2×12").
"""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion.ui import theme

KEYS = ("7", "8", "9", "←", "4", "5", "6", "×", "1", "2", "3", "0")
DELETE, TIMES = "←", "×"


class KukuKeypad(GridLayout):
    entry = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(cols=4, spacing=4, **kwargs)
        self.keys: dict[str, Button] = {}
        for key in KEYS:
            button = Button(text=key, font_size="26sp", bold=True, background_normal="",
                            background_color=theme.PANEL if key.isdigit() else (0.22, 0.27, 0.36, 1))
            button.bind(on_release=lambda b, key=key: self.press(key))
            self.keys[key] = button
            self.add_widget(button)

    def press(self, key: str) -> None:
        entry = self.entry
        if key == DELETE:
            self.entry = entry[:-1]
        elif key == TIMES:
            if entry and TIMES not in entry:
                self.entry = entry + TIMES
        elif len(entry.split(TIMES)[-1]) < 2 and not (key == "0" and entry.split(TIMES)[-1] == ""):
            self.entry = entry + key
