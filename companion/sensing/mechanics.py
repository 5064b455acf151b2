"""How a pan rings, from the seesaw's parts: its load cell's stiffness and what it carries.

A pan with its load is a mass on a spring: the load cell (hardware/bom.csv: a 1 kg straight
bar), stiffness k = F / δ with F its rated capacity and δ its deflection there, carrying
the pan, its carrier, their screws and the cell's free end block, plus the piece:

    f = sqrt(k / m) / 2π

No seller of these unbranded bars states δ; docs/hx711.md ("Each pan's ringing") derives
its order from the bar's rated output (about 1.0 mV/V, the BOM) and its size, and
`DEFLECTION_MM` spans that estimate with a margin each side.  The moving mass is
hardware/seesaw.scad's pan and carrier, rendered by OpenSCAD and taken as solid PLA (a
printed part is lighter: the true ringing is a little faster), plus steel screws and the
aluminium block.  These frequencies (about 110-320 Hz) lie far above what the HX711 passes
(companion/sensing/conversion.py): true to its parts, the seesaw's own ringing hardly
reaches a reading.
"""

from __future__ import annotations

import math

G = 9.80665  # m/s²
CAPACITY_KG = 1.0  # hardware/bom.csv: "Load cell 1 kg straight bar"
DEFLECTION_MM = (0.05, 0.3)  # at capacity (docs/hx711.md): each simulated cell draws one
PAN_G = 15.80  # seesaw.scad part="pan": 12.74 cm³ of PLA at 1.24 g/cm³ (hardware/masses.py's PLA)
CARRIER_G = 6.54  # part="carrier": 5.27 cm³ of PLA
SCREWS_G = 4.4  # 2 x M4 x 12 socket head (about 2.0 g each, steel) and the pan's M3 x 8 countersunk
CELL_END_G = 12.2  # the bar's free end beyond its bending hole: 30 x 12.7 x 12.7 mm of aluminium, less 2 M4 holes
MOVING_G = PAN_G + CARRIER_G + SCREWS_G + CELL_END_G  # what rings with the piece on an empty pan


def stiffness_n_per_m(deflection_mm: float) -> float:
    """The cell's spring constant from its deflection at rated capacity."""
    return CAPACITY_KG * G / (deflection_mm / 1000.0)


def ring_hz(load_g: float, deflection_mm: float) -> float:
    """The natural frequency of a pan carrying `load_g` on a cell that deflects `deflection_mm` at capacity."""
    mass_kg = (MOVING_G + load_g) / 1000.0
    return math.sqrt(stiffness_n_per_m(deflection_mm) / mass_kg) / (2.0 * math.pi)
