"""Runs at boot: stream the seesaw's load cells over USB serial (firmware/README.md)."""

import sys
import time

import machine

from seesaw import keepalive


def main():
    running = False
    try:
        from seesaw.app import App
        from seesaw.hw_pico import PicoHardware

        hal = PicoHardware()
        keepalive.stop()  # from here on the loop feeds the watchdog: a hang restarts
        running = True
        App(hal).run()
    except KeyboardInterrupt:  # Ctrl-C from a terminal or mpremote
        keepalive.start()
        print("seesaw stopped: REPL ready (mpremote reset restarts it)")
    except Exception as e:
        sys.print_exception(e)
        if not running:  # broken files: stay in the REPL so they can be replaced
            keepalive.start()
            return
        time.sleep_ms(500)  # a bug at run time: restart cleanly
        machine.reset()


main()
