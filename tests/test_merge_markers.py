"""No merge left half-done: no conflict marker at a line's start in any tracked file (one
stood in a docstring of companion/ui/sounds.py for two landings, harmless there)."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(rb"^(<{7,8} |>{7,8} |={7,8}$)", re.M)


def test_no_conflict_marker_is_committed():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    marked = [name.decode() for name in files if name and (ROOT / name.decode()).is_file()
              and MARKER.search((ROOT / name.decode()).read_bytes())]
    assert not marked, f"conflict markers in {marked}"
