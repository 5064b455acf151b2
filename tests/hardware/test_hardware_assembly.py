"""hardware/assembly.md can be followed in order: no step needs one taken later, nor software a
builder installs only after it (README.md's build order and bringup.md)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "hardware"
ASSEMBLY = (ROOT / "assembly.md").read_text(encoding="utf-8")


def steps(text: str, heading: str) -> dict[int, str]:
    """The numbered steps under `heading`, by number."""
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", section, re.M | re.S)
    return {int(n): body for n, body in found}


def step_of(found: dict[int, str], pattern: str) -> int:
    return next(n for n, body in found.items() if re.search(pattern, body))


def test_the_steps_are_numbered_in_order_and_none_points_forward():
    found = steps(ASSEMBLY, "## Assembly")
    assert list(found) == list(range(1, len(found) + 1))
    for n, body in found.items():
        for later in re.findall(r"before step (\d+)", body):
            assert int(later) > n, f"step {n} says to do it before step {later}, which a builder has done"


def test_the_stop_screws_go_in_before_the_carriers_cover_them():
    found = steps(ASSEMBLY, "## Assembly")
    screwed_in = step_of(found, r"M3 × 12 socket-head screw, head up, into each stop boss")
    assert screwed_in < step_of(found, r"^\*\*Carriers\*\*")
    assert screwed_in < step_of(found, r"^\*\*Overload stops\*\*")


def test_the_monitor_is_installed_before_the_cells_are_checked():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    order = steps(readme, "## Building one, in order")
    install = step_of(order, r"\[bringup\.md\]\(bringup\.md\)\s+steps 1–6")
    assert install < step_of(order, r"Assemble the mechanics")
    assert "monitor" in steps(ASSEMBLY, "## Assembly")[1]
    bringup = (ROOT / "bringup.md").read_text(encoding="utf-8")
    monitor = bringup.index("## 6. `companion monitor`")
    assert "Steps 1–6 need\nno mechanics" in bringup and bringup.index("## 7.") > monitor
