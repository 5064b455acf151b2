"""The simulated seesaw: a deterministic physical model behind the WeightSource interface."""

from dataclasses import replace

import numpy as np
import pytest

from companion.games.gunkan.pieces import default_table
from companion.sensing.hands import EVERY_FAMILY, FAMILIES, LINGERING, Bump, Transient
from companion.sensing.simulator import QUIET, ManualClock, Realism, SimulatedSeesaw
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


@pytest.mark.parametrize("name", sorted(EVERY_FAMILY))
def test_every_hand_family_draws_within_its_documented_ranges(name):
    family = EVERY_FAMILY[name]
    sim = SimulatedSeesaw(clock=ManualClock(), realism=Realism(families=(name,)))
    rng = np.random.default_rng(5)

    def within(value, span, hard=False):
        lo, hi = sorted(span)
        if hard:  # the last fifth next to the hard end
            edge = span[0] + 0.8 * (span[1] - span[0])
            lo, hi = sorted((edge, span[1]))
        return lo - 1e-12 <= value <= hi + 1e-12

    for hard in (False, True):
        sim.realism = Realism(families=(name,), hard=hard)
        for _ in range(50):
            hand = sim.draw_transient(rng)
            assert hand.family == name
            for key in ("overshoot", "rise_s", "release_s", "ring", "ring_hz", "ring_decay_s", "touch", "rest", "rest_s"):
                assert within(getattr(hand, key), getattr(family, key), hard), (key, hard)
            assert hand.letgo_s >= hand.rise_s + hand.release_s and hand.duration_s >= hand.letgo_s


def test_a_straightening_touch_pushes_after_the_let_go_and_a_bump_shakes_both_pans():
    clock = ManualClock()
    sim = SimulatedSeesaw(clock=clock, realism=QUIET)
    hand = Transient(rise_s=0.05, release_s=0.1, touch_after_s=0.3, touch=0.2, touch_s=0.2, family="straighten")
    sim.place(0, grams=20.0, at=0.0, transient=hand)
    t = np.array([0.3, 0.55, 0.9])
    assert np.allclose(sim.ideal_grams(0, t), [20.0, 24.0, 20.0])
    assert sim.hand(sim.loads(0)[0][0])[0] == pytest.approx(0.65)
    sim.bump(Bump(at=1.0, grams=2.0, hz=10.0, decay_s=0.1, share=(1.0, 0.5)))
    t = np.array([1.025])
    assert sim.ideal_grams(0, t)[0] == pytest.approx(20.0 + 2.0 * np.exp(-0.25))
    assert sim.ideal_grams(1, t)[0] == pytest.approx(1.0 * np.exp(-0.25))


def test_the_bump_family_knocks_the_table_near_the_let_go():
    sim = SimulatedSeesaw(clock=ManualClock(), realism=Realism(families=("bump",)), table=default_table())
    sim.place(0, "carrier", at=1.0)
    (knock,) = sim._bumps
    letgo, hand = sim.hand(sim.loads(0)[0][0])
    assert hand.family == "bump" and letgo - 0.1 <= knock.at <= letgo + 0.3 and 0.5 <= knock.grams <= 3.0


def test_a_resting_finger_adds_its_share_with_the_hands_tremor_then_lifts():
    sim = SimulatedSeesaw(clock=ManualClock(), realism=QUIET)
    hand = Transient(rise_s=0.05, release_s=0.1, rest=0.1, rest_s=0.8, tremor_g=0.2, tremor_hz=10.0,
                     family="finger_rest")
    sim.place(0, grams=20.0, at=0.0, transient=hand)
    resting = np.arange(0.3, 0.9, 1 / 800)
    g = sim.ideal_grams(0, resting)
    assert np.mean(g) == pytest.approx(22.0, abs=0.02)  # the finger's 10 %
    assert np.std(g) == pytest.approx(0.2, rel=0.05)  # the tremor's rms
    spectrum = np.abs(np.fft.rfft(g - g.mean()))
    assert np.fft.rfftfreq(len(g), 1 / 800)[spectrum.argmax()] == pytest.approx(10.0, abs=1.7)
    assert hand.letgo_s == pytest.approx(0.15 + 0.8 + 0.08)
    assert np.allclose(sim.ideal_grams(0, np.array([1.1, 1.5])), 20.0)  # lifted: the piece alone, still


def test_a_slow_release_starts_level_and_a_partial_lift_dips_under_the_weight():
    sim = SimulatedSeesaw(clock=ManualClock(), realism=QUIET)
    slow = Transient(overshoot=-0.6, rise_s=0.05, release_s=4.0, family="slow_release")
    sim.place(0, grams=20.0, at=0.0, transient=slow)
    g = sim.ideal_grams(0, np.array([0.05, 0.4, 2.05, 4.05, 4.5]))
    assert g[0] == pytest.approx(8.0) and g[1] - g[0] < 0.25  # 40 % of the weight, hardly rising yet
    assert g[2] == pytest.approx(14.0) and g[3] == pytest.approx(20.0) and g[4] == pytest.approx(20.0)
    lift = Transient(rise_s=0.05, release_s=0.1, touch_after_s=0.1, touch=-0.4, touch_s=0.2, family="partial_lift")
    sim.place(1, grams=10.0, at=0.0, transient=lift)
    assert sim.ideal_grams(1, np.array([0.2, 0.35, 0.6])) == pytest.approx([10.0, 6.0, 10.0])


def test_the_knock_own_family_knocks_its_own_pan_during_the_release_and_slow_first_is_first_only():
    sim = SimulatedSeesaw(clock=ManualClock(), realism=Realism(families=("knock_own",)), table=default_table())
    sim.place(1, "carrier", at=1.0)
    (knock,) = sim._bumps
    letgo, hand = sim.hand(sim.loads(1)[0][0])
    assert 1.0 + hand.rise_s <= knock.at <= 1.0 + hand.first_release_s and 0.3 <= knock.grams <= 2.0
    assert knock.share == (0.0, 1.0)  # the other pan quiet
    assert FAMILIES["slow_first"].first_only and not FAMILIES["slow_release"].first_only


def test_the_lingering_hands_stay_out_of_the_default_mix_and_rest_up_to_5_s():
    assert not set(LINGERING) & set(FAMILIES)
    rng = np.random.default_rng(3)
    rests = [LINGERING["finger_still"].draw(rng, "finger_still", False) for _ in range(200)]
    assert max(h.rest_s for h in rests) > 4.0 and min(h.rest_s for h in rests) >= 0.5
    assert all(h.tremor_g == 0.0 for h in rests)
    assert all(h.tremor_g == 0.0 for h in (LINGERING["slow_still"].draw(rng, "slow_still", True) for _ in range(20)))


def test_a_swaying_table_moves_both_pans_alike_until_after_the_let_go_then_stops():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=4, clock=clock, realism=replace(QUIET, families=("sway",)), table=default_table())
    load = sim.place(0, "cruiser", at=1.0, transient=sim.draw_transient(np.random.default_rng(2)))
    letgo, hand = sim.hand(load)
    sway = next(b for b in sim._bumps if b.hz < 5.0)
    assert 1.0 <= sway.hz <= 3.0 and 0.1 <= sway.grams <= 1.0 and sway.end() > letgo
    during = np.linspace(letgo, min(sway.end(), letgo + 1.0) - 0.3, 200)
    left, right = sim.ideal_grams(0, during), sim.ideal_grams(1, during)
    assert np.ptp(right) > sway.grams and np.allclose(left - 18.0, right, atol=0.4)
    after = np.linspace(sway.end() + 0.01, sway.end() + 1.0, 50)
    assert np.ptp(sim.ideal_grams(1, after)) == 0.0


def test_a_zero_moved_under_a_parked_piece_stays_moved_after_the_piece_is_gone():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=4, clock=clock, realism=QUIET, counts_per_gram=(500.0, 500.0), offsets=(0, 0))
    sim.move_zero(1, 1.2, start=10.0, over_s=300.0)
    clock.advance(160.0)
    sim.poll()
    clock.advance(0.5)
    halfway = [s.raw / 500.0 for s in sim.poll() if s.channel == 1]
    assert np.median(halfway) == pytest.approx(0.6, abs=0.02)
    clock.advance(600.0)
    sim.poll()
    clock.advance(0.5)
    assert np.median([s.raw / 500.0 for s in sim.poll() if s.channel == 1]) == pytest.approx(1.2, abs=0.02)


def test_the_tremor_drawn_can_be_set_below_the_premise():
    sim = SimulatedSeesaw(clock=ManualClock(), realism=Realism(families=("finger_linger",), tremor_g=(0.05, 0.05)))
    rng = np.random.default_rng(1)
    assert {sim.draw_transient(rng).tremor_g for _ in range(20)} == {0.05}
