"""The HX711 fault its wire cannot show (docs/hx711.md), as a source's samples would carry it.

At A/128, the app's setting, a glitch the chip counts as one or two extra clock pulses leaves
26 or 27 pulses: a valid count.  So the transfer it hits reads the word shifted (1s come in
after the last bit, DOUT being high then: nothing tells), the next conversion is of B/32 (the
unconnected channel: about 0) or A/64 (half the counts), unsettled, and the next
SETTLING_CONVERSIONS, back at A/128, settle halfway each (`unsettled_output`, the emulated
chip's rule): six wrong readings that the driver accepts.  `tests/sensing/test_hx711.py`
holds this model to the emulated chip read by the real driver.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable

from companion.sensing.hx711 import DATA_BITS, SETTLING_CONVERSIONS, to_signed
from companion.sensing.hx711_emulator import unsettled_output
from companion.sensing.source import Sample

EXTRA_PULSES = {"B/32": 1, "A/64": 2}  # at A/128: the glitch's extra pulses, and the setting they select


def shifted_word(raw: int, extra: int, at_pulse: int) -> int:
    """What the host reads when the chip counts `extra` more pulses at rising edge `at_pulse`:
    the bits before it, then the rest of the word `extra` bits early, then 1s (DOUT high)."""
    word, kept = raw & 0xFFFFFF, DATA_BITS - at_pulse + 1  # bits from at_pulse on
    low = ((word << extra) | ((1 << extra) - 1)) & ((1 << kept) - 1)
    return to_signed((word >> kept << kept) | low)


class WireBlindFaults:
    """Wraps a source's poll(): a share `rate` of readings is hit at random, and `arm` hits a
    channel's next one on purpose; `faults` counts them."""

    def __init__(self, poll: Callable[[], Iterable[Sample]], rate: float = 0.0,
                 rng: random.Random | None = None, channel_b_counts: float = 200.0):
        self.poll, self.rate, self.rng = poll, rate, rng or random.Random(0)
        self.channel_b_counts = channel_b_counts  # rms counts of the unconnected channel B
        self.unsettled: dict[int, tuple[int, int, str | None]] = {}  # channel: (left, last output, other)
        self.armed: dict[int, tuple[str, int | None]] = {}
        self.faults = 0

    def arm(self, channel: int, setting: str, at_pulse: int | None = None) -> None:
        """A glitch selecting `setting` ("B/32" or "A/64") at rising edge `at_pulse` (any, if
        None) hits the channel's next settled reading."""
        self.armed[channel] = (setting, at_pulse)

    def __call__(self) -> list[Sample]:
        out = []
        for sample in self.poll():
            left, last, other = self.unsettled.get(sample.channel, (0, 0, None))
            if left:
                target = sample.raw if other is None else (
                    sample.raw // 2 if other == "A/64" else round(self.rng.gauss(0.0, self.channel_b_counts)))
                raw = unsettled_output(last, target)
                self.unsettled[sample.channel] = (left - 1, raw, None)
            elif sample.channel in self.armed or self.rng.random() < self.rate:
                other, at_pulse = self.armed.pop(sample.channel,
                                                 (self.rng.choice(list(EXTRA_PULSES)), None))
                at_pulse = at_pulse or self.rng.randint(1, DATA_BITS)
                raw = shifted_word(sample.raw, EXTRA_PULSES[other], at_pulse)
                self.unsettled[sample.channel] = (SETTLING_CONVERSIONS + 1, sample.raw, other)
                self.faults += 1
            else:
                out.append(sample)
                continue
            out.append(replace(sample, raw=raw))
        return out
