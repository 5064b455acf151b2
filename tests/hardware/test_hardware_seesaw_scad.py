"""hardware/seesaw.scad renders with OpenSCAD: the assembly, every printed part, refusals of bad sizes."""

import csv
import re
from pathlib import Path

import pytest
from openscad_cli import needs_openscad, run_openscad

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "hardware" / "seesaw.scad"

pytestmark = needs_openscad


def openscad(out: Path, *defines: str):
    return run_openscad(MODEL, out, *defines)


@pytest.mark.parametrize("part", ["assembly", "exploded", "carrier", "pan", "cover", "cell_mount"])  # with the base
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
    result = openscad(tmp_path / "x.csg", "cell_length=75", "free_thread=5", "pan_diameter=90",
                      "pan_spacing=110", "base_length=260", "base_width=150", "bed=300")
    assert result.returncode == 0 and "ERROR" not in result.stderr, result.stderr
    assert "base 260 x 150 mm" in result.stderr


@pytest.mark.parametrize("defines, message", [
    (["pan_spacing=60"], "the two cells would touch"),
    (["pan_diameter=120"], "the pans would touch"),
    (["base_length=150"], "too short"),
    (["base_width=110"], "electronics bay behind the pans is only 37 mm deep"),
    (["cell_y=-30"], "the pans overhang the base's front edge"),
    (['part="lid"'], "unknown part"),
    (["pan_spacing=100"], "do not fit a 220 mm bed; use at most 204"),
    (["hx711_board=[60, 22]"], "the boards need 214 mm of the bay's length"),
    (["pico_board=[70, 50]"], "do not fit the 42 mm bay under its cover"),
    # measured cells whose sizes collide
    (["cell_hole_pitch=9"], "the two screw heads at one end would collide (their counterbores are 9.8 mm across)"),
    (["cell_clamp=31"], "leaves only 18 mm of the cell's middle free to bend"),
    (["cell_hole_inset=4"], "counterbore would break out of the pedestal's end"),
    (["cell_width=6"], "an M5 thread does not fit a 6 mm bar"),
    (["cell_hole_pitch=17"], "cell_clamp 25 mm must cover both holes at one end of the cell (they reach 27 mm"),
])
def test_impossible_sizes_are_refused_with_a_reason(tmp_path, defines, message):
    result = openscad(tmp_path / "x.csg", *defines)
    assert "ERROR: Assertion" in result.stderr and message in result.stderr


def test_bill_of_materials_screws_fit_the_threads_and_lengths_the_model_asks_for(tmp_path):
    result = openscad(tmp_path / "x.csg")
    asked = re.findall(r"4 x M(\d) from (below|above) into the (fixed|free) ends, (\d+)-(\d+) mm long", result.stderr)
    assert [(m, end) for m, _, end, _, _ in asked] == [("5", "fixed"), ("4", "free")]  # the common bar cell
    with (ROOT / "hardware" / "bom.csv").open(newline="") as f:
        rows = {r["part"]: r for r in csv.DictReader(f)}
    for thread, _, _, low, high in asked:
        row = next(r for part, r in rows.items() if part.startswith(f"Screws M{thread} x "))
        length = int(re.match(rf"Screws M{thread} x (\d+)", row["part"]).group(1))
        assert int(low) <= length <= int(high) and row["quantity"] == "4", row


def test_the_base_leaves_room_for_a_brim_on_a_220_mm_bed(tmp_path):
    result = openscad(tmp_path / "x.csg")
    length = int(re.search(r"base (\d+) x", result.stderr).group(1))
    assert length + 2 * 8 <= 220


def test_the_stop_is_reached_through_the_carriers_lip(tmp_path):
    """A 2.5 mm hex key's hole goes right through the carrier above the stop screw."""
    openscad(tmp_path / "carrier.stl", "$fn=16", 'part="carrier"')
    points = {p for _, v in facets((tmp_path / "carrier.stl").read_text()) for p in v}
    stop_x, centre_y = 80 + 2 + 8 / 2, 12.7 / 2  # cell_length + 2 + stop_boss_diameter / 2
    rim = [z for x, y, z in points if abs(((x - stop_x) ** 2 + (y - centre_y) ** 2) ** 0.5 - 1.6) < 1e-3]
    assert rim and min(rim) == pytest.approx(0) and max(rim) == pytest.approx(9)  # the carrier's whole height


def facets(stl: str) -> list[tuple[tuple[float, ...], list[tuple[float, ...]]]]:
    """(normal, vertices) of every facet of an ASCII STL."""
    out = []
    for block in stl.split("facet normal")[1:]:
        numbers = [tuple(map(float, line.split()[-3:])) for line in block.splitlines()
                   if line.strip().startswith("vertex")]
        out.append((tuple(map(float, block.split()[:3])), numbers))
    return out


def flat(faces, up: bool):
    """The horizontal facets facing up (or down): (z, centre x, centre y)."""
    return [(v[0][2], sum(p[0] for p in v) / 3, sum(p[1] for p in v) / 3)
            for n, v in faces if abs(n[2]) > 0.999 and (n[2] > 0) == up]


def test_screw_grips_echoed_are_the_plastic_under_the_heads(tmp_path):
    """Measured on the rendered parts, not computed like the model does: the base's
    counterbore ceilings against its pedestal tops, the carrier's against its top face."""
    result = openscad(tmp_path / "base.stl", "$fn=8", 'part="base"')
    fixed = [(int(a), int(b)) for a, b in re.findall(r"(\d+)-(\d+) mm long", result.stderr)]
    faces = facets((tmp_path / "base.stl").read_text())
    ceilings = [f for f in flat(faces, up=False) if f[0] > 0.01 and f[2] < 0]  # counterbores (the bay is behind)
    assert ceilings
    tops = {round(z, 2) for z, x, y in flat(faces, up=True)
            if any(abs(x - cx) < 8 and abs(y - cy) < 8 for _, cx, cy in ceilings)}
    grip = max(tops) - max(z for z, _, _ in ceilings)
    assert fixed[0] == (round(grip) + 6, round(grip) + 10)

    openscad(tmp_path / "carrier.stl", "$fn=8", 'part="carrier"')
    faces = facets((tmp_path / "carrier.stl").read_text())
    z_cell = max(v[0][2] for n, v in faces)  # printed top face down: the face on the cell is up
    seats = [z for z, _, _ in flat(faces, up=False) if 0.01 < z < z_cell - 0.01]  # where the heads rest
    assert fixed[1] == (round(z_cell - max(seats)) + 6, round(z_cell - max(seats)) + 10)


def test_the_pan_countersink_takes_an_iso_10642_m3_head_flush(tmp_path):
    openscad(tmp_path / "pan.stl", "$fn=16", 'part="pan"')
    points = {p for _, v in facets((tmp_path / "pan.stl").read_text()) for p in v}
    floor_top = 3.0
    ring = [(x * x + y * y) ** 0.5 for x, y, z in points if abs(z - floor_top) < 1e-6 and x * x + y * y < 25]
    assert max(ring) * 2 == pytest.approx(6.72, abs=0.01)  # ISO 10642 M3: head at most 6.72 mm
    bottom = [z for x, y, z in points if abs((x * x + y * y) ** 0.5 - 1.7) < 1e-3 and 0 < z < floor_top]
    assert floor_top - min(bottom) == pytest.approx((6.72 - 3.4) / 2, abs=0.01)  # 90°, as the head


def test_the_electronics_bay_is_behind_the_pans(tmp_path):
    result = openscad(tmp_path / "x.csg")
    depth, clear = map(float, re.search(r"electronics bay \d+ x ([\d.]+) mm behind the pans, ([\d.]+) mm clear",
                                        result.stderr).groups())
    assert depth >= 38 and clear > 0


def test_the_measure_then_print_check_runs_as_the_guide_gives_it(tmp_path):
    """assembly.md's command with its example measurements echoes the sizes, and every parameter
    its table names is one seesaw.scad has."""
    guide = (ROOT / "hardware" / "assembly.md").read_text(encoding="utf-8")
    section = guide.split("## Measure, then print", 1)[1].split("\n## ", 1)[0]
    command = re.search(r"^openscad -o /tmp/check.csg (.*) hardware/seesaw.scad$", section, re.M).group(1)
    defines = [d.strip("'") for d in re.findall(r"-D ('[^']*'|\S+)", command)]
    result = openscad(tmp_path / "check.csg", *defines)
    assert "ERROR" not in result.stderr and "screws: 4 x M5" in result.stderr, result.stderr
    scad = MODEL.read_text()
    named = re.findall(r"`(\w+)`", "".join(line.split("|")[3] for line in section.splitlines() if line.startswith("| ")
                                           and not line.startswith("| measure")))
    assert len(named) >= 14
    for name in named:
        assert re.search(rf"^{name} = ", scad, re.M), name
        assert name in scad.split("// Measure, then print", 1)[1].split("OpenSCAD refuses", 1)[0], name
