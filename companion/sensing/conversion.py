"""What one HX711 reading is of the continuous signal: the chip's digital filter.

The HX711 datasheet names no filter; it states that the output settles 400 ms (10
samples/s) or 50 ms (80/s) after a step, i.e. within 4 conversion periods, and that it
rejects 50 and 60 Hz supply noise at once (docs/hx711.md, "What a reading is").  A sinc⁴
decimator at the output rate does exactly that, as in its documented analogue (TI's ADS1232,
same two rates and settling times): each reading is the signal averaged by four cascaded
moving averages, each one conversion period T long, a kernel 4T wide.  Its response
|sin(πfT) / (πfT)|⁴ is zero at every multiple of the output rate, so at 10/s it notches
50 and 60 Hz and all their harmonics; at 80/s its first zero is 80 Hz.

The continuous signal is evaluated on a grid `STEPS_HZ` fine (`per_period` points per
period) and the four boxes are applied there: the discrete kernel keeps the exact zeros at
multiples of the output rate and passes what lies below the grid's Nyquist frequency (the
pans' ringing, up to about 360 Hz, included: companion/sensing/mechanics.py).  The last
four periods' fine values are kept from one batch of readings to the next, so each point of
the signal is evaluated once (`forget` when the signal's past changes).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import numpy.typing as npt

ORDER = 4  # sinc⁴: the output settles within four conversions (datasheet)
STEPS_HZ = 1280.0  # the fine grid the signal is averaged on: 16 points a period at 80/s, 128 at 10/s


def per_period(rate_hz: float) -> int:
    """Fine grid points per conversion period."""
    return max(1, math.ceil(STEPS_HZ / rate_hz - 1e-9))


def kernel(m: int) -> np.ndarray:
    """Four cascaded boxes of `m` points, normalised: the weights of one reading (oldest first)."""
    box = np.full(m, 1.0 / m)
    weights = box
    for _ in range(ORDER - 1):
        weights = np.convolve(weights, box)
    return weights


def response(f_hz: npt.ArrayLike, rate_hz: float) -> npt.NDArray[np.float64]:
    """The filter's gain at `f_hz` (continuous sinc⁴): 1 at DC, 0 at every multiple of the rate."""
    return np.abs(np.sinc(np.asarray(f_hz, float) / rate_hz)) ** ORDER


def alias_hz(f_hz: npt.ArrayLike, rate_hz: float) -> npt.NDArray[np.float64]:
    """Where a tone at `f_hz` appears in readings taken `rate_hz` times a second."""
    f = np.mod(np.asarray(f_hz, float), rate_hz)
    folded: npt.NDArray[np.float64] = np.minimum(f, rate_hz - f)
    return folded


class Conversion:
    """The readings of one chip whose conversion k completes at t0 + k * period_s."""

    def __init__(self, t0: float, period_s: float):
        self.t0, self.period_s = float(t0), float(period_s)
        self.m = per_period(1.0 / period_s)
        self.weights = kernel(self.m)
        self.span = len(self.weights)  # fine points one reading averages (4m - 3)
        self.forget()

    def forget(self) -> None:
        """Drop the kept fine values (the signal's past has changed)."""
        self._kept_from, self._kept = 0, np.zeros(0)

    def readings(self, signal: Callable[[np.ndarray], np.ndarray], k0: int, k1: int) -> np.ndarray:
        """Readings k0 .. k1 - 1 of `signal` (a function of an array of times): each the kernel's
        weighted mean of the signal over the four periods before its conversion completes."""
        if k1 <= k0:
            return np.zeros(0)
        m = self.m
        first, last = k0 * m - self.span + 1, (k1 - 1) * m  # the fine points readings k0 .. k1 - 1 see
        kept_to = self._kept_from + len(self._kept)
        start = kept_to if self._kept_from <= first <= kept_to else first
        # fine point i at t0 + (i - 2) dt: the kernel is centred 2 periods before its reading
        new = signal(self.t0 + (np.arange(start, last + 1) - 2) * (self.period_s / m))
        fine = np.concatenate((self._kept[first - self._kept_from:], new)) if start > first else new
        keep = self.span - 1  # what the next reading shares with these
        self._kept_from, self._kept = last + 1 - keep, fine[len(fine) - keep:].copy()
        w, span = self.weights, self.span
        return np.array([fine[j:j + span] @ w for j in range(0, len(fine) - span + 1, m)])

    def at(self, signal: Callable[[np.ndarray], np.ndarray], t: np.ndarray) -> np.ndarray:
        """What a reading completing at each of the times `t` (ascending, any spacing) would be:
        the noiseless view of the signal through this filter, for oracles."""
        t = np.asarray(t, float)
        if not len(t):
            return np.zeros(0)
        dt = self.period_s / self.m
        ends = t[0] + np.arange(0, math.floor((t[-1] - t[0]) / dt) + 2) * dt  # reading times on the fine grid
        fine = signal(ends[0] - (self.span + 1) * dt + np.arange(self.span - 1 + len(ends)) * dt)
        readings: np.ndarray = np.interp(t, ends, np.convolve(fine, self.weights[::-1], "valid"))
        return readings

