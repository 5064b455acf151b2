"""hardware/bom.csv: well formed, and both build paths are complete."""

import csv
from pathlib import Path

BOM = Path(__file__).resolve().parents[2] / "hardware" / "bom.csv"
PATHS = {"both", "gpio", "pico"}


def rows() -> list[dict]:
    with BOM.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == ["path", "part", "quantity", "what_to_look_for", "rough_price_usd"]
        return list(reader)


def test_every_row_is_complete():
    for row in rows():
        assert row["path"] in PATHS, row
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
