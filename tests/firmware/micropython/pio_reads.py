"""seesaw.hw_pico's Chip on the simulated Pico: the real PIO program, run by the
cycle model in pico/rp2.py, reads one fake HX711 per case.  Prints one JSON list:
per case what the firmware decoded and what the chip did."""

import json

import machine
from fake_hal import FakeHX711
from seesaw import hx711
from seesaw.hw_pico import Chip

now = [1000]


def clock():
    return now[0]


def read(gain, value, glitches=None):
    chip = FakeHX711(clock, value)
    machine.board.wire(2, 3, chip)
    pico = Chip(0, 2, 3)
    now[0] += 100  # a conversion is ready
    ready = pico.ready()
    chip.glitches = glitches or {}
    pulses = hx711.GAIN_PULSES[gain]
    word = pico.read(pulses)
    value_read, in_step = hx711.decode(word, pulses)
    busy_after = not pico.ready()
    now[0] += 100  # the next conversion is due
    case = {"gain": gain, "value": value, "glitches": sorted((glitches or {}).items()),
            "ready": ready, "read": value_read, "in_step": in_step, "busy_after": busy_after,
            "next_ready": pico.ready(), "setting": chip.setting,
            "longest_high_us": pico.sm.longest_high_us}
    pico.reset()
    case["reset"] = chip.resets
    return case


cases = []
for gain in (128, 64, 32):
    for value in (0, 1000, 1001, -2000, 8388607, -8388608):
        cases.append(read(gain, value))
for value in (1000, 1001):
    for edge in (1, 12, 24, 25):
        cases.append(read(128, value, {edge: 0}))  # a missed clock pulse
cases.append(read(64, 1001, {12: 0}))
cases.append(read(128, 1001, {12: 2}))  # an extra edge (a glitch seen twice)
print(json.dumps(cases))
