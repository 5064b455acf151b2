"""hardware/seesaw.scad renders with OpenSCAD: the assembly, every printed part, refusals of bad sizes."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "hardware" / "seesaw.scad"
OPENSCAD = shutil.which("openscad")

pytestmark = pytest.mark.skipif(OPENSCAD is None, reason="openscad is not installed (apt-get install openscad)")


def openscad(out: Path, *defines: str) -> subprocess.CompletedProcess:
    args = [OPENSCAD, "-o", str(out)]
    for define in defines:
        args += ["-D", define]
    return subprocess.run(args + [str(MODEL)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("part", ["assembly", "carrier", "pan"])  # the assembly holds the base
def test_part_renders_to_a_clean_stl(tmp_path, part):
    # coarse circles ($fn=8) keep the CGAL render quick; the shapes are the same
    result = openscad(tmp_path / "part.stl", "$fn=8", f'part="{part}"')
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr and "ERROR" not in result.stderr, result.stderr
    stl = (tmp_path / "part.stl").read_text()
    assert stl.count("facet normal") > 12


def test_default_is_the_assembly(tmp_path):
    result = openscad(tmp_path / "x.csg")
    assert result.returncode == 0 and "ERROR" not in result.stderr, result.stderr
    text = (tmp_path / "x.csg").read_text()
    assert text.count("color(") >= 7  # base, two cells, two carriers, two pans


def test_other_cells_and_sizes_are_accepted(tmp_path):
    result = openscad(tmp_path / "x.csg", "cell_length=75", "cell_thread=5", "pan_diameter=90",
                      "pan_spacing=110", "base_length=260")
    assert result.returncode == 0 and "ERROR" not in result.stderr, result.stderr
    assert "base 260 x 120 mm" in result.stderr


@pytest.mark.parametrize("defines, message", [
    (["pan_spacing=60"], "the two cells would touch"),
    (["pan_diameter=120"], "the pans would touch"),
    (["base_length=150"], "too short"),
    (['part="lid"'], "unknown part"),
])
def test_impossible_sizes_are_refused_with_a_reason(tmp_path, defines, message):
    result = openscad(tmp_path / "x.csg", *defines)
    assert "ERROR: Assertion" in result.stderr and message in result.stderr


def test_bill_of_materials_screws_fit_the_lengths_the_model_asks_for(tmp_path):
    result = openscad(tmp_path / "x.csg")
    ranges = [tuple(map(int, r)) for r in re.findall(r"(\d+)-(\d+) mm long", result.stderr)]
    assert len(ranges) == 2
    with (ROOT / "hardware" / "bom.csv").open(newline="") as f:
        lengths = [int(m.group(1)) for row in f if (m := re.search(r"Screws M4 x (\d+)", row))]
    assert lengths and all(low <= length <= high for length in lengths for low, high in ranges)
