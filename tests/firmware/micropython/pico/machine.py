"""A stand-in for MicroPython's `machine` on a simulated Pico (the WebAssembly port
has no hardware): pins wired to fake HX711s, the watchdog, timers, reset.

`board` is the simulated board: the test script wires chips to it, schedules what
happens when (checked at every watchdog feed, one per loop turn of the firmware),
and reads back what the firmware did.  A reset raises SystemExit, as the board would stop
running the script there."""

import time

PWRON_RESET, WDT_RESET = 1, 3
POWER_DOWN_US = 60  # SCK high longer than this powers an HX711 down


class Board:
    def __init__(self):
        self.levels = {}  # gpio -> level the firmware drives
        self.douts = {}  # DOUT gpio -> chip
        self.scks = {}  # SCK gpio -> chip
        self.rate_pin = None
        self.high_since = {}  # SCK gpio -> ticks_us it rose
        self.feeds = 0
        self.schedule = []  # (ms after the first feed, callable), in time order
        self.started = None
        self.resets = 0
        self.timers = 0
        self.watchdog_ms = None
        self.led = None
        self.hidden_us = 0  # time the PIO model spent computing: none on a real PIO
        self.frozen = None  # the chips' time while the PIO model computes a read

    def ms(self):
        """The chips' clock: real time, less the PIO model's own computing time."""
        if self.frozen is not None:
            return self.frozen
        return time.ticks_diff(time.ticks_ms(), self.hidden_us // 1000)

    def pio_run(self, run):
        """Run the PIO model's `run()` in no time, as far as the chips can tell."""
        self.frozen = self.ms()
        start = time.ticks_us()
        try:
            run()
        finally:
            self.hidden_us += time.ticks_diff(time.ticks_us(), start)
            self.frozen = None

    def wire(self, dout, sck, chip):
        self.douts[dout] = chip
        self.scks[sck] = chip

    def drive(self, gpio, level, high_us=None):
        """The firmware sets an output; `high_us` is how long SCK was high when it
        falls (the PIO model counts its cycles; else the real time is taken)."""
        was = self.levels.get(gpio, 0)
        self.levels[gpio] = level
        if gpio == "LED":
            self.led = level
        elif gpio == self.rate_pin:
            for chip in self.douts.values():
                chip.rate = 80 if level else 10
        chip = self.scks.get(gpio)
        if chip is None or was == level:
            return
        if level:
            chip.rise()
            self.high_since[gpio] = time.ticks_us()
        else:
            if high_us is None:
                high_us = time.ticks_diff(time.ticks_us(), self.high_since.get(gpio, 0))
            if high_us > POWER_DOWN_US:
                chip.reset()

    def level(self, gpio):
        chip = self.douts.get(gpio)
        return chip.dout() if chip is not None else self.levels.get(gpio, 1)  # pulled up

    def feed(self):
        """A watchdog feed: one loop turn of the firmware; run what is due."""
        self.feeds += 1
        now = time.ticks_ms()
        if self.started is None:
            self.started = now
        while self.schedule and time.ticks_diff(now, self.started) >= self.schedule[0][0]:
            self.schedule.pop(0)[1]()


board = Board()


class Pin:
    IN, OUT, PULL_UP, PULL_DOWN = 0, 1, 1, 2

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return board.level(self.gpio)
        board.drive(self.gpio, 1 if level else 0)


class WDT:
    def __init__(self, timeout=5000):
        board.watchdog_ms = timeout

    def feed(self):
        board.feed()


class Timer:
    def __init__(self, period=-1, callback=None):
        board.timers += 1
        self.callback = callback

    def deinit(self):
        board.timers -= 1


def reset():
    board.resets += 1
    raise SystemExit("machine.reset()")


def reset_cause():
    return PWRON_RESET


def unique_id():
    return b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f"
