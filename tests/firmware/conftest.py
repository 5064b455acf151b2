"""Firmware tests run the MicroPython modules under CPython: put firmware/ on the path,
the fakes that run under both interpreters (micropython/), and the emulated Pico
(rp2040/)."""

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1] / "firmware", HERE / "micropython", HERE / "rp2040"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


@pytest.fixture(scope="session")
def pico_flash(tmp_path_factory):
    """The emulated Pico's flash with the current firmware installed (once a session)."""
    import emulated_pico

    why = emulated_pico.available()
    if why:
        pytest.skip(why)
    return emulated_pico.installed_flash(tmp_path_factory.getbasetemp() / "rp2040")
