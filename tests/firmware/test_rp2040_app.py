"""Into the app: the emulated Pico's USB serial port is a pseudo-terminal, the app opens it
as `sensor.source: serial` (its own SerialSource), and its pipeline and judge decide a
whole 軍艦将棋 battle whose masses the HX711 models turn into counts.

The board runs freely here (as fast as the emulation goes, never ahead of wall time),
and the app stamps what arrives with its own clock, as it does with a real Pico."""

import os
import time
import tty

import pytest
from emulated_pico import EmulatedPico

from companion import config
from companion.games.gunkan.pieces import DEFAULT_MASSES_G, COUNTERWEIGHT, SUBMARINE
from companion.games.gunkan.seesaw import Seesaw
from companion.sensing.factory import open_source
from companion.sensing.judge import BALANCED, RIGHT

# The load cells as the models see them: counts at gain 128 = offset + grams * scale.
OFFSETS, SCALES = (81234.0, -20511.0), (431.7, 402.9)
BATTLES = [("landing_ship", "mine", RIGHT), (f"{SUBMARINE}+{COUNTERWEIGHT}", "carrier", BALANCED)]


def grams_of(piece):
    return sum(DEFAULT_MASSES_G[name] for name in piece.split("+"))


class Table:
    """The emulated board behind a pty, and the app's seesaw on it."""

    def __init__(self, flash, tmp_path):
        master, slave = os.openpty()
        tty.setraw(slave)  # a raw line before the app configures it
        self.fds = (master, slave)
        self.port = tmp_path / "ttyACM0"
        os.symlink(os.ttyname(slave), self.port)
        self.pico = EmulatedPico(flash, seed=3, extra_args=["--pty-fd", str(master)], pass_fds=(master,))
        for chip in (0, 1):
            self.pico.signal(chip, wave=0, noise=0.01)
            self.put(chip, 0.0)
        cfg = config.parse(f"sensor:\n  source: serial\n  serial:\n    port: {self.port}\n")
        self.seesaw = Seesaw(open_source(cfg.sensor))

    def put(self, chip, grams):
        self.pico.signal(chip, a=(OFFSETS[chip] + grams * SCALES[chip]) / 128)

    def run(self, seconds, until=None):
        """Poll the app's seesaw for `seconds` of wall time, or until until() holds."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.seesaw.poll()
            hit = until and until()
            if hit:
                return hit
            time.sleep(0.02)
        return None

    def settle(self, chip, grams):
        """Put `grams` on a pan and wait until the pipeline sees it still."""
        self.put(chip, grams)
        pipeline = self.seesaw.pipeline
        channel = pipeline.channels[chip]
        # Before calibration the pipeline's "grams" are counts from the tare.
        target = grams if channel.calibrated else grams * SCALES[chip]

        def still_there():
            latest = pipeline.latest(chip)
            return latest and abs(latest.grams - target) < 0.01 * abs(target) + 1 and channel.stable

        assert self.run(30, still_there), f"pan {chip} never settled at {grams} g"

    def close(self):
        self.seesaw.source.close()
        self.pico.close()
        for fd in self.fds:
            os.close(fd)


@pytest.fixture
def table(pico_flash, tmp_path):
    t = Table(pico_flash, tmp_path)
    yield t
    t.close()


def test_the_app_judges_a_battle_from_the_emulated_pico(table):
    source = table.seesaw.source
    assert table.run(30, lambda: source.status().connected and table.seesaw.pipeline.latest(1)), \
        "no samples through the app's serial path"
    channels = table.seesaw.pipeline.channels
    assert table.run(30, lambda: all(ch.stable for ch in channels)), "the empty pans never settled"
    table.seesaw.tare()
    for pan in (0, 1):  # the calibration wizard's steps: a known 100 g on each pan
        table.settle(pan, 100.0)
        table.seesaw.pipeline.channels[pan].calibrate(100.0)
        table.settle(pan, 0.0)
    for attacker, defender, kind in BATTLES:
        table.seesaw.reset()
        table.put(0, grams_of(attacker))
        table.run(0.7)
        table.put(1, grams_of(defender))
        verdict = table.run(30, lambda: (v := table.seesaw.battle()).final and v)
        assert verdict and verdict.kind == kind, (attacker, defender, verdict)
        table.settle(0, 0.0)
        table.settle(1, 0.0)
    assert source.status().bad == 0
