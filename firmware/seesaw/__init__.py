"""Seesaw firmware: two HX711 load-cell amplifiers streamed over USB serial.

Everything here except `hw_pico` is plain Python that CPython can import, so the
protocol and the sampling logic are tested on the host (tests/firmware/).
"""

VERSION = "2.0.0"
