"""A start that keeps failing waits longer each time (companion/backoff.py): systemd 252,
the Pi's, ignores RestartSteps=, so the unit's fixed RestartSec=5 looped every 5 s."""

import json
import os
import subprocess
import sys
import time
import types

import pytest

from companion import backoff, cli
from companion.backoff import FIRST_S, FORGET_S, MOST_S, StartRecord
from companion.clock import Moment


class FakeClock:
    """`companion.clock.now` with a wall clock NTP may step (`step`), a boot clock, and
    restarts of the machine (`reboot`)."""

    def __init__(self, now=1_800_000_000.0, synced=True):
        self.now, self.uptime, self.boot, self.synced, self.slept = now, 30.0, "boot-1", synced, []

    def __call__(self):
        return Moment(self.now, self.boot, self.uptime, self.synced)

    def wait(self, seconds):
        self.now += seconds
        self.uptime += seconds

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.wait(seconds)

    def step(self, seconds):
        self.now += seconds  # NTP steps the wall clock; the boot clock runs on

    def reboot(self, off_s, synced=True):
        self.boot, self.uptime, self.synced = f"boot-{int(self.boot[5:]) + 1}", 30.0, synced
        self.now += off_s


def record(tmp_path, clock):
    return StartRecord(tmp_path, clock=clock, sleep=clock.sleep)


def test_each_failed_try_doubles_the_wait_up_to_five_minutes(tmp_path):
    clock = FakeClock()
    waits = []
    for _ in range(12):  # twelve starts that crash 2 s in, each restarted by systemd 5 s later
        waits.append(record(tmp_path, clock).begin())
        clock.wait(2 + 5)
    assert waits == [0, 5, 10, 20, 40, 80, 160, 300, 300, 300, 300, 300]
    assert clock.slept == waits[1:]


def test_a_start_that_got_going_clears_the_record(tmp_path):
    clock = FakeClock()
    for _ in range(4):
        record(tmp_path, clock).begin()
    record(tmp_path, clock).healthy()
    assert not (tmp_path / backoff.FILENAME).exists()
    assert record(tmp_path, clock).begin() == 0  # a crash an hour into a game is retried at once
    assert record(tmp_path, clock).begin() == FIRST_S


def test_old_tries_are_forgotten(tmp_path):
    clock = FakeClock()
    for _ in range(5):
        record(tmp_path, clock).begin()
    clock.wait(FORGET_S + 1)  # fixed, for half an hour
    assert record(tmp_path, clock).begin() == 0
    for _ in range(5):
        record(tmp_path, clock).begin()
    clock.reboot(FORGET_S + 1)  # the Pi was off for half an hour
    assert record(tmp_path, clock).begin() == 0


@pytest.mark.parametrize("step", [-3600, -86400, -365 * 86400, 3600, 365 * 86400])
def test_a_clock_step_neither_forgets_the_tries_nor_makes_them_new(tmp_path, step):
    """Issue 41, finding 3: no real-time clock, so NTP steps the clock after the Pi boots,
    back (after a power cut) or forward.  The tries were stamped with the wall clock: a
    step back put them in the future and a step forward an hour away, and both forgot
    them, so the crash loop restarted at 5 s."""
    clock = FakeClock(synced=False)  # not set yet: the Pi has just booted
    for _ in range(3):
        record(tmp_path, clock).begin()
        clock.wait(2 + 5)
    clock.step(step)
    clock.synced = True
    assert record(tmp_path, clock).begin() == 4 * FIRST_S  # the fourth failure in a row
    clock.wait(FORGET_S + 1)  # and they are still forgotten when they are old by the boot clock
    assert record(tmp_path, clock).begin() == 0


def test_tries_of_an_earlier_boot_count_by_the_clock_only_when_it_was_set(tmp_path):
    clock = FakeClock()
    for _ in range(3):
        record(tmp_path, clock).begin()
    clock.reboot(60)  # restarted by hand a minute later, the clock set then and now
    assert record(tmp_path, clock).begin() == 4 * FIRST_S
    clock.reboot(-7200, synced=False)  # restarted with a clock not yet set (from 2 h before)
    assert record(tmp_path, clock).begin() == 0  # unknown: no wait on a machine restarted by hand
    clock.reboot(300)  # set again: the try made while it was not says nothing of its age
    assert record(tmp_path, clock).begin() == 0


def test_a_record_of_wall_times_from_an_older_companion_still_counts(tmp_path):
    clock = FakeClock()
    (tmp_path / backoff.FILENAME).write_text(json.dumps([clock.now - 20, clock.now - 10]))
    assert record(tmp_path, clock).begin() == 2 * FIRST_S


def test_a_damaged_or_unwritable_record_never_stops_a_start(tmp_path, capsys):
    clock = FakeClock()
    for text in ("{not json", '{"a": 1}', '["x", null, 1e400]', "\xff"):
        (tmp_path / backoff.FILENAME).write_text(text)
        assert record(tmp_path, clock).tries() == []
    assert record(tmp_path, clock).begin() == 0
    gone = StartRecord(tmp_path / "missing", clock=clock, sleep=clock.sleep)
    assert gone.begin() == 0 and "cannot keep the record of failed starts" in capsys.readouterr().err
    gone.healthy()  # nothing to clear: no error either


def test_the_delay_never_exceeds_its_ceiling():
    assert [backoff.delay_after(n) for n in range(4)] == [0, FIRST_S, 2 * FIRST_S, 4 * FIRST_S]
    assert backoff.delay_after(10_000) == MOST_S


def test_only_the_appliance_backs_off(monkeypatch, tmp_path):
    assert backoff.record({}) is None  # a start from a terminal never waits
    found = backoff.record({"STATE_DIRECTORY": f"{tmp_path}:/elsewhere", "COMPANION_BACKOFF_FIRST_S": "x"})
    assert found.path == tmp_path / backoff.FILENAME and found.first_s == FIRST_S


def test_try_again_on_the_problem_screen_is_a_start_that_got_going(tmp_path, monkeypatch):
    """A person who read the message and tapped Try again is no loop."""
    clock = FakeClock()
    starts = record(tmp_path, clock)
    starts.begin()
    monkeypatch.setenv("COMPANION_PROBLEM_WINDOW", "1")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    tapped = types.ModuleType("companion.ui.problems")  # Kivy's window, without Kivy: Try again tapped
    tapped.show_start_problem = lambda error, cfg: None
    monkeypatch.setitem(sys.modules, "companion.ui.problems", tapped)
    monkeypatch.setitem(sys.modules, "companion.ui.app", types.ModuleType("companion.ui.app"))
    assert cli._show_on_screen(RuntimeError("x"), None, starts) is None
    assert record(tmp_path, clock).begin() == 0


START = """
import sys
if sys.argv[1] == "crash":
    import companion.config
    companion.config.load = lambda *a, **k: 1 / 0
from companion.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("how, status", [("config", 2), ("crash", 3)])
def test_consecutive_failing_starts_wait_longer_each_time_and_leave_one_crash_file(tmp_path, how, status):
    """As systemd runs it: the same failing start again and again, each a new process."""
    bad = tmp_path / "config.yaml"
    bad.write_text("sound:\n  volume: .nan\n" if how == "config" else "language: en\n")
    (tmp_path / "run").mkdir()
    env = {**os.environ, "STATE_DIRECTORY": str(tmp_path / "state"), "COMPANION_BACKOFF_FIRST_S": "0.5",
           "XDG_RUNTIME_DIR": str(tmp_path / "run"), "COMPANION_PROBLEM_WINDOW": "0"}
    (tmp_path / "state").mkdir()
    took, said = [], []
    for _ in range(4):
        started = time.monotonic()
        result = subprocess.run([sys.executable, "-c", START, how, "--config", str(bad)],
                                capture_output=True, text=True, timeout=120, env=env)
        took.append(time.monotonic() - started)
        assert result.returncode == status and "Traceback" not in result.stderr, result.stderr
        said.append([line for line in result.stderr.splitlines() if "did not get going" in line])
    assert said[0] == []
    for n, lines in enumerate(said[1:], start=1):
        wait = 0.5 * 2 ** (n - 1)
        assert len(lines) == 1 and f"the last {n} start" in lines[0] and f"waiting {wait:g} s" in lines[0]
        assert took[n] >= wait  # it did wait (a lower bound: how long Python takes to start varies)
    assert len(list((tmp_path / "run").iterdir())) == (1 if how == "crash" else 0)  # one crash file, not one per try
