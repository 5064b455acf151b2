"""A person at the table, choosing at random (seeded): every choice is a touch on the real
screen where a person would touch, and after each touch the screen is checked as the
harness checks it (layout_check: fits, overlaps, sizes, targets) and for words broken
in the middle (tests/gui/word_breaks.py)."""

from __future__ import annotations

import random
import time

import word_breaks
from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch


class Player:
    def __init__(self, gui, rng: random.Random):
        self.gui, self.rng = gui, rng

    # touches ------------------------------------------------------------------------
    # A touch goes through Kivy's input path as the harness's does, but the clock runs
    # between down and up without drawing frames (a loaded 2-core machine spends most of a
    # frame swapping buffers); the layout is then made as the next frame would draw it and
    # checked, so every state a person sees is checked, faster.

    def touch_at(self, x: float, y: float, hold: float = 0.03) -> None:
        self.wait_for_the_lock()
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.wait(hold)
        touch.touch_up()
        self.wait(0.02)
        self.gui.check_layout()
        self.check()

    def tap(self, widget) -> None:
        assert widget.get_root_window() is not None, f"{widget} is not on screen"
        assert widget.opacity > 0 and not widget.disabled, f"{widget} is not there to be tapped"
        self.touch_at(*widget.to_window(*widget.center))

    def tap_cell(self, board, cell) -> None:
        self.touch_at(*self.gui.cell_centre(board, cell))

    def settle(self, screen) -> None:
        """The computer's move (if any) played and shown, then the screen checked."""
        self.gui.settle(screen)
        self.gui.check_layout()
        self.check()

    def wait(self, seconds: float) -> None:
        """A person's pause: the clock runs (timers, the computer's answer), no frame is drawn."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            Clock.tick()

    def wait_for_the_lock(self, timeout: float = 10) -> None:
        """A person's next tap comes once the screen has changed under the finger."""
        end = time.monotonic() + timeout
        while getattr(self.gui.screen, "locked", False):
            assert time.monotonic() < end, "the input lock did not lift"
            Clock.tick()
        Clock.tick()  # the lock lifts by the clock; the board is lit again by its event: a person taps what is drawn

    def check(self) -> None:
        app = self.gui.app
        faults = word_breaks.problems(app)
        assert not faults, f"on {app.manager.current_screen.name} ({app.lang}):\n  " + "\n  ".join(faults)

    # choices ------------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items):
        items = list(items)
        return items[self.rng.randrange(len(items))]
