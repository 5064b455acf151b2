"""hardware/piecesets.py: each set of masses keeps the judge's margins, computed on the judge's own
classes; the standard set is the table the app and the simulator use."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hardware"))
import piecesets  # noqa: E402

from companion.games.gunkan import pieces  # noqa: E402


def test_the_standard_set_is_the_apps_default_table():
    assert piecesets.SETS[piecesets.DEFAULT_SET] == pieces.DEFAULT_MASSES_G
    assert piecesets.table(piecesets.SETS["standard"]) == pieces.default_table()


@pytest.mark.parametrize("name", sorted(piecesets.SETS))
def test_every_set_keeps_the_judges_margins(name):
    masses = piecesets.SETS[name]
    assert piecesets.problems(name, masses) == []
    tight = piecesets.tightest(masses)
    # the figure: battleship 20 g against a submarine with the counterweight, 22 ± 0.4 g
    assert (tight.lighter, tight.heavier) == ("battleship", "submarine+counterweight")
    assert tight.gap_g == pytest.approx(21.6 - 20.3 - 2 * 0.005 * 22) and tight.sigmas > 20


def test_every_set_weighs_the_counterweight_as_carrier_less_submarine():
    for masses in piecesets.SETS.values():
        assert masses["counterweight"] == masses["carrier"] - masses["submarine"]


def test_the_tightest_pair_is_found_past_a_class_of_equal_mass():
    """The carrier and a submarine carrying the counterweight weigh 22 g alike: the battleship's
    nearest on the attacker's pan is the one with the wider spread, whichever sorts first."""
    margins = piecesets.margins(piecesets.SETS["standard"])
    attacker = [m for m in margins if m.pan == "attacker's" and m.lighter == "battleship"]
    assert min(attacker, key=lambda m: m.gap_g).heavier == "submarine+counterweight"
    assert not any({m.lighter, m.heavier} == {"carrier", "submarine+counterweight"} for m in margins)


def test_masses_too_close_are_refused_with_the_pair_and_its_gap():
    crowded = {**piecesets.SETS["economy"], "port": 9.0}  # 1 g from the landing ship
    found = piecesets.problems("crowded", crowded)
    assert found and "landing_ship" in found[0] and "port" in found[0] and "under the 6σ" in found[0]


def test_the_margin_rule_is_the_one_pieces_md_documents():
    text = (Path(__file__).resolve().parents[2] / "hardware" / "pieces.md").read_text(encoding="utf-8")
    assert f"σ ≈ {piecesets.SIGMA_G:g} g per reading" in text
    assert f"keeps *e* under {piecesets.SCALE_ERROR * 100:g} %" in text
    assert f"must stay above about {piecesets.MIN_SIGMAS:g}σ" in text


@pytest.mark.parametrize("seed", [3, 4])
def test_the_judge_tells_every_economy_piece_apart_on_the_simulated_seesaw(seed):
    """Once calibrated with the economy set's masses, the judge names a 6 g mine and an 8 g port
    (not an empty pan) and every ship, through the pipeline, with hands putting them down."""
    from companion.sensing.judge import Judge
    from companion.sensing.pipeline import Pipeline
    from companion.sensing.simulator import ManualClock, Realism, SimulatedSeesaw

    rate, step = 80.0, 0.05
    table = piecesets.table(piecesets.SETS["economy"])
    clock = ManualClock()
    sim = SimulatedSeesaw(seed=seed, rate_hz=rate, clock=clock, realism=Realism(), table=table)
    pipe = Pipeline(rate_hz=rate)
    judge = Judge(*pieces.pan_classes(table), rate_hz=rate)

    def run(seconds):
        for _ in range(round(seconds / step)):
            clock.advance(step)
            judge.feed_all(pipe.feed(sim.poll()))

    run(1.0)
    pipe.tare()
    for ch in (0, 1):
        sim.place(ch, grams=100.0)
        run(1.5)
        pipe.channels[ch].calibrate(100.0)
        sim.remove(ch)
        run(1.0)
    named = {}
    for name in sorted(set(table) - {"counterweight"}, key=lambda n: table[n].mass_g):
        judge.reset()
        sim.place(1, name)
        run(8.0)  # a slow release takes up to 5 s
        found = judge.identified(1)
        named[name] = found[1].group.name if found and found[1].group else (found[1].kind if found else None)
        sim.clear()
        run(1.5)
    assert named == {name: name for name in named}
