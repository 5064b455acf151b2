"""boot.py and main.py as a Pico runs them, over the stand-in `machine` and `rp2`
(pico/): two fake HX711s clocked by the PIO cycle model, the host typing
commands on USB, refusals among them.  The firmware's bytes come out on stdout;
a last line "BOARD {json}" tells what the board saw.

    pico_boot.py [pinless]     pinless: RATE tied low (seesaw.config.RATE_PIN = None)
"""

import binascii
import json
import sys

import machine
import usb
from fake_hal import FakeHX711
from seesaw import config

REFUSALS = ("RATE 20", "GAIN 100", "FLY", "PING a!b", "STOP now", "GAIN", "RATE 80*00000000",
            "PING a*b", "\x00\xffjunk", "z" * 200)

if "pinless" in sys.argv:
    config.RATE_PIN = None
board = machine.board
board.rate_pin = config.RATE_PIN
chips = [FakeHX711(board.ms, 1000), FakeHX711(board.ms, -2000)]
for (dout, sck), chip in zip(config.CHIPS, chips):
    board.wire(dout, sck, chip)
piostats = []


def at(ms, event):
    board.schedule.append((ms, event))


def type_line(text):
    return lambda: usb.send(binascii.hexlify((text + "\n").encode()).decode())


def unplug(chip, mode):
    def event():
        chip.mode = mode
    return event


def interrupt():
    raise KeyboardInterrupt  # Ctrl-C from a terminal: maintenance mode


at(300, type_line("RATE 80"))
if "pinless" in sys.argv:
    at(2000, interrupt)
else:
    for i, text in enumerate(REFUSALS):
        at(500 + 50 * i, type_line(text))
    at(1400, unplug(chips[1], "missing"))
    at(2700, unplug(chips[1], "ok"))
    at(3200, type_line("HELLO"))
    at(3400, interrupt)


def run(path):
    with open(path) as f:
        source = f.read()
    try:
        exec(compile(source, path, "exec"), {"__name__": "__main__"})
    except SystemExit as e:
        print("exit: %r" % (e.args,))


run("/flash/boot.py")
timers_after_boot = board.timers
run("/flash/main.py")
print("BOARD " + json.dumps({
    "resets": board.resets, "feeds": board.feeds, "watchdog_ms": board.watchdog_ms,
    "timers_after_boot": timers_after_boot, "timers_at_end": board.timers, "led": board.led,
    "reads": [len(chip.sent) for chip in chips], "resets_of_chips": [chip.resets for chip in chips],
    "rates": [chip.rate for chip in chips]}))
