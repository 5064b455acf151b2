"""Every part hardware/'s models export for printing prints as exported, without supports
(hardware/overhangs.py), and the check tells bridges and short ledges from what would sag."""

import math
import sys
from pathlib import Path

import pytest
from openscad_cli import needs_openscad, run_openscad

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import overhangs  # noqa: E402
import stlio  # noqa: E402

pytestmark = needs_openscad


def test_every_exported_part_prints_without_supports(tmp_path):
    found = overhangs.check_models(tmp_path, "$fn=24")
    assert set(found) == {"seesaw.scad:base", "seesaw.scad:carrier", "seesaw.scad:pan", "seesaw.scad:cover",
                          "piece.scad:piece", "piece.scad:cap"}
    assert {name: [str(o) for o in faults] for name, faults in found.items() if faults} == {}


def test_every_printed_part_is_one_the_models_tell_a_builder_to_export():
    for model, parts in overhangs.PRINTED.items():
        text = (ROOT / "hardware" / model).read_text()
        for part in parts:
            assert f"part=\"{part}\"" in text.replace("'", "") or (model, part) == ("piece.scad", "piece"), part
    assert "openscad -o piece.stl hardware/piece.scad" in (ROOT / "hardware" / "piece.scad").read_text()


def faults(tmp_path, scad: str) -> list:
    model = tmp_path / "shape.scad"
    model.write_text(scad)
    result = run_openscad(model, tmp_path / "shape.stl", "$fn=32")
    assert result.returncode == 0, result.stderr
    return overhangs.overhangs(stlio.triangles((tmp_path / "shape.stl").read_text()))


def test_a_plate_standing_on_a_boss_needs_supports(tmp_path):
    """The counterweight's cap as it was exported: a 29 x 33 mm plate on an 18.8 mm boss."""
    found = faults(tmp_path, "cylinder(d = 18.8, h = 6.6); translate([-14.6, -16.6, 6.6]) cube([29.2, 33.2, 4.2]);")
    assert len(found) == 1 and not found[0].sloped and found[0].z == pytest.approx(6.6)
    assert 29.2 * 33.2 - 3.14159 * 9.4 ** 2 > found[0].area_mm2 > 300  # less what the ledges reach


@pytest.mark.parametrize("span, prints", [(10, True), (11.8, True), (14, False), (20, False)])
def test_a_bridge_prints_up_to_its_span(tmp_path, span, prints):
    """Two pillars and a deck between them, 10 mm above the bed."""
    found = faults(tmp_path, f"for (x = [-5, {span}]) translate([x, 0, 0]) cube([5, 8, 12]); "
                             f"translate([0, 0, 10]) cube([{span}, 8, 2]);")
    assert (found == []) is prints, found


@pytest.mark.parametrize("reach, prints", [(1.2, True), (2.4, True), (3.5, False), (8, False)])
def test_a_ledge_prints_only_when_short(tmp_path, reach, prints):
    """A wall and a shelf sticking out of it, 8 mm above the bed, held at one end only."""
    found = faults(tmp_path, f"cube([5, 20, 10]); translate([5, 0, 8]) cube([{reach}, 20, 2]);")
    assert (found == []) is prints, found


def test_a_ring_round_a_hole_is_no_bridge(tmp_path):
    """A 14 mm counterbore under a 5 mm hole: the ring reaches 4.5 mm past its wall, and the
    hole breaks every stretch across it, so it is neither a ledge nor a bridge."""
    found = faults(tmp_path, "difference() { cube([30, 30, 10], center = true); "
                             "translate([0, 0, -6]) cylinder(d = 14, h = 6); cylinder(d = 5, h = 20, center = true); }")
    assert len(found) == 1 and found[0].z == pytest.approx(5)
    narrow = faults(tmp_path, "difference() { cube([30, 30, 10], center = true); "
                              "translate([0, 0, -6]) cylinder(d = 9.4, h = 6); cylinder(d = 5, h = 20, center = true); }")
    assert narrow == []  # 2.2 mm: a ledge, like the base's counterbores


@pytest.mark.parametrize("angle, prints", [(30, True), (44, True), (50, False), (60, False)])
def test_a_slope_prints_while_it_is_steep(tmp_path, angle, prints):
    """A wall leaning out `angle`° from vertical."""
    run = 10 * math.tan(math.radians(angle))
    found = faults(tmp_path, f"rotate([90, 0, 0]) linear_extrude(10) polygon([[0, 0], [5, 0], [5 + {run}, 10], [0, 10]]);")
    assert (found == []) is prints, found
    assert all(o.sloped for o in found)
