"""Board wiring and timing.  Edit the pin numbers here if you wire differently
(firmware/README.md shows the default wiring)."""

# (DOUT GPIO, SCK GPIO) per HX711; channel 0 = left pan, 1 = right pan.
CHIPS = ((2, 3), (4, 5))
# GPIO driving both HX711 RATE pins (low = 10/s, high = 80/s), or None when the
# boards have RATE tied to ground (most green breakout boards): 10/s only.
RATE_PIN = 6
WATCHDOG_MS = 4000  # no loop turn for this long: the board restarts
PIO_FREQ = 1000000  # state machine clock: 1 us per PIO instruction
