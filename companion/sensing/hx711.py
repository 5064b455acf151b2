"""HX711 load-cell amplifier driver over gpiozero pins.

One `HX711` object owns one clock line (PD_SCK) and one or more data lines
(DOUT): several HX711s may share the clock, and then every transfer clocks
them all at once, reading both pans in one pass.

The chip's wire protocol has no checksum, and on a Raspberry Pi Linux may
stall the Python thread while the clock is high.  A clock high longer than
60 µs powers the chip down, after which every bit reads 1 (the familiar
2^n-1 / -1 "spikes").  So every transfer is checked before it is believed:

* each clock-high phase is timed (an upper bound: clock read before rising
  and after falling); over 50 µs (datasheet limit) the transfer is rejected,
  over 60 µs the chip may have powered down and is reset and resettled;
* DOUT must read 1 during the gain pulses after the 24 data bits (a chip
  that missed a pulse still shows a data bit there);
* a transfer is only handed out once the chip has signalled the *next*
  conversion ready: a chip that missed a pulse and showed 1 by chance is
  still stuck mid-transfer and never does, so the stall is caught, the
  unconfirmed transfer dropped and the chip reset;
* after power-up, reset or a channel/gain change the next 4 conversions
  are discarded (datasheet settling time);
* waiting for DOUT to go low has a deadline, so a missing or unpowered chip
  raises `SensorError` instead of hanging.  DOUT gets a pull-up, so a loose
  data wire reads "busy" rather than random bits; a pin that cannot be pulled
  up is an error.

Where gpiozero's pin factory is lgpio (Pi 5, and Pi 4 with lgpio installed),
the clock and DOUT go through `lgpio.gpio_write` / `gpio_read` directly: one
ioctl per edge instead of gpiozero's two (it asks the pin's mode before every
write), so half the system calls fall inside each clock-high phase.  Elsewhere, and on MockFactory in
tests, gpiozero's pins are used.  The clock-high times of recent transfers are
kept for `companion monitor` (`clock_high_us()`).

See docs/hx711.md.  Just over 400 lines: one chip's wire protocol and its checks,
which belong together.
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable, Self, Sequence

from gpiozero import Device
from gpiozero.exc import GPIOZeroError, PinError

from companion.sensing.source import SensorError

CLOCK_HIGH_LIMIT_NS = 50_000  # datasheet: PD_SCK high time at most 50 µs
POWER_DOWN_NS = 60_000  # high for longer than this powers the chip down
RESET_HIGH_NS = 100_000  # how long `reset` holds the clock high
SETTLING_CONVERSIONS = 4  # unsettled conversions after power-up/reset/gain change
DATA_BITS = 24
RATE_EDGES = 17  # ready edges kept to measure the conversion rate
HIGH_TIMES = 256  # transfers whose longest clock-high time is kept for the monitor

# (channel, gain) -> total clock pulses per transfer; selects the NEXT conversion.
PULSES = {("A", 128): 25, ("B", 32): 26, ("A", 64): 27}
DEFAULT_SETTING = ("A", 128)  # what the chip uses after power-up or reset

MAX_RAW = 0x7FFFFF
MIN_RAW = -0x800000

NsClock = Callable[[], int]  # monotonic nanoseconds
# gpiozero ships no types: its pins and pin factories are Any here.
Pin = Any
PinFactory = Any


@dataclass(frozen=True, slots=True)
class Conversion:
    """One conversion from one chip."""

    t_ns: int  # clock time when its transfer started
    raw: int  # signed 24-bit counts
    saturated: bool  # the ADC sat at 0x7FFFFF or 0x800000

    @property
    def t(self) -> float:
        return self.t_ns / 1e9


def to_signed(word: int) -> int:
    """24-bit two's complement word -> int."""
    return word - (1 << DATA_BITS) if word & 0x800000 else word


class HX711:
    """One clock line and 1..n data lines, each an HX711 channel.

    `read()` returns one `Conversion` per data pin (in the order given), or
    raises `SensorError` when no trustworthy conversion arrives in `timeout`
    seconds.  `clock_ns` and `sleep` are injectable so tests (and the
    emulator) can share a fake clock; on hardware they are perf_counter_ns
    and time.sleep.
    """

    def __init__(
        self,
        clock_pin: int | str,
        data_pins: int | str | Sequence[int | str],
        *,
        channel: str = "A",
        gain: int = 128,
        pin_factory: PinFactory | None = None,
        timeout: float = 2.0,
        poll_s: float = 0.0005,
        clock_ns: NsClock = time.perf_counter_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if isinstance(data_pins, (int, str)):
            data_pins = (data_pins,)
        if not data_pins:
            raise SensorError("HX711: give at least one data (DOUT) pin.")
        self._pulses = self._pulses_for(channel, gain)
        self.setting = (channel, gain)
        if pin_factory is None:
            pin_factory = _default_pin_factory()
        self._factory = pin_factory
        self._names = (clock_pin, *data_pins)
        self.label = f"HX711 (clock {clock_pin}, data {', '.join(map(str, data_pins))})"
        self._ns = clock_ns
        self._sleep = sleep
        self._timeout_ns = int(timeout * 1e9)
        self._poll_s = poll_s
        self._closed = True
        try:
            pin_factory.reserve_pins(self, *self._names)
            self._clock = pin_factory.pin(clock_pin)
            self._data: Sequence[Pin] = tuple(pin_factory.pin(n) for n in data_pins)
            self._clock.function = "output"
            self._clock.state = 0
            for name, pin in zip(data_pins, self._data):
                pin.function = "input"
                _pull_up(pin, f"{self.label}: DOUT pin {name}")
            self.io_path, self._set_clock, self._read_data = _wire(pin_factory, self._clock, self._data)
        except GPIOZeroError as exc:
            pin_factory.release_all(self)
            raise SensorError(f"{self.label}: cannot use these GPIO pins ({exc}). "
                              "Check the pin numbers in config.yaml.") from exc
        except SensorError:
            pin_factory.release_all(self)
            raise
        self._high_ns: deque[int] = deque(maxlen=HIGH_TIMES)
        self._closed = False
        self._powered = True
        self._pending: tuple[Conversion, ...] | None = None
        self._settle_left = 0
        self._applied = DEFAULT_SETTING
        self._ready_edges: deque[int] = deque(maxlen=RATE_EDGES)
        self.transfers = 0  # transfers clocked
        self.bad = 0  # transfers rejected as corrupt
        self.settle_discarded = 0  # transfers discarded while the ADC settled
        self.resets = 0
        self.last_transfer_ns = 0  # how long the last transfer took to clock
        self.rejections: Counter[str] = Counter()
        self.last_error = ""
        self.reset()  # the chip may be in any state: powered down, mid-transfer

    # ----- public API -------------------------------------------------------

    @staticmethod
    def _pulses_for(channel: str, gain: int) -> int:
        try:
            return PULSES[(channel, gain)]
        except KeyError:
            raise SensorError(f"HX711: channel {channel} with gain {gain} does not exist; "
                              "use A/128, A/64 or B/32.") from None

    def select(self, channel: str, gain: int) -> None:
        """Choose channel and gain; applies from the next transfer, then settles."""
        self._pulses = self._pulses_for(channel, gain)
        self.setting = (channel, gain)

    def read(self) -> tuple[Conversion, ...]:
        """The next confirmed, settled conversion of every chip (blocks).

        Readings run one conversion behind the chip: a transfer is handed out
        only once the chip has signalled the following conversion ready.
        """
        self._check_usable()
        deadline = self._ns() + self._timeout_ns
        while True:
            self._wait_ready(deadline)
            confirmed, self._pending = self._pending, None
            self._pending = self._transfer()
            if confirmed is not None:
                return confirmed
            if self._ns() >= deadline:
                raise SensorError(
                    f"{self.label}: no trustworthy reading in {self._timeout_ns / 1e9:g} s "
                    f"(last problem: {self.last_error or 'none'}). Check the DOUT and "
                    "PD_SCK wires and the chip's power.")

    def clock_high_us(self) -> dict[str, Any]:
        """The longest clock-high time of each recent transfer, in µs (upper bounds):
        median, worst, and how many passed the datasheet's 50 µs."""
        highs = sorted(self._high_ns)
        if not highs:
            return {"path": self.io_path, "transfers": 0}
        return {"path": self.io_path, "transfers": len(highs), "median": round(highs[len(highs) // 2] / 1000, 1),
                "max": round(highs[-1] / 1000, 1), "over_50": sum(h > CLOCK_HIGH_LIMIT_NS for h in highs)}

    @property
    def conversion_rate_hz(self) -> float:
        """Measured conversion rate (0 until measured): the oscillator is imprecise."""
        edges = self._ready_edges
        if len(edges) < 3:
            return 0.0
        gaps = [b - a for a, b in zip(edges, list(edges)[1:]) if b > a]
        return 1e9 / statistics.median(gaps) if gaps else 0.0

    def reset(self) -> None:
        """Power-cycle the chips through the clock line; they restart at A/128."""
        self.power_down()
        self.power_up()
        self.resets += 1

    def power_down(self) -> None:
        """Hold the clock high past 60 µs: the chips sleep until `power_up`."""
        self._check_open()
        self._clock.state = 1
        start = self._ns()
        while self._ns() - start <= RESET_HIGH_NS:
            self._sleep(RESET_HIGH_NS / 1e9)
        self._powered = False
        self._pending = None

    def power_up(self) -> None:
        """Clock low: the chips reset to A/128 and their output must settle."""
        self._check_open()
        self._clock.state = 0
        self._powered = True
        self._applied = DEFAULT_SETTING
        self._settle_left = SETTLING_CONVERSIONS

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release the pins (the clock is left low). Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self._clock.state = 0
            for pin in (self._clock, *self._data):
                pin.close()
        finally:
            self._factory.release_all(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{self.label}{' closed' if self._closed else ''}>"

    def _conflicts_with(self, other: object) -> bool:  # gpiozero pin reservation protocol
        return True

    # ----- internals --------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise SensorError(f"{self.label} is closed; open a new one.")

    def _check_usable(self) -> None:
        self._check_open()
        if not self._powered:
            raise SensorError(f"{self.label} is powered down; call power_up() first.")

    def _stall_ns(self) -> int:
        """How long a chip may take to signal ready after a transfer."""
        rate = self.conversion_rate_hz
        return int(3e9 / rate) if rate else 300_000_000

    def _wait_ready(self, deadline: int) -> None:
        """Wait until every DOUT is low; reset a chip that stalls mid-transfer."""
        ns, read = self._ns, self._read_data
        start = ns()
        saw_busy = reset_tried = False
        while True:
            bits = read()
            if not any(bits):
                if saw_busy:
                    self._ready_edges.append(ns())
                return
            saw_busy = True
            now = ns()
            if now >= deadline:
                busy = [str(name) for name, bit in zip(self._names[1:], bits) if bit]
                raise SensorError(
                    f"{self.label}: DOUT on pin {', '.join(busy)} never signalled data ready "
                    f"within {self._timeout_ns / 1e9:g} s, even after a reset. Check the "
                    "chip's power (VCC, GND) and the DOUT and PD_SCK wires.")
            if not reset_tried and now - start > self._stall_ns():
                if self._pending is not None:
                    self._reject("stall", "chip did not signal ready after a transfer "
                                 "(it missed a clock pulse)")
                reset_tried = True
                self.reset()
                start = ns()
                continue
            self._sleep(self._poll_s)

    def _shift(self) -> tuple[list[int], int, bool, int]:
        """Clock one transfer: (words, longest clock-high ns, gain pulses read 1, start)."""
        ns, write, read = self._ns, self._set_clock, self._read_data
        words = [0] * len(self._data)
        longest = 0
        t_start = ns()
        trailing_high = True
        for pulse in range(self._pulses):
            t0 = ns()
            write(1)
            write(0)
            high = ns() - t0
            if high > longest:
                longest = high
            bits = read()  # DOUT holds the bit until the next rise
            if pulse < DATA_BITS:
                words = [(w << 1) | b for w, b in zip(words, bits)]
            elif not all(bits):
                trailing_high = False
        self.last_transfer_ns = ns() - t_start
        self._high_ns.append(longest)
        return words, longest, trailing_high, t_start

    def _transfer(self) -> tuple[Conversion, ...] | None:
        """One checked transfer: the readings, or None if rejected or unsettled."""
        words, longest, trailing_high, t_start = self._shift()
        self.transfers += 1
        self._applied, previous = self.setting, self._applied
        if longest > POWER_DOWN_NS:
            self._reject("powered_down", f"clock stayed high {longest / 1000:.0f} µs "
                         "(> 60 µs powers the chip down)")
            self.reset()
            return None
        if not trailing_high:  # checked before the slow clock: this one needs a reset
            self._reject("desync", "DOUT was low during the gain pulses (chip out of step "
                         "or data line stuck low)")
            self.reset()
            return None
        if longest > CLOCK_HIGH_LIMIT_NS:
            self._reject("slow_clock", f"clock stayed high {longest / 1000:.0f} µs (> 50 µs)")
            return None
        if self._settle_left or previous != self.setting:
            self._settle_left = (SETTLING_CONVERSIONS if previous != self.setting
                                 else self._settle_left - 1)
            self.settle_discarded += 1
            return None
        return tuple(Conversion(t_start, raw, raw in (MAX_RAW, MIN_RAW))
                     for raw in map(to_signed, words))

    def _reject(self, kind: str, why: str) -> None:
        self.bad += 1
        self.rejections[kind] += 1
        self.last_error = why


def _default_pin_factory() -> PinFactory:
    """gpiozero's default factory, or a SensorError for people on a machine without GPIO."""
    try:
        Device.ensure_pin_factory()
    except GPIOZeroError as exc:
        raise SensorError(f"No GPIO pins here ({exc}). On a laptop choose the simulated or "
                          "serial weight source in config.yaml.") from exc
    return Device.pin_factory


def _pull_up(pin: Pin, what: str) -> None:
    """Pull DOUT up so a loose wire reads 'busy', not random bits; a fixed pull-up
    (GPIO2/3 have one) is fine, any other refusal is an error."""
    try:
        pin.pull = "up"
    except PinError as exc:
        try:
            fixed_up = pin.pull == "up"
        except GPIOZeroError:
            fixed_up = False
        if not fixed_up:
            raise SensorError(
                f"{what}: cannot pull DOUT up ({exc}); a floating DOUT reads junk. "
                "Use another GPIO pin for DOUT.") from exc


def _wire(factory: PinFactory, clock: Pin,
          data: Sequence[Pin]) -> tuple[str, Callable[[int], None], Callable[[], list[int]]]:
    """(path, write the clock, read every DOUT): lgpio's own calls where it is the
    factory (one ioctl per edge), else the gpiozero pins."""
    lgpio_pins = sys.modules.get("gpiozero.pins.lgpio")  # imported only where lgpio is installed
    if lgpio_pins is not None and isinstance(factory, lgpio_pins.LGPIOFactory):
        lgpio = lgpio_pins.lgpio

        handle, clock_gpio = _lgpio_handle(factory), _gpio(clock)
        data_gpios = [_gpio(pin) for pin in data]
        write, read = lgpio.gpio_write, lgpio.gpio_read
        return ("lgpio", lambda level: write(handle, clock_gpio, level),
                lambda: [read(handle, gpio) for gpio in data_gpios])

    set_state = type(clock).state.fset  # `clock.state = level`, without a Python frame per edge
    return "gpiozero", functools.partial(set_state, clock), lambda: [pin.state for pin in data]


def _gpio(pin: Pin) -> int:
    return int(pin.info.name.removeprefix("GPIO"))  # its public name, "GPIO17"


def _lgpio_handle(factory: PinFactory) -> int:
    """LGPIOFactory's chip handle: private in gpiozero (no public way to it), read as in
    2.0 and 2.0.1, the versions pyproject.toml allows."""
    try:
        return int(factory._handle)
    except AttributeError:
        raise SensorError(f"HX711: gpiozero {metadata.version('gpiozero')} has no LGPIOFactory._handle; "
                          "this driver was checked with gpiozero 2.0.x: run `make run` again to "
                          "install the tested versions (constraints.txt).") from None
