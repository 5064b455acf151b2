"""The screen reader (tests/gui/drawn.py) reads what a person sees: texts clipped by a list,
nothing transparent or covered by a dialog, blank buttons told from icons; and the evening
player's moved-under-the-finger check (tests/evening/player.py) tells a slide from a new stage."""

import sys
from pathlib import Path

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

import drawn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "evening"))
from player import moved  # noqa: E402


def _table(gui):
    """A panel over the whole window: a button, a hidden one, a blank one, and a list of 12
    rows of which about four are seen."""
    root = FloatLayout()
    root.add_widget(Button(text="Go", size_hint=(None, None), size=(120, 60), pos=(10, 400)))
    root.add_widget(Button(text="Hidden", size_hint=(None, None), size=(120, 60), pos=(140, 400), opacity=0))
    root.add_widget(Button(text="", size_hint=(None, None), size=(120, 60), pos=(270, 400)))
    scroll = ScrollView(size_hint=(None, None), size=(200, 200), pos=(10, 10), do_scroll_x=False)
    rows = BoxLayout(orientation="vertical", size_hint_y=None, height=600)
    for i in range(12):
        rows.add_widget(Label(text=f"row {i}", size_hint_y=None, height=50))
    scroll.add_widget(rows)
    root.add_widget(scroll)
    Window.add_widget(root)
    gui.pump(0.1)
    return root


def test_it_reads_what_is_seen(gui):
    gui.layout_checked = False  # a bare test table, not the app's screen
    root = _table(gui)
    try:
        frame = drawn.read()
        assert frame.find("Go") and not frame.find("Hidden")
        rows = [d.text for d in frame.items if d.text.startswith("row ")]
        assert rows == ["row 0", "row 1", "row 2", "row 3"]  # the list's top: the rest clipped away
        assert [b.rect for b in frame.blank] == [(270, 400, 390, 460)]
        assert frame.scrolls == frame.below == [(10, 10, 210, 210)]  # at its top, more below
        assert frame.one("Go").centre == (70, 430)

        dialog = ModalView(size_hint=(None, None), size=(300, 200))
        dialog.add_widget(Button(text="OK"))
        dialog.open(animation=False)
        gui.pump(0.1)
        covered = drawn.read()
        assert covered.modal and covered.texts() == ["OK"] and not covered.blank  # under the shade, none
        dialog.dismiss(animation=False)
    finally:
        Window.remove_widget(root)


def test_a_text_sliding_under_the_finger_moved_and_a_new_stage_did_not(gui):
    def frame(*items):
        return drawn.Frame([drawn.Drawn(text, rect) for text, rect in items], [], False)

    before = frame(("Akagi", (0, 0, 80, 48)), ("Bismarck", (82, 0, 182, 48)), ("Fuso", (184, 0, 244, 48)))
    closed_up = frame(("Akagi", (0, 0, 80, 48)), ("Fuso", (82, 0, 142, 48)))  # Bismarck picked
    assert moved(before, closed_up, (132, 24)) == [
        "'Fuso' at (184,0)–(244,48) moved to 'Fuso' at (82,0)–(142,48) under the finger at (132,24)"]
    kept = frame(("Akagi", (0, 0, 80, 48)), ("Fuso", (184, 0, 244, 48)))  # its place stays empty
    assert moved(before, kept, (132, 24)) == []
    new_stage = frame(("Fire", (0, 0, 244, 48)))
    assert moved(before, new_stage, (132, 24)) == []


def test_an_outline_read_is_the_one_the_next_frame_draws(gui):
    """A kv canvas rule updates when the window next draws (Builder.sync); the reader reads it
    as then, not as it was (a target lit in gold just now is lit)."""
    from kivy.lang import Builder
    from kivy.properties import BooleanProperty

    class Lit(Button):
        lit = BooleanProperty(False)

    Builder.load_string("""
<Lit>:
    canvas.before:
        Color:
            rgba: (0.98, 0.78, 0.2, 1) if self.lit else (0, 0, 0, 0)
        Line:
            rectangle: self.x, self.y, self.width, self.height
            width: 2
""", filename="test_drawn_lit")
    gui.layout_checked = False
    button = Lit(text="Ship", size_hint=(None, None), size=(120, 60), pos=(10, 400))
    Window.add_widget(button)
    try:
        gui.pump(0.1)
        assert drawn.read().one("Ship").outline is None
        button.lit = True  # and no frame drawn since
        assert drawn.read().one("Ship").outline == (0.98, 0.78, 0.2, 1.0, 2.0)
    finally:
        Window.remove_widget(button)
        Builder.unload_file("test_drawn_lit")
