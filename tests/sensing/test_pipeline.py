"""The per-channel signal pipeline on synthetic and simulated streams."""

import pytest

from companion.sensing.pipeline import (
    OVERLOAD, UNCALIBRATED, UNDERLOAD, CalibrationError, NotStableError, Pipeline, PipelineConfig)
from companion.games.gunkan.pieces import default_table
from companion.sensing.simulator import ManualClock, SimulatedSeesaw
from companion.sensing.source import Sample

RATE = 80.0


def stream(values, channel=0, t0=0.0, saturated=False):
    return [Sample(t0 + i / RATE, channel, int(v), saturated) for i, v in enumerate(values)]


def calibrated(offset=1000.0, cpg=400.0):
    pipe = Pipeline(channels=1, rate_hz=RATE)
    pipe.apply_calibration({"channels": [{"offset": offset, "counts_per_gram": cpg}]})
    return pipe


def test_median_of_three_rejects_a_lone_spike():
    pipe = calibrated()
    values = [1000 + 400 * 10] * 10 + [9_000_000] + [1000 + 400 * 10] * 5
    readings = pipe.feed(stream(values))
    assert max(r.grams for r in readings) == pytest.approx(10.0)


def test_stable_only_after_a_still_window():
    pipe = calibrated()
    ramp = [1000 + 400 * g for g in range(0, 40, 2)]
    assert not any(r.stable for r in pipe.feed(stream(ramp)))
    still = pipe.feed(stream([1000 + 400 * 40] * 12, t0=1.0))
    assert still[-1].stable and not still[2].stable


@pytest.mark.parametrize("rate", [10.0, 80.0])
def test_stability_is_judged_over_time_at_either_rate(rate):
    """Still for the motion window (0.1 s) and at least 4 samples: 0.1 s at 80/s, 0.3 s at 10/s."""
    pipe = calibrated()
    times = [i / rate for i in range(12)]
    readings = pipe.feed([Sample(t, 0, 1000 + 400 * 40) for t in times])
    first = next(r.t for r in readings if r.stable)
    assert first == pytest.approx(max(0.1, 3 / rate))
    assert pipe.channels[0].rate_hz == pytest.approx(rate)
    assert pipe.measured_rate_hz == (pytest.approx(rate) if rate == 10 else 0.0)  # known over >= 1 s
    pipe.feed([Sample(1.2 + i / rate, 0, 1000 + 400 * 40) for i in range(round(1.5 * rate))])
    assert pipe.measured_rate_hz == pytest.approx(rate)


def test_tare_refuses_while_moving_and_zeroes_when_still():
    pipe = Pipeline(channels=1, rate_hz=RATE)
    pipe.feed(stream(range(0, 4000, 100)))
    with pytest.raises(NotStableError):
        pipe.tare()
    pipe.feed(stream([5000] * 10, t0=1.0))
    pipe.tare()
    assert pipe.channels[0].offset == 5000


def test_calibration_from_a_known_mass_any_sign():
    for cpg in (420.0, -380.0):
        pipe = Pipeline(channels=1, rate_hz=RATE)
        pipe.feed(stream([7000] * 10))
        pipe.tare()
        pipe.feed(stream([7000 + cpg * 100] * 10, t0=1.0))
        assert pipe.channels[0].calibrate(100.0) == pytest.approx(cpg)
        assert pipe.feed(stream([7000 + cpg * 22.5] * 3, t0=2.0))[-1].grams == pytest.approx(22.5, abs=0.01)


def test_calibration_refuses_when_no_mass_is_seen():
    pipe = Pipeline(channels=1, rate_hz=RATE)
    pipe.feed(stream([7000] * 10))
    pipe.tare()
    with pytest.raises(CalibrationError):
        pipe.channels[0].calibrate(100.0)
    with pytest.raises(CalibrationError):
        pipe.channels[0].calibrate(-5)


def test_uncalibrated_readings_are_flagged():
    pipe = Pipeline(channels=1, rate_hz=RATE)
    assert UNCALIBRATED in pipe.feed(stream([10]))[-1].flags


def test_zero_tracking_follows_slow_drift_only_when_empty():
    pipe = calibrated()
    drift = [1000 + 400 * 0.0002 * i for i in range(800)]  # 0.016 g/s of drift
    assert abs(pipe.feed(stream(drift))[-1].grams) < 0.1
    loaded = calibrated()
    values = [1000 + 400 * (20 + 0.002 * i) for i in range(800)]
    assert loaded.feed(stream(values))[-1].grams == pytest.approx(21.6, abs=0.01)


def test_overload_and_underload_flags():
    pipe = Pipeline(channels=1, rate_hz=RATE, config=PipelineConfig(capacity_g=500.0))
    pipe.apply_calibration({"channels": [{"offset": 0, "counts_per_gram": 100.0}]})
    assert OVERLOAD in pipe.feed(stream([100 * 600] * 3))[-1].flags
    assert UNDERLOAD in pipe.feed(stream([-100 * 50] * 3, t0=1))[-1].flags
    assert OVERLOAD in pipe.feed(stream([8_388_607] * 3, t0=2, saturated=True))[-1].flags
    lone = stream([100] * 3, t0=3) + stream([8_388_607], t0=3.1, saturated=True) + stream([100], t0=3.2)
    assert not pipe.feed(lone)[-1].flags


def test_measured_rate():
    pipe = calibrated()
    pipe.feed(stream([1000] * 200))
    assert pipe.channels[0].rate_hz == pytest.approx(RATE)


def test_calibration_dict_round_trip_and_bad_data():
    pipe = calibrated(123.0, 456.0)
    data = pipe.calibration()
    other = Pipeline(channels=1)
    other.apply_calibration(data)
    assert other.calibration() == data == {"channels": [{"offset": 123.0, "counts_per_gram": 456.0}]}
    for bad in ({}, {"channels": [{"offset": "x", "counts_per_gram": 1}]},
                {"channels": [{"offset": 0, "counts_per_gram": 0}]}, {"channels": []}):
        with pytest.raises(CalibrationError):
            other.apply_calibration(bad)


def test_simulated_piece_reads_its_mass_after_tare_and_calibration():
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=2, clock=clock, table=default_table())
    pipe = Pipeline(rate_hz=80)
    sim.place(1, grams=0.0)  # nothing yet: just let both pans settle
    for _ in range(20):
        clock.advance(0.05)
        pipe.feed(sim.poll())
    pipe.tare()
    sim.place(1, grams=100.0)
    for _ in range(30):
        clock.advance(0.05)
        pipe.feed(sim.poll())
    pipe.channels[1].calibrate(100.0)
    sim.remove(1)
    sim.place(1, "cruiser")
    for _ in range(30):
        clock.advance(0.05)
        pipe.feed(sim.poll())
    truth = sim.loads(1)[-1][2]
    assert pipe.latest(1).grams == pytest.approx(truth, abs=0.35)
    assert pipe.latest(1).stable


def test_rezero_between_battles_zeroes_a_drift_of_a_few_grams_and_nothing_further_or_moving():
    pipe = calibrated()
    pipe.feed(stream([1000 + 400 * 2.5] * 12))  # an empty pan 2.5 g off: beyond zero tracking's 0.5 g
    assert pipe.rezero(4.0) == [] and pipe.channels[0].offset == pytest.approx(1000 + 400 * 2.5)
    assert pipe.feed(stream([1000 + 400 * 2.5] * 2, t0=1.0))[-1].grams == pytest.approx(0.0)
    pipe.feed(stream([1000 + 400 * 2.5 + 400 * 6.0] * 12, t0=2.0))  # 6 g on it: a piece, never zeroed
    assert pipe.rezero(4.0) == [0] and pipe.latest(0).grams == pytest.approx(6.0)
    pipe.feed(stream([1000 + 400 * (2.5 + g) for g in range(0, 12, 1)], t0=3.0))  # moving: left for later
    assert pipe.rezero(4.0) == [] and pipe.channels[0].offset == pytest.approx(1000 + 400 * 2.5)
    with pytest.raises(NotStableError):
        pipe.channels[0].rezero(4.0)


def test_rezero_zeroes_a_small_error_at_once_where_tracking_would_take_seconds():
    pipe = calibrated()
    pipe.feed(stream([1000 + 400 * 0.2] * 12))  # 0.2 g off: inside zero tracking's band, 2 s to follow
    assert pipe.latest(0).grams == pytest.approx(0.2, abs=0.02)
    assert pipe.rezero(4.0) == []
    assert pipe.feed(stream([1000 + 400 * 12.2] * 2, t0=1.0))[-1].grams == pytest.approx(12.0)
