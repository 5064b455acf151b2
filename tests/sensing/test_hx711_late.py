"""The HX711 driver preempted between two gain pulses, with the clock low, where no
clock-high time shows the stall (issue 26 asked why a busy machine let a corrupted read
through; this is the one stall that times nothing).

A conversion that completes between the 25th and the last clock pulse makes the chip
take the next pulse as the first of a new transfer: it is left mid-transfer, a pulse
ahead of the driver.  DOUT then holds the bit the driver read last, which it read as 1
(else the transfer is refused as out of step), so the chip never signals ready: the
stall check resets it and the transfer is dropped.  Never a shifted word."""

import bisect
import random
from collections import Counter

import pytest
from gpiozero.pins.mock import MockFactory

from companion.sensing.hx711 import DATA_BITS, HX711, PULSES, to_signed
from companion.sensing.hx711_emulator import EmulatedHX711, FakeClock

CLOCK, DATA = 5, 6
VALUES = {("B", 32): to_signed(0x9ABCDE),  # the new word's first bit 1: past the gain pulse's check
          ("A", 64): to_signed(0xCABCDE)}  # its first two


def _stalled_once(driver, chip, clock, stall_ns: int):
    """The driver's thread stalls `stall_ns` once, reading DOUT after the 25th pulse of a
    transfer: with the clock low, between two edges, where no clock-high time shows it."""
    inner, armed = driver._read_data, [True]

    def read():
        bits = inner()
        if armed[0] and chip._count == DATA_BITS + 1 and chip._pulse_in_transfer == DATA_BITS + 1:
            armed[0] = False
            clock.advance(stall_ns)
        return bits
    driver._read_data = read


@pytest.mark.parametrize("setting", [("B", 32), ("A", 64)])
@pytest.mark.parametrize("rate", [80.0, 10.0])
def test_a_stall_between_the_gain_pulses_is_never_a_corrupted_read(setting, rate):
    factory, clock = MockFactory(), FakeClock()
    chip = EmulatedHX711(CLOCK, DATA, pin_factory=factory, clock=clock, rate_hz=rate,
                         signal=lambda channel, gain, t_ns: VALUES[setting])
    driver = HX711(CLOCK, [DATA], channel=setting[0], gain=setting[1], pin_factory=factory,
                   clock_ns=clock, sleep=clock.sleep)
    for _ in range(8):
        assert driver.read()[0].raw == VALUES[setting]  # settled
    _stalled_once(driver, chip, clock, int(1e9 / rate))
    readings = [driver.read()[0].raw for _ in range(12)]
    assert readings == [VALUES[setting]] * 12, [hex(r & 0xFFFFFF) for r in readings]
    assert chip.transfers[-1].setting == setting  # the chip is back in step, at the gain asked
    assert driver.rejections["stall"] + driver.rejections["desync"] >= 1


def _sent_clean(chip, reading) -> bool:
    """Whether the chip sent this reading in a clean, settled transfer (the bench's judge)."""
    starts = [t.t_ns for t in chip.transfers]
    record = chip.transfers[bisect.bisect_left(starts, reading.t_ns)]
    return record.clean and record.settled and record.raw == reading.raw


def _stall_at(driver, clock, pulse: int, phase: str, stall_ns: int):
    """Once, in the next transfer, the driver's thread stalls `stall_ns` at its `pulse`-th
    clock pulse: with the clock high (between the rise and the fall) or low (after the
    fall and its DOUT read, before the next rise)."""
    shift, write, read = driver._shift, driver._set_clock, driver._read_data
    state = {"armed": True, "in": False, "pulse": 0}

    def stall():
        if state["armed"] and state["in"] and state["pulse"] == pulse:
            state["armed"] = False
            clock.advance(stall_ns)

    def set_clock(level):
        if state["in"] and level:
            state["pulse"] += 1
        if not level and phase == "high":
            stall()
        write(level)

    def read_data():
        bits = read()
        if phase == "low":
            stall()
        return bits

    def shifted():
        state["in"], state["pulse"] = True, 0
        try:
            return shift()
        finally:
            state["in"] = False

    driver._set_clock, driver._read_data, driver._shift = set_clock, read_data, shifted
    return state


@pytest.mark.parametrize("setting", [("A", 128), ("B", 32), ("A", 64)])
def test_a_stall_anywhere_in_a_transfer_is_never_a_corrupted_read(setting):
    """Issue 26, finding 7: the thread descheduled at any point of a transfer, the clock
    high or low, for 55 µs (spec broken, chip alive), 70 µs (powered down mid-read), one
    conversion period, or two and a half: whatever is accepted is what the chip sent in a
    clean, settled transfer, bit for bit."""
    rate = 80.0
    period = int(1e9 / rate)
    rng = random.Random(f"{setting}")
    pulses = PULSES[setting]
    tried = accepted = 0
    caught = Counter()
    for pulse in range(1, pulses + 1):
        for phase in ("high", "low"):
            for stall_ns in (55_000, 70_000, period, period * 5 // 2):
                factory, clock = MockFactory(), FakeClock()
                chip = EmulatedHX711(CLOCK, DATA, pin_factory=factory, clock=clock, rate_hz=rate,
                                     signal=lambda channel, gain, t_ns: rng.randint(-0x800000, 0x7FFFFF))
                driver = HX711(CLOCK, [DATA], channel=setting[0], gain=setting[1], pin_factory=factory,
                               clock_ns=clock, sleep=clock.sleep)
                for _ in range(6):
                    driver.read()
                _stall_at(driver, clock, pulse, phase, stall_ns)
                for _ in range(10):
                    reading = driver.read()[0]
                    accepted += 1
                    assert _sent_clean(chip, reading), (pulse, phase, stall_ns, hex(reading.raw & 0xFFFFFF))
                tried += 1
                caught.update(driver.rejections)
                driver.close()
                chip.close()
    assert tried == pulses * 2 * 4 and accepted == tried * 10
    assert caught["slow_clock"] and caught["powered_down"], caught  # the stalls did break transfers
    if pulses > DATA_BITS + 1:  # a conversion completed between two gain pulses
        assert caught["stall"] + caught["desync"], caught
