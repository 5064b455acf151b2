"""An emulated HX711 living on gpiozero `MockFactory` pins.

In the spirit of gpiozero's `MockSPIDevice`: the chip hooks the clock pin's
state changes (its own `MockPin` subclass) and answers on the data pin, so
the real driver runs unchanged against it, bit for bit.

Time comes from an injectable nanosecond clock; with `FakeClock` it only
moves when someone sleeps or a fault stretches a pulse, so tests are exact.
Create the chip(s) before the driver: the emulator must own the pin objects.

Semantics (datasheet, and where it is silent, the choice made here):

* conversions complete every 1/rate s from power-up; DOUT goes low when one
  is ready, and stays low (showing the newest conversion) until read;
* the rising edges 1..24 of a transfer shift the word out MSB first (DOUT
  holds each bit until the next rise); edge 25 pulls DOUT high; edges 25, 26,
  27 select A/128, B/32, A/64 for the following conversions;
* "not less than 25 or more than 27" pulses (datasheet): until edge 25 the chip
  stays mid-transfer, whatever time passes (a chip that missed a pulse holds
  its last data bit on DOUT and is never "ready"); a 28th edge is a
  communication error: DOUT stays high, no conversion is offered until the
  chip is reset (power-down);
* edges while the chip is busy converting are ignored;
* a clock high for more than 60 µs powers the chip down (DOUT reads 1); the
  falling edge then resets it to A/128 and restarts conversions;
* the first 4 conversions after power-up or a setting change are unsettled:
  they output a value halfway between the previous output and the input.
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from gpiozero.pins.mock import MockFactory, MockPin

from companion.sensing.hx711 import (CLOCK_HIGH_LIMIT_NS, DATA_BITS, DEFAULT_SETTING, MAX_RAW,
                                     MIN_RAW, POWER_DOWN_NS, PULSES, SETTLING_CONVERSIONS)

GAIN_BY_PULSES = {pulses: setting for setting, pulses in PULSES.items()}
DOUT_FAULTS = (None, "stuck_low", "stuck_high", "floating")


def unsettled_output(previous: int, target: int) -> int:
    """What an unsettled conversion outputs: halfway from the previous output to the input."""
    return previous + (target - previous) // 2


class FakeClock:
    """Nanoseconds that move only when told: `advance`, or `sleep` (seconds)."""

    def __init__(self, start_ns: int = 1_000_000_000):
        self.ns = start_ns

    def __call__(self) -> int:
        return self.ns

    def advance(self, ns: int) -> None:
        self.ns += int(ns)

    def sleep(self, seconds: float) -> None:
        self.ns += max(1, int(seconds * 1e9))


class HybridClock(FakeClock):
    """Real perf_counter_ns plus an offset, so the driver's real Python pulse
    timing shows.  `sleep` moves the offset instead of waiting unless
    `real_sleep`; `hide` takes the emulator's own work out of the timeline
    (a real chip answers in nanoseconds)."""

    def __init__(self, real_sleep: bool = False):
        super().__init__(0)
        self.real_sleep = real_sleep

    def __call__(self) -> int:
        return time.perf_counter_ns() + self.ns

    def sleep(self, seconds: float) -> None:
        if self.real_sleep:
            time.sleep(seconds)
        else:
            super().sleep(seconds)

    def hide(self, ns: int) -> None:
        self.ns -= ns


class HX711ClockPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """The shared PD_SCK pin: tells every attached chip about each edge."""

    _state: bool  # MockPin's

    def __init__(self, factory: MockFactory, info: Any) -> None:
        super().__init__(factory, info)
        self.chips: list[EmulatedHX711] = []

    def _change_state(self, value: bool) -> bool:
        """Like MockPin's, minus the ever-growing `states` history."""
        changed: bool = self._state != value
        self._state = value
        return changed

    def _set_state(self, value: bool) -> None:
        changed = bool(value) != self._state
        super()._set_state(value)
        if changed and self.chips:
            clock = self.chips[0].clock
            now, started = clock(), time.perf_counter_ns()
            for chip in self.chips:  # every chip sees the edge at the same instant
                chip.on_clock(bool(value), now)
            hide = getattr(clock, "hide", None)
            if hide is not None:
                hide(time.perf_counter_ns() - started)


class HX711DataPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """DOUT: its state is asked from the chip at the moment it is read."""

    chip: EmulatedHX711 | None = None

    def _get_state(self) -> bool:
        return self.chip.dout() if self.chip is not None else super()._get_state()


@dataclass
class Transfer:
    """What the chip sent in one transfer: the bench's ground truth."""

    t_ns: int  # clock time of the first rising edge
    raw: int  # the conversion latched (signed)
    settled: bool
    setting: tuple[str, int]
    clean: bool = True  # no fault, every edge seen, no spec violation
    note: str = ""


@dataclass
class _Fault:
    at_pulse: int  # 1-based rising edge of the next transfer
    kind: str  # "stretch", "miss", "extra"
    amount: int  # ns for stretch, pulses for miss and extra


class EmulatedHX711:
    """One emulated chip: `signal(channel, gain, t_ns) -> counts` feeds it."""

    _rise_ns: int | None  # the clock's last rising edge while it is high

    def __init__(self, clock_pin: int | str, data_pin: int | str, *, pin_factory: MockFactory,
                 clock: Callable[[], int], rate_hz: float = 80.0,
                 signal: Callable[[str, int, int], int] | None = None,
                 rng: random.Random | None = None) -> None:
        clk = pin_factory.pin(clock_pin, pin_class=HX711ClockPin)
        dout = pin_factory.pin(data_pin, pin_class=HX711DataPin)
        if not isinstance(clk, HX711ClockPin) or not isinstance(dout, HX711DataPin):
            raise ValueError("create the emulated HX711 before anything else uses its pins")
        if clk.chips and clk.chips[0].clock is not clock:
            raise ValueError("chips sharing a clock pin must share the clock too")
        self.clock_pin, self.data_pin = clk, dout
        self.clock: Callable[[], int] = clock
        self.period_ns = int(1e9 / rate_hz)
        self.signal = signal or (lambda channel, gain, t_ns: 0)
        self.rng = rng or random.Random(0)
        self.queue: deque[int] = deque()  # exact values for the next settled conversions
        self._connected = True
        self._dout_fault: str | None = None
        self.transfers: list[Transfer] = []
        self._faults: list[_Fault] = []
        self._spike = 0
        self._last_output = 0
        clk.chips.append(self)
        dout.chip = self
        self._power_on(clock())

    # ----- test controls ----------------------------------------------------

    def feed(self, *values: int) -> None:
        """Exact outputs for the next settled conversions, in order."""
        self.queue.extend(values)

    def stretch_pulse(self, at_pulse: int, ns: int) -> None:
        """Next transfer: the host stalls `ns` with the clock high at edge `at_pulse`
        (needs a FakeClock); over 60 µs this powers the chip down mid-read."""
        self._faults.append(_Fault(at_pulse, "stretch", ns))

    def miss_pulses(self, at_pulse: int, count: int = 1) -> None:
        """Next transfer: the chip does not see `count` rising edges from `at_pulse`."""
        self._faults.append(_Fault(at_pulse, "miss", count))

    def extra_pulses(self, at_pulse: int, count: int = 1) -> None:
        """Next transfer: a glitch makes the chip count `count` more rising edges at `at_pulse`."""
        self._faults.append(_Fault(at_pulse, "extra", count))

    def spike(self, delta: int) -> None:
        """Add `delta` counts to the next settled conversion (an analog spike)."""
        self._spike += delta

    @property
    def dout_fault(self) -> str | None:
        """None, or DOUT "stuck_low", "stuck_high" or "floating" (reads the pin's pull)."""
        return self._dout_fault

    @dout_fault.setter
    def dout_fault(self, fault: str | None) -> None:
        if fault not in DOUT_FAULTS:
            raise ValueError(f"dout_fault must be one of {DOUT_FAULTS}")
        self._dout_fault = fault

    def close(self) -> None:
        """Detach from the pins. Idempotent."""
        if self in self.clock_pin.chips:
            self.clock_pin.chips.remove(self)
        if self.data_pin.chip is self:
            self.data_pin.chip = None

    # ----- wire -------------------------------------------------------------

    def dout(self) -> bool:
        """DOUT as the host reads it now."""
        if not self._connected or self._dout_fault == "floating":
            pull = self.data_pin.pull
            return pull == "up" if pull != "floating" else self.rng.random() < 0.5
        if self._dout_fault is not None:
            return self._dout_fault == "stuck_high"
        now = self.clock()
        self._check_power(now)
        if self._powered_down or self._error:
            return True
        if self._count == 0 or self._count > DATA_BITS:
            return not self._ready(now)
        return bool(self._word >> (DATA_BITS - self._count) & 1)

    def on_clock(self, high: bool, now: int) -> None:
        """A clock edge from the host at clock time `now`."""
        if not self._connected:
            return
        if high:
            self._rise_ns = now
            self._rising_edge(now)
            return
        self._check_power(now)
        if self._rise_ns is not None and now - self._rise_ns > CLOCK_HIGH_LIMIT_NS:
            self._mark(f"clock high {(now - self._rise_ns) // 1000} µs")
        self._rise_ns = None
        if self._powered_down:
            self._power_on(now)

    @property
    def connected(self) -> bool:
        """False: the chip is unplugged (ignores the clock, DOUT floats)."""
        return self._connected

    @connected.setter
    def connected(self, value: bool) -> None:
        if value and not self._connected:
            self._power_on(self.clock())
        self._connected = value

    # ----- internals --------------------------------------------------------

    def _power_on(self, now: int) -> None:
        self._powered_down = False
        self._error = False  # more than 27 edges: silent until reset
        self._rise_ns = None
        self._origin = now  # conversions complete at origin + k * period
        self._setting = DEFAULT_SETTING
        self._changed_at = now
        self._count = 0  # edges seen in the current transfer (0: none)
        self._word = 0
        self._ready_at = now + self.period_ns
        self._pulse_in_transfer = 0  # edges the host sent in it, seen or not
        self._last_pulse_ns = now

    def _check_power(self, now: int) -> None:
        if self._rise_ns is not None and now - self._rise_ns > POWER_DOWN_NS:
            if not self._powered_down:
                self._mark("powered down mid-transfer")
            self._powered_down = True

    def _ready(self, now: int) -> bool:
        return now >= self._ready_at

    def _in_transfer(self) -> bool:
        return self._count > 0 or self._pulse_in_transfer > 0

    def _mark(self, note: str) -> None:
        """The current transfer is not clean."""
        if self.transfers and self._in_transfer():
            last = self.transfers[-1]
            last.clean = False
            last.note = last.note or note

    def _rising_edge(self, now: int) -> None:
        if self._powered_down or self._error:
            return
        if self._count > DATA_BITS and self._ready(now):
            self._end_transfer()
        if self._count == 0 and self._pulse_in_transfer == 0:
            if not self._ready(now):
                return  # busy converting: edges are ignored
            self._latch(now)
        self._pulse_in_transfer += 1
        for _ in range(self._edges_seen()):
            self._count += 1
            if self._count > max(PULSES.values()):
                self._mark(f"{self._count} clock pulses: communication error")
                self._error = True
                return
            if self._count > DATA_BITS:
                self._gain_pulse(now)

    def _edges_seen(self) -> int:
        """Run this edge's injected faults: how many edges the chip counts (0 if it missed it)."""
        seen = 1
        for fault in [f for f in self._faults if f.at_pulse == self._pulse_in_transfer]:
            self._faults.remove(fault)
            if fault.kind == "stretch":
                assert isinstance(self.clock, FakeClock), "stretch_pulse needs a FakeClock (its docstring)"
                self.clock.advance(fault.amount)
            elif fault.kind == "extra":
                seen += fault.amount
                self._mark("counted an extra clock pulse")
            else:
                seen = 0
                self._mark("missed a clock pulse")
                if fault.amount > 1:
                    self._faults.append(_Fault(fault.at_pulse + 1, "miss", fault.amount - 1))
        return seen

    def _latch(self, now: int) -> None:
        """Start a transfer of the newest conversion."""
        completed = (now - self._origin) // self.period_ns
        since_change = completed - (self._changed_at - self._origin) // self.period_ns
        settled = since_change > SETTLING_CONVERSIONS
        channel, gain = self._setting
        target = self.queue[0] if self.queue else self.signal(channel, gain, now)
        if settled:
            if self.queue:
                self.queue.popleft()
            value, self._spike = target + self._spike, 0
        else:
            value = unsettled_output(self._last_output, target)
        value = max(MIN_RAW, min(MAX_RAW, value))
        self._last_output = value
        self._word = value & 0xFFFFFF
        self.transfers.append(Transfer(now, value, settled, self._setting))

    def _gain_pulse(self, now: int) -> None:
        if self._count == DATA_BITS + 1:  # edge 25 ends the data phase
            completed = (now - self._origin) // self.period_ns
            self._ready_at = self._origin + (completed + 1) * self.period_ns
        self._last_pulse_ns = now

    def _end_transfer(self) -> None:
        """The gain pulses are over: their count picks the setting from now on."""
        setting = GAIN_BY_PULSES[self._count]
        if setting != self._setting:
            self._setting = setting
            self._changed_at = self._last_pulse_ns
        self._count = self._pulse_in_transfer = 0
