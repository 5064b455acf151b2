"""`GpioSource`: the two pans read from HX711s on the Pi's GPIO pins.

Each pan is a (clock pin, data pin) pair.  Sample times are the driver's
clock in seconds (perf_counter; on Linux the same clock as time.monotonic).  Pans that share a clock pin are
read together in one pass by one `HX711` driver; each clock line gets its own
background thread, which queues samples for `poll()`.  When a chip goes
missing the thread reports it in `status()` and keeps retrying, so plugging
it back in recovers without a restart.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from typing import Callable, Sequence

from companion.sensing.hx711 import HX711, Conversion, PinFactory
from companion.sensing.source import Sample, SampleQueue, SensorError, SourceStatus, WeightSource

Pan = tuple[int | str, int | str]  # (clock pin, data pin), as gpiozero names pins
DEFAULT_PANS: tuple[Pan, ...] = ((5, 6), (5, 13))  # left, right: shared clock on GPIO5
RATE_WINDOW = 64  # samples per channel used to measure the rate


class _Stopped(Exception):
    """Raised inside a driver wait when the source is closing."""


class GpioSource(WeightSource):
    """A `WeightSource` over 1-2 HX711s; channel i is `pans[i]`."""

    name = "gpio"

    def __init__(
        self,
        pans: Sequence[Pan] = DEFAULT_PANS,
        *,
        channel: str = "A",
        gain: int = 128,
        pin_factory: PinFactory | None = None,
        timeout: float = 2.0,
        retry_s: float = 1.0,
        max_queue: int = 4096,
        clock_ns: Callable[[], int] = time.perf_counter_ns,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not pans:
            raise SensorError("GpioSource: configure at least one pan (clock pin, data pin).")
        self.channels = len(pans)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._queue = SampleQueue(max_queue)
        self._dropped = 0
        self._times: list[deque[float]] = [deque(maxlen=RATE_WINDOW) for _ in pans]
        self._errors: dict[object, str] = {}
        self._retry_s = retry_s
        self._sleep = sleep
        self._groups: list[tuple[HX711, list[int]]] = []
        self._threads: list[threading.Thread] = []
        self._closed = False
        try:
            for clock_pin, indices in _by_clock(pans).items():
                driver = HX711(clock_pin, [pans[i][1] for i in indices], channel=channel,
                               gain=gain, pin_factory=pin_factory, timeout=timeout,
                               clock_ns=clock_ns, sleep=self._interruptible_sleep)
                self._groups.append((driver, indices))
                self._errors[driver] = f"{driver.label}: waiting for the first reading"
        except BaseException:
            self.close()
            raise
        for driver, indices in self._groups:
            thread = threading.Thread(target=self._run, args=(driver, indices),
                                      name=f"gpio-{driver.label}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def poll(self) -> list[Sample]:
        with self._lock:
            return self._queue.drain()

    def status(self) -> SourceStatus:
        drivers = [driver for driver, _ in self._groups]
        with self._lock:
            errors = dict(self._errors)
            rates = [_rate(times) for times in self._times]
            dropped = self._dropped
        connected = bool(drivers) and not errors and not self._closed
        labels = "; ".join(d.label for d in drivers)
        return SourceStatus(
            source=self.name,
            connected=connected,
            rate_hz=sum(rates) / len(rates),
            bad=sum(d.bad for d in drivers),
            dropped=dropped,
            detail=" / ".join(errors.values()) if errors else labels,
            extra={
                "settle_discarded": sum(d.settle_discarded for d in drivers),
                "resets": sum(d.resets for d in drivers),
                "rejections": dict(sum((Counter(dict.copy(d.rejections)) for d in drivers),
                                       start=Counter())),
                "conversion_rate_hz": [round(d.conversion_rate_hz, 2) for d in drivers],
                "clock_high_us": [d.clock_high_us() for d in drivers],
            },
        )

    def close(self) -> None:
        """Stop the threads and release the pins. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        for thread in self._threads:
            thread.join()
        for driver, _ in self._groups:
            driver.close()

    # ----- reader threads ---------------------------------------------------

    def _interruptible_sleep(self, seconds: float) -> None:
        if self._stop.is_set():
            raise _Stopped
        self._sleep(seconds)

    def _run(self, driver: HX711, indices: list[int]) -> None:
        while not self._stop.is_set():
            try:
                readings = driver.read()
            except _Stopped:
                return
            except Exception as exc:  # noqa: BLE001 - a reader thread must not die silently
                message = str(exc) if isinstance(exc, SensorError) else (
                    f"{driver.label}: unexpected {type(exc).__name__}: {exc}")
                with self._lock:
                    self._errors[driver] = message
                self._stop.wait(self._retry_s)
                continue
            self._store(driver, indices, readings)

    def _store(self, driver: HX711, indices: list[int], readings: Sequence[Conversion]) -> None:
        with self._lock:
            self._errors.pop(driver, None)
            samples = [Sample(r.t, channel, r.raw, r.saturated) for channel, r in zip(indices, readings)]
            for sample in samples:
                self._times[sample.channel].append(sample.t)
            self._dropped += self._queue.push(samples)


def _by_clock(pans: Sequence[Pan]) -> dict[int | str, list[int]]:
    """Channel indices grouped by clock pin, in order of appearance."""
    groups: dict[int | str, list[int]] = {}
    for index, (clock_pin, _data_pin) in enumerate(pans):
        groups.setdefault(clock_pin, []).append(index)
    return groups


def _rate(times: deque[float]) -> float:
    if len(times) < 2 or times[-1] <= times[0]:
        return 0.0
    return (len(times) - 1) / (times[-1] - times[0])
