"""The host's SerialSource talks to the firmware's own code over a pty, end to end.

The firmware (seesaw.app on fake chips, real time) runs in a thread on the
master side of a pty; the host opens a symlink to the slave side, like
/dev/serial/by-id/...  Unplugging closes the pty and removes the link; plugging
back in boots a fresh firmware on a new pty behind the same path.
"""

import os
import threading
import time
import tty

import pytest
from seesaw.app import App
from seesaw_fakes import FakeHardware, FakeHX711, PtyLine, RealClock

from companion.sensing.serial_link import SerialSource


def wait_until(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.02)


class PluggedPico:
    """A firmware running behind `path` until unplugged."""

    def __init__(self, path, values=(1000, -2000)):
        self.path = path
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo before the host configures the port
        tmp = f"{path}.new"
        os.symlink(os.ttyname(self.slave), tmp)
        os.replace(tmp, path)
        clock = RealClock()
        self.chips = [FakeHX711(clock, v) for v in values]
        self.hw = FakeHardware(self.chips, PtyLine(self.master), clock)
        self.app = App(self.hw)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.app.run, args=(lambda: not self._stop.is_set(),),
                                        daemon=True)
        self._thread.start()

    def unplug(self):
        self._stop.set()
        self._thread.join(timeout=5)
        os.unlink(self.path)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def port_path(tmp_path):
    return str(tmp_path / "ttySEESAW")


def collect(source, n):
    got = []
    wait_until(lambda: got.extend(source.poll()) or len(got) >= n)
    return got


def test_streams_obeys_commands_and_reports_faults(port_path):
    pico = PluggedPico(port_path)
    try:
        with SerialSource(port_path, rate=80, gain=64, backoff=(0.05, 0.2)) as source:
            wait_until(lambda: source.status().connected)
            samples = collect(source, 40)
            assert {(s.channel, s.raw) for s in samples[-20:]} == {(0, 500), (1, -1000)}  # gain 64: half
            assert pico.hw.rate == 80 and pico.chips[0].pulses[-1] == 3
            status = source.status()
            assert status.extra["settings"] == {"rate": 80, "gain": 64, "running": True}
            assert status.bad == 0 and status.dropped == 0
            wait_until(lambda: source.status().rate_hz > 0)

            pico.chips[1].mode = "missing"
            wait_until(lambda: source.status().extra["faults"] == {1: "missing"})
            assert "channel 1" in source.status().detail
            source.poll()
            assert {s.channel for s in collect(source, 10)} == {0}
            pico.chips[1].mode = "ok"
            wait_until(lambda: source.status().extra["faults"] == {})

            source.identify()
            wait_until(lambda: pico.app.led_state(pico.hw.ticks_ms()) == "identify")
    finally:
        pico.unplug()


def test_unplug_and_replug_at_the_same_path(port_path):
    pico = PluggedPico(port_path, values=(111, 222))
    try:
        with SerialSource(port_path, rate=80, backoff=(0.05, 0.2)) as source:
            wait_until(lambda: source.status().connected)
            assert {s.raw for s in collect(source, 10)} == {111, 222}

            pico.unplug()
            wait_until(lambda: not source.status().connected)
            wait_until(lambda: "cannot open" in source.status().detail)

            pico = PluggedPico(port_path, values=(333, 444))  # a fresh boot: rate 10 again
            wait_until(lambda: source.status().connected
                       and source.status().extra["connections"] == 2)
            source.poll()
            assert {s.raw for s in collect(source, 10)} == {333, 444}
            assert pico.hw.rate == 80  # the wanted rate was applied again
            assert source.status().dropped == 0
    finally:
        pico.unplug()
