"""Recorded streams: the raw per-channel samples of any source, saved and played back.

A recording is a text file of JSON lines (gzip-compressed when its name ends
in ".gz").  The first line is the header:

    {"format": "companion-recording", "version": 1, "source": "serial",
     "rate_hz": 80.0, "channels": 2, "calibration": {...} or null, "note": "..."}

then one line per sample, `[t, channel, raw]` (`[t, channel, raw, 1]` when the
ADC was saturated), and one line per event tapped during the recording,
`{"t": ..., "event": "placed", ...}`: "reset" (the pans were cleared for a
weighing), "placed" (pan, piece, and where known the hand's let-go time),
"verdict" (what the screen showed).  Times are the source's seconds.
`RecordingSource` records while it passes samples on; `ReplaySource` plays a
file back at its recorded timing, so the first real seesaw's recordings drop
into the benches and the tests.  A recording is read through the guard of every
file a person hands the app (companion/userfile.py): a regular file, at most
`RECORDING.max_bytes` once decompressed (80 samples/s on two pans write about
12 MB an hour: tests/sensing/data/battle-80hz-*), no line longer than `RECORDING.max_line`.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Mapping, Self

from companion import userfile
from companion.i18n import Words
from companion.sensing.source import Clock, Sample, SensorError, SourceStatus, WeightSource, monotonic

FORMAT, VERSION = "companion-recording", 1
RECORDING = userfile.Kind("files.what_recording", max_bytes=64 << 20, max_line=64 * 1024)


def _create(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "wt", encoding="utf-8")
    return open(path, "w", encoding="utf-8")


class Recorder:
    """Writes a recording: the header at once, then samples and events as they come."""

    def __init__(self, path: str | Path, *, source: str, rate_hz: float, channels: int = 2,
                 calibration: Mapping[str, Any] | None = None, note: str = "") -> None:
        self.path = Path(path)
        self._file = _create(self.path)
        self._write({"format": FORMAT, "version": VERSION, "source": source, "rate_hz": float(rate_hz),
                     "channels": int(channels), "calibration": calibration, "note": note})

    def _write(self, item: object) -> None:
        self._file.write(json.dumps(item, separators=(",", ":")) + "\n")

    def samples(self, samples: list[Sample]) -> None:
        for s in samples:
            self._write([round(s.t, 6), s.channel, s.raw, 1] if s.saturated else [round(s.t, 6), s.channel, s.raw])

    def event(self, t: float, event: str, **data: Any) -> None:
        """Note something that happened at time `t` (the source's clock)."""
        self._write({"t": round(float(t), 6), "event": event, **data})

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Recording:
    header: dict[str, Any]
    samples: list[Sample] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rate_hz(self) -> float:
        return float(self.header["rate_hz"])

    @property
    def calibration(self) -> dict[str, Any] | None:
        calibration: dict[str, Any] | None = self.header.get("calibration")
        return calibration


def read_recording(path: str | Path) -> Recording:
    """Load a recording; a damaged or foreign file is refused naming the file and line."""
    path = Path(path)

    def bad(line_no: int, why: str) -> SensorError:
        return SensorError(Words("sensing.recording_unreadable", path=path, line=line_no, why=why))

    try:
        lines = userfile.read_text(path, RECORDING).splitlines()
    except userfile.FileRefused as exc:
        raise SensorError(*exc.args) from None
    if not lines:
        raise bad(1, "empty file")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise bad(1, f"the first line is not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise bad(1, f"version {header.get('version')!r}; this companion reads version {VERSION}")
    recording = Recording(header)
    channels = int(header.get("channels", 2))
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise bad(number, f"{exc.msg}") from None
        if isinstance(item, list) and len(item) in (3, 4) and all(isinstance(v, (int, float)) for v in item):
            t, channel, raw = float(item[0]), int(item[1]), int(item[2])
            if not 0 <= channel < channels:
                raise bad(number, f"channel {channel} of a {channels}-channel recording")
            recording.samples.append(Sample(t, channel, raw, len(item) == 4 and bool(item[3])))
        elif isinstance(item, dict) and isinstance(item.get("event"), str) and isinstance(item.get("t"), (int, float)):
            recording.events.append(item)
        else:
            raise bad(number, "neither a sample [t, channel, raw] nor an event {t, event}")
    return recording


class RecordingSource(WeightSource):
    """Any source, recorded to a file while its samples pass through unchanged."""

    def __init__(self, inner: WeightSource, recorder: Recorder):
        self.inner, self.recorder = inner, recorder
        self.name, self.channels = inner.name, inner.channels

    def poll(self) -> list[Sample]:
        samples = self.inner.poll()
        self.recorder.samples(samples)
        return samples

    def status(self) -> SourceStatus:
        return self.inner.status()

    def close(self) -> None:
        self.inner.close()
        self.recorder.close()


class ReplaySource(WeightSource):
    """A recording played back at its recorded timing (`speed` times faster), on `clock`.

    Samples keep their spacing; their times move to the clock's, so a replay
    behaves like the source that was recorded.  After the last sample the
    source stays connected and quiet (`status().extra["finished"]`)."""

    name = "replay"

    def __init__(self, path: str | Path, clock: Clock = monotonic, speed: float = 1.0):
        self.path = Path(path)
        self.recording = read_recording(self.path)
        self.channels = int(self.recording.header.get("channels", 2))
        self.clock, self.speed = clock, float(speed)
        samples = self.recording.samples
        self._t0 = samples[0].t if samples else 0.0
        self._start = clock()
        self._next = 0
        self._closed = False

    def _shift(self, t: float) -> float:
        return self._start + (t - self._t0) / self.speed

    def events(self) -> list[dict[str, Any]]:
        """The recording's events, their times moved to the clock's like the samples'."""
        return [{**e, "t": self._shift(e["t"])} for e in self.recording.events]

    def poll(self) -> list[Sample]:
        if self._closed:
            return []
        samples, now = self.recording.samples, self.clock()
        out = []
        while self._next < len(samples) and self._shift(samples[self._next].t) <= now:
            s = samples[self._next]
            out.append(Sample(self._shift(s.t), s.channel, s.raw, s.saturated))
            self._next += 1
        return out

    def status(self) -> SourceStatus:
        return SourceStatus(
            source="replay", connected=not self._closed, rate_hz=self.recording.rate_hz,
            detail=f"{self.path.name} ({self.recording.header.get('source', '?')})",
            extra={"finished": self._next >= len(self.recording.samples), "samples": len(self.recording.samples)})

    def close(self) -> None:
        self._closed = True
