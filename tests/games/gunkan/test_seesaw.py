"""The seesaw glue over the simulator, on a manual clock."""

import dataclasses

import pytest

from companion.sensing.judge import BALANCED, LEFT, REWEIGH, RIGHT, JudgeConfig, Verdict
from companion.games.gunkan.pieces import PieceClass, default_table
from companion.games.gunkan.seesaw import (
    COMPARISON, EMPTY, LOADED, REFUSED, Identities, Seesaw, identities, table_from, virtual_calibration,
)
from companion.sensing.simulator import ManualClock, SimulatedSeesaw


class Rig:
    def __init__(self, calibration="virtual", seed=3, table=None, rate=80.0, source=None, wanted=None):
        self.clock = ManualClock(0.0)
        self.sim = SimulatedSeesaw(seed=seed, rate_hz=rate, clock=self.clock, table=default_table() if table is None else table)
        cal = virtual_calibration(self.sim) if calibration == "virtual" else calibration
        self.seesaw = Seesaw(source(self.sim) if source else self.sim, cal, rate_hz=wanted)
        self.run(1.0)

    def run(self, seconds):
        for _ in range(round(seconds / 0.05)):
            self.clock.advance(0.05)
            self.seesaw.poll()

    def weigh(self, left, right, timeout=9.0):  # read 10 times a second, a first class holds 5.2 s
        self.seesaw.reset()
        for piece in left.split(","):
            self.sim.place(0, piece)
            self.run(0.2)
        self.sim.place(1, right)
        return self.verdict(timeout)

    def verdict(self, timeout):
        for _ in range(round(timeout / 0.05)):
            self.run(0.05)
            verdict = self.seesaw.battle()
            if verdict.final:
                return verdict
        raise AssertionError("no verdict")

    def clear(self):
        self.sim.clear()
        self.run(1.0)


@pytest.fixture(scope="module")
def rig():
    return Rig()


def test_empty_pans_read_empty_and_pieces_loaded(rig):
    assert [rig.seesaw.pan(c).kind for c in (0, 1)] == [EMPTY, EMPTY]
    rig.sim.place(0, "cruiser")
    rig.run(1.0)
    assert rig.seesaw.pan(0).kind == LOADED and rig.seesaw.pan(1).kind == EMPTY
    grams, noise = rig.seesaw.settled(0)
    assert abs(grams - 18.0) < 0.5 and noise < 0.2
    rig.clear()
    assert rig.seesaw.pan(0).kind == EMPTY


class Unmeasured:
    """A hardware source before its reader has measured the rate (status says 0)."""

    def __init__(self, sim):
        self.sim, self.channels = sim, sim.channels

    def poll(self):
        return self.sim.poll()

    def status(self):
        return dataclasses.replace(self.sim.status(), rate_hz=0.0)


@pytest.mark.parametrize("rate", [10.0, 80.0])
def test_a_still_weight_is_judged_over_time_at_either_rate(rate):
    rig = Rig(rate=rate)
    rig.sim.place(0, "cruiser")
    rig.run(0.25 + 2 / rate)  # the HX711's filter shows a change two periods late (docs/hx711.md)
    assert rig.seesaw.settled(0) is None  # still moving, and at 10/s not 6 readings yet
    rig.run(1.5 - 2 / rate)
    grams, noise = rig.seesaw.settled(0)
    assert abs(grams - default_table()["cruiser"].mass_g) < 0.5 and 0 < noise < 0.2


@pytest.mark.parametrize("wanted", [None, 10, 80])
def test_the_rate_in_use_is_the_measured_one_and_a_wrong_setting_warns(wanted):
    rig = Rig(rate=10.0, source=Unmeasured, wanted=wanted)
    assert rig.seesaw.rate_hz == 80.0  # the guess until measured: on a slower board its sample windows only last longer
    rig.run(1.5)
    assert rig.seesaw.rate_hz == pytest.approx(10.0, rel=0.03)
    warning = rig.seesaw.rate_warning()
    assert warning is None if wanted != 80 else warning == (80.0, pytest.approx(10.0, rel=0.03))
    assert rig.weigh("destroyer", "cruiser").kind == RIGHT  # the judge runs at the measured rate


@pytest.mark.parametrize("left,right,kind", [
    ("battleship", "cruiser", LEFT), ("landing_ship", "minesweeper", RIGHT),
    ("destroyer", "destroyer", BALANCED), ("submarine,counterweight", "carrier", BALANCED),
])
def test_battles_compare_like_the_wooden_seesaw(rig, left, right, kind):
    verdict = rig.weigh(left, right)
    rig.clear()
    assert verdict.kind == kind
    assert COMPARISON[verdict.kind] in ("attacker_heavier", "defender_heavier", "balanced")


def test_identities_of_ships_mines_and_the_port(rig):
    for left, right in (("battleship", "cruiser"), ("minesweeper", "mine"), ("landing_ship", "port")):
        verdict = rig.weigh(left, right)
        rig.clear()
        assert identities(verdict) == Identities(left, right, False)


def test_counterweight_is_the_attackers_tap_when_it_weighs_like_the_carrier(rig):
    assert not rig.seesaw.counterweight_sensed
    stacked = rig.weigh("submarine,counterweight", "battleship")
    rig.clear()
    assert identities(stacked, counterweight_tap=True) == Identities("submarine", "battleship", True)
    assert identities(stacked, counterweight_tap=False) == Identities("carrier", "battleship", False)
    bare = rig.weigh("battleship", "cruiser")
    rig.clear()
    assert identities(bare, counterweight_tap=True).redo == "counterweight_not_allowed"


def test_a_weight_between_classes_asks_for_a_reweigh(rig):
    rig.seesaw.reset()
    rig.sim.place(0, grams=21.0)  # between battleship and carrier
    rig.sim.place(1, "cruiser")
    verdict = rig.verdict(5.0 + JudgeConfig().sparse_confirm_s)  # a finger may rest on it first (issue 44)
    rig.clear()
    assert verdict.kind == REWEIGH
    assert identities(verdict).redo == "reweigh"


def test_what_is_not_a_single_ship_on_the_attackers_pan_is_refused():
    assert identities(Verdict(RIGHT, 0.0, "mine", "port")).redo == "not_a_ship"
    assert identities(Verdict(LEFT, 0.0, "cruiser|destroyer", "port")).redo == "reweigh"
    assert identities(Verdict(LEFT, 0.0, "cruiser", "minesweeper|submarine")).redo == "reweigh"


def test_measured_classes_can_make_the_counterweight_sensed():
    heavy = {**default_table(), "counterweight": PieceClass("counterweight", 12.0, 0.1)}
    classes = [c.to_json() for c in heavy.values()]  # submarine + counterweight = 24 g
    rig = Rig(table=heavy)
    rig.seesaw.apply_calibration({**virtual_calibration(rig.sim), "classes": classes})
    assert table_from({"classes": classes}) == heavy
    assert rig.seesaw.counterweight_sensed
    verdict = rig.weigh("submarine,counterweight", "carrier")
    assert verdict.kind == LEFT
    assert identities(verdict) == Identities("submarine", "carrier", True)


def test_without_a_calibration_the_pans_are_refused():
    rig = Rig(calibration=None)
    assert not rig.seesaw.calibrated
    assert rig.seesaw.pan(0).kind == REFUSED
    assert not rig.seesaw.battle().final


def test_a_quick_swap_of_pieces_is_noticed_between_two_looks(rig):
    rig.sim.place(0, "cruiser")
    rig.run(1.0)
    rig.seesaw.mark()
    rig.run(0.5)
    assert not rig.seesaw.changed
    rig.sim.remove(0)
    rig.clock.advance(0.3)
    rig.sim.place(0, "destroyer")
    rig.run(1.0)  # loaded at both looks, yet the swap was seen
    assert rig.seesaw.changed and rig.seesaw.pan(0).kind == LOADED
    rig.clear()


def park_while_the_zero_drifts(rig, pan, piece, grams, minutes=5.0):
    """A piece parked on a pan for minutes while that pan's zero moves by `grams`, then taken off."""
    rig.sim.place(pan, piece)
    rig.run(1.0)
    rig.sim.move_zero(pan, grams, rig.clock(), minutes * 60.0)
    rig.clock.advance(minutes * 60.0)
    rig.run(1.0)
    rig.sim.remove(pan)
    rig.run(1.5)


@pytest.mark.parametrize("rate", [80.0, 10.0])
def test_a_zero_that_drifted_under_a_parked_piece_is_zeroed_before_the_next_battle(rate):
    """Issue 44's repro: a cruiser parked 5 min while the left zero drifts 1.2 g, taken off, then
    battleship against battleship: without zeroing between battles the left was named a carrier."""
    rig = Rig(seed=5, rate=rate)
    park_while_the_zero_drifts(rig, 0, "cruiser", 1.2)
    assert rig.seesaw.pan(0).kind == EMPTY and rig.seesaw.pipeline.latest(0).grams > 0.9  # empty, but off
    assert rig.seesaw.rezero() == []
    rig.run(0.5)
    assert abs(rig.seesaw.pipeline.latest(0).grams) < 0.3
    verdict = rig.weigh("battleship", "battleship", timeout=8.0)
    assert (verdict.kind, verdict.left, verdict.right) == (BALANCED, "battleship", "battleship")


def test_a_pan_further_from_zero_than_a_cell_drifts_is_not_zeroed_but_named():
    rig = Rig(seed=6)
    park_while_the_zero_drifts(rig, 1, "cruiser", 4.5)
    assert rig.seesaw.rezero() == [1]
    assert rig.seesaw.pipeline.latest(1).grams > 4.0  # kept: the players are asked to clear the pan
    rig.sim.place(0, "mine")
    rig.run(1.0)
    assert rig.seesaw.rezero() == [0, 1]  # a piece lying there is never zeroed away
