"""The driver's lgpio path: where gpiozero's pin factory is lgpio, the clock and DOUT go
through lgpio's own calls, one per edge.  lgpio is faked here: its calls drive the
MockFactory pins the emulated chips answer on, so gpiozero's real LGPIOFactory and
LGPIOPin run above it."""

import importlib
import sys
import types
from collections import Counter

import pytest
from gpiozero.pins.mock import MockFactory

from companion.sensing.hx711 import HX711
from companion.sensing.hx711_emulator import EmulatedHX711, FakeClock

CLOCK, LEFT, RIGHT = 5, 6, 13
IS_OUT, PULL_UP, PULL_DOWN = 1 << 1, 1 << 5, 1 << 6  # lgpio's line mode bits, as gpiozero reads them


def fake_lgpio(mock: MockFactory) -> types.ModuleType:
    """The lgpio calls gpiozero and the driver make, on `mock`'s pins; `calls` counts them."""
    lg = types.ModuleType("lgpio")
    lg.calls, modes = Counter(), {}
    lg.SET_PULL_NONE, lg.SET_PULL_UP, lg.SET_PULL_DOWN = 0, PULL_UP, PULL_DOWN
    lg.BOTH_EDGES, lg.RISING_EDGE, lg.FALLING_EDGE = 3, 1, 2
    lg.error = RuntimeError

    def count(fn):
        def call(*args):
            lg.calls[fn.__name__] += 1
            return fn(*args)
        setattr(lg, fn.__name__, call)

    @count
    def gpiochip_open(chip):
        return 42

    @count
    def gpiochip_close(handle):
        pass

    @count
    def gpio_claim_input(handle, gpio, flags=0):
        modes[gpio] = flags
        pin = mock.pin(gpio)
        pin.function = "input"
        pin.pull = {PULL_UP: "up", PULL_DOWN: "down"}.get(flags, "floating")

    @count
    def gpio_claim_output(handle, gpio, level=0, flags=0):
        modes[gpio] = IS_OUT
        mock.pin(gpio).function = "output"

    @count
    def gpio_free(handle, gpio):
        pass

    @count
    def gpio_get_mode(handle, gpio):
        return modes[gpio]

    @count
    def gpio_read(handle, gpio):
        return int(mock.pin(gpio).state)

    @count
    def gpio_write(handle, gpio, level):
        mock.pin(gpio).state = level

    return lg


@pytest.fixture
def lgpio_rig(monkeypatch):
    mock, clock = MockFactory(), FakeClock()
    chips = [EmulatedHX711(CLOCK, data, pin_factory=mock, clock=clock) for data in (LEFT, RIGHT)]
    lg = fake_lgpio(mock)
    monkeypatch.setitem(sys.modules, "lgpio", lg)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    module = importlib.import_module("gpiozero.pins.lgpio")

    class Pi4(module.LGPIOFactory):
        def _get_revision(self):
            return 0xC03111  # a Raspberry Pi 4 B

    factory = Pi4(chip=0)
    yield lg, chips, factory, clock
    factory.close()
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio")


def test_the_clock_is_written_through_lgpio_one_call_per_edge(lgpio_rig):
    lg, (left, right), factory, clock = lgpio_rig
    left.feed(*range(100, 110))
    right.feed(*range(-5, -15, -1))
    with HX711(CLOCK, [LEFT, RIGHT], pin_factory=factory, clock_ns=clock, sleep=clock.sleep) as driver:
        assert driver.io_path == "lgpio"
        assert [r.raw for r in driver.read()] == [100, -5]  # bit for bit through lgpio
        lg.calls.clear()
        transfers = driver.transfers
        assert [r.raw for r in driver.read()] == [101, -6]
        edges = 2 * 25 * (driver.transfers - transfers)
        assert lg.calls["gpio_write"] == edges and lg.calls["gpio_get_mode"] == 0  # gpiozero: 2 per edge
        assert driver.clock_high_us()["path"] == "lgpio" and driver.clock_high_us()["transfers"] > 0


def test_a_mock_factory_keeps_the_gpiozero_path():
    mock, clock = MockFactory(), FakeClock()
    EmulatedHX711(CLOCK, LEFT, pin_factory=mock, clock=clock)
    with HX711(CLOCK, LEFT, pin_factory=mock, clock_ns=clock, sleep=clock.sleep) as driver:
        assert driver.io_path == "gpiozero"
