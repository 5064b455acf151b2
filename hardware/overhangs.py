"""Does every printed part print as exported, without supports?

    .venv/bin/python hardware/overhangs.py            # export every part, list what would need supports
    .venv/bin/python hardware/overhangs.py part.stl   # or check STL files of your own

A part prints without supports when every face that looks down is on the bed, or steep
enough, or held up on its way out.  What it means here, on the exported STL:

- A face is an **overhang** when it looks down more than OVERHANG_DEG (45°) from vertical
  and reaches above the first layer (a corner higher than FIRST_LAYER).  A sloped one
  fails as it is, even one rising from the bed: each layer steps out further than the one
  under it can carry.
- A flat (horizontal) overhang is looked at point by point, on a grid of PITCH mm, against
  the material just under it (FIRST_LAYER / 2 lower).  A point is held up when
    - it is a **ledge**: material lies within LEDGE mm of it (a counterbore's ring under
      a screw head, a rail's groove: the perimeters reach that far out with a little
      droop), or
    - it is on a **bridge**: along x or along y, the stretch of the face through it, with
      no gap, ends on material at both ends and spans at most BRIDGE mm (the longest the
      shell's roof may bridge, piece.scad's `bridge_span`).  A hole through the face
      breaks the stretch: a ring round a hole is a ledge or nothing.
  Anything else (more than LEDGE_AREA mm² of it per level) would need supports.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import stlio  # noqa: E402  (hardware/stlio.py)

OVERHANG_DEG = 45.0  # steeper than this from vertical needs holding up
FIRST_LAYER = 0.2  # mm: faces lower than this are on the bed
LEDGE = 2.5  # mm a flat overhang may reach out past material under it
BRIDGE = 12.0  # mm a flat overhang may span between material at both ends
PITCH = 0.2  # mm: the grid a flat overhang is looked at on
LEDGE_AREA = 0.5  # mm²: less than this unheld per level is the grid's edge, not a fault

# What each model exports for printing (the parts its header tells a builder to print).
PRINTED = {"seesaw.scad": ("base", "carrier", "pan", "cover"), "piece.scad": ("piece", "cap")}


@dataclass(frozen=True)
class Overhang:
    """Part of a part that would need supports."""

    z: float  # mm above the bed
    area_mm2: float
    xy: tuple[float, float, float, float]  # its extent: x from, x to, y from, y to
    sloped: bool  # a sloped face (else flat and neither a ledge nor a bridge)

    def __str__(self) -> str:
        x0, x1, y0, y1 = self.xy
        kind = f"faces looking down more than {OVERHANG_DEG:g}° from vertical" if self.sloped else \
            f"flat overhang neither a ledge (≤ {LEDGE:g} mm) nor a bridge (≤ {BRIDGE:g} mm)"
        return (f"{self.area_mm2:.1f} mm² of {kind} at z = {self.z:.2f} mm, "
                f"x {x0:.1f} to {x1:.1f}, y {y0:.1f} to {y1:.1f}")


def overhangs(triangles) -> list[Overhang]:
    """What of a part (triangles as stlio.triangles gives them, outward normals by their
    corners' order; its lowest point on the bed) would need supports, lowest first."""
    tris = np.asarray(triangles, dtype=float).reshape(-1, 3, 3)
    tris[:, :, 2] -= tris[:, :, 2].min()
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    keep = lengths > 1e-12
    tris, nz = tris[keep], normals[keep, 2] / lengths[keep]
    down = (nz < -math.cos(math.radians(OVERHANG_DEG))) & (tris[:, :, 2].max(axis=1) > FIRST_LAYER)
    flat = down & (nz < -0.9999)  # above the first layer, as every corner is at one height
    found = []
    for t in tris[down & ~flat]:
        found.append(Overhang(float(t[:, 2].min()), _area(t), _extent(t), True))
    levels = np.round(tris[flat][:, 0, 2], 4)
    for z in sorted(set(levels.tolist())):
        found += _flat_level(tris, tris[flat][levels == z], z)
    return sorted(found, key=lambda o: o.z)


def _area(t) -> float:
    return float(np.linalg.norm(np.cross(t[1] - t[0], t[2] - t[0])) / 2)


def _extent(t) -> tuple[float, float, float, float]:
    return float(t[:, 0].min()), float(t[:, 0].max()), float(t[:, 1].min()), float(t[:, 1].max())


def _covered(tris, xs, ys):
    """For each grid point (xs, ys): how many of the triangles' xy shadows hold it, and the
    triangle's z there (per triangle, nan where not held)."""
    a, b, c = tris[:, 0, None, None, :], tris[:, 1, None, None, :], tris[:, 2, None, None, :]
    det = (b[..., 1] - c[..., 1]) * (a[..., 0] - c[..., 0]) + (c[..., 0] - b[..., 0]) * (a[..., 1] - c[..., 1])
    det = np.where(np.abs(det) < 1e-12, np.nan, det)
    l1 = ((b[..., 1] - c[..., 1]) * (xs - c[..., 0]) + (c[..., 0] - b[..., 0]) * (ys - c[..., 1])) / det
    l2 = ((c[..., 1] - a[..., 1]) * (xs - c[..., 0]) + (a[..., 0] - c[..., 0]) * (ys - c[..., 1])) / det
    l3 = 1 - l1 - l2
    inside = (l1 >= 0) & (l2 >= 0) & (l3 >= 0)
    z = l1 * a[..., 2] + l2 * b[..., 2] + l3 * c[..., 2]
    return inside, np.where(inside, z, np.nan)


def _flat_level(tris, faces, z) -> list[Overhang]:
    """The flat overhangs at height z that are neither ledges nor bridges."""
    lo = faces[:, :, :2].reshape(-1, 2).min(axis=0) - LEDGE - PITCH
    hi = faces[:, :, :2].reshape(-1, 2).max(axis=0) + LEDGE + PITCH
    # off the model's round numbers, so no grid point falls on an edge
    xs = np.arange(lo[0], hi[0], PITCH) + PITCH * 0.3183
    ys = np.arange(lo[1], hi[1], PITCH) + PITCH * 0.2718
    gx, gy = np.meshgrid(xs, ys)
    face = np.zeros(gx.shape, bool)
    for chunk in np.array_split(faces, max(1, len(faces) // 64)):
        face |= _covered(chunk, gx, gy)[0].any(axis=0)
    # under the face: solid where a vertical line from the point up crosses the surface an odd number of times
    probe = z - FIRST_LAYER / 2
    near = tris[(tris[:, :, 2].max(axis=1) > probe)]
    crossings = np.zeros(gx.shape, int)
    for chunk in np.array_split(near, max(1, len(near) // 64)):
        inside, zs = _covered(chunk, gx, gy)
        crossings += (inside & (zs > probe)).sum(axis=0)
    solid = crossings % 2 == 1
    held = _near(solid, LEDGE / PITCH) | _bridged(face, solid) | _bridged(face.T, solid.T).T
    loose = face & ~held
    if loose.sum() * PITCH ** 2 <= LEDGE_AREA:
        return []
    lx, ly = gx[loose], gy[loose]
    return [Overhang(float(z), float(loose.sum() * PITCH ** 2),
                     (float(lx.min()), float(lx.max()), float(ly.min()), float(ly.max())), False)]


def _near(solid, radius: float):
    """Grid points within `radius` points of a solid one."""
    out = solid.copy()
    r = int(radius)
    rows, cols = solid.shape
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if 0 < dx * dx + dy * dy <= radius * radius:
                shifted = np.zeros_like(solid)
                shifted[max(0, dy):rows + min(0, dy), max(0, dx):cols + min(0, dx)] = \
                    solid[max(0, -dy):rows + min(0, -dy), max(0, -dx):cols + min(0, -dx)]
                out |= shifted
    return out


def _bridged(face, solid):
    """Face points on a stretch along a row that ends on solid at both ends, BRIDGE mm or less."""
    out = np.zeros_like(face)
    longest = BRIDGE / PITCH
    for i, row in enumerate(face):
        j = 0
        while j < len(row):
            if not row[j]:
                j += 1
                continue
            k = j
            while k < len(row) and row[k]:
                k += 1
            if j > 0 and k < len(row) and solid[i, j - 1] and solid[i, k] and k - j <= longest:
                out[i, j:k] = True
            j = k
    return out


def check_models(out_dir: Path, *defines: str) -> dict[str, list[Overhang]]:
    """Every printed part of hardware/'s models, exported and checked: {"model:part": overhangs}."""
    return {f"{model}:{part}": overhangs(stlio.triangles(stlio.export(HERE / model, part, out_dir, *defines).read_text()))
            for model, parts in PRINTED.items() for part in parts}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("stl", nargs="*", type=Path, help="ASCII STL files (default: export every printed part)")
    args = parser.parse_args(argv)
    if args.stl:
        found = {str(p): overhangs(stlio.triangles(p.read_text())) for p in args.stl}
    else:
        with tempfile.TemporaryDirectory() as tmp:
            found = check_models(Path(tmp), "$fn=24")
    for name, faults in found.items():
        print(f"{name}: {'prints without supports' if not faults else 'needs supports:'}")
        for fault in faults:
            print(f"  {fault}")
    return 1 if any(found.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
