"""Runs at boot: stream the seesaw's load cells over USB serial (firmware/README.md)."""

import sys
import time

import machine

from seesaw.app import App
from seesaw.hw_pico import PicoHardware


def main():
    hal = PicoHardware()
    try:
        App(hal).run()
    except KeyboardInterrupt:  # Ctrl-C from a terminal or mpremote
        hal.maintenance()
        print("seesaw stopped: REPL ready (mpremote reset restarts it)")
    except Exception as e:  # a bug: report it, then restart cleanly
        sys.print_exception(e)
        time.sleep_ms(500)
        machine.reset()


main()
