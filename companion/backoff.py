"""A start that keeps failing waits longer before each try, so the appliance's service
never loops faster than its back-off, on any systemd (252, the Pi's, has no growing
`RestartSec`: `RestartSteps=` is 254's).

Each start is written down in the state directory (`$STATE_DIRECTORY`, which the unit's
`StateDirectory=` sets; nothing is kept without it, so a start from a terminal never
waits) before it goes on, and the record is cleared once the start proves healthy: the
app ran `HEALTHY_S`, a person tapped Try again on the start's problem screen, or it
ended with exit status 0.  A start that crashed, hung up or was killed (even by a signal,
which runs no clean-up) stays written down, so the next start finds the tries that did
not get going and waits `FIRST_S`, then twice as long each time, at most `MOST_S`.
Tries older than `FORGET_S` are forgotten (a failure last week is no loop).

A try is written down with its moment (`companion.clock`): its age is counted by the
boot's clock, so a wall clock stepped by NTP (a Pi has no real-time clock) neither
forgets the tries of this boot nor makes them new.  A try from an earlier boot counts
only while the wall clocks, set by NTP then and now, say it is recent: a machine
restarted with its clock not yet set starts afresh (a boot takes longer than the first
waits; a loop of failed starts is one boot's)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from companion.clock import Moment, elapsed, now

FILENAME = "failed-starts.json"
FIRST_S = 5.0  # the wait after one failed try (on top of the unit's RestartSec)
MOST_S = 300.0  # never more than 5 min: a passing problem is retried soon enough
FORGET_S = 1800.0  # tries before this long ago do not count (the unit's StartLimitIntervalSec)
HEALTHY_S = 60.0  # a start that ran this long got going


def delay_after(failures: int, first_s: float = FIRST_S, most_s: float = MOST_S) -> float:
    """The wait before a try that follows `failures` failed ones."""
    if failures <= 0:
        return 0.0
    return min(first_s * 2.0 ** min(failures - 1, 64), most_s)


class StartRecord:
    """The failed tries kept in `directory`; `clock` and `sleep` are companion.clock.now
    and time.sleep but for tests."""

    def __init__(self, directory: str | os.PathLike, clock=now, sleep=time.sleep,
                 first_s: float = FIRST_S):
        self.path = Path(directory) / FILENAME
        self.clock, self.sleep, self.first_s = clock, sleep, first_s

    def tries(self) -> list[Moment]:
        """The moments of recent tries not known to have got going (a damaged or missing
        record is none: the back-off must never be what stops a start)."""
        try:
            stored = json.loads(self.path.read_text())
            at = self.clock()
            kept = [m for m in map(Moment.from_json, stored) if m is not None]
            return [m for m in kept if (age := elapsed(m, at)) is not None and age <= FORGET_S]
        except (OSError, ValueError, TypeError, RecursionError):
            return []

    def begin(self) -> float:
        """Wait as long as the recent failed tries call for, write this try down, and
        return the wait (seconds)."""
        failures = len(self.tries())
        wait = delay_after(failures, self.first_s)
        if wait:
            print(f"companion: the last {failures} start{'s' * (failures > 1)} did not get going; "
                  f"waiting {wait:g} s before trying again (the record is {self.path})",
                  file=sys.stderr, flush=True)
            self.sleep(wait)
        self._write(self.tries() + [self.clock()])
        return wait

    def healthy(self) -> None:
        """This start got going: the next one does not wait."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            self._write([])

    def _write(self, tries: list[Moment]) -> None:
        try:
            partial = self.path.with_suffix(".partial")
            partial.write_text(json.dumps([m.to_json() for m in tries[-64:]]))
            partial.replace(self.path)
        except OSError as exc:  # a read-only or full disk: start without a back-off, say so
            print(f"companion: cannot keep the record of failed starts in {self.path} ({exc}); "
                  "a failing start is retried without waiting longer", file=sys.stderr, flush=True)


def record(environ=os.environ) -> StartRecord | None:
    """The appliance's record (under systemd's `StateDirectory=`), or None."""
    directory = environ.get("STATE_DIRECTORY", "").split(":")[0]
    if not directory:
        return None
    try:  # tests shorten the waits; a value that is not a number is the default
        first = float(environ.get("COMPANION_BACKOFF_FIRST_S", FIRST_S))
    except ValueError:
        first = FIRST_S
    return StartRecord(directory, first_s=first)
