"""hardware/images/ are the models' renders (hardware/render.sh), and the guides show each one."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "hardware" / "render.sh"


def names() -> list[str]:
    return re.findall(r"^(\w+)\|", SCRIPT.read_text(), re.M)


def test_every_picture_is_committed_and_shown_in_a_guide():
    guides = "".join((ROOT / "hardware" / f).read_text(encoding="utf-8") for f in ("assembly.md", "pieces.md"))
    assert {"exploded", "assembly", "cell_mount", "base", "carrier", "pan", "cover"} <= set(names())
    for name in names():
        assert (ROOT / "hardware" / "images" / f"{name}.png").stat().st_size > 2000, name
        assert f"](images/{name}.png)" in guides, name
    assert {p.stem for p in (ROOT / "hardware" / "images").glob("*.png")} == set(names())  # none left over


@pytest.mark.skipif(not (shutil.which("openscad") and shutil.which("xvfb-run")), reason="needs openscad and xvfb-run")
def test_the_script_renders_a_picture(tmp_path):
    result = subprocess.run(["sh", str(SCRIPT), str(tmp_path), "carrier", "cap_on_piece"], capture_output=True,
                            text=True, timeout=300, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    for name in ("carrier", "cap_on_piece"):
        png = (tmp_path / f"{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 2000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cap_on_piece.png", "carrier.png"]
