"""The weighing judge: which pan is heavier, and what lies on each.  Game-agnostic.

The judge watches the pipeline's readings.  For each pan it looks at a short
trailing window (spikes left out by a robust line fit) and asks two questions:

* still?  The hand's press is over (the signal has come down from the peak
  that followed the load's landing), and the window either drifts slowly (its
  slope, on the safe side of its standard error, within `slope_max_g_s`) or
  swings both ways (ringing, which decays about the final weight).
* where?  For a slow drift: the level now and where the trend takes it within
  `horizon_s`, widened by `confidence_z` standard errors; for ringing: the
  window's swing.  That range must lie inside one class's band.

A class's band is its spread (mass ± spread) widened on each side by
`accept_fraction` of the free gap to its neighbour, so a weight between two
bands fits no class.  Classes whose spreads overlap cannot be told apart and
form one group named "a|b" (a submarine with the counterweight weighs a
carrier).  Two pans balance when their groups overlap; otherwise the heavier
group wins.  The verdict comes on the first reading where both pans pass, and
"reweigh" only after a still weight has fitted no class for `reweigh_after_s`.
Overload, underload and missing calibration are refused.

The judge assumes nothing about how a hand lets go.  Bounding the rest of a
falling signal by the simulator's release curve was tried (verdicts 0.06 s
sooner) and taken out: a real hand need not follow that curve, and a wrong
verdict costs more than a sixteenth of a second.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Sequence

from companion.sensing.classes import PieceClass
from companion.sensing.pipeline import OVERLOAD, UNCALIBRATED, UNDERLOAD, Reading

LEFT, RIGHT, BALANCED, REWEIGH = "left", "right", "balanced", "reweigh"
WAITING, UNSTABLE, REFUSED = "waiting", "unstable", "refused"
FINAL = frozenset({LEFT, RIGHT, BALANCED, REWEIGH})
AMBIGUOUS = "|"  # joins the names of classes that weigh the same


@dataclass(frozen=True)
class JudgeConfig:
    """Statistical settings; the defaults never misjudge the benchmark's hardest hands."""

    windows_s: tuple[float, ...] = (0.1, 0.16, 0.3)  # trailing windows, tried shortest first
    min_samples: int = 4  # and never fewer samples in a window (10 samples/s: 0.4 s)
    noise_floor_g: float = 0.03  # never assume a quieter signal than this per sample
    outlier_sigmas: float = 6.0  # residuals beyond this are spikes, left out
    noise_margin_g: float = 0.05  # added around the window's extremes
    slope_max_g_s: float = 1.5  # a steady drift faster than this is still moving...
    slope_z: float = 1.0  # ...judged this many standard errors on the safe side
    oscillation_sigmas: float = 3.0  # a swing back by more than this is ringing, not drift
    horizon_s: float = 0.1  # a steady trend must stay inside the band this long
    confidence_z: float = 3.0  # standard errors around the trend's level
    history_s: float = 0.6  # look-back for the press that put the load down...
    press_drop_g: float = 0.3  # ...the signal must have come down this far from its peak...
    press_guard_s: float = 0.3  # ...or the press be this long ago
    accept_fraction: float = 0.4  # of the free gap to a neighbour, added to a class's spread
    empty_fraction: float = 0.5  # under this share of the lightest class: an empty pan
    reweigh_after_s: float = 0.5  # a still weight fitting no class this long: reweigh


@dataclass(frozen=True)
class Estimate:
    """A pan's weight from the trailing window: its level and the range it may take."""

    level: float
    low: float
    high: float
    still: bool
    reason: str = ""


def _past_press(t: Sequence[float], g: Sequence[float], n: int, level: float, cfg: JudgeConfig) -> bool:
    """Whether the hand's press that put the load down is over.

    The press is the peak after the last time the signal was under half its
    level.  It is over once the peak lies before the window and the signal has
    come down from it by `press_drop_g`, or after `press_guard_s`."""
    if level <= 0:
        return True
    half = 0.5 * level
    j = next((i for i in range(len(g) - 1, -1, -1) if g[i] < half), None)
    if j is None:
        return True
    if t[-1] - t[j] >= cfg.press_guard_s or j == len(g) - 1:
        return t[-1] - t[j] >= cfg.press_guard_s
    after = g[j + 1:]
    peak = max(after)
    k = j + 1 + after.index(peak)
    return k < len(g) - n and peak - max(g[-n:]) >= cfg.press_drop_g


def _line(t: Sequence[float], g: Sequence[float]) -> tuple[float, float, float, list[float], list[float]]:
    """Least-squares line: mean, slope, sum of squared x, x (centred times), residuals."""
    m = len(t)
    tm, gm = sum(t) / m, sum(g) / m
    x = [ti - tm for ti in t]
    sxx = sum(xi * xi for xi in x)
    slope = sum(xi * (gi - gm) for xi, gi in zip(x, g)) / sxx
    return gm, slope, sxx, x, [gi - gm - slope * xi for xi, gi in zip(x, g)]


def estimate(t: Sequence[float], g: Sequence[float], config: JudgeConfig, n: int | None = None) -> Estimate:
    """Judge the last `n` samples of a pan's history (t, g).

    Still when the press is over and the window either drifts slowly (slope
    within `slope_max_g_s`): `low..high` then covers the level now and where
    the trend takes it in `horizon_s`; or swings both ways (ringing, which
    decays about the final weight): `low..high` then covers the swing."""
    cfg = config
    t, g = list(t), list(g)
    n = len(t) if n is None else n
    tw, gw = t[-n:], g[-n:]
    mean, slope, sxx, x, resid = _line(tw, gw)
    spread = sorted(abs(r) for r in resid)
    floor = max(cfg.noise_floor_g, 1.4826 * spread[len(spread) // 2])
    keep = [abs(r) <= cfg.outlier_sigmas * floor for r in resid]
    m = sum(keep)
    if m < max(cfg.min_samples, n - 2):
        return Estimate(mean, -math.inf, math.inf, False, "spiky")
    if m < n:  # refit without the spikes
        tw = [v for v, k in zip(tw, keep) if k]
        gw = [v for v, k in zip(gw, keep) if k]
        mean, slope, sxx, x, resid = _line(tw, gw)
    sigma = max(cfg.noise_floor_g, math.sqrt(sum(r * r for r in resid) / max(m - 2, 1)))
    level = mean + slope * x[-1]
    if not _past_press(t, g, n, level, cfg):
        return Estimate(level, -math.inf, math.inf, False, "pressed")
    low, high = min(gw) - cfg.noise_margin_g, max(gw) + cfg.noise_margin_g
    swing = cfg.oscillation_sigmas * cfg.noise_floor_g
    if m > 2:
        inner = gw[1:-1]
        if max(inner) - max(gw[0], gw[-1]) > swing and min(gw[0], gw[-1]) - min(inner) > swing:
            # a crest and a trough: ringing about the final weight, which lies between them
            return Estimate(level, low, high, True, "ringing")
    se_slope = sigma / math.sqrt(sxx)
    if abs(slope) + cfg.slope_z * se_slope > cfg.slope_max_g_s:
        return Estimate(level, low, high, False, "drifting")
    se_level = sigma * math.sqrt(1.0 / m + x[-1] * x[-1] / sxx)
    reach = cfg.confidence_z * (se_level + se_slope * cfg.horizon_s)
    ahead = level + slope * cfg.horizon_s
    return Estimate(level, min(level, ahead) - reach, max(level, ahead) + reach, True)


@dataclass(frozen=True)
class ClassGroup:
    """Classes a scale cannot tell apart, and the band of weights that identifies them."""

    members: tuple[PieceClass, ...]
    low: float  # lightest possible piece
    high: float  # heaviest possible piece
    accept_low: float
    accept_high: float

    @property
    def name(self) -> str:
        return AMBIGUOUS.join(c.name for c in self.members)

    def fits(self, low: float, high: float) -> bool:
        return self.accept_low <= low and high <= self.accept_high

    def overlaps(self, other: "ClassGroup") -> bool:
        return self.low <= other.high and other.low <= self.high


def build_groups(classes: Iterable[PieceClass], accept_fraction: float) -> list[ClassGroup]:
    """Merge classes whose spreads overlap; give each group its acceptance band."""
    spans: list[list] = []
    for c in sorted(classes, key=lambda c: c.low):
        if spans and c.low <= spans[-1][2]:
            spans[-1][0].append(c)
            spans[-1][2] = max(spans[-1][2], c.high)
        else:
            spans.append([[c], c.low, c.high])
    if not spans:
        raise ValueError("the judge needs at least one piece class")
    gaps = [b[1] - a[2] for a, b in zip(spans, spans[1:])]
    edge = accept_fraction * min(gaps) if gaps else 1.0
    below = [edge] + [accept_fraction * g for g in gaps]
    above = [accept_fraction * g for g in gaps] + [edge]
    return [ClassGroup(tuple(sorted(m, key=lambda c: c.name)), lo, hi, lo - b, hi + a)
            for (m, lo, hi), b, a in zip(spans, below, above)]


@dataclass(frozen=True)
class PanState:
    """What the judge sees on one pan."""

    kind: str  # "class", WAITING (empty), UNSTABLE, REFUSED, REWEIGH
    group: ClassGroup | None = None
    reason: str = ""


@dataclass(frozen=True)
class Verdict:
    """The judge's answer.  `final` verdicts: LEFT, RIGHT, BALANCED, REWEIGH;
    the others (WAITING, UNSTABLE, REFUSED) mean "not yet", with a reason."""

    kind: str
    t: float | None = None  # time of the reading that settled it
    left: str | None = None  # class group names, when identified
    right: str | None = None
    reason: str = ""

    @property
    def final(self) -> bool:
        return self.kind in FINAL


class Judge:
    """Streams of pipeline readings in; verdicts out.

    `left_classes` / `right_classes`: what may lie on each pan (the right pan
    defaults to the left's list).  Feed every reading, then ask `battle()`,
    `identify(channel)` after every
    reading (a "reweigh" needs a still misfit seen for `reweigh_after_s`).
    Call `reset()` when the pans are cleared for the next weighing.
    """

    def __init__(self, left_classes: Iterable[PieceClass], right_classes: Iterable[PieceClass] | None = None,
                 config: JudgeConfig = JudgeConfig(), rate_hz: float = 80.0):
        self.config = config
        left_classes = list(left_classes)
        right_classes = left_classes if right_classes is None else list(right_classes)
        self.groups = [build_groups(left_classes, config.accept_fraction),
                       build_groups(right_classes, config.accept_fraction)]
        self._widest = [max(g.accept_high - g.accept_low for g in groups) for groups in self.groups]
        self._sizes = [max(config.min_samples, round(w * rate_hz)) for w in config.windows_s]
        history = max(max(self._sizes), round(config.history_s * rate_hz))
        self._windows: list[deque[Reading]] = [deque(maxlen=history) for _ in range(2)]
        self._estimates: list[Estimate | None] = [None, None]
        self._unfit_since: list[float | None] = [None, None]

    @property
    def shortest_window(self) -> int:
        """Readings in the shortest window a verdict can rest on."""
        return self._sizes[0]

    def reset(self) -> None:
        """Forget the past: the next verdict rests on readings fed from now on."""
        for w in self._windows:
            w.clear()
        self._estimates = [None, None]
        self._unfit_since = [None, None]

    def feed(self, reading: Reading) -> None:
        if 0 <= reading.channel < 2:
            self._windows[reading.channel].append(reading)
            self._estimates[reading.channel] = None

    def feed_all(self, readings: Iterable[Reading]) -> None:
        for r in readings:
            self.feed(r)

    def band(self, channel: int, group_name: str) -> tuple[float, float]:
        """The acceptance band (grams) of a group on a pan: for benchmarks' oracles."""
        group = next(g for g in self.groups[channel] if g.name == group_name)
        return group.accept_low, group.accept_high

    def group_of(self, channel: int, class_name: str) -> ClassGroup:
        """The group a class belongs to on a pan."""
        return next(g for g in self.groups[channel] if any(c.name == class_name for c in g.members))

    # -- per pan ---------------------------------------------------------------

    def _refusal(self, channel: int) -> str | None:
        window = self._windows[channel]
        if not window:
            return "no_data"
        flags = window[-1].flags
        for flag in (OVERLOAD, UNDERLOAD, UNCALIBRATED):
            if flag in flags:
                return flag
        return None

    def _estimate(self, channel: int) -> Estimate | None:
        """The window's estimate, or None until the window is full.

        A window that looks like it is drifting may hold part of a ringing
        swing, or just noise on its slope: the longer windows, when one of
        them is still as a whole, settle it."""
        window = self._windows[channel]
        if len(window) < self._sizes[0]:
            return None
        if self._estimates[channel] is None:
            est = self._estimate_over(window, self._sizes[0])
            for n in self._sizes[1:]:
                if est.reason != "drifting" or len(window) < n:
                    break
                longer = self._estimate_over(window, n)
                if longer.still:
                    est = longer
            self._estimates[channel] = est
        return self._estimates[channel]

    def _estimate_over(self, window: deque[Reading], n: int) -> Estimate:
        recent = [window[-i].grams for i in range(1, n + 1)]
        if max(recent) - min(recent) > self._widest[window[-1].channel]:  # cheap: clearly moving
            return Estimate(recent[0], -math.inf, math.inf, False, "moving")
        return estimate([r.t for r in window], [r.grams for r in window], self.config, n)

    def _unfit(self, channel: int) -> PanState:
        """A still weight that fits nothing: wait a little, then ask for a reweigh."""
        now = self._windows[channel][-1].t
        since = self._unfit_since[channel]
        if since is None:
            self._unfit_since[channel] = since = now
        if now - since >= self.config.reweigh_after_s:
            return PanState(REWEIGH, reason="between_classes")
        return PanState(UNSTABLE, reason="settling")

    def identify(self, channel: int) -> PanState:
        """The class group on one pan, or why there is none yet."""
        refusal = self._refusal(channel)
        if refusal == "no_data":
            return PanState(UNSTABLE, reason=refusal)
        if refusal:
            return PanState(REFUSED, reason=refusal)
        est = self._estimate(channel)
        if est is None or not est.still:
            if est is None or est.reason == "moving":
                self._unfit_since[channel] = None  # real motion, not a noisy slope
            return PanState(UNSTABLE, reason=est.reason if est else "filling")
        groups = self.groups[channel]
        if est.high < self.config.empty_fraction * groups[0].low:
            self._unfit_since[channel] = None
            return PanState(WAITING, reason="empty")
        for group in groups:
            if group.fits(est.low, est.high):
                self._unfit_since[channel] = None
                return PanState("class", group)
        return self._unfit(channel)

    # -- verdicts --------------------------------------------------------------

    def _time(self) -> float | None:
        times = [w[-1].t for w in self._windows if w]
        return max(times) if times else None

    def battle(self) -> Verdict:
        """Two pans: which is heavier, with each pan's class group."""
        pans = [self.identify(0), self.identify(1)]
        for kind in (REFUSED, UNSTABLE, WAITING, REWEIGH):
            for p in pans:
                if p.kind == kind:
                    return Verdict(kind, self._time(), reason=p.reason)
        left, right = pans[0].group, pans[1].group
        if left.overlaps(right):
            kind = BALANCED
        else:
            kind = LEFT if left.low > right.high else RIGHT
        return Verdict(kind, self._time(), left.name, right.name)
