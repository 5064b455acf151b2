"""hardware/bom.csv: well formed, and both build paths are complete."""

import csv
import re
from pathlib import Path

BOM = Path(__file__).resolve().parents[2] / "hardware" / "bom.csv"
PATHS = {"both", "gpio", "pico"}
PIECES = {"any", "standard", "economy"}  # hardware/piecesets.py's sets


def rows() -> list[dict]:
    with BOM.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["path", "pieces", "part", "quantity", "what_to_look_for", "rough_price_usd"]
        return list(reader)


def test_every_row_is_complete():
    for row in rows():
        assert row["path"] in PATHS and row["pieces"] in PIECES, row
        assert row["part"] and row["what_to_look_for"], row
        assert int(row["quantity"]) > 0, row
        assert float(row["rough_price_usd"]) >= 0, row


def parts(path: str) -> str:
    return " ".join(r["part"] + " " + r["what_to_look_for"] for r in rows() if r["path"] in ("both", path)).lower()


def test_each_path_has_its_essential_parts():
    for path in ("gpio", "pico"):
        text = parts(path)
        for needed in ("raspberry pi 4", "800x480", "load cell 1 kg", "hx711", "3d-printed", "calibration weight"):
            assert needed in text, (path, needed)
    assert "pico" in parts("pico") and "usb" in parts("pico")


def test_two_load_cells_and_two_amplifiers():
    quantity = {r["part"]: int(r["quantity"]) for r in rows()}
    assert quantity["Load cell 1 kg straight bar"] == 2
    assert quantity["HX711 load-cell amplifier board"] == 2


def test_the_tools_a_builder_needs_are_listed():
    tools = next(r for r in rows() if r["part"] == "Tools")["what_to_look_for"].lower()
    for tool in ("soldering iron", "multimeter", "hex keys 2.5 / 3 / 4 mm", "wire stripper", "crimper"):
        assert tool in tools, tool


def test_every_lead_says_its_length_and_gauge():
    leads = [r for r in rows() if "jumper" in r["part"].lower() or "usb cable" in r["part"].lower()]
    assert leads
    for row in leads:
        assert re.search(r"\d+ (cm|m)\b", row["part"]), row["part"]
        assert "awg" in row["what_to_look_for"].lower() or "usb" in row["part"].lower(), row["part"]


def test_the_perfboard_is_the_size_of_the_bays_middle_rails():
    scad = (BOM.parent / "seesaw.scad").read_text()
    length, width = map(int, re.search(r"pico_board = \[(\d+), (\d+)\]", scad).groups())
    board = next(r for r in rows() if r["part"].startswith("Perfboard"))
    cm = re.search(r"Perfboard (\d+) x (\d+) cm", board["part"]).groups()
    assert sorted(int(c) * 10 for c in cm) == sorted((length, width))
    assert board["path"] == "both"  # path A joins the clock on it too


def test_every_screw_is_one_the_models_take():
    screws = {r["part"]: int(r["quantity"]) for r in rows() if r["part"].startswith("Screws")}
    assert screws == {"Screws M5 x 12 (socket head)": 4, "Screws M4 x 12 (socket head)": 4,
                      "Screws M3 x 12 (socket head)": 2, "Screws M3 x 8 countersunk": 2,
                      "Screws M3 x 8 (socket or button head)": 2}
    scad = (BOM.parent / "seesaw.scad").read_text()
    assert "fixed_thread = 5;" in scad and "free_thread = 4;" in scad and "on 2 x M3 x 8" in scad
