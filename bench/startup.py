"""Start-up figure: process start to the first drawn frame of the home screen.

Prints `startup_s` (median of several cold starts under Xvfb when there is no
display; requirement <= 3 s here) and `rss_mb` of the running app.
Usage: python bench/startup.py [--json] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: its tests' Xvfb helper

CHILD = r"""
import os, sys, time
from companion import config
from companion.ui.app import CompanionApp
from kivy.clock import Clock
from kivy.core.window import Window

cfg = config.parse("data_dir: " + sys.argv[1] + "\nlanguage: ja\n", "bench.yaml")
app = CompanionApp(cfg)

def first_frame(*_):
    if app.manager.current_screen.name != "home":
        return
    Window.unbind(on_flip=first_frame)
    rss_kb = next(int(line.split()[1]) for line in open("/proc/self/status")
                  if line.startswith("VmRSS"))
    print("READY", time.monotonic(), rss_kb / 1024, flush=True)
    Clock.schedule_once(app.stop, 0)

Window.bind(on_flip=first_frame)
app.run()
"""


def one_start(data_dir: str) -> tuple[float, float]:
    env = {**os.environ, "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1"}
    begin = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, data_dir], env=env,
                          capture_output=True, text=True, timeout=60)
    line = next((l for l in done.stdout.splitlines() if l.startswith("READY")), None)
    if line is None:
        raise SystemExit(f"the app did not draw its home screen:\n{done.stderr[-2000:]}")
    _, drawn, rss = line.split()
    return float(drawn) - begin, float(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2 runs")
    args = parser.parse_args()
    from tests.virtual_display import ensure_display

    ensure_display()
    runs = 2 if args.quick else args.runs
    with tempfile.TemporaryDirectory() as data_dir:
        one_start(data_dir)  # warm the OS file cache, as on any second start
        results = [one_start(data_dir) for _ in range(runs)]
    figures = {
        "startup_s": round(statistics.median(r[0] for r in results), 3),
        "startup_max_s": round(max(r[0] for r in results), 3),
        "rss_mb": round(statistics.median(r[1] for r in results), 1),
        "runs": runs,
        "startup_ok": statistics.median(r[0] for r in results) <= 3.0,
    }
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
