"""GpioSource reading emulated HX711s on a background thread (real time, short)."""

import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.sensing.gpio_source import GpioSource
from companion.sensing.monitor import format_status
from companion.sensing.pipeline import Pipeline
from companion.sensing.hx711_emulator import EmulatedHX711, HybridClock
from companion.sensing.source import SensorError, WeightSource

LEFT, RIGHT = 1200, -3400


def chips(factory, clock, pans, values=(LEFT, RIGHT)):
    return [EmulatedHX711(c, d, pin_factory=factory, clock=clock,
                          signal=lambda channel, gain, t, v=v: v)
            for (c, d), v in zip(pans, values)]


def collect(source, per_channel, limit_s=10.0):
    """Poll until every channel has `per_channel` samples (or the limit)."""
    got, end = [], time.monotonic() + limit_s
    while time.monotonic() < end:
        got += source.poll()
        if all(sum(s.channel == c for s in got) >= per_channel for c in range(source.channels)):
            break
        time.sleep(0.01)
    return got


def until(predicate, limit_s=10.0):
    end = time.monotonic() + limit_s
    while not predicate() and time.monotonic() < end:
        time.sleep(0.01)
    return predicate()


@pytest.mark.parametrize("pans", [((5, 6), (5, 13)), ((5, 6), (19, 13))],
                         ids=["shared clock", "clock per pan"])
def test_reads_both_pans_in_the_background(pans):
    factory, clock = MockFactory(), HybridClock(real_sleep=True)
    chips(factory, clock, pans)
    with GpioSource(pans, pin_factory=factory, clock_ns=clock, sleep=clock.sleep) as source:
        assert isinstance(source, WeightSource)
        got = collect(source, 8)
        status = source.status()
    assert {s.raw for s in got if s.channel == 0} == {LEFT}
    assert {s.raw for s in got if s.channel == 1} == {RIGHT}
    for channel in (0, 1):
        times = [s.t for s in got if s.channel == channel]
        assert times == sorted(times)
    assert status.connected and status.source == "gpio"
    assert status.rate_hz > 0
    assert status.extra["settle_discarded"] >= 4
    highs = status.extra["clock_high_us"]
    assert len(highs) == len({c for c, _ in pans}) and all(h["path"] == "gpiozero" and h["transfers"] for h in highs)
    lines = format_status(source, Pipeline(source.channels))
    assert sum(line.startswith("clock high (gpiozero): median") for line in lines) == len(highs)


def test_unplugged_chip_shows_in_status_and_recovers():
    factory, clock = MockFactory(), HybridClock(real_sleep=True)
    pans = ((5, 6), (5, 13))
    _, right = chips(factory, clock, pans)
    source = GpioSource(pans, pin_factory=factory, clock_ns=clock, sleep=clock.sleep,
                        timeout=0.3, retry_s=0.05)
    try:
        assert collect(source, 2)
        right.connected = False
        assert until(lambda: not source.status().connected)
        assert "13" in source.status().detail
        right.connected = True
        assert until(lambda: source.status().connected)
        source.poll()
        assert collect(source, 2)
    finally:
        source.close()


def test_close_is_prompt_idempotent_and_frees_the_pins():
    factory, clock = MockFactory(), HybridClock(real_sleep=True)
    pans = ((5, 6),)
    chips(factory, clock, pans)[0].connected = False  # the thread is stuck waiting
    source = GpioSource(pans, pin_factory=factory, clock_ns=clock, sleep=clock.sleep, timeout=30)
    started = time.monotonic()
    source.close()
    source.close()
    assert time.monotonic() - started < 5
    assert not source.status().connected
    GpioSource(pans, pin_factory=factory, clock_ns=clock, sleep=clock.sleep).close()


def test_full_queue_drops_the_oldest():
    factory, clock = MockFactory(), HybridClock(real_sleep=True)
    pans = ((5, 6),)
    chips(factory, clock, pans)
    with GpioSource(pans, pin_factory=factory, clock_ns=clock, sleep=clock.sleep,
                    max_queue=3) as source:
        assert until(lambda: source.status().dropped > 0)
        assert len(source.poll()) == 3


def test_bad_pin_is_a_sensor_error():
    with pytest.raises(SensorError, match="GPIO pins"):
        GpioSource(((5, 99),), pin_factory=MockFactory())
