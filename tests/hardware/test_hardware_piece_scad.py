"""hardware/piece.scad renders every part cleanly and refuses impossible sizes with a reason
(what each rank holds is tests/hardware/test_hardware_masses.py's)."""

from pathlib import Path

import pytest
from openscad_cli import needs_openscad, run_openscad

MODEL = Path(__file__).resolve().parents[2] / "hardware" / "piece.scad"


@needs_openscad
@pytest.mark.parametrize("part", ["piece", "cavity", "section", "cap", "cap_on_piece"])
def test_every_part_renders_without_a_warning(tmp_path, part):
    result = run_openscad(MODEL, tmp_path / "x.stl", f'part="{part}"', "$fn=24")
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr and "ERROR" not in result.stderr, result.stderr


@needs_openscad
@pytest.mark.parametrize("defines, message", [
    (["trim_depth=1.5"], "the trim recess would open the cavity"),
    (["thickness=4"], "too thin for a cavity"),
    (["washers=9"], "washers: 1 to 7"),
    (["floor_roof=1.3"], "the roof would start inside a 0.2 mm layer"),
    (['part="box"'], "unknown part"),
])
def test_impossible_sizes_are_refused_with_a_reason(tmp_path, defines, message):
    result = run_openscad(MODEL, tmp_path / "x.csg", *defines)
    assert "ERROR: Assertion" in result.stderr and message in result.stderr
