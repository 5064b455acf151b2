"""The one small interface every weight source implements (docs/design.md, principle 4).

A source yields timestamped raw samples per channel (channel 0 = left pan,
1 = right pan).  `poll()` never blocks: it returns what arrived since the last
call, oldest first.  Sources that read hardware do so on their own thread and
queue samples; the simulator computes them up to its clock's `now()`.
Turning counts into grams is the pipeline's job, not the source's.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Self

from companion.errors import CompanionError

Clock = Callable[[], float]  # monotonic seconds; injected so tests control time


class SensorError(CompanionError):
    """A sensor that cannot work: missing chip, unplugged link, bad settings."""


@dataclass(frozen=True, slots=True)
class Sample:
    t: float  # seconds on the source's monotonic clock
    channel: int
    raw: int  # signed ADC counts, 24-bit range
    saturated: bool = False  # the ADC sat at 0x7FFFFF / 0x800000


class SampleQueue:
    """Samples a reader thread has read and `poll()` has not yet taken.

    Bounded: when full, the oldest are dropped and counted.  Not locked:
    the source guards it with the lock it holds for its other state."""

    def __init__(self, limit: int):
        self._samples: deque[Sample] = deque(maxlen=limit)
        self._limit = limit

    def push(self, samples: Iterable[Sample]) -> int:
        """Queue `samples`, oldest first; returns how many queued samples were dropped."""
        samples = list(samples)
        dropped = max(0, len(self._samples) + len(samples) - self._limit)
        self._samples.extend(samples)
        return dropped

    def drain(self) -> list[Sample]:
        """Everything queued, oldest first; the queue is left empty."""
        samples = list(self._samples)
        self._samples.clear()
        return samples


@dataclass(frozen=True)
class SourceStatus:
    source: str  # "simulator", "gpio", "serial"
    connected: bool
    rate_hz: float  # measured samples per second per channel (0 when unknown)
    bad: int = 0  # reads or lines rejected as corrupt
    dropped: int = 0  # samples known lost (sequence gaps, queue overflow)
    detail: str = ""  # one line for people: port, firmware version, last error
    extra: dict[str, Any] = field(default_factory=dict)


class WeightSource(ABC):
    """A source of raw load-cell samples.  Close it once or many times; or use `with`."""

    name: str = "source"
    channels: int = 2
    virtual: bool = False  # True for a source with no real load cells (the simulator)

    @abstractmethod
    def poll(self) -> list[Sample]:
        """Samples that arrived since the last call, oldest first; never blocks."""

    @abstractmethod
    def status(self) -> SourceStatus:
        """Connection state and counters, for the status indicator and `monitor`."""

    def close(self) -> None:
        """Release the hardware.  Idempotent."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


monotonic: Clock = time.monotonic
