"""The electronics bay's clearances that assembly.md and bom.csv state are the model's
(seesaw.scad), and the model refuses a cover too low for the boards' upright plugs."""

import csv
import re
from pathlib import Path

import pytest
from openscad_cli import needs_openscad, run_openscad

ROOT = Path(__file__).resolve().parents[2] / "hardware"
MODEL = ROOT / "seesaw.scad"

pytestmark = needs_openscad


@pytest.fixture(scope="module")
def echoed(tmp_path_factory):
    result = run_openscad(MODEL, tmp_path_factory.mktemp("bay") / "x.csg")
    assert result.returncode == 0, result.stderr
    boards = re.search(r"2 HX711 boards (\d+) x (\d+) mm", result.stderr).groups()
    lift, cover, need = re.search(r"boards ([\d.]+) mm above the base; cover ([\d.]+) mm high inside, "
                                  r"upright plugs need ([\d.]+)", result.stderr).groups()
    return {"boards": tuple(map(int, boards)), "lift": float(lift), "cover": float(cover), "need": float(need)}


def row(name: str) -> str:
    return next(line for line in (ROOT / "assembly.md").read_text(encoding="utf-8").splitlines()
                if line.startswith(f"| {name}"))


def test_the_assembly_guide_states_the_models_clearances(echoed):
    assert row("boards' underside above the base").split("|")[2].strip() == f"{echoed['lift']:g} mm (`board_lift`)"
    length, width = echoed["boards"]
    assert row("HX711 board").split("|")[2].strip() == f"{length} × {width} mm (`hx711_board`)"
    assert f"| [{length}, {width}], [70, 30] |" in row("`hx711_board`, `pico_board`")
    cover = row("cover's inside height")
    assert cover.split("|")[2].strip() == f"{echoed['cover']:g} mm (`cover_height`)"
    assert f"= {echoed['need']:g} mm, {echoed['cover'] - echoed['need']:.1f} mm to spare" in cover


def test_the_bill_of_materials_names_the_board_size_the_rails_are_cut_to(echoed):
    with (ROOT / "bom.csv").open(newline="", encoding="utf-8") as f:
        hx711 = next(r for r in csv.DictReader(f) if r["part"].startswith("HX711"))
    length, width = echoed["boards"]
    assert f"about {length} x {width} mm, what seesaw.scad's rails are cut to" in hx711["what_to_look_for"]


def test_a_cover_too_low_for_upright_plugs_is_refused(tmp_path, echoed):
    result = run_openscad(MODEL, tmp_path / "x.csg", "cover_height=22")
    assert "ERROR: Assertion" in result.stderr
    assert f"the boards' upright Dupont plugs and their leads need {echoed['need']:g} mm" in result.stderr
