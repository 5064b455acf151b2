"""Fake hardware for the firmware under CPython: the MicroPython-compatible fakes
(micropython/fake_hal.py) plus a real clock and a pty line for end-to-end tests.
"""

from __future__ import annotations

import errno
import os
import time

from fake_hal import FakeHardware, FakeHX711, ManualClock, MemoryLine  # noqa: F401


class RealClock:
    def __init__(self):
        self._t0 = time.monotonic()

    def __call__(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def sleep(self, ms: int) -> None:
        time.sleep(ms / 1000)


class PtyLine:
    """The device end of a pty: writes are dropped when nobody reads (like USB CDC)."""

    def __init__(self, master_fd: int):
        self.fd = master_fd
        os.set_blocking(master_fd, False)

    def read(self) -> bytes:
        try:
            return os.read(self.fd, 64)
        except BlockingIOError:
            return b""
        except OSError as e:  # EIO: no one has the other end open
            if e.errno == errno.EIO:
                return b""
            raise

    def write(self, data: bytes) -> None:
        try:
            os.write(self.fd, data)
        except (BlockingIOError, OSError):
            pass  # host not reading, or gone
