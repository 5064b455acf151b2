"""constraints.txt: every Python package pinned within pyproject's ranges, and used by both commands."""

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    pairs = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {canonicalize_name(name): version for name, version in pairs}


def test_every_dependency_is_pinned_to_a_version_pyproject_allows():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = pins()
    for text in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not in constraints.txt: run make lock"
        assert requirement.specifier.contains(pinned[name], prereleases=True), \
            f"constraints.txt pins {name}=={pinned[name]}, outside pyproject's {requirement.specifier}: run make lock"


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("stamp, extra", [(".venv/.run-installed", "."), (".venv/.test-installed", "'.[test]'")])
def test_a_changed_constraints_file_reinstalls_with_it(tmp_path, stamp, extra):
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".venv/bin").mkdir(parents=True)
    for made in (".venv/bin/python", ".venv/.run-installed", ".venv/.test-installed"):
        (tmp_path / made).touch()  # newer than the copies: all up to date

    def dry_run(*options):
        return subprocess.run(["make", "-n", *options, stamp], cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout

    assert "pip install" not in dry_run()
    assert f"pip install -q -c constraints.txt -e {extra}" in dry_run("-W", "constraints.txt")
