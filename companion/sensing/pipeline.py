"""The signal pipeline: raw HX711 counts in, grams with a stable flag out, per channel.

Per sample: spike rejection (median of the last 3 reads; the sample itself is kept
too, in `Reading.unfiltered_g`) -> grams through the
tare offset and counts/gram -> motion check (range over a short window, like
a scale's motion indicator) -> zero tracking while the pan is empty and still
-> overload / underload flags.  Every window is in seconds, never in samples,
so 10 and 80 samples/s behave alike; the sample rate is measured from timestamps.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from companion.i18n import Words
from companion.errors import CompanionError
from companion.sensing.source import Sample

OVERLOAD = "overload"
UNDERLOAD = "underload"
UNCALIBRATED = "uncalibrated"
RATE_TOLERANCE = 0.25  # a measured rate this far from the wanted one is another rate


def rate_differs(wanted: float | None, measured: float) -> bool:
    """Whether a measured rate is not the wanted one (False while either is unknown)."""
    if not wanted or not measured:
        return False
    return abs(measured / wanted - 1.0) > RATE_TOLERANCE


class NotStableError(CompanionError):
    """Tare or calibration was asked for while the pan was moving."""


class CalibrationError(CompanionError):
    """A calibration that cannot be right (no mass seen, bad numbers)."""


@dataclass(frozen=True)
class PipelineConfig:
    """Tuning of the per-channel pipeline; the defaults suit 10 and 80 samples/s."""

    motion_window_s: float = 0.1  # stability is judged over this much signal...
    motion_min_samples: int = 4  # ...and never fewer samples (10 samples/s -> 0.3 s)
    motion_band_g: float = 0.3  # stable when the window's range is within this
    motion_band_counts: float = 300.0  # the same before calibration (about 0.3-0.8 g)
    zero_band_g: float = 0.5  # zero tracking acts only this close to zero...
    zero_track_tau_s: float = 2.0  # ...following the reading with this time constant
    capacity_g: float = 1000.0  # above: overload
    underload_g: float = -10.0  # below: the pan is lifted off or the tare is wrong
    rate_window_s: float = 2.0  # the measured rate averages over this long


@dataclass(frozen=True, slots=True)
class Reading:
    """One filtered sample of one channel."""

    t: float
    channel: int
    raw: int  # counts after spike rejection
    grams: float
    stable: bool
    flags: frozenset[str] = frozenset()
    unfiltered_g: float | None = None  # the sample itself in grams, before spike rejection (None: as `grams`)

    @property
    def sample_g(self) -> float:
        """The sample in grams before the median of 3 (which lags a reading and clips a swing's tips)."""
        return self.grams if self.unfiltered_g is None else self.unfiltered_g


def _median3(a: int, b: int, c: int) -> int:
    return max(min(a, b), min(max(a, b), c))


class ChannelPipeline:
    """Tare, calibration, spike rejection, stability and zero tracking for one load cell."""

    def __init__(self, channel: int, rate_hz: float | None = None, config: PipelineConfig = PipelineConfig(),
                 offset: float = 0.0, counts_per_gram: float | None = None):
        self.channel = channel
        self.config = config
        self.offset = float(offset)
        self.counts_per_gram = counts_per_gram
        self.nominal_rate_hz = float(rate_hz or 0.0)  # what `rate_hz` says until it is measured
        self._last3: deque[tuple[int, bool]] = deque(maxlen=3)
        self._window: deque[tuple[float, int]] = deque()  # (t, filtered counts) over motion_window_s
        self._times: deque[float] = deque()
        self.latest: Reading | None = None

    @property
    def calibrated(self) -> bool:
        return self.counts_per_gram is not None

    @property
    def _scale(self) -> float:
        return self.counts_per_gram if self.counts_per_gram is not None else 1.0

    def grams(self, counts: float) -> float:
        return (counts - self.offset) / self._scale

    @property
    def stable(self) -> bool:
        """Still over the last `motion_window_s`, seen in at least `motion_min_samples`."""
        w, cfg = self._window, self.config
        if len(w) < cfg.motion_min_samples or w[-1][0] - w[0][0] < cfg.motion_window_s * 0.999:
            return False
        band = cfg.motion_band_g * abs(self._scale) if self.calibrated else cfg.motion_band_counts
        values = [raw for _, raw in w]
        return max(values) - min(values) <= band

    @property
    def rate_hz(self) -> float:
        """Samples per second measured over the last `rate_window_s` (nominal until two samples)."""
        times = self._times
        if len(times) < 2 or times[-1] <= times[0]:
            return self.nominal_rate_hz
        return (len(times) - 1) / (times[-1] - times[0])

    @property
    def rate_known(self) -> bool:
        """Whether `rate_hz` is measured over at least half of `rate_window_s`."""
        return len(self._times) > 2 and self._times[-1] - self._times[0] >= self.config.rate_window_s / 2

    def feed(self, sample: Sample) -> Reading:
        """Take one raw sample; return the filtered reading."""
        cfg = self.config
        self._times.append(sample.t)
        while self._times[0] < sample.t - cfg.rate_window_s:
            self._times.popleft()
        self._last3.append((sample.raw, sample.saturated))
        raw = self._filtered()
        w = self._window
        dt = min(1.0, sample.t - w[-1][0]) if w else 0.0
        w.append((sample.t, raw))
        while len(w) > cfg.motion_min_samples and w[1][0] <= sample.t - cfg.motion_window_s:
            w.popleft()  # keeps one sample at or before the window's start: it spans the window
        grams = self.grams(raw)
        stable = self.stable
        if stable and abs(grams) <= cfg.zero_band_g:
            self._track_zero(dt)
        self.latest = Reading(sample.t, self.channel, raw, grams, stable, self._flags(grams), self.grams(sample.raw))
        return self.latest

    def _filtered(self) -> int:
        values = [raw for raw, _ in self._last3]
        if len(values) < 3:
            return values[-1]
        return _median3(*values)

    def _track_zero(self, dt: float) -> None:
        mean = sum(raw for _, raw in self._window) / len(self._window)
        self.offset += (mean - self.offset) * min(1.0, max(0.0, dt) / self.config.zero_track_tau_s)

    def _flags(self, grams: float) -> frozenset[str]:
        flags = set()
        saturated = [raw for raw, sat in self._last3 if sat]
        if grams > self.config.capacity_g or sum(r > 0 for r in saturated) >= 2:
            flags.add(OVERLOAD)
        if grams < self.config.underload_g or sum(r < 0 for r in saturated) >= 2:
            flags.add(UNDERLOAD)
        if not self.calibrated:
            flags.add(UNCALIBRATED)
        return frozenset(flags)

    def still_counts(self) -> float:
        """Mean filtered counts over the motion window; refuses while the pan moves."""
        if not self.stable:
            raise NotStableError(Words("sensing.pan_moving", channel=self.channel))
        return sum(raw for _, raw in self._window) / len(self._window)

    def tare(self) -> None:
        """Make the present load read zero (refused while the pan moves)."""
        self.offset = self.still_counts()

    def rezero(self, limit_g: float) -> bool:
        """Zero a still pan known to be empty (between battles) over a zero that moved by up to
        `limit_g` (a load cell's drift: warming, its mount settling); zero tracking follows only
        `zero_band_g`, and slowly (a piece near its spread's edge on a zero 0.2 g off reads apart
        from its pieces, and the judge then holds as for a resting finger).  False, and the zero kept, when it reads further off: something lies on it,
        or the zero moved more than a cell plausibly drifts.  Refused while the pan moves."""
        counts = self.still_counts()
        grams = self.grams(counts)
        if abs(grams) > limit_g:
            return False
        self.offset = counts  # at once, even within `zero_band_g`: tracking would take seconds to catch up
        return True

    def calibrate(self, known_g: float) -> float:
        """Set counts/gram from a known mass lying on the tared pan; returns it."""
        if known_g <= 0:
            raise CalibrationError(Words("sensing.mass_positive", known_g=known_g))
        delta = self.still_counts() - self.offset
        if abs(delta) < 10.0:
            raise CalibrationError(Words("sensing.no_change", channel=self.channel))
        self.counts_per_gram = delta / known_g
        return self.counts_per_gram


class Pipeline:
    """One `ChannelPipeline` per load cell, fed with a source's merged samples."""

    def __init__(self, channels: int = 2, rate_hz: float | None = None, config: PipelineConfig = PipelineConfig(),
                 calibration: Mapping[str, Any] | None = None):
        self.config = config
        self.channels = [ChannelPipeline(c, rate_hz, config) for c in range(channels)]
        if calibration is not None:
            self.apply_calibration(calibration)

    @property
    def measured_rate_hz(self) -> float:
        """Samples per second per channel, once measured on every channel (else 0)."""
        if not all(ch.rate_known for ch in self.channels):
            return 0.0
        return sum(ch.rate_hz for ch in self.channels) / len(self.channels)

    def feed(self, samples: Iterable[Sample]) -> list[Reading]:
        """Readings for the samples, in order (samples of unknown channels are ignored)."""
        n = len(self.channels)
        return [self.channels[s.channel].feed(s) for s in samples if 0 <= s.channel < n]

    def latest(self, channel: int) -> Reading | None:
        return self.channels[channel].latest

    def tare(self, channel: int | None = None) -> None:
        """Tare one channel, or all (checking every one is still before changing any)."""
        chosen = self.channels if channel is None else [self.channels[channel]]
        offsets = [ch.still_counts() for ch in chosen]
        for ch, offset in zip(chosen, offsets):
            ch.offset = offset

    def rezero(self, limit_g: float) -> list[int]:
        """Between battles, zero every still pan within `limit_g` (ChannelPipeline.rezero); returns
        the channels that read further off (a pan still moving is left for a later try)."""
        beyond = []
        for ch in self.channels:
            try:
                if ch.calibrated and not ch.rezero(limit_g):
                    beyond.append(ch.channel)
            except NotStableError:
                pass
        return beyond

    def calibration(self) -> dict[str, Any]:
        """The tare offsets and scales as a plain, saveable dict."""
        return {"channels": [{"offset": ch.offset, "counts_per_gram": ch.counts_per_gram}
                             for ch in self.channels]}

    def apply_calibration(self, data: Mapping[str, Any]) -> None:
        """Load a dict made by `calibration()` (or by calibration.Calibrator)."""
        try:
            entries = list(data["channels"])
            values = [(float(e["offset"]), None if e["counts_per_gram"] is None else float(e["counts_per_gram"]))
                      for e in entries]
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(Words("sensing.calibration_unreadable", error=repr(exc))) from None
        if len(values) != len(self.channels) or any(cpg == 0 for _, cpg in values):
            raise CalibrationError(Words("sensing.calibration_mismatch"))
        for ch, (offset, cpg) in zip(self.channels, values):
            ch.offset, ch.counts_per_gram = offset, cpg
