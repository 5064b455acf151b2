"""The terminal sub-commands for the seesaw: `companion monitor` and `companion calibrate`."""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

from companion import config as config_module
from companion.sensing.calibration import DEFAULT_KNOWN_G, Calibrator
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
        run_monitor(weights, pipeline, out, duration_s, wanted_rate=sensor.wanted_rate)
    return 0


def calibrate(cfg: config_module.Config, source: str | None, port: str | None, name: str,
              known_g: float = DEFAULT_KNOWN_G, out: TextIO | None = None,
              ask: Callable[[str], str] = input, sleep: Callable[[float], None] = time.sleep) -> int:
    """Walk through tare and known-mass calibration per pan; save it in the store and config."""
    out = out or sys.stdout
    sensor = sensor_settings(cfg, source, port)
    store = Store.in_dir(cfg.data_path)  # refused now, not after the work, if the app runs
    with open_source(sensor) as weights:
        pipeline = Pipeline(weights.channels)
        calibrator = Calibrator(pipeline, known_g)
        virtual = weights.virtual
        while not calibrator.done:
            step = calibrator.step
            print(f"\n{step.prompt}", file=out)
            if virtual:
                _stage_virtually(weights, step, known_g, out)
            else:
                ask("  Enter で続ける / press Enter when ready: ")
            try:
                _wait_until_ready(weights, pipeline, calibrator, sleep)
                calibrator.do()
            except (NotStableError, CalibrationError, TimeoutError) as exc:
                print(f"  {exc}", file=out)
                continue
            print("  OK", file=out)
        result = calibrator.result()
    with store:
        store.save_calibration(name, result)
    settings = config_module.save_settings(cfg, {"sensor": {"calibration": name}})
    for channel in result["channels"]:
        print(f"  counts/gram: {channel['counts_per_gram']:.2f}  offset: {channel['offset']:.0f}",
              file=out)
    print(f"保存しました / saved as {name!r} (database) and selected in {settings}", file=out)
    return 0


def _stage_virtually(weights: SimulatedSeesaw, step, known_g: float, out: TextIO) -> None:
    """On the simulator nobody can put a mass down, so the command does it."""
    weights.clear()
    if step.kind == "mass":
        weights.place(step.channel, grams=known_g)
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
            raise TimeoutError("皿が静止しません / the pans did not settle; keep the table still")
        sleep(0.05)


def _scales(calibration: dict | None) -> dict | None:
    return {"channels": calibration["channels"]} if calibration else None
