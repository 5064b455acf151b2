"""Issue 41, 2: the compiled core where the app runs, and pure Python said where it is not.

`make run` without a C compiler stopped with a traceback; the appliance never built the core
and nothing said so (tests/hardware/test_appliance_deploy.py has the appliance's part)."""

import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import doctor
from companion.games.uttt import core
from companion.games.uttt import doctor as uttt_doctor

ROOT = Path(__file__).resolve().parents[3]


def make_core(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """The Makefile's rule for the core, for real, building into `tmp_path` with this Python."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)  # the rule's order-only prerequisite
    target = tmp_path / "_core.so"
    return subprocess.run([shutil.which("make"), "-C", str(ROOT), "--no-print-directory", f"VENV={venv}",
                           f"PY={sys.executable}", f"UTTT_CORE={target}", str(target)],
                          capture_output=True, text=True, timeout=120, env=os.environ | env)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("no_compiler", ["CC", "PATH"])
def test_make_without_a_compiler_goes_on_in_pure_python_and_says_so_in_one_line(tmp_path, no_compiler):
    if no_compiler == "CC":
        env = {"CC": "/nonexistent/cc"}
    else:  # no cc on the PATH at all, as on a fresh Raspberry Pi OS Lite
        (tmp_path / "bin").mkdir()
        (tmp_path / "bin" / "grep").symlink_to(shutil.which("grep"))  # the Makefile asks it about a Pi
        env = {"PATH": str(tmp_path / "bin"), "CC": "cc"}
    result = make_core(tmp_path, **env)
    assert result.returncode == 0, result.stderr
    said = result.stderr.splitlines()
    assert len(said) == 1 and said[0].startswith("uttt: no C compiler"), result.stderr
    assert "pure Python" in said[0] and core.INSTALL in said[0]
    assert not (tmp_path / "_core.so").exists()


@pytest.mark.skipif(shutil.which("make") is None or shutil.which(os.environ.get("CC", "cc")) is None,
                    reason="make or cc is not installed")
def test_make_with_a_compiler_builds_the_core_it_names(tmp_path):
    result = make_core(tmp_path)
    assert result.returncode == 0, result.stderr
    assert core.load(tmp_path / "_core.so") is not None


def test_a_compiler_that_fails_is_said_in_the_same_words(tmp_path, monkeypatch):
    said = io.StringIO()
    monkeypatch.setenv("CC", "false")
    assert core.build_or_say(tmp_path / "_core.so", err=said) is False
    assert said.getvalue().startswith("uttt: false could not build core.c (exit status 1): ")
    assert said.getvalue().count("\n") == 1 and "pure Python" in said.getvalue()


@pytest.mark.parametrize("built", [True, False])
def test_doctor_names_the_search_the_computer_runs_and_its_rate(monkeypatch, built):
    if built:
        assert core.LIBRARY is not None, "build it: python -m companion.games.uttt.core"
    else:
        monkeypatch.setattr(core, "LIBRARY", None)
    started = time.process_time()  # not wall time: a loaded machine does not make it fail
    ok, text = uttt_doctor.search()
    assert time.process_time() - started < 1.0  # the doctor stays quick: a 0.2 s search
    assert ok is built
    assert text.startswith("compiled core, " if built else "pure Python, ")
    rate = int(text.split(", ", 1)[1].split(" iterations/s")[0].replace(",", ""))
    assert rate > (20_000 if built else 200)
    if not built:
        assert core.INSTALL in text and "上級" in text


def test_doctor_has_the_row(monkeypatch):
    monkeypatch.setattr(uttt_doctor, "search", lambda: (True, "compiled core, 1 iterations/s"))
    out = io.StringIO()
    doctor.run_doctor(None, out=out)
    assert any(line.startswith("UTTT search") and line.endswith("compiled core, 1 iterations/s")
               for line in out.getvalue().splitlines())
