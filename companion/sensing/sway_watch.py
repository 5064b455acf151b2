"""Whether the table sways under both pans (someone leaning on it), over time (judge.py)."""

from __future__ import annotations

import math

import numpy as np

from companion.sensing.fits import Trail
from companion.sensing.judge_config import JudgeConfig

LOOK_S = 0.1  # how often the judge looks whether the table sways


def swaying(a: Trail, b: Trail, sigmas: tuple[float, float], cfg: JudgeConfig) -> bool:
    """Whether both pans sway together (someone leaning on the table): over the last
    `sway_window_s`, each pan's readings stray from their mean by `sway_sigmas` times its noise
    (rms), and the two move alike (correlation at least `sway_correlation`; a hand or a pan's own
    ringing moves one pan, a table's swaying both)."""
    now = min(a.t[-1], b.t[-1]) if a.t and b.t else None
    if now is None or a.t[0] > now - cfg.sway_window_s or b.t[0] > now - cfg.sway_window_s:
        return False
    ka, kb = a.since(now - cfg.sway_window_s), b.since(now - cfg.sway_window_s)
    ta, ga = np.asarray(a.t[ka:]), np.asarray(a.grams[ka:])  # not the median of 5: read 10 times a second
    if len(ta) < cfg.min_samples:  # it would flatten a 2 Hz swing
        return False
    ga = ga - ga.mean()
    gb = np.interp(ta, b.t[kb:], b.grams[kb:])
    gb = gb - gb.mean()
    ra, rb = float(np.sqrt(np.mean(ga * ga))), float(np.sqrt(np.mean(gb * gb)))
    if ra < cfg.sway_sigmas * max(cfg.noise_floor_g, sigmas[0]) or rb < cfg.sway_sigmas * max(cfg.noise_floor_g, sigmas[1]):
        return False
    return float(np.mean(ga * gb)) >= cfg.sway_correlation * ra * rb


class SwayWatch:
    """Since when the table has swayed under both loaded pans (`swaying`, looked at every
    `LOOK_S`), seen again within `sway_gap_s`.  `feed` moves it; `swayed` is a read."""

    def __init__(self, config: JudgeConfig):
        self.config = config
        self.reset()

    def reset(self) -> None:
        self._sway: tuple[float, float] | None = None  # (since, last seen)
        self._looked = -math.inf

    def feed(self, now: float, trails: list[Trail], empty_g: list[float], sigmas: tuple[float, float]) -> None:
        """At a reading: both pans' trails, the grams under which each is empty, their noise."""
        cfg = self.config
        if now - self._looked < LOOK_S:
            return
        self._looked = now
        sway = self._sway
        loaded = all(trail and trail.g[-1] >= empty for trail, empty in zip(trails, empty_g))
        if loaded and swaying(trails[0], trails[1], sigmas, cfg):
            self._sway = (sway[0] if sway and now - sway[1] <= cfg.sway_gap_s else now, now)
        elif sway and now - sway[1] > cfg.sway_gap_s:
            self._sway = None

    def swayed(self, now: float | None) -> bool:
        """Whether the table has swayed for `sway_notice_s` and sways still."""
        sway, cfg = self._sway, self.config
        return (sway is not None and now is not None
                and now - sway[0] >= cfg.sway_notice_s and now - sway[1] <= cfg.sway_gap_s)
