"""What one trailing window of a pan's readings says, for the judge (companion/sensing/judge.py):
a least-squares line and its residuals, where the load landed, whether the hand's press (or a
finger's push) is over, a swing both ways (ringing), and the amplitude of a sine (a hand's
tremor).  `estimate` puts them together: is the window still, and what range of weights may the
load have.  Plain functions of times and grams; no state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from companion.sensing.judge_config import JudgeConfig


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


def sine_amplitude(t: np.ndarray, g: np.ndarray, hz: float, degree: int) -> float:
    """The amplitude of a sine at `hz` in `g`, fitted with a polynomial of `degree` under it
    (a release's curve or a slow drift)."""
    w = 2.0 * math.pi * hz * t
    span = max(t[-1] - t[0], 1e-9)
    x = (t - t[0]) / span
    columns = [x ** k for k in range(degree + 1)] + [np.sin(w), np.cos(w)]
    coef, *_ = np.linalg.lstsq(np.column_stack(columns), g, rcond=None)
    return float(math.hypot(coef[-2], coef[-1]))
