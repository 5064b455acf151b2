"""The attack suite: the faults that broke the companion once, kept so they never do again.
The cases live in bench/_*_faults.py, shared with the long runs of bench/faults.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
