"""Run a script under a real MicroPython: the WebAssembly port on Node.js
(tests/firmware/micropython/run.mjs; `make test` installs the npm package)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "firmware" / "micropython"
RUNNER = HERE / "run.mjs"
PORT = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
# Host trees put into MicroPython's filesystem (each also on its sys.path).
FIRMWARE = {"firmware": "/flash", "tests/firmware/micropython": "/test", "docs": "/docs"}


def run_micropython(script: str, *args: str, trees: dict[str, str] = FIRMWARE,
                    timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `script` (a file in tests/firmware/micropython/) under MicroPython; raise on
    a Python exception with its traceback, return the finished process otherwise."""
    node = shutil.which("node")
    if node is None or not PORT.is_dir():
        pytest.fail("MicroPython's WebAssembly port is not installed: run `make test` "
                    "(it needs Node.js and npm: scripts/system-deps.sh test)")
    copies = [a for host, mp in trees.items() for a in ("--copy", f"{ROOT / host}:{mp}")]
    proc = subprocess.run([node, str(RUNNER), *copies, str(HERE / script), *args],
                          capture_output=True, timeout=timeout)
    assert proc.returncode == 0, "MicroPython failed:\n" + proc.stderr.decode(errors="replace")
    return proc
