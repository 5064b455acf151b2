"""mypy over the package with pyproject.toml's [tool.mypy]: 0 errors.

Strict on companion/play and companion/sensing; ui/ and the games' screen/ (Kivy, untyped) are
left out, and the modules not yet checked are listed in pyproject.toml, a list that only shrinks.
"""

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_YET_CHECKED = 7  # the most modules pyproject.toml may leave unchecked: lower it as they are fixed


def test_mypy_finds_no_error():
    assert importlib.util.find_spec("mypy") is not None, (
        f"mypy is not installed in {sys.prefix}: run `make test`, which installs the test "
        f"dependencies, or `cd {ROOT} && {sys.executable} -m pip install -c constraints.txt -e '.[test]'`")
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, f"mypy found errors (fix them; do not ignore them):\n{result.stdout}{result.stderr}"


def test_the_unchecked_list_only_shrinks():
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    ignored = [m for o in overrides if o.get("ignore_errors") for m in o["module"]]
    unchecked = [m for m in ignored if m not in ("companion.ui.*", "companion.games.*.screen.*")]
    assert len(unchecked) <= NOT_YET_CHECKED, \
        f"a module joined the unchecked list: fix its errors instead ({unchecked})"
    assert not [m for m in unchecked if m.startswith(("companion.play", "companion.sensing"))]
