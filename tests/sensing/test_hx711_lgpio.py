"""The driver's lgpio path: where gpiozero's pin factory is lgpio, the clock and DOUT go
through lgpio's own calls, one per edge.  lgpio is faked here: its calls drive the
MockFactory pins the emulated chips answer on, so gpiozero's real LGPIOFactory and
LGPIOPin run above it."""

import importlib
import re
import sys
import types
from collections import Counter
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.sensing import hx711
from companion.sensing.hx711 import HX711
from companion.sensing.hx711_emulator import EmulatedHX711, FakeClock
from companion.sensing.source import SensorError

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



def wire_hiding(monkeypatch, name, of):
    """Run the driver's wiring with attribute `name` gone from the objects `of(factory, pins)`
    names, as a gpiozero that renamed it would have them (gpiozero's own code still sees it)."""
    wire = hx711._wire

    def hiding(factory, clock, data):
        objects = of(factory, (clock, *data))
        kept = [vars(obj).pop(name) for obj in objects]
        try:
            return wire(factory, clock, data)
        finally:
            for obj, value in zip(objects, kept):
                setattr(obj, name, value)

    monkeypatch.setattr(hx711, "_wire", hiding)


def test_the_lgpio_path_takes_the_gpio_numbers_from_the_pins_public_names(lgpio_rig, monkeypatch):
    """`_number` is gpiozero's private field: the driver reads `pin.info.name` instead."""
    lg, (left, right), factory, clock = lgpio_rig
    left.feed(*range(100, 110))
    right.feed(*range(-5, -15, -1))
    wire_hiding(monkeypatch, "_number", lambda factory, pins: pins)
    with HX711(CLOCK, [LEFT, RIGHT], pin_factory=factory, clock_ns=clock, sleep=clock.sleep) as driver:
        assert driver.io_path == "lgpio" and [r.raw for r in driver.read()] == [100, -5]


def test_a_gpiozero_without_the_chip_handle_is_named_and_the_pins_are_freed(lgpio_rig, monkeypatch):
    """The chip handle has no public way to it (LGPIOFactory._handle, checked in gpiozero 2.0 and
    2.0.1, the versions pyproject.toml allows): a gpiozero that moved it gets an error naming its
    version and what to do, not an AttributeError."""
    lg, chips, factory, clock = lgpio_rig
    monkeypatch.setattr(hx711.metadata, "version", lambda name: "2.1.0")
    with monkeypatch.context() as hidden:
        wire_hiding(hidden, "_handle", lambda factory, pins: [factory])
        with pytest.raises(SensorError, match=r"gpiozero 2\.1\.0 .*checked with gpiozero 2\.0\.x.*constraints"):
            HX711(CLOCK, [LEFT, RIGHT], pin_factory=factory, clock_ns=clock, sleep=clock.sleep)
    HX711(CLOCK, [LEFT, RIGHT], pin_factory=factory, clock_ns=clock, sleep=clock.sleep).close()  # pins freed


def test_pyproject_allows_only_the_gpiozero_versions_checked():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'"gpiozero>=2\.0,<2\.1"', text)
