"""Running OpenSCAD on a model of hardware/, for the tests that render one."""

import shutil
import subprocess
from pathlib import Path

import pytest

OPENSCAD = shutil.which("openscad")
needs_openscad = pytest.mark.skipif(OPENSCAD is None, reason="openscad is not installed (apt-get install openscad)")


def run_openscad(model: Path, out: Path, *defines: str) -> subprocess.CompletedProcess:
    """Render `model` to `out` (the suffix picks the format) with `-D` defines."""
    args = [OPENSCAD, "-o", str(out)]
    for define in defines:
        args += ["-D", define]
    return subprocess.run(args + [str(model)], capture_output=True, text=True, timeout=120)
