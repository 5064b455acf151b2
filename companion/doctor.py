"""`companion doctor`: a table of what this machine offers the companion."""

from __future__ import annotations

import glob
import os
import platform
import sys
from importlib import metadata

from companion import config as config_module
from companion import display
from companion.fonts import find_cjk_font
from companion.play import registry


def run_doctor(config_path: str | None, out=sys.stdout) -> int:
    rows: list[tuple[str, bool, str]] = []
    rows.append(("Python", sys.version_info >= (3, 11), platform.python_version()))
    rows.append(("Kivy", *_version("kivy")))
    rows.append(("display", *_display()))
    cfg, config_ok, config_text = None, False, ""
    try:
        cfg = config_module.load(config_path)
        config_ok, config_text = True, cfg.path
    except config_module.ConfigError as exc:
        config_text = str(exc)
    rows.append(("config", config_ok, config_text))
    rows.append(("CJK font", *_font(cfg.display.cjk_font if cfg else "")))
    data_ok = False
    if cfg:
        data_ok, data_text = _writable(cfg.data_path)
        rows.append(("data directory", data_ok, data_text))
        rows.append(("sensor source", True, cfg.sensor.source))
    rows.append(("machine", *_machine()))
    rows.append(("GPIO", *_gpio()))
    ports = sorted(glob.glob("/dev/ttyACM*") + glob.glob("/dev/ttyUSB*"))
    rows.append(("serial ports", bool(ports), ", ".join(ports) or "none seen"))
    rows += _games()

    width = max(len(name) for name, _, _ in rows)
    for name, ok, text in rows:
        print(f"{name:<{width}}  {'ok ' if ok else '-- '} {text}", file=out)
    if not config_ok:
        print(f"companion: {config_text}", file=sys.stderr)
        return 2
    if not data_ok:
        print(f"companion: the data directory cannot be used: {data_text}", file=sys.stderr)
        return 2
    return 0


def _display() -> tuple[bool, str]:
    """The display as the app will use it: X or Wayland if set, else KMS/DRM (the
    appliance: SDL_VIDEODRIVER=kmsdrm), its device and connectors."""
    problem = display.problem()
    if problem:
        return False, problem
    desktop = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if desktop and os.environ.get("SDL_VIDEODRIVER", "") in ("", "x11", "wayland"):
        return True, desktop
    cards = ", ".join(sorted(glob.glob("/dev/dri/card*")))
    return True, f"KMS/DRM {cards or os.environ.get('SDL_VIDEODRIVER', '')} {display.connectors()}".strip()


def _font(configured: str) -> tuple[bool, str]:
    """The font the app will use, loaded as the app loads it (SDL_ttf, through Kivy)."""
    font = find_cjk_font(configured)
    if font is None:
        return False, "missing: sudo apt-get install fonts-noto-cjk"
    try:
        os.environ.setdefault("KIVY_NO_ARGS", "1")
        os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # Kivy leaves stderr to the doctor's words
        from kivy.core.text import Label as CoreLabel

        CoreLabel(text="日本", font_name=str(font)).get_extents("日本")
    except Exception as exc:  # noqa: BLE001  (SDL_ttf's words for a damaged font)
        return False, f"{font} does not load as a font ({exc})"
    return True, str(font)


def _version(package: str) -> tuple[bool, str]:
    try:
        return True, metadata.version(package)
    except metadata.PackageNotFoundError:
        return False, "not installed: make run installs it"


def _writable(path) -> tuple[bool, str]:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".doctor-probe"
        probe.write_text("ok")
        probe.unlink()
        return True, str(path)
    except OSError as exc:
        return False, f"{path}: {exc.strerror} (data_dir must be a directory this user may write)"


def _machine() -> tuple[bool, str]:
    """A 64-bit OS. A 64-bit kernel under a 32-bit OS (a Pi's default) still runs 32-bit Python."""
    machine = platform.machine()
    if machine.startswith("armv") or sys.maxsize < 2**32:
        return False, (f"{machine}, 32-bit: the companion needs a 64-bit OS (Raspberry Pi OS 64-bit); "
                       "PyPI has no Kivy, numpy or PyYAML for 32-bit ARM")
    return True, f"{machine}, 64-bit"


def _gpio() -> tuple[bool, str]:
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return False, "no /dev/gpiochip* (not a Raspberry Pi): use the simulator or serial"
    if not os.access(chips[0], os.R_OK | os.W_OK):
        return False, f"{chips[0]} not accessible: sudo usermod -aG gpio $USER"
    return True, ", ".join(chips)


def _games() -> list[tuple[str, bool, str]]:
    """Each game's own rows, from `checks()` of its doctor.py (UTTT's search); a game's checks
    that fail to run are a failing row, not the end of the table."""
    rows: list[tuple[str, bool, str]] = []
    for name in registry.games():
        try:
            part = registry.part(name, "doctor")
            rows += part.checks() if part else []
        except Exception as error:  # noqa: BLE001  (a game's fault, said in its row)
            rows.append((name, False, f"{registry.folders()[name] / 'doctor.py'}: {type(error).__name__}: {error}"))
    return rows
