"""The wiring tables and diagrams in hardware/ agree with the code's pins and with the boards' pinouts."""

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.config import GpioSettings

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "hardware" / "README.md"
SVG_NS = "{http://www.w3.org/2000/svg}"

# Raspberry Pi 40-pin header: physical pin -> BCM GPIO number, or a power name.
PI_HEADER = {1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
             11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
             21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
             31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21}
# Raspberry Pi Pico: physical pin -> GP number, or a power name.
PICO = {1: 0, 2: 1, 3: "GND", 4: 2, 5: 3, 6: 4, 7: 5, 8: "GND", 9: 6, 10: 7, 11: 8, 12: 9,
        13: "GND", 14: 10, 15: 11, 16: 12, 17: 13, 18: "GND", 19: 14, 20: 15, 21: 16, 22: 17,
        23: "GND", 24: 18, 25: 19, 26: 20, 27: 21, 28: "GND", 29: 22, 30: "RUN", 31: 26, 32: 27,
        33: "GND", 34: 28, 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS"}


def wiring_table(section: str) -> dict[str, tuple[str, str]]:
    """{signal: (board #0 cell, board #1 cell)} from the first table under the heading `section`."""
    text = README.read_text(encoding="utf-8")
    lines = text[text.index(section):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = {}
    for row in lines[start + 2:]:
        if not row.startswith("|"):
            break
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        table[cells[0].split(" (")[0]] = (cells[1], cells[2])
    return table


def pin_of(cell: str) -> int:
    return int(re.search(r"pin (\d+)", cell).group(1))


def gpio_of(cell: str, prefix: str) -> int:
    return int(re.search(rf"{prefix} ?(\d+)", cell).group(1))


def firmware_pins() -> tuple[tuple, object]:
    tree = ast.parse((ROOT / "firmware" / "seesaw" / "config.py").read_text())
    values = {node.targets[0].id: ast.literal_eval(node.value)
              for node in tree.body if isinstance(node, ast.Assign)}
    return values["CHIPS"], values["RATE_PIN"]


def test_gpio_table_uses_the_configured_pins_and_matching_header_pins():
    table = wiring_table("## Path A")
    defaults = GpioSettings()
    for board, data_pin in enumerate(defaults.data_pins):
        assert gpio_of(table["DT"][board], "BCM") == data_pin
        assert gpio_of(table["SCK"][board], "BCM") == defaults.clock_pin
        for signal in ("DT", "SCK"):
            cell = table[signal][board]
            assert PI_HEADER[pin_of(cell)] == gpio_of(cell, "BCM"), cell
        assert PI_HEADER[pin_of(table["VCC"][board])] == "3V3"  # never 5 V
        assert PI_HEADER[pin_of(table["GND"][board])] == "GND"


def test_pico_table_uses_the_firmware_pins_and_matching_pico_pins():
    table = wiring_table("## Path B")
    chips, rate_pin = firmware_pins()
    for board, (dout, sck) in enumerate(chips):
        assert gpio_of(table["DT"][board], "GP") == dout
        assert gpio_of(table["SCK"][board], "GP") == sck
        assert gpio_of(table["RATE"][board], "GP") == rate_pin
        for signal in ("DT", "SCK", "RATE"):
            cell = table[signal][board]
            assert PICO[pin_of(cell)] == gpio_of(cell, "GP"), cell
        assert PICO[pin_of(table["VCC"][board])] == "3V3(OUT)"  # never VBUS/VSYS
        assert PICO[pin_of(table["GND"][board])] == "GND"


@pytest.mark.parametrize("name, section, names", [
    ("wiring-gpio.svg", "## Path A", PI_HEADER),
    ("wiring-pico.svg", "## Path B", PICO),
])
def test_diagram_is_valid_svg_showing_the_tables_pins(name, section, names):
    root = ET.parse(ROOT / "hardware" / name).getroot()
    assert root.tag == f"{SVG_NS}svg" and root.find(f"{SVG_NS}title") is not None
    labels = {"".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")}
    for cells in wiring_table(section).values():
        for cell in cells:
            if "pin" in cell:
                pin = pin_of(cell)
                label = names[pin]
                shown = f"GPIO {label}" if name == "wiring-gpio.svg" and isinstance(label, int) else (
                    f"GP{label}" if isinstance(label, int) else label)
                assert f"pin {pin} · {shown}" in labels, (name, cell)
    for signal in ("E+", "E−", "A−", "A+", "VCC", "DT", "SCK", "GND"):
        assert signal in labels
