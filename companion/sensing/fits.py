"""What one trailing window of a pan's readings says, for the judge (companion/sensing/judge.py):
a least-squares line and its residuals, where the load landed, whether the hand's press (or a
finger's push) is over, a swing both ways (ringing), and the amplitude of a sine (a hand's
tremor).  `estimate` puts them together: is the window still, and what range of weights may the
load have; `tremor`, `rising` and `quiet` tell whether a hand is on the piece, still letting go,
or whether a pan lies still.  Plain functions of times and grams; the one state is `Trail`, a
pan's trailing readings and the lists every rule reads of them, kept up to date reading by reading.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Sequence, cast

import numpy as np

from companion.sensing.judge_config import JudgeConfig
from companion.sensing.pipeline import Reading


class Tremor(Enum):
    """What the tremor test says of a hand on the piece."""

    SHOWN = "shown"  # a sustained 8-12 Hz tremor, well above the noise
    FAINT = "faint"  # more than noise alone often gives, less than a sure hand or a ring: not yet told
    NONE = "none"  # no more than the noise: no hand, or none that shows
    RINGING = "ringing"  # stronger than a faint hand's and dying away: a pan's ringing or a knock's, which
    # may hide a hand's tremor at its frequency (out of phase, the two cancel) while it lies in the window
    UNTOLD = "untold"  # too little settled signal to look yet


@dataclass(frozen=True)
class Estimate:
    """A pan's weight from the trailing window: its level and the range it may take."""

    level: float
    low: float
    high: float
    still: bool
    reason: str = ""


def despiked(g: Sequence[float]) -> list[float]:
    """A centred median of 5 (fewer at the ends, never reaching past them): two corrupt reads
    in a row pass the pipeline's median of 3, and one such reading among a load's would
    look like a landing or hide a push from the rules that read the signal's shape."""
    n, out = len(g), []
    for i in range(n):
        half = min(2, i, n - 1 - i)
        out.append(sorted(g[i - half:i + half + 1])[half])
    return out


def _median3(a: float, b: float, c: float) -> float:
    return max(min(a, b), min(max(a, b), c))


class Trail:
    """One pan's readings of the last `keep_s` (never fewer than `keep_n`), and the lists the
    judge's rules read of them: times `t`, the pipeline's grams `grams`, the samples as read
    `samples` and `g`, the grams `despiked`.  Made once per reading, and `g` incrementally (a
    reading's median of 5 is known once two more have come): on a Raspberry Pi the judge must
    not redo per rule what one reading changes at the ends."""

    def __init__(self, keep_s: float, keep_n: int):
        self.keep_s, self.keep_n = keep_s, keep_n
        self.readings: deque[Reading] = deque()
        self._columns: tuple[deque[float], ...] = (deque(), deque(), deque())  # times, grams, samples
        self._median5: deque[float | None] = deque()  # a reading's median of 5 once known (for the middle of `g`)
        self.t: list[float] = []
        self.grams: list[float] = []
        self.samples: list[float] = []
        self.g: list[float] = []

    def __len__(self) -> int:
        return len(self.readings)

    def __getitem__(self, i: int) -> Reading:
        return self.readings[i]

    def add(self, reading: Reading) -> None:
        readings, medians, columns = self.readings, self._median5, self._columns
        readings.append(reading)
        medians.append(None)
        for column, value in zip(columns, (reading.t, reading.grams, reading.sample_g)):
            column.append(value)
        while len(readings) > self.keep_n and readings[0].t < reading.t - self.keep_s:
            queues: tuple[deque[Any], ...] = (readings, medians, *columns)
            for d in queues:
                d.popleft()
        self.t, self.grams, self.samples = (list(c) for c in columns)
        grams = self.grams
        n = len(grams)
        if n < 5:
            self.g = despiked(grams)
            return
        medians[n - 3] = sorted(grams[n - 5:])[2]
        # Each middle median is known: set at n - 3 as each reading came (the ends are set below).
        g = cast(list[float], list(medians))
        g[0], g[1] = grams[0], _median3(*grams[:3])
        g[-2], g[-1] = _median3(*grams[-3:]), grams[-1]
        self.g = g

    def clear(self) -> None:
        queues: tuple[deque[Any], ...] = (self.readings, self._median5, *self._columns)
        for d in queues:
            d.clear()
        self.t, self.grams, self.samples, self.g = [], [], [], []

    def level(self) -> float:
        """The load now: the median of the last five of `g`."""
        last = sorted(self.g[-5:])
        return last[len(last) // 2]

    def since(self, t: float) -> int:
        """The index of the first reading at or after `t`."""
        return bisect.bisect_left(self.t, t)

    def sizes(self, windows_s: Sequence[float], min_samples: int) -> list[int]:
        """Readings in each trailing window (spanning at least its time), never fewer than `min_samples`."""
        t, n = self.t, 0
        sizes: list[int] = []
        for w in windows_s:  # shortest first
            while n < len(t) and t[-1 - n] > t[-1] - w + 1e-9:
                n += 1
            size = max(min_samples, n + 1)  # and the reading at or before `w` ago
            if size <= len(t) and (not sizes or size > sizes[-1]):
                sizes.append(size)
        return sizes

    def since_peak(self, span_s: float) -> int:
        """The index of the first reading of the last `span_s` after the peak of the press that put
        the load down."""
        g, start = self.g, self.t[-1] - span_s
        j = landing(g, g[-1])
        if j is not None and j < len(g) - 1:
            start = max(start, self.t[max(range(j + 1, len(g)), key=g.__getitem__)])
        return self.since(start)


class NoiseMeter:
    """A pan's noise per reading, measured on its idle, empty signal: cut into short blocks
    (`idle_block_s`, at least `min_samples` + 3 readings), the median of the blocks' scatter about
    their lines (so the tail of a lift or a knock on the table in a few blocks does not count),
    corrected for the median's bias; `noise_prior_g` until five blocks were seen."""

    def __init__(self, cfg: JudgeConfig, rate_hz: float):
        self.cfg = cfg
        self._block: list[Reading] = []
        self._block_n = max(cfg.min_samples + 3, round(cfg.idle_block_s * rate_hz))
        self._runs: deque[float] = deque(maxlen=31)

    @property
    def noise_g(self) -> float:
        """The blocks' `noise_quantile` (a table swaying or knocked only adds scatter), unbiased."""
        runs, q = sorted(self._runs), self.cfg.noise_quantile
        if len(runs) < 5:
            return self.cfg.noise_prior_g
        dof, z = self._block_n - 2, statistics.NormalDist().inv_cdf(q)
        return runs[int(q * len(runs))] * math.sqrt(chi2_limit(dof, 0.0) / chi2_limit(dof, z))

    def add(self, reading: Reading) -> None:
        block, band = self._block, self.cfg.idle_band_g
        if reading.flags or abs(reading.grams) > band:
            block.clear()
            return
        if abs(reading.sample_g - reading.grams) > band:
            return  # a spike (the median of 3 took it out)
        block.append(reading)
        if len(block) >= self._block_n:
            _, _, _, _, resid = fit_line([r.t for r in block], [r.sample_g for r in block])
            dof = len(resid) - 2
            self._runs.append(math.sqrt(sum(r * r for r in resid) / dof / chi2_limit(dof, 0.0)))
            block.clear()


def landing(g: Sequence[float], level: float) -> int | None:
    """The index of the last reading under half the level: the load landed just after it."""
    half = 0.5 * level
    return next((i for i in range(len(g) - 1, -1, -1) if g[i] < half), None)


def landed_s(t: Sequence[float], g: Sequence[float], level: float) -> float:
    """How long ago the load landed."""
    j = landing(g, level)
    return math.inf if j is None else t[-1] - t[j]


def past_press(t: Sequence[float], g: Sequence[float], n: int, level: float, cfg: JudgeConfig) -> bool:
    """Whether the hand's press that put the load down is over.

    The press is the peak after the last time the signal was under half its
    level.  It is over once the peak lies before the window and the signal has
    come down from it by `press_drop_g`, or after `press_guard_s`."""
    if level <= 0:
        return True
    j = landing(g, level)
    if j is None or t[-1] - t[j] >= cfg.press_guard_s:
        return not touched(t, g, n, level, cfg)
    if j == len(g) - 1:
        return False
    after = g[j + 1:]
    peak = max(after)
    k = j + 1 + after.index(peak)
    return k < len(g) - n and peak - max(g[-n:]) >= cfg.press_drop_g


def touched(t: Sequence[float], g: Sequence[float], n: int, level: float, cfg: JudgeConfig) -> bool:
    """Whether the window sits at the top of a rise by more than `touch_rise_g` within the last
    `press_guard_s`, from a load that lay at rest for `touch_rest_s` before (not a landing or a
    cautious hand still rising): a finger pushing it, whose flat top is a line.  At rest: a
    quarter of those readings no lower than half a touch rise under the rise's foot, not their
    mean, which a wire-blind fault can pull down like a rise (docs/judge.md)."""
    start = next(i for i, ti in enumerate(t) if ti >= t[-1] - cfg.press_guard_s)
    low = min(range(start, len(g)), key=g.__getitem__)
    before = [v for ti, v in zip(t[:low], g[:low]) if ti >= t[low] - cfg.touch_rest_s]
    return (level - g[low] > cfg.touch_rise_g
            and max(g[start:]) - max(g[-n:]) < cfg.press_drop_g
            and bool(before) and sorted(before)[3 * len(before) // 4] >= g[low] - 0.5 * cfg.touch_rise_g)


def fit_line(t: Sequence[float], g: Sequence[float]) -> tuple[float, float, float, list[float], list[float]]:
    """Least-squares line: mean, slope, sum of squared x, x (centred times), residuals."""
    m = len(t)
    tm, gm = sum(t) / m, sum(g) / m
    x = [ti - tm for ti in t]
    sxx = sum(xi * xi for xi in x)
    slope = sum(xi * (gi - gm) for xi, gi in zip(x, g)) / sxx
    return gm, slope, sxx, x, [gi - gm - slope * xi for xi, gi in zip(x, g)]


def chi2_limit(dof: int, z: float) -> float:
    """The chi-square quantile `z` standard deviations up (Wilson-Hilferty), per degree of freedom."""
    a = 2.0 / (9.0 * dof)
    return (1.0 - a + z * math.sqrt(a)) ** 3


def estimate(t: Sequence[float], g: Sequence[float], config: JudgeConfig, n: int | None = None,
             sigma: float | None = None, samples: Sequence[float] | None = None,
             table_quiet: Callable[[float], bool] | None = None) -> Estimate:
    """Judge the last `n` samples of a pan's history (t, g), whose noise per reading is `sigma`.

    `g` (spike-free: the pipeline's median of 3, `despiked` again) says where the load landed
    and the press;
    `samples` (the same readings before the median, default `g`) give the line and the swing:
    their noise is independent from reading to reading, as the statistics assume, and a
    swing's tips are not clipped.  Their spikes are left out of the line.

    Still when the press is over and the window either swings both ways
    (ringing, which decays about the final weight: `low..high` then covers
    the swing) or is a line (its residuals no larger than the noise) that
    drifts slowly (slope within `slope_max_g_s`): `low..high` then covers the
    level now and where the trend takes it in `horizon_s`."""
    cfg = config
    sigma = max(cfg.noise_floor_g, cfg.noise_prior_g if sigma is None else sigma)
    t, g = list(t), list(g)
    n = len(t) if n is None else n
    tw, gw = t[-n:], list(g if samples is None else samples)[-n:]
    mean, slope, sxx, x, resid = fit_line(tw, gw)
    spread = sorted(abs(r) for r in resid)
    floor = max(sigma, 1.4826 * spread[len(spread) // 2])
    keep = [abs(r) <= cfg.outlier_sigmas * floor for r in resid]
    m = sum(keep)
    if m < max(cfg.min_samples, n - 2):
        return Estimate(mean, -math.inf, math.inf, False, "spiky")
    if m < n:  # refit without the spikes
        tw = [v for v, k in zip(tw, keep) if k]
        gw = [v for v, k in zip(gw, keep) if k]
        mean, slope, sxx, x, resid = fit_line(tw, gw)
    level = mean + slope * x[-1]
    if not past_press(t, g, n, level, cfg):
        return Estimate(level, -math.inf, math.inf, False, "pressed")
    low, high = min(gw) - cfg.noise_margin_g, max(gw) + cfg.noise_margin_g
    swing = cfg.oscillation_sigmas * sigma
    if m > 2:
        inner = gw[1:-1]
        if max(inner) - max(gw[0], gw[-1]) > swing and min(gw[0], gw[-1]) - min(inner) > swing:
            # a crest and a trough: ringing about the final weight, which lies between them, once
            # no hand can still be letting go (a knock on the table rings about a moving hand too)
            still = landed_s(t, g, level) >= cfg.release_max_s or (
                table_quiet is not None and table_quiet(tw[0]))
            return Estimate(level, low, high, still, "ringing" if still else "ringing_early")
    if sum(r * r for r in resid) > sigma * sigma * (m - 2) * chi2_limit(m - 2, cfg.fit_z):
        return Estimate(level, low, high, False, "curved")
    se_slope = sigma / math.sqrt(sxx)
    if abs(slope) + cfg.slope_z * se_slope > cfg.slope_max_g_s:
        return Estimate(level, low, high, False, "drifting")
    se_level = sigma * math.sqrt(1.0 / m + x[-1] * x[-1] / sxx)
    reach = cfg.confidence_z * (se_level + se_slope * cfg.horizon_s)
    ahead = level + slope * cfg.horizon_s
    return Estimate(level, min(level, ahead) - reach, max(level, ahead) + reach, True)


def sine_amplitudes(t: np.ndarray, g: np.ndarray, hz: Sequence[float], degree: int) -> np.ndarray:
    """The amplitude of a sine at each of `hz` in `g`, fitted with a polynomial of `degree` under
    it (a release's curve or a slow drift): least squares, the polynomial projected out once for
    all the frequencies."""
    span = max(t[-1] - t[0], 1e-9)
    q, _ = np.linalg.qr(np.vander((t - t[0]) / span, degree + 1, increasing=True))
    w = 2.0 * math.pi * np.outer(t, hz)
    basis = np.concatenate([np.sin(w), np.cos(w), g[:, None]], axis=1)
    basis -= q @ (q.T @ basis)
    m = len(hz)
    s, c, y = basis[:, :m], basis[:, m:2 * m], basis[:, 2 * m]
    ss, cc, sc = (s * s).sum(0), (c * c).sum(0), (s * c).sum(0)
    sy, cy = s.T @ y, c.T @ y
    det = ss * cc - sc * sc
    a, b = (cc * sy - sc * cy) / det, (ss * cy - sc * sy) / det
    amplitudes: np.ndarray = np.hypot(a, b)
    return amplitudes


def rising(t: Sequence[float], g: Sequence[float], sigma: float, cfg: JudgeConfig) -> bool:
    """Whether the load is still rising, faster than creep or drift can (a hand letting go of a
    piece slowly: its release starts level and ends level, so only a long window shows it):
    `t`, `g` are the readings of the last `rising_window_s` after the press's peak, which must
    span half of it."""
    if len(t) < cfg.min_samples or t[-1] - t[0] < 0.5 * cfg.rising_window_s:
        return False
    _, slope, sxx, _, resid = fit_line(t, g)
    sigma = max(cfg.noise_floor_g, sigma, math.sqrt(sum(r * r for r in resid) / max(1, len(g) - 2)))
    return slope - 2.0 * sigma / math.sqrt(sxx) > cfg.rising_max_g_s


def quiet(t: Sequence[float], samples: Sequence[float], sigma: float, cfg: JudgeConfig) -> bool:
    """Whether a pan's readings lie still: a line within their noise `sigma`."""
    if len(samples) < cfg.min_samples:
        return False
    sigma = max(cfg.noise_floor_g, sigma)
    _, _, _, _, resid = fit_line(t, samples)
    dof = len(samples) - 2
    return (max(abs(r) for r in resid) <= cfg.quiet_sigmas * sigma
            and sum(r * r for r in resid) <= sigma * sigma * dof * chi2_limit(dof, cfg.quiet_z))


def tremor(trail: Trail, sigma: float, cfg: JudgeConfig) -> Tremor:
    """Whether a hand still touches the piece: an oscillation at the 8-12 Hz of physiological
    tremor, well above the noise `sigma`, that does not die away as a pan's ringing or a knock's
    does (docs/hx711.md).  Looked for over the last `tremor_window_s` of the trail that stayed
    within `tremor_settled_g` of the level now (a press's or a release's curve would hide it);
    UNTOLD while that is shorter than `tremor_min_s`.  A power between `tremor_clear_z` and
    `tremor_z` is FAINT: a hand's tremor no larger than the noise reads so most of the time.  A
    stronger one that dies away is RINGING, or FAINT under `tremor_ring_z` (a faint hand's halves
    vary that much by the noise alone)."""
    t, g = trail.t, trail.g
    now, level = t[-1], trail.level()
    first = len(g)
    while first > 0 and abs(g[first - 1] - level) <= cfg.tremor_settled_g and t[first - 1] > now - cfg.tremor_window_s:
        first -= 1
    settling = first > 0 and t[first - 1] > now - cfg.tremor_min_s  # settled for less than tremor_min_s
    if settling or len(g) - first < 2 * cfg.min_samples:  # or too few readings to fit a sine to
        return Tremor.UNTOLD
    n = len(g) - first
    times = np.array(t[first:]) - now
    x = np.array([raw if abs(s - raw) > 4.0 * sigma else s for s, raw in zip(trail.samples[first:], trail.grams[first:])])
    amps = sine_amplitudes(times, x, cfg.tremor_hz, 2)
    best = int(np.argmax(amps))
    amp = float(amps[best])
    power = amp * amp * n / (4.0 * sigma * sigma)
    if power < cfg.tremor_clear_z:
        return Tremor.NONE
    if power < cfg.tremor_z:
        return Tremor.FAINT
    if amp < cfg.tremor_min_g:
        return Tremor.NONE  # surely there, but smaller than any hand's
    half, hz = n // 2, cfg.tremor_hz[best:best + 1]
    later = float(sine_amplitudes(times[half:], x[half:], hz, 1)[0])
    sustained = later >= cfg.tremor_min_g and later >= cfg.tremor_sustain * float(sine_amplitudes(times[:half], x[:half], hz, 1)[0])
    if sustained:
        return Tremor.SHOWN
    return Tremor.RINGING if power >= cfg.tremor_ring_z else Tremor.FAINT  # a faint hand's halves vary
