"""Step-by-step calibration and piece classes from repeated weighings."""

import json

import pytest

from companion.sensing.calibration import Calibrator, build_classes
from companion.sensing.pipeline import CalibrationError, NotStableError, Pipeline
from companion.sensing.simulator import ManualClock, SimulatedSeesaw


def rig(seed=4):
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=seed, clock=clock, counts_per_gram=(650.0, -420.0))
    pipe = Pipeline(rate_hz=80)

    def run(seconds):
        for _ in range(round(seconds / 0.05)):
            clock.advance(0.05)
            pipe.feed(sim.poll())
    return sim, pipe, run


def do_when_still(cal, run):
    for _ in range(20):
        try:
            return cal.do()
        except NotStableError:
            run(0.1)
    raise AssertionError("never still")


def test_wizard_steps_calibrate_both_pans():
    sim, pipe, run = rig()
    cal = Calibrator(pipe, known_g=100.0)
    assert [s.kind for s in cal.steps] == ["tare", "mass", "mass"]
    run(1.0)
    assert cal.ready()
    do_when_still(cal, run)
    for channel in (0, 1):
        assert cal.step.channel == channel and "100" in cal.step.prompt
        sim.place(channel, grams=100.0)
        run(0.05)
        with pytest.raises(NotStableError):  # the mass is still landing
            cal.do()
        assert cal.step.channel == channel
        run(1.5)
        do_when_still(cal, run)
        sim.remove(channel)
        run(1.0)
    assert cal.done and cal.step is None
    result = json.loads(json.dumps(cal.result()))
    assert result["known_g"] == 100.0
    scales = [c["counts_per_gram"] for c in result["channels"]]
    assert scales == [pytest.approx(650.0, rel=2e-3), pytest.approx(-420.0, rel=2e-3)]
    sim.place(1, grams=20.0)
    run(1.5)
    assert pipe.latest(1).grams == pytest.approx(20.0, abs=0.3)


def test_result_before_the_end_is_refused():
    _, pipe, _ = rig()
    with pytest.raises(CalibrationError):
        Calibrator(pipe).result()
    with pytest.raises(CalibrationError):
        Calibrator(pipe, known_g=0)


def test_classes_from_weighings_with_margins_and_warnings():
    report = build_classes({
        "heavy": [20.0, 20.1, 19.9, 20.05],
        "light": [10.0, 10.1, 9.9],
        "near": [20.4, 20.5, 20.45],
        "twin": [10.05, 10.0, 10.1],
    }, noise_sigma_g=0.05)
    names = [c.name for c in report.classes]
    assert names == ["light", "twin", "heavy", "near"]
    light = report.classes[0]
    assert light.mass_g == pytest.approx(10.0) and light.spread_g >= 0.1
    pairs = {(n.lighter, n.heavier): n for n in report.neighbours}
    assert pairs[("twin", "heavy")].apart and pairs[("twin", "heavy")].margin_sigma > 6
    assert not pairs[("light", "twin")].apart and report.unsure == ["light", "twin", "heavy", "near"]
    assert any("light" in w and "twin" in w and "light|twin" in w for w in report.warnings)
    assert any("heavy" in w and "near" in w for w in report.warnings)
    assert json.loads(json.dumps(report.to_json()))["classes"][0]["name"] == "light"


def test_a_single_weighing_is_not_enough():
    with pytest.raises(CalibrationError):
        build_classes({"carrier": [22.0]})


def test_a_single_piece_kept_alone_has_no_neighbours_and_its_own_sigma():
    report = build_classes({"a": [10.0, 10.3, 9.8], "b": [14.0, 14.2, 13.9], "weight": [10.0, 10.01]},
                           noise_sigma_g=0.01, alone=("weight",))
    assert [(n.lighter, n.heavier) for n in report.neighbours] == [("a", "b")]
    weight = next(c for c in report.classes if c.name == "weight")
    assert weight.spread_g < 0.05  # not the pieces' pooled σ
    assert report.apart
