"""While the computer thinks (a slow machine, a long search), UTTT's status still fits its
box in both languages: the layout check runs on the frames drawn during the search."""

import threading

import pytest
from test_uttt_screen import say_yes, tap_cell, uttt  # noqa: F401  (fixture)

from companion.games.uttt import controller as uttt_controller


@pytest.fixture
def slow_computer(monkeypatch):
    """The computer's search waits until the test lets it go."""
    release = threading.Event()
    real = uttt_controller.choose_move

    def slow(*args, **kwargs):
        release.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(uttt_controller, "choose_move", slow)
    yield release
    release.set()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_status_fits_while_the_computer_thinks(gui, uttt, slow_computer, lang):  # noqa: F811
    gui.app.lang = lang
    gui.tap(uttt.ids.mode_easy)
    tap_cell(gui, uttt, 40)  # the computer's turn: its search is held
    gui.pump(0.3)
    assert uttt.thinking
    gui.check_layout()
    gui.screenshot(f"uttt-thinking-{lang}")
    slow_computer.set()
    gui.settle(uttt)
    gui.check_layout()
