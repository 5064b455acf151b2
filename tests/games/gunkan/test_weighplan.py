"""The calibration wizard's stopping rule, on the simulated seesaw at 10 and 80 samples/s."""

import pytest

from companion.games.gunkan.pieces import default_table
from companion.games.gunkan.weighplan import MOST_PER_CLASS, first_round, scripted
from companion.sensing.classes import PieceClass


@pytest.mark.parametrize("rate", [80, 10])
def test_stops_early_on_well_separated_classes(rate):
    plan, seconds = scripted(seed=3, rate_hz=rate)
    report = plan.build()
    assert report.apart and not report.warnings  # the factory pieces: 2 g apart, ±0.3 g
    assert len(first_round()) <= plan.count < 30  # not the 60 of a fixed plan
    assert all(n.margin_sigma >= 3.5 for n in report.neighbours)


@pytest.mark.parametrize("rate", [80, 10])
def test_does_not_stop_while_two_classes_overlap(rate):
    table = {**default_table(), "destroyer": PieceClass("destroyer", 17.5, 0.3)}  # cruiser 18.0 ± 0.3
    plan, _ = scripted(seed=3, rate_hz=rate, table=table)
    report = plan.build()
    assert len(plan.values["cruiser"]) == len(plan.values["destroyer"]) == MOST_PER_CLASS
    assert {"cruiser", "destroyer"} <= set(report.unsure)
    pair = next(n for n in report.neighbours if {n.lighter, n.heavier} == {"cruiser", "destroyer"})
    assert not pair.apart
    assert any("cruiser" in w and "destroyer" in w for w in report.warnings)
    assert len(plan.values["port"]) == 2  # the classes far from the trouble were not asked again
