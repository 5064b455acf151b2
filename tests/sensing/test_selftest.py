"""The sensor test's rules, fed readings by hand (companion/sensing/selftest.py)."""

import random

from companion.sensing.pipeline import OVERLOAD, UNCALIBRATED, Reading
from companion.sensing.selftest import NOISE_MAX_G, SensorTest
from companion.sensing.source import SourceStatus

OK = SourceStatus("simulator", True, 80.0)


def run(test, pan_grams, seconds, start=0.0, status=OK, flags=frozenset(), rate=80):
    """Feed both pans `pan_grams(channel, t)` for `seconds` at `rate`, in 0.1 s polls."""
    t = start
    while t < start + seconds - 1e-9:
        readings = []
        for k in range(rate // 10):
            ts = t + k / rate
            readings += [Reading(ts, c, 0, pan_grams(c, ts), True, flags) for c in (0, 1)]
        t += 0.1
        test.observe(t, readings, status)
    return t


def noisy(sigma, rng=random.Random(1)):
    return lambda c, t: rng.gauss(0.0, sigma)


def pressed(pan, at, sigma=0.03, rng=random.Random(2)):
    """Pan `pan` pressed by 40 g from `at` for half a second."""
    return lambda c, t: rng.gauss(0.0, sigma) + (40.0 if c == pan and at <= t < at + 0.5 else 0.0)


def test_both_pans_pressed_and_quiet_for_the_whole_time_pass():
    test = SensorTest(duration_s=10)
    t = run(test, pressed(0, 2.0), 5)
    assert test.pans[0].responded and not test.pans[1].responded and not test.passed
    t = run(test, pressed(1, t + 1), 6, start=t)
    assert test.done(t) and test.responded and test.quiet and not test.faults and test.passed
    assert 0.02 < test.pans[0].noise_g < 0.04


def test_a_pan_that_does_not_come_back_has_not_responded():
    test = SensorTest(duration_s=10)
    run(test, lambda c, t: (40.0 if t >= 2 else 0.0) if c == 0 else 0.0, 10)
    assert not test.pans[0].responded and not test.passed


def test_noise_over_the_limit_fails():
    test = SensorTest(duration_s=6)
    run(test, noisy(2 * NOISE_MAX_G), 6)
    assert not test.quiet and not test.passed


def test_faults_are_named_once_each():
    test = SensorTest(duration_s=5)
    t = run(test, noisy(0.03), 1, flags=frozenset({OVERLOAD}))
    t = run(test, noisy(0.03), 1, start=t, status=SourceStatus("serial", True, 80.0, bad=3))
    test.observe(t + 2.0, [], OK)  # two seconds without a reading
    assert test.faults == [("overload", 0), ("overload", 1), ("corrupt", None), ("stalled", None)]


def test_an_uncalibrated_seesaw_never_passes():
    test = SensorTest(duration_s=4)
    run(test, pressed(0, 1.0), 2, flags=frozenset({UNCALIBRATED}))
    assert not test.calibrated and not test.passed


def test_a_press_in_the_first_second_counts_once_the_pan_rests():
    """Issue 43: a press before the pan was first seen at rest was ignored (then 不合格)."""
    test = SensorTest(duration_s=10)
    t = run(test, pressed(0, 0.2), 0.8)
    assert not test.pans[0].responded  # still pressed, or not yet at rest
    run(test, pressed(0, 0.2), 2, start=t)
    assert test.pans[0].responded and not test.pans[1].responded
