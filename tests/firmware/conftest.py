"""Firmware tests run the MicroPython modules under CPython: put firmware/ on the path,
and the fakes that run under both interpreters (micropython/)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1] / "firmware", HERE / "micropython"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
