"""Start Xvfb when there is no display, for tests and benchmarks on headless machines."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import time
from pathlib import Path

from companion.errors import CompanionError


def ensure_display(screen: str = "1280x800x24") -> None:
    """Leave DISPLAY alone if set; otherwise start a private Xvfb and point DISPLAY at it."""
    if os.environ.get("DISPLAY"):
        return
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        raise CompanionError("no display and no Xvfb: sudo apt-get install -y xvfb")
    number = next(n for n in range(90, 1000) if not Path(f"/tmp/.X{n}-lock").exists())
    proc = subprocess.Popen([xvfb, f":{number}", "-screen", "0", screen, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    atexit.register(proc.terminate)
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise CompanionError(f"Xvfb :{number} did not start")
        time.sleep(0.05)
    os.environ["DISPLAY"] = f":{number}"


def save_screenshot(path: str | Path) -> Path:
    """Draw the window afresh and save it as a PNG at exactly `path`."""
    from kivy.core.window import Window

    path = Path(path)
    Window.dispatch("on_draw")  # the back buffer is undefined after a flip: fill it now
    made = Path(Window.screenshot(name=str(path)))
    made.replace(path)
    return path


def pump(seconds: float = 0.05) -> None:
    """Run Kivy's event loop (clock, input, drawing) for `seconds` of real time."""
    from kivy.base import EventLoop  # here: this module is imported before Kivy is

    end = time.monotonic() + seconds
    while True:
        EventLoop.idle()
        if time.monotonic() >= end:
            return
        time.sleep(1 / 120)
