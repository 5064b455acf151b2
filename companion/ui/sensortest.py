"""The sensor test (Settings → センサーのテスト): each pan's grams and noise live, and after
30 s a verdict: both pans respond, the noise is low, no fault (companion/sensing/selftest.py).
It reads through the app's weighing device (companion/ui/sensor.py), the source's only
reader.  On the simulator a button per pan presses it like a finger."""

from __future__ import annotations

import time
from pathlib import Path

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.sensing.selftest import NOISE_MAX_G, PRESS_G, SensorTest

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TICK_S = 0.1
FINGER_G = 40.0  # the virtual finger's press
FINGER_S = 0.6


class SensorTestScreen(Screen):
    pan_texts = ListProperty(["", ""])
    checks_text = StringProperty("")
    verdict_text = StringProperty("")
    passed = BooleanProperty(False)
    virtual = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(name="sensor_test", **kwargs)
        self.test: SensorTest | None = None
        self._seen = [0.0, 0.0]
        self._tick_event = None
        self.clock = time.monotonic

    @property
    def app(self):
        from kivy.app import App

        return App.get_running_app()

    def tr(self, key: str, **values) -> str:
        return self.app.tr(key, self.app.lang, **values)

    def on_enter(self, *_):
        sensor = self.app.sensor
        self.virtual = bool(sensor is not None and sensor.virtual)
        self.start()
        if self._tick_event is None:
            self._tick_event = Clock.schedule_interval(self._tick, TICK_S)

    def on_leave(self, *_):
        if self._tick_event is not None:
            self._tick_event.cancel()
            self._tick_event = None

    def start(self) -> None:
        self.test = SensorTest()
        sensor = self.app.sensor
        if sensor is not None and sensor.status() is not None:  # the readings so far are not the test's
            self._seen = [max((r.t for r in sensor.recent(c, 0.0)), default=0.0) for c in (0, 1)]
        self._tick()

    def press(self, pan: int) -> None:
        """The virtual finger: a press on the simulator's pan, let go after FINGER_S."""
        source = self.app.sensor.source
        load = source.place(pan, grams=FINGER_G)
        Clock.schedule_once(lambda *_: source.remove(pan, load), FINGER_S)

    def _tick(self, *_):
        if self.app is None:  # the app is stopping
            return
        sensor, now = self.app.sensor, self.clock()
        status = None if sensor is None else sensor.status()
        if status is None:
            self.verdict_text, self.passed = self.tr("sensortest.no_source"), False
            return
        readings = []
        for c in (0, 1):
            fresh = sensor.recent(c, self._seen[c])
            if fresh:
                self._seen[c] = fresh[-1].t
            readings += fresh
        self.test.observe(now, readings, status)
        self._draw(now)

    def _draw(self, now: float) -> None:
        test, tr = self.test, self.tr
        texts = []
        for c, pan in enumerate(test.pans):
            side = tr("sensortest.left" if c == 0 else "sensortest.right")
            grams = "—" if pan.grams is None else (f"{pan.grams:.2f} g" if test.calibrated else
                                                    tr("sensortest.counts", n=f"{pan.grams:.0f}"))
            noise = "—" if pan.noise_g is None else f"{pan.noise_g:.3f} g"
            state = tr("sensortest.responded" if pan.responded else "sensortest.press", g=f"{PRESS_G:g}")
            texts.append(f"{side}\n[size=40sp][b]{grams}[/b][/size]\n{tr('sensortest.noise', g=noise)}\n{state}")
        self.pan_texts = texts
        mark = lambda ok: "✓" if ok else "×" if test.done(now) else "…"  # noqa: E731  (not met by the end: failed)
        faults = "、".join(self._fault(kind, ch) for kind, ch in test.faults) if self.app.lang == "ja" else \
            ", ".join(self._fault(kind, ch) for kind, ch in test.faults)
        lines = [f"{mark(test.responded)} {tr('sensortest.check_respond')}",
                 f"{mark(test.quiet)} {tr('sensortest.check_noise', g=f'{NOISE_MAX_G:g}')}",
                 f"{'×' if test.faults else mark(test.done(now))} {tr('sensortest.check_faults', s=f'{test.duration_s:g}')}"
                 + (f"：{faults}" if test.faults and self.app.lang == "ja" else f": {faults}" if test.faults else "")]
        if not test.calibrated:
            lines.append(tr("sensortest.uncalibrated"))
        self.checks_text = "\n".join(lines)
        self.passed = test.passed and test.done(now)
        if test.done(now):
            self.verdict_text = tr("sensortest.pass" if test.passed else "sensortest.fail")
        else:
            self.verdict_text = tr("sensortest.running", s=f"{test.left_s(now):.0f}")

    def _fault(self, kind: str, channel) -> str:
        where = "" if channel is None else self.tr("sensortest.left" if channel == 0 else "sensortest.right")
        return self.tr(f"sensortest.fault_{kind}", pan=where)
