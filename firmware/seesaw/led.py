"""On-board LED patterns: (period ms, lit ms at the start of each period).

Two more states need no pattern: steady on = booting or maintenance (REPL after
Ctrl-C); off = no power, or hung until the watchdog restarts the board.
"""

PATTERNS = {
    "run": (1000, 80),  # heartbeat: one short flash a second, all chips fine
    "stopped": (2000, 1000),  # slow blink: host sent STOP
    "fault": (200, 100),  # fast blink: an HX711 is missing or out of step
    "identify": (100, 50),  # flicker for 5 s after IDENTIFY
}


def level(state, now_ms):
    """Whether the LED is lit in `state` at `now_ms`."""
    period, lit = PATTERNS[state]
    return now_ms % period < lit
