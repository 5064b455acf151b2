"""The HX711 driver preempted between two gain pulses, with the clock low, where no
clock-high time shows the stall (issue 26 asked why a busy machine let a corrupted read
through; this is the one stall that times nothing).

A conversion that completes between the 25th and the last clock pulse makes the chip
take the next pulse as the first of a new transfer: it is left mid-transfer, a pulse
ahead of the driver.  DOUT then holds the bit the driver read last, which it read as 1
(else the transfer is refused as out of step), so the chip never signals ready: the
stall check resets it and the transfer is dropped.  Never a shifted word."""

import pytest
from gpiozero.pins.mock import MockFactory

from companion.sensing.hx711 import DATA_BITS, HX711, to_signed
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
