"""When something happened, as a machine without a real-time clock can know it (issue 41).

A Raspberry Pi boots with the last saved time and NTP steps its clock later, forward or
back, so a wall time (`time.time()`) written before the step cannot be compared with one
read after it.  A `Moment` keeps, besides the wall time, the kernel's boot id and the time
since that boot (CLOCK_BOOTTIME: no step moves it, and it counts a suspend), and whether
NTP had set the wall clock.  `elapsed` is the time between two moments as far as it can
be known: by the boot clock within one boot; across boots by the wall clocks only when
neither is known to be unset and the answer is not negative; else None (unknown), said
as such rather than as a wrong age.  What came last is never read from a clock: the
store numbers its writes (`games.written`).
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass
from functools import lru_cache

BOOT_ID = "/proc/sys/kernel/random/boot_id"
STEP_S = 2.0  # a smaller difference between the wall and the boot clock is no step
TIME_ERROR = 5  # adjtimex's answer while the kernel's clock is not synchronised (STA_UNSYNC)


@dataclass(frozen=True)
class Moment:
    wall: float  # time.time() then: what the clock said, right or not
    boot: str | None = None  # the kernel's boot id (None: not known)
    uptime: float | None = None  # seconds since that boot, by CLOCK_BOOTTIME
    synced: bool | None = None  # NTP had set the wall clock (None: not known)

    def to_json(self) -> dict:
        return {"wall": self.wall, "boot": self.boot, "uptime": self.uptime, "synced": self.synced}

    @classmethod
    def from_json(cls, value) -> "Moment | None":
        """A stored moment (a bare number is a wall time, as older records kept); None if
        it is not one."""
        if type(value) in (int, float):
            return cls(float(value))
        if not isinstance(value, dict) or type(value.get("wall")) not in (int, float):
            return None
        boot, uptime, synced = value.get("boot"), value.get("uptime"), value.get("synced")
        return cls(float(value["wall"]), boot if isinstance(boot, str) else None,
                   float(uptime) if isinstance(uptime, (int, float)) and not isinstance(uptime, bool) else None,
                   synced if isinstance(synced, bool) else None)


def now(wall=time.time) -> Moment:
    """This moment; `wall` is time.time but for tests."""
    return Moment(float(wall()), boot_id(), boot_clock(), wall_synced())


def elapsed(then: Moment, at: Moment) -> float | None:
    """Seconds from `then` to `at`, or None when they cannot be known."""
    if _one_boot(then, at):
        assert at.uptime is not None and then.uptime is not None, "_one_boot checked them"
        return max(0.0, at.uptime - then.uptime)
    if then.synced is False or at.synced is False:
        return None  # a clock from before NTP set it: any difference may be a step
    seconds = at.wall - then.wall
    return seconds if seconds >= 0 else None


def wall_time_of(then: Moment, at: Moment) -> float | None:
    """The wall time `then` happened, by `at`'s clock within one boot (right even if the
    clock was stepped since); across boots as it was written, unless its clock was unset."""
    if _one_boot(then, at):
        seconds = elapsed(then, at)
        assert seconds is not None, "known within one boot"
        estimate = at.wall - seconds
        return then.wall if abs(estimate - then.wall) < STEP_S else estimate  # no step: as written
    return None if then.synced is False else then.wall


def _one_boot(then: Moment, at: Moment) -> bool:
    return then.boot is not None and then.boot == at.boot and None not in (then.uptime, at.uptime)


@lru_cache(maxsize=1)
def boot_id() -> str | None:
    try:
        with open(BOOT_ID) as file:
            return file.read().strip() or None
    except OSError:
        return None


def boot_clock() -> float | None:
    try:
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    except (AttributeError, OSError):
        return None


@lru_cache(maxsize=1)
def _adjtimex():
    try:
        return ctypes.CDLL(None, use_errno=True).adjtimex
    except (OSError, AttributeError):
        return None


def wall_synced() -> bool | None:
    """Whether NTP has set the wall clock (adjtimex, as `timedatectl` asks); None if the
    system does not say."""
    call = _adjtimex()
    if call is None:
        return None
    buffer = ctypes.create_string_buffer(512)  # struct timex (about 208 bytes), modes 0: only read
    state = call(buffer)
    return None if state < 0 else state != TIME_ERROR
