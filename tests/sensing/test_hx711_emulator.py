"""The emulated HX711's wire behaviour, driven by hand on MockFactory pins."""

import pytest
from gpiozero.pins.mock import MockFactory

from companion.sensing.hx711 import HX711
from companion.sensing.hx711_emulator import EmulatedHX711, FakeClock

PERIOD_NS = 12_500_000  # 80 samples/s


@pytest.fixture
def wire():
    factory, clock = MockFactory(), FakeClock()
    chip = EmulatedHX711(5, 6, pin_factory=factory, clock=clock)
    clk, dout = factory.pin(5), factory.pin(6)
    clk.function = "output"
    clk.state = 0
    return clock, chip, clk, dout


def pulses(clk, dout, n):
    """n clock pulses; DOUT sampled after each falling edge."""
    bits = []
    for _ in range(n):
        clk.state = 1
        clk.state = 0
        bits.append(int(dout.state))
    return bits


def word(bits):
    value = 0
    for bit in bits:
        value = value << 1 | bit
    return value


def test_ready_after_one_conversion_then_shifts_msb_first(wire):
    clock, chip, clk, dout = wire
    assert dout.state  # converting
    clock.advance(PERIOD_NS)
    assert not dout.state  # DOUT low: ready
    chip.queue.clear()
    chip._last_output = 0x123456  # unsettled output moves halfway towards the input
    bits = pulses(clk, dout, 25)
    assert word(bits[:24]) == 0x123456 // 2
    assert bits[24] == 1  # edge 25 pulls DOUT high
    assert dout.state
    clock.advance(PERIOD_NS - 1)
    assert dout.state  # until the next conversion completes
    clock.advance(1)
    assert not dout.state


def test_edges_while_converting_are_ignored(wire):
    clock, chip, clk, dout = wire
    assert pulses(clk, dout, 30) == [1] * 30
    assert chip.transfers == []


def test_first_four_conversions_are_unsettled_and_gain_pulses_select_the_next(wire):
    clock, chip, clk, dout = wire
    chip.signal = lambda channel, gain, t: 1000 if channel == "A" else -50
    settled = []
    for _ in range(6):
        clock.advance(PERIOD_NS)
        pulses(clk, dout, 25)
        settled.append(chip.transfers[-1].settled)
    assert settled == [False] * 4 + [True] * 2
    for _ in range(6):  # 26 pulses: channel B, gain 32 from the next conversion on
        clock.advance(PERIOD_NS)
        pulses(clk, dout, 26)
    assert [t.setting for t in chip.transfers[-6:]] == [("A", 128)] + [("B", 32)] * 5
    assert [t.settled for t in chip.transfers[-6:]] == [True] + [False] * 4 + [True]
    assert chip.transfers[-1].raw == -50


def test_clock_high_over_60us_powers_down_and_resets(wire):
    clock, chip, clk, dout = wire
    chip.feed(0)
    clock.advance(PERIOD_NS * 6)
    clk.state = 1
    clock.advance(60_000)
    assert not dout.state  # 60 µs: still MSB of 0
    clk.state = 0
    clk.state = 1
    clock.advance(60_001)
    assert dout.state  # powered down: reads 1
    clk.state = 0  # falling edge: reset, conversions restart at A/128
    assert chip.transfers[-1].clean is False
    assert dout.state
    clock.advance(PERIOD_NS)
    assert not dout.state
    pulses(clk, dout, 25)
    assert chip.transfers[-1].settled is False
    assert chip.transfers[-1].setting == ("A", 128)


def test_a_transfer_cut_short_holds_dout_whatever_time_passes(wire):
    clock, chip, clk, dout = wire
    clock.advance(PERIOD_NS * 6)
    chip.queue.append(-0x600000)  # 0xA00000
    bits = pulses(clk, dout, 3)
    assert bits == [1, 0, 1]
    clock.advance(PERIOD_NS * 10)
    assert dout.state  # still bit 3, never "ready"
    assert pulses(clk, dout, 22)[-1] == 1  # bits 4..24, then edge 25
    clock.advance(PERIOD_NS)
    assert not dout.state


def test_missed_pulse_shifts_the_word(wire):
    clock, chip, clk, dout = wire
    clock.advance(PERIOD_NS * 6)
    chip.feed(0x000001)
    chip.miss_pulses(10)
    bits = pulses(clk, dout, 25)
    assert word(bits[:24]) == 0  # the chip is one behind: its LSB comes at edge 25
    assert bits[24] == 1
    assert chip.transfers[-1].note == "missed a clock pulse"


@pytest.mark.parametrize("pull, reads", [("up", {1}), ("down", {0}), ("floating", {0, 1})])
def test_floating_dout_follows_the_pull(wire, pull, reads):
    clock, chip, clk, dout = wire
    dout.pull = pull
    chip.dout_fault = "floating"
    assert {int(dout.state) for _ in range(64)} == reads


def test_unplugged_chip_ignores_the_clock_and_restarts_when_plugged(wire):
    clock, chip, clk, dout = wire
    dout.pull = "up"
    chip.connected = False
    clock.advance(PERIOD_NS * 3)
    assert pulses(clk, dout, 25) == [1] * 25
    assert chip.transfers == []
    chip.connected = True
    assert dout.state
    clock.advance(PERIOD_NS)
    assert not dout.state


def test_pins_must_belong_to_the_emulator():
    factory, clock = MockFactory(), FakeClock()
    HX711(5, 6, pin_factory=factory, clock_ns=clock, sleep=clock.sleep, timeout=0.01).close()
    with pytest.raises(ValueError, match="before"):
        EmulatedHX711(5, 6, pin_factory=factory, clock=clock)
    EmulatedHX711(7, 8, pin_factory=factory, clock=clock)
    with pytest.raises(ValueError, match="share the clock"):
        EmulatedHX711(7, 9, pin_factory=factory, clock=FakeClock())


def test_close_detaches(wire):
    clock, chip, clk, dout = wire
    chip.close()
    chip.close()
    assert clk.chips == [] and dout.chip is None


def test_an_extra_edge_shifts_the_word_the_other_way(wire):
    clock, chip, clk, dout = wire
    clock.advance(PERIOD_NS * 6)
    chip.feed(0x400000)
    chip.extra_pulses(1)
    bits = pulses(clk, dout, 25)
    assert word(bits[:24]) == 0x800001  # the chip is one ahead: bit 2 first, then edge 25's high
    assert chip.transfers[-1].note == "counted an extra clock pulse"
    clock.advance(PERIOD_NS)
    assert not dout.state  # 26 edges: a valid count (B/32), the next conversion comes
    pulses(clk, dout, 25)
    assert chip.transfers[-1].setting == ("B", 32)


def test_more_than_27_edges_are_a_communication_error_until_reset(wire):
    clock, chip, clk, dout = wire
    clock.advance(PERIOD_NS * 6)
    assert pulses(clk, dout, 28)[-1] == 1
    assert "communication error" in chip.transfers[-1].note
    clock.advance(PERIOD_NS * 10)
    assert dout.state  # never ready again...
    clk.state = 1
    clock.advance(70_000)
    clk.state = 0  # ...until a power-down resets it
    clock.advance(PERIOD_NS)
    assert not dout.state
