"""The mid-word check (word_breaks.py) on real labels: it finds 「もう一｜度」 and lets
EvenLabel's phrase breaks, a text's own "\\n" and its spaces be."""

from __future__ import annotations

from kivy.uix.label import Label

import word_breaks
from companion.ui.widgets import EvenLabel


def drawn(gui, label):
    label.size_hint = None, None
    gui.layout_checked = False  # test labels laid over the screen on purpose
    gui.screen.add_widget(label)
    gui.pump(0.05)
    label.texture_update()
    return word_breaks.label_faults(label)


def test_a_japanese_word_wrapped_by_kivy_is_found(gui):
    label = Label(text="もう一度見せてください", font_size="20sp", size=(70, 200), text_size=(70, None))
    faults = drawn(gui, label)
    assert faults and all("breaks a word" in f for f in faults), faults
    assert any("もう一|度" in f or "見せてく|ださい" in f or "せてくだ|さい" in f for f in faults), faults


def test_phrase_breaks_newlines_and_spaces_are_allowed(gui):
    even = EvenLabel(font_size="20sp", size=(110, 200))
    even.words = "もう一度見せてください"
    assert not drawn(gui, even) and "\n" in even.text, even.text  # broken between phrases
    assert not drawn(gui, Label(text="もう\n一度", font_size="20sp", size=(200, 100)))
    assert not drawn(gui, Label(text="Ben: Musashi 撃沈", font_size="20sp", size=(90, 200), text_size=(90, None)))


def test_the_boundaries_are_budoux_phrases():
    assert word_breaks.boundaries("もう一度") == {0, 2}
    assert word_breaks.boundaries("駒を置いて\nもう一度") == {0, 2, 6, 8}


def test_a_count_split_from_its_name_or_a_mark_from_its_label_is_found(gui):
    for text, width in (("残り Alexandra 3隻・コンピューター 3隻", 300), ("Alexandra: 0 wins", 120), ("Alexandra: 10 wins", 110),
                        ("■ Akiの船　□ コンピューターの船　赤＝旗艦", 300)):
        faults = drawn(gui, Label(text=text, font_size="18sp", size=(width, 200), text_size=(width, None)))
        assert faults and all("splits a unit" in f for f in faults), (text, faults)
    kept = "残り\u00a0Alexandra\u00a03隻・ コンピューター\u00a03隻"  # no-break spaces inside each unit
    assert not drawn(gui, Label(text=kept, font_size="18sp", size=(300, 200), text_size=(300, None)))
    assert not drawn(gui, Label(text="残り\n3隻", font_size="18sp", size=(300, 200)))  # the text's own line
