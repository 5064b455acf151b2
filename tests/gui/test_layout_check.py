"""The table-ready check itself: it finds what it promises to find, and only that."""

from kivy.uix.button import Button
from kivy.uix.widget import Widget

import layout_check


def faults_with(gui, widget, about):
    """The check's touch-target faults naming `about`, with `widget` floated over the home screen."""
    gui.screen.add_widget(widget)
    gui.pump(0.05)
    try:
        return [f for f in layout_check.problems(gui.app) if "touch target" in f and about in f]
    finally:
        gui.screen.remove_widget(widget)


def test_a_small_button_is_a_fault_a_disabled_one_is_not(gui):
    small = Button(text="", size_hint=(None, None), size=(30, 60), pos=(700, 10))
    assert any("30×60 px" in f for f in faults_with(gui, small, "Button"))
    small.disabled = True
    assert not faults_with(gui, small, "Button")
    assert not faults_with(gui, Button(text="", size_hint=(None, None), size=(48, 48), pos=(700, 10)), "48×48")


def test_two_buttons_over_each_other_are_a_fault(gui):
    pair = Widget(size_hint=(None, None), size=(200, 60), pos=(500, 10))
    pair.add_widget(Button(text="甲", size=(60, 60), pos=(500, 10)))
    pair.add_widget(Button(text="乙", size=(60, 60), pos=(530, 10)))
    assert any("乙" in f for f in faults_with(gui, pair, "甲"))
    pair.children[0].x = 560  # side by side
    assert not any("乙" in f for f in faults_with(gui, pair, "甲"))


class Board(Widget):
    cell_size, interactive, aims = 45, True, False


def test_board_cells_under_48_px_pass_only_on_a_board_that_aims(gui):
    board = Board(size_hint=(None, None), size=(90, 90), pos=(600, 10))
    assert any("cell is 45×45 px" in f for f in faults_with(gui, board, "Board's cell"))
    board.aims = True
    assert not faults_with(gui, board, "Board's cell")
    board.cell_size = 40
    assert any("cell is 40×40 px; at least 44" in f for f in faults_with(gui, board, "Board's cell"))
