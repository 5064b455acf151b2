"""The calibration wizard's flow without Kivy (companion/games/gunkan/calibration.py), on the
simulated seesaw and a manual clock: the known mass, the scales (a mass on the wrong pan
named), the pieces until every class is apart, the report, saving, leaving half-way."""

import dataclasses

import pytest

from companion.games.gunkan.calibration import MASS, PIECES, REPORT, SCALE, CalibrationFlow, Check
from companion.games.gunkan.pieces import default_table
from companion.games.gunkan.seesaw import STACKED, Seesaw, counterweight_sensed, virtual_calibration
from companion.play.controller import Text
from companion.sensing.judge import JudgeConfig
from companion.sensing.simulator import ManualClock, SimulatedSeesaw

GENTLE_HANDS = dict(overshoot_max=0.05, release_s=(0.03, 0.06), ring_max=0.01, creep_max=0.0005)


class Bench:
    """A flow over a simulated seesaw whose scales are the virtual factory calibration's."""

    def __init__(self, rate=80.0, seed=4):
        self.clock = ManualClock(0.0)
        self.sim = SimulatedSeesaw(seed=seed, rate_hz=rate, clock=self.clock, table=default_table())
        self.sim.with_realism(**GENTLE_HANDS)
        self.factory = virtual_calibration(self.sim)
        self.flow = CalibrationFlow(Seesaw(self.sim, self.factory))
        self.run(1.0)

    def run(self, seconds: float) -> int:
        changes = 0
        for _ in range(round(seconds / 0.05)):
            self.clock.advance(0.05)
            changes += self.flow.tick()
        return changes

    def until(self, ready, seconds=5.0) -> None:
        for _ in range(round(seconds / 0.05)):
            if ready():
                return
            self.run(0.05)
        raise AssertionError("not within the time")

    def record(self) -> Text | None:
        self.run(0.3)
        self.until(self.flow.scale_ready)
        return self.flow.record_scale()

    def scales(self, grams: float) -> None:
        """Zero both pans, then `grams` on each, as asked."""
        self.flow.reference = self.flow.reference.cleared()
        for key in f"{grams:g}":
            self.flow.reference = self.flow.reference.key(key)
        assert self.flow.choose_reference() and self.flow.step == SCALE
        assert self.record() is None  # zeroed
        for channel in (0, 1):
            self.sim.place(channel, grams=grams)
            assert self.record() is None
            self.sim.clear()
            self.run(0.5)

    def pieces(self) -> None:
        """Each asked piece on the left pan, lifted once weighed, until the report."""
        flow = self.flow
        while flow.step == PIECES:
            self.sim.place(0, flow.plan.ask.piece)
            self.until(lambda: flow.plan.lifting)
            self.sim.clear()
            self.until(lambda: not flow.plan.lifting)


def test_the_mass_offered_is_the_one_the_calibration_in_use_was_made_with():
    bench = Bench()
    assert bench.flow.step == MASS and bench.flow.reference.typed == "100"  # the factory's 100 g
    bench.flow.reference = bench.flow.reference.cleared().key("5")  # 5 g: under 10 g
    assert not bench.flow.choose_reference() and bench.flow.step == MASS and bench.flow.calibrator is None


def test_the_scales_refuse_a_moving_pan_and_name_the_pan_the_mass_lies_on():
    bench = Bench()
    flow = bench.flow
    flow.reference = flow.reference.cleared().key("2").key("0")
    assert flow.choose_reference()
    bench.sim.place(0, grams=20.0)
    bench.run(0.05)
    assert flow.record_scale() == Text("gunkan_ui.wizard_not_stable")  # still pressing
    bench.sim.clear()
    bench.run(1.0)
    assert bench.record() is None and flow.calibrator.index == 1  # zeroed
    assert flow.pan_state(0) == Text("gunkan_ui.wizard_still_empty")
    bench.sim.place(1, grams=20.0)  # the left pan is asked for
    bench.run(1.0)
    assert flow.pan_state(1) == Text("gunkan_ui.wizard_still_loaded")
    assert bench.record() == Text("gunkan_ui.wizard_wrong_pan", {"there": Text("gunkan_ui.wizard_right"),
                                                                 "here": Text("gunkan_ui.wizard_left")})
    bench.sim.clear()
    bench.run(1.0)
    assert bench.record() == Text("gunkan_ui.wizard_nothing_on", {"here": Text("gunkan_ui.wizard_left")})
    assert flow.calibrator.index == 1 and not flow.unsaved  # nothing recorded: nothing to lose
    bench.sim.place(0, grams=20.0)
    assert bench.record() is None and flow.calibrator.index == 2 and flow.unsaved and flow.weighed == 1


@pytest.mark.parametrize("rate", [80.0, 10.0])
def test_the_pieces_are_weighed_until_every_class_is_apart_and_the_calibration_is_saved(rate):
    bench = Bench(rate=rate)
    flow = bench.flow
    bench.scales(50.0)
    assert flow.step == PIECES and flow.report is None
    assert flow.ask() == Text("gunkan_ui.wizard_piece", {"fleet": Text("gunkan_ui.wizard_fleet_red"),
                                                         "piece": Text("gunkan.piece.carrier"), "k": 1})
    assert flow.progress() == (0.0, Text("gunkan_ui.wizard_progress", {"done": 0, "total": 20}))
    bench.pieces()
    assert flow.step == REPORT and flow.report is not None
    assert len(flow.plan.first) <= flow.plan.count < 30 and flow.weighed == flow.plan.count + 2
    assert flow.close_pairs() == []  # the factory pieces are apart
    assert not flow.counterweight_sensed()  # the stack weighs a carrier: the attacker's tap tells
    assert [c.name for c in flow.plotted()][-1] == STACKED
    data = flow.calibration()
    assert data["known_g"] == 50.0 and data["reference"]["typed"] == "50"
    assert data["scale_error"] == pytest.approx(flow.reference.error(flow.readings), abs=1e-5)
    assert {c["name"] for c in data["classes"]} >= {"carrier", "submarine", "counterweight"}
    assert flow.unsaved
    flow.use(data, saved=True)
    assert not flow.unsaved and flow.seesaw.calibration["classes"] == data["classes"]
    bench.sim.place(0, "destroyer")
    bench.until(lambda: flow.check().kind == "is", 9.0)  # read 10 times a second, a first class holds 5.2 s
    assert flow.check() == Check("is", ("destroyer",))
    bench.sim.clear()
    bench.until(lambda: flow.check() == Check("empty"))
    flow.start_over()
    assert flow.step == MASS and flow.report is None and flow.reference.typed == "50"


def test_leaving_half_way_keeps_the_calibration_in_use():
    bench = Bench()
    bench.scales(50.0)  # the scales are the new ones now...
    assert bench.flow.seesaw.pipeline.calibration() != bench.factory
    bench.flow.leave()  # ...until the wizard is left before its report
    assert bench.flow.seesaw.calibration == bench.factory


def test_the_counterweight_is_sensed_where_the_stack_weighs_apart_from_the_carrier():
    table = default_table()
    accept = JudgeConfig().accept_fraction
    assert not counterweight_sensed(table, accept)
    apart = {**table, "counterweight": dataclasses.replace(table["counterweight"], mass_g=11.0)}  # 23 g
    assert counterweight_sensed(apart, accept)
    assert not counterweight_sensed({k: v for k, v in table.items() if k != "counterweight"}, accept)


def zero_step(bench, grams="20") -> CalibrationFlow:
    flow = bench.flow
    flow.reference = flow.reference.cleared()
    for key in grams:
        flow.reference = flow.reference.key(key)
    assert flow.choose_reference()
    return flow


LEFT = Text("gunkan_ui.wizard_left")


def test_zero_on_a_loaded_pan_is_held_back_once_and_a_record_then_goes_back_to_zero():
    """Issue 43: ゼロ点 zeroed a pan holding the mass (shown 「静止」, not 空); every 記録 then said the
    pan held nothing, until やり直す. The calibration before tells a loaded pan; a record that finds
    the mass reading nothing goes back to ゼロ点."""
    bench = Bench()
    flow = zero_step(bench)
    bench.sim.place(0, grams=20.0)  # the mass put on before ゼロ点
    bench.run(1.0)
    assert flow.pan_state(0) == Text("gunkan_ui.wizard_still_loaded")
    assert flow.pan_state(1) == Text("gunkan_ui.wizard_still_empty")
    said = bench.record()
    assert said == Text("gunkan_ui.wizard_zero_loaded", {"pan": Text("gunkan_ui.off_zero_pan.left"), "g": "20"})
    assert flow.calibrator.index == 0  # not zeroed
    assert bench.record() is None and flow.calibrator.index == 1  # asked twice: taken (as if the zero moved)
    assert bench.record() == Text("gunkan_ui.wizard_zero_nothing", {"here": LEFT})  # the mass reads nothing
    assert flow.calibrator.index == 0 and flow.calibrator.step.kind == "tare"  # ゼロ点 again, not やり直す
    bench.sim.clear()
    bench.run(1.0)
    assert bench.record() is None  # empty: zeroed at once
    bench.sim.place(0, grams=20.0)
    assert bench.record() is None and flow.calibrator.index == 2


def test_a_pan_lighter_than_at_zero_goes_back_to_zero_and_so_does_nothing_on_a_new_build():
    bench = Bench()
    flow = zero_step(bench)
    bench.sim.place(1, grams=20.0)  # on the right pan at ゼロ点, taken on the second tap
    bench.run(1.0)
    assert bench.record() is not None and bench.record() is None and flow.calibrator.index == 1
    bench.sim.clear()
    bench.sim.place(0, grams=20.0)  # moved to the left pan, as asked: the right now reads -20 g
    assert bench.record() == Text("gunkan_ui.wizard_zero_lighter", {"here": Text("gunkan_ui.wizard_right")})
    assert flow.calibrator.index == 0

    new = Bench()  # a seesaw never calibrated: no earlier zero tells a loaded pan
    new.flow = CalibrationFlow(Seesaw(new.sim, None))
    new.run(1.0)
    flow = zero_step(new)
    new.sim.place(0, grams=20.0)
    new.run(1.0)
    assert flow.pan_state(0) == Text("gunkan_ui.wizard_still")
    assert new.record() is None and flow.calibrator.index == 1  # zeroed loaded: nothing could tell
    assert new.record() == Text("gunkan_ui.wizard_zero_nothing", {"here": LEFT})
    assert flow.calibrator.index == 0
