"""A computer player's thinking, off the UI thread.

`start(think, done)` runs `think()` on a thread and hands its result to
`done(result)` on the Kivy thread, unless `cancel()` (an undo, a new game, the
app stopping) or a newer `start` came first: then the result is dropped.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from kivy.clock import Clock


class ThinkingThread:
    def __init__(self, name: str):
        self.name = name
        self._current: object | None = None

    @property
    def thinking(self) -> bool:
        return self._current is not None

    def start(self, think: Callable[[], Any], done: Callable[[Any], None]) -> None:
        token = self._current = object()

        def run():
            result = think()
            Clock.schedule_once(lambda dt: self._deliver(token, result, done))

        threading.Thread(target=run, daemon=True, name=self.name).start()

    def _deliver(self, token: object, result: Any, done: Callable[[Any], None]) -> None:
        if token is not self._current:
            return  # the game moved on while the computer thought
        self._current = None
        done(result)

    def cancel(self) -> None:
        self._current = None

