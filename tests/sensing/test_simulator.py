"""The simulated seesaw: a deterministic physical model behind the WeightSource interface."""

import numpy as np
import pytest

from companion.games.gunkan.pieces import default_table
from companion.sensing.simulator import QUIET, ManualClock, Realism, SimulatedSeesaw, Transient
from companion.sensing.source import WeightSource


def run(seed, steps, realism=Realism()):
    """Place a carrier at 0.2 s, remove it at 1.0 s, polling every `steps` seconds up to 1.5 s."""
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=seed, clock=clock, realism=realism, table=default_table())
    sim.place("L", "carrier", at=0.2)
    sim.remove("L", at=1.0)
    out = []
    while clock() < 1.5:
        clock.advance(steps)
        out += sim.poll()
    return [s for s in out if s.t <= 1.5]


def test_same_seed_same_samples_whatever_the_polling():
    a, b = run(7, 0.013), run(7, 0.25)
    assert a == b
    assert run(8, 0.25) != a


def test_is_a_weight_source_that_closes_idempotently():
    clock = ManualClock()
    with SimulatedSeesaw(clock=clock) as sim:
        assert isinstance(sim, WeightSource)
        clock.advance(1.0)
        samples = sim.poll()
        assert {s.channel for s in samples} == {0, 1}
        assert all(a.t <= b.t for a, b in zip(samples, samples[1:]))
        assert sim.status().connected
    sim.close()
    clock.advance(1.0)
    assert sim.poll() == [] and not sim.status().connected


def test_rate_follows_the_setting():
    for rate in (10, 80):
        clock = ManualClock()
        sim = SimulatedSeesaw(rate_hz=rate, clock=clock)
        clock.advance(10.0)
        per_channel = sum(s.channel == 0 for s in sim.poll()) / 10.0
        assert abs(per_channel - rate) <= 0.02 * rate + 0.2


def test_quiet_model_gives_offset_plus_scale_times_mass():
    clock = ManualClock()
    sim = SimulatedSeesaw(clock=clock, realism=QUIET, offsets=(1000, -500), counts_per_gram=(400.0, -300.0))
    sim.place("R", grams=25.0)
    clock.advance(1.0)
    right = [s.raw for s in sim.poll() if s.channel == 1]
    assert right[-1] == -500 - 300 * 25


def test_noise_spikes_and_drift_are_there_by_default():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=3, clock=clock, counts_per_gram=(500.0, 500.0))
    samples = []
    for _ in range(60):
        clock.advance(1.0)
        samples += sim.poll()
    raw = np.array([s.raw for s in samples if s.channel == 0], float) / 500.0
    diffs = np.diff(raw)
    clean = diffs[np.abs(diffs) < 1.0]
    assert clean.std() / np.sqrt(2) >= 0.045  # white noise of at least ~0.05 g rms
    spikes = sim.status().extra["spikes"]
    assert 0.005 * 2 * 4800 < spikes < 0.02 * 2 * 4800


def test_press_transient_overshoots_then_settles():
    sim = SimulatedSeesaw(clock=ManualClock(), realism=QUIET)
    hand = Transient(overshoot=0.5, rise_s=0.05, release_s=0.4, ring=0.05, ring_hz=8, ring_decay_s=0.05)
    sim.place(0, grams=20.0, at=0.0, transient=hand)
    t = np.arange(0.0, 2.0, 0.001)
    force = sim.ideal_grams(0, t)
    assert force.max() == pytest.approx(30.0, abs=0.05)
    assert abs(force[t > 1.0] - 20.0).max() < 0.01
    assert abs(sim.ideal_grams(1, t)).max() == 0.0  # no crosstalk in the quiet model


def test_named_pieces_weigh_within_their_spread():
    table = default_table()
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=5, clock=clock, table=default_table())
    for name in ("carrier", "submarine+counterweight", "port"):
        sim.place(0, name)
        _, label, grams = sim.loads(0)[-1]
        expected = sum(table[p].mass_g for p in name.split("+"))
        spread = sum(table[p].spread_g for p in name.split("+"))
        assert label == name and abs(grams - expected) <= spread
    with pytest.raises(KeyError):
        sim.place(0, "dragon")
    with pytest.raises(ValueError):
        sim.remove(1)


def test_a_long_clock_jump_drops_samples_instead_of_stalling():
    clock = ManualClock()
    sim = SimulatedSeesaw(clock=clock)
    clock.advance(60.0)
    assert len(sim.poll()) <= 2 * 81 * 10
    assert sim.status().dropped > 0
