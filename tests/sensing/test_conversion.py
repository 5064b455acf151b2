"""The HX711's conversion (a sinc⁴ over four periods) and each pan's ringing from its parts."""

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.sensing import mechanics
from companion.sensing.conversion import Conversion, alias_hz, kernel, response
from companion.sensing.hands import Bump, Transient
from companion.sensing.simulator import PESSIMISTIC, QUIET, ManualClock, Realism, SimulatedSeesaw


def tone(f_hz, amplitude=1.0, phase=0.3):
    return lambda t: amplitude * np.sin(2 * np.pi * f_hz * t + phase)


def peak(f_hz, rate_hz, seconds=3.0):
    """The largest reading of a unit tone at `f_hz`, once the filter has filled."""
    chip = Conversion(0.0123, 1.0 / rate_hz)
    return float(np.abs(chip.readings(tone(f_hz), 0, int(seconds * rate_hz))[4:]).max())


def gain(f_hz, rate_hz, seconds=3.0):
    """The amplitude the readings of a unit tone at `f_hz` show (a sine and cosine fitted at the
    tone's frequency: `f_hz` must not be a multiple of half the rate)."""
    chip = Conversion(0.0123, 1.0 / rate_hz)
    n = int(seconds * rate_hz)
    t = 0.0123 + np.arange(4, n) / rate_hz
    values = chip.readings(tone(f_hz), 0, n)[4:]
    basis = np.column_stack([np.sin(2 * np.pi * f_hz * t), np.cos(2 * np.pi * f_hz * t)])
    (a, b), *_ = np.linalg.lstsq(basis, values, rcond=None)
    return float(np.hypot(a, b))


@pytest.mark.parametrize("rate", [10.0, 80.0])
def test_a_step_settles_in_four_conversions_not_fewer(rate):
    """Datasheet: 400 ms at 10/s, 50 ms at 80/s.  A step at a conversion boundary is
    fully read by the fourth conversion after it; one landing mid-conversion by the fifth
    (as TI's ADS1232, the same filter, documents)."""
    period = 1.0 / rate
    chip = Conversion(0.0, period)
    for offset, settled in ((0.0, 4), (0.4, 5)):
        step_at = (10 + offset) * period
        values = chip.readings(lambda t: np.where(t > step_at, 20.0, 0.0), 0, 20)
        after = values[11:]  # readings 11, 12, ... complete after the step
        assert after[settled - 1] == pytest.approx(20.0, abs=1e-9)
        assert after[settled - 2] < 20.0 - 1e-4  # one conversion earlier it is not there yet
        assert np.all(np.diff(values) >= -1e-12) and values[10] == pytest.approx(0.0, abs=1e-12)
        chip.forget()


def test_at_10_per_second_50_and_60_hz_and_their_multiples_are_notched():
    for f in (50.0, 60.0, 100.0, 120.0, 150.0, 180.0):
        assert peak(f, 10.0) < 1e-9, f
    for drift in (0.99, 1.01):  # the chip's own oscillator is imprecise: the notches move with it
        assert peak(50.0, 10.0 * drift) < 1e-6 and peak(60.0, 10.0 * drift) < 1e-6


def test_at_80_per_second_mains_passes_attenuated():
    assert 0.01 < gain(50.0, 80.0) < 0.1  # no notch there: 80 Hz is the first
    assert peak(80.0, 80.0) < 1e-9


@pytest.mark.parametrize("rate", [10.0, 80.0])
def test_a_slow_signal_passes_delayed_by_two_periods(rate):
    period, f = 1.0 / rate, 0.5
    chip = Conversion(0.0, period)
    values = chip.readings(tone(f, 5.0, 0.0), 0, int(4 * rate))
    t = np.arange(len(values)) * period
    expected = 5.0 * response(f, rate) * np.sin(2 * np.pi * f * (t - 2 * period))
    assert response(f, rate) > 0.98
    assert np.abs(values[4:] - expected[4:]).max() < 0.002


def test_the_fine_grid_keeps_the_response_of_the_continuous_filter():
    for rate in (10.0, 80.0):
        for f in (1.3, 3.7, 12.3, 27.1):
            assert gain(f, rate) == pytest.approx(float(response(f, rate)), rel=0.02, abs=1e-6)
    assert kernel(16).sum() == pytest.approx(1.0) and len(kernel(16)) == 61
    assert alias_hz(200.0, 80.0) == pytest.approx(40.0) and alias_hz(130.0, 10.0) == pytest.approx(0.0)


def test_a_pan_rings_far_faster_than_a_hand_from_its_cell_and_load():
    k = mechanics.stiffness_n_per_m(0.1)
    assert k == pytest.approx(98_066.5)
    assert mechanics.ring_hz(20.0, 0.1) == pytest.approx(math.sqrt(k / 0.05894) / (2 * math.pi))
    low, high = mechanics.DEFLECTION_MM
    slowest, fastest = mechanics.ring_hz(30.0, high), mechanics.ring_hz(0.0, low)
    assert 100 < slowest < mechanics.ring_hz(10.0, high) < fastest < 400
    assert response(slowest, 80.0) < 0.003  # the chip all but removes it


def test_each_placement_rings_at_its_pans_frequency_and_a_knock_on_the_pan_too():
    sim = SimulatedSeesaw(seed=4, clock=ManualClock(), realism=Realism(families=("knock_own",)))
    sim.place(0, grams=20.0)
    (load,) = sim._loads
    assert load.put.ring_hz == pytest.approx(mechanics.ring_hz(20.0, sim._chan[0].deflection_mm))
    (knock,) = sim._bumps
    assert knock.hz == pytest.approx(load.put.ring_hz)
    sim.place(0, grams=10.0)  # a second load: more mass, slower
    assert sim._loads[1].put.ring_hz == pytest.approx(mechanics.ring_hz(30.0, sim._chan[0].deflection_mm))
    sim.remove(0)
    assert sim._loads[1].take.ring_hz == pytest.approx(sim.pan_hz(0)) == pytest.approx(load.put.ring_hz)
    assert {mechanics.DEFLECTION_MM[0] <= ch.deflection_mm <= mechanics.DEFLECTION_MM[1] for ch in sim._chan} == {True}


def test_the_pessimistic_preset_keeps_the_hands_slow_ringing():
    sim = SimulatedSeesaw(seed=4, clock=ManualClock(), realism=replace(PESSIMISTIC, families=("press",), hard=True))
    sim.place(0, grams=20.0)
    assert 5.0 <= sim._loads[0].put.ring_hz <= 6.4  # the hard fifth of 12-5 Hz


def ringing_left(realism, rate):
    """The worst reading's distance from the weight, 0.15-0.6 s after a release that rings 8 %."""
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=2, rate_hz=rate, clock=clock, realism=realism, offsets=(0, 0),
                          counts_per_gram=(1000.0, 1000.0))
    sim.place(0, grams=20.0, at=0.5, transient=Transient(rise_s=0.02, release_s=0.05, ring=0.08, ring_decay_s=0.12))
    clock.advance(2.0)
    late = [abs(s.raw / 1000.0 - 20.0) for s in sim.poll() if s.channel == 0 and 0.72 <= s.t <= 1.17]
    return max(late)


def test_true_to_its_parts_the_ringing_hardly_reaches_a_reading():
    quiet = replace(QUIET, spike_rate=0.0)
    slow = ringing_left(replace(quiet, pan_ringing=False), 80.0)  # 8 Hz: through the filter at ~0.8
    parts = ringing_left(quiet, 80.0)
    instant = ringing_left(replace(quiet, conversion=False), 80.0)  # the parts' ringing sampled instantly
    assert slow > 0.3 and parts < 0.01 < instant


@pytest.mark.parametrize("rate", [10.0, 80.0])
def test_the_oracles_view_is_what_the_chip_reads(rate):
    """`read_grams` at the readings' times gives the quiet readings themselves, and at other
    times what a chip whose conversions completed then would read."""
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=6, rate_hz=rate, clock=clock, realism=QUIET, offsets=(0, 0),
                          counts_per_gram=(1e4, 1e4))
    sim.place(0, grams=20.0, at=0.3, transient=Transient(overshoot=0.4, rise_s=0.03, release_s=0.2, ring=0.05))
    sim.bump(Bump(at=0.5, grams=1.0, hz=15.0, decay_s=0.1))
    ch = sim._chan[0]
    t = ch.t0 + np.arange(int(2.0 / ch.period_s)) * ch.period_s  # asked before a poll prunes what has died out
    seen = sim.read_grams(0, t)
    other = Conversion(t[0] + 0.37 * ch.period_s, ch.period_s)  # a chip converting out of step with this one
    expected = other.readings(lambda fine: sim.ideal_grams(0, fine), 0, len(t) - 1)
    assert sim.read_grams(0, other.t0 + np.arange(len(t) - 1) * ch.period_s) == pytest.approx(expected, abs=1e-9)
    clock.advance(2.0)
    samples = [s for s in sim.poll() if s.channel == 0]
    assert [s.t for s in samples] == pytest.approx(t[:len(samples)])
    assert np.abs(seen[:len(samples)] - np.array([s.raw for s in samples]) / 1e4).max() <= 5e-5  # counts round
