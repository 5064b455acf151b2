"""A game's own thread where there is no Kivy (benchmarks, browser tests)."""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable


class GameThread:
    """A game's own thread without Kivy (benchmarks, browser tests): `marshal` queues a
    function for it, `call(fn, *args)` runs one there and waits for its result."""

    def __init__(self):
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="game", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (fn := self._queue.get()) is not None:
            fn()

    def marshal(self, fn: Callable[[], None]) -> None:
        self._queue.put(fn)

    def call(self, fn: Callable, *args) -> Any:
        done, result = threading.Event(), []

        def run():
            try:
                result.append((True, fn(*args)))
            except BaseException as error:  # noqa: BLE001  (raised again in the caller)
                result.append((False, error))
            done.set()

        self.marshal(run)
        done.wait()
        ok, value = result[0]
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=5)
