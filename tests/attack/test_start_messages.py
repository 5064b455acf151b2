"""Started as a person would (`python -m companion`), every failure at start is one line
saying what is wrong and what to do, exit status 2, and never a Python traceback."""

import os
import subprocess
import sys

import pytest

import _store_faults as faults
from companion.store import FILENAME, Store
from tests.virtual_display import ensure_display

START = """
import sys
import companion.store
companion.store.BUSY_TIMEOUT_S = 0.5  # the app waits 15 s; a test need not
from companion.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def start(config_path, **env):
    ensure_display()  # each failure is one the app meets with a display; alone, this file has none yet
    return subprocess.run([sys.executable, "-c", START, "--config", str(config_path)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COMPANION_PROBLEM_WINDOW": "0",
                               "KIVY_NO_FILELOG": "1", **env})


@pytest.fixture
def cfg(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\n")
    return path


def said(result, *words):
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    message = result.stderr.strip().splitlines()[-1]  # after Kivy's own log lines, if any
    assert message.startswith("companion: ")
    for word in words:
        assert word in message


def test_a_second_instance_is_refused(cfg, tmp_path):
    with Store.in_dir(tmp_path / "data"):
        said(start(cfg), "another companion is already running", "stop it first")


def test_a_database_locked_by_another_program(cfg, tmp_path):
    (tmp_path / "data").mkdir()
    written = faults.healthy(tmp_path / "data", __import__("random").Random(1))
    try:
        with faults.locked_by_sqlite3(tmp_path / "data" / FILENAME, "exclusive", 3):
            said(start(cfg), "locked by another program", "every game is intact")
    except faults.Unavailable as exc:
        pytest.skip(str(exc))
    with Store(tmp_path / "data" / FILENAME) as store:
        assert store.set_aside is None
        assert {g.id: store.actions(g.id) for g in store.games()} == written


def test_a_read_only_data_directory(cfg, tmp_path):
    (tmp_path / "data").mkdir()
    faults.healthy(tmp_path / "data", __import__("random").Random(2))
    try:
        with faults.read_only(tmp_path / "data"):
            said(start(cfg), "cannot be written", "Nothing was lost")
    except faults.Unavailable as exc:
        pytest.skip(str(exc))


def test_a_data_directory_that_is_a_file(tmp_path):
    (tmp_path / "xdg").mkdir()
    (tmp_path / "xdg" / "companion").write_text("not a directory")
    bare = tmp_path / "bare.yaml"
    bare.write_text("language: en\n")
    said(start(bare, XDG_DATA_HOME=str(tmp_path / "xdg")), "data directory")
    doctor = subprocess.run([sys.executable, "-m", "companion", "--config", str(bare), "doctor"],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert doctor.returncode == 2 and "data directory" in doctor.stderr


def test_a_broken_config(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text("sound:\n  volume: .nan\n")
    said(start(path), f"{path}:2: sound.volume", "finite number")


def test_an_internal_error_at_start_is_one_line_and_a_saved_report(cfg, tmp_path):
    crash = START.replace("from companion.cli import main",
                          "import companion.config\n"
                          "companion.config.load = lambda *a, **k: 1 / 0\n"
                          "from companion.cli import main")
    result = subprocess.run([sys.executable, "-c", crash, "--config", str(cfg)],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "COMPANION_PROBLEM_WINDOW": "0"})
    assert result.returncode == 3 and "Traceback" not in result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("companion: an internal error") and "ZeroDivisionError" in line
    report = line.split("details are in ")[1].split(":")[0]
    assert "Traceback" in open(report).read()
    os.unlink(report)
