"""No display, no GPU driver: a plain message naming the device (issue 26: Kivy's
"kmsdrm not available" became AttributeError 'NoneType' ... 'fullscreen', an "internal
error", and a restart every 5 s leaving a crash file each time)."""

import os
import subprocess
import sys
from pathlib import Path

from companion import display

KMS = {"SDL_VIDEODRIVER": "kmsdrm"}


def _drm(tmp_path, **connectors):
    dri, drm = tmp_path / "dri", tmp_path / "drm"
    dri.mkdir()
    for name, state in connectors.items():
        (drm / f"card0-{name}").mkdir(parents=True)
        (drm / f"card0-{name}" / "status").write_text(state + "\n")
    return dri, drm


def test_the_appliance_without_a_drm_device_is_told_why(tmp_path):
    dri, drm = _drm(tmp_path)
    said = display.problem(KMS, str(dri), str(drm))
    assert f"{dri}/card*" in said and "ribbon" in said and "vc4-kms-v3d" in said


def test_a_drm_device_with_no_screen_connected_names_its_connectors(tmp_path):
    dri, drm = _drm(tmp_path, **{"DSI-1": "disconnected", "HDMI-A-1": "disconnected"})
    (dri / "card0").touch()
    said = display.problem(KMS, str(dri), str(drm))
    assert "DSI-1 disconnected" in said and "HDMI-A-1 disconnected" in said and "card0" in said
    (drm / "card0-DSI-1" / "status").write_text("connected\n")
    assert display.problem(KMS, str(dri), str(drm)) is None


def test_a_desktop_needs_no_drm_device(tmp_path):
    dri, drm = _drm(tmp_path)
    assert display.problem({"DISPLAY": ":0"}, str(dri), str(drm)) is None
    assert "DISPLAY and WAYLAND_DISPLAY are unset" in display.problem({}, str(dri), str(drm))


def test_kivy_finding_no_window_is_a_message_and_exit_status_4_not_a_crash(tmp_path):
    """The real app under a video driver SDL cannot open: stderr says so, no traceback,
    no crash file, and the status the unit does not restart on."""
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "kmsdrm", "COMPANION_DISPLAY_WAIT_S": "0",
           "COMPANION_PROBLEM_WINDOW": "1", "XDG_RUNTIME_DIR": str(tmp_path), "DISPLAY": "",
           "KIVY_NO_ARGS": "1"}
    env.pop("DISPLAY")
    result = subprocess.run([sys.executable, "-m", "companion", "--config", str(config)], env=env,
                            capture_output=True, text=True, timeout=120)
    last = result.stderr.strip().splitlines()[-1]
    assert result.returncode == display.EXIT_NO_DISPLAY, result.stderr[-2000:]
    assert last.startswith("companion: ") and "Traceback" not in result.stderr
    assert "kmsdrm" in last or "/dev/dri" in last
    assert not (Path(tmp_path) / "companion-crash.txt").exists()
