"""Fake hardware for the firmware: HX711 chips, clocks and a serial line.

`FakeHardware` provides everything seesaw.app expects of its `hal`; the chips
follow a clock (manual in unit tests, real in end-to-end tests).
"""

from __future__ import annotations

import errno
import os
import time


class ManualClock:
    """Milliseconds that move only when told (sleep_ms moves them too)."""

    def __init__(self, ms: int = 1000):
        self.ms = ms

    def __call__(self) -> int:
        return self.ms

    def sleep(self, ms: int) -> None:
        self.ms += ms


class RealClock:
    def __init__(self):
        self._t0 = time.monotonic()

    def __call__(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def sleep(self, ms: int) -> None:
        time.sleep(ms / 1000)


class FakeHX711:
    """A chip converting every 1000/rate ms.  mode: "ok", "missing" (DOUT stays
    high), "desync" (DOUT reads 0 during the extra pulses)."""

    def __init__(self, clock, value=0, rate=10):
        self.clock = clock
        self.value = value  # int, or callable(ms) -> int
        self.rate = rate
        self.mode = "ok"
        self.pulses = []  # extra pulses of every read: the gain it was told
        self.resets = 0
        self._ready_at = clock() + 1000 // rate

    def ready(self) -> bool:
        return self.mode != "missing" and self.clock() >= self._ready_at

    def read(self, pulses: int) -> int:
        self.pulses.append(pulses)
        self._ready_at = self.clock() + 1000 // self.rate
        value = self.value(self.clock()) if callable(self.value) else self.value
        check = 0 if self.mode == "desync" else (1 << pulses) - 1
        return ((value & 0xFFFFFF) << pulses) | check

    def reset(self) -> None:
        self.resets += 1
        self._ready_at = self.clock() + 1000 // self.rate


class MemoryLine:
    """The USB serial line as two byte buffers."""

    def __init__(self):
        self.to_device = bytearray()
        self.from_device = bytearray()

    def read(self) -> bytes:
        data = bytes(self.to_device[:64])
        del self.to_device[:64]
        return data

    def write(self, data: bytes) -> None:
        self.from_device += data

    def take_lines(self) -> list[bytes]:
        """Complete lines the device sent since the last call, without CR LF."""
        text, _, rest = bytes(self.from_device).rpartition(b"\r\n")
        self.from_device = bytearray(rest)
        return text.split(b"\r\n") if text else []


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


class FakeHardware:
    """The firmware's `hal` over fake chips and a fake line."""

    def __init__(self, chips, line, clock, rates=(10, 80)):
        self.chips = chips
        self.channels = len(chips)
        self.line = line
        self.clock = clock
        self.rates = rates
        self.rate = None
        self.led_on = None
        self.watchdog_feeds = 0
        self.reset_cause = "power"
        self.board_id = "E6614103E7452D2F"

    def ticks_ms(self):
        return self.clock()

    def ticks_diff(self, a, b):
        return a - b

    def ticks_add(self, t, ms):
        return t + ms

    def sleep_ms(self, ms):
        self.clock.sleep(ms)

    def is_ready(self, ch):
        return self.chips[ch].ready()

    def read_raw(self, ch, pulses):
        return self.chips[ch].read(pulses)

    def reset_chip(self, ch):
        self.chips[ch].reset()

    def set_rate(self, hz):
        self.rate = hz
        for chip in self.chips:
            chip.rate = hz

    def led(self, on):
        self.led_on = on

    def feed_watchdog(self):
        self.watchdog_feeds += 1

    def read_input(self):
        return self.line.read()

    def write(self, data):
        self.line.write(data)
