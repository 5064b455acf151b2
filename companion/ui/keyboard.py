"""The on-screen keyboard, for a touchscreen with no keyboard attached.

Kivy's own keyboard with our layouts (かな first when the app speaks
Japanese, ABC otherwise: companion/ui/keyboard_layouts.py), docked along the
bottom and sized for fingers (keys of at least 48 px on the 800 px screen).
A USB keyboard keeps working beside it.  It covers the lower half of the
screen, so while a field has it, the screens are lifted just enough for that
field to show above the keys.  Kivy's own `softinput_mode` does not do this
for its docked keyboard.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.config import Config
from kivy.uix.vkeyboard import VKeyboard
from kivy.uix.widget import Widget

from companion.ui.keyboard_layouts import LAYOUTS, NEXT_FORM

GAP = 8  # pixels between the field and the keys


class TableKeyboard(VKeyboard):
    """Kivy's keyboard with our layouts, taller rows and narrower side margins."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        app = App.get_running_app()
        japanese = app is not None and app.lang == "ja"
        self.height = 260  # before docking scales it to the window's width (700 wide)
        self.margin_hint = [0.04, 0.01, 0.04, 0.01]
        self.key_margin = [1, 1, 1, 1]
        self.font_size = 24
        self.font_name = "Roboto"  # the app's font: Noto Sans CJK when there is one
        self.available_layouts = dict(LAYOUTS)
        self.layout = "kana" if japanese else "latin"
        self.refresh(force=True)  # draw the keys where touches will find them

    def change_layout(self) -> None:
        """The layout key: かな ⇄ ABC (Kivy leaves this to its subclasses)."""
        self.have_capslock = False
        self.active_keys.clear()  # drawn from the old layout; the layout key comes back at once
        self.layout = "latin" if self.layout == "kana" else "kana"

    def on_key_down(self, keycode, *_):
        if keycode in NEXT_FORM and self.target is not None:
            change_last_kana(self.target, NEXT_FORM[keycode])


def change_last_kana(field, forms: dict[str, str]) -> None:
    """The ゛゜ and 小 keys: the kana before a TextInput's cursor takes its next form."""
    i = field.cursor_index()
    if i and field.text[i - 1] in forms:
        field.text = field.text[:i - 1] + forms[field.text[i - 1]] + field.text[i:]
        field.cursor = field.get_cursor_from_index(i)


class OnScreenKeyboard:
    """While it lives, `window` types through a docked TableKeyboard and lifts
    `root` so that the field typed into shows above the keys."""

    def __init__(self, window, root: Widget):
        self.window, self.root = window, root
        self._set_mode(on=True)
        window.bind(children=self._children_changed)

    def stop(self) -> None:
        """Back to the system keyboard alone."""
        self.window.unbind(children=self._children_changed)
        self.window.release_all_keyboards()
        self._set_mode(on=False)
        self.root.y = 0

    def _set_mode(self, on: bool) -> None:
        Config.set("kivy", "keyboard_mode", "systemanddock" if on else "system")
        self.window.set_vkeyboard_class(TableKeyboard if on else None)
        self.window.use_syskeyboard = True
        self.window.single_vkeyboard = True
        self.window.allow_vkeyboard = self.window.docked_vkeyboard = on

    def _children_changed(self, *_) -> None:
        Clock.schedule_once(self._lift)  # the keyboard is docked just after it joins the window

    def _lift(self, *_) -> None:
        keyboard = next((w for w in self.window.children if isinstance(w, VKeyboard)), None)
        target = keyboard.target if keyboard is not None else None
        height = 0.0
        if target is not None and target.get_root_window() is not None:
            field_bottom = target.to_window(target.x, target.y)[1] - self.root.y
            keys_top = keyboard.y + keyboard.height * keyboard.scale
            height = max(0.0, keys_top + GAP - field_bottom)
        self.root.y = height
