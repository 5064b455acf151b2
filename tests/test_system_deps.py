"""scripts/system-deps.sh on Debian 12, Debian 13 and Raspberry Pi OS, with fake dpkg and apt.

The fakes answer from two lists: the packages installed and the packages the archive offers.
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMMON = ("libgl1 libgl1-mesa-dri libegl1 fonts-noto-cjk gcc libc6-dev xvfb xauth shellcheck "
          "openscad sqlite3 chromium zbar-tools faketime nodejs npm python3-venv").split()
# What each archive offers under the names that differ (from its Packages lists).
BOOKWORM = [*COMMON, "libmtdev1", "webkit2gtk-driver"]
TRIXIE = [*COMMON, "libmtdev1t64", "webkitgtk-webdriver", "webkit2gtk-driver"]
RASPBERRY_PI_OS = [*TRIXIE, "python3-lgpio"]

FAKES = {
    "dpkg-query": 'for p; do :; done; grep -qx "$p" "$FAKE/installed" && echo "install ok installed"',
    "apt-cache": 'grep -qx "$2" "$FAKE/offered" && printf "%s:\\n  Installed: (none)\\n  Candidate: 1.0\\n" "$2"; true',
    "apt-get": 'echo "$*" >> "$FAKE/apt-get"',
    "id": 'echo "$FAKE_UID"',
    "dpkg": 'echo "$FAKE_ARCH"',  # --print-architecture
    "python3": "exit 0",  # venv and ensurepip are there
    "node": "exit 0",
    "npm": "exit 0",
}


def system_deps(tmp_path, mode, *, installed=(), offered=(), root=False, pi=False, arch="amd64"):
    """Runs the script with only the fakes (and sh, grep, tr) on PATH: (exit code, stderr, apt-get calls)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, body in FAKES.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    for tool in ("sh", "grep", "tr"):
        if not (bin_dir / tool).exists():
            (bin_dir / tool).symlink_to(shutil.which(tool))
    (tmp_path / "installed").write_text("".join(f"{p}\n" for p in installed))
    (tmp_path / "offered").write_text("".join(f"{p}\n" for p in offered))
    (tmp_path / "model").write_text("Raspberry Pi 5 Model B Rev 1.0\0" if pi else "QEMU Virtual Machine\0")
    env = {"PATH": str(bin_dir), "FAKE": str(tmp_path), "FAKE_UID": "0" if root else "1000",
           "DEVICE_MODEL": str(tmp_path / "model"), "FAKE_ARCH": arch}
    result = subprocess.run([str(bin_dir / "sh"), str(ROOT / "scripts/system-deps.sh"), mode],
                            capture_output=True, text=True, env=env, timeout=30)
    calls = tmp_path / "apt-get"
    return result.returncode, result.stderr, calls.read_text().splitlines() if calls.exists() else []


def needed(archive):
    """Every package of the archive as it would be installed by the script's own line."""
    return [p for p in archive if not (p == "webkit2gtk-driver" and "webkitgtk-webdriver" in archive)]


@pytest.mark.parametrize("archive", [BOOKWORM, TRIXIE], ids=["debian12", "debian13"])
@pytest.mark.parametrize("root", [False, True], ids=["user", "root"])
@pytest.mark.parametrize("arch", ["amd64", "arm64"])
def test_everything_installed_under_this_releases_names_passes_without_apt(tmp_path, archive, root, arch):
    code, err, calls = system_deps(tmp_path, "test", installed=needed(archive), offered=archive, root=root, arch=arch)
    assert (code, err, calls) == (0, "", [])


def test_the_old_names_installed_on_debian_13_still_pass(tmp_path):
    """An upgraded machine keeps webkit2gtk-driver (now transitional); libmtdev1 is only provided."""
    installed = [p for p in needed(TRIXIE) if p != "webkitgtk-webdriver"] + ["webkit2gtk-driver"]
    assert system_deps(tmp_path, "test", installed=installed, offered=TRIXIE) == (0, "", [])


@pytest.mark.parametrize("archive, names", [
    (BOOKWORM, ["libmtdev1", "webkit2gtk-driver"]),
    (TRIXIE, ["libmtdev1t64", "webkitgtk-webdriver"]),
], ids=["debian12", "debian13"])
def test_a_fresh_user_is_told_the_names_this_release_offers(tmp_path, archive, names):
    code, err, calls = system_deps(tmp_path, "test", offered=archive)
    assert code == 1 and calls == []
    line = err.strip().split("run:  ", 1)[1]
    assert line.startswith("sudo apt-get install -y ")
    renamed = {"libmtdev1", "libmtdev1t64", "webkit2gtk-driver", "webkitgtk-webdriver", "python3-lgpio"}
    assert renamed & set(line.split()) == set(names)


def test_root_installs_the_offered_names_once(tmp_path):
    code, err, calls = system_deps(tmp_path, "run", offered=TRIXIE, root=True)
    assert code == 0
    assert calls == ["install -y -q libgl1 libgl1-mesa-dri libegl1 libmtdev1t64 fonts-noto-cjk gcc libc6-dev"]


def test_package_lists_not_yet_read_ask_for_apt_get_update_and_the_name_every_release_accepts(tmp_path):
    installed = [p for p in COMMON if p != "libgl1"]
    code, err, _ = system_deps(tmp_path, "run", installed=installed, offered=[])
    assert code == 1
    assert err.strip().endswith("run:  sudo apt-get update && sudo apt-get install -y libgl1 libmtdev1")


def test_on_a_raspberry_pi_lgpio_is_asked_for_where_the_archive_has_it(tmp_path):
    code, err, _ = system_deps(tmp_path, "run", installed=needed(TRIXIE), offered=RASPBERRY_PI_OS, pi=True)
    assert code == 1 and err.strip().endswith("run:  sudo apt-get install -y python3-lgpio")


def test_on_a_raspberry_pi_without_its_archive_lgpio_is_named_missing_and_the_app_still_starts(tmp_path):
    code, err, calls = system_deps(tmp_path, "run", installed=needed(TRIXIE), offered=TRIXIE, pi=True, root=True)
    assert code == 0 and calls == ["update -q"]
    assert "python3-lgpio is not in this system's package archives" in err and "sudo" not in err


@pytest.mark.parametrize("arch", ["armhf", "armel", "i386"])
def test_a_32_bit_os_is_told_plainly_that_a_64_bit_one_is_needed(tmp_path, arch):
    code, err, calls = system_deps(tmp_path, "run", installed=needed(TRIXIE), offered=TRIXIE, root=True, arch=arch)
    assert code == 1 and calls == []
    assert err == f"system-deps: this is a 32-bit OS ({arch}): the companion needs a 64-bit one " \
                  "(Raspberry Pi OS 64-bit); PyPI has no Kivy, numpy or PyYAML for it\n"
