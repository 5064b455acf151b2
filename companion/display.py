"""Whether there is a display to draw on, asked the way the appliance draws (SDL's KMS/DRM
driver on /dev/dri, or an X / Wayland desktop), without importing Kivy.  A missing display
is a `NoDisplay`, a plain message naming the device, never a crash inside Kivy."""

from __future__ import annotations

import glob
import os
import sys
from pathlib import Path

from companion.errors import CompanionError

EXIT_NO_DISPLAY = 4  # the unit does not restart on it (deploy/companion.service)
FIX = ("check the display's ribbon cable and that /boot/firmware/config.txt has "
       "dtoverlay=vc4-kms-v3d (then reboot); on a desktop, run it there or with `xvfb-run -a make run`")


class NoDisplay(CompanionError):
    """Nothing to draw on: no KMS/DRM device or connected screen, no X or Wayland."""


def problem(environ=os.environ, dri: str = "/dev/dri", drm: str = "/sys/class/drm") -> str | None:
    """Why the app would have nothing to draw on, naming the device; None if it has."""
    if not sys.platform.startswith("linux"):
        return None
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver in ("x11", "wayland", "dummy", "offscreen", "evdev"):
        return None
    if not driver and (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return None
    cards = sorted(glob.glob(f"{dri}/card*"))
    if not cards:
        unset = "" if driver else "DISPLAY and WAYLAND_DISPLAY are unset and "
        return f"no display found: {unset}there is no KMS/DRM device {dri}/card* (no GPU driver loaded); {FIX}"
    usable = [card for card in cards if os.access(card, os.R_OK | os.W_OK)]
    if not usable:
        return (f"{cards[0]} cannot be opened by this user: add it to the video group "
                "(sudo usermod -aG video $USER, then log in again)")
    connectors = {Path(status).parent.name: Path(status).read_text(errors="replace").strip()
                  for status in sorted(glob.glob(f"{drm}/card*-*/status"))}
    if connectors and "connected" not in connectors.values():
        states = ", ".join(f"{name} {state}" for name, state in connectors.items())
        return f"no screen is connected to {cards[0]} ({states}); {FIX}"
    return None


def connectors(drm: str = "/sys/class/drm") -> str:
    """The KMS connectors and their state, for `companion doctor`."""
    found = [f"{Path(s).parent.name} {Path(s).read_text(errors='replace').strip()}"
             for s in sorted(glob.glob(f"{drm}/card*-*/status"))]
    return ", ".join(found)
