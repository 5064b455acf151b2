"""Exporting a part of one of hardware/'s OpenSCAD models, and reading the STL it writes
(for masses.py, which measures volumes, and overhangs.py, which checks a part prints)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def export(model: Path, part: str, out_dir: Path, *defines: str) -> Path:
    """`model`'s `part` as an ASCII STL in out_dir; SystemExit with OpenSCAD's words on a failure."""
    openscad = shutil.which("openscad")
    if openscad is None:
        raise SystemExit(f"{model.name}: openscad is not installed (sudo apt-get install openscad)")
    out = out_dir / f"{model.stem}-{part}.stl"
    args = [openscad, "-o", str(out), "-D", f'part="{part}"']
    for define in defines:
        args += ["-D", define]
    result = subprocess.run(args + [str(model)], capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or "ERROR" in result.stderr or "WARNING" in result.stderr:
        raise SystemExit(f"openscad failed on {model.name} part={part}:\n{result.stderr}")
    return out


def triangles(text: str) -> list[tuple]:
    """An ASCII STL's triangles, ((x, y, z) * 3) each, corners in the file's order."""
    found, corners = [], []
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ["vertex"]:
            corners.append(tuple(map(float, words[1:4])))
        elif words[:1] == ["endfacet"]:
            found.append(tuple(corners))
            corners = []
    return found
