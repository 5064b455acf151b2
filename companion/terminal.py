"""The terminal sub-commands for the seesaw: `companion monitor` and `companion calibrate`."""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO, cast

from companion import config as config_module
from companion import i18n
from companion.sensing.calibration import DEFAULT_KNOWN_G, Calibrator, Step
from companion.sensing.factory import open_source
from companion.sensing.monitor import run_monitor
from companion.sensing.pipeline import CalibrationError, NotStableError, Pipeline
from companion.sensing.simulator import SimulatedSeesaw
from companion.sensing.source import WeightSource
from companion.store import Store

SETTLE_TIMEOUT_S = 30.0
HANDS_OFF_S = 1.0  # after Enter (or a virtual placement) the hand may still be at the pan


def sensor_settings(cfg: config_module.Config, source: str | None, port: str | None):
    """The configured sensor, with the command line's --source / --port applied."""
    import dataclasses

    sensor = cfg.sensor
    if port:
        sensor = dataclasses.replace(sensor, serial=dataclasses.replace(sensor.serial, port=port))
    if source:
        sensor = dataclasses.replace(sensor, source=source)
    return sensor


def monitor(cfg: config_module.Config, source: str | None, port: str | None,
            duration_s: float | None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    sensor = sensor_settings(cfg, source, port)
    with Store.in_dir(cfg.data_path) as store:
        calibration = store.calibration(sensor.calibration or None)
    with open_source(sensor) as weights:
        pipeline = Pipeline(weights.channels, calibration=_scales(calibration))
        print(f"companion monitor: {sensor.source}  (Ctrl-C stops)", file=out)
        run_monitor(weights, pipeline, out, duration_s, wanted_rate=sensor.wanted_rate, lang=_lang(cfg))
    return 0


def calibrate(cfg: config_module.Config, source: str | None, port: str | None, name: str,
              known_g: float = DEFAULT_KNOWN_G, out: TextIO | None = None,
              ask: Callable[[str], str] = input, sleep: Callable[[float], None] = time.sleep) -> int:
    """Walk through tare and known-mass calibration per pan; save it in the store and config."""
    out, lang = out or sys.stdout, _lang(cfg)
    sensor = sensor_settings(cfg, source, port)
    store = Store.in_dir(cfg.data_path)  # refused now, not after the work, if the app runs
    with open_source(sensor) as weights:
        pipeline = Pipeline(weights.channels)
        calibrator = Calibrator(pipeline, known_g)
        virtual = weights.virtual
        while not calibrator.done:
            step = calibrator.step
            assert step is not None, "a calibration not done has a step"
            print(f"\n{step.prompt.text(lang)}", file=out)
            if virtual:
                _stage_virtually(cast(SimulatedSeesaw, weights), step, known_g, out)  # the one virtual source
            else:
                ask(i18n.translate("terminal.press_enter", lang))
            try:
                _wait_until_ready(weights, pipeline, calibrator, sleep)
                calibrator.do()
            except (NotStableError, CalibrationError, TimeoutError) as exc:
                print(f"  {i18n.said(exc, lang)}", file=out)
                continue
            print("  OK", file=out)
        result = calibrator.result()
    with store:
        store.save_calibration(name, result)
    settings = config_module.save_settings(cfg, {"sensor": {"calibration": name}})
    for channel in result["channels"]:
        print(f"  counts/gram: {channel['counts_per_gram']:.2f}  offset: {channel['offset']:.0f}",
              file=out)
    print(i18n.translate("terminal.saved", lang, name=name, settings=settings), file=out)
    return 0


def _stage_virtually(weights: SimulatedSeesaw, step: Step, known_g: float, out: TextIO) -> None:
    """On the simulator nobody can put a mass down, so the command does it."""
    weights.clear()
    if step.kind == "mass":
        weights.place(step.pan, grams=known_g)
    print("  (simulator: done for you)", file=out)


def _wait_until_ready(weights: WeightSource, pipeline: Pipeline, calibrator: Calibrator,
                      sleep: Callable[[float], None]) -> None:
    start = time.monotonic()
    deadline = start + SETTLE_TIMEOUT_S
    while True:
        pipeline.feed(weights.poll())
        if calibrator.ready() and time.monotonic() - start >= HANDS_OFF_S:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(i18n.Words("terminal.not_settled"))
        sleep(0.05)


def _lang(cfg: config_module.Config) -> str:
    """The language the commands speak: the configured one (`language`, "auto": the locale's,
    English with none: a console may have no Japanese font)."""
    return i18n.language_from(cfg.language, unset="en")


def _scales(calibration: dict | None) -> dict | None:
    return {"channels": calibration["channels"]} if calibration else None


def parse_event(line: str) -> tuple[str, dict]:
    """A tapped line as an event: 'p L carrier' placed, 'v left' verdict, 'r' reset, else a note."""
    words = line.split()
    if words and words[0] == "p" and len(words) >= 2:
        return "placed", {"pan": 0 if words[1].upper().startswith("L") else 1, "piece": " ".join(words[2:])}
    if words and words[0] == "v":
        return "verdict", {"shown": " ".join(words[1:])}
    if words == ["r"]:
        return "reset", {}
    return "note", {"text": line.strip()}


def record(cfg: config_module.Config, source: str | None, port: str | None, out_path: str,
           duration_s: float | None, note: str = "", out: TextIO | None = None, lines: TextIO | None = None,
           clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> int:
    """Record the raw stream (and the saved calibration) to `out_path`; lines typed on
    `lines` (stdin) become events at the moment they arrive."""
    import select

    from companion.sensing.recording import Recorder, RecordingSource

    out, lines, lang = out or sys.stdout, lines or sys.stdin, _lang(cfg)
    sensor = sensor_settings(cfg, source, port)
    with Store.in_dir(cfg.data_path) as store:
        calibration = store.calibration(sensor.calibration or None)
    with open_source(sensor) as inner:
        recorder = Recorder(out_path, source=sensor.source, rate_hz=inner.status().rate_hz or sensor.rate_hz,
                            channels=inner.channels, calibration=calibration, note=note)
        count, start, reading = 0, clock(), True
        print(f"companion record: {sensor.source} -> {out_path}\n{i18n.translate('terminal.event_help', lang)}", file=out)
        with RecordingSource(inner, recorder) as weights:
            try:
                while duration_s is None or clock() - start < duration_s:
                    count += len(weights.poll())
                    if reading and select.select([lines], [], [], 0)[0]:
                        line = lines.readline()
                        if not line:
                            reading = False
                            if duration_s is None:
                                break
                        elif line.strip():
                            event, data = parse_event(line)
                            recorder.event(clock(), event, **data)
                            print(f"  {event} {data}", file=out)
                    sleep(0.05)
            except KeyboardInterrupt:
                pass
            count += len(weights.poll())
    print(i18n.translate("terminal.samples_saved", lang, count=count, path=out_path), file=out)
    return 0
