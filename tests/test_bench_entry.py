"""Every bench starts as `make bench` starts it (issue 41, 8: `make bench` stopped at
bench/seats.py, `No module named 'tests'`: it imported the tests' helper inside a function,
with only bench/ and the installed `companion` on the path).

`make bench` runs `.venv/bin/python bench/x.py --json` from the checkout: the script's folder
is first on the path and, through the editable install, `companion`; nothing else of the
checkout.  Here the same, with `companion` alone on PYTHONPATH."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHES = sorted(ROOT.glob("bench/[!_]*.py"))  # the Makefile's bench/[!_]*.py
CHECKOUT = ("tests", "companion")  # what a bench finds only where its path setting put it

# As `python bench/x.py`: run its top (which may put the checkout on the path), then find
# every module of the checkout it imports later, inside a function.
FIND_LATER_IMPORTS = """
import importlib.util, os, runpy, sys
path, names = sys.argv[1], sys.argv[2:]
sys.path[0] = os.path.dirname(os.path.abspath(path))  # as for a script: its folder, not the cwd
runpy.run_path(path, run_name="make_bench_check")

def found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its package is not there
        return False

missing = [name for name in names if not found(name)]
sys.exit(f"not found: {missing}" if missing else 0)
"""


def make_bench_env(tmp_path: Path) -> dict:
    """The environment of `make bench`: only `companion` (the venv's editable install) importable."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "companion").symlink_to(ROOT / "companion")
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}


def later_imports(bench: Path) -> list[str]:
    """The modules of the checkout or of bench/ imported inside the bench's functions."""
    tree = ast.parse(bench.read_text())
    top = {id(node) for node in tree.body}
    siblings = {path.stem for path in bench.parent.glob("*.py")}
    names = set()
    for node in ast.walk(tree):
        if id(node) in top:
            continue
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return sorted(n for n in names if n.split(".")[0] in CHECKOUT or n.split(".")[0] in siblings)


@pytest.mark.parametrize("bench", BENCHES, ids=lambda p: p.name)
def test_each_bench_starts_as_make_bench_starts_it(bench, tmp_path):
    env = make_bench_env(tmp_path)
    helped = subprocess.run([sys.executable, str(bench.relative_to(ROOT)), "--help"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0 and "--json" in helped.stdout, helped.stderr[-2000:]
    names = later_imports(bench)
    found = subprocess.run([sys.executable, "-c", FIND_LATER_IMPORTS, str(bench), *names], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr[-2000:]


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    bench = tmp_path / "late.py"
    bench.write_text("import json\n\ndef table():\n    from tests.seats.thread import GameThread\n")
    assert later_imports(bench) == ["tests.seats.thread"]
    found = subprocess.run([sys.executable, "-c", FIND_LATER_IMPORTS, str(bench), "tests.seats.thread"],
                           cwd=ROOT, env=make_bench_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert found.returncode != 0 and "not found: ['tests.seats.thread']" in found.stderr
