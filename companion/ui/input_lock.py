"""One input lock for every game screen: a short while in which taps are ignored.

Two things call for it, each with its own time:

- `AFTER_ENTRY_S` after an entry a finger made: the buttons or the board change under
  the finger, and a bounced finger or a double tap (a second touch within Android's
  300 ms double-tap timeout, `ViewConfiguration.DOUBLE_TAP_TIMEOUT`) would otherwise
  press whatever was drawn in its place.  軍艦将棋's action buttons, Naval War's entries and
  steps (its new buttons drawn only once the lock lifts, so none appears under the finger),
  Ultimate Tic-Tac-Toe's cells and 九九戦艦's buttons that turn its stage (attack, answer,
  go on: the next stage's button lies where the last one was) take it; aiming needs
  none, in 九九戦艦 or Battleship: a shot is aimed first and confirmed by a second tap or
  a button (the double tap is the gesture), and a keypad must take quick typing.
- `COMPUTER_NEWS_S` after the computer's move is drawn (every `ControllerScreen`, for
  all its input): a quick run of taps meant for the screen before never skips what the
  computer did.

`held` reads the monotonic clock, so a check needs no Kivy event to have run;
`on_release` (optional) is called once the last hold has ended, for a screen that draws
its board as not interactive while held.
"""

from __future__ import annotations

import time
from typing import Callable

AFTER_ENTRY_S = 0.3
COMPUTER_NEWS_S = 0.35


def _kivy_schedule(callback, delay):
    from kivy.clock import Clock

    return Clock.schedule_once(callback, delay)


class InputLock:
    def __init__(self, on_release: Callable[[], None] | None = None, *,
                 now: Callable[[], float] = time.monotonic, schedule=_kivy_schedule):
        self._on_release = on_release
        self._now = now
        self._schedule = schedule
        self._until = float("-inf")
        self._event = None

    @property
    def held(self) -> bool:
        return self._now() < self._until

    def hold(self, seconds: float = AFTER_ENTRY_S) -> None:
        """Ignore taps for `seconds` from now (a hold already longer stays as it is)."""
        self._until = max(self._until, self._now() + seconds)
        if self._on_release is not None:
            self._cancel_event()
            self._event = self._schedule(self._released, max(0.0, self._until - self._now()))

    def _released(self, *_) -> None:
        self._event = None
        self._until = min(self._until, self._now())  # the clock's event may come a hair early
        self._on_release()

    def release(self) -> None:
        """Take taps again now (the screen is closed or shows another game); no callback."""
        self._cancel_event()
        self._until = float("-inf")

    def _cancel_event(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
