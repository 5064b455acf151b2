"""A start that keeps failing waits longer each time (companion/backoff.py): systemd 252,
the Pi's, ignores RestartSteps=, so the unit's fixed RestartSec=5 looped every 5 s."""

import os
import subprocess
import sys
import time
import types

import pytest

from companion import backoff, cli
from companion.backoff import FIRST_S, FORGET_S, MOST_S, StartRecord


class FakeClock:
    def __init__(self, now=1_800_000_000.0):
        self.now, self.slept = now, []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def record(tmp_path, clock):
    return StartRecord(tmp_path, clock=clock, sleep=clock.sleep)


def test_each_failed_try_doubles_the_wait_up_to_five_minutes(tmp_path):
    clock = FakeClock()
    waits = []
    for _ in range(12):  # twelve starts that crash 2 s in, each restarted by systemd 5 s later
        waits.append(record(tmp_path, clock).begin())
        clock.now += 2 + 5
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
    clock.now += FORGET_S + 1  # the Pi was off, or fixed, for half an hour
    assert record(tmp_path, clock).begin() == 0


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
