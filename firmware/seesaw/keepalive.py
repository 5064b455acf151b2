"""The watchdog, and a timer that feeds it while no sampling loop runs.

The RP2040 watchdog cannot be stopped once started.  boot.py starts it with a
timer feeding it, so that the REPL after Ctrl-C or a soft reset (mpremote does
one before its commands up to MicroPython v1.29) is not restarted under the
user's hands; main.py stops the timer once the loop feeds the watchdog itself.
"""

import machine

from seesaw import config

_wdt = None
_timer = None


def watchdog():
    """The one machine.WDT (started on first use)."""
    global _wdt
    if _wdt is None:
        _wdt = machine.WDT(timeout=config.WATCHDOG_MS)
    return _wdt


def start():
    """Feed the watchdog from a timer, LED steady on: booting, REPL, mpremote."""
    global _timer
    stop()
    machine.Pin("LED", machine.Pin.OUT).value(1)
    wdt = watchdog()
    _timer = machine.Timer(period=1000, callback=lambda t: wdt.feed())


def stop():
    """Leave feeding to the main loop, so a hang restarts the board."""
    global _timer
    if _timer is not None:
        _timer.deinit()
        _timer = None
