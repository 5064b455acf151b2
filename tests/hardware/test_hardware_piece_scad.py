"""hardware/piece.scad renders, and its cavity holds the fill hardware/pieces.md gives every
rank: the volumes are measured on the rendered STL, not taken from the model's own echo."""

import re
from pathlib import Path

import pytest
from openscad_cli import OPENSCAD, needs_openscad, run_openscad

from companion.games.gunkan.pieces import COUNTERWEIGHT, default_table

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "hardware" / "piece.scad"
PAGE = ROOT / "hardware" / "pieces.md"
STEEL_SHOT_SHARE = 0.75  # poured shot: at most three quarters of the cavity (pieces.md)


def openscad(out: Path, *defines: str):
    return run_openscad(MODEL, out, *defines)


def stl_volume_cm3(path: Path) -> float:
    """The enclosed volume of an ASCII STL (signed tetrahedra from the origin)."""
    total, corners = 0.0, []
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["vertex"]:
            corners.append(tuple(map(float, words[1:])))
        elif words[:1] == ["endfacet"]:
            (ax, ay, az), (bx, by, bz), (cx, cy, cz) = corners
            total += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6
            corners = []
    return total / 1000


def page_rows(first_header: str) -> list[dict[str, str]]:
    """The rows of the page's table whose header starts with `first_header`."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first_header))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, (c.strip() for c in line.strip("|").split("|")))))
    return rows


def densities() -> dict[str, float]:
    return {row["material"].split(",")[0]: float(row["used"]) for row in page_rows("| material |")}


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """(shell volume, cavity volume, echo text) of the default piece."""
    if OPENSCAD is None:
        pytest.skip("openscad is not installed (apt-get install openscad)")
    tmp = tmp_path_factory.mktemp("piece")
    shell = openscad(tmp / "piece.stl", "$fn=24")
    cavity = openscad(tmp / "cavity.stl", 'part="cavity"')
    for result in (shell, cavity):
        assert result.returncode == 0, result.stderr
        assert "WARNING" not in result.stderr and "ERROR" not in result.stderr, result.stderr
    return stl_volume_cm3(tmp / "piece.stl"), stl_volume_cm3(tmp / "cavity.stl"), shell.stderr


def test_the_echo_tells_the_measured_volumes_and_the_shells_mass(measured):
    shell_v, cavity_v, echo = measured
    volume, cavity, grams = map(float, re.search(
        r"volume ([\d.]+) cm3, cavity ([\d.]+) cm3, printed shell ([\d.]+) g", echo).groups())
    assert cavity == pytest.approx(cavity_v, abs=0.01)
    assert volume - cavity == pytest.approx(shell_v, abs=0.02)  # the trim recess is cut from the shell
    assert grams == pytest.approx(shell_v * densities()["PLA"], abs=0.02)
    steel, putty = map(float, re.search(r"steel shot ([\d.]+) g, tungsten putty ([\d.]+) g", echo).groups())
    assert steel == pytest.approx(grams + cavity_v * densities()["steel shot"], abs=0.1)
    assert putty == pytest.approx(grams + cavity_v * densities()["tungsten putty"], abs=0.1)


def test_every_rank_reaches_its_mass_with_the_fill_the_page_gives(measured):
    shell_v, cavity_v, _ = measured
    shell_g = shell_v * densities()["PLA"]
    rows = {row["piece"].strip("`"): row for row in page_rows("| piece | mass (g) | fill |")}
    table = default_table()
    assert set(rows) == set(table) - {COUNTERWEIGHT}  # every rank, one shell
    for name, row in rows.items():
        mass, fill_g = float(row["mass (g)"]), float(row["fill (g)"])
        assert mass == table[name].mass_g, name
        assert 0.2 <= mass - shell_g - fill_g <= 0.5, name  # the rest is the trim tape
        share = fill_g / densities()[row["fill"]] / cavity_v
        limit = STEEL_SHOT_SHARE if row["fill"] == "steel shot" else 1.0
        assert share <= limit, name
        assert float(row["share of the cavity"].rstrip(" %")) == pytest.approx(100 * share, abs=1), name
    steel_only = shell_g + cavity_v * densities()["steel shot"]
    assert steel_only < max(c.mass_g for c in table.values())  # why tungsten: shot alone falls short


@needs_openscad
@pytest.mark.parametrize("defines, message", [
    (["trim_depth=1.5"], "the trim recess would open the cavity"),
    (["thickness=4"], "too thin for a cavity"),
    (['part="box"'], "unknown part"),
])
def test_impossible_sizes_are_refused_with_a_reason(tmp_path, defines, message):
    result = openscad(tmp_path / "x.csg", *defines)
    assert "ERROR: Assertion" in result.stderr and message in result.stderr
